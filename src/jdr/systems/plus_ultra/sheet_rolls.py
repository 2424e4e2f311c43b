"""Plus Ultra actions rolled from stored sheets: `jdr roll|odds plus-ultra … --sheet NAME`.

A stored sheet holds the gauges' maxima, and every fight starts there (PU-1): a roll from a sheet
uses them as the current gauges, and changes nothing on the sheet (gauges reset at the next fight).

- `attack [--target NAME]`: the attacker's Volonté and rank (PU-3, PU-4), the target's Énergie
  (PU-4), both names for the recap (PU-11).
- `protect`: the protector's Énergie (PU-6). `rank`: the sheet's rank and maxima (PU-2).
- `duel --target NAME`: both sides' rank and gauges (PU-4).

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> kaito = tomllib.loads(systems_example("plus-ultra", "hero"))
>>> bind_attack("Kaito Arashi", kaito, TargetUses(), None).values
{'willpower': 8, 'rank': 'C', 'attacker': 'Kaito Arashi'}
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from jdr.errors import InputError
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.sheets import validate_sheet
from jdr.systems.plus_ultra.sheets import Character
from jdr.systems.protocol import Bound, Json, Lookup, SheetRoll

__all__ = ["SHEET_ROLLS", "TargetUses", "bind_attack"]


class TargetUses(BaseModel):
    """Whom the roll is against: another stored character of the campaign."""

    target: str | None = Field(
        default=None,
        description=N_("the target: a stored character"),
        json_schema_extra=named("target", "cible"),
    )


def _target(uses: TargetUses, lookup: Lookup | None) -> tuple[str, Character] | None:
    if uses.target is None or lookup is None:
        return None
    name, sheet = lookup(uses.target)
    return name, validate_sheet(Character, sheet)


def _gauge(name: str, gauge: str, value: int) -> str:
    return _("{name}: {gauge} {value} (the maximum: each fight starts there, PU-1)").format(
        name=name, gauge=gauge, value=value
    )


def bind_attack(name: str, sheet: Json, uses: TargetUses, lookup: Lookup | None) -> Bound:
    """PU-3, PU-4 from the attacker's sheet, and the target's if named."""
    hero = validate_sheet(Character, sheet)
    values: dict[str, Any] = {"willpower": hero.willpower, "rank": hero.rank, "attacker": name}
    sources = {
        "willpower": _gauge(name, "Volonté", hero.willpower),
        "rank": _("{name}: rank {rank} (PU-3)").format(name=name, rank=hero.rank),
        "attacker": name,
    }
    found = _target(uses, lookup)
    others: tuple[str, ...] = ()
    if found is not None:
        target_name, target = found
        others = (target_name,)
        values |= {"target_energy": target.energy, "target": target_name}
        sources |= {
            "target_energy": _gauge(target_name, "Énergie", target.energy),
            "target": target_name,
        }
    return Bound(values, sources, None, others)


def bind_protect(name: str, sheet: Json, uses: TargetUses, lookup: Lookup | None) -> Bound:
    """PU-6: the protector's Énergie; the attacker's rank when the attacker is named."""
    hero = validate_sheet(Character, sheet)
    values: dict[str, Any] = {"protector_energy": hero.energy}
    sources = {"protector_energy": _gauge(name, "Énergie", hero.energy)}
    found = _target(uses, lookup)
    others: tuple[str, ...] = ()
    if found is not None:
        attacker_name, attacker = found
        others = (attacker_name,)
        values |= {"rank": attacker.rank, "willpower": attacker.willpower}
        sources |= {
            "rank": _("{name}: rank {rank} (PU-3)").format(name=attacker_name, rank=attacker.rank),
            "willpower": _gauge(attacker_name, "Volonté", attacker.willpower),
        }
    return Bound(values, sources, None, others)


def bind_rank(name: str, sheet: Json, uses: BaseModel, lookup: Lookup | None) -> Bound:
    """PU-2: the sheet's rank and maxima, checked."""
    hero = validate_sheet(Character, sheet)
    values = {"rank": hero.rank, "energy": hero.energy, "willpower": hero.willpower}
    return Bound(values, {key: name for key in values})


def _spec(hero: Character) -> str:
    return f"rank={hero.rank},energy={hero.energy},willpower={hero.willpower}"


def bind_duel(name: str, sheet: Json, uses: TargetUses, lookup: Lookup | None) -> Bound:
    """PU-4 duel: side a is the sheet, side b the target, both at their maxima (PU-1)."""
    hero = validate_sheet(Character, sheet)
    found = _target(uses, lookup)
    if found is None:
        raise InputError("--target", None, _("a stored character"), _("who the duel is against"))
    target_name, target = found
    return Bound(
        {"a": _spec(hero), "b": _spec(target)},
        {"a": name, "b": target_name},
        None,
        (target_name,),
    )


class NoUses(BaseModel):
    """An action that reads only the sheet."""


SHEET_ROLLS: dict[str, SheetRoll[Any]] = {
    "attack": SheetRoll(TargetUses, bind_attack),
    "protect": SheetRoll(TargetUses, bind_protect),
    "rank": SheetRoll(NoUses, bind_rank),
    "duel": SheetRoll(TargetUses, bind_duel),
}
