"""A stored fight told as a story: each action (one command's events) in sentences, in the
reader's language, with the state after it — `jdr fight act`, `fight log`, `journal show`, the
recaps and the demo all tell it this way. Every event is shown as `jdr.fights.sealed.public`
shows it: a sealed choice is told as chosen, never as its value.

Undo and redo are actions too: they are told by what they take back or put back, and the story
marks an action taken back (`undone`) without counting it in the states after it.

>>> from jdr.store import StoredEvent
>>> from jdr.systems import default_registry
>>> system = default_registry().get("ilvermorny")
>>> from jdr.systems.ilvermorny.rules import STATS
>>> wizard = {"stats": dict.fromkeys(STATS, 5), "spells": []}
>>> opening = system.fight.start({"wizards": [wizard | {"name": "Ann"},
...                                           wizard | {"name": "Bob"}]}, None)
>>> stored = [StoredEvent(n, 1, e) for n, e in enumerate(opening, start=1)]
>>> [chapter.lines() for chapter in chapters(system, stored)]
[['Duel: Ann against Bob.', 'Round 1: each wizard chooses a spell.']]
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from typing import Any

from jdr.fights.fold import evolver, step
from jdr.fights.narration import EMPTY, Narration, Told, tell
from jdr.fights.sealed import public
from jdr.fights.timeline import REDONE, UNDONE, Timeline
from jdr.i18n import _
from jdr.journal.entries import Entry
from jdr.store import StoredEvent
from jdr.systems.protocol import Json, RuleSystem

__all__ = ["Chapter", "Folded", "chapters", "entry_summaries", "narration_of", "told"]


@dataclass(frozen=True)
class Chapter:
    """One action of a fight: its key (`number`, the seq of its first event), its events told,
    the state after it, whether it was taken back since (`undone`), and its number within the
    fight as the table counts them (`ordinal`: 0 for the opening, then 1, 2, 3 …; None for an
    undo or a redo, `jdr.fights.timeline.Timeline.numbers`). An undo or a redo has no events of
    its own to tell: `said` is its sentence."""

    number: int
    told: list[Told] = field(default_factory=list)
    state: Json = field(default_factory=dict)
    undone: bool = False
    said: str | None = None
    ordinal: int | None = None

    def lines(self, quiet: bool = True) -> list[str]:
        """Its sentences (`quiet=False`: without the bookkeeping ones)."""
        if self.said is not None:
            return [self.said]
        return [t.text for t in self.told if quiet or not t.quiet]

    def summary(self) -> str:
        """What the action did, in its sentences that are not bookkeeping."""
        return " ".join(self.lines(quiet=False)) or " ".join(self.lines())


def narration_of(system: RuleSystem) -> Narration:
    """The system's sentences (none declared: every event reads as its type and values)."""
    found: Narration | None = getattr(system, "narration", None)
    return found if found is not None else EMPTY


def told(
    system: RuleSystem, events: Sequence[Json], before: Json, medium: str = "text"
) -> list[Told]:
    """`events` told from the state `before` them (each one shown as `public` shows it)."""
    rules = system.fight
    assert rules is not None
    found = tell(narration_of(system), evolver(rules), list(events), before, medium)
    return [Told(public(t.event), t.text, t.state, t.quiet, t.chance) for t in found]


def chapters(
    system: RuleSystem,
    stored: Sequence[StoredEvent],
    medium: str = "text",
    only: Container[int] | None = None,
    start: Folded | None = None,
) -> list[Chapter]:
    """Every action of a stored fight, in order, told (see the module's docstring); with
    `only`, the actions it holds (the others are folded, not told: their chapters say nothing).

    `start` (with `only`, and `start.until` at most its first action): the fold of the actions
    before `start.until` kept from an earlier read of the same fight; if none of them was
    undone or put back since, they are not folded again and have no chapter here (the chapters
    from `start.until` on are as without it)."""
    timeline = Timeline.of(stored)
    state: Json = {}
    skipped = 0
    if (
        start is not None
        and only is not None
        and frozenset(a for a in timeline.undone if a < start.until) == start.undone
    ):
        state, skipped = start.state, start.until
    groups: dict[int, list[Json]] = {}
    for item in stored:
        if item.action >= skipped:
            groups.setdefault(item.action, []).append(item.event)
    found: list[Chapter] = []
    by_number: dict[int, Chapter] = {}
    for number, events in groups.items():
        kinds = {e.get("type") for e in events}
        if kinds <= {UNDONE, REDONE}:
            said = _control(events[0], by_number, timeline.numbers)
            found.append(Chapter(number, state=state, said=said))
            continue
        undone = number in timeline.undone
        ordinal = timeline.numbers.get(number)
        if only is not None and number not in only:
            after = state if undone else _folded(system, events, state)
            chapter = Chapter(number, [], after, undone, said="", ordinal=ordinal)
            state = after
            found.append(chapter)
            by_number[number] = chapter
            continue
        chapter = Chapter(number, told(system, events, state, medium), state, undone)
        if chapter.told and not undone:
            state = chapter.told[-1].state
        chapter = Chapter(number, chapter.told, state, undone, ordinal=ordinal)
        found.append(chapter)
        by_number[number] = chapter
    return found


@dataclass(frozen=True)
class Folded:
    """A fight's state after its actions before `until` (the undone ones among them, `undone`,
    left out), kept to tell the last actions of a longer fight without folding it all again."""

    until: int
    undone: frozenset[int]
    state: Json

    @classmethod
    def before(cls, found: Sequence[Chapter], until: int, start: Folded | None) -> Folded | None:
        """The fold before action `until`, from the chapters `chapters(…, start=start)` gave
        (None: nothing before it)."""
        used = start is not None and (not found or found[0].number >= start.until)
        earlier = [chapter for chapter in found if chapter.number < until]
        if not earlier:
            return start if used else None
        undone = {chapter.number for chapter in earlier if chapter.undone}
        if used and start is not None:
            undone |= start.undone
        return cls(until, frozenset(undone), earlier[-1].state)


def _folded(system: RuleSystem, events: Sequence[Json], state: Json) -> Json:
    rules = system.fight
    assert rules is not None
    for event in events:
        state = step(rules, state, event)
    return state


def _control(event: Json, chapters: dict[int, Chapter], numbers: dict[int, int]) -> str:
    """`Undone: action 5 (Kaito attacks Corbeau.)` for an undo, likewise a redo: the action by
    its number within the fight."""
    seq = int(event.get("seq", 0))
    target = chapters.get(seq)
    what = (target.summary() if target is not None else "") or "-"
    message = (
        _("Undone: action {n} ({what})")
        if event["type"] == UNDONE
        else _("Redone: action {n} ({what})")
    )
    return message.format(n=numbers.get(seq, seq), what=what)


def fold_public(system: RuleSystem, stored: Sequence[StoredEvent]) -> Any:
    """The state of a stored fight as anyone may see it (`public`)."""
    from jdr.fights.fold import fold
    from jdr.fights.timeline import effective_events

    rules = system.fight
    assert rules is not None
    return public(fold(rules, effective_events(stored)))


def entry_summaries(
    system: RuleSystem, entries: Sequence[Entry], only: Container[int] | None = None
) -> dict[int, str]:
    """What each fight action of a journal did, in words (`jdr journal show`): entry seq → its
    action's sentences, each fight told from its start as the journal shows it (a sealed entry
    not yet disclosed is left out); with `only`, the entries whose seqs it holds (the others
    are folded, not told)."""
    by_fight: dict[Any, list[tuple[int, list[Json]]]] = {}
    for entry in entries:
        context = entry.context or {}
        events = (entry.result or {}).get("events") if entry.disclosed else None
        if "fight" in context and isinstance(events, list) and events:
            by_fight.setdefault(context["fight"], []).append((entry.seq, events))
    found: dict[int, str] = {}
    for actions in by_fight.values():
        stored: list[StoredEvent] = []
        numbers: set[int] = set()
        for seq, events in actions:
            number = len(stored) + 1
            stored += [StoredEvent(number + i, number, e) for i, e in enumerate(events)]
            if only is not None and seq in only:
                numbers.add(number)
        if only is not None and not numbers:
            continue
        told = chapters(system, stored, only=None if only is None else numbers)
        for (seq, _events), chapter in zip(actions, told, strict=True):
            if only is None or seq in only:
                found[seq] = chapter.summary()
    return found
