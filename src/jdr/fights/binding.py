"""The chain covers what players see (issue 18): a fight action's journal entry binds the events
it appended and the fight's state after them, and a stored fight is checked against it.

Each fight action's entry (`jdr.fights.service`) keeps, in its hashed `result`:

- `events`: the events the action appended, as it always did;
- `events_hash`: SHA-256 of the RFC 8785 bytes of that list, whole numbers as integers
  (`jdr.dice.verifiable.portable`) — what a verifier compares the stored events with;
- `state_hash`: the same hash of the fight's whole state after the action (present when the
  service folded it), so the state a fight keeps (`Store.fight_log`'s snapshot) is checked
  against the journal without folding the log again.

Entries written before these fields exist are bound by their `events` alone. `check_log`
compares a stored log with the journal's entries and names the first event that differs, was
added or was removed; `jdr fight show`, `fight act`, `undo` and `redo` refuse a fight that does
not match (`TamperedFightError`, exit status 1), and `jdr verify` names it from an export.

>>> events = [{"type": "hit", "damage": 4.0}]
>>> events_hash(events) == events_hash([{"damage": 4, "type": "hit"}])
True
>>> sorted(bound(events, {"hp": 8}))
['events', 'events_hash', 'state_hash']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from jdr.dice.verifiable import LATEST, canonical_json, sha256_hex
from jdr.errors import JdrError
from jdr.i18n import N_, _
from jdr.journal.entries import plain


class Logged(Protocol):
    """One event of a fight's log (`jdr.store.StoredEvent`, or one read from an export: `jdr
    verify` checks exported fights without loading the store)."""

    @property
    def seq(self) -> int: ...
    @property
    def action(self) -> int: ...
    @property
    def event(self) -> Json: ...


Json = dict[str, Any]

EVENTS_HASH = "events_hash"
STATE_HASH = "state_hash"


def json_hash(value: Any) -> str:
    """SHA-256 (hex) of `value`'s RFC 8785 bytes, whole numbers as integers."""
    return sha256_hex(canonical_json(plain(value, LATEST), "fight", LATEST))


def events_hash(events: Sequence[Json]) -> str:
    """What a fight action's entry keeps as `events_hash`."""
    return json_hash(list(events))


def bound(events: Sequence[Json], after: Json | None) -> Json:
    """A fight action's journal `result`: its events, their hash, and the state's after them
    (when folded)."""
    result: Json = {"events": list(events), EVENTS_HASH: events_hash(events)}
    if after is not None:
        result[STATE_HASH] = json_hash(after)
    return result


MESSAGES = {
    "changed": N_(
        "fight {fight}: event {seq} is not the one journal entry {entry} recorded — the stored"
        " fight was changed"
    ),
    "added": N_(
        "fight {fight}: event {seq} is in no journal entry — it was added to the stored fight"
    ),
    "removed": N_(
        "fight {fight}: journal entry {entry} recorded event {seq}, which the stored fight no"
        " longer holds — it was removed"
    ),
    "state": N_(
        "fight {fight}: the state it keeps is not the one journal entry {entry} recorded — the"
        " stored state was changed"
    ),
}


@dataclass(frozen=True)
class Mismatch:
    """Where a stored fight and its journal part: `kind` (a key of `MESSAGES`), the event's
    `seq` and the journal entry's."""

    kind: str
    fight: int
    seq: int
    entry: int | None

    def message(self) -> str:
        return _(MESSAGES[self.kind]).format(
            fight=self.fight, seq=self.seq, entry=self.entry if self.entry is not None else "-"
        )


class TamperedFightError(JdrError):
    """A stored fight that no longer matches its journal: nothing is shown or played from it."""

    code = "tampered"
    exit_status = 1

    def __init__(self, mismatch: Mismatch) -> None:
        self.mismatch = mismatch
        super().__init__(mismatch.message())

    def message(self) -> str:
        return _("{problem}; nothing is shown or played from it (`jdr verify` names it)").format(
            problem=self.mismatch.message()
        )

    def __reduce__(self) -> Any:  # crosses process boundaries whole (a pool's worker)
        return (TamperedFightError, (self.mismatch,))


@dataclass(frozen=True)
class Recorded:
    """One fight action as the journal holds it: its entry's seq and `result`."""

    seq: int
    result: Json


def check_log(
    fight: int,
    stored: Sequence[Logged],
    recorded: Mapping[int, Recorded],
    since: int = 0,
    upto: int | None = None,
) -> Mismatch | None:
    """The first difference between a stored log (or its part after event `since`) and the
    actions `recorded` (action number → entry), or None. A sealed entry still hidden is
    recorded too: the store holds its body. Entries of actions after event `upto` (the fight's
    version when its log was read) are not expected in the log: another process may have
    appended them since.

    >>> from jdr.store import StoredEvent
    >>> log = [StoredEvent(1, 1, {"type": "a"}), StoredEvent(2, 2, {"type": "b"})]
    >>> recorded = {1: Recorded(4, {"events": [{"type": "a"}]}),
    ...             2: Recorded(5, {"events": [{"type": "c"}]})}
    >>> check_log(3, log, recorded)
    Mismatch(kind='changed', fight=3, seq=2, entry=5)
    """
    groups: dict[int, list[Logged]] = {}
    for item in stored:
        groups.setdefault(item.action, []).append(item)
    for number, items in groups.items():
        entry = recorded.get(number)
        if entry is None:
            return Mismatch("added", fight, items[0].seq, None)
        for index, item in enumerate(items):  # an action's events are numbered from it on
            if item.seq != number + index:
                return Mismatch("changed", fight, number + index, entry.seq)
        found = action_mismatch(fight, number, [i.event for i in items], entry)
        if found is not None:
            return found
    for number, entry in sorted(recorded.items()):
        if number > since and number not in groups and (upto is None or number <= upto):
            shown = entry.result.get("events") or []
            if shown:
                return Mismatch("removed", fight, number, entry.seq)
    return None


def action_mismatch(
    fight: int, number: int, events: Sequence[Json], entry: Recorded
) -> Mismatch | None:
    """Whether one action's stored `events` are those its entry recorded (its `events_hash`,
    else its `events`); the first event that differs, or the first one added or removed."""
    shown = entry.result.get("events")
    shown = list(shown) if isinstance(shown, list) else []
    expected = entry.result.get(EVENTS_HASH)
    if expected is not None and events_hash(events) == expected and events_hash(shown) == expected:
        return None
    if expected is None and plain(list(events), LATEST) == plain(shown, LATEST):
        return None
    for index, (mine, theirs) in enumerate(zip(events, shown, strict=False)):
        if json_hash(mine) != json_hash(theirs):
            return Mismatch("changed", fight, number + index, entry.seq)
    if len(events) > len(shown):
        return Mismatch("added", fight, number + len(shown), entry.seq)
    if len(events) < len(shown):
        return Mismatch("removed", fight, number + len(events), entry.seq)
    return Mismatch("changed", fight, number, entry.seq)  # the entry's own hash disagrees


def state_mismatch(fight: int, state: Json, entry: Recorded) -> Mismatch | None:
    """Whether a kept `state` is the one `entry` recorded (None when it recorded none)."""
    expected = entry.result.get(STATE_HASH)
    if expected is None or json_hash(state) == expected:
        return None
    return Mismatch("state", fight, 0, entry.seq)
