"""docs/api.md is the code's own: rebuilt from the docstrings and compared, and every public
name of the plug-in API is in it, documented and typed."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_generator() -> ModuleType:
    """`scripts/api_docs.py`, imported by path (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("api_docs", ROOT / "scripts" / "api_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


api_docs = _load_generator()


def test_the_api_page_is_the_one_the_code_gives() -> None:
    expected = api_docs.render()
    assert (ROOT / "docs" / "api.md").read_text(encoding="utf-8") == expected, (
        "docs/api.md is out of date: run python scripts/api_docs.py"
    )


def test_the_check_command_fails_on_a_stale_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = tmp_path / "api.md"
    stale.write_text("# old\n", encoding="utf-8")
    monkeypatch.setattr(api_docs, "PAGE", stale)
    assert api_docs.main(["--check"]) == 1
    api_docs.main([])
    assert api_docs.main(["--check"]) == 0


def test_the_script_runs_on_its_own() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "api_docs.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("module", ["jdr.systems", "jdr.dice", "jdr.prob"])
def test_every_public_name_of_the_plugin_api_is_documented(module: str) -> None:
    documented = {name for _t, m, _w, names in api_docs.SECTIONS if m == module for name in names}
    public = set(importlib.import_module(module).__all__)
    internal = {  # registry plumbing and engine helpers a plug-in does not call
        "jdr.systems": {
            "ENTRY_POINT_GROUP", "Json", "PluginError", "Registry", "default_registry",
            "set_default_registry",
        },
        "jdr.dice": {"Recording", "SystemRandom", "Vector", "make_source", "parse_faces"},
        "jdr.prob": {"Probability"},
    }[module]  # fmt: skip
    assert public - internal <= documented, f"not in docs/api.md: {public - internal - documented}"


def test_every_documented_object_has_a_docstring_and_full_annotations() -> None:
    for _title, module, _what, names in api_docs.SECTIONS:
        for name in names:
            obj = getattr(importlib.import_module(module), name)
            if not callable(obj):
                continue
            assert inspect.getdoc(obj), f"{module}.{name} has no docstring"
            if inspect.isfunction(obj):
                signature = inspect.signature(obj)
                assert signature.return_annotation is not signature.empty, f"{module}.{name}"
                for param in signature.parameters.values():
                    assert param.annotation is not param.empty, f"{module}.{name}({param.name})"
