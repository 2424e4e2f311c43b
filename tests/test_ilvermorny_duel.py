"""Ilvermorny duels (IL-10, IL-11): the circle of elements, the meeting of two spells, and the
`duel` action's exact odds against brute force over both d12."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from jdr.dice import GivenFaces
from jdr.errors import InputError
from jdr.params import validate_params
from jdr.systems.ilvermorny.duel import (
    ELEMENTS,
    DuelParams,
    Side,
    dominance,
    duel_odds,
    meet,
    roll_duel,
)

BEATS = {("feu", "vigne"), ("vigne", "eau"), ("eau", "feu")}


def plain_winner(magic_a: int, element_a: str, magic_b: int, element_b: str, a: int, b: int) -> str:
    """The oracle: IL-10 and IL-11 written once more, plainly, for two cast spells."""
    dominant = (
        "a" if (element_a, element_b) in BEATS else "b" if (element_b, element_a) in BEATS else None
    )
    mod_a = {None: 0, "a": -1, "b": 1}[dominant]
    mod_b = -mod_a
    ok_a = a != 12 and a + mod_a <= magic_a
    ok_b = b != 12 and b + mod_b <= magic_b
    if ok_a != ok_b:
        return "a" if ok_a else "b"
    return dominant or "both_cancelled"


# --- IL-10 --------------------------------------------------------------------------------------


def test_il_10_feu_beats_vigne_beats_eau_beats_feu() -> None:
    assert dominance("feu", "vigne") == "a"
    assert dominance("vigne", "eau") == "a"
    assert dominance("eau", "feu") == "a"
    assert dominance("vigne", "feu") == "b"


@pytest.mark.parametrize("element", ELEMENTS)
def test_il_10_neutre_and_same_elements_have_no_dominance(element: str) -> None:
    assert dominance("neutre", element) is None
    assert dominance(element, "neutre") is None
    assert dominance(element, element) is None


@pytest.mark.parametrize(
    ("given", "element"),
    [("Feu", "feu"), ("fire", "feu"), ("VINE", "vigne"), ("water", "eau"), ("neutral", "neutre")],
)
def test_il_10_elements_in_french_or_english(given: str, element: str) -> None:
    params = validate_params(
        DuelParams, {"magic_a": 5, "element_a": given, "magic_b": 5, "element_b": "eau"}
    )
    assert params.element_a == element


def test_il_10_unknown_element_is_refused_with_the_four() -> None:
    with pytest.raises(InputError) as caught:
        validate_params(
            DuelParams, {"magic_a": 5, "element_a": "air", "magic_b": 5, "element_b": "eau"}
        )
    assert caught.value.field == "element_a"
    assert "fire, vine, water, neutral" in caught.value.message()


# --- IL-11 --------------------------------------------------------------------------------------


def test_il_11_dominant_caster_minus_1_dominated_plus_1() -> None:
    meeting = meet(Side(7, "feu"), Side(7, "vigne"), GivenFaces([8, 6]))
    assert [(t.modifier, t.result) for t in meeting.tests] == [(-1, 7), (1, 7)]


def test_il_11_exactly_one_success_wins_even_against_the_dominant_spell() -> None:
    meeting = meet(Side(7, "feu"), Side(5, "eau"), GivenFaces([2, 9]))  # eau dominates
    assert [t.success for t in meeting.tests] == [True, False]
    assert meeting.winner == "a"
    meeting = meet(Side(7, "feu"), Side(5, "eau"), GivenFaces([9, 2]))
    assert meeting.winner == "b"


def test_il_11_both_succeed_or_both_fail_the_dominant_spell_hits() -> None:
    assert meet(Side(7, "feu"), Side(5, "eau"), GivenFaces([2, 2])).winner == "b"
    assert meet(Side(7, "feu"), Side(5, "eau"), GivenFaces([9, 9])).winner == "b"


def test_il_11_with_no_dominance_both_spells_cancel() -> None:
    assert meet(Side(7, "neutre"), Side(5, "feu"), GivenFaces([2, 2])).winner == "both_cancelled"
    assert meet(Side(7, "eau"), Side(5, "eau"), GivenFaces([12, 12])).winner == "both_cancelled"


def test_il_11_any_successful_cast_meets_the_other() -> None:
    for cast in ("success", "perfect", "imperfect"):
        assert (
            len(meet(Side(7, "feu", cast), Side(5, "eau", "perfect"), GivenFaces([1, 1])).tests)
            == 2
        )


def test_il_11_a_spell_alone_simply_lands_no_die_rolled() -> None:
    for failed in ("failure", "critical_failure"):
        meeting = meet(Side(7, "feu", failed), Side(5, "eau", "imperfect"), GivenFaces([]))
        assert (meeting.tests, meeting.winner) == ((), "b")
        meeting = meet(Side(7, "feu", "success"), Side(5, "eau", failed), GivenFaces([]))
        assert meeting.winner == "a"
    assert meet(Side(7, "feu", "failure"), Side(5, "eau", "failure"), GivenFaces([])).winner == (
        "neither_cast"
    )


def test_il_11_duel_record_and_explanation() -> None:
    params = DuelParams(magic_a=7, element_a="feu", magic_b=6, element_b="vigne")
    record = roll_duel(params, GivenFaces([5, 7]))
    assert record.outcome == "a"
    assert list(record.faces) == [5, 7]
    assert record.totals["dominant"] == "a"
    assert record.totals["winner"] == "a"
    assert record.totals["tests"] == [
        {"duelist": "a", "natural": 5, "modifier": -1, "result": 4, "outcome": "success"},
        {"duelist": "b", "natural": 7, "modifier": 1, "result": 8, "outcome": "failure"},
    ]
    assert record.explain().startswith("fire dominates vine · a, fire, Magic 7: d12 5 − 1 = 4")


@pytest.mark.parametrize(("element_a", "element_b"), list(itertools.product(ELEMENTS, repeat=2)))
def test_il_10_il_11_duel_odds_match_brute_force(element_a: str, element_b: str) -> None:
    for magic_a, magic_b in ((7, 5), (0, 10), (3, 3)):
        raw = {
            "magic_a": magic_a,
            "element_a": element_a,
            "magic_b": magic_b,
            "element_b": element_b,
        }
        params = DuelParams.model_validate(raw)
        odds = duel_odds(params, True)
        counts = Counter(
            plain_winner(magic_a, element_a, magic_b, element_b, a, b)
            for a, b in itertools.product(range(1, 13), repeat=2)
        )
        assert set(odds.outcomes) == {"a", "b", "both_cancelled"}
        assert dict(odds.outcomes) == {key: Fraction(counts[key], 144) for key in odds.outcomes}


@pytest.mark.parametrize(
    ("cast_a", "cast_b", "certain"),
    [
        ("échec", "parfait", "b"),
        ("imperfect", "critical failure", "a"),
        ("failure", "échec critique", "neither_cast"),
    ],
)
def test_il_11_given_casts_make_the_odds_certain(cast_a: str, cast_b: str, certain: str) -> None:
    raw: dict[str, Any] = {"magic_a": 5, "element_a": "feu", "magic_b": 5, "element_b": "eau"}
    params = validate_params(DuelParams, raw | {"cast_a": cast_a, "cast_b": cast_b})
    odds = duel_odds(params, True)
    assert odds.outcomes[certain] == 1
    assert sum(odds.outcomes.values()) == 1
    record = roll_duel(params, GivenFaces([]))
    assert (record.outcome, list(record.faces)) == (certain, [])


def test_il_11_a_cast_not_given_counts_as_cast() -> None:
    params = DuelParams(magic_a=5, element_a="feu", magic_b=5, element_b="eau", cast_a="perfect")
    assert len(roll_duel(params, GivenFaces([3, 4])).faces) == 2
