"""Ombres' own tests: each rule by its id, the odds against brute force, a fight as a fold of
its events, and every sentence in French."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from jdr.dice import GivenFaces, Seeded
from jdr.errors import RulesError
from jdr.fights import fold
from jdr.fights.narration import Words
from jdr.i18n import add_catalog, language

from jdr_ombres import SYSTEM
from jdr_ombres.fight import FIGHT, fight_setup
from jdr_ombres.french import MESSAGES
from jdr_ombres.narration import NARRATION
from jdr_ombres.rolls import Check, odds, outcome, roll

add_catalog(MESSAGES)  # as jdr's registry does when it loads the system


def test_om_1_keeps_the_highest_die() -> None:
    record = roll(Check(dice=3), GivenFaces([2, 5, 4]))
    assert record.totals == {"kept": 5, "sixes": 0}
    assert record.outcome == "partial_success"


def test_om_1_no_rating_keeps_the_lowest_of_two() -> None:
    record = roll(Check(dice=0), GivenFaces([6, 3]))
    assert record.faces == [6, 3]
    assert record.outcome == "failure"


def test_om_2_two_sixes_are_critical_but_not_without_a_rating() -> None:
    assert roll(Check(dice=2), GivenFaces([6, 6])).outcome == "critical_success"
    assert roll(Check(dice=0), GivenFaces([6, 6])).outcome == "success"


def brute_force(dice: int) -> dict[str, Fraction]:
    rolled = max(dice, 2) if dice == 0 else dice
    counts: Counter[str] = Counter()
    for faces in itertools.product(range(1, 7), repeat=rolled):
        kept = max(faces) if dice > 0 else min(faces)
        counts[outcome(kept, faces.count(6), dice)] += 1
    return {name: Fraction(n, 6**rolled) for name, n in counts.items()}


@pytest.mark.parametrize("dice", range(0, 6))
def test_om_2_exact_odds_match_every_roll_enumerated(dice: int) -> None:
    exact = odds(Check(dice=dice), exact=True)
    expected = brute_force(dice)
    assert {k: v for k, v in exact.outcomes.items() if v} == expected
    floats = odds(Check(dice=dice), exact=False)
    for name, p in exact.outcomes.items():
        assert abs(float(p) - floats.outcomes[name]) < 1e-12


def test_om_2_explanation_in_french() -> None:
    record = roll(Check(dice=3), GivenFaces([6, 2, 6]))
    with language("fr"):
        assert (
            record.explain()
            == "3d6, garder le meilleur\u00a0: [6] 2 6 → 6\u00a0: réussite critique"
        )
    assert record.explain() == "3d6, keep the highest: [6] 2 6 → 6: critical success"


def fighters() -> list[dict[str, object]]:
    return [
        {"name": "Corvo", "sheet": {"name": "Corvo", "combat": 2, "resolve": 1}, "side": "a"},
        {"name": "Lys", "sheet": {"name": "Lys", "combat": 1, "stress_max": 4}, "side": "b"},
    ]


def test_om_4_attack_and_om_5_break_end_the_fight() -> None:
    events = FIGHT.start(fight_setup(fighters(), {}), Seeded(1))
    state = fold(FIGHT, events)
    hit = FIGHT.decide(
        state, {"action": "attack", "actor": "Corvo", "target": "Lys"}, GivenFaces([6, 6])
    )
    assert [e["type"] for e in hit] == ["attacked", "broken", "fight_over"]
    assert hit[-1] == {"type": "fight_over", "winners": ["Corvo"]}
    state = fold(FIGHT, events + hit)
    assert state["over"] and state["fighters"]["Lys"]["broken"]
    with pytest.raises(RulesError):
        FIGHT.decide(state, {"action": "recover", "actor": "Corvo"}, Seeded(1))


def test_om_4_a_failed_attack_stresses_the_attacker_and_passes_the_turn() -> None:
    state = fold(FIGHT, FIGHT.start(fight_setup(fighters(), {}), Seeded(1)))
    missed = FIGHT.decide(
        state, {"action": "attack", "actor": "Corvo", "target": "Lys"}, GivenFaces([2, 3])
    )
    assert missed[0]["stress"] == {"Corvo": 2}
    assert missed[-1] == {"type": "turn_passed", "name": "Lys"}
    after = FIGHT.evolve(FIGHT.evolve(state, missed[0]), missed[1])
    with pytest.raises(RulesError, match="Lys's turn"):
        FIGHT.decide(after, {"action": "recover", "actor": "Corvo"}, Seeded(1))


def test_om_4_a_fighter_in_the_fight_may_not_join_it_as_legal_and_the_decider_agree() -> None:
    from jdr_ombres.fight import join_command
    from jdr_ombres.narration import COMMANDS

    state = fold(FIGHT, FIGHT.start(fight_setup(fighters(), {}), Seeded(1)))
    legal = COMMANDS.legal_now(FIGHT, state, "lys")  # named as people type it
    assert legal == [] and "join" not in COMMANDS.legal_now(FIGHT, state, "Corvo")
    assert COMMANDS.legal_now(FIGHT, state, "Mira") == ["join"]
    again = join_command("LYS", {"name": "LYS", "combat": 1}, {"side": "a"})
    with pytest.raises(RulesError, match="already in the fight"):
        FIGHT.decide(state, again, Seeded(1))
    joined = FIGHT.decide(state, join_command("Mira", {"name": "Mira"}, {}), Seeded(1))
    assert joined[0]["type"] == "joined"


def test_every_event_reads_in_french_never_as_key_value() -> None:
    events = FIGHT.start(fight_setup(fighters(), {}), Seeded(1))
    state = fold(FIGHT, events)
    events += FIGHT.decide(
        state, {"action": "attack", "actor": "Corvo", "target": "Lys"}, GivenFaces([5, 1])
    )
    state = fold(FIGHT, events)
    events += FIGHT.decide(state, {"action": "recover", "actor": "Lys"}, GivenFaces([6]))
    kinds = {e["type"] for e in events}
    assert kinds - {"fight_over", "joined"} <= set(NARRATION.types())
    with language("fr"):
        told = [NARRATION.sentence(e, Words()) for e in events]
    assert told[1] == (
        "Corvo attaque Lys (5, 1)\u00a0: réussite partielle\u202f; "
        "Lys prend 1 de stress\u202f; Corvo prend 1 de stress."
    )
    assert all("=" not in line and "_" not in line for line in told)


def test_the_system_is_complete() -> None:
    assert SYSTEM.id == "ombres"
    assert SYSTEM.messages is MESSAGES
    assert SYSTEM.examples["scoundrel"].read_text(encoding="utf-8").startswith("# An Ombres")


def test_om_4_the_attack_odds_are_the_deciders_on_seeded_dice() -> None:
    """The `attack` command's odds against 6,000 decisions of the real decider: each outcome's
    frequency within 4 standard deviations of its probability."""
    setup = {
        "fighters": [
            {"name": "Ann", "side": "a", "combat": 2, "resolve": 1, "stress_max": 9},
            {"name": "Bob", "side": "b", "combat": 1, "resolve": 1, "stress_max": 9},
        ]
    }
    state = fold(FIGHT, FIGHT.start(setup, Seeded(0)))
    attack = SYSTEM.fight_commands.commands["attack"]
    found = attack.odds(state, "Ann", {"target": "Bob"}, True)
    assert found.chance().probability == Fraction(11, 36)  # a 6 among the best of 2d6
    with language("fr"):
        assert found.chance().said() == "chance de réussite (6) 30,56 %"
    runs = 6000
    seen = Counter(
        attack.outcome(FIGHT.decide(state, {"action": "attack", "actor": "Ann", "target": "Bob"},
                                    Seeded(seed)))
        for seed in range(runs)
    )  # fmt: skip
    for name, p in found.outcomes.items():
        spread = 4 * (float(p) * (1 - float(p)) / runs) ** 0.5
        assert abs(seen[name] / runs - float(p)) <= spread + 1 / runs, name
