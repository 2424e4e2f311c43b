"""Re-deciding the sheet revisions a journal holds (`jdr verify`): the sheets folded entry by
entry, each step decided again by the same code the sheet service used.

A sheet's journal starts with its creation (the whole sheet); after that, every revision is an
entry: a step of its own (`sheet.set`, `sheet.buy`, `sheet.undone`, a fight's outcome …) or the
`sheets` part of a roll made through it. The ledger keeps each sheet as the journal shows it, so
every later step is checked against what came before: a purchase the XP did not pay for, a set
the rules refuse, a roll's XP credited wrong, or a change whose value before is not the sheet's,
all show as the entry's discrepancy. An edit (`sheet.edited`) is the GM's own text: its changes
are checked to start from the sheet and to give a valid one. A sheet created before the journal
kept sheets is not checked (there is nothing to fold it from).

>>> from jdr.systems import default_registry
>>> ledger = SheetLedger(default_registry().get("poledemos"))
>>> ledger.known(), ledger.find(7, "Nobody") is None
(0, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jdr.characters.binding import SHEET_HASH, sheet_hash
from jdr.characters.changes import apply, diff, rebase, value_at
from jdr.characters.revisions import CREATED, REDONE, SHEET_ACTION, UNDONE, timeline
from jdr.characters.steps import (
    back,
    checked,
    progressed,
    progression_step,
    renamed_sheet,
    set_sheet,
)
from jdr.names import fold
from jdr.systems.protocol import FightEnd, Json, RuleSystem

__all__ = ["SHEET_ACTION", "SheetLedger"]

RENAMED = "renamed"
REMOVED = "removed"


@dataclass
class Tracked:
    """One sheet as the journal shows it: its name, its sheet after each revision, and each
    revision's kind and data."""

    name: str
    id: int | None
    history: list[Json] = field(default_factory=list)
    revisions: list[tuple[int, str, Json]] = field(default_factory=list)

    @property
    def sheet(self) -> Json:
        return self.history[-1]


class SheetLedger:
    """Every sheet of one campaign's journal, folded entry by entry (see the module)."""

    def __init__(self, system: RuleSystem) -> None:
        self.system = system
        self.by_id: dict[int, Tracked] = {}
        self.unlinked: dict[str, Tracked] = {}

    def known(self) -> int:
        return len(self.by_id) + len(self.unlinked)

    def find(self, character_id: Any, name: Any) -> Tracked | None:
        """The sheet `character_id` is (linked by `name` the first time the journal shows its
        id: a creation's entry is written before the id exists)."""
        if isinstance(character_id, int) and character_id in self.by_id:
            return self.by_id[character_id]
        found = self.unlinked.pop(fold(str(name)), None)
        if found is not None and isinstance(character_id, int):
            found.id = character_id
            self.by_id[character_id] = found
        return found

    def named(self, name: str) -> Tracked | None:
        """The sheet whose current name is `name`, as people type it."""
        for tracked in [*self.by_id.values(), *self.unlinked.values()]:
            if fold(tracked.name) == fold(name):
                return tracked
        return None

    # --- a revision's own entry -------------------------------------------------------------

    def revision(self, context: Json, shown: Json, check: bool, fights: Mapping[Any, Any]) -> Any:
        """The result a `sheet.…` entry should show (or `shown` when it cannot be checked), and
        the ledger moved on by what the entry shows."""
        kind = str(context.get("action", "")).removeprefix(SHEET_ACTION)
        if kind == CREATED:
            sheet = (shown.get("changes") or [{}])[0].get("after", {})
            made = checked(self.system, sheet)
            expected: Json = {"revision": 1, "changes": [{"path": [], "after": made}]}
            name = str(context.get("sheet"))
            if SHEET_HASH in shown:
                expected[SHEET_HASH] = sheet_hash(name, made)
            self.unlinked[fold(name)] = Tracked(name, None, [sheet], [(1, CREATED, {})])
            return expected if check else shown
        tracked = self.find(context.get("character"), context.get("sheet"))
        if tracked is None or self._lost(tracked, shown):
            return shown
        try:
            expected = self._decide(tracked, kind, context, shown, fights) if check else shown
        finally:
            self._move(tracked, kind, shown)
        return expected

    def _decide(
        self, tracked: Tracked, kind: str, context: Json, shown: Json, fights: Mapping[Any, Any]
    ) -> Json:
        params = dict(context.get("params") or {})
        sheet, name = tracked.sheet, tracked.name
        if kind == "set":
            after = set_sheet(self.system, sheet, params.get("set", []))
        elif kind == RENAMED:
            name = str(params.get("name"))
            after = renamed_sheet(sheet, tracked.name, name)
        elif kind in (UNDONE, REDONE):
            after, name = back(sheet, name, self._target(tracked, kind), kind)
        elif kind == REMOVED:
            after = sheet
        elif kind == "fight":
            after = apply(sheet, self._fight(tracked, params, fights))
        elif kind in (getattr(self.system, "progression", {}) or {}):
            words = {k: v for k, v in params.items() if k != "command"}
            step, values = progression_step(self.system, kind, [], words)
            after = progressed(self.system, step, values, sheet).sheet
        else:  # an edit: the GM's text, checked to start from the sheet and to give a valid one
            changes = [
                {"path": c["path"], "before": value_at(sheet, c["path"]), **_after(c)}
                for c in shown.get("changes", [])
            ]
            after = checked(self.system, apply(sheet, changes))
        expected: Json = {"revision": len(tracked.revisions) + 1, "changes": diff(sheet, after)}
        if name != tracked.name:
            expected["rename"] = [tracked.name, name]
        if SHEET_HASH in shown and kind != REMOVED:  # the sheet it left, as the ledger has it
            expected[SHEET_HASH] = sheet_hash(name, after)
        return expected

    def _target(self, tracked: Tracked, kind: str) -> Json:
        number = _target(tracked, kind)
        if number is None:
            return {}
        return tracked.revisions[number - 1][2]

    def _fight(self, tracked: Tracked, params: Json, fights: Mapping[Any, Any]) -> list[Any]:
        """A fighter's outcome again: from each fighter's sheet at the revision it started the
        fight from, and the fight's events as the journal shows them."""
        from jdr.fights.fold import fold as fold_fight
        from jdr.fights.timeline import Timeline

        rules, compute = self.system.fight, getattr(self.system, "fight_outcome", None)
        carried = fights.get(params.get("fight"))
        stored = None if carried is None else carried.log
        if rules is None or compute is None or stored is None:
            return []
        start = {}
        for name, (character_id, revision) in (params.get("fighters") or {}).items():
            fighter = self.find(character_id, name)
            if fighter is not None and 0 < revision <= len(fighter.history):
                start[name] = fighter.history[revision - 1]
        line = Timeline.of(stored)
        opening = next(iter(line.actions.values()), [])
        end = FightEnd(start, fold_fight(rules, opening), fold_fight(rules, line.effective()))
        effect = compute(end).get(str(params.get("fighter")))
        mine = start.get(str(params.get("fighter")))
        if effect is None or mine is None:
            return []
        moved, _conflicts = rebase(diff(mine, effect.sheet), tracked.sheet)
        return moved

    def _lost(self, tracked: Tracked, shown: Json) -> bool:
        """Whether the journal shows a revision the ledger did not see come (a hidden roll made
        through the sheet, not disclosed yet): the sheet is then no longer checked."""
        if shown.get("revision") == len(tracked.revisions) + 1:
            return False
        if tracked.id is not None:
            self.by_id.pop(tracked.id, None)
        return True

    def _move(self, tracked: Tracked, kind: str, shown: Json) -> None:
        number = len(tracked.revisions) + 1
        data: Json = {"changes": shown.get("changes", [])}
        if kind in (UNDONE, REDONE):
            data["target"] = _target(tracked, kind)
        rename = shown.get("rename")
        if rename:  # an undo of this revision gives the name back too
            data["rename"] = list(rename)
        tracked.revisions.append((number, kind, data))
        tracked.history.append(apply(tracked.sheet, data["changes"]))
        if rename:
            tracked.name = str(rename[1])
        if kind == REMOVED and tracked.id is not None:
            self.by_id.pop(tracked.id, None)

    # --- the sheets part of a roll made through a sheet -------------------------------------

    def roll(self, context: Json, params: Any, record: Any, shown: list[Json], check: bool) -> Any:
        """The `sheets` a roll made through a sheet should show (`shown` when it cannot be
        checked), and the ledger moved on by what the entry shows."""
        tracked = self.find(context.get("character"), context.get("sheet"))
        lost = False
        for each in shown:  # link the other sheets the roll changed by their ids
            other = self.find(each.get("character"), each.get("sheet"))
            lost = lost or (other is not None and self._lost(other, each))
        expected: Any = shown
        try:
            if check and tracked is not None and not lost:
                hashed = any(SHEET_HASH in each for each in shown)
                expected = self._roll(tracked, context, params, record, hashed)
        finally:
            for each in shown:
                moved = self.by_id.get(int(each.get("character") or 0))
                if moved is not None:
                    self._move(moved, "rolled", each)
        return expected

    def _roll(
        self, tracked: Tracked, context: Json, params: Any, record: Any, hashed: bool
    ) -> list[Json]:
        from jdr.params import validate_params

        binding = (getattr(self.system, "sheet_rolls", {}) or {})[str(context.get("action"))]
        uses = validate_params(binding.uses, dict(context.get("uses") or {}))
        involved = {tracked.name: tracked}

        def lookup(name: str) -> tuple[str, Json]:
            found = self.named(name)
            if found is None:
                raise KeyError(name)
            involved[found.name] = found
            return found.name, found.sheet

        bound = binding.bind(tracked.name, tracked.sheet, uses, lookup)
        if bound.effects is None:
            return []
        sheets = {name: each.sheet for name, each in involved.items()}
        changed = []
        for effect in bound.effects(params, record, sheets):
            each = involved[effect.name]
            after = checked(self.system, effect.sheet)
            changes = diff(each.sheet, after)
            if changes:
                item = {
                    "character": each.id,
                    "sheet": each.name,
                    "revision": len(each.revisions) + 1,
                    "changes": changes,
                    "rules": list(effect.rules),
                }
                if hashed:
                    item[SHEET_HASH] = sheet_hash(each.name, after)
                changed.append(item)
        return changed


def _target(tracked: Tracked, kind: str) -> int | None:
    """The revision an undo takes back, or a redo puts back, as the service chose it."""
    line = timeline(tracked.revisions)
    if kind == UNDONE:
        return line.last_undoable()
    return line.redo_stack[-1] if line.redo_stack else None


def _after(change: Json) -> Json:
    return {"after": change["after"]} if "after" in change else {}
