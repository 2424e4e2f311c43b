"""Playing a stored fight: start it, act, undo and redo, each a transaction on the store.

An **action** is the group of events one call appended (`start`, one `act`, one `undo` or
`redo`); every stored event carries its action's number, the `seq` of the group's first event.
Undo appends `{"type": "undone", "seq": N}` and redo `{"type": "redone", "seq": N}`, where `N`
names an action: the log stays append-only, and `effective_events` drops what is undone, so a
fight's state is always `fold(rules, effective_events(store.events(fight)))`.

Undo takes back the last action not yet undone (never the opening one); redo puts back the
action undone last, and only while no new action has been played since.

>>> from jdr.store import StoredEvent
>>> log = [
...     StoredEvent(1, 1, {"type": "started"}),
...     StoredEvent(2, 2, {"type": "hit"}),
...     StoredEvent(3, 2, {"type": "ko"}),
...     StoredEvent(4, 4, {"type": "undone", "seq": 2}),
... ]
>>> effective_events(log)
[{'type': 'started'}]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from jdr.dice.source import RandomSource
from jdr.errors import RulesError
from jdr.fights.fold import fold
from jdr.i18n import _
from jdr.store import ConflictError, Store, StoredEvent
from jdr.systems.protocol import FightRules, Json

UNDONE = "undone"
REDONE = "redone"


@dataclass
class Timeline:
    """A fight's log read as actions: which count, which can be undone, which redone."""

    actions: dict[int, list[Json]] = field(default_factory=dict)
    undone: set[int] = field(default_factory=set)
    redo_stack: list[int] = field(default_factory=list)
    redo_blocked: bool = False

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


@dataclass(frozen=True)
class Acted:
    """What one call appended: the events and the fight's version after them."""

    events: list[Json]
    version: int


def start(store: Store, campaign_id: int, rules: FightRules, setup: Json, rng: RandomSource) -> int:
    """Create a fight from `setup` (its participants are `setup["fighters"]` if given) and store
    its opening events as the first action; return the fight's id."""
    events = rules.start(setup, rng)
    fight_id = store.create_fight(campaign_id, list(setup.get("fighters", [])))
    store.append(fight_id, 0, events)
    return fight_id


def state(store: Store, fight_id: int, rules: FightRules) -> Json:
    """The fight's current state: the fold of its effective events."""
    return fold(rules, effective_events(store.events(fight_id)))


def act(
    store: Store,
    fight_id: int,
    rules: FightRules,
    command: Json,
    rng: RandomSource,
    retries: int = 3,
) -> Acted:
    """Decide `command` on the fight's current state and append its events.

    If another action lands between reading and appending, the command is decided again on the
    new state (new rolls from `rng`; a `RulesError` if it is no longer legal), up to `retries`
    times, then refused with a `ConflictError`.
    """

    def decide(stored: Sequence[StoredEvent]) -> list[Json]:
        return rules.decide(fold(rules, effective_events(stored)), command, rng)

    return _with_retries(store, fight_id, decide, retries)


def undo(store: Store, fight_id: int, retries: int = 3) -> Acted:
    """Take back the last action not yet undone (`RulesError` if there is none)."""

    def decide(stored: Sequence[StoredEvent]) -> list[Json]:
        target = Timeline.of(stored).last_undoable()
        if target is None:
            raise RulesError(_("nothing to undo"))
        return [{"type": UNDONE, "seq": target}]

    return _with_retries(store, fight_id, decide, retries)


def redo(store: Store, fight_id: int, retries: int = 3) -> Acted:
    """Put back the action undone last (`RulesError` if none, or if an action came since)."""

    def decide(stored: Sequence[StoredEvent]) -> list[Json]:
        timeline = Timeline.of(stored)
        if not timeline.redo_stack:
            if timeline.redo_blocked:
                raise RulesError(_("cannot redo: an action was played since the last undo"))
            raise RulesError(_("nothing to redo"))
        return [{"type": REDONE, "seq": timeline.redo_stack[-1]}]

    return _with_retries(store, fight_id, decide, retries)


def _with_retries(
    store: Store,
    fight_id: int,
    decide: Callable[[Sequence[StoredEvent]], list[Json]],
    retries: int,
) -> Acted:
    attempts = 0
    while True:
        attempts += 1
        stored = store.events(fight_id)
        version = stored[-1].seq if stored else 0
        events = decide(stored)
        try:
            return Acted(events, store.append(fight_id, version, events))
        except ConflictError as conflict:
            if attempts > retries:
                raise ConflictError(fight_id, version, conflict.found, attempts) from conflict
