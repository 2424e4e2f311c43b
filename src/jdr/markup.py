"""User text shown in a medium with markup of its own: the one place that escapes it.

A campaign, a character or an actor is named by a player; a name is text, never markup. Each
renderer escapes the names and free text it shows for its medium:

>>> escape("[red]Kaito[/red]", "terminal")
'\\\\[red]Kaito\\\\[/red]'
>>> escape("**Kaito** <b>", "markdown")
'\\\\*\\\\*Kaito\\\\*\\\\* \\\\<b\\\\>'
>>> escape("<img src=x onerror=alert(1)>", "html")
'&lt;img src=x onerror=alert(1)&gt;'
>>> escape("[b]Kaito[/b]", "bbcode") == "[\\u200bb]Kaito[\\u200b/b]"
True
>>> escape("Maître Corbeau", "text")
'Maître Corbeau'

BBCode has no escape character: a zero-width space after each `[` keeps a tag from being read as
one while the text looks the same. `text` is plain text: nothing to escape.

A recap's `FORMATS` are checked here too, and `in_format` writes a roll's explanation's marks for
one of them (`jdr.fights.recap` and a system's own recap use it).
"""

from __future__ import annotations

import html
import re

from jdr.errors import UnknownNameError
from jdr.i18n import _

MEDIA = ("terminal", "bbcode", "markdown", "html", "text")

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_~\[\]<>|])")


def escape(text: str, medium: str) -> str:
    """`text` written so that `medium` shows it as it is (see the module's docstring)."""
    if medium == "terminal":
        from rich.markup import escape as rich_escape

        return rich_escape(text)
    if medium == "bbcode":
        return text.replace("[", "[\u200b")
    if medium == "markdown":
        return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    if medium == "html":
        return html.escape(text, quote=True)
    if medium == "text":
        return text
    raise ValueError(f"unknown medium {medium!r} (known: {', '.join(MEDIA)})")


FORMATS = ("bbcode", "markdown", "text")
"""The formats a recap or a roll's explanation is written in (`jdr.fights.recap`)."""


def check_format(fmt: str) -> str:
    """`fmt` if it is one of `FORMATS`, else an `UnknownNameError`."""
    if fmt not in FORMATS:
        raise UnknownNameError(_("format"), fmt, list(FORMATS))
    return fmt


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
