"""Pokémon actions rolled from stored sheets: `jdr roll pokemon ACTION --sheet NAME …`.

- `check --stat dexterity [--skill Escalade]`: one d10 per point of the stat (EVs added) and of
  the skill (PK-1).
- `attack --move Fatal-Foudre [--target Carapuce] [--defence endure|dodge]`: Force or
  Concentration (PK-10), the move's damage dice, type and high critical, the user's types (STAB)
  and the target's (PK-11), the target's endure or dodge dice (PK-12, PK-13). The user pays the
  move's Énergie (PK-10: refused with too little); the target loses the Vitalité the roll says.
- `initiative`: Dextérité (PK-5). `capture --target NAME`: the target's Vitalité in % and its
  conditions (PK-20); a trainer who captures it gets it in its `pokemon` list.

Stats are the ones a roll uses now: EVs added (PK-22), Force halved by a burn, Dextérité divided by
4 by paralysis (PK-16).

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> pikachu = tomllib.loads(systems_example("pokemon", "pokemon"))
>>> bound = bind_check("Pikachu", pikachu, CheckUses(stat="Dextérité", skill="athletisme"), None)
>>> bound.values, bound.sources["dice"]
({'dice': 6}, 'dexterity 5 (4 + 1 EV) + Athlétisme 1 (PK-1)')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from jdr.errors import InputError, RulesError, UnknownNameError
from jdr.i18n import N_, _, labelled
from jdr.labels import named
from jdr.names import fold
from jdr.systems.pokemon.attack import DEFENCES
from jdr.systems.pokemon.sheet_files import sheet_of
from jdr.systems.pokemon.sheets import (
    STAT_NAMES,
    Move,
    Pokemon,
    Sheet,
    Trainer,
    effective_stats,
    shown_names,
    stat_id,
)
from jdr.systems.protocol import Bound, Effect, Json, Lookup, Record, SheetRoll

__all__ = ["SHEET_ROLLS", "AttackUses", "CaptureUses", "CheckUses", "bind_attack", "bind_check"]


def roll_stat(sheet: Sheet, stat: str) -> tuple[int, str]:
    """A stat as a roll uses it now, and where it comes from in words (PK-16, PK-22)."""
    base = getattr(sheet.stats, stat)
    evs = sheet.evs.get(stat, 0)  # type: ignore[call-overload]
    value = getattr(effective_stats(sheet), stat)
    text = f"{shown_names([stat])[0]} {value}"
    if evs:
        text += " " + _("({base} + {evs} EV)").format(base=base, evs=evs)
    condition = getattr(sheet, "condition", None)
    if stat == "strength" and condition == "burn":
        value = max(1, value // 2)
        text += " " + _("halved by a burn: {value}").format(value=value)
    if stat == "dexterity" and condition == "paralysis":
        value = max(1, value // 4)
        text += " " + _("divided by 4 by paralysis: {value}").format(value=value)
    return value, text


class CheckUses(BaseModel):
    """What `check --sheet NAME` rolls: a stat, and a skill if any (PK-1)."""

    stat: str | None = Field(
        default=None,
        description=N_("the stat rolled, French or English (dexterity, Dextérité)"),
        json_schema_extra=named("stat", "caractéristique"),
    )
    skill: str | None = Field(
        default=None,
        description=N_("the skill added, as the sheet names it"),
        json_schema_extra=named("skill", "compétence"),
    )


def bind_check(name: str, sheet: Json, uses: CheckUses, lookup: Lookup | None) -> Bound:
    """PK-1: the pool is the stat plus the skill."""
    model = sheet_of(dict(sheet))
    if uses.stat is None:
        known = ", ".join(shown_names(STAT_NAMES))
        raise InputError("--stat", None, known, _("which stat the sheet rolls"))
    dice, text = roll_stat(model, stat_id(uses.stat))
    if uses.skill is not None:
        skill = next((s for s in model.skills if fold(s) == fold(uses.skill)), None)
        if skill is None:
            raise UnknownNameError(_("skill"), uses.skill, list(model.skills))
        dice += model.skills[skill]
        text += f" + {skill} {model.skills[skill]}"
    return Bound({"dice": dice}, {"dice": f"{text} (PK-1)"})


class AttackUses(BaseModel):
    """What `attack --sheet NAME` uses: a move, a target, its defence (PK-10 … PK-13)."""

    move: str | None = Field(
        default=None,
        description=N_("the move used, as the sheet names it"),
        json_schema_extra=named("move", "capacité"),
    )
    target: str | None = Field(
        default=None,
        description=N_("the defender: another stored Pokémon of the campaign"),
        json_schema_extra=named("target", "cible"),
    )
    defence: Literal["endure", "dodge"] | None = Field(
        default=None,
        description=N_("the target endures (PK-12) or dodges (PK-13)"),
        json_schema_extra=named("defence", "défense", DEFENCES),
    )


def _pokemon(sheet: Json, field: str, name: str) -> Pokemon:
    model = sheet_of(dict(sheet))
    if not isinstance(model, Pokemon):
        raise InputError(field, name, _("a Pokémon"), _("a trainer does not fight"))
    return model


def _move(pokemon: Pokemon, name: str | None) -> Move:
    names = [move.name for move in pokemon.moves]
    if name is None:
        raise InputError("--move", None, ", ".join(names) or "-", _("which move the sheet uses"))
    found = next((m for m in pokemon.moves if fold(m.name) == fold(name)), None)
    if found is None:
        raise UnknownNameError(_("move"), name, names)
    return found


def _pay(pokemon: Pokemon, move: Move) -> None:
    if pokemon.energy.current < move.energy:
        raise RulesError(
            _("{name} has {energy} Énergie left, {move} costs {cost}").format(
                name=pokemon.name, energy=pokemon.energy.current, move=move.name, cost=move.energy
            ),
            "PK-10",
        )


def bind_attack(name: str, sheet: Json, uses: AttackUses, lookup: Lookup | None) -> Bound:
    """PK-10 … PK-13 from the user's sheet, its move, and the target's sheet if any."""
    user = _pokemon(sheet, "--sheet", name)
    move = _move(user, uses.move)
    if move.category == "statut":
        raise InputError(
            "--move",
            move.name,
            _("a physical or special move"),
            _("a status move deals no damage: play it in a fight"),
        )
    _pay(user, move)
    stat = "strength" if move.category == "physique" else "concentration"
    attack_dice, attack_text = roll_stat(user, stat)
    values: dict[str, Any] = {
        "attack_dice": attack_dice,
        "damage_dice": move.damage_dice,
        "move_type": move.type,
        "user_types": "/".join(user.types),
        "high_crit": move.high_crit,
    }
    sources = {
        "attack_dice": f"{attack_text} (PK-10)",
        "damage_dice": _("{move}: {n} damage dice").format(move=move.name, n=move.damage_dice),
        "move_type": _("{move}'s type").format(move=move.name),
        "user_types": _("{name}'s types (STAB, PK-11)").format(name=user.name),
        "high_crit": move.name,
    }
    if move.accuracy < 100:  # PK-9: the accuracy d100 comes first
        values["accuracy"] = move.accuracy
        sources["accuracy"] = _("{move}: accuracy {accuracy} % (PK-9)").format(
            move=move.name, accuracy=move.accuracy
        )
    others: tuple[str, ...] = ()
    if uses.target is not None:
        if lookup is None:
            raise InputError("--target", uses.target, _("a stored Pokémon"), _("no campaign"))
        target_name, target_sheet = lookup(uses.target)
        target = _pokemon(target_sheet, "--target", target_name)
        others = (target_name,)
        values["defender_types"] = "/".join(target.types)
        sources["defender_types"] = _("{name}'s types (PK-11)").format(name=target_name)
        if uses.defence is not None:
            if uses.defence == "dodge":
                dice, text = roll_stat(target, "dexterity")
                values["dodge_dice"], sources["dodge_dice"] = (
                    dice,
                    labelled(target_name, f"{text} (PK-13)"),
                )
            else:
                stat = "constitution" if move.category == "physique" else "willpower"
                dice, text = roll_stat(target, stat)
                values["endure_dice"] = dice
                sources["endure_dice"] = labelled(target_name, f"{text} (PK-12)")
    elif uses.defence is not None:
        raise InputError(
            "--defence", uses.defence, "--target NAME", _("who defends: give --target")
        )

    def effects(params: Any, record: Record, sheets: Mapping[str, Json]) -> Sequence[Effect]:
        now = _pokemon(sheets[name], "--sheet", name)
        used = _move(now, move.name)
        _pay(now, used)
        energy = {"current": now.energy.current - used.energy, "max": now.energy.max}
        done = [Effect(name, {**sheets[name], "energy": energy}, ("PK-10",))]
        lost = int(record.totals.get("vitality_lost") or 0)
        if others and lost:
            struck = _pokemon(sheets[others[0]], "--target", others[0])
            left = max(0, struck.vitality.current - lost)
            vitality = {"current": left, "max": struck.vitality.max}
            defence = {"endure": "PK-12", "dodge": "PK-13"}.get(str(record.totals.get("defence")))
            rules = ("PK-10", "PK-11", *([defence] if defence else []))
            done.append(Effect(others[0], {**sheets[others[0]], "vitality": vitality}, rules))
        return done

    return Bound(values, sources, effects, others)


def bind_initiative(name: str, sheet: Json, uses: BaseModel, lookup: Lookup | None) -> Bound:
    """PK-5: 1d10 + Dextérité."""
    dexterity, text = roll_stat(sheet_of(dict(sheet)), "dexterity")
    return Bound({"dexterity": dexterity}, {"dexterity": f"{text} (PK-5)"})


class NoUses(BaseModel):
    """An action that reads only the sheet."""


class CaptureUses(BaseModel):
    """What `capture --sheet TRAINER --target NAME` reads of the wild Pokémon (PK-20)."""

    target: str | None = Field(
        default=None,
        description=N_("the Pokémon to capture, stored"),
        json_schema_extra=named("target", "cible"),
    )


def bind_capture(name: str, sheet: Json, uses: CaptureUses, lookup: Lookup | None) -> Bound:
    """PK-20: the target's Vitalité in % and its conditions lower the difficulty."""
    if uses.target is None or lookup is None:
        raise InputError("--target", None, _("a stored Pokémon"), _("which Pokémon is captured"))
    target_name, target_sheet = lookup(uses.target)
    target = _pokemon(target_sheet, "--target", target_name)
    conditions = [c for c in [target.condition, *target.volatile] if c]
    pct = 100 * target.vitality.current / target.vitality.max
    values: dict[str, Any] = {"vitality_pct": round(pct, 6)}
    sources = {
        "vitality_pct": _("{name}: Vitalité {current}/{max} (PK-20)").format(
            name=target_name, current=target.vitality.current, max=target.vitality.max
        )
    }
    if conditions:
        values["condition"] = conditions
        sources["condition"] = _("{name}'s conditions (PK-20)").format(name=target_name)

    def effects(params: Any, record: Record, sheets: Mapping[str, Json]) -> Sequence[Effect]:
        trainer = sheet_of(dict(sheets[name]))
        if record.outcome != "captured" or not isinstance(trainer, Trainer):
            return []
        if any(fold(p) == fold(target_name) for p in trainer.pokemon):
            return []
        carried = [*trainer.pokemon, target_name]
        return [Effect(name, {**sheets[name], "pokemon": carried}, ("PK-19",))]

    return Bound(values, sources, effects, (target_name,))


SHEET_ROLLS: dict[str, SheetRoll[Any]] = {
    "check": SheetRoll(CheckUses, bind_check),
    "attack": SheetRoll(AttackUses, bind_attack),
    "initiative": SheetRoll(NoUses, bind_initiative),
    "capture": SheetRoll(CaptureUses, bind_capture),
}
