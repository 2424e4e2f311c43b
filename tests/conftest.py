"""Shared fixtures: the example plug-in, registered the way an installed package registers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from jdr.i18n import set_language
from jdr.systems import Registry, set_default_registry

TESTS = Path(__file__).parent


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
