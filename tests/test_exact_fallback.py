"""Without python-flint, exact odds fall back to the built-in engine, say so in one line, and give
the same answers (a real `jdr` process whose `import flint` fails)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jdr.prob import exact

JDR = Path(sys.executable).with_name("jdr")


def _run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(JDR), *args], capture_output=True, text=True, env=env, timeout=60, check=False
    )


@pytest.fixture
def without_flint(tmp_path: Path) -> dict[str, str]:
    """An environment whose Python finds a `flint` package that refuses to import."""
    broken = tmp_path / "flint"
    broken.mkdir()
    (broken / "__init__.py").write_text('raise ImportError("no FLINT on this machine")\n')
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    env.pop("JDR_LANG", None)
    return env


@pytest.mark.parametrize(
    "args",
    [
        ("dice", "--odds", "4d10>=6f1", "--exact"),
        ("odds", "passion", "action", "--dice", "3d6+1d12", "--talent", "2", "--exact"),
        ("odds", "pokemon", "check", "--dice", "12", "--exact"),
    ],
    ids=lambda args: " ".join(args[:3]),
)
def test_exact_odds_without_flint_say_so_and_answer_the_same(
    without_flint: dict[str, str], args: tuple[str, ...]
) -> None:
    with_flint = _run(*args, "--json", env=dict(os.environ))
    fallback = _run(*args, "--json", env=without_flint)
    assert with_flint.returncode == 0, with_flint.stderr
    assert fallback.returncode == 0, fallback.stderr
    assert with_flint.stderr == ""
    (notice,) = fallback.stderr.splitlines()
    assert notice == (
        "note: python-flint could not be imported (no FLINT on this machine); exact odds use"
        " the slower built-in engine"
    )
    assert json.loads(fallback.stdout) == json.loads(with_flint.stdout)


def test_the_notice_is_in_french_too(without_flint: dict[str, str]) -> None:
    done = _run("dice", "--odds", "2d6", "--exact", "--lang", "fr", env=without_flint)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("remarque\u00a0: python-flint n'a pas pu être importé")


def test_float_odds_never_mention_flint(without_flint: dict[str, str]) -> None:
    done = _run("dice", "--odds", "2d6", env=without_flint)
    assert done.returncode == 0
    assert done.stderr == ""


def test_the_engine_in_process_is_flint_when_it_imports() -> None:
    assert exact.engine() == "flint"
    assert exact.fallback_notice() is None
    with exact.using("python"):
        assert exact.engine() == "python"
    assert exact.engine() == "flint"
