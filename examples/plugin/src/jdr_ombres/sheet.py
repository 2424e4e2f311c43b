"""OM-3: a scoundrel's sheet."""

from __future__ import annotations

from jdr.i18n import N_
from pydantic import BaseModel, ConfigDict, Field


class Scoundrel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description=N_("the character's name"))
    combat: int = Field(default=1, ge=0, le=4, description=N_("dice to fight"))
    finesse: int = Field(default=1, ge=0, le=4, description=N_("dice for stealth and tricks"))
    resolve: int = Field(default=1, ge=0, le=4, description=N_("dice to hold on and recover"))
    stress_max: int = Field(default=9, ge=1, le=12, description=N_("stress that breaks them"))
