"""A fight's log read as actions: which count, which are undone, which can be redone; the
names the journal gives a fight's own actions (its opening, undo, redo, the GM's end) and its
action ids. Pure functions over the stored events (`jdr.fights.service` writes them).

An **action** is the group of events one call appended; every stored event carries its action's
number, the `seq` of the group's first event. Undo appends `{"type": "undone", "seq": N}` and
redo `{"type": "redone", "seq": N}`: the log stays append-only, and `effective_events` drops
what is undone.

>>> from jdr.store import StoredEvent
>>> log = [
...     StoredEvent(1, 1, {"type": "started"}),
...     StoredEvent(2, 2, {"type": "hit"}),
...     StoredEvent(3, 2, {"type": "ko"}),
...     StoredEvent(4, 4, {"type": "undone", "seq": 2}),
... ]
>>> effective_events(log)
[{'type': 'started'}]
>>> Timeline.of(log).numbers
{1: 0, 2: 1}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from jdr.errors import RulesError
from jdr.fights.fold import ENDED
from jdr.i18n import N_, _
from jdr.journal.entries import AUTO_PREFIX
from jdr.store import StoredEvent
from jdr.systems.protocol import Json

UNDONE = "undone"
REDONE = "redone"
UNDO = "undo"
REDO = "redo"
END = "fight.end"
"""The journal's name of the GM's end of a fight (its context's `action`)."""
START = "start"
"""The journal's name of a fight's opening (its context's `action`)."""
ACTION_NAMES = {
    START: N_("fight started"),
    UNDO: N_("action undone"),
    REDO: N_("action put back"),
    END: N_("fight ended by the GM"),
}
"""A fight's journal actions that are not commands, in the reader's words (`_()` of each): its
opening, an undo, a redo and the GM's end. A command's own name comes from the system's
`fight_commands` (`jdr.journal.words.action_name`)."""


@dataclass
class Timeline:
    """A fight's log read as actions: which count, which can be undone, which redone."""

    actions: dict[int, list[Json]] = field(default_factory=dict)
    undone: set[int] = field(default_factory=set)
    redo_stack: list[int] = field(default_factory=list)
    redo_blocked: bool = False
    numbers: dict[int, int] = field(default_factory=dict)
    """Each action's number within its fight (see the module's docstring), by its seq."""

    @classmethod
    def of(cls, stored: Iterable[StoredEvent]) -> Timeline:
        timeline = cls()
        for item in stored:
            kind = item.event.get("type")
            target = item.event.get("seq")
            if kind == UNDONE and target in timeline.actions:
                timeline.undone.add(target)
                timeline.redo_stack.append(target)
                timeline.redo_blocked = False
            elif kind == REDONE and target in timeline.undone:
                timeline.undone.discard(target)
                timeline.redo_stack.remove(target)
            elif kind not in (UNDONE, REDONE):
                if item.action not in timeline.actions:
                    timeline.redo_blocked = timeline.redo_blocked or bool(timeline.redo_stack)
                    timeline.redo_stack.clear()
                    timeline.numbers[item.action] = len(timeline.numbers)
                timeline.actions.setdefault(item.action, []).append(item.event)
        return timeline

    def effective(self) -> list[Json]:
        return [
            event
            for action, events in self.actions.items()
            if action not in self.undone
            for event in events
        ]

    def last_undoable(self) -> int | None:
        """The last action not yet undone, after the opening one."""
        candidates = [a for a in list(self.actions)[1:] if a not in self.undone]
        return candidates[-1] if candidates else None


def effective_events(stored: Iterable[StoredEvent]) -> list[Json]:
    """The events that count: every action's events except those undone (and not redone)."""
    return Timeline.of(stored).effective()


def undo_events(stored: Sequence[StoredEvent]) -> list[Json]:
    """The event that takes back the last action not yet undone (`RulesError` if none)."""
    target = Timeline.of(stored).last_undoable()
    if target is None:
        raise RulesError(_("nothing to undo"))
    return [{"type": UNDONE, "seq": target}]


def redo_events(stored: Sequence[StoredEvent]) -> list[Json]:
    """The event that puts back the action undone last (`RulesError` if none, or if an action
    came since)."""
    timeline = Timeline.of(stored)
    if not timeline.redo_stack:
        if timeline.redo_blocked:
            raise RulesError(_("cannot redo: an action was played since the last undo"))
        raise RulesError(_("nothing to redo"))
    return [{"type": REDONE, "seq": timeline.redo_stack[-1]}]


def end_events(state: Json, params: Json) -> list[Json]:
    """The GM's end of a fight its rules have not ended: `params` names the `winners` (none:
    no winner named) or a `draw` (`RulesError` if the fight is over or ended already).

    >>> end_events({"over": False}, {"winners": ["Alice"]})
    [{'type': 'fight_ended', 'by': 'gm', 'winners': ['Alice'], 'draw': False}]
    """
    if state.get(ENDED) is not None or state.get("over"):
        raise RulesError(_("the fight is over already"))
    winners = [str(name) for name in params.get("winners") or []]
    draw = bool(params.get("draw"))
    if winners and draw:
        raise RulesError(_("a draw has no winner"))
    return [{"type": ENDED, "by": "gm", "winners": winners, "draw": draw}]


def command_name(command: Json) -> str:
    """The name a journal entry gives a fight command: its `action` (or `type`)."""
    return str(command.get("action", command.get("type", "act")))


def fight_action_id(fight_id: int, number: int) -> str:
    """A fight action's journal id: `#fight3.7` is fight 3's action 7 (the seq it starts at)."""
    return f"{AUTO_PREFIX}fight{fight_id}.{number}"
