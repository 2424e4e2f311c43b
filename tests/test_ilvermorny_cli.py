"""The `ilvermorny` system on the command line (IL-2 … IL-11): `jdr roll|odds ilvermorny …` as
installed, JSON keys, exit code 2 with one clear line for bad input, and `--lang fr`."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from cli_run import answer as run_json
from cli_run import run
from conftest import installed
from jdr.systems import Registry


@pytest.fixture(autouse=True)
def ilvermorny_cli() -> Registry:
    """The `ilvermorny` system as installed: found through its `jdr.systems` entry point."""
    return installed("ilvermorny")


def test_il_2_il_3_test_roll_json(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(
        capsys,
        "roll",
        "ilvermorny",
        "test",
        "--stat",
        "7",
        "--difficulty",
        "Malaisee",
        "--faces",
        "6",
    )
    assert payload["outcome"] == "success"
    assert (payload["natural"], payload["result"], payload["faces"]) == (6, 7, [6])
    assert payload["params"] == {"stat": 7, "difficulty": 1, "modifier": 0}


def test_il_2_test_roll_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "roll", "ilvermorny", "test", "--stat", "4", "--faces", "12")
    assert code == 0
    assert out.splitlines() == [
        "Ilvermorny wizard school · test",
        "difficulty unusual (+0) · d12 12: a natural 12 → critical failure",
    ]


def test_il_6_il_8_cast_roll_json(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(
        capsys,
        "roll",
        "ilvermorny",
        "cast",
        "--magic",
        "7",
        "--level",
        "1",
        "--difficulty-of-spell",
        "1",
        "--xp",
        "8",
        "--faces",
        "3",
    )
    assert payload["outcome"] == "success"
    assert {key: payload[key] for key in ("natural", "result", "xp_gained", "xp", "level")} == {
        "natural": 3,
        "result": 0,
        "xp_gained": 3,
        "xp": 1,
        "level": 2,
    }
    assert payload["level_ups"] == [{"level": 2, "xp_spent": 10}]


def test_il_6_il_7_cast_odds_json_exact(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(
        capsys, "odds", "ilvermorny", "cast", "--magic", "7", "--level", "2", "--exact"
    )
    assert list(payload["outcomes"]) == [
        "critical_failure",
        "failure",
        "success",
        "perfect",
        "imperfect",
    ]
    assert sum(Fraction(p) for p in payload["outcomes"].values()) == 1
    assert payload["mean"] == "7/3"
    assert payload["distribution_of"] == "xp_gained"


def test_il_9_study_roll_json(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(
        capsys,
        "roll",
        "ilvermorny",
        "study",
        "--comprehension",
        "7",
        "--resolution",
        "7",
        "--hours",
        "4",
        "--faces",
        "1,2,3,4,5,6,7,9",
    )
    assert (payload["outcome"], payload["hours_completed"], payload["xp"]) == ("failure", 3, 13)
    assert [test["hour"] for test in payload["tests"]] == [1, 1, 2, 2, 3, 3, 3, 4]


def test_il_9_study_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(
        capsys,
        "odds",
        "ilvermorny",
        "study",
        "--comprehension",
        "6",
        "--resolution",
        "7",
        "--hours",
        "3",
        "--exact",
    )
    assert sorted(payload["by_hours"]) == ["1", "2", "3", "4", "5", "6"]
    assert set(payload["by_hours"]["3"]) == {"expected_xp", "p_complete"}
    assert payload["by_hours"]["3"]["expected_xp"] == payload["mean"]
    assert payload["best_hours"] == 2
    assert payload["distribution_of"] == "xp"
    assert sum(Fraction(p) for _xp, p in payload["distribution"]) == 1


def test_il_11_duel_roll_and_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    common = ["--magic-a", "7", "--element-a", "feu", "--magic-b", "6", "--element-b", "Water"]
    payload = run_json(capsys, "roll", "ilvermorny", "duel", *common, "--faces", "2,9")
    assert (payload["winner"], payload["dominant"], payload["faces"]) == ("a", "b", [2, 9])
    odds = run_json(capsys, "odds", "ilvermorny", "duel", *common, "--exact")
    assert set(odds["outcomes"]) == {"a", "b", "both_cancelled"}
    assert sum(Fraction(p) for p in odds["outcomes"].values()) == 1


def test_il_4_create_roll_json(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(
        capsys,
        "roll",
        "ilvermorny",
        "create",
        "--faces",
        "3,4,5,2,3,4,3",
        "--questionnaire",
        "magie=2",
        "--free",
        "magic=3,intuition=2",
    )
    assert payload["outcome"] == "valid"
    assert payload["stats"]["magic"] == 10
    assert (payload["total"], payload["free_points_left"], payload["problems"]) == (31, 0, [])


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["roll", "ilvermorny", "test", "--stat", "11"], "--stat: 11 — must be at most 10"),
        (["roll", "ilvermorny", "cast", "--magic", "7", "--level", "6"], "--level: 6"),
        (["roll", "ilvermorny", "cast", "--magic", "7", "--level", "0"], "not learnt yet"),
        (
            [
                "roll",
                "ilvermorny",
                "duel",
                "--magic-a",
                "7",
                "--element-a",
                "air",
                "--magic-b",
                "6",
                "--element-b",
                "eau",
            ],
            "--element-a: air — not one of the choices"
            " (allowed: one of fire, vine, water, neutral)",
        ),
        (
            ["odds", "ilvermorny", "test", "--stat", "5", "--difficulty", "impossible"],
            "--difficulty: impossible — unknown difficulty",
        ),
        (["roll", "ilvermorny", "create", "--free", "magic=6"], "the player splits 5 (IL-4)"),
        (["roll", "ilvermorny", "study", "--comprehension", "5", "--resolution", "5"], "--hours"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("jdr: error: ")
    assert words in err


def test_bad_input_with_json_names_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "roll", "ilvermorny", "test", "--stat", "11", "--json")
    assert code == 2
    assert json.loads(out)["error"]["field"] == "--stat"


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "ilvermorny", "test", "--stat", "7", "--faces", "5"],
        ["roll", "ilvermorny", "cast", "--magic", "7", "--level", "2", "--faces", "7"],
        [
            "roll",
            "ilvermorny",
            "study",
            "--comprehension",
            "6",
            "--resolution",
            "6",
            "--hours",
            "1",
            "--faces",
            "2,3",
        ],
        [
            "roll",
            "ilvermorny",
            "duel",
            "--magic-a",
            "7",
            "--element-a",
            "feu",
            "--magic-b",
            "6",
            "--element-b",
            "vigne",
            "--faces",
            "5,7",
        ],
        ["roll", "ilvermorny", "create", "--faces", "1,2,3,4,5,6,1"],
        [
            "odds",
            "ilvermorny",
            "study",
            "--comprehension",
            "6",
            "--resolution",
            "6",
            "--hours",
            "2",
        ],
    ],
)
def test_lang_fr_keeps_the_json_structure_and_explains(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    english = run_json(capsys, *args, "--lang", "en")
    french = run_json(capsys, *args, "--lang", "fr")
    english.pop("explanation", None)
    assert french.pop("explanation", "x").strip()
    assert french == english
    code, out, _err = run(capsys, *args, "--lang", "fr")
    assert code == 0
    assert len(out.splitlines()) >= 2


def test_every_action_is_listed_with_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "roll", "ilvermorny", "--help")
    assert code == 0
    for action in ("test", "cast", "study", "duel", "create"):
        assert action in out
    code, out, _err = run(capsys, "odds", "ilvermorny", "--help")
    assert "create" not in out.split("Commands")[-1]


@pytest.mark.parametrize(
    ("magic", "explanation"),
    [
        ("1", "d12 11 = 11 > 10 (2 × level 5) → failure, +1 XP"),
        ("2", "d12 11 − 1 = 10 = 10 (2 × level 5) → perfect, +5 XP"),
    ],
)
def test_il_6_the_note_on_11_reads_the_result_through_the_cli(
    capsys: pytest.CaptureFixture[str], magic: str, explanation: str
) -> None:
    """« un résultat de 11 sera toujours un échec »: a result, after Magie / 2."""
    cast = ("roll", "ilvermorny", "cast", "--magic", magic, "--level", "5", "--faces", "11")
    payload = run_json(capsys, *cast)
    assert payload["explanation"] == explanation
