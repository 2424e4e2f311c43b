"""What `jdr.journal.verify` keeps of the entries for the checks made after them (steps 8 and 9),
so that a journal of any length verifies in bounded memory: never the entries themselves.

- of each fight action's entry (`#fightF.N`): its `seq`, its `events_hash` and the hash of each
  event it shows (`Action`);
- of each fight of the export's `fights`: its events grouped by action, each group's hash and
  each event's (`Group`), checked once every entry is read (`fight_problem`);
- of each entry recording sheet revisions: which character's revision and its `sheet_hash`
  (`Recorded`), and per character the highest revision recorded (`sheet_behind`);
- the computed hash of each pinned or witnessed entry.

>>> kept = Kept(set())
>>> kept.entry({"seq": 3, "context": {"fight": 1, "action_id": "#fight1.1"},
...             "result": {"events": [{"type": "a"}]}}, "h" * 64)
>>> stored = [{"seq": 1, "action": 1, "event": {"type": "b"}}]
>>> fight_problem(1, groups_of(stored), kept.actions.get(1, {}))
('changed', 1, 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jdr.errors import JdrError
from jdr.i18n import _

Json = dict[str, Any]


@dataclass(frozen=True)
class Action:
    """A fight action as its entry recorded it: the entry's `seq`, its `events_hash` (None:
    written before it), the hash of the events it shows and of each one (None and the reason:
    they cannot be hashed)."""

    seq: int
    events_hash: str | None
    shown: str | None
    each: tuple[str, ...]
    error: str | None = None


@dataclass(frozen=True)
class Group:
    """One action's events in a stored fight log: the action's number, each event's `seq`, the
    hash of the group and of each event."""

    action: int
    seqs: tuple[int, ...]
    hash: str
    each: tuple[str, ...]


@dataclass(frozen=True)
class Recorded:
    """A sheet revision an entry recorded: the character (None: its creation, which has no id
    yet), the revision and its `sheet_hash` (None: written before it)."""

    character: Any
    revision: Any
    sheet_hash: str | None

    def names(self, character: int, revision: int) -> bool:
        """Whether this records `character`'s `revision` (a creation records revision 1)."""
        if self.revision != revision or isinstance(self.revision, bool):
            return False
        return self.character == character or (self.character is None and revision == 1)


@dataclass
class Kept:
    """What is kept while entries are read (see the module); `wanted`: the seqs whose hashes
    pins and witnesses check."""

    wanted: set[int]
    actions: dict[int, dict[int, Action]] = field(default_factory=dict)
    fights: dict[int, None] = field(default_factory=dict)
    """The fights disclosed entries record, by first entry."""
    sheets: dict[int, list[Recorded]] = field(default_factory=dict)
    """seq → the sheet revisions the entry recorded (the last entry showing that seq)."""
    latest: dict[Any, tuple[int, int]] = field(default_factory=dict)
    """character → the highest revision recorded and the first entry recording it."""
    hashes: dict[int, str] = field(default_factory=dict)
    last: int = 0

    def entry(self, item: Mapping[str, Any], computed: str) -> None:
        """Keep what the checks after the entries need of `item` (a well-formed entry whose
        content hashes to `computed`)."""
        seq = item["seq"]
        self.last = max(self.last, seq)
        if seq in self.wanted:
            self.hashes[seq] = computed
        context, result = item.get("context"), item.get("result")
        if not isinstance(context, Mapping) or not isinstance(result, Mapping):
            return
        self._fight(seq, context, result)
        self._sheets(seq, context, result)

    def _fight(self, seq: int, context: Mapping[str, Any], result: Mapping[str, Any]) -> None:
        from jdr.fights.binding import EVENTS_HASH, events_hash, json_hash

        number = context.get("fight")
        if not isinstance(number, int) or isinstance(number, bool):
            return
        tail = str(context.get("action_id", "")).removeprefix(f"#fight{number}.")
        if tail == str(context.get("action_id", "")) or not tail.isdigit():
            return
        self.fights.setdefault(number)
        shown = result.get("events")
        shown = list(shown) if isinstance(shown, list) else []
        expected = result.get(EVENTS_HASH)
        try:
            action = Action(
                seq,
                None if expected is None else str(expected),
                events_hash(shown),
                tuple(json_hash(event) for event in shown),
            )
        except JdrError as error:
            action = Action(seq, None, None, (), error.message())
        self.actions.setdefault(number, {})[int(tail)] = action

    def _sheets(self, seq: int, context: Mapping[str, Any], result: Mapping[str, Any]) -> None:
        own = str(context.get("action", "")).startswith("sheet.")
        items = result.get("sheets")
        listed = [
            _recorded(item.get("character"), item)
            for item in (items if isinstance(items, list) else [])
            if isinstance(item, Mapping)
        ]
        mine = _recorded(context.get("character"), result)
        found = listed if "sheets" in result else [mine] if own else []
        if found:
            self.sheets[seq] = found
        else:
            self.sheets.pop(seq, None)
        for record in [mine, *listed] if own else listed:  # the highest revision recorded
            if record.character is None or not _whole(record.revision):
                continue
            best = self.latest.get(record.character)
            if best is None or record.revision > best[0]:
                self.latest[record.character] = (record.revision, seq)


def _recorded(character: Any, data: Mapping[str, Any]) -> Recorded:
    digest = data.get("sheet_hash")
    return Recorded(character, data.get("revision"), digest if isinstance(digest, str) else None)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def groups_of(events: Sequence[Mapping[str, Any]]) -> list[Group]:
    """A stored fight log's events grouped by `action`, in file order (`JdrError` when an
    event cannot be hashed)."""
    from jdr.fights.binding import events_hash, json_hash

    grouped: dict[int, list[Mapping[str, Any]]] = {}
    for item in events:
        grouped.setdefault(item["action"], []).append(item)
    return [
        Group(
            action,
            tuple(item["seq"] for item in items),
            events_hash([item["event"] for item in items]),
            tuple(json_hash(item["event"]) for item in items),
        )
        for action, items in grouped.items()
    ]


def fight_problem(
    fight: int, groups: Sequence[Group], recorded: Mapping[int, Action]
) -> tuple[str, int, int | None] | None:
    """The first difference between a stored fight's groups and the actions its entries
    recorded, as `(kind, event, entry seq)`: `jdr.fights.binding.check_log` on hashes (a
    `JdrError` when an entry's events cannot be hashed)."""
    numbers = {group.action for group in groups}
    for group in groups:
        entry = recorded.get(group.action)
        if entry is None:
            return "added", group.seqs[0], None
        for index, seq in enumerate(group.seqs):
            if seq != group.action + index:
                return "changed", group.action + index, entry.seq
        found = _action_problem(group, entry)
        if found is not None:
            return found
    for number, entry in sorted(recorded.items()):
        if number not in numbers and (entry.each or entry.error is not None):
            return "removed", number, entry.seq
    return None


def _action_problem(group: Group, entry: Action) -> tuple[str, int, int | None] | None:
    if entry.error is not None:
        raise JdrError(entry.error)
    expected = entry.events_hash
    if expected is not None and group.hash == expected and entry.shown == expected:
        return None
    if expected is None and group.hash == entry.shown:
        return None
    number = group.action
    for index, (mine, theirs) in enumerate(zip(group.each, entry.each, strict=False)):
        if mine != theirs:
            return "changed", number + index, entry.seq
    if len(group.each) > len(entry.each):
        return "added", number + len(entry.each), entry.seq
    if len(group.each) < len(entry.each):
        return "removed", number + len(group.each), entry.seq
    return "changed", number, entry.seq


def fight_log(fight: Any) -> tuple[int, list[Group]]:
    """An exported fight's number and its events grouped (a `ValueError` naming what is
    wrong)."""
    if not isinstance(fight, Mapping) or not isinstance(fight.get("events"), list):
        raise ValueError(_("a fight is not an object with a list of events"))
    number = fight["fight"]
    if not _whole(number):
        raise ValueError(_("{field} has the wrong type").format(field="fight"))
    for item in fight["events"]:
        if not isinstance(item, Mapping) or not isinstance(item.get("event"), Mapping):
            raise ValueError(_("a fight event is not an object"))
        if not all(_whole(item.get(key)) for key in ("seq", "action")):
            raise ValueError(_("{field} has the wrong type").format(field="seq"))
    try:
        return number, groups_of(fight["events"])
    except JdrError as error:
        raise ValueError(error.message()) from None


def sheet_shape(shown: Any) -> bool:
    """Whether an exported sheet (or kept snapshot) has whole `character`, `revision`, `seq`,
    a text `name` and a `sheet` object."""
    return (
        isinstance(shown, Mapping)
        and all(_whole(shown.get(key)) for key in ("character", "revision", "seq"))
        and isinstance(shown.get("name"), str)
        and isinstance(shown.get("sheet"), Mapping)
    )
