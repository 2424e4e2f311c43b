"""The dice notation's parser is cached in the user's own cache folder (start-up, issue 17):
private files, and a damaged or unwritable cache never stops a roll nor prints anything."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import platformdirs
import pytest

from jdr.dice import Seeded, notation

parse_module = sys.modules["jdr.dice.notation.parse"]


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "cache" / "jdr"
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: str(folder))
    parse_module._parser.cache_clear()
    yield folder
    parse_module._parser.cache_clear()


def _roll() -> str:
    return notation.roll(notation.parse("2d6+3"), Seeded(5)).explain()


def test_the_parser_cache_is_private(cache_folder: Path) -> None:
    old = os.umask(0)
    try:
        expected = _roll()
    finally:
        os.umask(old)
    (cached,) = list(cache_folder.iterdir())
    assert cached.name.startswith("notation-") and cached.stat().st_size > 0
    assert cache_folder.stat().st_mode & 0o077 == 0
    assert cached.stat().st_mode & 0o077 == 0
    parse_module._parser.cache_clear()  # the next command loads it: the same rolls
    assert _roll() == expected


def test_a_damaged_cache_is_rebuilt_silently(
    cache_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = _roll()
    (cached,) = list(cache_folder.iterdir())
    cached.write_bytes(b"not a parser")
    parse_module._parser.cache_clear()
    assert _roll() == expected
    assert capsys.readouterr().err == ""


def test_a_cache_folder_not_the_users_own_is_left_alone(cache_folder: Path) -> None:
    """A folder another user owns (root: one given to `nobody`), or one the user cannot write:
    no parser is loaded from it or written to it."""
    cache_folder.mkdir(parents=True)
    if os.geteuid() == 0:
        os.chown(cache_folder, 65534, 65534)
    else:
        cache_folder.chmod(0o500)
    try:
        assert parse_module._cache_file("grammar") is None
        assert _roll()
        assert list(cache_folder.iterdir()) == []
    finally:
        if os.geteuid() == 0:
            os.chown(cache_folder, 0, 0)
        cache_folder.chmod(0o700)


def test_a_cache_folder_that_cannot_be_made_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *a, **k: str(blocker / "jdr"))
    assert parse_module._cache_file("grammar") is None
