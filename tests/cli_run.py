"""Running the real command line in a test: `jdr.cli.app.main`, with what it printed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from jdr.cli.app import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`jdr ARGS`: the exit code, stdout and stderr (errors are one line and exit 2)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    """`jdr ARGS --json`: the exit code and the one JSON object on stdout."""
    code, out, _err = run(capsys, *args, "--json")
    assert out.count("\n") == 1, "exactly one JSON object on stdout"
    return code, json.loads(out)


def answer(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    """`jdr ARGS --json` that must succeed: its JSON object."""
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    assert out.count("\n") == 1, "exactly one JSON object on stdout"
    payload: dict[str, Any] = json.loads(out)
    return payload
