"""Passion `action` (PS-1 … PS-7, PS-10): the rules file's worked examples, every rule on given
faces, the explanation, and the command line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError
from jdr.i18n import language
from jdr.params import validate_params
from jdr.systems import Registry
from jdr.systems.passion.actions import ACTIONS, roll
from jdr.systems.passion.params import ActionParams, AdviseParams, fewest_dice
from jdr.systems.passion.pool import SIZES


def act(faces: list[int], **raw: Any) -> dict[str, Any]:
    """Roll the action on given faces; the record's totals plus its outcome."""
    source = GivenFaces(faces)
    record = roll(validate_params(ActionParams, raw), source)
    source.finish()
    return {**record.totals, "outcome": record.outcome, "steps": record.details["steps"]}


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main([*args, "--json"])
    out, _err = capsys.readouterr()
    return code, json.loads(out)


def cli_error(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    _out, err = capsys.readouterr()
    return code, err.strip()


# --- the worked-example table of ../shared/rules/passion.md ---------------------------------------

TABLE = [
    # dice, faces, difficulty, talent, marker, positives, negatives, margin
    ("7d6", [2, 5, 4, 2, 3, 4, 4], 4, 7, None, 5, 0, 5),
    ("7d6", [2, 5, 4, 2, 3, 4, 4], 4, 5, None, 5, 1, 4),
    ("2d6", [4, 6], 6, 4, 2, 3, 2, 1),
    ("5d6", [4, 3, 1, 2, 5], 6, 4, 5, 2, 6, -4),
    ("4d6", [4, 6, 2, 3], 3 + 3 + 3, 7, 4, 4, 3, 1),
]


@pytest.mark.parametrize(
    ("dice", "faces", "difficulty", "talent", "marker", "positives", "negatives", "margin"),
    TABLE,
    ids=["lock-talent-7", "lock-talent-5", "combat-marker-2", "combat-marker-5", "blast-3-targets"],
)
def test_ps_3_ps_4_ps_6_ps_10_worked_examples(
    dice: str,
    faces: list[int],
    difficulty: int,
    talent: int,
    marker: int | None,
    positives: int,
    negatives: int,
    margin: int,
) -> None:
    got = act(faces, dice=dice, difficulty=difficulty, talent=talent, marker=marker)
    assert (got["positives"], got["negatives"], got["margin"]) == (positives, negatives, margin)
    assert got["outcome"] == ("success" if margin > 0 else "failure")


@pytest.mark.parametrize("size", SIZES)
def test_ps_5_one_die_talent_4_difficulty_2_and_energy_is_a_sure_success(size: int) -> None:
    for face in range(1, size + 1):
        got = act([face], dice=f"1d{size}", difficulty=2, talent=4, energy=True)
        assert got["positives"] >= 1
        assert got["negatives"] == 0
        assert got["margin"] >= 1
        assert got["outcome"] == "success"


# --- one rule at a time ---------------------------------------------------------------------------


def test_ps_1_every_size_and_mixed_sizes_roll() -> None:
    for size in SIZES:
        assert act([2], dice=f"d{size}")["positives"] == 1
    got = act([4, 1, 12], dice="2d4 + 1d12")
    assert (got["positives"], got["negatives"]) == (4, 2)
    assert validate_params(ActionParams, {"dice": " 2d4 + d12 "}).dice == "2d4+1d12"


@pytest.mark.parametrize("bad", ["1d7", "0d6", "d", "8", "2d6-1d4", "300d6", ""])
def test_ps_1_bad_dice_are_refused_on_the_dice_field(bad: str) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(ActionParams, {"dice": bad})
    assert caught.value.field == "dice"


@pytest.mark.parametrize("size", SIZES)
def test_ps_2_maximum_two_positives_one_two_negatives_else_by_parity(size: int) -> None:
    for face in range(1, size + 1):
        got = act([face], dice=f"1d{size}")
        if face == size:
            expected = (2, 0)
        elif face == 1:
            expected = (0, 2)
        else:
            expected = (1, 0) if face % 2 == 0 else (0, 1)
        assert (got["positives"], got["negatives"]) == expected, face


def test_ps_3_difficulty_adds_negatives() -> None:
    assert act([2, 4], dice="2d6", difficulty=3)["negatives"] == 3
    assert act([2, 4], dice="2d6", difficulty=3)["margin"] == -1


def test_ps_4_talent_cancels_negatives_never_more_and_adds_no_positive() -> None:
    got = act([3, 2], dice="2d6", difficulty=1, talent=10)
    assert (got["positives"], got["negatives"], got["margin"]) == (1, 0, 1)
    assert got["steps"]["cancelled_by_talent"] == 2


def test_ps_5_energy_adds_one_positive_and_passion_cancels_negatives() -> None:
    assert act([1], dice="1d6", energy=True)["positives"] == 1
    got = act([3, 3, 2], dice="3d6", passion=1)
    assert (got["positives"], got["negatives"], got["outcome"]) == (1, 1, "status_quo")
    got = act([3, 3, 2], dice="3d6", passion=5)
    assert got["steps"]["cancelled_by_passion"] == 2  # never more than there are
    assert got["margin"] == 1


def test_ps_5_passion_needed_is_the_points_more_for_a_success() -> None:
    assert act([3, 3, 2], dice="3d6")["passion_needed"] == 2
    assert act([3, 3, 2], dice="3d6", passion=1)["passion_needed"] == 1
    assert act([4, 3], dice="2d6")["passion_needed"] == 1  # a status quo
    assert act([4, 2], dice="2d6")["passion_needed"] == 0
    assert act([1, 3], dice="2d6")["passion_needed"] is None  # no positive: nothing to save


def test_ps_6_margin_zero_is_a_status_quo() -> None:
    got = act([2, 3], dice="2d6")
    assert (got["margin"], got["outcome"]) == (0, "status_quo")
    assert act([2, 3], dice="2d6", difficulty=1)["outcome"] == "failure"


def test_ps_7_npc_energy_adds_negatives_and_npc_passion_cancels_dice_positives() -> None:
    assert act([6], dice="1d6", npc_energy=2)["negatives"] == 2
    got = act([6], dice="1d6", npc_passion=5, energy=True)
    assert got["positives"] == 1  # the dice's two are cancelled, never the Énergie point
    assert got["steps"]["cancelled_positives"] == 2


def test_ps_10_fewer_dice_than_the_marker_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        validate_params(ActionParams, {"dice": "1d6", "marker": 2})
    assert caught.value.field == "dice"
    assert "PS-10" in caught.value.message()
    assert "at least 2 dice" in caught.value.message()


def test_ps_10_an_energy_point_stands_in_for_one_die() -> None:
    got = act([4], dice="1d6", marker=2, energy=True)
    assert got["positives"] == 2
    with pytest.raises(InputError):
        validate_params(ActionParams, {"dice": "1d6", "marker": 3, "energy": True})
    assert fewest_dice(0, True) == fewest_dice(None, False) == 1


def test_ps_10_marker_zero_still_rolls_a_die() -> None:
    assert act([2], dice="1d4", marker=0)["margin"] == 1


# --- the explanation ------------------------------------------------------------------------------


def test_explanation_shows_every_step_in_order() -> None:
    record = roll(
        ActionParams(
            dice="2d4+1d12",
            difficulty=2,
            talent=1,
            energy=True,
            passion=1,
            npc_energy=1,
            npc_passion=1,
            marker=3,
        ),
        GivenFaces([4, 1, 12]),
    )
    assert record.explain().split(" · ") == [
        "marker 3: 3 dice",
        "2d4+1d12: 4++ 1−− 12++ → 4 positives, 2 negatives",
        "difficulty 2 → 4 negatives",
        "NPC Énergie 1 → 5 negatives",
        "talent 1 cancels 1 → 4 negatives",
        "Passion 1 cancels 1 → 3 negatives",
        "NPC Passion 1 cancels 1 → 3 positives",
        "Énergie +1 → 4 positives",
        "4 − 3 = margin 1: success",
    ]


def test_explanation_says_what_passion_would_do_and_speaks_french() -> None:
    record = roll(ActionParams(dice="3d6"), GivenFaces([3, 3, 2]))
    assert record.explain().endswith("2 more Passion points would make it a success")
    hopeless = roll(ActionParams(dice="2d6"), GivenFaces([1, 3]))
    assert "no Passion can make it a success" in hopeless.explain()
    with language("fr"):
        assert "échec" in hopeless.explain()


def test_the_example_rolls_and_its_odds_hold_the_outcome() -> None:
    action = ACTIONS["action"]
    params = validate_params(action.params, action.example)
    record = action.roll(params, Seeded(7))
    assert action.odds is not None
    assert record.outcome in action.odds(params, True).outcomes
    assert action.advise is not None and action.advise.params is AdviseParams


# --- the command line -----------------------------------------------------------------------------

ROW_4 = ("--dice", "5d6", "--difficulty", "6", "--talent", "4", "--marker", "5")


def test_cli_roll_json_keys(passion_actions: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = cli_json(capsys, "roll", "passion", "action", *ROW_4, "--faces", "4,3,1,2,5")
    assert code == 0
    assert {"faces", "outcome", "positives", "negatives", "margin", "passion_needed"} <= set(out)
    assert {"details", "explanation", "params"} <= set(out) and "steps" not in out
    assert (out["positives"], out["negatives"], out["margin"]) == (2, 6, -4)
    assert (out["outcome"], out["passion_needed"]) == ("failure", 5)
    assert out["faces"] == [4, 3, 1, 2, 5]
    assert out["details"]["steps"]["cancelled_by_talent"] == 4


def test_pk_2_a_d10s_0_counts_10_in_passion_too(
    passion_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    """PK-2's « un 0 remplace le 10, mais il compte toujours pour 10 » holds for every d10 typed
    in: Passion's d10 showing 0 is its maximum (PS-2: 2 positives); a d6 has no 0."""
    code, out = cli_json(
        capsys, "roll", "passion", "action", "--dice", "1d10+1d6", "--faces", "0,6"
    )
    assert code == 0
    assert (out["faces"], out["positives"]) == ([10, 6], 4)
    assert out["explanation"].startswith("1d10+1d6: 10++ 6++")
    code, err = cli_error(
        capsys, "roll", "passion", "action", "--dice", "1d10+1d6", "--faces", "6,0"
    )
    assert code == 2 and "face 2 is 0, not a face of a d6" in err


def test_cli_roll_text(passion_actions: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["roll", "passion", "action", "--dice", "2d6", "--faces", "4,6", "--talent", "4"])
    out, _err = capsys.readouterr()
    assert code == 0
    assert "2d6: 4+ 6++ → 3 positives, 0 negatives" in out


def test_cli_french_keeps_the_structure(
    passion_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("roll", "passion", "action", *ROW_4, "--faces", "4,3,1,2,5")
    _code, english = cli_json(capsys, *args)
    code, french = cli_json(capsys, *args, "--lang", "fr")
    assert code == 0
    assert set(french) == set(english)
    assert {k: v for k, v in french.items() if k != "explanation"} == {
        k: v for k, v in english.items() if k != "explanation"
    }
    assert french["explanation"].count(" · ") == english["explanation"].count(" · ")
    assert "échec" in french["explanation"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--dice", "1d7"), "--dice: 1d7"),
        (("--dice", "0d6"), "at least one die"),
        (("--dice", "2d6", "--talent", "-1"), "--talent: -1"),
        (("--dice", "2d6", "--marker", "3"), "marker 3"),
        (("--dice", "2d6", "--marker", "11"), "--marker: 11"),
        (("--dice", "2d6", "--npc-energy", "x"), "--npc-energy"),
        (("--dice", "2d6", "--faces", "4,7"), "faces"),
    ],
)
def test_cli_bad_input_is_one_clear_line_and_exit_2(
    passion_actions: Registry,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    words: str,
) -> None:
    code, err = cli_error(capsys, "roll", "passion", "action", *args)
    assert code == 2
    assert len(err.splitlines()) == 1
    assert words in err
