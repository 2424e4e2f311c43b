"""The project's habits are tests too: ruff and mypy clean, so the README's one test command
(and .ci/run, which runs it) fails on any lint or type error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
BIN = Path(sys.executable).parent


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "."],
        ["ruff", "format", "--check", "."],
        ["mypy"],
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_tool_is_clean(command: list[str]) -> None:
    done = subprocess.run(
        [str(BIN / command[0]), *command[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def _markdown_files() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
        ROOT / "benchmarks/README.md",
    ]


def test_docs_link_only_to_files_inside_the_repository() -> None:
    """Every relative link of the README and docs names a file of the repository; none leaves it
    (`../shared` is not shipped)."""
    import re

    for page in _markdown_files():
        text = page.read_text(encoding="utf-8")
        assert "../shared" not in text, page.name
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" in target or target.startswith("mailto:"):
                continue
            found = (page.parent / target).resolve()
            assert found.is_relative_to(ROOT) and found.exists(), (page.name, target)


def test_readme_names_every_runtime_dependency() -> None:
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Dependencies", 1)[1]
    for requirement in project["dependencies"]:
        name = re.split(r"[\[<>=~! ]", requirement, maxsplit=1)[0]
        assert name.lower() in section.lower(), name
