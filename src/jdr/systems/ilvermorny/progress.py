"""Progression steps on a stored wizard: `jdr sheet award|year|grant` (IL-4, IL-8).

- `award NAME SPELL xp=N [REASON]`: XP for a spell, and every level it pays for (IL-8).
- `year NAME magic=1 intuition=1 [bonus=N]`: a school year's 2 points split, plus the GM's bonus
  points if any; no stat above 10 (IL-4).
- `grant NAME SPELL`: the GM grants level 1 after a role-played lesson, only from level 0 (IL-8).

Casting and studying through the sheet (`jdr roll ilvermorny cast --sheet NAME --spell S`) add
their XP by themselves (`sheet_rolls`).

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> mary = tomllib.loads(systems_example("ilvermorny", "wizard"))
>>> done = grant(mary, GrantParams(spell="stupefix"))
>>> [s["level"] for s in done.sheet["spells"] if s["name"] == "Stupefix"], done.summary()
([1], 'Seraphina Quill — Stupefix: level 0 → 1')
>>> year(mary, YearParams(points={"magie": 1, "intuition": 1})).summary()
'Seraphina Quill — school year 2 → 3: Magic 7 → 8, Intuition 6 → 7'
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, model_validator

from jdr.i18n import N_, _, joined, labelled
from jdr.labels import named
from jdr.systems.ilvermorny.progression import Step, gain_xp, grant_level, yearly_growth
from jdr.systems.ilvermorny.rules import STAT_LABELS
from jdr.systems.ilvermorny.sheets import MAX_XP, wizard_from
from jdr.systems.protocol import Json, Progressed, Progression

__all__ = ["PROGRESSION", "AwardParams", "GrantParams", "YearParams", "award", "grant", "year"]


def _progressed(step: Step, rules: tuple[str, ...], name: str) -> Progressed:
    def summary() -> str:
        return f"{name} — {changes_text(step)}"

    return Progressed(step.sheet.model_dump(mode="json"), summary, rules, {})


def changes_text(step: Step) -> str:
    """What a step changed, in the current language: `Lumos: XP 12 → 15, level 3 → 4`."""
    spells: dict[str, list[str]] = {}
    stats = []
    year = None
    for change in step.changes:
        moved = f"{change.before} → {change.after}"
        if change.spell:
            word = _("XP") if change.field == "xp" else _("level")
            spells.setdefault(change.spell, []).append(f"{word} {moved}")
        elif change.field == "year":
            year = _("school year {moved}").format(moved=moved)
        else:
            stats.append(f"{_(STAT_LABELS[change.field])} {moved}")
    if year is not None:
        return labelled(year, ", ".join(stats))
    return joined([labelled(spell, ", ".join(items)) for spell, items in spells.items()])


class AwardParams(BaseModel):
    """`award NAME SPELL xp=N [REASON]` (IL-8)."""

    spell: str = Field(
        description=N_("the spell the XP is for"), json_schema_extra=named("spell", "sort")
    )
    xp: int = Field(
        ge=0, le=MAX_XP, description=N_("the XP given"), json_schema_extra=named("XP", "PX")
    )
    reason: str | None = Field(
        default=None,
        description=N_("why, for the history"),
        json_schema_extra=named("reason", "raison"),
    )


def award(sheet: Json, params: AwardParams) -> Progressed:
    """XP for a spell and the levels it buys (IL-8).

    >>> import tomllib
    >>> from jdr.sheet_check import systems_example
    >>> mary = tomllib.loads(systems_example("ilvermorny", "wizard"))
    >>> award(mary, AwardParams(spell="lumos", xp=5)).summary()
    'Seraphina Quill gains 5 XP — Lumos: XP 12 → 17'
    """
    wizard = wizard_from(sheet)
    step = gain_xp(wizard, params.spell, params.xp, "IL-8")

    def summary() -> str:
        return _("{name} gains {n} XP — {changes}").format(
            name=wizard.name, n=params.xp, changes=changes_text(step)
        )

    return Progressed(step.sheet.model_dump(mode="json"), summary, ("IL-8",), {})


class YearParams(BaseModel):
    """`year NAME STAT=N … [bonus=N]` (IL-4): the stats given as their own keys."""

    points: dict[str, int] = Field(
        description=N_("the points per stat, e.g. magic=1,intuition=1"),
        json_schema_extra=named("points per stat", "points par caractéristique"),
    )
    bonus: int = Field(
        default=0,
        ge=0,
        le=10,
        description=N_("points the GM adds (IL-4)"),
        json_schema_extra=named("GM's bonus", "bonus du MJ"),
    )

    @model_validator(mode="before")
    @classmethod
    def _stats_as_keys(cls, data: Any) -> Any:
        """`magic=1 intuition=1` on the command line are the stats' points."""
        if isinstance(data, dict) and "points" not in data:
            points = {k: v for k, v in data.items() if k not in ("bonus",)}
            return {"points": points, **({"bonus": data["bonus"]} if "bonus" in data else {})}
        return data


def year(sheet: Json, params: YearParams) -> Progressed:
    """IL-4: a school year's points (2, plus the GM's bonus) split between the stats."""
    wizard = wizard_from(sheet)
    step = yearly_growth(wizard, params.points, params.bonus)
    return _progressed(step, ("IL-4",), wizard.name)


class GrantParams(BaseModel):
    """`grant NAME SPELL` (IL-8)."""

    spell: str = Field(
        description=N_("the spell learnt in a lesson"), json_schema_extra=named("spell", "sort")
    )


def grant(sheet: Json, params: GrantParams) -> Progressed:
    """IL-8: level 0 → 1, the GM's grant after a role-played lesson."""
    wizard = wizard_from(sheet)
    return _progressed(grant_level(wizard, params.spell), ("IL-8",), wizard.name)


PROGRESSION: dict[str, Progression[Any]] = {
    "award": Progression(
        "award",
        AwardParams,
        award,
        words=("spell", "reason"),
        help=N_("Give a spell XP; the levels it pays for are bought (IL-8)."),
    ),
    "year": Progression(
        "year",
        YearParams,
        year,
        help=N_("A school year: 2 points to split between the stats, and any bonus (IL-4)."),
    ),
    "grant": Progression(
        "grant",
        GrantParams,
        grant,
        words=("spell",),
        help=N_("Grant a spell's level 1 after a role-played lesson (IL-8)."),
    ),
}
