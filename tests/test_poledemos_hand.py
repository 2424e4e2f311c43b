"""A Polédémos hand (PD-4, PD-5): the exact chain and the best dice per figure, against brute
force over faces and over policies, and against a seeded simulation."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError
from jdr.i18n import language
from jdr.params import validate_params
from jdr.systems import Registry
from jdr.systems.poledemos.hand import (
    HandParams,
    activation_law,
    best_policy,
    expected_action_points,
    fixed_policy,
    hand_distribution,
    odds,
    roll,
    roll_hand,
)
from jdr.systems.poledemos.rules import activation_distribution


def play_out(vals: Sequence[int], policy: Sequence[int], faces: Sequence[int]) -> tuple[int, int]:
    """The oracle: one hand read from a full face sequence, PD-4 and PD-5 written plainly.
    Returns (total PA, figures rolled for); faces past the pass are never looked at."""
    total, position = 0, 0
    for rolled, (val, dice) in enumerate(zip(vals, policy, strict=True), 1):
        mine = faces[position : position + dice]
        position += dice
        points = sum(face >= val for face in mine)
        total += points
        if dice - points >= 2:
            return total, rolled
    return total, len(vals)


# --- one activation ---------------------------------------------------------------------------


@pytest.mark.parametrize(("val", "dice"), list(itertools.product(range(1, 7), range(1, 4))))
def test_pd_5_activation_law_agrees_with_the_rules_distribution(val: int, dice: int) -> None:
    law = activation_law(val, dice)
    expected: Counter[tuple[int, bool]] = Counter()
    for (successes, failures), p in activation_distribution(val, dice, exact=True).items():
        expected[successes, failures >= 2] += p  # type: ignore[assignment]
    assert {(pa, passes): Fraction(n, law.rolls) for pa, passes, n in law.counts} == expected
    assert law.rolls == 6**dice


# --- the chain --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vals", "policy"),
    [([3, 4], [3, 3]), ([3, 5, 2], [2, 1, 2]), ([4, 4, 6], [1, 2, 3]), ([1, 6], [3, 3])],
)
def test_pd_4_pd_5_hand_distribution_matches_every_face_sequence(
    vals: list[int], policy: list[int]
) -> None:
    dice = sum(policy)
    counts = Counter(
        play_out(vals, policy, faces) for faces in itertools.product(range(1, 7), repeat=dice)
    )
    exact = hand_distribution(vals, policy, exact=True)
    assert dict(exact.items()) == {key: Fraction(n, 6**dice) for key, n in counts.items()}
    floats = hand_distribution(vals, policy)
    for key, p in exact.items():
        assert abs(float(p) - floats.probability(key)) < 1e-12
    assert expected_action_points(vals, policy) == exact.marginal(0).mean()


def test_pd_4_the_rolled_hand_is_the_oracles() -> None:
    vals, policy = [3, 4, 5], [2, 3, 1]
    for faces in [(6, 1, 2, 5, 6, 1), (1, 1, 6, 6, 6), (6, 6, 1, 1, 5, 6)]:
        hand = roll_hand(vals, policy, GivenFaces(faces))
        assert (hand.action_points, len(hand.activations)) == play_out(vals, policy, faces)


def test_pd_5_the_passing_figure_still_uses_its_pa() -> None:
    hand = roll_hand([3, 3, 3], [3, 3, 3], GivenFaces([6, 6, 1, 2, 5, 2]))
    assert [act.action_points for act in hand.activations] == [2, 1]
    assert hand.action_points == 3 and hand.outcome == "pass_hand"
    assert "1 PA, the hand passes after its actions" in hand.explain()


def test_pd_4_a_figure_without_success_is_spent_for_the_hand() -> None:
    hand = roll_hand([5, 5], [1, 1], GivenFaces([2, 6]))
    assert [act.action_points for act in hand.activations] == [0, 1]
    assert hand.outcome == "all_activated"


def test_pd_4_the_last_figure_passing_still_activated_everyone() -> None:
    hand = roll_hand([3, 3], [1, 3], GivenFaces([4, 1, 1, 6]))
    assert hand.outcome == "all_activated" and hand.activations[-1].pass_hand


# --- the best policy --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "vals", [[3], [6], [1, 1], [3, 4, 5, 5], [2, 6, 6, 2], [5, 5, 5], [4, 3, 2, 1], [6, 5, 4]]
)
def test_pd_5_best_policy_matches_brute_force_over_every_dice_choice(vals: list[int]) -> None:
    means = {
        policy: expected_action_points(vals, policy)
        for policy in itertools.product((1, 2, 3), repeat=len(vals))
    }
    best = best_policy(vals)
    assert best.mean == max(means.values())
    assert means[tuple(best.dice)] == best.mean
    fewest = min(sum(p) for p, mean in means.items() if mean == best.mean)
    assert sum(best.dice) == fewest  # ties go to fewer dice
    for dice in (1, 2, 3):
        assert fixed_policy(vals, dice).mean == means[(dice,) * len(vals)]


def test_pd_5_the_last_figure_rolls_three_dice() -> None:
    """Passing the hand costs nothing when no figure is left."""
    assert all(best_policy([v]).dice == [3] for v in range(1, 7))


def test_pd_5_best_policy_expectation_matches_a_seeded_simulation() -> None:
    vals = [3, 4, 5, 5]
    best = best_policy(vals)
    exact = hand_distribution(vals, best.dice, exact=True).marginal(0)
    variance = float(exact.mean(lambda v: v[0] ** 2)) - float(best.mean) ** 2
    rng, hands = Seeded(2010), 20_000
    totals = [roll_hand(vals, best.dice, rng).action_points for _ in range(hands)]
    sample_mean = sum(totals) / hands
    assert abs(sample_mean - float(best.mean)) < 4 * math.sqrt(variance / hands)
    counts = Counter(totals)  # chi-square on the total's distribution
    chi2 = sum(
        (counts[k] - hands * float(p)) ** 2 / (hands * float(p))
        for (k,), p in exact.items()
        if hands * float(p) >= 5
    )
    assert chi2 < 35  # 11 cells, 10 degrees of freedom: the 0.999 quantile is 29.6


# --- the action -------------------------------------------------------------------------------


def test_pd_4_hand_odds_keys() -> None:
    params = HandParams.model_validate({"figures": "3,4,5,5", "dice": "best"})
    answer = odds(params, exact=True)
    assert set(answer.outcomes) == {"pass_hand", "all_activated"}
    assert sum(answer.outcomes.values()) == 1
    assert answer.label == "action_points"
    assert answer.mean == best_policy([3, 4, 5, 5]).mean
    extra = answer.extra
    assert extra["policy"] == extra["best"] == best_policy([3, 4, 5, 5]).dice
    assert set(extra["policies"]) == {"1", "2", "3", "best"}
    assert extra["policies"]["2"] == {"dice": [2] * 4, "mean": fixed_policy([3, 4, 5, 5], 2).mean}
    assert answer.outcomes["all_activated"] == dict(extra["activated"])[4]


def test_pd_4_odds_list_both_outcomes_even_impossible_ones() -> None:
    answer = odds(HandParams(figures=[3, 3], dice="1"), exact=True)
    assert answer.outcomes == {"pass_hand": 0, "all_activated": 1}


@pytest.mark.parametrize(
    ("dice", "policy"),
    [("1", [1, 1, 1]), ("3", [3, 3, 3]), (" 3, 2 ,1", [3, 2, 1]), ("BEST", [3, 3, 3])],
)
def test_pd_5_dice_per_figure(dice: str, policy: list[int]) -> None:
    params = validate_params(HandParams, {"figures": "2,2,2", "dice": dice})
    assert params.policy() == policy


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"figures": "3,4", "dice": "4"}, "dice"),
        ({"figures": "3,4", "dice": "1,2,3"}, "dice"),
        ({"figures": "3,4", "dice": "1,x"}, "dice[2]"),
        ({"figures": "3,,4"}, "figures[2]"),
        ({"figures": "3,0"}, "figures[2]"),
        ({"figures": ""}, "figures"),
        ({"figures": ",".join(["3"] * 31)}, "figures"),
    ],
)
def test_pd_4_bad_hands_are_refused(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(HandParams, raw)
    assert caught.value.field == field


def test_pd_4_roll_record() -> None:
    params = HandParams.model_validate({"figures": "3,4,5", "dice": "2"})
    record = roll(params, GivenFaces([6, 5, 2, 1]))
    assert record.outcome == "pass_hand"
    assert record.totals["action_points"] == 2 and record.totals["activated"] == 2
    assert record.totals["policy"] == [2, 2, 2]
    assert record.totals["activations"][1] == {
        "figure": 2,
        "val": 4,
        "dice": 2,
        "faces": [2, 1],
        "successes": 0,
        "failures": 2,
        "action_points": 0,
        "pass_hand": True,
    }
    assert list(record.faces) == [6, 5, 2, 1]
    assert record.explain().endswith("total: 2 PA, 2 of 3 figures activated")
    with language("fr"):
        assert "2 succès" in record.explain()


# --- the command line -------------------------------------------------------------------------


def test_pd_4_hand_through_the_cli(
    poledemos_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["odds", "poledemos", "hand", "--figures", "3,4,5,5", "--exact", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert code == 0
    assert payload["params"] == {"figures": [3, 4, 5, 5], "dice": "best"}
    assert payload["mean"] == "292/81"
    for key in ("outcomes", "distribution", "policy", "best", "policies", "activated"):
        assert key in payload
    assert payload["policies"]["best"] == {"dice": [3, 3, 1, 3], "mean": "292/81"}
    args = ["roll", "poledemos", "hand", "--figures", "3,4", "--dice", "1", "--faces", "2,6"]
    code = main([*args, "--json", "--lang", "fr"])
    payload = json.loads(capsys.readouterr().out)
    assert code == 0 and payload["outcome"] == "all_activated"
    assert payload["action_points"] == 1 and len(payload["activations"]) == 2
    code = main(["odds", "poledemos", "hand", "--figures", "3,,4"])
    assert code == 2 and "--figures[2]" in capsys.readouterr().err
