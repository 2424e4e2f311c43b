"""Local files (issue 28, part 3): whatever `--output`, `--chart` or `campaign export --force`
names, jdr writes a new file or replaces a regular one — never a device, a named pipe, a socket,
a folder or a symbolic link (nor what a link points to); a failed write says so. `jdr sheet
edit` keeps its file in the private data folder, never reads or writes it through a link, reads
it within the sheet size limit, and an editor that leaves binary data or a folder there gets a
clear message that `--discard` clears.

Every path here is one the test made in its own `tmp_path`: a FIFO (`os.mkfifo`) or a socket
stands for a device such as `/dev/null`, which a test must not touch.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer, run
from jdr.bounded import MAX_SHEET_BYTES

EXAMPLES = Path(__file__).parent.parent / "src" / "jdr" / "systems"
NAME = "Seraphina Quill"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


@pytest.fixture
def wizard(capsys: pytest.CaptureFixture[str], db: str) -> str:
    """Campaign `C` (Ilvermorny) holding the example wizard, Seraphina Quill."""
    assert run(capsys, "campaign", "new", "C", "--system", "ilvermorny", "--db", db)[0] == 0
    sheet = EXAMPLES / "ilvermorny" / "examples" / "wizard.toml"
    code, _out, err = run(capsys, "sheet", "add", str(sheet), "--campaign", "C", "--db", db)
    assert code == 0, err
    return db


def _one_line_error(code: int, err: str) -> str:
    assert code == 2, err
    assert "Traceback" not in err
    assert err.startswith("jdr: error: ") and err.count("\n") == 1, err
    return err


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.fixture
def unix_socket(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
    except OSError as error:  # a path too long for AF_UNIX on this machine
        server.close()
        pytest.skip(f"no socket file here: {error}")
    try:
        yield path
    finally:
        server.close()


def _exports(db: str, target: Path) -> list[list[str]]:
    """Every command that writes a file the user names, aimed at `target`."""
    return [
        ["journal", "export", "C", "--output", str(target), "--db", db],
        ["sheet", "export", NAME, "--campaign", "C", "--output", str(target), "--db", db],
        ["sheet", "example", "passion", "--output", str(target)],
        ["campaign", "export", "C", str(target), "--force", "--db", db],
    ]


def test_output_and_export_refuse_a_named_pipe_and_leave_it_a_pipe(
    capsys: pytest.CaptureFixture[str], wizard: str, fifo: Path, tmp_path: Path
) -> None:
    for command in _exports(wizard, fifo):
        err = _one_line_error(*run(capsys, *command)[::2])
        assert "a named pipe, not a regular file" in err, command
        assert "(allowed: a new file, or a regular file to replace)" in err
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode), command
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    code, _out, err = run(capsys, *_exports(wizard, fifo)[0], "--lang", "fr")
    assert code == 2 and "un tube nommé, pas un fichier ordinaire" in err


def test_output_and_export_refuse_a_socket(
    capsys: pytest.CaptureFixture[str], wizard: str, unix_socket: Path
) -> None:
    for command in _exports(wizard, unix_socket):
        err = _one_line_error(*run(capsys, *command)[::2])
        assert "a socket, not a regular file" in err, command
        assert stat.S_ISSOCK(os.lstat(unix_socket).st_mode)


def test_output_and_export_refuse_a_symlink_and_never_write_its_target(
    capsys: pytest.CaptureFixture[str], wizard: str, tmp_path: Path
) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "out.json"
    link.symlink_to(target)
    for command in _exports(wizard, link):
        err = _one_line_error(*run(capsys, *command)[::2])
        assert "a symbolic link, not a regular file" in err, command
        assert link.is_symlink() and target.read_text() == "keep me"


def test_output_and_export_replace_a_regular_file(
    capsys: pytest.CaptureFixture[str], wizard: str, tmp_path: Path
) -> None:
    target = tmp_path / "out.txt"
    for command in _exports(wizard, target):
        target.write_text("old")
        code, _out, err = run(capsys, *command)
        assert code == 0, err
        assert target.read_text() != "old" and not target.is_symlink()


def test_chart_that_cannot_be_written_says_so(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    _plus_ultra(capsys, db)
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    code, _out, err = _simulate(capsys, db, "--chart", str(blocker / "out.png"))
    assert "--chart" in _one_line_error(code, err) and "Not a directory" in err


def test_chart_refuses_a_pipe_and_an_unknown_format_before_any_fight(
    capsys: pytest.CaptureFixture[str], db: str, fifo: Path, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    _plus_ultra(capsys, db)
    code, _out, err = _simulate(capsys, db, "--chart", str(fifo))
    assert "a named pipe, not a regular file" in _one_line_error(code, err)
    code, _out, err = _simulate(capsys, db, "--chart", str(tmp_path / "chart.doc"))
    assert "not an image format jdr draws (allowed: " in _one_line_error(code, err)
    assert "png" in err and "svg" in err


def test_chart_on_a_full_disk_says_so_and_leaves_nothing(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that fails as on `/dev/full` (ENOSPC when the file is flushed to disk)."""
    pytest.importorskip("matplotlib")
    _plus_ultra(capsys, db)

    def full(_handle: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    chart = tmp_path / "chart.png"
    code, _out, err = _simulate(capsys, db, "--chart", str(chart))
    assert "No space left on device" in _one_line_error(code, err) and "--chart" in err
    assert not chart.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_chart_writes_an_svg_by_its_extension_and_keeps_a_replaced_files_mode(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    _plus_ultra(capsys, db)
    chart = tmp_path / "chart.svg"
    chart.write_text("old")
    chart.chmod(0o644)
    code, _out, err = _simulate(capsys, db, "--chart", str(chart))
    assert code == 0, err
    assert chart.read_text().startswith("<?xml") and stat.S_IMODE(chart.stat().st_mode) == 0o644


def _plus_ultra(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert run(capsys, "campaign", "new", "U", "--system", "plus-ultra", "--db", db)[0] == 0
    for kind, name in (("hero", "Kaito"), ("villain", "Corbeau")):
        sheet = EXAMPLES / "plus_ultra" / "examples" / f"{kind}.toml"
        code, _out, err = run(
            capsys, "sheet", "add", str(sheet), "--campaign", "U", "--name", name, "--db", db
        )
        assert code == 0, err


def _simulate(capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> tuple[int, str, str]:
    args = ["simulate", "plus-ultra", "--campaign", "U", "--with", "Kaito", "--against", "Corbeau"]
    return run(capsys, *args, "--runs", "20", "--workers", "1", *extra, "--db", db)


# --- sheet edit -------------------------------------------------------------------------------

EDITOR = """\
import os, shutil, sys
path = sys.argv[1]
what = os.environ["JDR_TEST_EDITOR"]
if what == "append":
    with open(path, "ab") as file:
        file.write(bytes.fromhex(os.environ["JDR_TEST_BYTES"]) * int(os.environ["JDR_TEST_TIMES"]))
elif what == "write":
    with open(path, "wb") as file:
        file.write(bytes.fromhex(os.environ["JDR_TEST_BYTES"]))
elif what == "folder":
    os.unlink(path)
    os.mkdir(path)
    open(os.path.join(path, "inside.toml"), "w").close()
elif what == "link":
    os.unlink(path)
    os.symlink(os.environ["JDR_TEST_TARGET"], path)
elif what == "magic":
    text = open(path, encoding="utf-8").read().replace("magic = 7", "magic = 8")
    open(path, "w", encoding="utf-8").write(text)
"""


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """$EDITOR as a real process: `editor(what, data, times)` sets what it does to the file
    (`append` writes `data` `times` over at its end)."""
    script = tmp_path / "editor.py"
    script.write_text(EDITOR, encoding="utf-8")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))

    def set_editor(
        what: str, data: bytes = b"", times: int = 1, target: Path | None = None
    ) -> None:
        monkeypatch.setenv("JDR_TEST_EDITOR", what)
        monkeypatch.setenv("JDR_TEST_BYTES", data.hex())
        monkeypatch.setenv("JDR_TEST_TIMES", str(times))
        monkeypatch.setenv("JDR_TEST_TARGET", str(target or tmp_path / "nowhere"))

    return set_editor


def _edit(capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> tuple[int, str, str]:
    return run(capsys, "sheet", "edit", NAME, "--campaign", "C", *extra, "--db", db)


def _kept(tmp_path: Path) -> Path:
    return tmp_path / "data" / "jdr" / "edits" / "C-Seraphina_Quill.toml"


def test_edit_file_lives_in_the_private_data_folder(
    capsys: pytest.CaptureFixture[str], wizard: str, editor: Any, tmp_path: Path
) -> None:
    editor("append", b"year = 'x'\n")  # refused by the rules: the edit is kept
    old = os.umask(0)  # whatever the umask: the folders and the file are their owner's only
    try:
        code, _out, err = _edit(capsys, wizard)
    finally:
        os.umask(old)
    assert code == 2 and f"your edit is kept in {_kept(tmp_path)}" in err
    assert stat.S_IMODE(os.stat(_kept(tmp_path).parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(_kept(tmp_path).parent.parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(_kept(tmp_path)).st_mode) == 0o600


@pytest.mark.parametrize(
    ("data", "times", "reason"),
    [
        (b"\xff\xfe\x00binary", 1, "not UTF-8 text (allowed: UTF-8 text)"),
        (b"notes = 1\x00\n", 1, "a NUL character (binary data) (allowed: UTF-8 text)"),
        (b"# 100 MB in the real audit\n", MAX_SHEET_BYTES // 16, "larger than 256 KiB"),
    ],
    ids=["undecodable", "nul", "too-large"],
)
def test_edit_with_binary_or_too_large_content_is_kept_for_another_try(
    capsys: pytest.CaptureFixture[str],
    wizard: str,
    editor: Any,
    tmp_path: Path,
    data: bytes,
    times: int,
    reason: str,
) -> None:
    editor("append", data, times)
    code, _out, err = _edit(capsys, wizard)
    assert code == 2 and "Traceback" not in err
    first, second = err.splitlines()
    assert first.startswith(f"jdr: error: edit file: C-Seraphina_Quill.toml — {reason}")
    assert second.startswith(f"your edit is kept in {_kept(tmp_path)}")
    assert _kept(tmp_path).read_bytes().endswith(data * times)  # nothing typed is lost
    code, _out, err = _edit(capsys, wizard, "--lang", "fr")
    assert code == 2 and "votre modification est gardée" in err
    editor("magic")
    code, out, err = _edit(capsys, wizard, "--discard")
    assert code == 0 and "Stats › Magic 7 → 8" in out, err


def test_edit_left_as_a_folder_is_refused_and_discard_removes_it(
    capsys: pytest.CaptureFixture[str], wizard: str, editor: Any, tmp_path: Path
) -> None:
    editor("folder")
    code, _out, err = _edit(capsys, wizard)
    first, second = err.splitlines()
    assert code == 2 and "a folder, not a regular file" in first
    discard = f"`jdr sheet edit '{NAME}' --campaign C --discard`"
    assert second == f"{discard} removes {_kept(tmp_path)} and starts again"
    code, _out, err = _edit(capsys, wizard)  # not opened again: still a clear message
    assert code == 2 and "a folder, not a regular file" in err and _kept(tmp_path).is_dir()
    editor("magic")
    done = answer(capsys, "sheet", "edit", NAME, "--campaign", "C", "--discard", "--db", wizard)
    assert done["changes"] == [{"field": "stats.magic", "before": 7, "after": 8}]
    assert not os.path.lexists(_kept(tmp_path))


def test_edit_never_follows_a_link_at_its_path(
    capsys: pytest.CaptureFixture[str], wizard: str, editor: Any, tmp_path: Path
) -> None:
    target = tmp_path / "precious.toml"
    target.write_text("keep me\n")
    kept = _kept(tmp_path)
    kept.parent.mkdir(parents=True)
    kept.symlink_to(target)
    editor("magic")
    code, _out, err = _edit(capsys, wizard)  # a link planted where the edit is kept
    assert code == 2 and "a symbolic link, not a regular file" in err and "--discard" in err
    assert target.read_text() == "keep me\n" and kept.is_symlink()
    code, out, err = _edit(capsys, wizard, "--discard")  # the link goes, never its target
    assert code == 0 and "Stats › Magic 7 → 8" in out, err
    assert target.read_text() == "keep me\n" and not os.path.lexists(kept)
    editor("link", target=target)  # an editor that leaves a link: its target is never read
    code, _out, err = _edit(capsys, wizard)
    assert code == 2 and "a symbolic link, not a regular file" in err
    assert target.read_text() == "keep me\n"


def test_edit_refuses_a_pipe_at_its_path_without_waiting(
    capsys: pytest.CaptureFixture[str], wizard: str, editor: Any, tmp_path: Path
) -> None:
    kept = _kept(tmp_path)
    kept.parent.mkdir(parents=True)
    os.mkfifo(kept)
    editor("magic")
    code, _out, err = _edit(capsys, wizard)
    assert code == 2 and "a named pipe, not a regular file" in err
    code, out, err = _edit(capsys, wizard, "--discard")
    assert code == 0 and "Stats › Magic 7 → 8" in out, err


def test_edit_refuses_a_linked_edits_folder(
    capsys: pytest.CaptureFixture[str], wizard: str, editor: Any, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = _kept(tmp_path).parent
    folder.parent.mkdir(parents=True)
    folder.symlink_to(elsewhere)
    editor("magic")
    code, _out, err = _edit(capsys, wizard, "--discard")
    assert "a symbolic link, not a folder" in _one_line_error(code, err)
    assert list(elsewhere.iterdir()) == []


def test_edit_left_as_one_word_is_text_never_a_file_name(
    capsys: pytest.CaptureFixture[str], wizard: str, editor: Any, tmp_path: Path
) -> None:
    """An editor that leaves `/some/sheet.toml` alone on one line: that is TOML to read (and
    refuse), never the name of a file to read instead of the edit."""
    other = tmp_path / "other.toml"
    wizard_text = (EXAMPLES / "ilvermorny" / "examples" / "wizard.toml").read_text()
    other.write_text(wizard_text.replace("magic = 7", "magic = 9"), encoding="utf-8")
    editor("write", str(other).encode())
    code, _out, err = _edit(capsys, wizard)
    assert code == 2 and "your edit is kept in" in err and "other.toml" not in err.splitlines()[0]
    shown = answer(capsys, "sheet", "show", NAME, "--campaign", "C", "--db", wizard)
    assert shown["character"]["sheet"]["stats"]["magic"] == 7


def test_edit_json_error_names_the_kept_file(
    capsys: pytest.CaptureFixture[str], wizard: str, editor: Any, tmp_path: Path
) -> None:
    editor("append", b"\xff")
    code, out, _err = _edit(capsys, wizard, "--json")
    error = json.loads(out)["error"]
    assert code == 2 and error["kept"] == str(_kept(tmp_path))
    assert "not UTF-8 text" in error["message"]
