"""Ilvermorny spells (IL-5 … IL-8): every outcome boundary of a cast, the XP it gives, the level
costs, and the `cast` action's exact odds against brute force."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from jdr.dice import GivenFaces
from jdr.errors import InputError, RulesError
from jdr.params import validate_params
from jdr.systems.ilvermorny.actions import CastParams, cast_odds, roll_cast
from jdr.systems.ilvermorny.spells import (
    XP_BY_OUTCOME,
    LevelUp,
    advance,
    cast_outcome,
    cast_spell,
    level_cost,
)


def plain_cast(magic: int, level: int, face: int) -> str:
    """The oracle: IL-6 written once more, plainly."""
    result = face - magic // 2
    if face == 12:
        return "critical_failure"
    if face == 1:
        return "imperfect"
    if result < 2 * level:
        return "success"
    return "perfect" if result == 2 * level else "failure"


def outcome(magic: int, level: int, face: int) -> str:
    return cast_spell(magic, level, GivenFaces([face])).outcome


# --- IL-5 ---------------------------------------------------------------------------------------


def test_il_5_a_spell_at_level_0_cannot_be_cast() -> None:
    with pytest.raises(RulesError) as caught:
        cast_spell(7, 0, GivenFaces([5]))
    assert caught.value.rule == "IL-5"
    assert "not learnt yet" in caught.value.message()


@pytest.mark.parametrize("level", ["0", 0, " 0"])
def test_il_5_cast_level_0_is_refused_with_its_reason(level: Any) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(CastParams, {"magic": 7, "level": level})
    assert caught.value.field == "level"
    assert "not learnt yet" in caught.value.message()
    assert "GM grants level 1" in caught.value.message()


@pytest.mark.parametrize("level", ["6", "-1"])
def test_il_5_a_level_is_1_to_5_for_a_cast(level: str) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(CastParams, {"magic": 7, "level": level})
    assert "1..5" in caught.value.message()


@pytest.mark.parametrize("difficulty", ["0", "6"])
def test_il_5_a_spell_difficulty_is_1_to_5(difficulty: str) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(
            CastParams, {"magic": 7, "level": 1, "difficulty_of_spell": difficulty, "xp": 0}
        )
    assert caught.value.field == "difficulty_of_spell"


# --- IL-6: every boundary -----------------------------------------------------------------------


def test_il_6_natural_12_is_a_critical_failure_even_when_the_result_would_succeed() -> None:
    # Magie 10: 12 − 5 = 7 < 10 (level 5) would be a success
    assert outcome(10, 5, 12) == "critical_failure"


def test_il_6_natural_1_is_imperfect_even_when_the_result_would_be_perfect() -> None:
    # Magie 0, level 1: result 1 < 2 would be a success; Magie 2, level 0 is impossible, so
    # the natural 1 wins over every other reading
    assert outcome(0, 1, 1) == "imperfect"
    assert cast_outcome(natural=1, result=2, level=1) == "imperfect"  # not perfect


def test_il_6_result_just_below_twice_the_level_succeeds() -> None:
    assert outcome(7, 2, 6) == "success"  # 6 − 3 = 3 < 4


def test_il_6_result_equal_to_twice_the_level_is_perfect() -> None:
    assert outcome(7, 2, 7) == "perfect"  # 7 − 3 = 4 = 4


def test_il_6_result_just_above_twice_the_level_fails() -> None:
    assert outcome(7, 2, 8) == "failure"  # 8 − 3 = 5 > 4


def test_il_6_zero_or_negative_result_succeeds() -> None:
    assert outcome(10, 1, 5) == "success"  # 5 − 5 = 0 < 2
    assert outcome(10, 1, 2) == "success"  # 2 − 5 = −3 < 2


def test_il_6_floor_of_half_the_magic() -> None:
    assert cast_spell(7, 1, GivenFaces([5])).result == 2  # 7 // 2 = 3
    assert cast_spell(6, 1, GivenFaces([5])).result == 2
    assert cast_spell(1, 1, GivenFaces([5])).result == 5


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("level", range(1, 6))
def test_il_6_a_result_of_11_always_fails(magic: int, level: int) -> None:
    """« un résultat de 11 sera toujours un échec puisque le niveau d'apprentissage maximum est
    5 »: the note is about the result after Magie / 2 is subtracted (only Magie 0 or 1 leaves a
    natural 11 at 11; a natural 12 is a critical failure before any result is read)."""
    cast = cast_spell(magic, level, GivenFaces([11]))
    assert (cast.result, cast.outcome) == (11, "failure")
    assert outcome(magic, 5, 10) == "perfect"


@pytest.mark.parametrize(
    ("magic", "result", "expected"),
    [(2, 10, "perfect"), (3, 10, "perfect"), (4, 9, "success"), (10, 6, "success")],
)
def test_il_6_a_natural_11_with_magic_2_or_more_is_judged_by_its_result(
    magic: int, result: int, expected: str
) -> None:
    """The note « un résultat de 11 sera toujours un échec » does not read the die: a natural 11
    with Magie ≥ 2 is a lower result, judged against 2 × level like any other."""
    cast = cast_spell(magic, 5, GivenFaces([11]))
    assert (cast.result, cast.outcome) == (result, expected)
    assert cast_spell(magic, 1, GivenFaces([11])).outcome == "failure"  # 2 × 1 is below it


@pytest.mark.parametrize("magic", range(11))
@pytest.mark.parametrize("level", range(1, 6))
def test_il_6_every_face(magic: int, level: int) -> None:
    for face in range(1, 13):
        assert outcome(magic, level, face) == plain_cast(magic, level, face)


# --- IL-7 ---------------------------------------------------------------------------------------


def test_il_7_xp_after_every_cast() -> None:
    assert XP_BY_OUTCOME == {
        "critical_failure": 1,
        "failure": 1,
        "success": 3,
        "imperfect": 3,
        "perfect": 5,
    }
    gained = {face: cast_spell(7, 2, GivenFaces([face])).xp_gained for face in (12, 8, 6, 1, 7)}
    assert gained == {12: 1, 8: 1, 6: 3, 1: 3, 7: 5}


# --- IL-8 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("difficulty", range(1, 6))
def test_il_8_level_costs(difficulty: int) -> None:
    assert [level_cost(level, difficulty) for level in range(6)] == [
        None,
        10 * difficulty,
        25 * difficulty,
        50 * difficulty,
        100 * difficulty,
        None,
    ]


def test_il_8_a_level_as_soon_as_the_xp_reaches_the_cost_which_is_spent() -> None:
    assert advance(1, 9, 1).level_ups == ()
    reached = advance(1, 10, 1)
    assert (reached.level, reached.xp, reached.level_ups) == (2, 0, (LevelUp(2, 10),))


def test_il_8_several_levels_at_once() -> None:
    done = advance(1, 10 + 25 + 50 + 100 + 7, 1)
    assert (done.level, done.xp) == (5, 7)
    assert [up.xp_spent for up in done.level_ups] == [10, 25, 50, 100]


def test_il_8_level_0_never_rises_by_xp_and_5_is_the_top() -> None:
    assert advance(0, 1000, 1).level_ups == ()
    assert advance(5, 1000, 1).level_ups == ()


def test_il_8_cast_action_gives_the_new_xp_and_level() -> None:
    params = CastParams(magic=7, level=1, difficulty_of_spell=2, xp=18)
    record = roll_cast(params, GivenFaces([5]))  # 5 − 3 = 2 = 2 × 1: perfect, +5
    assert record.outcome == "perfect"
    assert dict(record.totals) == {
        "natural": 5,
        "result": 2,
        "xp_gained": 5,
        "xp": 3,
        "level": 2,
        "level_ups": [{"level": 2, "xp_spent": 20}],
    }
    assert record.explain() == (
        "d12 5 − 3 = 2 = 2 (2 × level 1) → perfect, +5 XP · XP 18 + 5 = 23,"
        " level 2 reached (20 XP spent), 3 XP left"
    )


def test_il_8_xp_and_difficulty_go_together() -> None:
    with pytest.raises(InputError) as caught:
        validate_params(CastParams, {"magic": 7, "level": 1, "xp": 4})
    assert "--difficulty-of-spell and --xp together" in caught.value.message()


# --- the cast odds ------------------------------------------------------------------------------


@pytest.mark.parametrize("magic", range(11))
@pytest.mark.parametrize("level", range(1, 6))
def test_il_6_il_7_cast_odds_match_brute_force(magic: int, level: int) -> None:
    odds = cast_odds(CastParams(magic=magic, level=level), True)
    counts = Counter(plain_cast(magic, level, face) for face in range(1, 13))
    assert dict(odds.outcomes) == {key: Fraction(counts[key], 12) for key in odds.outcomes}
    mean = sum(Fraction(XP_BY_OUTCOME[plain_cast(magic, level, f)], 12) for f in range(1, 13))
    assert odds.mean == mean
    assert sum(p for _xp, p in odds.distribution) == 1


def test_il_8_cast_odds_give_the_chance_of_a_level() -> None:
    # level 1, difficulty 1, 7 XP: +3 or +5 reaches 10; +1 does not
    odds = cast_odds(CastParams(magic=7, level=1, difficulty_of_spell=1, xp=7), True)
    counts = Counter(XP_BY_OUTCOME[plain_cast(7, 1, face)] >= 3 for face in range(1, 13))
    assert odds.extra["p_level_up"] == Fraction(counts[True], 12)
    floats = cast_odds(CastParams(magic=7, level=1, difficulty_of_spell=1, xp=7), False)
    assert abs(floats.extra["p_level_up"] - float(odds.extra["p_level_up"])) < 1e-12
