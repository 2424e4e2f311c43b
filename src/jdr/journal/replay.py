"""Re-computing a journal entry's result from its faces, by the rule system's own code.

A roll's result is its action run on the entry's faces; a fight action's events are its command
decided on the fight's state so far (the fold of the events the journal shows before it), undo,
redo and the GM's end (`fight.end`) by the fight service's own rules. A fight's opening is not
re-decided (its setup, the sheets, is not in the journal): its faces are checked, its events
taken as shown.

>>> from jdr.systems import default_registry
>>> replay = SystemReplayer(default_registry().get("poledemos"))
>>> from jdr.journal.entries import Entry
>>> from jdr.dice.source import GivenFaces
>>> entry = Entry(1, "0" * 64, "c" * 64, {"action": "test", "params": {"val": "4", "dice": 1}},
...               {"source": "given", "rolls": [[6, 5]]}, {})
>>> replay(entry, GivenFaces([5]))["outcome"]
'success'
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jdr.dice.source import RandomSource
from jdr.errors import InputError
from jdr.i18n import _
from jdr.journal.entries import Entry, plain
from jdr.journal.verify import SKIP
from jdr.systems.protocol import Json, Record, RuleSystem


def roll_result(record: Record) -> Json:
    """What a roll's journal entry keeps of its record: outcome, totals, details and faces (the
    explanation is re-rendered from them in the reader's language)."""
    result: Json = plain(
        {
            "outcome": record.outcome,
            "totals": dict(record.totals),
            "details": dict(record.details),
            "faces": list(record.faces),
        }
    )
    return result


def dice_result(record: Any) -> Json:
    """What a generic dice roll's journal entry keeps: its total and faces."""
    return {"total": int(record.total), "faces": [int(face) for face in record.faces]}


class SystemReplayer:
    """The `verify` replayer for one rule system (see the module's docstring)."""

    def __init__(self, system: RuleSystem) -> None:
        from jdr.journal.sheet_replay import SheetLedger

        self.system = system
        self.fights: dict[Any, Carried] = {}
        self.sheets = SheetLedger(system)

    def __call__(self, entry: Entry, source: RandomSource | None) -> Any:
        context = entry.context or {}
        shown = entry.result or {}
        if is_sheet_step(context):
            return self.sheets.revision(context, shown, source is not None, self.fights)
        if "fight" in context:
            return self._fight(entry, context, source)
        if source is None:
            if "sheet" in context:  # the sheets it changed, as shown, for the entries after it
                self.sheets.roll(context, None, None, list(shown.get("sheets", [])), False)
            return SKIP
        return self.roll(context, source, list(shown.get("sheets", [])))

    def roll(self, context: Json, source: RandomSource, sheets: list[Json] | None = None) -> Any:
        """A roll's result from `source`'s faces, by the system's action; for a roll made through
        a sheet, what it changed on the sheets too (`sheets`: what the journal shows)."""
        params, record = self.made(context, source)
        result = roll_result(record)
        if "sheet" in context:
            changed = self.sheets.roll(context, params, record, sheets or [], True)
            if changed:
                result["sheets"] = changed
        return result

    def record(self, context: Json, source: RandomSource) -> Record:
        """A roll's record from `source`'s faces, by the system's action."""
        return self.made(context, source)[1]

    def made(self, context: Json, source: RandomSource) -> tuple[Any, Record]:
        """A roll's parameters and record from `source`'s faces, by the system's action."""
        from jdr.params import validate_params

        action = self.system.actions.get(str(context.get("action")))
        if action is None:
            raise InputError(
                _("action"), context.get("action"), ", ".join(self.system.actions) or "-"
            )
        params = validate_params(action.params, dict(context.get("params") or {}))
        return params, action.roll(params, source)

    def _fight(self, entry: Entry, context: Json, source: RandomSource | None) -> Any:
        from jdr.fights.binding import EVENTS_HASH, STATE_HASH, events_hash, json_hash
        from jdr.fights.timeline import END, REDO, UNDO, end_events, redo_events, undo_events

        carried = self.fights.setdefault(context["fight"], Carried())
        recorded = entry.result or {}
        shown = list(recorded.get("events", []))
        rules = self.system.fight
        action = context.get("action")
        number = action_number(context.get("action_id"))
        after: Json | None = None
        events: list[Json] = []
        try:
            if source is None or action == "start" or rules is None:
                return SKIP
            if carried.blind or carried.missing(number):
                return SKIP  # a sealed entry's events are not known: nothing to decide on
            if action in (UNDO, REDO):
                events = (undo_events if action == UNDO else redo_events)(carried.log)
            elif action == END:  # the GM's end: the fight's state and the GM's words
                events = end_events(carried.state(rules), dict(context.get("params") or {}))
            else:
                params = dict(context.get("params") or {})
                events = rules.decide(carried.state(rules), params, source)
            result: Json = {"events": events}
            if EVENTS_HASH in recorded:
                result[EVENTS_HASH] = events_hash(events)
            if STATE_HASH in recorded:  # the state after the events, as the service kept it
                after = carried.after(rules, events, refold=action in (UNDO, REDO))
                result[STATE_HASH] = json_hash(after)
            return result
        finally:  # later actions are decided on what the journal shows, checked or not
            same = after is not None and plain(events) == plain(shown)
            carried.extend(rules, shown, number, action in (UNDO, REDO), after if same else None)


def action_number(action_id: Any) -> int | None:
    """The seq a fight action's events start at, from its journal id (`#fight3.7`: 7).

    >>> action_number("#fight3.7"), action_number("my-roll")
    (7, None)
    """
    import re

    found = re.fullmatch(r"#fight\d+\.(\d+)", str(action_id))
    return int(found[1]) if found else None


class Carried:
    """One fight as `verify` follows it entry by entry: its log as the journal shows it, and
    its state carried forward (each action's events folded on top; an undo or a redo folds the
    log again). The state is folded only when a decision needs it, so a journal of one fight's
    10,000 actions is verified in linear time (issue 17).

    A fight action whose events start further than the log reaches follows a sealed entry not
    yet disclosed: from then on, the fight's actions are not re-decided (`blind`), since the
    state they were decided on is not known."""

    def __init__(self) -> None:
        self.log: list[Any] = []
        self.blind = False
        self._state: Json | None = {}
        self._pending: list[Json] = []

    def missing(self, number: int | None) -> bool:
        """Whether events before action `number` are not in the log (a sealed entry's)."""
        return number is not None and number > len(self.log) + 1

    def state(self, rules: Any) -> Json:
        from functools import reduce

        from jdr.fights.fold import evolver, fold
        from jdr.fights.timeline import effective_events

        if self._state is None:
            self._state, self._pending = fold(rules, effective_events(self.log)), []
        elif self._pending:
            self._state, self._pending = reduce(evolver(rules), self._pending, self._state), []
        return self._state

    def after(self, rules: Any, events: list[Json], refold: bool) -> Json:
        """The state after `events` were appended (folded again from the log for an undo or a
        redo), without changing what is carried."""
        from functools import reduce

        from jdr.fights.fold import evolver, fold
        from jdr.fights.timeline import effective_events
        from jdr.store import StoredEvent

        if not refold:
            return reduce(evolver(rules), events, self.state(rules))
        start = len(self.log) + 1
        moved = [StoredEvent(start + i, start, e) for i, e in enumerate(events)]
        return fold(rules, effective_events([*self.log, *moved]))

    def extend(
        self,
        rules: Any,
        events: list[Json],
        number: int | None,
        refold: bool,
        after: Json | None = None,
    ) -> None:
        """Append an entry's events (at action `number`); `after` is the state after them
        when it is already known."""
        from jdr.store import StoredEvent

        if self.missing(number):
            self.blind = True
        start = number if number is not None else len(self.log) + 1
        self.log.extend(StoredEvent(start + i, start, event) for i, event in enumerate(events))
        if after is not None and not self.blind:
            self._state, self._pending = after, []
        elif refold or rules is None:
            self._state, self._pending = None, []
        elif self._state is not None:
            self._pending.extend(events)


def is_sheet_step(context: Json) -> bool:
    """Whether an entry is a sheet's own revision (`sheet.set`, `sheet.buy` …), not a roll."""
    from jdr.journal.sheet_replay import SHEET_ACTION

    return "sheet" in context and str(context.get("action", "")).startswith(SHEET_ACTION)


def replay_dice(entry: Entry, source: RandomSource | None) -> Any:
    """Re-roll a generic dice entry (`jdr dice EXPR --campaign NAME`) on its faces."""
    from jdr.dice import notation

    if source is None:
        return SKIP
    params = (entry.context or {}).get("params") or {}
    return dice_result(notation.roll(_parsed(str(params.get("expression", ""))), source))


@lru_cache(maxsize=256)
def _parsed(expression: str) -> Any:
    """A dice expression parsed once (a long journal repeats the same few)."""
    from jdr.dice import notation

    return notation.parse(expression)


def replayer_for(system_id: str | None) -> Any:
    """The replayer of an installed system (generic dice for None), or None when the system
    is not installed: results are then not re-computed."""
    from jdr.errors import JdrError
    from jdr.systems import default_registry

    if system_id is None:
        return replay_dice
    registry = default_registry()
    if system_id not in registry.ids():
        return None
    try:
        return SystemReplayer(registry.get(system_id))
    except JdrError:  # a broken plug-in: check what can be checked without it
        return None


def stored_roll(entry: Entry) -> Any | None:
    """The record of a roll the journal holds, rebuilt from its parameters and faces by the rules
    (a `Record`, or a dice notation roll); None for a hidden roll, a fight action, or a system
    that is not installed.

    >>> entry = Entry(1, "0" * 64, "c" * 64,
    ...               {"system": None, "action": "dice", "params": {"expression": "2d6"}},
    ...               {"source": "derived", "rolls": [[6, 5], [6, 2]]}, {})
    >>> stored_roll(entry).explain()
    '2d6 (5, 2) = 7'
    """
    from jdr.dice.source import GivenFaces

    context = entry.context or {}
    if entry.hidden or "fight" in context or entry.dice is None or is_sheet_step(context):
        return None
    faces = GivenFaces([int(face) for _size, face in entry.dice.get("rolls", [])])
    if context.get("system") is None:
        from jdr.dice import notation

        params = context.get("params") or {}
        return notation.roll(notation.parse(str(params.get("expression", ""))), faces)
    replayer = replayer_for(str(context.get("system")))
    if not isinstance(replayer, SystemReplayer):
        return None
    return replayer.record(context, faces)
