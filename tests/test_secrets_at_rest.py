"""The database holds the open seed and the hidden rolls: readable by its owner only (issue 14,
item 4), whatever the umask; one others can read gets a warning with the fix."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_run import run
from jdr.store import engine


@pytest.fixture
def open_umask() -> Iterator[None]:
    previous = os.umask(0)  # the most permissive umask: jdr must not rely on it
    try:
        yield
    finally:
        os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_embedded_database_and_its_folder_are_private_whatever_the_umask(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    open_umask: None,
) -> None:
    data = tmp_path / "data" / "jdr"
    monkeypatch.setattr(engine, "default_file", lambda: data / "jdr.db")
    monkeypatch.delenv("JDR_DATABASE_URL", raising=False)
    code, _out, err = run(capsys, "campaign", "new", "Table", "--system", "passion")
    assert code == 0, err
    assert _mode(data) == 0o700
    assert _mode(data / "jdr.db") == 0o600
    code, _out, err = run(capsys, "dice", "2d6", "--campaign", "Table", "--hidden")
    assert code == 0, err
    for created in data.iterdir():  # the -wal, -shm and .lock files too
        assert _mode(created) & 0o077 == 0, created
    assert "warning" not in err


def test_a_database_named_by_url_is_created_private(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, open_umask: None
) -> None:
    db = tmp_path / "table.db"
    code, _out, err = run(
        capsys, "campaign", "new", "T", "--system", "passion", "--db", f"sqlite:///{db}"
    )
    assert code == 0, err
    assert _mode(db) == 0o600


def test_a_database_others_can_read_gets_a_warning_with_the_fix(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "old.db"
    url = f"sqlite:///{db}"
    assert run(capsys, "campaign", "new", "T", "--system", "passion", "--db", url)[0] == 0
    db.chmod(0o644)
    code, out, err = run(capsys, "campaign", "list", "--db", url)
    assert code == 0 and "T" in out
    assert err.startswith("jdr: warning: ") and f"chmod 600 {db}" in err
    db.chmod(0o600)
    code, _out, err = run(capsys, "campaign", "list", "--db", url)
    assert err == ""
