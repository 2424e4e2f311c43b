"""OM-3: a scoundrel's sheet."""

from __future__ import annotations

from jdr.i18n import N_
from jdr.sheet_words import Section, SheetWords, Word
from pydantic import BaseModel, ConfigDict, Field


class Scoundrel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description=N_("the character's name"))
    combat: int = Field(default=1, ge=0, le=4, description=N_("dice to fight"))
    finesse: int = Field(default=1, ge=0, le=4, description=N_("dice for stealth and tricks"))
    resolve: int = Field(default=1, ge=0, le=4, description=N_("dice to hold on and recover"))
    stress_max: int = Field(default=9, ge=1, le=12, description=N_("stress that breaks them"))


# How the sheet reads: each key's name in English and French, and its sections (`jdr sheet show`,
# the web's sheet page, the lines a change prints, and `jdr sheet set stress.max=…` in French).
SHEET_WORDS = SheetWords(
    keys={
        "combat": Word("Combat", "Combat"),
        "finesse": Word("Finesse", "Finesse"),
        "resolve": Word("Resolve", "Résolution"),
        "stress_max": Word("Stress maximum", "Stress maximum"),
    },
    sections=[
        Section(Word("Ratings", "Cotes"), ("combat", "finesse", "resolve")),
        Section(Word("Stress", "Stress"), ("stress_max",)),
    ],
)
