"""Polédémos `test` and `activate` (PD-1, PD-2, PD-5, PD-9): worked examples, exact odds against
brute force, the actions' contract and the command line."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from cli_run import run
from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError
from jdr.i18n import language
from jdr.params import validate_params
from jdr.systems import Registry
from jdr.systems.poledemos.actions import (
    ACTIONS,
    MAX_TEST_DICE,
    ActivateParams,
    ValTestParams,
    activation_odds,
    roll_activation,
    roll_val_test,
    val_test_odds,
)
from jdr.systems.poledemos.warband import parse_vals


def successes(val: int, faces: tuple[int, ...]) -> int:
    """The oracle: PD-1 written once more, plainly."""
    return sum(face >= val for face in faces)


# --- PD-1, PD-2 -------------------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "faces", "expected"), [(1, [4], (1, 0)), (3, [3, 1, 4], (2, 1))])
def test_pd_2_worked_examples(dice: int, faces: list[int], expected: tuple[int, int]) -> None:
    record = roll_val_test(
        ValTestParams.model_validate({"val": "3+", "dice": dice}), GivenFaces(faces)
    )
    assert (record.totals["successes"], record.totals["failures"]) == expected
    assert record.outcome == "success"
    assert list(record.faces) == faces


def test_pd_2_explanation_in_english_and_french() -> None:
    record = roll_val_test(
        ValTestParams.model_validate({"val": "3+", "dice": 3}), GivenFaces([3, 1, 4])
    )
    assert record.explain() == "3d6 VAL 3+ : 3✓ 1✗ 4✓ → 2 successes, 1 failure"
    with language("fr"):
        assert "2 succès" in record.explain()


@pytest.mark.parametrize("val", range(1, 7))
def test_pd_1_a_face_at_or_above_val_succeeds(val: int) -> None:
    for face in range(1, 7):
        record = roll_val_test(ValTestParams(val=val, dice=1), GivenFaces([face]))
        assert record.totals["successes"] == int(face >= val)
        assert record.totals["failures"] == int(face < val)
        assert record.outcome == ("success" if face >= val else "failure")


@pytest.mark.parametrize("written", ["3", "3+", " 3+ ", 3])
def test_pd_1_val_is_written_3_or_3_plus(written: Any) -> None:
    assert ValTestParams(val=written).val == 3


@pytest.mark.parametrize("bad", ["0", "7", "7+", "x", "+", "", 3.5])
def test_pd_1_val_out_of_range_is_refused(bad: Any) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(ValTestParams, {"val": bad, "dice": 1})
    assert caught.value.field == "val"
    assert "1+ … 6+" in caught.value.message()


@pytest.mark.parametrize(("val", "dice"), [(1, 2), (3, 1), (3, 3), (4, 4), (6, 3), (5, 5)])
def test_pd_2_test_odds_match_brute_force(val: int, dice: int) -> None:
    counts = Counter(successes(val, faces) for faces in itertools.product(range(1, 7), repeat=dice))
    odds = val_test_odds(ValTestParams(val=val, dice=dice), exact=True)
    total = 6**dice
    assert dict(odds.distribution) == {k: Fraction(n, total) for k, n in counts.items()}
    assert odds.outcomes["failure"] == Fraction(counts[0], total)
    assert odds.outcomes["success"] == 1 - Fraction(counts[0], total)
    assert odds.mean == Fraction(dice * (7 - val), 6)
    at_least = dict(odds.extra["at_least"])
    assert at_least == {
        k: Fraction(sum(n for s, n in counts.items() if s >= k), total) for k in range(1, dice + 1)
    }


def test_pd_2_odds_float_and_exact_agree_and_list_both_outcomes() -> None:
    params = ValTestParams(val=6, dice=MAX_TEST_DICE)
    exact, floats = val_test_odds(params, True), val_test_odds(params, False)
    assert set(exact.outcomes) == {"success", "failure"}
    for (value, p), (same, q) in zip(exact.distribution, floats.distribution, strict=True):
        assert value == same and abs(float(p) - q) < 1e-12
    sure = val_test_odds(ValTestParams(val=1, dice=2), True)
    assert sure.outcomes == {"success": 1, "failure": 0}


def test_pd_2_test_dice_are_limited() -> None:
    with pytest.raises(InputError) as caught:
        validate_params(ValTestParams, {"val": "3", "dice": str(MAX_TEST_DICE + 1)})
    assert caught.value.field == "dice"


# --- PD-5 -------------------------------------------------------------------------------------


def test_pd_5_worked_example_the_hand_passes_after_the_action() -> None:
    record = roll_activation(
        ActivateParams.model_validate({"val": "3+", "dice": 3}), GivenFaces([2, 5, 2])
    )
    totals = record.totals
    assert (totals["action_points"], totals["failures"], totals["pass_hand"]) == (1, 2, True)
    assert totals["successes"] == 1 and totals["group"] == []
    assert record.outcome == "pass_hand"
    assert "the hand passes after its actions" in record.explain()


def test_pd_5_no_success_no_activation() -> None:
    record = roll_activation(ActivateParams(val=5, dice=1), GivenFaces([2]))
    assert record.totals["action_points"] == 0 and record.outcome == "keep_hand"
    assert "does not activate" in record.explain()


@pytest.mark.parametrize("dice", ["0", "4"])
def test_pd_5_one_to_three_dice(dice: str) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(ActivateParams, {"val": "3", "dice": dice})
    assert caught.value.field == "dice"


@pytest.mark.parametrize(("val", "dice"), list(itertools.product(range(1, 7), range(1, 4))))
def test_pd_5_the_hand_passes_exactly_when_pa_is_at_most_dice_minus_two(
    val: int, dice: int
) -> None:
    odds = activation_odds(ActivateParams(val=val, dice=dice), exact=True)
    passing = sum((p for pa, p in odds.distribution if pa <= dice - 2), Fraction(0))
    assert odds.outcomes["pass_hand"] == passing
    assert odds.outcomes["keep_hand"] == 1 - passing


# --- PD-9 -------------------------------------------------------------------------------------


def test_pd_9_worked_example_the_group_reads_the_leaders_dice() -> None:
    params = ActivateParams.model_validate({"val": "3+", "dice": 3, "group": "4+,5+,5+"})
    record = roll_activation(params, GivenFaces([6, 4, 3]))
    assert record.totals["action_points"] == 3
    assert record.totals["group"] == [
        {"val": 4, "action_points": 2},
        {"val": 5, "action_points": 1},
        {"val": 5, "action_points": 1},
    ]
    # the recruits' two failures each do not pass the hand: only the leader's count
    assert record.totals["pass_hand"] is False and record.outcome == "keep_hand"
    assert list(record.faces) == [6, 4, 3]  # the members roll nothing
    explanation = record.explain()
    assert "member VAL 4+ : 6✓ 4✓ 3✗ → 2 PA" in explanation
    assert "only the leader's count" in explanation


def test_pd_9_a_member_never_passes_the_hand_a_leader_does() -> None:
    record = roll_activation(ActivateParams(val=3, dice=3, group=[6]), GivenFaces([2, 5, 2]))
    assert record.outcome == "pass_hand"
    assert record.totals["group"] == [{"val": 6, "action_points": 0}]


@pytest.mark.parametrize(
    ("val", "dice", "group"), [(3, 3, [4, 5, 5]), (2, 2, [6]), (5, 1, [1, 3]), (4, 3, [])]
)
def test_pd_9_group_odds_match_brute_force(val: int, dice: int, group: list[int]) -> None:
    leader: Counter[int] = Counter()
    members: list[Counter[int]] = [Counter() for _ in group]
    total: Counter[int] = Counter()
    passing = 0
    for faces in itertools.product(range(1, 7), repeat=dice):
        pa = successes(val, faces)
        leader[pa] += 1
        passing += dice - pa >= 2
        member_pa = [successes(v, faces) for v in group]
        for counter, points in zip(members, member_pa, strict=True):
            counter[points] += 1
        total[pa + sum(member_pa)] += 1
    n = 6**dice

    def law(counter: Counter[int]) -> dict[int, Fraction]:
        return {k: Fraction(c, n) for k, c in counter.items()}

    odds = activation_odds(ActivateParams(val=val, dice=dice, group=group), exact=True)
    assert odds.outcomes == {
        "pass_hand": Fraction(passing, n),
        "keep_hand": 1 - Fraction(passing, n),
    }
    assert dict(odds.distribution) == law(leader)
    assert [dict(m["distribution"]) for m in odds.extra["group"]] == [law(c) for c in members]
    assert [m["val"] for m in odds.extra["group"]] == group
    assert dict(odds.extra["total_action_points"]["distribution"]) == law(total)
    assert odds.extra["total_action_points"]["mean"] == sum(k * p for k, p in law(total).items())


def test_pd_9_the_group_total_is_not_an_independent_sum() -> None:
    """Members read the same dice: a good roll is good for all (the total spreads wider)."""
    odds = activation_odds(ActivateParams(val=3, dice=3, group=[3]), exact=True)
    total = dict(odds.extra["total_action_points"]["distribution"])
    leader = dict(odds.distribution)
    assert total == {2 * k: p for k, p in leader.items()}  # the same VAL reads the same PA


def test_pd_9_float_odds_agree_with_exact() -> None:
    params = ActivateParams(val=3, dice=3, group=[4, 5])
    exact, floats = activation_odds(params, True), activation_odds(params, False)
    assert abs(float(exact.mean or 0) - float(floats.mean or 0)) < 1e-12
    for key, p in exact.outcomes.items():
        assert abs(float(p) - float(floats.outcomes[key])) < 1e-12


@pytest.mark.parametrize(
    ("given", "expected"),
    [("4+,5,5+", [4, 5, 5]), (" 4 , 5+ ", [4, 5]), (["4,5", "6"], [4, 5, 6]), ("", []), ([], [])],
)
def test_pd_9_group_is_a_list_of_val(given: Any, expected: list[int]) -> None:
    assert parse_vals(given) == expected
    assert ActivateParams(val=3, dice=1, group=given).group == expected


@pytest.mark.parametrize(
    ("given", "field", "reason"),
    [
        ("4,,5", "group[2]", "empty member"),
        ("4,5,", "group[3]", "empty member"),
        ("4,0", "group[2]", "from 1+ to 6+"),
        ("7", "group[1]", "from 1+ to 6+"),
        ("4,x", "group[2]", "written 3 or 3+"),
    ],
)
def test_pd_9_a_bad_group_member_is_refused(given: str, field: str, reason: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_vals(given)
    assert caught.value.field == field
    assert reason in caught.value.message()


# --- the actions' contract --------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_every_example_rolls_and_its_odds_hold_its_outcome(name: str) -> None:
    action = ACTIONS[name]
    assert action.help and action.example and action.odds is not None
    params = validate_params(action.params, action.example)
    record = action.roll(params, Seeded(7))
    assert record.faces
    json.dumps(dict(record.totals))
    for lang in ("en", "fr"):
        with language(lang):
            assert record.explain().strip()
    exact = action.odds(params, True)
    assert sum(exact.outcomes.values()) == Fraction(1)
    assert sum(p for _value, p in exact.distribution) == Fraction(1)
    assert record.outcome in exact.outcomes
    floats = action.odds(params, False)
    for key, p in exact.outcomes.items():
        assert abs(float(p) - float(floats.outcomes[key])) < 1e-12


# --- the command line -------------------------------------------------------------------------


def test_pd_2_test_through_the_cli(
    poledemos_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys,
        "roll",
        "poledemos",
        "test",
        "--val",
        "3+",
        "--dice",
        "3",
        "--faces",
        "3,1,4",
        "--json",
    )
    payload = json.loads(out)
    assert code == 0
    assert payload["params"] == {"val": 3, "dice": 3}
    assert (payload["successes"], payload["failures"], payload["outcome"]) == (2, 1, "success")
    code, out, _ = run(
        capsys, "odds", "poledemos", "test", "--val", "3", "--dice", "2", "--exact", "--json"
    )
    payload = json.loads(out)
    assert payload["outcomes"] == {"success": "8/9", "failure": "1/9"}
    assert payload["distribution_of"] == "successes"
    assert payload["at_least"] == [[1, "8/9"], [2, "4/9"]]


def test_pd_9_activate_through_the_cli(
    poledemos_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["poledemos", "activate", "--val", "3+", "--dice", "3", "--group", "4+,5+,5+"]
    code, out, _ = run(capsys, "roll", *args, "--faces", "6,4,3", "--json")
    payload = json.loads(out)
    assert code == 0
    for key in ("successes", "failures", "action_points", "pass_hand", "group", "explanation"):
        assert key in payload
    assert payload["group"][0] == {"val": 4, "action_points": 2}
    code, out, _ = run(capsys, "roll", *args, "--faces", "6,4,3", "--json", "--lang", "fr")
    french = json.loads(out)
    assert set(french) == set(payload) and french["group"] == payload["group"]
    assert "3 succès" in french["explanation"]
    code, out, _ = run(capsys, "odds", *args, "--json")
    odds = json.loads(out)
    assert code == 0 and set(odds["outcomes"]) == {"pass_hand", "keep_hand"}
    assert odds["distribution_of"] == "action_points"
    assert [set(member) for member in odds["group"]] == [{"val", "mean", "distribution"}] * 3
    assert set(odds["total_action_points"]) == {"mean", "distribution"}
    code, out, _ = run(capsys, "roll", *args[:2], "--val", "3", "--dice", "1", "--faces", "4")
    assert code == 0 and "1 PA" in out


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--val", "0", "--dice", "2"], "--val"),
        (["--val", "7", "--dice", "2"], "--val"),
        (["--val", "3", "--dice", "4"], "--dice"),
        (["--val", "3", "--dice", "2", "--group", "4,,5"], "--group[2]"),
        (["--val", "3", "--dice", "2", "--group", "4,7"], "--group[2]"),
    ],
)
def test_pd_5_bad_activation_input_exits_2(
    poledemos_actions: Registry, capsys: pytest.CaptureFixture[str], options: list[str], named: str
) -> None:
    code, _out, err = run(capsys, "roll", "poledemos", "activate", *options)
    assert code == 2 and named in err
    code, _out, err = run(capsys, "odds", "poledemos", "activate", *options, "--lang", "fr")
    assert code == 2 and named in err
