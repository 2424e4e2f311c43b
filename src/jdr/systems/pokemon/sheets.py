"""Sheets: a move, a Pokémon and a trainer (pydantic models, loadable from TOML).

Field names are the glossary's (`strength`, `willpower`, `vitality` …); what a player reads uses
the French words through the catalog.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Category = Literal["physique", "speciale", "statut"]
StatName = Literal["strength", "concentration", "constitution", "willpower", "dexterity"]
STAT_NAMES: tuple[StatName, ...] = (
    "strength",
    "concentration",
    "constitution",
    "willpower",
    "dexterity",
)
MAJOR_CONDITIONS = ("burn", "poison", "bad_poison", "paralysis", "freeze", "sleep")
VOLATILE_CONDITIONS = ("confusion", "infatuation", "curse", "flinch")


class Stats(BaseModel):
    """The five stats (PK sheet): each a whole number ≥ 1."""

    model_config = ConfigDict(extra="forbid")

    strength: int = Field(ge=1, description="Force")
    concentration: int = Field(ge=1, description="Concentration")
    constitution: int = Field(ge=1, description="Constitution")
    willpower: int = Field(ge=1, description="Volonté")
    dexterity: int = Field(ge=1, description="Dextérité")


class Gauge(BaseModel):
    """A gauge with its maximum (Vitalité, Énergie)."""

    model_config = ConfigDict(extra="forbid")

    current: int = Field(ge=0)
    max: int = Field(ge=1)


class Inflict(BaseModel):
    """A condition a move may inflict, with its chance in percent."""

    model_config = ConfigDict(extra="forbid")

    condition: str
    chance: int = Field(default=100, ge=0, le=100)


class StatChange(BaseModel):
    """A stat change a move causes (PK-8): `stages` ±1 (raise/lower) or ±2 (sharply)."""

    model_config = ConfigDict(extra="forbid")

    target: Literal["self", "target"] = "target"
    stat: Literal["strength", "concentration", "constitution", "willpower", "dexterity", "accuracy"]
    stages: int = Field(ge=-2, le=2)


class Move(BaseModel):
    """A move (capacité): type, category, energy cost, damage dice, accuracy and effects."""

    model_config = ConfigDict(extra="forbid")

    name: str
    type: str
    category: Category
    energy: int = Field(default=0, ge=0)
    damage_dice: int = Field(default=0, ge=0)
    accuracy: int = Field(default=100, ge=1, le=100)
    high_crit: bool = False
    inflicts: Inflict | None = None
    stat_change: StatChange | None = None


class Pokemon(BaseModel):
    """A Pokémon's sheet."""

    model_config = ConfigDict(extra="forbid")

    name: str
    species: str = ""
    types: list[str] = Field(min_length=1, max_length=2)
    level: int = Field(default=1, ge=1)
    stats: Stats
    evs: dict[StatName, int] = Field(default_factory=dict)
    skills: dict[str, int] = Field(default_factory=dict)
    vitality: Gauge
    energy: Gauge
    moves: list[Move] = Field(default_factory=list)
    condition: str | None = None
    volatile: list[str] = Field(default_factory=list)
    xp: int = Field(default=0, ge=0)


class Trainer(BaseModel):
    """A trainer's (human) sheet: the same five stats, skills, XP and the Pokémon they carry."""

    model_config = ConfigDict(extra="forbid")

    name: str
    stats: Stats
    skills: dict[str, int] = Field(default_factory=dict)
    vitality: Gauge
    energy: Gauge
    xp: int = Field(default=0, ge=0)
    pokemon: list[str] = Field(default_factory=list)
