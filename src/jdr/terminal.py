"""Standard output for a command line: the Rich console and one JSON object a line.

The CLI (`jdr.cli.render`) and a rule system's own commands (`System(extra_commands=…)`) print
through these, so a system never imports the CLI.

>>> emit_json({"move_type": "feu", "multiplier": 2})
{"move_type": "feu", "multiplier": 2}
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from typing import Any

from rich.console import Console

__all__ = ["console", "emit_json"]


class _Console(Console):
    """Rich's console, leaving a closed pipe to `jdr.cli.app.main` (one line, exit 1) instead
    of exiting silently from inside a print."""

    def on_broken_pipe(self) -> None:
        import errno

        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def console() -> Console:
    """Standard output as Rich sees it (no colour when piped; width from the terminal).

    Nothing printed is read as Rich markup unless the call says `markup=True` (and escapes the
    user's text in it, `jdr.markup`): a name like `[/bold]` in a table cell is text, and
    `:smile:` is not turned into an emoji."""
    return _Console(highlight=False, soft_wrap=True, markup=False, emoji=False)


def emit_json(payload: Mapping[str, Any]) -> None:
    """`payload` as one line of JSON on standard output (non-ASCII letters kept as they are)."""
    sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
