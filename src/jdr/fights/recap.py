"""A generic recap of a fight's events, for any system: one line per event, as BBCode, Markdown or
plain text, in the current language.

>>> print(render_events([{"type": "defended", "actor": "Kaito", "round": 1}], "text", "Fight 1"))
Fight 1
- defended actor=Kaito round=1
>>> print(render_events([], "bbcode", "Fight 1"))
[b]Fight 1[/b]
[list]
[*]No event
[/list]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jdr.i18n import _

__all__ = [
    "FORMATS",
    "check_format",
    "event_line",
    "footnote",
    "render_events",
    "scalar",
    "shown",
]

FORMATS = ("bbcode", "markdown", "text")

Json = dict[str, Any]


def check_format(fmt: str) -> str:
    """`fmt` if it is one of `FORMATS`, else an `UnknownNameError`."""
    if fmt not in FORMATS:
        from jdr.errors import UnknownNameError

        raise UnknownNameError(_("format"), fmt, list(FORMATS))
    return fmt


def scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def shown(value: Any) -> str:
    """A value as one short word: `-` for none, `true`/`false`, a list of scalars joined."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(scalar(v) for v in value):
        return ", ".join(shown(v) for v in value)
    return str(value)


def event_line(event: Json) -> str:
    """`type key=value …` with the event's scalar fields (and lists of scalars)."""
    fields = [
        f"{key}={shown(value)}"
        for key, value in event.items()
        if key != "type"
        and (scalar(value) or (isinstance(value, list) and all(scalar(v) for v in value)))
    ]
    return " ".join([str(event.get("type", "?")), *fields])


def render_events(events: Sequence[Json], fmt: str, title: str) -> str:
    """`title` then one item per event: `[b]…[/b]` and `[list][*]…[/list]` (BBCode), `**…**`
    and `- ` items (Markdown), or the title and `- ` items (text)."""
    items = [event_line(event) for event in events] or [_("No event")]
    if check_format(fmt) == "bbcode":
        return "\n".join([f"[b]{title}[/b]", "[list]", *[f"[*]{i}" for i in items], "[/list]"])
    if fmt == "markdown":
        return "\n".join([f"**{title}**", "", *[f"- {i}" for i in items]])
    return "\n".join([title, *[f"- {i}" for i in items]])


def footnote(text: str, fmt: str) -> str:
    """A small line under a recap (the journal's entry and hash): italic in BBCode and Markdown.

    >>> footnote("journal #2", "bbcode"), footnote("journal #2", "markdown")
    ('[i]journal #2[/i]', '_journal #2_')
    """
    return {"bbcode": "[i]{}[/i]", "markdown": "_{}_"}.get(check_format(fmt), "{}").format(text)
