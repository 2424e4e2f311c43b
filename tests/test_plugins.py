"""The plug-in path: entry points, the contract, and meta-tests over every installed system."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from pydantic import BaseModel

from conftest import write_plugin
from jdr.dice import Seeded
from jdr.errors import UnknownNameError
from jdr.i18n import language
from jdr.params import validate_params
from jdr.systems import (
    ENTRY_POINT_GROUP,
    PluginError,
    Registry,
    RuleSystem,
    System,
    default_registry,
)
from jdr.systems.registry import check_system


def test_example_system_is_found_through_its_entry_point(installed_example: Registry) -> None:
    assert "example" in installed_example.ids()
    system = installed_example.get("example")
    assert isinstance(system, RuleSystem)
    assert system.id == "example"
    assert default_registry() is installed_example


def test_entry_point_group_is_jdr_systems() -> None:
    assert ENTRY_POINT_GROUP == "jdr.systems"


def test_ids_are_listed_without_importing_the_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(
        str(write_plugin(tmp_path, "lazy = module_that_does_not_exist:SYSTEM"))
    )
    registry = Registry.from_entry_points()
    assert "lazy" in registry.ids()  # listing imports nothing
    with pytest.raises(PluginError) as caught:
        registry.get("lazy")
    assert "lazy" in caught.value.message()
    assert "ModuleNotFoundError" in caught.value.message()


def test_unknown_system_lists_the_known_ones(installed_example: Registry) -> None:
    with pytest.raises(UnknownNameError) as caught:
        installed_example.get("pokemen")
    assert "example" in caught.value.message()


def test_system_ids_are_case_insensitive(installed_example: Registry) -> None:
    assert installed_example.get("EXAMPLE").id == "example"


def test_an_object_that_breaks_the_contract_is_refused() -> None:
    with pytest.raises(PluginError, match="missing"):
        check_system("broken", object())
    with pytest.raises(PluginError, match="its id is"):
        check_system("other", System("example", {"en": "x"}))


def test_reserved_option_names_are_refused() -> None:
    from jdr.systems import Action

    class Clash(BaseModel):
        seed: int = 0

    system = System("clash", {"en": "c"}, {"a": Action("a", Clash, lambda p, r: None)})  # type: ignore[arg-type,return-value]
    with pytest.raises(PluginError, match="reserved"):
        check_system("clash", system)


def _every_system() -> list[RuleSystem]:
    """Every system installed in this environment, plus the example plug-in."""
    import example_system

    installed = Registry.from_entry_points().all()
    return [*installed, example_system.SYSTEM]


@pytest.mark.parametrize("system", _every_system(), ids=lambda s: s.id)
def test_every_system_keeps_the_contract(system: RuleSystem) -> None:
    check_system(system.id, system)
    assert system.names.get("fr") and system.names.get("en")
    assert system.actions, "a system has at least one action"
    for name, action in system.actions.items():
        assert issubclass(action.params, BaseModel)
        assert action.example, f"{name} gives an example to run"
        params = validate_params(action.params, action.example)
        record = action.roll(params, Seeded(7))
        assert all(isinstance(face, int) for face in record.faces), "a roll keeps its faces"
        json.dumps(dict(record.totals))
        for lang in ("en", "fr"):
            with language(lang):
                assert record.explain().strip()
        if action.odds is not None:
            exact = action.odds(params, True)
            assert sum(exact.outcomes.values()) == Fraction(1)
            assert record.outcome in exact.outcomes
            floats = action.odds(params, False)
            for key, p in exact.outcomes.items():
                assert abs(float(p) - float(floats.outcomes[key])) < 1e-12


@pytest.mark.parametrize("system", _every_system(), ids=lambda s: s.id)
def test_every_fight_is_a_fold_of_its_events(system: RuleSystem) -> None:
    if system.fight is None:
        pytest.skip("no fight rules")
    from jdr.systems import FightRules

    assert isinstance(system.fight, FightRules)
