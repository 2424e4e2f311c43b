"""A stored fight's recap, ready to post: its last action, round N, a fighter's last action (a
Plus Ultra post's own recap, PU-11) or the whole fight, with the journal footnote of the
actions it tells (one line: the first and the last entry, `recap_footer`). `jdr fight recap`
prints it; `jdr.fights.recap` writes the text itself. A recap for a medium with a limit
(`--format discord`, `--max-chars N`) comes in messages that each fit (`Posted.messages`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from jdr.errors import InputError
from jdr.fights.fold import fold
from jdr.fights.queries import fight_system
from jdr.fights.recap import Layout, footnote, medium, recap
from jdr.fights.service import Timeline, fight_events
from jdr.fights.setup import fighters_named
from jdr.fights.story import chapters
from jdr.i18n import _
from jdr.journal.entries import Entry
from jdr.journal.words import fight_entries, recap_footer
from jdr.names import same
from jdr.store import Store, StoredEvent
from jdr.systems.protocol import Json, RuleSystem

__all__ = ["Posted", "posted", "posted_in"]


@dataclass(frozen=True)
class Posted:
    """A recap as posted: its text (journal footnote included), the keys of the actions it
    tells, their numbers within the fight (1, 2, 3 …), their events and journal entries, and
    the text as messages that each fit the medium's limit (`[text]` without a limit)."""

    text: str
    actions: list[int]
    numbers: list[int]
    events: list[Json]
    entries: list[Entry]
    messages: list[str] = field(default_factory=list)

    def json(self, fight_id: int, fmt: str, round_: int | None, actor: str | None) -> Json:
        """`jdr fight recap --json`."""
        return {
            "fight": fight_id,
            "format": fmt,
            "round": round_,
            "actor": actor,
            "actions": self.actions,
            "numbers": self.numbers,
            "events": self.events,
            "recap": self.text,
            "messages": self.messages,
            "journal": [
                {"seq": e.seq, "hash": e.hash, "commitment": e.commitment} for e in self.entries
            ],
        }


def posted(
    store: Store,
    fight_id: int,
    fmt: str,
    round_: int | None = None,
    actor: str | None = None,
    whole: bool = False,
    max_chars: int | None = None,
) -> Posted:
    """The recap of the stored fight `fight_id` in `fmt` (one of `jdr.fights.recap.FORMATS`
    or `MEDIA`: `discord`): round `round_`, `actor`'s last action, the whole fight, or else
    its last action; its `messages` each of at most the medium's limit or `max_chars`
    characters (`jdr.fights.recap.medium`)."""
    return posted_in(store, fight_id, [fmt], round_, actor, whole, max_chars)[fmt]


def posted_in(
    store: Store,
    fight_id: int,
    fmts: Sequence[str],
    round_: int | None = None,
    actor: str | None = None,
    whole: bool = False,
    max_chars: int | None = None,
) -> dict[str, Posted]:
    """`posted` in each of `fmts` (the web's copies), the fight and its journal read once."""
    media = {fmt: medium(fmt, max_chars) for fmt in fmts}
    system = fight_system(store, fight_id)
    stored = fight_events(store, fight_id)
    record = store.fight(fight_id)
    footer_of = fight_entries(store, record.campaign_id, fight_id)
    actions = None
    if actor is not None:
        actions = _actions_of(system, stored, footer_of, actor, list(record.participants))
    written_in: dict[str, tuple[str, list[int], list[Json], Layout | None]] = {}
    found = {}
    for fmt, (written, limit) in media.items():
        if written not in written_in:  # Markdown once for `markdown` and `discord`
            if actor is not None and system.id == "plus-ultra":
                said = _plus_ultra_post(system, stored, actions or [], actor, written)
                written_in[written] = (*said, None)
            else:
                made = recap(
                    system, stored, written, fight_id, round_, actions, whole, record.status
                )
                written_in[written] = (made.text, made.actions, made.events, made.layout)
        text, numbers, events, layout = written_in[written]
        entries = [footer_of[n] for n in numbers if n in footer_of]
        footer = recap_footer(entries)
        if layout is not None:
            text, messages = layout.text(footer), layout.messages(limit, footer)
        else:
            messages = _messages(text, footer, written, limit)
            if footer is not None:  # Markdown: a blank line, or the footnote joins the last item
                text += ("\n\n" if written == "markdown" else "\n") + footnote(footer, written)
        numbered = _numbers(stored, numbers)
        found[fmt] = Posted(text, numbers, numbered, list(events), entries, messages)
    return found


def _messages(text: str, footer: str | None, fmt: str, limit: int | None) -> list[str]:
    """A recap written whole (a Plus Ultra post's) in messages of at most `limit` characters,
    cut between its lines, the journal line on the last."""
    from jdr.split import lines

    title, *body = text.split("\n")
    tail = [] if footer is None else ([""] if fmt == "markdown" else []) + [footnote(footer, fmt)]
    while body and not body[-1]:
        body.pop()
    return lines(title, body, tail, limit)


def _numbers(stored: list[StoredEvent], actions: list[int]) -> list[int]:
    """The numbers within the fight (1, 2, 3 …) of the actions whose keys are `actions`."""
    numbers = Timeline.of(stored).numbers
    return [numbers[n] for n in actions if n in numbers]


def _actions_of(
    system: RuleSystem,
    stored: list[StoredEvent],
    entries: dict[int, Entry],
    actor: str,
    participants: list[str],
) -> list[int]:
    """The last effective action `actor` played (the journal says who acted), else the last
    one whose events name it; none is an `InputError` listing the fighters."""
    name = fighters_named("--actor", [actor], participants, keep_unknown=True)[0]
    played = [c for c in chapters(system, stored) if c.said is None and not c.undone]
    mine = [c.number for c in played if c.number in entries and entries[c.number].actor == name]
    if not mine:
        mine = [c.number for c in played if any(_mentions(t.event, name) for t in c.told)]
    if not mine:
        raise InputError("--actor", actor, ", ".join(participants) or "-", _("no action of it"))
    return mine[-1:]


def _plus_ultra_post(
    system: RuleSystem, stored: list[StoredEvent], actions: list[int], actor: str, fmt: str
) -> tuple[str, list[int], list[Json]]:
    """PU-11: the recap a Plus Ultra post ends with, for `actor`'s last action."""
    from jdr.systems.plus_ultra.recap import render_recap  # that system's only, loaded for it

    timeline = Timeline.of(stored)
    rules = system.fight
    assert rules is not None
    upto: list[Json] = []
    events: list[Json] = []
    for number, group in timeline.actions.items():
        if number in timeline.undone:
            continue
        upto += group
        if number in actions:
            events = list(group)
            break
    return render_recap(fold(rules, upto), actor, events, fmt), actions, events


def _mentions(event: Json, name: str) -> bool:
    """Whether `name` (as people type it, `jdr.names`) is one of the event's values (or in one
    of its lists)."""

    def named(value: Any) -> bool:
        return isinstance(value, str) and same(value, name)

    return any(
        named(v) or (isinstance(v, list) and any(named(each) for each in v)) for v in event.values()
    )
