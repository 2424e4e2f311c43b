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

import re
from collections.abc import Sequence
from typing import Any

from jdr.i18n import _

__all__ = [
    "FORMATS",
    "check_format",
    "event_line",
    "footnote",
    "in_format",
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


_MARKDOWN = re.compile(r"(~~|\*\*)(.+?)\1")


def in_format(text: str, fmt: str) -> str:
    """`text` written for `fmt`: a roll's explanation strikes a dropped die with Markdown's
    `~~…~~` (and may bold with `**…**`); BBCode gets `[s]…[/s]` and `[b]…[/b]` instead, so a
    forum post never shows Markdown marks. Markdown and text keep them.

    >>> in_format("4d6kh3 (5, 3, ~~1~~, 6) = 14", "bbcode")
    '4d6kh3 (5, 3, [s]1[/s], 6) = 14'
    >>> in_format("**Kaito** rolls ~~2~~", "bbcode")
    '[b]Kaito[/b] rolls [s]2[/s]'
    """
    if check_format(fmt) != "bbcode":
        return text
    tags = {"~~": "s", "**": "b"}
    return _MARKDOWN.sub(lambda m: f"[{tags[m[1]]}]{m[2]}[/{tags[m[1]]}]", text)


def render_events(events: Sequence[Json], fmt: str, title: str) -> str:
    """`title` then one item per event: `[b]…[/b]` and `[list][*]…[/list]` (BBCode), `**…**`
    and `- ` items (Markdown), or the title and `- ` items (text)."""
    items = [in_format(event_line(event), fmt) for event in events] or [_("No event")]
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
    wrapper = {"bbcode": "[i]{}[/i]", "markdown": "_{}_"}.get(check_format(fmt), "{}")
    return wrapper.format(in_format(text, fmt))
