"""Hostile or unlucky input ends in one clear line, never a traceback (issue 14, item 1), and
`--output` writes through a temporary file and a rename (item 6)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run, run_json
from jdr.bounded import MAX_NESTING, MAX_SHEET_BYTES, nesting
from jdr.journal.reading import MAX_ENTRY_BYTES

JDR = [sys.executable, "-m", "jdr.cli.app"]


@pytest.fixture(autouse=True)
def _own_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JDR_DATABASE_URL", f"sqlite:///{tmp_path / 'jdr.db'}")


def _one_line_error(code: int, err: str, expected: int = 2) -> str:
    assert code == expected, err
    assert "Traceback" not in err
    assert err.startswith("jdr: error: ") and err.count("\n") == 1, err
    return err


def test_faces_of_five_thousand_digits_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "dice", "3d6", "--faces", "9" * 5000)
    err = _one_line_error(code, err)
    assert "5000 digits" in err and "(5000 characters)" in err and len(err) < 400


def test_journal_with_a_huge_integer_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    journal = tmp_path / "big.json"
    journal.write_text('{"format": "jdr-journal", "v": 2, "n": ' + "9" * 5000 + "}")
    code, _out, err = run(capsys, "verify", str(journal))
    assert "5000 digits" in _one_line_error(code, err)


@pytest.mark.parametrize("syntax", ["json", "toml"])
def test_deep_nesting_is_refused_before_parsing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, syntax: str
) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    path = tmp_path / f"deep.{syntax}"
    if syntax == "json":  # a journal is read piece by piece: an entry nested too deep (issue 28)
        path.write_text(
            '{"format": "jdr-journal", "v": 2, "epochs": [], "entries": [' + deep + "]}"
        )
        code, _out, err = run(capsys, "verify", str(path))
        assert "at most 32 levels of nesting" in _one_line_error(code, err)
        return
    path.write_text(f"x = {deep}\n")
    code, _out, err = run(capsys, "sheet", "validate", str(path))
    assert "nested 100000 deep" in _one_line_error(code, err)


def test_deep_dotted_keys_and_inline_tables_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dotted = tmp_path / "dotted.toml"
    dotted.write_text(".".join(["a"] * 10_000) + " = 1\n")
    code, _out, err = run(capsys, "sheet", "validate", str(dotted))
    assert "nested" in _one_line_error(code, err)
    inline = tmp_path / "inline.toml"
    inline.write_text("x = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n")
    code, _out, err = run(capsys, "sheet", "validate", str(inline))
    assert "nested 5000 deep" in _one_line_error(code, err)


def test_nesting_counts_only_outside_strings() -> None:
    assert nesting('{"a": "[[[[[[", "b": [1]}', "json") == 2
    # a float's dot counts like a key's: the measure is an upper bound, never an underestimate
    assert nesting("# [[[[[[\nname = 'a.b.c' # {{{{\nx = [1.5, 2.5]", "toml") == 2
    assert nesting('s = """[[[\n{{{"""\n', "toml") == 0


def test_endless_input_is_read_only_up_to_the_limit() -> None:
    """`/dev/zero` as a journal, as a sheet, and on standard input: refused at once (a real
    process: no MemoryError, no hang). A journal is read piece by piece (issue 28): its zeros
    are not JSON; a sheet is refused past its size."""
    done = subprocess.run(  # noqa: PLW1510 - the return code is asserted
        [*JDR, "sheet", "validate", "/dev/zero"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "larger than" in done.stderr
    for stdin in (None, "/dev/zero"):
        with open("/dev/zero", "rb") as zero:
            done = subprocess.run(  # noqa: PLW1510 - the return code is asserted
                [*JDR, "verify", "-" if stdin else "/dev/zero"],
                stdin=zero,
                capture_output=True,
                text=True,
                timeout=60,
            )
        assert done.returncode == 2 and "not JSON (line 1, column 1)" in done.stderr
    assert MAX_SHEET_BYTES < MAX_ENTRY_BYTES and MAX_NESTING >= 8


def test_one_endless_piece_of_a_journal_is_refused_past_its_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 28: a journal has no size limit, one piece of it has (`MAX_ENTRY_BYTES`)."""
    journal = tmp_path / "large.json"
    journal.write_text(json.dumps({"format": "x", "pad": "a" * MAX_ENTRY_BYTES}))
    code, answer = run_json(capsys, "verify", str(journal))
    assert code == 2 and answer["error"]["code"] == "limit_exceeded"
    assert answer["error"]["field"] == "FILE"


@pytest.mark.parametrize(
    ("where", "url"),
    [
        ("--db", "not a url"),
        ("--db", "foo://x"),
        ("--db", "mysql://me:secret@db/jdr"),
        ("JDR_DATABASE_URL", "not a url"),
        ("JDR_DATABASE_URL", "mysql://me@db/jdr"),
    ],
)
def test_a_bad_database_url_is_named_with_what_is_allowed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, where: str, url: str
) -> None:
    args = ["campaign", "list"]
    if where == "--db":
        args += ["--db", url]
    else:
        monkeypatch.setenv("JDR_DATABASE_URL", url)
    code, _out, err = run(capsys, *args)
    err = _one_line_error(code, err)
    assert f"{where}: " in err and "not a database URL jdr can use" in err
    assert "sqlite:///FILE, postgresql+psycopg://" in err and "secret" not in err


@pytest.mark.parametrize("command", ["show", "undo", "redo"])
def test_a_fight_id_past_64_bits_is_no_such_fight(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, _out, err = run(capsys, "fight", command, "99999999999999999999")
    assert "no fight 99999999999999999999" in _one_line_error(code, err)


@pytest.mark.parametrize(
    "args", [["dice", "3d6", "--seed", "1"], ["dice", "3d6", "--odds"], ["systems"]]
)
def test_a_full_disk_is_one_line_and_exit_1(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(  # noqa: PLW1510 - the return code is asserted
            [*JDR, *args], stdout=full, stderr=subprocess.PIPE, timeout=60
        )
    err = done.stderr.decode()
    assert done.returncode == 1 and "Traceback" not in err and "Exception" not in err
    assert err.startswith("jdr: error: could not write the output") and err.count("\n") == 1


def test_a_journal_export_to_a_full_disk_is_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(capsys, "campaign", "new", "Full", "--system", "passion")[0] == 0
    assert run(capsys, "dice", "2d6", "--campaign", "Full")[0] == 0
    with open("/dev/full", "w") as full:
        done = subprocess.run(  # noqa: PLW1510 - the return code is asserted
            [*JDR, "journal", "export", "Full"], stdout=full, stderr=subprocess.PIPE, timeout=60
        )
    err = done.stderr.decode()
    assert done.returncode == 1 and "Traceback" not in err
    assert err.startswith("jdr: error: could not write the output") and err.count("\n") == 1


def test_a_closed_pipe_is_one_line_and_exit_1() -> None:
    reader = subprocess.Popen(["head", "-c", "1"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    writer = subprocess.run(  # noqa: PLW1510 - the return code is asserted
        [*JDR, "dice", "60d6", "--odds"], stdout=reader.stdin, stderr=subprocess.PIPE, timeout=60
    )
    assert reader.stdin is not None
    reader.stdin.close()
    reader.wait(timeout=30)
    err = writer.stderr.decode()
    assert "Traceback" not in err and "Exception" not in err
    if writer.returncode:  # the reader left before the end: one line says so
        assert writer.returncode == 1 and err.count("\n") == 1, err


def test_output_refuses_a_symlink_and_never_writes_its_target(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 28: a link is neither written through nor replaced (`--output /dev/stdout`, a
    link, would otherwise become a regular file); it was replaced before."""
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "sheet.toml"
    link.symlink_to(target)
    code, _out, err = run(capsys, "sheet", "example", "passion", "--output", str(link))
    assert "a symbolic link, not a regular file" in _one_line_error(code, err)
    assert target.read_text() == "keep me" and link.is_symlink()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    plain = tmp_path / "plain.toml"
    code, _out, err = run(capsys, "sheet", "example", "passion", "--output", str(plain))
    assert code == 0, err
    assert "name" in plain.read_text() and stat.S_IMODE(os.stat(plain).st_mode) == 0o600


def test_output_that_cannot_be_written_leaves_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    code, _out, err = run(capsys, "sheet", "example", "passion", "--output", str(folder))
    assert "--output" in _one_line_error(code, err)
    missing = tmp_path / "no" / "such" / "file.toml"
    code, _out, err = run(capsys, "sheet", "example", "passion", "--output", str(missing))
    assert "--output" in _one_line_error(code, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "jdr.db"] or sorted(
        p.name for p in tmp_path.iterdir()
    ) == ["folder"]


def test_output_dash_is_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "sheet", "example", "passion", "--output", "-")
    assert code == 0, err
    assert "name" in out


# --- issue 28, part 4: the fuzzer's tracebacks, each a clear message --------------------------


@pytest.fixture
def wizard(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> list[str]:
    """`sheet set Seraphina Quill … --campaign C`, the example wizard stored."""
    sheet = Path(__file__).parent.parent / "src/jdr/systems/ilvermorny/examples/wizard.toml"
    assert run(capsys, "campaign", "new", "C", "--system", "ilvermorny")[0] == 0
    assert run(capsys, "sheet", "add", str(sheet), "--campaign", "C")[0] == 0
    return ["sheet", "set", "Seraphina Quill", "--campaign", "C"]


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("9" * 5000, "a number of 5000 digits (allowed: whole numbers of at most 30 digits)"),
        ("-" + "9" * 5000, "a number of 5000 digits"),
        ("[" + "9" * 5000 + "]", "a number of 5000 digits"),
        ("{a = 1_" + "9" * 4400 + "}", "a number of 4401 digits"),
        ("9" * 31, "a number of 31 digits (allowed: whole numbers of at most 30 digits)"),
        ("[" * 10_000 + "]" * 10_000, "nested 10000 deep (allowed: at most 32 levels of nesting)"),
        ("{" + "a." * 100 + "b = 1}", "nested 101 deep (allowed: at most 32 levels of nesting)"),
    ],
    ids=["5000-digits", "negative", "in-a-list", "underscores", "31-digits", "brackets", "dots"],
)
def test_sheet_set_value_past_the_limits_is_one_line(
    capsys: pytest.CaptureFixture[str], wizard: list[str], value: str, reason: str
) -> None:
    code, _out, err = run(capsys, *wizard, f"stats.magic={value}")
    err = _one_line_error(code, err)
    assert err.startswith("jdr: error: stats.magic: ") and reason in err and len(err) < 400
    code, _out, err = run(capsys, *wizard, f"stats.magic={value}", "--lang", "fr")
    assert code == 2 and ("chiffres" in err or "imbrication" in err)


def test_sheet_set_value_within_the_limits_is_set(
    capsys: pytest.CaptureFixture[str], wizard: list[str]
) -> None:
    code, out, err = run(capsys, *wizard, "stats.magic=8")
    assert code == 0 and "Stats › Magic 7 → 8" in out, err
    code, _out, err = run(capsys, *wizard, "stats.magic=" + "9" * 30)  # read, then the rules say
    assert "0..10" in _one_line_error(code, err)
    code, _out, err = run(capsys, *wizard, "year=Il dort" + "." * 40)  # a text's dots: no nesting
    assert "nest" not in _one_line_error(code, err)


@pytest.mark.parametrize("levels", [33, 10_000])
def test_sheet_set_path_too_deep_is_one_line(
    capsys: pytest.CaptureFixture[str], wizard: list[str], levels: int
) -> None:
    path = ".".join(["stats"] * levels)
    code, _out, err = run(capsys, *wizard, f"{path}=1")
    err = _one_line_error(code, err)
    assert f"nested {levels} deep (allowed: at most 32 levels of nesting)" in err
    code, _out, err = run(capsys, *wizard, "[1]" * levels + "=1")
    assert f"nested {levels} deep" in _one_line_error(code, err)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("+" + "9" * 5000, "a number of 5000 digits (allowed: whole numbers of at most 30 digits)"),
        ("9" * 5000, "a number of 5000 digits"),
        ("1," + "9" * 5000, "a number of 5000 digits"),
        ("[" + "9" * 5000 + "]", "a number of 5000 digits"),
        ("+" + "9" * 31, "a number of 31 digits"),
        ("[" * 5000, "nested 5000 deep (allowed: at most 32 levels of nesting)"),
    ],
    ids=["plus", "value", "list", "json", "31-digits", "nesting"],
)
def test_simulate_vary_past_the_limits_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str, reason: str
) -> None:
    examples = Path(__file__).parent.parent / "src/jdr/systems/plus_ultra/examples"
    args = ["simulate", "plus-ultra", "--with", str(examples / "hero.toml")]
    args += ["--against", str(examples / "villain.toml"), "--runs", "10", "--workers", "1"]
    code, _out, err = run(capsys, *args, "--vary", f"Kaito Arashi.willpower={value}")
    err = _one_line_error(code, err)
    assert err.startswith("jdr: error: --vary: ") and reason in err and len(err) < 400


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("9" * 5000, "a number of 5000 digits (allowed: whole numbers of at most 30 digits)"),
        ("[" + "9" * 5000 + "]", "a number of 5000 digits"),
        ("[" * 5000, "nested 5000 deep (allowed: at most 32 levels of nesting)"),
    ],
    ids=["digits", "json-digits", "nesting"],
)
def test_fight_setting_and_command_values_past_the_limits_are_one_line(
    capsys: pytest.CaptureFixture[str], value: str, reason: str
) -> None:
    """The same values as `--vary`'s, as a fight's `--setting` and a command's key (read by
    `jdr.fights.setup.parse_value` and the command models)."""
    examples = Path(__file__).parent.parent / "src/jdr/systems/plus_ultra/examples"
    assert run(capsys, "campaign", "new", "U", "--system", "plus-ultra")[0] == 0
    for kind, name in (("hero", "Kaito"), ("villain", "Corbeau")):
        sheet = str(examples / f"{kind}.toml")
        assert run(capsys, "sheet", "add", sheet, "--campaign", "U", "--name", name)[0] == 0
    new = ["fight", "new", "--campaign", "U", "--with", "Kaito,Corbeau", "--seed", "1"]
    code, _out, err = run(capsys, *new, "--setting", f"x={value}")
    assert reason in _one_line_error(code, err)
    assert run(capsys, *new)[0] == 0
    if value.startswith("["):  # a text key never reads JSON: the value is a name, refused
        code, _out, err = run(capsys, "fight", "act", "1", "Kaito", "attack", f"target={value}")
        err = _one_line_error(code, err)
        assert "unknown target" in err
