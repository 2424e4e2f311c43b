"""Ilvermorny stats, tests and difficulties (IL-1, IL-2, IL-3): every face, exact odds against brute
force, the difficulty names, and the exact enumeration every odds function relies on."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from jdr.dice import GivenFaces
from jdr.errors import InputError, LimitError
from jdr.i18n import language
from jdr.params import validate_params
from jdr.systems.ilvermorny.actions import StatTestParams, roll_stat_test, stat_test_odds
from jdr.systems.ilvermorny.exact import every_roll, exact_law
from jdr.systems.ilvermorny.rules import (
    DIFFICULTIES,
    STATS,
    difficulty_label,
    parse_difficulty,
    stat_id,
    stat_test,
)


def plain_test(stat: int, modifier: int, face: int) -> str:
    """The oracle: IL-2 written once more, plainly."""
    if face == 12:
        return "critical_failure"
    return "success" if face + modifier <= stat else "failure"


# --- IL-1 ---------------------------------------------------------------------------------------


def test_il_1_seven_stats_in_the_source_order() -> None:
    assert STATS == (
        "resolution",
        "comprehension",
        "magic",
        "charisma",
        "strength",
        "skill",
        "intuition",
    )


@pytest.mark.parametrize(
    ("name", "stat"),
    [
        ("Résolution", "resolution"),
        ("COMPRÉHENSION", "comprehension"),
        ("magie", "magic"),
        ("Charisme", "charisma"),
        ("force physique", "strength"),
        ("Habileté", "skill"),
        ("intuition", "intuition"),
        ("Strength", "strength"),
    ],
)
def test_il_1_stats_are_named_in_french_or_english(name: str, stat: str) -> None:
    assert stat_id(name) == stat


@pytest.mark.parametrize("bad", ["-1", "11", "x"])
def test_il_1_a_stat_is_0_to_10(bad: str) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(StatTestParams, {"stat": bad})
    assert caught.value.field == "stat"
    assert "0..10" in caught.value.message()


# --- IL-2 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("stat", range(11))
@pytest.mark.parametrize("modifier", [-3, -1, 0, 2, 3])
def test_il_2_every_face(stat: int, modifier: int) -> None:
    for face in range(1, 13):
        test = stat_test(stat, modifier, GivenFaces([face]))
        assert test.result == face + modifier
        assert test.outcome == plain_test(stat, modifier, face)


def test_il_2_result_equal_to_the_stat_succeeds_one_more_fails() -> None:
    assert stat_test(7, 0, GivenFaces([7])).outcome == "success"
    assert stat_test(7, 0, GivenFaces([8])).outcome == "failure"


def test_il_2_a_natural_12_fails_critically_whatever_the_modifiers() -> None:
    test = stat_test(10, -12, GivenFaces([12]))
    assert test.result == 0
    assert test.outcome == "critical_failure"


def test_il_2_a_negative_result_succeeds_even_at_stat_0() -> None:
    assert stat_test(0, -3, GivenFaces([2])).outcome == "success"


def test_il_2_roll_record_and_explanation() -> None:
    params = validate_params(
        StatTestParams, {"stat": "7", "difficulty": "malaisée", "modifier": "-2"}
    )
    record = roll_stat_test(params, GivenFaces([8]))
    assert (record.outcome, dict(record.totals), list(record.faces)) == (
        "success",
        {"natural": 8, "result": 7},
        [8],
    )
    assert record.explain() == (
        "difficulty awkward (+1), modifier -2 · d12 8 − 1 = 7 ≤ 7 → success"
    )


@pytest.mark.parametrize("stat", range(11))
@pytest.mark.parametrize("difficulty", range(-3, 4))
def test_il_2_il_3_test_odds_match_brute_force(stat: int, difficulty: int) -> None:
    for modifier in (-2, 0, 1):
        odds = stat_test_odds(
            StatTestParams(stat=stat, difficulty=difficulty, modifier=modifier), True
        )
        counts = Counter(plain_test(stat, difficulty + modifier, face) for face in range(1, 13))
        expected = {key: Fraction(counts[key], 12) for key in odds.outcomes}
        assert dict(odds.outcomes) == expected
        assert sum(p for _value, p in odds.distribution) == 1
        floats = stat_test_odds(
            StatTestParams(stat=stat, difficulty=difficulty, modifier=modifier), False
        )
        for key, p in odds.outcomes.items():
            assert abs(float(p) - floats.outcomes[key]) < 1e-12


def test_il_2_odds_list_every_outcome_even_impossible_ones() -> None:
    odds = stat_test_odds(StatTestParams(stat=10, difficulty=-3), True)
    assert odds.outcomes == {
        "success": Fraction(11, 12),
        "failure": Fraction(0),
        "critical_failure": Fraction(1, 12),
    }


# --- IL-3 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("très facile", -3),
        ("TRES FACILE", -3),
        ("tres-facile", -3),
        ("aisée", -2),
        ("Aisee", -2),
        ("commune", -1),
        ("inhabituelle", 0),
        ("malaisée", 1),
        ("complexe", 2),
        ("très difficile", 3),
        ("very easy", -3),
        ("easy", -2),
        ("common", -1),
        ("unusual", 0),
        ("awkward", 1),
        ("complex", 2),
        ("very hard", 3),
        ("very_difficult", 3),
        ("-3", -3),
        ("+2", 2),
        (" 0 ", 0),
        (1, 1),
    ],
)
def test_il_3_difficulty_names_accents_optional_and_numbers(name: Any, value: int) -> None:
    assert parse_difficulty(name) == value
    assert validate_params(StatTestParams, {"stat": 5, "difficulty": name}).difficulty == value


@pytest.mark.parametrize("bad", ["impossible", "4", "-4", "", "1.5", True])
def test_il_3_unknown_difficulty_is_refused_with_the_names(bad: Any) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(StatTestParams, {"stat": 5, "difficulty": bad})
    assert caught.value.field == "difficulty"
    assert "very easy" in caught.value.message() and "very hard" in caught.value.message()
    with language("fr"), pytest.raises(InputError) as caught:
        validate_params(StatTestParams, {"stat": 5, "difficulty": bad})
    with language("fr"):
        assert "très facile" in caught.value.message()


def test_il_3_the_seven_modifiers() -> None:
    assert [value for value, _name, _gloss in DIFFICULTIES] == list(range(-3, 4))
    assert difficulty_label(-1) == "common"


# --- the exact enumeration ----------------------------------------------------------------------


def test_every_roll_walks_short_and_long_branches() -> None:
    def roll(rng: Any) -> tuple[int, ...]:
        first = rng.faces(2, 1)[0]
        return (first,) if first == 1 else (first, *rng.faces(3, 1))

    leaves = list(every_roll(roll))
    assert [faces for _p, faces in leaves] == [(1,), (2, 1), (2, 2), (2, 3)]
    assert [p for p, _faces in leaves] == [Fraction(1, 2)] + [Fraction(1, 6)] * 3
    assert exact_law((p, len(faces)) for p, faces in leaves) == {
        1: Fraction(1, 2),
        2: Fraction(1, 2),
    }


def test_every_roll_has_a_budget() -> None:
    with pytest.raises(LimitError):
        list(every_roll(lambda rng: rng.faces(12, 3), limit=100))
