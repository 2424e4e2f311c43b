"""A fight is a fold over its events: the example system's two-turn duel."""

from __future__ import annotations

import json

import pytest

import example_system
from jdr.dice import GivenFaces
from jdr.errors import RulesError
from jdr.fights import Fight, fold, play

RULES = example_system.Duel()
SETUP = {"fighters": ["Ana", "Bo"], "vitality": 3}


def test_two_turn_fight_with_given_faces() -> None:
    # Ana rolls 2d6: 6, 5 → 2 successes → Bo loses 2; Bo rolls 2d6: 1, 2 → score −1 → no damage.
    fight = play(
        RULES,
        SETUP,
        [
            {"actor": "Ana", "action": "attack", "dice": 2},
            {"actor": "Bo", "action": "attack", "dice": 2},
        ],
        GivenFaces([6, 5, 1, 2]),
    )
    state = fight.state
    assert state["vitality"] == {"Ana": 3, "Bo": 1}
    assert state["turn"] == "Ana"
    assert [e["type"] for e in fight.events] == ["started", "attacked", "attacked"]


def test_state_is_the_fold_of_the_events_and_survives_json() -> None:
    fight = play(
        RULES, SETUP, [{"actor": "Ana", "action": "attack", "dice": 2}], GivenFaces([6, 6])
    )
    stored = json.loads(json.dumps(fight.events))
    assert fold(RULES, stored) == fight.state


def test_knock_out_ends_the_fight() -> None:
    fight = play(
        RULES, SETUP, [{"actor": "Ana", "action": "attack", "dice": 3}], GivenFaces([6, 6, 5])
    )
    assert fight.state["over"] and fight.state["winner"] == "Ana"
    assert RULES.legal_commands(fight.state) == []
    with pytest.raises(RulesError, match="over"):
        fight.act({"actor": "Bo", "action": "attack"}, GivenFaces([6, 6]))


def test_acting_out_of_turn_is_refused_and_changes_nothing() -> None:
    fight = Fight.start(RULES, SETUP, GivenFaces([]))
    before = list(fight.events)
    with pytest.raises(RulesError, match="Ana"):
        fight.act({"actor": "Bo", "action": "attack"}, GivenFaces([6, 6]))
    assert fight.events == before
