"""Ilvermorny duels as fights (IL-5 … IL-11): whole duels scripted with given faces, every event
checked.

Each duel ends with `finish`: every given face was used, and the state is the fold of the events
after a JSON round trip (a fight is a fold over its events). `refuse` checks that an illegal command
raises `RulesError` with its rule, rolls nothing and changes nothing.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from fight_checks import check, finish, refuse
from jdr.dice import GivenFaces, Recording, Seeded
from jdr.errors import InputError, RulesError
from jdr.fights import Fight, fold, play
from jdr.fights.sealed import check as check_seal
from jdr.fights.sealed import public, seal
from jdr.systems import FightRules
from jdr.systems.ilvermorny.fight import IlvermornyDuel, fight_rules
from jdr.systems.ilvermorny.rules import STATS

RULES = fight_rules()
Expected = list[tuple[str, dict[str, Any]]]


def spell(
    name: str, element: str, level: int = 2, xp: int = 0, difficulty: int = 1
) -> dict[str, Any]:
    return {"name": name, "element": element, "level": level, "xp": xp, "difficulty": difficulty}


def wizard(name: str, magic: int, *spells: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "stats": dict.fromkeys(STATS, 5) | {"magic": magic},
        "spells": list(spells),
    }


ANN = wizard("Ann", 7, spell("Incendio", "feu"), spell("Lumos", "neutre", level=1, xp=9))
BOB = wizard("Bob", 6, spell("Aguamenti", "eau"), spell("Stupefix", "feu", level=0))
SETUP = {"wizards": [ANN, BOB]}


def cast(wizard_name: str, spell_name: str) -> dict[str, Any]:
    return {"action": "cast", "wizard": wizard_name, "spell": spell_name}


SEALS = {name: seal({"spell": name}, "") for name in ("Incendio", "Aguamenti")}


def test_il_11_spells_are_sealed_until_both_wizards_have_chosen_and_each_one_rolls_its_dice() -> (
    None
):
    """The first choice is committed and shown to nobody; the second opens both, with their
    salts, and the dice are rolled: each wizard's cast and Magie test are journaled as theirs."""
    duel = play(RULES, SETUP, [cast("Ann", "Incendio") | {"salt": "a1"}], GivenFaces([]))
    chosen = duel.events[-1]
    assert public(chosen) == {
        "type": "spell_chosen",
        "round": 1,
        "wizard": "Ann",
        "sealed": seal({"spell": "Incendio"}, "a1"),
    }
    assert public(duel.state)["chosen"] == {"Ann": None} and "secret" not in public(duel.state)
    source = Recording(GivenFaces([2, 3, 6, 5]))
    events = duel.act(cast("Bob", "Aguamenti") | {"salt": "b2"}, source)
    opened = events[1]
    assert opened["type"] == "spells_opened" and opened["unsealed"] == [
        chosen["sealed"],
        events[0]["sealed"],
    ]
    for shown in opened["choices"].values():
        assert check_seal({"spell": shown["spell"]}, shown["salt"], shown["sealed"])
    assert source.owners == ["Ann", "Bob", "Ann", "Bob"]  # casts, then the Magie tests
    assert duel.state["secret"] == {} and duel.state["chosen"] == {}  # round 2 started
    with pytest.raises(InputError, match="salt"):
        duel.act(cast("Ann", "Lumos") | {"salt": 7}, GivenFaces([]))


def test_il_11_a_duel_from_before_spells_were_sealed_keeps_them_in_the_clear() -> None:
    opening = RULES.start(SETUP, GivenFaces([]))
    legacy = [{k: v for k, v in opening[0].items() if k != "sealed"}, *opening[1:]]
    duel = Fight(RULES, legacy)
    source = Recording(GivenFaces([2, 3, 6, 5]))
    duel.act(cast("Ann", "Incendio"), source)
    events = duel.act(cast("Bob", "Aguamenti"), source)
    assert events[0] == {"type": "spell_chosen", "round": 1, "wizard": "Bob", "spell": "Aguamenti"}
    assert "spells_opened" not in [e["type"] for e in events]
    assert source.owners == [None] * 4


def test_the_duel_keeps_the_fight_contract() -> None:
    assert isinstance(RULES, FightRules)
    assert isinstance(RULES, IlvermornyDuel)
    from jdr.systems.ilvermorny import SYSTEM

    assert isinstance(SYSTEM.fight, IlvermornyDuel)


def test_il_11_a_round_both_cast_then_the_clash() -> None:
    faces = GivenFaces([2, 3, 6, 5])
    duel = play(RULES, SETUP, [cast("Ann", "Incendio"), cast("bob", "AGUAMENTI")], faces)
    check(
        duel.events,
        [
            ("duel_started", {}),
            ("round_started", {"round": 1}),
            ("spell_chosen", {"wizard": "Ann", "sealed": seal({"spell": "Incendio"}, "")}),
            ("spell_chosen", {"wizard": "Bob", "sealed": seal({"spell": "Aguamenti"}, "")}),
            (
                "spells_opened",
                {
                    "choices": {
                        "Ann": {"spell": "Incendio", "salt": "", "sealed": SEALS["Incendio"]},
                        "Bob": {"spell": "Aguamenti", "salt": "", "sealed": SEALS["Aguamenti"]},
                    },
                    "unsealed": [SEALS["Incendio"], SEALS["Aguamenti"]],
                },
            ),
            ("spell_cast", {"wizard": "Ann", "natural": 2, "result": -1, "outcome": "success"}),
            ("spell_cast", {"wizard": "Bob", "natural": 3, "result": 0, "xp_gained": 3}),
            (
                "clash_rolled",
                {
                    "dominant": "Bob",
                    "tests": [
                        {
                            "wizard": "Ann",
                            "natural": 6,
                            "modifier": 1,
                            "result": 7,
                            "outcome": "success",
                        },
                        {
                            "wizard": "Bob",
                            "natural": 5,
                            "modifier": -1,
                            "result": 4,
                            "outcome": "success",
                        },
                    ],
                    "winner": "Bob",  # both succeed: the dominant spell hits
                },
            ),
            ("spell_hit", {"caster": "Bob", "spell": "Aguamenti", "target": "Ann", "by": "clash"}),
            ("round_over", {"round": 1, "outcome": "hit", "caster": "Bob"}),
            ("round_started", {"round": 2}),
        ],
    )
    state = finish(duel, faces)
    assert state["hits"] == [
        {"round": 1, "caster": "Bob", "spell": "Aguamenti", "target": "Ann", "by": "clash"}
    ]
    assert state["spells"]["Ann"]["Incendio"]["xp"] == 3
    assert RULES.legal_commands(state) == ["cast", "end"]


def test_il_11_one_spell_alone_lands_without_a_clash() -> None:
    faces = GivenFaces([12, 4])  # Ann fails critically; Bob casts
    duel = play(RULES, SETUP, [cast("Bob", "Aguamenti"), cast("Ann", "Incendio")], faces)
    check(
        duel.events[5:],
        [
            ("spell_cast", {"wizard": "Ann", "outcome": "critical_failure", "xp_gained": 1}),
            ("spell_cast", {"wizard": "Bob", "outcome": "success"}),
            ("spell_hit", {"caster": "Bob", "target": "Ann", "by": "alone"}),
            ("round_over", {"outcome": "hit", "caster": "Bob"}),
            ("round_started", {"round": 2}),
        ],
    )
    finish(duel, faces)


def test_il_11_neither_cast_nothing_lands_and_no_dominance_cancels() -> None:
    faces = GivenFaces([11, 11, 1, 2, 4, 4])
    duel = play(
        RULES,
        SETUP,
        [
            cast("Ann", "Incendio"),
            cast("Bob", "Aguamenti"),  # round 1: 11 − 3 = 8 > 4 twice: both fail
            cast("Ann", "Lumos"),
            cast("Bob", "Aguamenti"),  # round 2: neutre meets eau, both succeed: cancel
        ],
        faces,
    )
    overs = [e for e in duel.events if e["type"] == "round_over"]
    assert [(e["round"], e["outcome"], e["caster"]) for e in overs] == [
        (1, "neither_cast", None),
        (2, "both_cancelled", None),
    ]
    clash = next(e for e in duel.events if e["type"] == "clash_rolled")
    assert (clash["dominant"], clash["winner"]) == (None, None)
    assert [t["modifier"] for t in clash["tests"]] == [0, 0]
    assert finish(duel, faces)["hits"] == []


def test_il_11_exactly_one_clash_success_beats_the_dominant_spell() -> None:
    faces = GivenFaces([2, 3, 2, 9])  # Ann 2 + 1 = 3 ≤ 7; Bob 9 − 1 = 8 > 6
    duel = play(RULES, SETUP, [cast("Ann", "Incendio"), cast("Bob", "Aguamenti")], faces)
    hit = next(e for e in duel.events if e["type"] == "spell_hit")
    assert (hit["caster"], hit["target"], hit["by"]) == ("Ann", "Bob", "clash")
    finish(duel, faces)


def test_il_7_il_8_xp_and_levels_change_during_the_duel() -> None:
    # Lumos: level 1, 9 XP, difficulty 1; an imperfect cast gives 3: level 2 at once, 2 XP left
    faces = GivenFaces([1, 11])  # Bob fails: no clash
    duel = play(RULES, SETUP, [cast("Ann", "Lumos"), cast("Bob", "Aguamenti")], faces)
    check(
        duel.events[5:7],
        [
            ("spell_cast", {"wizard": "Ann", "spell": "Lumos", "outcome": "imperfect"}),
            ("level_gained", {"wizard": "Ann", "spell": "Lumos", "level": 2, "xp_spent": 10}),
        ],
    )
    state = finish(duel, faces)
    assert state["spells"]["Ann"]["Lumos"] == {
        "element": "neutre",
        "difficulty": 1,
        "level": 2,
        "xp": 2,
    }
    # round 2: Lumos is cast at level 2 (target 4): 7 − 3 = 4 is now perfect
    faces = GivenFaces([7, 11])
    duel.act(cast("Ann", "Lumos"), faces)
    events = duel.act(cast("Bob", "Aguamenti"), faces)
    assert (events[2]["level"], events[2]["outcome"]) == (2, "perfect")
    finish(duel, faces)


def test_the_gm_ends_the_duel() -> None:
    duel = play(
        RULES, SETUP, [{"action": "end", "winner": "ann", "note": "Bob yields"}], GivenFaces([])
    )
    check(duel.events[-1:], [("duel_ended", {"winner": "Ann", "note": "Bob yields"})])
    assert RULES.legal_commands(duel.state) == []
    refuse(duel, cast("Ann", "Incendio"), "IL-11", "the duel is over")


def test_il_5_il_11_illegal_commands_are_refused_before_any_die() -> None:
    duel = Fight.start(RULES, SETUP, GivenFaces([]))
    refuse(duel, cast("Cid", "Lumos"), "IL-11", "unknown wizard Cid")
    refuse(duel, cast("Bob", "Lumos"), "IL-5", "Bob does not know the spell Lumos")
    refuse(duel, cast("Bob", "Stupefix"), "IL-5", "not learnt yet")
    refuse(duel, {"action": "attack"}, "IL-11", "unknown action attack")
    refuse(duel, {"action": "end", "winner": "Zed"}, "IL-11", "unknown wizard Zed")
    duel.act(cast("Ann", "Incendio"), GivenFaces([]))
    refuse(duel, cast("Ann", "Lumos"), "IL-11", "Ann has already chosen a spell this round")
    with pytest.raises(InputError):
        duel.act(
            {"action": "cast", "wizard": "Bob", "spell": "Aguamenti", "speed": 3}, GivenFaces([])
        )
    with pytest.raises(InputError):
        duel.act(["cast"], GivenFaces([]))  # type: ignore[arg-type]


def test_il_11_a_duel_needs_two_wizards_with_valid_sheets() -> None:
    with pytest.raises(RulesError, match="two wizards") as caught:
        RULES.start({"wizards": [ANN]}, GivenFaces([]))
    assert caught.value.rule == "IL-11"
    with pytest.raises(RulesError, match="two wizards are named"):
        RULES.start({"wizards": [ANN, ANN | {"name": "ann"}]}, GivenFaces([]))
    bad = wizard("Cid", 11)
    with pytest.raises(InputError) as error:
        RULES.start({"wizards": [ANN, bad]}, GivenFaces([]))
    assert "stats.magic" in error.value.message()
    with pytest.raises(RulesError, match="not started"):
        RULES.decide({}, cast("Ann", "Incendio"), GivenFaces([]))
    assert RULES.legal_commands({}) == []


def test_a_random_duel_is_a_fold_of_its_events() -> None:
    rng = random.Random(3)
    duel = Fight.start(RULES, SETUP, Seeded(3))
    source = Seeded(11)
    for _round in range(30):
        duel.act(cast("Ann", rng.choice(["Incendio", "Lumos"])), source)
        duel.act(cast("Bob", "Aguamenti"), source)
    stored = json.loads(json.dumps(duel.events))
    assert fold(RULES, stored) == duel.state
    assert duel.state["round"] == 31
    casts = [e for e in duel.events if e["type"] == "spell_cast"]
    gained = sum(e["xp_gained"] for e in casts if e["wizard"] == "Bob")
    spent = sum(
        e["xp_spent"] for e in duel.events if e["type"] == "level_gained" and e["wizard"] == "Bob"
    )
    assert duel.state["spells"]["Bob"]["Aguamenti"]["xp"] == gained - spent
