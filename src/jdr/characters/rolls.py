"""Rolling from a stored sheet: the action's parameters read from the character, and what the
roll changes written back, in the same transaction as the roll's journal entry.

`bind` reads the parameters (`System.sheet_rolls[action].bind`), lets the options given override
them, and says where each value it kept came from; `roll` rolls through the campaign's journal
(the context names the sheet and what it used), then writes a revision (`rolled`) for each sheet
the roll changed. If a sheet changed meanwhile, the roll is made again on the new revision (new
dice), so a spent point is never spent twice. `jdr odds` and `jdr advise` use `bind` alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from jdr.characters.binding import SHEET_HASH, named, sheet_hash
from jdr.characters.changes import diff
from jdr.characters.service import Decision, checked, revision_write
from jdr.errors import InputError, RulesError
from jdr.i18n import _
from jdr.journal.service import Rolled, Who, Writes, check_system
from jdr.journal.service import roll as journal_roll
from jdr.params import identity, validate_params
from jdr.store import Campaign, Character, Store
from jdr.systems.protocol import Action, Bound, Json, RuleSystem, SheetRoll

__all__ = ["FromSheet", "SheetRolled", "bind", "roll", "sheet_roll_of"]

ROLLED = "rolled"


@dataclass(frozen=True)
class FromSheet:
    """An action's parameters read from a stored sheet: the character, the validated `params`,
    what was used (`uses`), and each value kept from the sheets with where it came from."""

    character: Character
    params: Any
    uses: Json
    used: Mapping[str, tuple[Any, str]]
    bound: Bound
    others: Mapping[str, Character] = field(default_factory=dict)


@dataclass(frozen=True)
class SheetRolled:
    """A roll made through a sheet: the roll, where its values came from, and each sheet it
    changed (`{"character", "sheet", "revision", "changes", "rules"}`)."""

    rolled: Rolled
    source: FromSheet
    changed: list[Json]
    after: list[Json] = field(default_factory=list)
    """Each changed sheet after the roll (to name list items in its changes)."""


def sheet_roll_of(system: RuleSystem, action: str) -> SheetRoll[Any]:
    """How `action` rolls from a sheet; an `InputError` naming the actions that do, if it
    does not."""
    rolls: Mapping[str, SheetRoll[Any]] = getattr(system, "sheet_rolls", {}) or {}
    found = rolls.get(action)
    if found is None:
        raise InputError(
            "--sheet",
            f"{system.id} {action}",
            ", ".join(rolls) or "-",
            _("this action does not read a sheet"),
        )
    return found


def bind(
    store: Store,
    campaign: Campaign,
    system: RuleSystem,
    action: str,
    model: type[BaseModel],
    sheet: str,
    raw: Mapping[str, Any],
    uses: Mapping[str, Any],
    name: Any = str,
) -> FromSheet:
    """The parameters of `action` (as `model`) from the character `sheet`: the sheet's values,
    overridden by the options given (`raw`); `uses` says what to use (`--stat`, `--target` …).
    `name` shows a field the way the user types it (`--attack-dice`)."""
    check_system(campaign, system)
    binding = sheet_roll_of(system, action)
    what = validate_params(binding.uses, dict(uses), name)
    character = named(store, campaign.id, sheet)
    others: dict[str, Character] = {}

    def lookup(other: str) -> tuple[str, Json]:
        found = named(store, campaign.id, other)
        others[found.name] = found
        return found.name, found.sheet

    bound = binding.bind(character.name, character.sheet, what, lookup)
    from_sheet = {k: v for k, v in bound.values.items() if k in model.model_fields}
    params = validate_params(model, {**from_sheet, **raw}, name)
    if bound.check is not None:
        bound.check(params)
    used = {
        k: (v, bound.sources.get(k, character.name)) for k, v in from_sheet.items() if k not in raw
    }
    return FromSheet(character, params, identity(what), used, bound, others)


def roll(
    store: Store,
    campaign: Campaign,
    system: RuleSystem,
    action: Action[Any],
    sheet: str,
    raw: Mapping[str, Any],
    uses: Mapping[str, Any],
    who: Who,
    rng: Any = None,
    name: Any = str,
) -> SheetRolled:
    """Roll `action` from the character `sheet` through the campaign's journal, and write what
    it changes on the sheets (see the module's docstring). The roller is the character unless
    `who.actor` names another."""
    source = bind(store, campaign, system, action.name, action.params, sheet, raw, uses, name)
    character = source.character
    ids = {character.name: character.id, **{n: c.id for n, c in source.others.items()}}
    changed: list[Json] = []
    after_sheets: list[Json] = []

    def then(record: Any) -> tuple[Json, Writes]:
        now = {n: store.character(i) for n, i in ids.items()}
        effects = source.bound.effects
        found = (
            effects(source.params, record, {n: c.sheet for n, c in now.items()}) if effects else []
        )
        writes = []
        changed.clear()
        after_sheets.clear()
        for effect in found:
            current = now.get(effect.name)
            if current is None:
                raise RulesError(_("{name} is not a sheet this roll read").format(name=effect.name))
            after = checked(system, effect.sheet)
            data = {"rules": list(effect.rules), "cause": {"action": action.name}}
            if not diff(current.sheet, after):
                continue
            decision = Decision(ROLLED, after, current.name, data)
            write, changes = revision_write(campaign, current, decision, who.actor)
            writes.append(write)
            after_sheets.append(after)
            changed.append(
                {
                    "character": current.id,
                    "sheet": current.name,
                    "revision": current.version + 1,
                    "changes": changes,
                    "rules": list(effect.rules),
                    SHEET_HASH: sheet_hash(write.name, write.sheet),
                }
            )
        extra = {"sheets": list(changed)} if changed else {}
        return extra, Writes(sheets=tuple(writes))

    context = {"sheet": character.name, "character": character.id, "uses": source.uses}
    rolled = journal_roll(
        store,
        campaign,
        system,
        action,
        source.params,
        actor=who.actor or character.name,
        action_id=who.action_id,
        client_seed=who.client_seed,
        hidden=who.hidden,
        rng=rng,
        context=context,
        then=then,
    )
    if rolled.replayed:  # an action id asked again: the roll and its changes were written then
        changed = list((rolled.entry.result or {}).get("sheets", []))
        after_sheets = [store.character(each["character"]).sheet for each in changed]
    return SheetRolled(rolled, source, changed, after_sheets)
