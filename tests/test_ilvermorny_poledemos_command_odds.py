"""Issue 29 for Ilvermorny (IL-6) and Polédémos (PD-5, PD-9): `cast` and `activate`, the commands
that roll, declare the exact odds of their outcome as the decider resolves it (the wizard's Magie
and the spell's level as the duel holds them; the figure's VAL and the dice), and the real
decider shows each outcome as often as they say; every face walked, the odds are its law. The
recaps' chances name what they measure, and a cast shows its formula.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from command_odds_check import Case, check_odds, decide_many, mismatches, shifted
from jdr.dice import GivenFaces
from jdr.fights import play
from jdr.fights.narration import Words
from jdr.fights.odds import Chance, command_odds
from jdr.fights.sealed import public
from jdr.fights.setup import make_command
from jdr.i18n import language
from jdr.sheet_check import systems_example
from jdr.systems.ilvermorny.exact import every_roll, exact_law
from jdr.systems.protocol import Json
from test_command_odds import system

ILVERMORNY = system("ilvermorny")
POLEDEMOS = system("poledemos")


def _wizard(name: str, magic: int, level: int) -> Json:
    sheet: Json = tomllib.loads(systems_example("ilvermorny", "wizard"))
    spells = [s | {"level": level} if s["name"] == "Expelliarmus" else s for s in sheet["spells"]]
    return sheet | {"name": name, "stats": sheet["stats"] | {"magic": magic}, "spells": spells}


def duel(magic: int, level: int) -> Callable[[], Json]:
    """Ann has chosen (sealed); Bob's spell, when chosen, casts both."""

    def state() -> Json:
        setup = {"wizards": [_wizard("Ann", 6, 2), _wizard("Bob", magic, level)]}
        first = {"action": "cast", "wizard": "Ann", "spell": "Lumos", "salt": "s"}
        return play(ILVERMORNY.fight, setup, [first], GivenFaces([])).state

    return state


def game(first: str = "Alice") -> Callable[[], Json]:
    def state() -> Json:
        band: Json = tomllib.loads(systems_example("poledemos", "warband"))
        players = [
            {"name": "Alice", "figures": band["figures"]},
            {"name": "Bob", "figures": [{"name": "Smith", "val": "4+"}]},
        ]
        setup = {"first": first, "players": players}
        return play(POLEDEMOS.fight, setup, [], GivenFaces([])).state

    return state


CASES = [
    Case("ilvermorny cast, Magie 7, level 2", "ilvermorny", duel(7, 2), "Bob", "cast",
         {"spell": "Expelliarmus"}),
    Case("ilvermorny cast, Magie 2, level 5", "ilvermorny", duel(2, 5), "Bob", "cast",
         {"spell": "expelliarmus"}),
    Case("ilvermorny cast, Magie 10, level 1", "ilvermorny", duel(10, 1), "Bob", "cast",
         {"spell": "Protego"}),
    Case("poledemos activate VAL 3+, 3 dice, a group", "poledemos", game(), "Alice", "activate",
         {"figure": "Sergent Perry", "dice": 3, "group": ["Caporal", "Recrue 1"]}),
    Case("poledemos activate VAL 2+, 2 dice", "poledemos", game(), "Alice", "activate",
         {"figure": "Adjudant Harper", "dice": 2}),
    Case("poledemos activate VAL 5+, 1 die", "poledemos", game(), "Alice", "activate",
         {"figure": "Recrue 2", "dice": 1}),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=str)
def test_issue_29_il_6_pd_5_each_outcome_happens_as_often_as_its_odds_say(case: Case) -> None:
    found = system(case.system)
    problems = check_odds(found, case.state(), case.actor, case.name, case.keys, case.trials)
    assert not problems, problems


class CastsOnly:
    """Every face of the two casts (IL-6), then 1s: the Magie tests of the meeting (IL-11), rolled
    after both casts, change no cast's outcome (and walking them too would take 144 times as
    long)."""

    def __init__(self, source: Any) -> None:
        self.source, self.drawn = source, 0

    def faces(self, size: int, count: int) -> list[int]:
        self.drawn += count
        if self.drawn > 2 and size == 12:
            return [1] * count
        found: list[int] = self.source.faces(size, count)
        return found


@pytest.mark.parametrize("case", CASES, ids=str)
def test_issue_29_il_6_pd_5_odds_equal_the_deciders_law_on_every_face(case: Case) -> None:
    found = system(case.system)
    state = case.state()
    command = make_command(found, case.actor, case.name, dict(case.keys))
    outcome = found.fight_commands.commands[case.name].outcome

    def decided(rng: Any) -> str | None:
        seen: str | None = outcome(found.fight.decide(state, command, CastsOnly(rng)))
        return seen

    law = exact_law(every_roll(decided))
    odds = command_odds(found, state, case.actor, case.name, case.keys, exact=True)
    assert odds is not None
    assert {k: v for k, v in odds.outcomes.items() if v} == {k: v for k, v in law.items() if v}


@pytest.mark.parametrize("case", [CASES[0], CASES[3]], ids=str)
def test_issue_29_odds_moved_by_five_points_fail_the_check(case: Case) -> None:
    found = system(case.system)
    state = case.state()
    right = command_odds(found, state, case.actor, case.name, case.keys)
    assert right is not None
    seen = decide_many(found, state, case.actor, case.name, case.keys, case.trials)
    assert not mismatches(right, seen, case.trials)
    assert mismatches(shifted(right, 0.05), seen, case.trials)


def test_il_6_cast_odds_name_what_they_measure_and_show_the_formula() -> None:
    state = duel(7, 2)()
    odds = command_odds(ILVERMORNY, state, "Bob", "cast", {"spell": "Expelliarmus"}, exact=True)
    assert odds is not None
    assert odds.outcomes["success"] == Fraction(5, 12) and odds.outcomes["perfect"] == Fraction(
        1, 12
    )
    assert odds.said() == "chance to cast 58.33 %"  # 2 … 6, the 7 perfect, the natural 1
    assert odds.formula[0] == (
        "d12 − Magie/2 (3) against level × 2 (4): below is a success, equal a perfect cast,"
        " above a failure"
    )
    with language("fr"):
        assert odds.said() == "chance de lancer le sort 58,33 %"
    assert command_odds(ILVERMORNY, state, "Ann", "cast", {"spell": "Lumos"}) is None  # chosen
    assert command_odds(ILVERMORNY, state, "Bob", "cast", {"spell": "Nox"}) is None  # unknown


def test_il_6_a_cast_reads_with_its_formula_and_its_chance_named() -> None:
    state = duel(7, 2)()
    cast = {"type": "spell_cast", "round": 1, "wizard": "Bob", "spell": "Expelliarmus"}
    cast |= {"element": "feu", "level": 2, "natural": 11, "result": 8, "outcome": "failure"}
    cast |= {"xp_gained": 1}
    narration = ILVERMORNY.narration
    assert narration.sentence(cast, Words(state=state)) == (
        "Bob casts Expelliarmus (fire, level 2): d12 11 − Magie/2 (3) = 8 against level × 2"
        " (4): failure, +1 XP."
    )
    with language("fr"):
        assert "d12 11 − Magie/2 (3) = 8 contre niveau × 2 (4)" in narration.sentence(cast)
    chance = narration.odds(cast)
    assert isinstance(chance, Chance)
    odds = command_odds(ILVERMORNY, state, "Bob", "cast", {"spell": "Expelliarmus"}, exact=True)
    assert odds is not None and chance == odds.chance()
    test = {"wizard": "Bob", "natural": 5, "modifier": 1, "result": 6, "outcome": "success"}
    clash = {"type": "clash_rolled", "round": 1, "dominant": None, "winner": None}
    clash |= {"tests": [test]}
    assert "Bob d12 5 +1 = 6 ≤ Magie 7: success" in narration.sentence(clash, Words(state=state))


def test_pd_5_activation_odds_name_what_they_measure() -> None:
    state = game()()
    keys = {"figure": "Sergent Perry", "dice": 3, "group": ["Caporal"]}
    odds = command_odds(POLEDEMOS, state, "Alice", "activate", keys, exact=True)
    assert odds is not None
    assert odds.outcomes["not_activated"] == Fraction(1, 27)  # three faces below 3
    assert odds.outcomes["activated_passing"] == Fraction(6, 27)  # 1 PA, 2 failures
    assert odds.said() == "chance to activate 96.30 %"
    assert odds.distribution == {0: Fraction(1, 27), 1: Fraction(6, 27)} | {
        2: Fraction(12, 27),
        3: Fraction(8, 27),
    }
    assert odds.formula[1] == "the group reads the same dice: VAL 4+ 1.50 PA on average"
    with language("fr"):
        assert odds.said() == "chance d'activer 96,30 %"
    rolled = {"type": "activation_rolled", "val": 3, "dice": 3}
    chance = POLEDEMOS.narration.odds(rolled)
    assert isinstance(chance, Chance) and chance == odds.chance()
    assert command_odds(POLEDEMOS, state, "Bob", "activate", keys) is None  # not its hand
    moved = {"kind": "move"}  # PD-7: an action's outcome is the table's, nothing rolls
    assert command_odds(POLEDEMOS, state, "Alice", "action", moved) is None


@pytest.mark.parametrize("case", CASES, ids=str)
def test_issue_29_the_odds_read_from_the_public_state_are_the_same(case: Case) -> None:
    """What the web table shows: the other wizard's sealed spell stays sealed (`public`)."""
    found = system(case.system)
    state = case.state()
    full = command_odds(found, state, case.actor, case.name, case.keys, exact=True)
    seen = command_odds(found, public(state), case.actor, case.name, case.keys, exact=True)
    assert full is not None and seen is not None and full.outcomes == seen.outcomes
