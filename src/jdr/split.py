"""A text cut into messages that fit a medium's limit: Discord refuses a message over 2,000
characters, a forum board may refuse a post over its own.

`pack` is the whole rule, for any text made of units (a recap's actions, an announcement's
lines): as few messages as fit, each unit whole in one message (never a unit cut), the units in
their order, the tail (what `last` renders: where the fight stands, the journal line) on the
last message only, each message rendered by the caller (`render(units, number, count, last)`,
which writes its own title with `marker(number, count)`, " (1/3)", when there is more than one).
A unit too long for any message is cut first by `cut`, between its sentences if it can.
`lines` does it for a text of plain lines (a title, lines, a tail).

>>> said = lines("**Fight 1**", ["- " + "a" * 98] * 3, ["_journal #1 3fa9c2d1e0_"], 300)
>>> [len(text) for text in said], said[0].splitlines()[0], said[-1].splitlines()[-1]
([219, 142], '**Fight 1 (1/2)**', '_journal #1 3fa9c2d1e0_')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from jdr.errors import InputError
from jdr.i18n import _

__all__ = ["DISCORD", "SMALLEST", "check_limit", "cut", "lines", "marker", "numbered", "pack"]

DISCORD = 2000
"""Discord's limit: it refuses a message of more characters."""
SMALLEST = 500
"""The smallest limit a recap is cut for: a title, where the fight stands and the journal line
must fit in one message beside an action."""

Unit = TypeVar("Unit")
Render = Callable[[Sequence[Unit], int, int, bool], str]


def check_limit(limit: int | None, option: str = "--max-chars") -> int | None:
    """`limit` if it is None (no limit) or at least `SMALLEST`, else an `InputError`."""
    if limit is not None and limit < SMALLEST:
        raise InputError(option, limit, _("{smallest} or more").format(smallest=SMALLEST))
    return limit


def marker(number: int, count: int) -> str:
    """` (1/3)` on a title when a text takes more than one message, else nothing."""
    return f" ({number}/{count})" if count > 1 else ""


_CLOSING = re.compile(r"(\[/b\]|\*\*|\*)?$")


def numbered(title: str, number: int, count: int) -> str:
    """A title line with its `marker`, inside its bold markup (`[b]…[/b]`, `**…**`, `*…*`).

    >>> numbered("**Fight 1**", 2, 3), numbered("[b]Kai[/b]", 1, 2), numbered("Fight", 1, 1)
    ('**Fight 1 (2/3)**', '[b]Kai (1/2)[/b]', 'Fight')
    """
    found = _CLOSING.search(title)
    at = found.start() if found is not None else len(title)
    return title[:at] + marker(number, count) + title[at:]


def pack(units: Sequence[Unit], render: Render[Unit], limit: int | None) -> list[str]:
    """`units` in as few messages as fit in `limit` characters each (all in one without a
    limit): each message is `render(its units, its number, the count, whether it is the last)`,
    filled with units in order while it fits; the tail that does not fit beside the last
    units goes in one more message; the last message then takes units from the one before
    while it stays no longer than it (the state beside where the fight stands). A unit longer
    than a message on its own gets a message of its own (cut it first: `cut`)."""
    whole = render(units, 1, 1, True)
    if limit is None or len(whole) <= limit:
        return [whole]
    count = 2
    while True:  # the marker's width depends on the count: plan with one at least as wide
        chunks = _greedy(units, render, limit, count)
        if len(chunks) <= count:
            break
        count = len(chunks)
    total = len(chunks)
    return [render(chunk, n + 1, total, n + 1 == total) for n, chunk in enumerate(chunks)]


def _greedy(
    units: Sequence[Unit], render: Render[Unit], limit: int, count: int
) -> list[list[Unit]]:
    chunks: list[list[Unit]] = []
    current: list[Unit] = []
    for unit in units:
        candidate = [*current, unit]
        if not current or len(render(candidate, len(chunks) + 1, count, False)) <= limit:
            current = candidate
        else:
            chunks.append(current)
            current = [unit]
    chunks.append(current)
    if current and len(render(current, len(chunks), count, True)) > limit:
        chunks.append([])  # the tail in one more message
    if len(chunks) > 1:  # the last two about as long: the state beside where the fight stands
        before, last, number = chunks[-2], chunks[-1], len(chunks)
        while len(before) > 1:
            moved = render([before[-1], *last], number, count, True)
            kept = render(before[:-1], number - 1, count, False)
            if len(moved) > limit or len(moved) > len(kept):
                break
            last.insert(0, before.pop())
    return chunks


_SENTENCE = re.compile(r"(?<=[.!?…:;)])\s+")


def cut(line: str, room: int) -> list[str]:
    """`line` in pieces of at most `room` characters: after a sentence if one ends in time,
    else at a space, else (one word longer than `room`) anywhere.

    >>> cut("One two. Three four five. Six.", 18)
    ['One two.', 'Three four five.', 'Six.']
    >>> cut("abcdef", 4)
    ['abcd', 'ef']
    """
    room = max(room, 1)
    pieces: list[str] = []
    rest = line
    while len(rest) > room:
        head = rest[: room + 1]
        ends = [m.start() for m in _SENTENCE.finditer(head)] or [
            m.start() for m in re.finditer(r"\s+", head)
        ]
        at = max((e for e in ends if 0 < e <= room), default=room)
        pieces.append(rest[:at].rstrip())
        rest = rest[at:].lstrip()
    if rest:
        pieces.append(rest)
    return pieces


def lines(
    title: str, body: Sequence[str], tail: Sequence[str], limit: int | None, joiner: str = "\n"
) -> list[str]:
    """A text of lines as messages of at most `limit` characters: the `title` line (numbered,
    `numbered`) on each, the `body` lines whole and in order, the `tail` lines on the last. A
    BBCode list (`[list]` … `[/list]`) cut between messages is closed at the end of one and
    opened again at the start of the next."""
    room = None if limit is None else limit - len(title) - sum(len(t) + 1 for t in tail) - 30
    pieces = [
        p for line in body for p in (cut(line, room) if room and len(line) > room else [line])
    ]
    units = list(enumerate(pieces))

    def render(chunk: Sequence[tuple[int, str]], number: int, count: int, last: bool) -> str:
        start = _depth(pieces[: chunk[0][0]]) if chunk else 0
        shown = ["[list]"] * start + [line for _at, line in chunk]
        shown += ["[/list]"] * _depth(shown)
        return joiner.join([numbered(title, number, count), *shown, *(tail if last else [])])

    return pack(units, render, limit)


def plain(text: str, limit: int) -> list[str]:
    """`text` in messages of at most `limit` characters, cut between lines (a longer line where
    `cut` cuts it); an empty text is one message, `…`.

    >>> plain("ab\\ncd\\nef", 5)
    ['ab\\ncd', 'ef']
    >>> plain("abcdefg", 3)
    ['abc', 'def', 'g']
    >>> plain(" ", 10)
    ['…']
    """
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        for piece in cut(line, limit) if len(line) > limit else [line]:
            joined = f"{current}\n{piece}" if current else piece
            if len(joined) > limit:
                parts.append(current)
                current = piece
            else:
                current = joined
    if current.strip():
        parts.append(current)
    return [part for part in parts if part.strip()] or ["…"]


def _depth(shown: Sequence[str]) -> int:
    """The BBCode lists `shown` leaves open."""
    return max(0, sum(line.count("[list]") - line.count("[/list]") for line in shown))
