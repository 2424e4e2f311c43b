"""A wizard's sheet (TOML): the seven stats (IL-1) and the spells known, each with its difficulty,
element, level and XP (IL-5, IL-10).

Stat keys are the glossary's (`magic`, `strength` …) or the source's French names (`magie`,
`force physique` …); elements are `feu`, `vigne`, `eau`, `neutre` or their English glosses.

Where the rules are silent, a sheet reads them so:

- `year` is the school year (1 at the arrival at 11, IL-4); the stats' total is not checked on a
  sheet (30 … 40 holds at creation; each year adds 2 points).
- A spell's XP may be at or above its next level's cost: the GM may have undone a level (IL-8).
- Spell names are unique on a sheet (case and accents ignored).

>>> mary = load_example()
>>> mary.stats.magic, [(spell.name, spell.level) for spell in mary.spells][:2]
(7, [('Lumos', 3), ('Expelliarmus', 2)])
>>> load_wizard(example_path().read_text("utf-8").replace("magic = 7", "magic = 11"))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
jdr.sheets.SheetError: stats.magic: 11 (must be at most 10; ...)
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from jdr.errors import UnknownNameError
from jdr.i18n import N_, _
from jdr.names import fold
from jdr.sheets import SheetError, read_toml, validate_sheet
from jdr.systems.ilvermorny.duel import Element
from jdr.systems.ilvermorny.rules import STAT_LABELS, STATS, StatValue, stat_id
from jdr.systems.ilvermorny.spells import (
    MAX_LEVEL,
    MAX_SPELL_DIFFICULTY,
    MIN_LEVEL,
    MIN_SPELL_DIFFICULTY,
)
from jdr.validation import fail

__all__ = [
    "EXAMPLES",
    "SheetError",
    "Spell",
    "Stats",
    "Wizard",
    "example_path",
    "load_example",
    "load_wizard",
]

EXAMPLES = ("wizard",)
MAX_SPELLS = 200
MAX_XP = 1_000_000
MAX_YEAR = 99


class Stats(BaseModel):
    """IL-1: the seven stats, each 0 … 10 (French or English keys)."""

    model_config = ConfigDict(extra="forbid")

    resolution: StatValue = Field(description=STAT_LABELS["resolution"])
    comprehension: StatValue = Field(description=STAT_LABELS["comprehension"])
    magic: StatValue = Field(description=STAT_LABELS["magic"])
    charisma: StatValue = Field(description=STAT_LABELS["charisma"])
    strength: StatValue = Field(description=STAT_LABELS["strength"])
    skill: StatValue = Field(description=STAT_LABELS["skill"])
    intuition: StatValue = Field(description=STAT_LABELS["intuition"])

    @model_validator(mode="before")
    @classmethod
    def _french_keys(cls, data: Any) -> Any:
        """`magie = 7` → `magic = 7`; an unknown key is left for `extra="forbid"` to refuse."""
        if not isinstance(data, dict):
            return data
        return {stat_id(key) or key if isinstance(key, str) else key: v for key, v in data.items()}

    def get(self, stat: str) -> int:
        value: int = getattr(self, stat)
        return value

    def total(self) -> int:
        return sum(self.get(stat) for stat in STATS)


class Spell(BaseModel):
    """A spell known: its difficulty (IL-5), element (IL-10), the wizard's level and XP in it."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str = Field(min_length=1, max_length=100, description=N_("the spell's name"))
    difficulty: int = Field(
        ge=MIN_SPELL_DIFFICULTY, le=MAX_SPELL_DIFFICULTY, description=N_("1 (easy) … 5 (hard)")
    )
    element: Element = Field(default="neutre", description=N_("feu, vigne, eau or neutre"))
    level: int = Field(
        default=MIN_LEVEL, ge=MIN_LEVEL, le=MAX_LEVEL, description=N_("0 (not learnt) … 5")
    )
    xp: int = Field(default=0, ge=0, le=MAX_XP, description=N_("the XP kept for this spell"))


class Wizard(BaseModel):
    """A wizard's sheet.

    >>> Wizard(name="Tom", stats=dict.fromkeys(STATS, 5)).spells
    []
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str = Field(min_length=1, max_length=100, description=N_("the wizard's name"))
    year: int = Field(default=1, ge=1, le=MAX_YEAR, description=N_("the school year"))
    stats: Stats
    spells: list[Spell] = Field(default_factory=list, max_length=MAX_SPELLS)

    @model_validator(mode="after")
    def _unique_spells(self) -> Wizard:
        seen: dict[str, int] = {}
        for position, spell in enumerate(self.spells, 1):
            first = seen.setdefault(fold(spell.name), position)
            if first != position:
                raise fail(
                    "same_spell_twice",
                    N_("the same name as spell {first}"),
                    N_("a name of its own"),
                    value=spell.name,
                    first=first,
                    at=f"spells[{position}].name",
                )
        return self

    def spell(self, name: str) -> Spell:
        """The spell called `name` (case and accents ignored), or `UnknownNameError`.

        >>> load_example().spell("LUMOS").element
        'neutre'
        """
        return self.spells[self.spell_index(name)]

    def spell_index(self, name: str) -> int:
        for index, spell in enumerate(self.spells):
            if fold(spell.name) == fold(name):
                return index
        raise UnknownNameError(_("spell"), name, [spell.name for spell in self.spells])


def wizard_from(data: Any, label: str = "") -> Wizard:
    """A wizard from a table (a fight's setup, a parsed file), or `SheetError` listing all."""
    return validate_sheet(Wizard, data, label)


def load_wizard(source: str | Path) -> Wizard:
    """A wizard from a TOML file (a `Path`, or a `str` without `=`) or from TOML text."""
    data, label = read_toml(source)
    return wizard_from(data, label)


def example_path(name: str = "wizard") -> Traversable:
    """The example sheet shipped with the package.

    >>> example_path().name
    'wizard.toml'
    """
    if name not in EXAMPLES:
        raise UnknownNameError(_("example"), name, list(EXAMPLES))
    return resources.files(__package__).joinpath("examples", f"{name}.toml")


def load_example(name: str = "wizard") -> Wizard:
    """The example sheet, loaded and validated.

    >>> load_example().name
    'Seraphina Quill'
    """
    return load_wizard(example_path(name).read_text(encoding="utf-8"))
