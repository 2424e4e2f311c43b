"""`pokemon capture`: three rolls with the ball's dice (PK-19) at a lowered difficulty (PK-20)."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError, UnknownNameError
from jdr.params import validate_params
from jdr.systems import Registry
from jdr.systems.pokemon.capture import (
    BALL_DICE,
    CaptureParams,
    capture_chance,
    capture_difficulty,
    odds,
    resolve_capture,
    roll,
)
from jdr.systems.pokemon.check import score_distribution
from jdr.systems.pokemon.sheets import condition_id

D10 = range(1, 11)


def capture(faces: list[int], **raw: Any) -> dict[str, Any]:
    source = GivenFaces(faces)
    record = roll(validate_params(CaptureParams, raw), source)
    source.finish()  # every given face was used, no more
    return {"outcome": record.outcome, **record.totals}


# --- PK-19: three rolls, all must succeed ---------------------------------------------------


@pytest.mark.parametrize(
    ("ball", "dice"), [("poke", 3), ("super", 5), ("hyper", 7), ("master", 15)]
)
def test_pk_19_dice_by_ball(ball: str, dice: int) -> None:
    result = capture([10] * (3 * dice), ball=ball, difficulty=8)
    assert result["captured"] is True and result["outcome"] == "captured"
    assert result["dice"] == dice
    assert [len(r["faces"]) for r in result["rolls"]] == [dice] * 3


def test_pk_19_three_successes_capture() -> None:
    result = capture([6, 7, 1, 9, 2, 3, 1, 10, 10], ball="poke", difficulty=6)
    assert [r["score"] for r in result["rolls"]] == [1, 1, 1]
    assert result["captured"] is True


def test_pk_19_rolling_stops_at_the_first_roll_that_is_not_a_success() -> None:
    # 6✓ 7✓ 8✓ → 3; 6✓ 1✗ 2 → 0: escaped, the third roll is not made (6 faces used)
    result = capture([6, 7, 8, 6, 1, 2], ball="poke", difficulty=6)
    assert result["rolls"] == [
        {"faces": [6, 7, 8], "successes": 3, "failures": 0, "score": 3},
        {"faces": [6, 1, 2], "successes": 1, "failures": 1, "score": 0},
    ]
    assert (result["captured"], result["outcome"]) == (False, "escaped")


def test_pk_19_difficulty_above_10_cannot_succeed() -> None:
    result = capture([10] * 15, ball="master", difficulty=11)
    assert result["difficulty"] == 11
    assert result["rolls"][0]["successes"] == 0 and result["captured"] is False
    assert capture_chance("master", 11, exact=True) == 0


# --- PK-20: the reductions ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pct", "reduction"), [(100, 0), (51, 0), (50, 2), (26, 2), (25, 4), (0, 4)]
)
def test_pk_20_vitality_reduction_larger_only(pct: float, reduction: int) -> None:
    assert capture_difficulty(12, vitality_pct=pct).value == 12 - reduction


@pytest.mark.parametrize(
    ("conditions", "reduction"),
    [
        (["confusion"], 2),
        (["Attirance"], 2),
        (["confusion", "infatuation"], 2),  # one category, counted once
        (["Empoisonnement"], 4),
        (["bad_poison"], 4),
        (["Paralysie"], 4),
        (["brûlure"], 4),
        (["GEL"], 6),
        (["sleep"], 6),
        (["Malédiction", "peur"], 0),  # accepted, lower nothing
        (["sommeil", "confusion"], 8),  # categories add up
        (["burn", "Brulure"], 4),  # the same condition twice
    ],
)
def test_pk_20_conditions_by_category(conditions: list[str], reduction: int) -> None:
    assert capture_difficulty(15, conditions=conditions).value == 15 - reduction


def test_pk_20_lowered_stats_other_and_everything_adds_up() -> None:
    lowered = capture_difficulty(
        15, vitality_pct=30, conditions=["paralysis", "confusion"], lowered_stats=2, other=1
    )
    assert [(r.reason, r.amount) for r in lowered.reductions] == [
        ("vitality_50", 2),
        ("poison_paralysis_burn", 4),
        ("confusion_infatuation", 2),
        ("lowered_stats", 2),
        ("other", 1),
    ]
    assert lowered.value == 15 - 11
    assert capture_difficulty(8, other=-3).value == 11  # a negative GM amount raises it


def test_pk_20_final_difficulty_is_at_least_1() -> None:
    lowered = capture_difficulty(5, vitality_pct=10, conditions=["freeze"])
    assert lowered.value == 1
    result = capture([1, 1, 2] * 3, ball="poke", difficulty=5, vitality_pct=10, condition=["gel"])
    # at DD1 a 1 is one success and one failure (PK-4): 1✓✗ 1✓✗ 2✓ → 3 − 2 = 1
    assert result["difficulty"] == 1 and result["captured"] is True


def test_pk_20_condition_names_in_french_or_english() -> None:
    assert condition_id("Empoisonnement grave") == "bad_poison"
    assert condition_id(" Brûlure ") == "burn"
    assert condition_id("ATTIRANCE") == "infatuation"
    assert condition_id("bad poison") == "bad_poison"


# --- bad input ------------------------------------------------------------------------------


def test_unknown_condition_lists_the_known_ones() -> None:
    with pytest.raises(UnknownNameError) as caught:
        capture_difficulty(8, conditions=["lave"])
    assert "burn" in caught.value.message() and "lave" in caught.value.message()


def test_unknown_ball_is_refused() -> None:
    with pytest.raises(InputError, match="Poké Ball, Super Ball, Hyper Ball, Master Ball"):
        validate_params(CaptureParams, {"ball": "ultra", "difficulty": 8})
    with pytest.raises(UnknownNameError):
        resolve_capture("ultra", 8, Seeded(1))


def test_two_major_conditions_are_refused() -> None:
    with pytest.raises(InputError, match="PK-16"):
        capture_difficulty(8, conditions=["burn", "sommeil"])


# --- odds ---------------------------------------------------------------------------------


def brute_success(dice: int, difficulty: int) -> Fraction:
    """P(score > 0) by enumerating every face of one roll."""
    final = max(1, difficulty)
    wins = sum(
        sum(f >= final for f in faces) - sum(f == 1 for f in faces) > 0
        for faces in product(D10, repeat=dice)
    )
    return Fraction(wins, 10**dice)


@pytest.mark.parametrize("difficulty", [1, 3, 6, 9, 10, 11])
def test_pk_19_exact_odds_match_brute_force(difficulty: int) -> None:
    assert capture_chance("poke", difficulty, exact=True) == brute_success(3, difficulty) ** 3


def test_pk_19_exact_odds_match_brute_force_super_ball() -> None:
    assert capture_chance("super", 4, exact=True) == brute_success(5, 4) ** 3


@pytest.mark.parametrize("ball", ["hyper", "master"])
def test_pk_19_big_balls_use_the_check_probability(ball: str) -> None:
    p = score_distribution(BALL_DICE[ball], 7, exact=True).at_least(1)
    assert capture_chance(ball, 7, exact=True) == p**3


def test_odds_by_ball_exact_and_float_agree() -> None:
    params = CaptureParams(ball="super", difficulty=12, vitality_pct=40, condition=["burn"])
    exact, floats = odds(params, True), odds(params, False)
    assert exact.outcomes == exact.extra["by_ball"]["super"]
    assert exact.extra["difficulty"] == 6
    for ball, answer in exact.extra["by_ball"].items():
        assert answer["captured"] + answer["escaped"] == 1
        assert answer["captured"] == capture_chance(ball, 6, exact=True)
        assert floats.extra["by_ball"][ball]["captured"] == pytest.approx(
            float(answer["captured"]), abs=1e-12
        )
    chances = [exact.extra["by_ball"][ball]["captured"] for ball in BALL_DICE]
    assert chances == sorted(chances), "more dice, better odds"


# --- through the command line ---------------------------------------------------------------


def test_cli_roll_json(pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            *("roll", "pokemon", "capture", "--ball", "poke", "--difficulty", "9"),
            *("--condition", "Sommeil", "--condition", "confusion", "--faces", "1,1,1"),
            "--json",
        ]
    )
    payload = json.loads(capsys.readouterr().out)
    assert code == 0
    assert payload["difficulty"] == 1  # 9 − 6 − 2
    assert payload["rolls"] == [{"faces": [1, 1, 1], "successes": 3, "failures": 3, "score": 0}]
    assert payload["captured"] is False and payload["outcome"] == "escaped"


def test_cli_odds_json_by_ball(pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["odds", "pokemon", "capture", "--ball", "hyper", "--difficulty", "8", "--exact", "--json"]
    )
    payload = json.loads(capsys.readouterr().out)
    assert code == 0
    assert set(payload["by_ball"]) == {"poke", "super", "hyper", "master"}
    assert payload["outcomes"] == payload["by_ball"]["hyper"]
    assert Fraction(payload["outcomes"]["captured"]) + Fraction(payload["outcomes"]["escaped"]) == 1


def test_cli_explains_in_french(pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            *("roll", "pokemon", "capture", "--ball", "poke", "--difficulty", "12"),
            *("--vitality-pct", "20", "--faces", "6,7,8,6,1,2", "--lang", "fr", "--json"),
        ]
    )
    payload = json.loads(capsys.readouterr().out)
    assert code == 0
    explanation = payload["explanation"]
    assert explanation.startswith("Poké Ball · DD 12 − 4 (")
    assert explanation.count(" · ") == 4  # ball, difficulty, two rolls, outcome
    assert "3d10 DD8\u00a0: 6 7 8✓" in explanation
    assert payload["captured"] is False
