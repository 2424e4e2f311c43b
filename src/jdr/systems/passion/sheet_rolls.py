"""Passion actions rolled from a stored sheet: `jdr roll|odds|advise passion … --sheet NAME`.

- `action --talent Combat` (or `--potential Corps`): the score that cancels negatives (PS-4).
  Named both ways (`--talent Combat --potential Corps`), the talent is used when the sheet has
  it, else the potential (the explanation says which). After the roll, the sheet keeps what it
  spent (`--energy`: 1 Énergie, `--passion P`: the points the roll used, PS-5) and the XP the
  roll gave the score (PS-17), with the level it changes (PS-18). A roll the sheet cannot pay
  for is refused before any die is rolled.
- `advise action --talent T`: the talent's score.
- `initiative --markers M`: the sheet's mobility potential (PS-9).

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> romuald = tomllib.loads(systems_example("passion", "romuald"))
>>> bound = bind_action("Romuald", romuald, ScoreUses(talent="crochetage"), None)
>>> bound.values, bound.sources["talent"]
({'talent': 7}, 'talent Crochetage 7 (PS-4)')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field

from jdr.errors import InputError, RulesError, UnknownNameError
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.sheets import validate_sheet
from jdr.systems.passion.sheets import Sheet
from jdr.systems.passion.xp import record_roll
from jdr.systems.protocol import Bound, Effect, Json, Lookup, Record, SheetRoll

__all__ = ["SHEET_ROLLS", "ScoreUses", "bind_action"]


class ScoreUses(BaseModel):
    """Which score of the sheet a roll uses (PS-4): a talent, or a potential."""

    talent: str | None = Field(
        default=None,
        description=N_("the talent used, as the sheet names it"),
        json_schema_extra=named("talent", "talent"),
    )
    potential: str | None = Field(
        default=None,
        description=N_("the potential used (or the one to use without the talent)"),
        json_schema_extra=named("potential", "potentiel"),
    )


def _score(sheet: Sheet, uses: ScoreUses) -> tuple[str, int, str]:
    """The score's key on the sheet, its value, and where it comes from in words."""
    if uses.talent is not None:
        key = next((k for k in sheet.talents if sheet.key(uses.talent) == k), None)
        if key is not None:
            return (
                key,
                sheet.talents[key],
                _("talent {name} {score} (PS-4)").format(name=key, score=sheet.talents[key]),
            )
        if uses.potential is None:
            raise UnknownNameError(_("talent"), uses.talent, list(sheet.talents))
    if uses.potential is not None:
        key = sheet.potential_key(uses.potential)
        if key is None:
            raise UnknownNameError(_("potential"), uses.potential, list(sheet.potentials))
        text = _("potential {name} {score} (PS-4)").format(name=key, score=sheet.potentials[key])
        if uses.talent is not None:
            text = _("no talent {talent}: {text}").format(talent=uses.talent, text=text)
        return key, sheet.potentials[key], text
    known = ", ".join([*sheet.talents, *sheet.potentials]) or "-"
    raise InputError("--talent", None, known, _("which talent or potential the sheet uses"))


def bind_action(name: str, sheet: Json, uses: ScoreUses, lookup: Lookup | None) -> Bound:
    """PS-4 from the sheet; PS-5, PS-17 and PS-18 on it after the roll."""
    character = validate_sheet(Sheet, sheet)
    key, score, text = _score(character, uses)

    def check(params: Any) -> None:
        _can_pay(character, params)

    def effects(params: Any, record: Record, sheets: Mapping[str, Json]) -> Sequence[Effect]:
        now = validate_sheet(Sheet, sheets[name])
        _can_pay(now, params)
        spent = int(record.details.get("steps", {}).get("cancelled_by_passion", 0))
        after = now.model_dump()
        rules: list[str] = []
        if getattr(params, "energy", False):
            after["energy"] = {**after["energy"], "current": now.energy.current - 1}
            rules.append("PS-5")
        if spent:
            after["passion"] = {**after["passion"], "current": now.passion.current - spent}
            rules.append("PS-5")
        grown, changes = record_roll(
            validate_sheet(Sheet, after),
            key,
            record.outcome,
            difficulty=getattr(params, "difficulty", 0),
            npc_energy=getattr(params, "npc_energy", 0),
        )
        if changes:
            rules += ["PS-17"] + ["PS-18"] * any(c["type"] == "level_changed" for c in changes)
        if not rules:
            return []
        return [Effect(name, grown.model_dump(mode="json"), tuple(dict.fromkeys(rules)))]

    return Bound({"talent": score}, {"talent": text}, effects, check=check)


def _can_pay(sheet: Sheet, params: Any) -> None:
    """PS-5: the Énergie point and the Passion points must be on the sheet."""
    if getattr(params, "energy", False) and sheet.energy.current < 1:
        raise RulesError(_("{name} has no Énergie left").format(name=sheet.name), "PS-5")
    passion = int(getattr(params, "passion", 0) or 0)
    if passion > sheet.passion.current:
        raise RulesError(
            _("{name} has {left} Passion left, {asked} asked").format(
                name=sheet.name, left=sheet.passion.current, asked=passion
            ),
            "PS-5",
        )


class NoUses(BaseModel):
    """An action that reads only the sheet."""


def bind_initiative(name: str, sheet: Json, uses: NoUses, lookup: Lookup | None) -> Bound:
    """PS-9: the mobility potential the sheet uses."""
    character = validate_sheet(Sheet, sheet)
    mobility = character.role("mobility")
    text = _("{potential} {score} (PS-9)").format(potential=character.uses.mobility, score=mobility)
    return Bound({"mobility": str(mobility)}, {"mobility": text})


SHEET_ROLLS: dict[str, SheetRoll[Any]] = {
    "action": SheetRoll(ScoreUses, bind_action),
    "initiative": SheetRoll(NoUses, bind_initiative),
}
