"""A fight's recap, ready to paste: forum BBCode, Markdown (Discord) or plain text, in the current
language — the last action, a round, a fighter's last action, or the whole fight.

Each action is one item: its sentences (`jdr.fights.story`), every roll with the chance its
roller had when the system knows it; then the state after (`jdr.fights.view`: gauges,
conditions, cooldowns, markers), where the fight stands (whose turn, or the winner by name), and
the journal line that lets anyone verify it. Names and free text are escaped for the format
(`jdr.markup.escape`); a BBCode recap carries no Markdown. Sealed choices made one after the
other (Passion's initiative markers) read as one line, with the sentence that opens them.

A recap is cut for its medium (`Layout.messages`, `jdr.split.pack`): `discord` is Markdown in
messages of at most 2,000 characters (`MEDIA`), any format in messages of at most `--max-chars`;
each message is cut between actions (a round continued says its heading again), never inside
a line, its title numbered " (1/3)", the state, where the fight stands and the journal line on
the last.

>>> print(document("Fight 1 — action 2", [("", ["Kaito attacks Corbeau."])],
...                ["Kaito (a) — Énergie 7/7"], "Round 1 — to play: Corbeau", "bbcode"))
[b]Fight 1 — action 2[/b]
[list]
[*]Kaito attacks Corbeau.
[/list]
[b]State[/b]
[list]
[*]Kaito (a) — Énergie 7/7
[/list]
Round 1 — to play: Corbeau
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from jdr.errors import UnknownNameError
from jdr.i18n import _
from jdr.markup import FORMATS, check_format, in_format
from jdr.split import DISCORD, check_limit, marker, pack

__all__ = [
    "FORMATS",
    "MEDIA",
    "Layout",
    "Recap",
    "check_format",
    "document",
    "footnote",
    "in_format",
    "medium",
    "recap",
]

MEDIA = {"discord": ("markdown", DISCORD)}
"""The media a recap is posted to with a limit of their own: their format and their limit."""


def medium(fmt: str, max_chars: int | None = None) -> tuple[str, int | None]:
    """The format a recap in `fmt` (one of `FORMATS` or of `MEDIA`) is written in, and the most
    characters one message may hold: the medium's, or `max_chars` if smaller (None: no limit).
    An unknown format is an `UnknownNameError`, a `max_chars` too small an `InputError`.

    >>> medium("discord"), medium("bbcode"), medium("discord", 900), medium("text", 6000)
    (('markdown', 2000), ('bbcode', None), ('markdown', 900), ('text', 6000))
    """
    check_limit(max_chars)
    if fmt in MEDIA:
        written, limit = MEDIA[fmt]
        return written, min(limit, max_chars) if max_chars is not None else limit
    if fmt not in FORMATS:
        raise UnknownNameError(_("format"), fmt, [*FORMATS, *MEDIA])
    return fmt, max_chars


Json = dict[str, Any]


def footnote(text: str, fmt: str) -> str:
    """A small line under a recap (the journal's entry and hash): italic in BBCode and Markdown.

    >>> footnote("journal #2", "bbcode"), footnote("journal #2", "markdown")
    ('[i]journal #2[/i]', '_journal #2_')
    """
    wrapper = {"bbcode": "[i]{}[/i]", "markdown": "_{}_"}.get(check_format(fmt), "{}")
    return wrapper.format(in_format(text, fmt))


def bold(text: str, fmt: str) -> str:
    if fmt == "bbcode":
        return f"[b]{text}[/b]"
    return f"**{text}**" if fmt == "markdown" else text


def document(
    title: str,
    sections: Sequence[tuple[str, Sequence[str]]],
    state: Sequence[str],
    status: str | None,
    fmt: str,
) -> str:
    """The recap's layout: the title, each section (a heading, or none, and its items), the
    state's lines under "State", then where the fight stands (None: left for a later
    message)."""
    blocks = [bold(title, fmt)]
    parts = [*sections, (_("State"), state)] if state else list(sections)
    for heading, given in parts:
        items = [in_format(item, fmt) for item in given] or [_("Nothing happened.")]
        if fmt == "bbcode":
            lines = ([bold(heading, fmt)] if heading else []) + ["[list]"]
            lines += [f"[*]{item}" for item in items] + ["[/list]"]
            blocks.append("\n".join(lines))
        elif fmt == "markdown":
            lines = ([bold(heading, fmt), ""] if heading else []) + [f"- {i}" for i in items]
            blocks.append("\n".join(lines))
        else:
            head = [_("{heading}:").format(heading=heading)] if heading else []
            blocks.append("\n".join(head + [f"- {i}" for i in items]))
    if status is not None:
        blocks.append(status)
    return ("\n\n" if fmt == "markdown" else "\n").join(blocks)


@dataclass(frozen=True)
class Layout:
    """A recap's parts, as `document` lays them out: to write it whole (`text`) or cut for a
    medium (`messages`), with the journal line (`footer`) at its end."""

    title: str
    sections: list[tuple[str, list[str]]]
    state: list[str]
    status: str
    fmt: str

    def text(self, footer: str | None = None) -> str:
        """The whole recap, the journal line last (a footnote)."""
        written = document(self.title, self.sections, self.state, self.status, self.fmt)
        return _footed(written, footer, self.fmt)

    def messages(self, limit: int | None, footer: str | None = None) -> list[str]:
        """The recap in messages of at most `limit` characters each (`jdr.split.pack`): cut
        between actions (a section continued in the next message says its heading again), an
        action longer than a message cut between its sentences, never inside a line; each title
        numbered " (1/3)" when there are several; the state, the status and `footer` on the
        last. One message, the whole text, without a limit."""
        from jdr.split import cut

        empty = _("Nothing happened.")
        units: list[tuple[bool, str, str]] = [
            (False, heading, item) for heading, items in self.sections for item in items or [empty]
        ]
        units += [(True, "", line) for line in self.state]
        if limit is not None:  # an item longer than any message: cut between its sentences
            room = limit - len(self._render([], 99, 99, True, footer)) - 40
            room -= max((len(h) for _s, h, _i in units), default=0)
            units = [(s, h, piece) for s, h, i in units for piece in cut(i, room)]

        def render(
            chunk: Sequence[tuple[bool, str, str]], number: int, count: int, last: bool
        ) -> str:
            return self._render(chunk, number, count, last, footer)

        return pack(units, render, limit)

    def _render(
        self,
        chunk: Sequence[tuple[bool, str, str]],
        number: int,
        count: int,
        last: bool,
        footer: str | None,
    ) -> str:
        sections: list[tuple[str, list[str]]] = []
        for in_state, heading, item in chunk:
            if in_state:
                continue
            if sections and sections[-1][0] == heading:
                sections[-1][1].append(item)
            else:
                sections.append((heading, [item]))
        state = [item for in_state, _h, item in chunk if in_state]
        title = self.title + marker(number, count)
        written = document(title, sections, state, self.status if last else None, self.fmt)
        return _footed(written, footer if last else None, self.fmt)


def _footed(text: str, footer: str | None, fmt: str) -> str:
    """`text` with the journal line under it (Markdown needs a blank line, or the footnote joins
    the last item)."""
    if footer is None:
        return text
    return text + ("\n\n" if fmt == "markdown" else "\n") + footnote(footer, fmt)


@dataclass(frozen=True)
class Recap:
    """A recap's text, and what it covers: the actions (their keys, the seqs their events
    start at), their events, and the actions' numbers within the fight (1, 2, 3 …)."""

    text: str
    actions: list[int]
    events: list[Json]
    numbers: list[int] = field(default_factory=list)
    layout: Layout | None = None
    """Its parts, to cut it into messages (`Layout.messages`)."""


def recap(
    system: Any,
    stored: Sequence[Any],
    fmt: str,
    fight: int,
    round_number: int | None = None,
    actions: Sequence[int] | None = None,
    whole: bool = False,
    status: str | None = None,
) -> Recap:
    """The recap of a stored fight: the last action, the actions given (by their keys, the
    seqs `Recap.actions` holds), round `round_number` or the whole fight (`InputError` for a
    round the fight has not had). Its title numbers the actions within the fight (1, 2, 3 …);
    a recap that reaches the fight's last action ends with where the fight stands, or how it
    ended (`status`: the fight's stored status, `ended` once the GM ended it)."""
    from jdr.fights.story import chapters
    from jdr.fights.view import view_of

    check_format(fmt)
    only = None if whole or round_number is not None else _wanted(stored, actions)
    told = chapters(system, stored, fmt, only)
    played = [c for c in told if c.said is None and not c.undone]
    if not played:
        title = _("Fight {fight}").format(fight=fight)
        empty = Layout(title, [("", [])], [], "-", fmt)
        return Recap(empty.text(), [], [], layout=empty)
    sections: list[tuple[str, list[str]]] = []
    if whole:
        chosen = played
        title = _("Fight {fight}").format(fight=fight)
        sections = _whole(chosen, fmt)
    elif round_number is not None:
        chosen = []
        items: list[tuple[str, str, list[Any]]] = []
        covered: list[Json] = []
        for chapter in played:
            kept = [t for t in chapter.told if _round_of(t.state) == round_number]
            item = _item(kept, fmt, fallback=False)
            if kept:
                chosen.append(chapter)
                covered += [t.event for t in kept]
            if item:
                items.append(("", item, kept))
        if not chosen:
            rounds = sorted({n for c in played for t in c.told if (n := _round_of(t.state))})
            from jdr.errors import InputError

            raise InputError("--round", round_number, ", ".join(map(str, rounds)) or "-")
        title = _("Fight {fight} — round {round}").format(fight=fight, round=round_number)
        sections = _merge(_sealed_together(items)) or [("", [])]
    else:
        wanted = set(actions) if actions is not None else {played[-1].number}
        chosen = [c for c in played if c.number in wanted] or played[-1:]
        numbers = ", ".join(str(c.number if c.ordinal is None else c.ordinal) for c in chosen)
        title = _("Fight {fight} — action {action}").format(fight=fight, action=numbers)
        sections = [("", [_item(c.told, fmt) for c in chosen])]
    after = chosen[-1].state
    from jdr.fights.narration import Words

    last = chosen[-1] is played[-1]  # the fight as it stands now
    shown = view_of(system, after, Words(fmt, after), status if last else None)
    layout = Layout(title, sections, list(shown.fighters), bold(shown.status, fmt), fmt)
    events = [t.event for c in chosen for t in c.told] if round_number is None or whole else covered
    numbered = [c.ordinal for c in chosen if c.ordinal is not None]
    return Recap(layout.text(), [c.number for c in chosen], events, numbered, layout)


def _whole(chosen: Sequence[Any], fmt: str) -> list[tuple[str, list[str]]]:
    """The whole fight's sections: the start, then each round (or hand) and its actions."""
    said: list[tuple[str, str, list[Any]]] = []
    for number, told in _by_round(chosen):
        item = _item(told, fmt, fallback=False)
        hand = "round" not in told[0].state
        heading = (
            (_("Hand {hand}") if hand else _("Round {round}")).format(hand=number, round=number)
            if number
            else _("Start")
        )
        if item:
            said.append((heading, item, told))
    return _merge(_sealed_together(said))


def _wanted(stored: Sequence[Any], actions: Sequence[int] | None) -> set[int]:
    """The actions a recap of `actions` (none: the last one) tells; the others are only folded."""
    if actions is not None:
        return set(actions)
    from jdr.fights.timeline import Timeline

    timeline = Timeline.of(stored)
    kept = [n for n in timeline.actions if n not in timeline.undone]
    return set(kept[-1:])


def _round_of(state: Json) -> int | None:
    number = state.get("round", state.get("hand_number"))
    return number if isinstance(number, int) else None


def _item(told: Sequence[Any], fmt: str, fallback: bool = True) -> str:
    """One action's sentences, bookkeeping left out (all of them if it is all bookkeeping, with
    `fallback`), each roll with its roller's chance."""
    from jdr.fights.odds import Chance, CommandOdds
    from jdr.numbers import percent

    said = []
    for each in told:
        if each.quiet:
            continue
        text = each.text
        odds = each.chance()
        if odds is not None:  # at the end of the roll's own sentence, naming what it measures
            chance = (
                odds.said()
                if isinstance(odds, Chance | CommandOdds)
                else _("chance {percent}").format(percent=percent(odds))
            )
            first, stop, rest = text.partition(". ")
            if not stop:
                first, rest = (text[:-1], "") if text.endswith(".") else (text, "")
            text = f"{first} ({chance})." + (f" {rest}" if rest else "")
        said.append(text)
    if said or not fallback:
        return " ".join(said)
    return " ".join(t.text for t in told)


def _by_round(chapters: Sequence[Any]) -> list[tuple[int | None, list[Any]]]:
    """Each chapter's told events grouped by the round they happen in, in order."""
    found: list[tuple[int | None, list[Any]]] = []
    for chapter in chapters:
        groups: dict[int | None, list[Any]] = {}
        for told in chapter.told:
            groups.setdefault(_round_of(told.state), []).append(told)
        found += list(groups.items())
    return found


def _sealed_together(
    said: Sequence[tuple[str, str, list[Any]]],
) -> list[tuple[str, list[str]]]:
    """Each item as a section of its own (its heading, its text), but that sealed choices made
    one after the other (each a told event with a commitment, `jdr.fights.sealed.SEALED`) and
    the sentence that opens them (`UNSEALED`) read as one line."""
    from jdr.fights.sealed import SEALED, UNSEALED

    found: list[tuple[str, list[str]]] = []
    left_open = False  # the last item is a sealed choice not opened yet
    for heading, item, told in said:
        events = [t.event for t in told]
        starts = bool(events) and SEALED in events[0]
        if left_open and starts and found and found[-1][0] == heading:
            found[-1] = (heading, [f"{found[-1][1][0]} {item}"])
        else:
            found.append((heading, [item]))
        left_open = any(SEALED in e for e in events) and not any(UNSEALED in e for e in events)
    return found


def _merge(sections: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """Consecutive sections with the same heading, as one."""
    merged: list[tuple[str, list[str]]] = []
    for heading, items in sections:
        if merged and merged[-1][0] == heading:
            merged[-1][1].extend(items)
        else:
            merged.append((heading, list(items)))
    return merged
