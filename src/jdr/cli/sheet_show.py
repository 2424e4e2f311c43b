"""`jdr sheet show`: a stored sheet laid out as its game's sheet (`jdr.sheet_view.layout`), in
the reader's language: headed sections, gauges as current/max, moves and techniques as lists
with their costs; golden text at a fixed width in the tests.

>>> from jdr.sheet_view import Entry, Item, Layout, Part
>>> print("\\n".join(sheet_lines(Layout("Pika", (Part("Gauges", (Entry("Vitalité", "9/14", 9, 14),),
...     (Item("Éclair", ("1 Énergie",)),)),)))))
Gauges
  Vitalité  9/14
  • Éclair — 1 Énergie
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.markup import escape

from jdr.cli.render import console
from jdr.i18n import _

if TYPE_CHECKING:
    from jdr.sheet_view import Layout

__all__ = ["print_sheet", "sheet_lines"]


def _headed(shown: Layout) -> list[tuple[str, bool]]:
    """Each line, and whether it is a section's heading."""
    titles = {part.title for part in shown.sections}
    lines = [("", False), *((line, line in titles) for line in sheet_lines(shown))]
    return lines if shown.sections else []


def sheet_lines(shown: Layout) -> list[str]:
    """The sections as plain lines: a heading, then `label  value` aligned, then `• item —
    its parts`."""
    lines: list[str] = []
    for part in shown.sections:
        if lines:
            lines.append("")
        lines.append(part.title)
        width = max((len(entry.label) for entry in part.entries), default=0)
        lines += [f"  {entry.label.ljust(width)}  {entry.text}" for entry in part.entries]
        for item in part.items:
            details = " · ".join(item.details)
            lines.append(f"  • {item.title}" + (f" — {details}" if details else ""))
    return lines


def print_sheet(shown: Layout, heading: str, revision: str) -> None:
    """The sheet on the terminal: its name and campaign, the revision, each section."""
    out = console()
    out.print(f"[bold]{escape(shown.title)}[/bold] — {escape(heading)}", markup=True)
    out.print(revision, markup=False, style="dim")
    for line, part in _headed(shown):
        if part:
            out.print(f"[bold]{escape(line)}[/bold]", markup=True)
        else:
            out.print(line, markup=False)
    if not shown.sections:
        out.print(_("(an empty sheet)"), markup=False)
