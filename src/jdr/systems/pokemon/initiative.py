"""Initiative (PK-5): 1d10 + Dextérité, descending; equal totals act simultaneously.

>>> from jdr.dice import GivenFaces
>>> rolled = roll_initiative(3, GivenFaces([7]))
>>> rolled.total, rolled.explain()
(10, 'initiative: 1d10 (7) + Dextérité 3 = 10')
>>> initiative_slots({"Pikachu": 12, "Salamèche": 9, "Bulbizarre": 12})
[['Pikachu', 'Bulbizarre'], ['Salamèche']]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from pydantic import BaseModel, Field

from jdr.dice.source import RandomSource
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.systems.protocol import Odds, Record

DIE = 10
OUTCOME = N_("initiative")


@dataclass(frozen=True)
class InitiativeRoll:
    """The d10 shown and the Dextérité added to it."""

    face: int
    dexterity: int

    @property
    def total(self) -> int:
        return self.face + self.dexterity

    def explain(self) -> str:
        return _("initiative: 1d10 ({face}) + Dextérité {dexterity} = {total}").format(
            face=self.face, dexterity=self.dexterity, total=self.total
        )


def roll_initiative(dexterity: int, rng: RandomSource) -> InitiativeRoll:
    """PK-5: roll 1d10 and add Dextérité.

    >>> from jdr.dice import GivenFaces
    >>> roll_initiative(4, GivenFaces([10])).total
    14
    """
    (face,) = rng.faces(DIE, 1)
    return InitiativeRoll(face, dexterity)


def initiative_slots(totals: Mapping[str, int]) -> list[list[str]]:
    """PK-5: the order of action, descending; equal totals share one slot (in the given order)."""
    slots: dict[int, list[str]] = {}
    for name, total in totals.items():
        slots.setdefault(total, []).append(name)
    return [slots[total] for total in sorted(slots, reverse=True)]


# --- the action ---------------------------------------------------------------------------


class InitiativeParams(BaseModel):
    """`initiative --dexterity N` (PK-5)."""

    dexterity: int = Field(
        ge=0,
        le=100,
        description=N_("the Pokémon's Dextérité"),
        json_schema_extra=named("Dextérité", "Dextérité"),
    )


def roll(params: InitiativeParams, rng: RandomSource) -> Record:
    """The `initiative` action: JSON `roll`, `dexterity`, `initiative`."""
    rolled = roll_initiative(params.dexterity, rng)
    return Record(
        outcome=OUTCOME,
        totals={"roll": rolled.face, "dexterity": rolled.dexterity, "initiative": rolled.total},
        faces=[rolled.face],
        explain=rolled.explain,
    )


def odds(params: InitiativeParams, exact: bool) -> Odds:
    """The total is uniform on Dextérité + 1 … Dextérité + 10; the only outcome is `initiative`."""
    p = Fraction(1, DIE) if exact else 1 / DIE
    one = Fraction(1) if exact else 1.0
    return Odds(
        outcomes={OUTCOME: one},
        distribution=[(params.dexterity + face, p) for face in range(1, DIE + 1)],
        mean=params.dexterity + (Fraction(DIE + 1, 2) if exact else (DIE + 1) / 2),
        label="initiative",
    )
