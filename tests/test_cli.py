"""The command line: the contract every system fills in, and bad input never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run, run_json
from conftest import TESTS, write_plugin
from jdr.systems import Registry

JDR = Path(sys.executable).with_name("jdr")


# --- roll ------------------------------------------------------------------------------------


def test_roll_with_given_faces_json(
    installed_example: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, payload = run_json(
        capsys, "roll", "example", "check", "--dice", "4", "--faces", "5,1,2,6"
    )
    assert code == 0
    assert payload["system"] == "example"
    assert payload["action"] == "check"
    assert payload["params"] == {"dice": 4, "target": 5}
    assert payload["faces"] == [5, 1, 2, 6]
    assert payload["outcome"] == "success"
    assert (payload["successes"], payload["failures"], payload["score"]) == (2, 1, 1)
    assert payload["explanation"] == "4d6 ≥5 : 5✓ 1✗ 2 6✓ → 2 successes − 1 failure = 1 → success"


def test_roll_explains_in_french(
    installed_example: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, payload = run_json(
        capsys, "roll", "example", "check", "--dice", "4", "--faces", "5,1,2,6", "--lang", "fr"
    )
    assert code == 0
    assert payload["explanation"] == "4d6 ≥5 : 5✓ 1✗ 2 6✓ → 2 succès − 1 échec = 1 → réussite"
    assert payload["outcome"] == "success", "JSON keys and values stay in English"


def test_roll_language_from_environment(
    installed_example: Registry, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JDR_LANG", "fr")
    _code, payload = run_json(capsys, "roll", "example", "check", "--dice", "1", "--faces", "6")
    assert payload["explanation"].endswith("réussite")


def test_seed_reproduces(installed_example: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    first = run_json(capsys, "roll", "example", "check", "--dice", "10", "--seed", "42")[1]
    second = run_json(capsys, "roll", "example", "check", "--dice", "10", "--seed", "42")[1]
    other = run_json(capsys, "roll", "example", "check", "--dice", "10", "--seed", "43")[1]
    assert first["faces"] == second["faces"]
    assert first["faces"] != other["faces"]


def test_default_source_rolls_valid_faces(
    installed_example: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    _code, payload = run_json(capsys, "roll", "example", "check", "--dice", "20")
    assert len(payload["faces"]) == 20
    assert all(1 <= f <= 6 for f in payload["faces"])


def test_roll_text_output(installed_example: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "example", "check", "--dice", "2", "--faces", "6,1")
    assert code == 0
    assert out == "Example: d6 pool · check\n2d6 ≥5 : 6✓ 1✗ → 1 success − 1 failure = 0 → failure\n"


# --- odds and advise -------------------------------------------------------------------------


def test_odds_json_exact(installed_example: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = run_json(capsys, "odds", "example", "check", "--dice", "3", "--exact")
    assert code == 0
    assert payload["outcomes"]["success"] == "55/108"
    assert payload["mean"] == "1/2"
    assert payload["distribution"][0] == [-3, "1/216"]
    assert payload["distribution_of"] == "score"


def test_odds_json_floats(installed_example: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    _code, payload = run_json(capsys, "odds", "example", "check", "--dice", "3")
    assert payload["outcomes"]["success"] == pytest.approx(55 / 108, abs=1e-12)
    assert sum(p for _v, p in payload["distribution"]) == pytest.approx(1)


def test_odds_text_output(installed_example: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "example", "check", "--dice", "1", "--lang", "fr")
    assert code == 0
    assert "réussite" in out and "33,33 %" in out


def test_advise_json(installed_example: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = run_json(capsys, "advise", "example", "check", "--max-dice", "3")
    assert code == 0
    assert [c["dice"] for c in payload["choices"]] == ["3d6", "2d6", "1d6"]
    p_success = payload["choices"][0]["p_success"]
    assert payload["summary"] == f"Roll 3d6 ({p_success * 100:.2f} %)"


def test_a_plugins_advice_sentence_comes_first(
    installed_example: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "advise", "example", "check", "--max-dice", "3", "--lang", "fr")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("Roll 3d6 (") and first.endswith(" %)") and "," in first


def test_systems_json(installed_example: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    _code, payload = run_json(capsys, "systems")
    (example,) = [s for s in payload["systems"] if s["id"] == "example"]
    assert example["names"]["fr"] == "Exemple : réserve de d6"
    assert example["actions"] == [{"name": "check", "odds": True, "advise": True}]


def test_action_options_come_from_the_model(
    installed_example: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "roll", "example", "check", "--help")
    assert code == 0
    for option in ("--dice", "--target", "--faces", "--seed", "--json", "--lang"):
        assert option in out
    assert "1..20" in out


# --- bad input -------------------------------------------------------------------------------

BAD = [
    (("roll", "nope", "check"), "unknown system nope"),
    (("roll", "example", "nope"), "unknown action nope (known: check)"),
    (("roll", "example", "check", "--dice", "0"), "--dice: 0 — must be at least 1"),
    (("roll", "example", "check", "--dice", "x"), "--dice: x — not a whole number"),
    (("roll", "example", "check"), "--dice: required (allowed: whole number, 1..20)"),
    (
        ("roll", "example", "check", "--dice", "2", "--faces", "7,1"),
        "face 1 is 7, not a face of a d6",
    ),
    (
        ("roll", "example", "check", "--dice", "2", "--faces", "1"),
        "1 face given, the roll needs more",
    ),
    (("roll", "example", "check", "--dice", "1", "--faces", "1,2"), "the roll used only 1"),
    (("roll", "example", "check", "--dice", "1", "--faces", "a,b"), "a is not a whole number"),
    (("roll", "example", "check", "--dice", "1", "--seed", "x"), "--seed: x"),
    (("roll", "example", "check", "--dice", "1", "--seed", "1", "--faces", "1"), "not both"),
    (("roll", "example", "check", "--wat"), "unknown option --wat"),
    (("frobnicate",), "unknown command frobnicate"),
    (("roll", "example", "check", "--dice", "1", "--lang", "de"), "--lang: de"),
]


@pytest.mark.parametrize(
    ("args", "message"), BAD, ids=lambda a: " ".join(a) if isinstance(a, tuple) else None
)
def test_bad_input_is_one_clear_line_and_exit_2(
    installed_example: Registry,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    message: str,
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(("args", "message"), BAD[:4])
def test_bad_input_with_json_also_prints_an_error_object(
    installed_example: Registry,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    message: str,
) -> None:
    code, out, _err = run(capsys, *args, "--json")
    assert code == 2
    error = json.loads(out)["error"]
    assert set(error) >= {"code", "message"}
    assert message in error["message"]


def test_bad_input_in_french(
    installed_example: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(capsys, "roll", "example", "check", "--dice", "0", "--lang", "fr")
    assert code == 2
    assert "doit valoir au moins 1" in err


def test_broken_plugin_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(write_plugin(tmp_path, "broken = no_such_module:SYSTEM")))
    code, _out, err = run(capsys, "roll", "broken", "check")
    assert code == 2
    assert "rule system broken cannot be used" in err


# --- the real console script ------------------------------------------------------------------


def _env(tmp_path: Path) -> dict[str, str]:
    site = write_plugin(tmp_path / "site")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(TESTS)]), COLUMNS="100")
    env.pop("JDR_LANG", None)
    env["LANG"] = "C.UTF-8"
    return env


def test_console_script_rolls_through_the_installed_plugin(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(JDR), "roll", "example", "check", "--dice", "3", "--faces", "6,6,1", "--json"],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == 1


def test_help_does_not_import_numpy_or_the_systems(tmp_path: Path) -> None:
    code = (
        "import sys; from jdr.cli.app import main; "
        "[main(a) for a in (['--help'], ['roll', '--help'])]; "
        "heavy = ('numpy', 'example_system', 'lark', 'sqlalchemy'); "
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        check=False,
    )
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr


def test_systems_lists_the_good_plugins_beside_a_broken_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = write_plugin(tmp_path / "good")
    monkeypatch.syspath_prepend(str(site))
    bad = tmp_path / "bad" / "jdr_broken-1.0.dist-info"
    bad.mkdir(parents=True)
    (bad / "METADATA").write_text("Metadata-Version: 2.1\nName: jdr-broken\nVersion: 1.0\n")
    (bad / "entry_points.txt").write_text("[jdr.systems]\nbroken = no_such_module:SYSTEM\n")
    monkeypatch.syspath_prepend(str(tmp_path / "bad"))
    code, payload = run_json(capsys, "systems")
    assert code == 0
    assert "example" in [s["id"] for s in payload["systems"]]
    assert "broken" in payload["broken"][0]


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        ("en", ["3d6! (5, 3, 6!+3) = 17", "4d10>=6f1 (7✓, 1✗, 2, 6✓) = 1", "1601/2000"]),
        ("fr", ["4d10 DD6\u00a0: 7✓ 1✗ 2 6✓ → 2 succès − 1 échec = 1 → réussite", "80,05 %"]),
    ],
)
def test_demo_shows_real_rolls_and_odds(
    capsys: pytest.CaptureFixture[str], lang: str, lines: list[str]
) -> None:
    code, out, err = run(capsys, "demo", "--lang", lang)
    assert code == 0, err
    for line in lines:
        assert line in out
