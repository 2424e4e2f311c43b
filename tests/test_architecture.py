"""The house in layers (docs/architecture.md): import-linter's contracts hold, no module of jdr
imports itself back through others, and the front ends stay thin.

The contracts live in pyproject.toml (`[tool.importlinter]`); `lint-imports` reads every import,
deferred ones (inside a function) and TYPE_CHECKING ones included.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "jdr"
MAX_CLI_LINES = 400
MAX_STORE_LINES = 400


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("jdr", cache_dir=None)


def _layers() -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    return [
        [name.strip() for name in layer.replace("|", ":").split(":")]
        for layer in contract["layers"]
    ]


def _layer_of(module: str, layers: list[list[str]]) -> int | None:
    """The index of the layer holding `module` (0 is the top), None if no layer names it."""
    for index, names in enumerate(layers):
        if any(module == name or module.startswith(name + ".") for name in names):
            return index
    return None


def test_import_linter_contracts_are_kept(tmp_path: Path) -> None:
    """`lint-imports` passes: the layers, the five systems' independence, the core's and the
    services' forbidden imports."""
    command = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"
    config = str(ROOT / "pyproject.toml")
    paths = [str(SOURCE.parent), os.environ.get("PYTHONPATH", "")]  # this checkout's jdr
    done = subprocess.run(
        [sys.executable, "-c", command, "--config", config, "--no-cache"],
        check=False,
        capture_output=True,
        text=True,
        cwd=tmp_path,  # nothing is written with --no-cache; were it, never in the checkout
        env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)},
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert ", 0 broken." in done.stdout


def _cycles(graph: grimp.ImportGraph) -> Iterator[list[str]]:
    """Each strongly connected group of two or more modules (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            advanced = False
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    imported = sorted(graph.find_modules_directly_imported_by(target))
                    work.append((target, iter(imported)))
                    advanced = True
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    yield sorted(group)


def test_no_module_imports_itself_back(graph: grimp.ImportGraph) -> None:
    """No import circle among jdr's modules, deferred imports included."""
    assert list(_cycles(graph)) == []


def test_cycle_finder_finds_a_circle() -> None:
    """The cycle check can fail: a graph with a circle is reported."""
    made = grimp.ImportGraph()
    for module in ("a", "a.b", "a.c", "a.d"):
        made.add_module(module)
    made.add_import(importer="a.b", imported="a.c")
    made.add_import(importer="a.c", imported="a.b")
    made.add_import(importer="a.d", imported="a.b")
    assert list(_cycles(made)) == [["a.b", "a.c"]]


def test_every_module_has_a_layer(graph: grimp.ImportGraph) -> None:
    """Every module sits in a layer of the contract, but the package __init__ modules of
    packages whose modules sit in several layers (import-linter's layers cannot contain one
    another); such an __init__ only imports below every module that imports it."""
    layers = _layers()
    unplaced = sorted(m for m in graph.modules if _layer_of(m, layers) is None)
    packages = [
        "jdr.characters",
        "jdr.discord",
        "jdr.fights",
        "jdr.journal",
        "jdr.live",
        "jdr.systems",
    ]
    assert unplaced == ["jdr", *packages]
    for package in unplaced[1:]:
        imported = graph.find_modules_directly_imported_by(package)
        highest = min((_layer_of(m, layers) or 0 for m in imported), default=len(layers))
        for importer in graph.find_modules_that_directly_import(package):
            at = _layer_of(importer, layers)
            assert at is not None and at <= highest, (importer, package)


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_cli_only_translates() -> None:
    """No file of the command line over 400 lines: parsing and rendering, the logic below."""
    long = {p.name: _lines(p) for p in (SOURCE / "cli").glob("*.py") if _lines(p) > MAX_CLI_LINES}
    assert long == {}


def test_the_store_is_split_by_what_it_stores() -> None:
    """store/ keeps campaigns, characters, fights and the journal in modules of their own."""
    long = {
        p.name: _lines(p) for p in (SOURCE / "store").glob("*.py") if _lines(p) > MAX_STORE_LINES
    }
    assert long == {}
