"""Living sheets: every change to a stored character is a revision, journaled like a roll.

Each use case here reads the character, decides the new sheet (validated by the campaign's
system, as a new sheet is), and writes the revision with its journal entry in one transaction
(`jdr.journal.service.journaled`). If another process changed the sheet meanwhile, the change is
decided again on the new revision (a purchase re-checks the XP left), so two processes never lose
a change; an edit made on an older revision is rebased onto the new one, or refused naming the
fields both changed.

The journal entry of a revision has no dice; its context names the sheet (`sheet`, `character`)
and the step (`action`: `sheet.set`, `sheet.buy` …, `params`), its result the `revision` and the
`changes`. Front ends (the CLI, a web table) call these functions and render what they return.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jdr.characters.binding import SHEET_HASH, check_character, sheet_hash
from jdr.characters.changes import Change, apply, diff, rebase
from jdr.characters.revisions import CREATED, REDONE, SHEET_ACTION, UNDONE, timeline
from jdr.characters.steps import (
    back,
    checked,
    progressed,
    progression_step,
    renamed_sheet,
    set_sheet,
)
from jdr.characters.views import HistoryLine, SheetView, history, show
from jdr.errors import InputError, RulesError
from jdr.i18n import _
from jdr.journal.entries import Entry
from jdr.journal.service import Writes, journaled
from jdr.store import Campaign, Character, SheetRevision, SheetWrite, Store
from jdr.systems.protocol import Json, RuleSystem

__all__ = [
    "Decision",
    "HistoryLine",
    "Revised",
    "SheetView",
    "add",
    "checked",
    "history",
    "progress",
    "redo",
    "remove",
    "rename",
    "replace",
    "revise",
    "set_fields",
    "show",
    "system_of",
    "undo",
]

REMOVED = "removed"


@dataclass(frozen=True)
class Revised:
    """A sheet after one journaled change: the stored character after it (None once removed),
    the revision, its kind and changes, its `data`, and the journal entry."""

    character: Character | None
    revision: int
    kind: str
    changes: list[Change]
    data: Json
    entry: Entry
    before: Json = field(default_factory=dict)
    value: Any = None


@dataclass(frozen=True)
class Decision:
    """What one step makes of a sheet: its kind, the whole sheet after (validated), the
    stored name after, and what else the revision keeps (`reason`, `rules`, `cause` …)."""

    kind: str
    sheet: Json
    name: str
    data: Json = field(default_factory=dict)
    value: Any = None


def system_of(campaign: Campaign) -> RuleSystem:
    """The rule system the campaign plays."""
    from jdr.systems import default_registry

    return default_registry().get(campaign.system)


# --- the one way a sheet changes -------------------------------------------------------------


def revise(
    store: Store,
    campaign: Campaign,
    name: str,
    action: str,
    params: Json,
    decide: Callable[[Character], Decision],
    actor: str | None = None,
    action_id: str | None = None,
) -> Revised:
    """Decide a change on the character's current revision and write it, journaled; decided
    again if another revision landed first (`decide` reads only the character it is given).

    With an `action_id` the journal already holds (an outcome applied before), nothing is
    written again: the revision written then is returned."""
    character = store.character_named(campaign.id, name)
    base = _context(campaign, character, action, params, actor)

    def run(_source: Any) -> tuple[Json, Any, Writes]:
        now = check_character(store, store.character(character.id))
        decision = decide(now)
        write, changes = revision_write(campaign, now, decision, actor)
        result = {"revision": now.version + 1, "changes": changes}
        if "rename" in write.data:
            result["rename"] = write.data["rename"]
        if decision.kind != REMOVED:  # the sheet it leaves, bound into the chain
            result[SHEET_HASH] = sheet_hash(write.name, write.sheet)
        return result, (now, decision, write, changes), Writes(sheets=(write,))

    done = journaled(
        store, campaign, base, run, action_id=action_id, retries=5, same=lambda _entry: True
    )
    if done.replayed:
        result = done.entry.result or {}
        kind = str((done.entry.context or {}).get("action", "")).removeprefix(SHEET_ACTION)
        changes = list(result.get("changes", []))
        return Revised(
            store.character(character.id),
            int(result.get("revision", 0)),
            kind,
            changes,
            {"changes": changes},
            done.entry,
        )
    now, decision, write, changes = done.value
    after = None if decision.kind == REMOVED else store.character(character.id)
    return Revised(
        after,
        now.version + 1,
        decision.kind,
        changes,
        write.data,
        done.entry,
        now.sheet,
        decision.value,
    )


def revision_write(
    campaign: Campaign, now: Character, decision: Decision, actor: str | None
) -> tuple[SheetWrite, list[Change]]:
    """The revision `decision` makes of `now`: what `Store.record` writes, and its changes."""
    changes = diff(now.sheet, decision.sheet)
    data: Json = {"changes": changes, **decision.data}
    if decision.name != now.name:
        data["rename"] = [now.name, decision.name]
    if not changes and "rename" not in data and decision.kind != REMOVED:
        raise RulesError(_("nothing changes on {name}'s sheet").format(name=now.name))
    write = SheetWrite(
        campaign.id, now.id, now.version, decision.kind, data, decision.name, decision.sheet, actor
    )
    return write, changes


def _context(
    campaign: Campaign, character: Character, action: str, params: Json, actor: str | None
) -> Json:
    return {
        "system": campaign.system,
        "sheet": character.name,
        "character": character.id,
        "action": SHEET_ACTION + action,
        "actor": actor,
        "params": params,
    }


# --- the use cases ---------------------------------------------------------------------------


def add(
    store: Store,
    campaign: Campaign,
    data: Mapping[str, Any],
    name: str | None = None,
    label: str = "",
    actor: str | None = None,
) -> Revised:
    """A new character from a sheet's table (validated by the campaign's system): revision 1,
    `created`, journaled with the whole sheet. Stored under `name` (`jdr sheet add --name`),
    the sheet's own `name` says it too (an example's `Pikachu` added as `Évoli` is Évoli)."""
    from jdr.names import check_name
    from jdr.sheet_check import check_sheet, installed
    from jdr.systems import default_registry

    system = system_of(campaign)

    def systems() -> list[RuleSystem]:
        return installed(default_registry())

    model = check_sheet(data, label, system, systems, campaign.name)
    if name and name.strip() and isinstance(data.get("name"), str):  # the sheet says it too
        renamed = {**data, "name": check_name("--name", name.strip())}
        model = check_sheet(renamed, label, system, systems, campaign.name)
    sheet = model.model_dump(mode="json")
    stored_name = (name or _sheet_name(sheet) or label).strip()
    if not stored_name:
        raise InputError("--name", name, _("a name"), _("the sheet has no name: give --name"))
    stored_name = check_name("--name" if name else _("character"), stored_name)
    changes = [{"path": [], "after": sheet}]
    write = SheetWrite(
        campaign.id,
        None,
        0,
        CREATED,
        {"changes": changes, "name": stored_name},
        stored_name,
        sheet,
        actor,
    )
    base = {
        "system": campaign.system,
        "sheet": stored_name,
        "character": None,
        "action": SHEET_ACTION + CREATED,
        "actor": actor,
        "params": {"name": stored_name},
    }

    def run(_source: Any) -> tuple[Json, Any, Writes]:
        result = {"revision": 1, "changes": changes, SHEET_HASH: sheet_hash(stored_name, sheet)}
        return result, None, Writes(sheets=(write,))

    done = journaled(store, campaign, base, run, retries=5)
    character = store.character(done.sheets[0][0])
    return Revised(character, 1, CREATED, changes, write.data, done.entry)


def _sheet_name(sheet: Json) -> str:
    name = sheet.get("name")
    return name if isinstance(name, str) else ""


def set_fields(
    store: Store,
    campaign: Campaign,
    name: str,
    assignments: Sequence[str],
    actor: str | None = None,
    reason: str | None = None,
) -> Revised:
    """`field=value …` set on the sheet, validated as a new sheet is (the field's path in any
    problem); `field=` (nothing after `=`) removes the field, so its default applies."""
    system = system_of(campaign)
    set_sheet(system, {}, assignments, check=False)  # the pairs' form, before reading anything

    def decide(now: Character) -> Decision:
        return Decision("set", set_sheet(system, now.sheet, assignments), now.name, _reason(reason))

    return revise(store, campaign, name, "set", {"set": list(assignments)}, decide, actor)


def _reason(reason: str | None) -> Json:
    return {"reason": reason} if reason else {}


def replace(
    store: Store,
    campaign: Campaign,
    name: str,
    data: Mapping[str, Any],
    base_revision: int | None = None,
    actor: str | None = None,
    label: str = "",
) -> Revised:
    """The sheet replaced by an edited one (`jdr sheet edit`), validated as a new sheet is.

    The edit was made on `base_revision`: if other revisions landed since, its changes are
    rebased onto the current sheet (`jdr.characters.changes.rebase`), and refused naming the
    fields both changed when they cannot be."""
    system = system_of(campaign)
    edited = checked(system, data, label)
    character = store.character_named(campaign.id, name)
    base_sheet = (
        store.sheet_at(character.id, base_revision)[1]
        if base_revision is not None and base_revision != character.version
        else None
    )

    def decide(now: Character) -> Decision:
        if base_sheet is None or base_revision == now.version:
            sheet = edited
        else:
            moved, conflicts = rebase(diff(base_sheet, edited), now.sheet, numbers=False)
            if conflicts:
                raise EditConflictError(now.name, base_revision or 0, now.version, conflicts)
            sheet = checked(system, apply(now.sheet, moved), label)
        return Decision("edited", sheet, now.name, {"base": base_revision} if base_revision else {})

    return revise(store, campaign, name, "edited", {"base": base_revision}, decide, actor)


class EditConflictError(RulesError):
    """An edit made on an older revision that changes a field another revision changed since."""

    def __init__(self, name: str, base: int, now: int, conflicts: Sequence[Change]) -> None:
        from jdr.characters.changes import path_text

        fields = ", ".join(dict.fromkeys(path_text(c["path"]) for c in conflicts))
        super().__init__(
            _(
                "{name}'s sheet changed since revision {base} (now {now}), and so did these"
                " fields of the edit: {fields}"
            ).format(name=name, base=base, now=now, fields=fields)
        )
        self.fields = fields


def rename(
    store: Store, campaign: Campaign, name: str, new_name: str, actor: str | None = None
) -> Revised:
    """The character stored under a new name (refused if another has it, as people type it);
    the sheet's own `name` follows when it was the stored name."""
    from jdr.names import check_name

    wanted = check_name("NEW_NAME", new_name)

    def decide(now: Character) -> Decision:
        return Decision("renamed", renamed_sheet(now.sheet, now.name, wanted), wanted)

    return revise(store, campaign, name, "renamed", {"name": wanted}, decide, actor)


def remove(store: Store, campaign: Campaign, name: str, actor: str | None = None) -> Revised:
    """The character removed (its journal entries stay); refused while it is in a fight that
    has not ended, whose outcome could not land."""
    character = store.character_named(campaign.id, name)
    running = store.running_fights(campaign.id, character.id, character.name)
    if running:
        raise RulesError(
            _(
                "{name} is in fight {fights}, which has not ended: end it first"
                " (jdr fight end {fight})"
            ).format(name=character.name, fights=", ".join(map(str, running)), fight=running[0])
        )

    def decide(now: Character) -> Decision:
        return Decision(REMOVED, now.sheet, now.name)

    return revise(store, campaign, name, REMOVED, {}, decide, actor)


def undo(store: Store, campaign: Campaign, name: str, actor: str | None = None) -> Revised:
    """Take back the last revision not yet undone (never the creation): a revision of its own."""

    def decide(now: Character) -> Decision:
        target = timeline(store.revision_marks(now.id)).last_undoable()
        if target is None:
            raise RulesError(_("nothing to undo on {name}'s sheet").format(name=now.name))
        return _back(now, _revision(store, now, target), UNDONE)

    return revise(store, campaign, name, UNDONE, {}, decide, actor)


def redo(store: Store, campaign: Campaign, name: str, actor: str | None = None) -> Revised:
    """Put back the revision undone last, while no other revision came since."""

    def decide(now: Character) -> Decision:
        line = timeline(store.revision_marks(now.id))
        if not line.redo_stack:
            if line.redo_blocked:
                raise RulesError(
                    _("cannot redo on {name}'s sheet: it changed since the last undo").format(
                        name=now.name
                    )
                )
            raise RulesError(_("nothing to redo on {name}'s sheet").format(name=now.name))
        return _back(now, _revision(store, now, line.redo_stack[-1]), REDONE)

    return revise(store, campaign, name, REDONE, {}, decide, actor)


def _revision(store: Store, character: Character, number: int) -> SheetRevision:
    return store.revisions(character.id, after=number - 1, upto=number)[0]


def _back(now: Character, target: SheetRevision, kind: str) -> Decision:
    """The decision that takes back (`undone`) or puts back (`redone`) `target`'s changes."""
    sheet, name = back(now.sheet, now.name, target.data, kind)
    return Decision(kind, sheet, name, {"target": target.revision})


# --- progression -----------------------------------------------------------------------------


def progress(
    store: Store,
    campaign: Campaign,
    name: str,
    command: str,
    words: Sequence[str],
    pairs: Mapping[str, Any],
    actor: str | None = None,
    reason: str | None = None,
) -> Revised:
    """A progression step of the campaign's system (`buy`, `award`, `year`, `grant`, `rank`)
    on the character: `Decision.value` keeps what the system said (`Progressed`)."""
    from jdr.params import identity

    system = system_of(campaign)
    step, params = progression_step(system, command, words, pairs)
    reason = reason or getattr(params, "reason", None)

    def decide(now: Character) -> Decision:
        done = progressed(system, step, params, now.sheet)
        data: Json = {"command": command, "rules": list(done.rules), "cost": dict(done.cost)}
        return Decision(command, done.sheet, now.name, data | _reason(reason), done)

    return revise(
        store, campaign, name, command, {"command": command, **identity(params)}, decide, actor
    )
