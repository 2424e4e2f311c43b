"""Ilvermorny actions rolled from a stored wizard: `jdr roll ilvermorny ACTION --sheet NAME …`.

- `test --stat magic`: the stat's value (IL-2).
- `cast --spell Expelliarmus`: Magie, the spell's level, difficulty and XP (IL-6); the cast's XP
  lands on the spell and buys every level it pays for (IL-7, IL-8). A spell at level 0 is not
  learnt: the GM grants level 1 first (`jdr sheet grant`).
- `study --spell Protego --hours 3`: Compréhension and Résolution (IL-9); the XP lands on the
  spell, levels bought as for a cast.
- `duel --spell Expelliarmus --target NAME --target-spell Protego`: both Magie and elements
  (IL-10, IL-11).

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> mary = tomllib.loads(systems_example("ilvermorny", "wizard"))
>>> bound = bind_cast("Seraphina Quill", mary, SpellUses(spell="expelliarmus"), None)
>>> bound.values
{'magic': 7, 'level': 2, 'difficulty_of_spell': 2, 'xp': 31}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field

from jdr.errors import InputError
from jdr.i18n import N_, _, labelled
from jdr.labels import named
from jdr.systems.ilvermorny.progression import gain_xp
from jdr.systems.ilvermorny.rules import STAT_LABELS, STATS, stat_id
from jdr.systems.ilvermorny.sheets import Spell, Wizard, wizard_from
from jdr.systems.ilvermorny.spells import check_learnt
from jdr.systems.protocol import Bound, Effect, Json, Lookup, Record, SheetRoll

__all__ = ["SHEET_ROLLS", "SpellUses", "StatUses", "bind_cast", "bind_study", "bind_test"]


def _stat_text(wizard: Wizard, stat: str) -> tuple[int, str]:
    value = wizard.stats.get(stat)
    return value, f"{_(STAT_LABELS[stat])} {value} (IL-1)"


class StatUses(BaseModel):
    """What `test --sheet NAME` tests: a stat (IL-2)."""

    stat: str | None = Field(
        default=None,
        description=N_("the stat tested (magic, Magie …)"),
        json_schema_extra=named("stat", "caractéristique"),
    )


def bind_test(name: str, sheet: Json, uses: StatUses, lookup: Lookup | None) -> Bound:
    """IL-2: the stat's value from the sheet."""
    wizard = wizard_from(sheet)
    found = stat_id(uses.stat) if uses.stat is not None else None
    if found is None:
        known = ", ".join(_(STAT_LABELS[stat]) for stat in STATS)
        raise InputError("--stat", uses.stat, known, _("which stat the sheet tests"))
    value, text = _stat_text(wizard, found)
    return Bound({"stat": value}, {"stat": text})


class SpellUses(BaseModel):
    """What `cast` and `study --sheet NAME` use: a spell of the sheet (IL-5)."""

    spell: str | None = Field(
        default=None,
        description=N_("the spell, as the sheet names it"),
        json_schema_extra=named("spell", "sort"),
    )


def _spell(wizard: Wizard, name: str | None) -> Spell:
    if name is None:
        known = ", ".join(spell.name for spell in wizard.spells) or "-"
        raise InputError("--spell", None, known, _("which spell of the sheet"))
    return wizard.spell(name)


def _xp_effects(name: str, spell: str, key: str, rule: str) -> Any:
    """The spell's XP from the record's `key`, and the levels it buys (IL-8)."""

    def effects(params: Any, record: Record, sheets: Mapping[str, Json]) -> Sequence[Effect]:
        gained = int(record.totals.get(key) or 0)
        step = gain_xp(wizard_from(sheets[name]), spell, gained, rule)
        if not gained:
            return []
        return [Effect(name, step.sheet.model_dump(mode="json"), (rule, "IL-8"))]

    return effects


def bind_cast(name: str, sheet: Json, uses: SpellUses, lookup: Lookup | None) -> Bound:
    """IL-6 with the sheet's Magie and the spell's level; IL-7 and IL-8 after the roll."""
    wizard = wizard_from(sheet)
    spell = _spell(wizard, uses.spell)
    check_learnt(spell.level)
    magic, text = _stat_text(wizard, "magic")
    values = {
        "magic": magic,
        "level": spell.level,
        "difficulty_of_spell": spell.difficulty,
        "xp": spell.xp,
    }
    sources = {
        "magic": text,
        "level": _("{spell}: level {level} (IL-5)").format(spell=spell.name, level=spell.level),
        "difficulty_of_spell": _("{spell}: difficulty {d}").format(
            spell=spell.name, d=spell.difficulty
        ),
        "xp": _("{spell}: {xp} XP kept").format(spell=spell.name, xp=spell.xp),
    }
    return Bound(values, sources, _xp_effects(name, spell.name, "xp_gained", "IL-7"))


def bind_study(name: str, sheet: Json, uses: SpellUses, lookup: Lookup | None) -> Bound:
    """IL-9 with the sheet's Compréhension and Résolution; the XP lands on the spell."""
    wizard = wizard_from(sheet)
    spell = _spell(wizard, uses.spell)
    check_learnt(spell.level)
    values, sources = {}, {}
    for stat in ("comprehension", "resolution"):
        values[stat], sources[stat] = _stat_text(wizard, stat)
    return Bound(values, sources, _xp_effects(name, spell.name, "xp", "IL-9"))


class DuelUses(BaseModel):
    """What `duel --sheet NAME` uses: a spell, the opponent, and the opponent's spell."""

    spell: str | None = Field(
        default=None,
        description=N_("the spell, as the sheet names it"),
        json_schema_extra=named("spell", "sort"),
    )
    target: str | None = Field(
        default=None,
        description=N_("the opponent: a stored wizard"),
        json_schema_extra=named("opponent", "adversaire"),
    )
    target_spell: str | None = Field(
        default=None,
        description=N_("the opponent's spell"),
        json_schema_extra=named("opponent's spell", "sort de l'adversaire"),
    )


def bind_duel(name: str, sheet: Json, uses: DuelUses, lookup: Lookup | None) -> Bound:
    """IL-10, IL-11: each duelist's Magie and spell element."""
    wizard = wizard_from(sheet)
    spell = _spell(wizard, uses.spell)
    magic, text = _stat_text(wizard, "magic")
    values: dict[str, Any] = {"magic_a": magic, "element_a": spell.element}
    sources = {"magic_a": text, "element_a": f"{spell.name} ({spell.element})"}
    others: tuple[str, ...] = ()
    if uses.target is not None and lookup is not None:
        other_name, other_sheet = lookup(uses.target)
        other = wizard_from(other_sheet)
        others = (other_name,)
        values["magic_b"], sources["magic_b"] = _stat_text(other, "magic")
        sources["magic_b"] = labelled(other_name, sources["magic_b"])
        if uses.target_spell is not None:
            theirs = other.spell(uses.target_spell)
            values["element_b"] = theirs.element
            sources["element_b"] = labelled(other_name, f"{theirs.name} ({theirs.element})")
    return Bound(values, sources, None, others)


SHEET_ROLLS: dict[str, SheetRoll[Any]] = {
    "test": SheetRoll(StatUses, bind_test),
    "cast": SheetRoll(SpellUses, bind_cast),
    "study": SheetRoll(SpellUses, bind_study),
    "duel": SheetRoll(DuelUses, bind_duel),
}
