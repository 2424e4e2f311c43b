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
"""

from __future__ import annotations

import html
import re

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
