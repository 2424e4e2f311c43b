"""Plus Ultra sheets: the models, their validation (PU-2, PU-7) and the TOML loaders."""

from __future__ import annotations

from pathlib import Path

import pytest

from jdr.errors import InputError, UnknownNameError
from jdr.i18n import language
from jdr.systems.plus_ultra.rules import RANKS, base_maximum, free_points
from jdr.systems.plus_ultra.sheets import (
    EXAMPLES,
    Character,
    SheetError,
    Technique,
    example_path,
    load_character,
    load_example,
)

HERO = example_path("hero").read_text(encoding="utf-8")


def sheet(rank: str = "C", energy: int = 8, willpower: int = 8, techniques: str = "") -> str:
    return (
        f'name = "Test"\nrank = "{rank}"\nenergy = {energy}\nwillpower = {willpower}\n{techniques}'
    )


def technique(body: str) -> str:
    return f'[[techniques]]\nname = "T"\n{body}\n'


def refused(text: str) -> SheetError:
    with pytest.raises(SheetError) as caught:
        load_character(text)
    return caught.value


# --- the example sheets -----------------------------------------------------------------------


def test_the_hero_is_rank_c_with_three_techniques() -> None:
    hero = load_example("hero")
    assert (hero.rank, hero.energy, hero.willpower) == ("C", 8, 8)
    assert len(hero.techniques) == 3
    assert [t.cooldown for t in hero.techniques if t.cooldown == 2] == [2]
    equipment = [t for t in hero.techniques if t.equipment]
    assert [(t.name, t.cost) for t in equipment] == [("Gantelets lestés", 0)]
    assert hero.technique("rafale").effects.extra_attacks == 1


def test_the_villain_is_rank_b() -> None:
    villain = load_example("villain")
    assert (villain.rank, villain.energy + villain.willpower) == ("B", 22)
    effects = [t.effects for t in villain.techniques]
    assert any(e.lower_willpower for e in effects) and any(e.lower_energy for e in effects)


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_loads_from_its_path(name: str) -> None:
    path = Path(str(example_path(name)))
    assert load_character(path) == load_example(name)
    assert load_character(str(path)) == load_example(name)


def test_an_unknown_example_lists_the_known_ones() -> None:
    with pytest.raises(UnknownNameError) as caught:
        example_path("sidekick")
    assert "hero, villain" in caught.value.message()


def test_an_unknown_technique_lists_the_sheet_s_techniques() -> None:
    with pytest.raises(UnknownNameError) as caught:
        load_example("hero").technique("Kamehameha")
    assert "Rafale" in caught.value.message()


# --- PU-2: maxima must add up for the rank -------------------------------------------------------


@pytest.mark.parametrize("rank", RANKS)
def test_pu_2_every_rank_accepts_its_base_plus_its_free_points(rank: str) -> None:
    base, free = base_maximum(rank), free_points(rank)
    assert base == 2 + RANKS.index(rank)
    assert free == RANKS.index(rank)
    for energy in range(base, base + free + 1):
        character = load_character(sheet(rank.lower(), energy, 2 * base + free - energy))
        assert character.rank == rank


@pytest.mark.parametrize(
    ("rank", "energy", "willpower", "expected"),
    [
        ("C", 8, 9, "willpower: 9 — 5 points placed, rank C gives 4 to split (PU-2)"),
        ("C", 7, 8, "willpower: 8 — 3 points placed, rank C gives 4 to split (PU-2)"),
        ("C", 5, 11, "energy: 5 — Énergie 5 is below the base 6 of rank C (PU-2)"),
        ("D", 6, 3, "willpower: 3 — Volonté 3 is below the base 4 of rank D (PU-2)"),
        ("E", 3, 2, "willpower: 2 — 1 points placed, rank E gives 0 to split (PU-2)"),
    ],
)
def test_pu_2_maxima_that_do_not_add_up_are_refused_with_the_rule(
    rank: str, energy: int, willpower: int, expected: str
) -> None:
    error = refused(sheet(rank, energy, willpower))
    assert error.message().startswith(expected)
    assert "(allowed: Énergie + Volonté = " in error.message()


def test_pu_2_an_unknown_rank_is_refused() -> None:
    error = refused(sheet("F"))
    assert error.field == "rank"
    assert "unknown rank" in error.message()
    assert "E, E+, D" in error.message()


def test_a_sheet_error_in_french_keeps_path_and_value() -> None:
    with language("fr"), pytest.raises(SheetError) as caught:
        load_character(sheet("C", 8, 9))
    assert caught.value.message().startswith("willpower: 9")


# --- PU-7: techniques ---------------------------------------------------------------------------


def test_pu_7_only_an_equipment_technique_may_cost_nothing() -> None:
    error = refused(sheet(techniques=technique("cost = 0")))
    assert error.field == "techniques[1].cost"
    assert "PU-7" in error.message()
    free = load_character(sheet(techniques=technique("cost = 0\nequipment = true")))
    assert free.techniques[0].cost == 0


def test_pu_7_a_technique_never_costs_more_than_the_willpower_maximum() -> None:
    error = refused(sheet(techniques=technique("cost = 8")) + technique("cost = 9"))
    assert error.field == "techniques[2].cost"
    assert "more than the Volonté maximum 8" in error.message()


def test_pu_7_cost_and_cooldown_are_never_negative() -> None:
    assert refused(sheet(techniques=technique("cost = -1"))).field == "techniques[1].cost"
    error = refused(sheet(techniques=technique("cost = 1\ncooldown = -2")))
    assert error.field == "techniques[1].cooldown"


def test_pu_7_an_unknown_effect_is_refused_with_the_known_ones() -> None:
    error = refused(sheet(techniques=technique("cost = 1\neffects = { stun = 1 }")))
    assert error.field == "techniques[1].effects.stun"
    assert "unknown key" in error.message()
    assert "extra_attacks, attack_bonus, extra_damage" in error.message()


def test_pu_7_effects_the_tool_understands_and_free_text() -> None:
    body = (
        "cost = 2\ncooldown = 2\neffects = { extra_attacks = 2, attack_bonus = 1, extra_damage = 1,"
        ' defense_bonus = 3, lower_willpower = 1, lower_energy = 1, text = "pushes back" }'
    )
    effects = load_character(sheet(techniques=technique(body))).techniques[0].effects
    assert (effects.extra_attacks, effects.defense_bonus, effects.text) == (2, 3, "pushes back")


def test_the_same_technique_twice_is_refused() -> None:
    body = technique("cost = 1") + '[[techniques]]\nname = " t "\ncost = 2\n'
    assert refused(sheet(techniques=body)).field == "techniques[2].name"


def test_a_technique_needs_a_name() -> None:
    assert Technique(name=" Éclair ", cost=1).name == "Éclair"
    body = '[[techniques]]\nname = "  "\ncost = 1\n'
    assert refused(sheet(techniques=body)).field == "techniques[1].name"


# --- files ----------------------------------------------------------------------------------


def test_bad_toml_is_refused_clearly() -> None:
    with pytest.raises(InputError) as caught:
        load_character('name = "Kai"\nrank = ')
    assert caught.value.message().startswith("sheet, line 2, column 8: not a TOML value (")


def test_a_missing_file_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        load_character(tmp_path / "nobody.toml")
    assert "nobody.toml" in caught.value.message()


def test_a_missing_key_and_an_unknown_key_are_all_reported() -> None:
    error = refused('name = "Kai"\nrank = "E"\nenergy = 2\nhp = 4')
    fields = {problem.field for problem in error.problems}
    assert fields == {"willpower", "hp"}


def test_a_sheet_is_a_plain_model() -> None:
    kai = Character.model_validate({"name": "Kai", "rank": "e+", "energy": 3, "willpower": 4})
    assert kai.model_dump() == {
        "name": "Kai",
        "rank": "E+",
        "energy": 3,
        "willpower": 4,
        "techniques": [],
    }
