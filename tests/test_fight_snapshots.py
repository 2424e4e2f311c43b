"""Folds in linear time (issue 17): a stored fight's snapshot carried forward equals the fold of
its whole log from scratch, over random fights of every system; an action reads the snapshot and
the events after it only; `verify` carries each fight's state forward."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jdr.cli.demo_fights import SCRIPTS, Script
from jdr.dice import Seeded
from jdr.errors import JdrError
from jdr.fights import fold, service
from jdr.fights.service import effective_events
from jdr.journal.replay import replayer_for
from jdr.journal.service import export
from jdr.journal.verify import verify
from jdr.store import Store, open_store
from jdr.systems import default_registry
from jdr.systems.protocol import Json, RuleSystem

BY_SYSTEM = {script.system: script for script in SCRIPTS}


def _open(store: Store, script: Script, system: RuleSystem, seed: int) -> int:
    from jdr.cli.store_commands import validate_file
    from jdr.fights.setup import build_setup, participants

    campaign_id = store.create_campaign(system.id, f"snap-{system.id}-{seed}")
    folder = Path(__file__).parent.parent / "src/jdr/systems"
    folder = folder / system.id.replace("-", "_") / "examples"
    for file, name in script.sheets:
        sheet = validate_file(system, folder / file)
        store.add_character(campaign_id, name, sheet.model_dump(mode="json"))
    names = list(dict.fromkeys(name for _file, name in script.sheets))
    fighters = [
        {"name": name, "sheet": store.character_named(campaign_id, name).sheet, "side": side}
        for name, side in participants(names, script.sides)
    ]
    rules = system.fight
    assert rules is not None
    setup = build_setup(system, fighters, {})
    return service.open_fight(store, campaign_id, rules, setup, names, Seeded(seed)).fight_id


def _pairs(keys: Json) -> list[str]:
    return [f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in keys.items()]


def _step(store: Store, fight: int, system: RuleSystem, draw: Any) -> None:
    """One random move: undo, redo, or a command legal now (refused ones store nothing)."""
    rules = system.fight
    assert rules is not None
    kind = draw(st.sampled_from(["act", "act", "act", "undo", "redo"]))
    try:
        if kind == "undo":
            service.undo(store, fight, rules=rules)
        elif kind == "redo":
            service.redo(store, fight, rules=None if draw(st.booleans()) else rules)
        else:
            state = service.state(store, fight, rules)
            actor = draw(st.sampled_from(list(store.fight(fight).participants)))
            legal = service.legal_now(system, state, actor)
            if not legal:
                return
            name = draw(st.sampled_from(sorted(legal)))
            commands = system.fight_commands  # type: ignore[attr-defined]
            keys = commands.get(name).example_keys(state, actor)
            salt = lambda: "5a17"  # noqa: E731
            rng = Seeded(draw(st.integers(0, 10_000)))
            service.play(store, fight, system, actor, name, _pairs(keys), rng, salt=salt)
    except JdrError:
        return


def _scratch(store: Store, fight: int, system: RuleSystem) -> Json:
    assert system.fight is not None
    return fold(system.fight, effective_events(store.events(fight)))


@pytest.mark.parametrize("system_id", sorted(BY_SYSTEM))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(1, 1_000_000))
def test_snapshot_carried_forward_equals_fold_from_scratch(
    system_id: str, data: st.DataObject, seed: int
) -> None:
    system = default_registry().get(system_id)
    assert system.fight is not None
    store = open_store("sqlite://")
    try:
        fight = _open(store, BY_SYSTEM[system_id], system, seed)
        for _ in range(data.draw(st.integers(1, 10))):
            _step(store, fight, system, data.draw)
            assert service.state(store, fight, system.fight) == _scratch(store, fight, system)
        report = verify(export(store, store.campaign_of_fight(fight)), replayer_for)
        assert report.ok, [p.message() for p in report.problems]
    finally:
        store.close()


def _new_fight(system_id: str) -> tuple[Store, int, RuleSystem]:
    system = default_registry().get(system_id)
    store = open_store("sqlite://")
    return store, _open(store, BY_SYSTEM[system_id], system, 3), system


def test_an_action_reads_the_snapshot_and_the_new_events_only(monkeypatch: Any) -> None:
    store, fight, system = _new_fight("plus-ultra")
    rules = system.fight
    assert rules is not None
    read: list[int] = []
    whole = Store.events

    def counted(self: Store, fight_id: int, after: int = 0) -> Any:
        read.append(after)
        return whole(self, fight_id, after)

    monkeypatch.setattr(Store, "events", counted)
    played = service.play(store, fight, system, "Kaito", "attack", ["target=Corbeau"], Seeded(4))
    assert read == []  # the whole log was never read: the snapshot and the events after it
    log = store.fight_log(fight)
    assert log.snapshot is not None and log.snapshot.version == played.acted.version
    assert log.events == []
    service.undo(store, fight, rules=rules)  # an undo folds the whole log again, once
    assert read == [0]
    monkeypatch.undo()
    assert played.acted.before is not None
    assert store.fight_log(fight).snapshot.state == _scratch(store, fight, system)  # type: ignore[union-attr]
    store.close()


def test_a_fight_without_snapshot_folds_its_log_then_keeps_one() -> None:
    from sqlalchemy import delete

    from jdr.store.models import fight_snapshots

    store, fight, system = _new_fight("plus-ultra")
    with store.engine.begin() as conn:  # a fight stored before migration 0005
        conn.execute(delete(fight_snapshots))
    assert store.fight_log(fight).snapshot is None
    assert system.fight is not None
    assert service.state(store, fight, system.fight) == _scratch(store, fight, system)
    played = service.play(store, fight, system, "Kaito", "attack", ["target=Corbeau"], Seeded(4))
    log = store.fight_log(fight)
    assert log.snapshot is not None and log.snapshot.version == played.acted.version
    assert log.snapshot.state == _scratch(store, fight, system)
    store.close()


def test_an_undo_without_rules_leaves_the_snapshot_behind_and_the_state_right() -> None:
    store, fight, system = _new_fight("plus-ultra")
    assert system.fight is not None
    service.play(store, fight, system, "Kaito", "attack", ["target=Corbeau"], Seeded(4))
    service.undo(store, fight)  # no rules: no snapshot written, the next read folds again
    log = store.fight_log(fight)
    assert log.snapshot is not None and [e.event["type"] for e in log.events] == ["undone"]
    assert service.state(store, fight, system.fight) == _scratch(store, fight, system)
    store.close()
