"""Shared fixtures: the example plug-in, registered the way an installed package registers, and
a fresh database (SQLite always, PostgreSQL too when `JDR_TEST_DATABASE_URL` is set)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from jdr.i18n import set_language
from jdr.store import Store, open_store
from jdr.systems import Registry, set_default_registry

TESTS = Path(__file__).parent
PG_URL = os.environ.get("JDR_TEST_DATABASE_URL")
needs_pg = pytest.mark.skipif(not PG_URL, reason="JDR_TEST_DATABASE_URL is not set")


class pg_schema:  # noqa: N801 - used as a context manager, like a function
    """A PostgreSQL schema of its own, dropped on exit: its URL sets the search path."""

    def __enter__(self) -> str:
        assert PG_URL
        self.name = f"jdr_test_{uuid.uuid4().hex[:12]}"
        self.engine = create_engine(PG_URL)
        with self.engine.begin() as conn:
            conn.execute(text(f"CREATE SCHEMA {self.name}"))
        sep = "&" if "?" in PG_URL else "?"
        return f"{PG_URL}{sep}options=-csearch_path%3D{self.name}"

    def __exit__(self, *_: object) -> None:
        with self.engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {self.name} CASCADE"))
        self.engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=needs_pg)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a throw-away PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'jdr.db'}"
    else:
        with pg_schema() as url:
            yield url


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    """The store on `database_url`, closed after the test."""
    opened = open_store(database_url)
    yield opened
    opened.close()


def write_plugin(folder: Path, entry: str = "example = example_system:SYSTEM") -> Path:
    """An installed distribution's metadata declaring `entry` in the `jdr.systems` group."""
    info = folder / "jdr_example_plugin-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: jdr-example-plugin\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(f"[jdr.systems]\n{entry}\n", encoding="utf-8")
    return folder


@pytest.fixture(autouse=True)
def _english_and_fresh_registry() -> Iterator[None]:
    """Every test starts in English with the registry rebuilt from entry points."""
    set_language("en")
    set_default_registry(None)
    yield
    set_language("en")
    set_default_registry(None)


@pytest.fixture
def installed_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The example system installed as a plug-in: found through its entry point, nothing else."""
    monkeypatch.syspath_prepend(str(write_plugin(tmp_path / "site")))
    registry = Registry.from_entry_points()
    set_default_registry(registry)
    return registry


def installed(system_id: str) -> Registry:
    """The registry of the installed systems, made the default, checked to hold `system_id`."""
    registry = Registry.from_entry_points()
    assert system_id in registry.ids()
    set_default_registry(registry)
    return registry


@pytest.fixture
def pokemon_cli() -> Registry:
    """The `pokemon` system as installed: found through its `jdr.systems` entry point."""
    return installed("pokemon")


@pytest.fixture
def plus_ultra_actions() -> Registry:
    """The `plus-ultra` system as installed: found through its `jdr.systems` entry point."""
    return installed("plus-ultra")


@pytest.fixture
def poledemos_actions() -> Registry:
    """The `poledemos` system as installed: found through its `jdr.systems` entry point."""
    return installed("poledemos")


@pytest.fixture
def passion_actions() -> Registry:
    """The `passion` system as installed: found through its `jdr.systems` entry point."""
    return installed("passion")
