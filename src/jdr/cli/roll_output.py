"""A roll's answer on the command line, with or without a sheet (`jdr.cli.actions`,
`jdr.cli.sheet_actions`): the title line, the JSON answer and the journal's lines under it."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from jdr.cli.render import console
from jdr.i18n import current_language
from jdr.labels import action_label
from jdr.markup import escape
from jdr.systems.protocol import Action, RuleSystem, display_name

__all__ = ["journal_footer", "record_json", "title"]


def title(system: RuleSystem, action: Action[Any], post: bool = False) -> Console:
    """Standard output, after the system and action's title line; for a post-ready recap
    (`post`), the title goes to stderr so that piping the answer gives only the recap."""
    out = console()
    title = Console(stderr=True, highlight=False, soft_wrap=True, markup=False) if post else out
    shown = escape(
        f"{display_name(system, current_language())} · {action_label(action)}", "terminal"
    )
    title.print(f"[dim]{shown}[/dim]", markup=True)
    return out


def record_json(
    system: RuleSystem, action: Action[Any], params: Any, record: Any, explanation: str
) -> dict[str, Any]:
    from jdr.answers import record_json as answer

    return answer(system, action, params, record, explanation)


def journal_footer(params: Any, rolled: Any) -> list[str]:
    """The journal's lines under a roll; a post-ready recap's footnote (the journal line joins
    the recap)."""
    from jdr.cli.journal_commands import journal_lines
    from jdr.fights.recap import footnote

    recap = getattr(params, "recap", None)
    fmt = str(getattr(recap, "value", recap)) if recap is not None else "text"
    lines = [footnote(line, fmt) for line in journal_lines(rolled.entry, rolled.replayed)]
    if fmt == "markdown":  # a blank line, or the footnote joins the recap's last item
        lines.insert(0, "")
    return lines
