"""Every `--exact` odds and advice path prices its work first (`jdr.prob.cost`) and refuses at
once, in one line, what would take more than about a second; the float odds still answer."""

from __future__ import annotations

import pytest

from cli_run import run, run_json

REASON = "too large to compute exactly; without --exact: the same odds in floating point"

TOO_LARGE = [
    ("dice", "--odds", "1000d100"),
    ("dice", "--odds", "200d20kh100"),
    ("odds", "pokemon", "attack", "--attack-dice", "200", "--damage-dice", "200",
     "--dodge-dice", "200"),
    ("odds", "pokemon", "counter", "--attacker-dice", "200", "--attacker-threshold", "30",
     "--defender-dice", "200", "--defender-threshold", "30"),
    ("odds", "passion", "action", "--dice", "100d4+100d100"),
    ("odds", "passion", "damage", "--damage", "5", "--resistance", "3",
     "--violence-dice", "200d100", "--robustness-dice", "200d100"),
    ("advise", "passion", "action", "--talent", "3", "--difficulty", "3", "--max-dice", "30",
     "--top", "3"),
]  # fmt: skip


@pytest.mark.parametrize("args", TOO_LARGE, ids=lambda args: " ".join(args[:3]))
def test_exact_odds_too_large_are_refused_in_one_line_and_floats_answer(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *args, "--exact")
    assert code == 2
    assert out == ""
    (line,) = err.splitlines()
    assert REASON in line
    code, payload = run_json(capsys, *args, "--exact")
    assert code == 2
    assert payload["error"]["code"] == "limit_exceeded"
    assert REASON in payload["error"]["message"]
    assert payload["error"]["allowed"]
    code, _out, err = run(capsys, *args)
    assert code == 0, err


def test_the_refusal_is_in_french_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "dice", "--odds", "1000d100", "--exact", "--lang", "fr")
    assert code == 2
    assert "trop grand pour un calcul exact\u202f; sans --exact" in err


@pytest.mark.parametrize(
    "args",
    [
        ("odds", "pokemon", "check", "--dice", "200"),
        ("odds", "passion", "action", "--dice", "200d100"),
        (
            "odds",
            "pokemon",
            "counter",
            "--attacker-dice",
            "20",
            "--attacker-threshold",
            "20",
            "--defender-dice",
            "20",
            "--defender-threshold",
            "20",
        ),
        ("dice", "--odds", "92d100"),
        ("dice", "--odds", "1000d10>=6f1"),
        ("advise", "passion", "action", "--talent", "3", "--difficulty", "3", "--max-dice", "12"),
    ],
    ids=lambda args: " ".join(args[:4]),
)
def test_exact_odds_under_the_budget_answer(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *args, "--exact", "--json")
    assert code == 0, err
    assert "/" in out
