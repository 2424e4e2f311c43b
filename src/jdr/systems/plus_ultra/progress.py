"""Progression on a stored Plus Ultra sheet: `jdr sheet rank NAME energy|willpower` (PU-2).

The source gives no XP: a character grows by rank, the GM's call. At the next rank both gauges'
base maximum rises by 1 (2 + k) and one more free point is placed, in Énergie or Volonté, so the
maxima still add up (PU-2). Gauges reset at every fight (PU-1): nothing else carries over.

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> kaito = tomllib.loads(systems_example("plus-ultra", "hero"))
>>> done = rank(kaito, RankParams(free="energy"))
>>> done.sheet["rank"], done.sheet["energy"], done.sheet["willpower"], done.summary()
('C+', 10, 9, 'Kaito Arashi moves up from rank C to C+: Énergie 8 → 10, Volonté 8 → 9')
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from jdr.errors import RulesError
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.sheets import validate_sheet
from jdr.systems.plus_ultra.rules import RANKS, rank_index
from jdr.systems.plus_ultra.sheets import Character
from jdr.systems.protocol import Json, Progressed, Progression

__all__ = ["PROGRESSION", "RankParams", "rank"]


class RankParams(BaseModel):
    """`rank NAME energy|willpower` (PU-2): where the new free point goes."""

    free: Literal["energy", "willpower"] = Field(
        description=N_("the gauge the rank's new free point raises"),
        json_schema_extra=named(
            "free point",
            "point libre",
            {
                "energy": ("Énergie", "Énergie", "energie"),
                "willpower": ("Volonté", "Volonté", "volonte"),
            },
        ),
    )


def rank(sheet: Json, params: RankParams) -> Progressed:
    """PU-2: the next rank, both bases +1 and one free point placed."""
    before = validate_sheet(Character, sheet)
    index = rank_index(before.rank)
    if index + 1 >= len(RANKS):
        raise RulesError(_("{rank} is the highest rank").format(rank=before.rank), "PU-2")
    energy = before.energy + 1 + (params.free == "energy")
    willpower = before.willpower + 1 + (params.free == "willpower")
    new_rank = RANKS[index + 1]
    after = validate_sheet(
        Character,
        before.model_dump() | {"rank": new_rank, "energy": energy, "willpower": willpower},
    )
    return Progressed(
        after.model_dump(mode="json"),
        lambda: _(
            "{name} moves up from rank {old} to {new}: Énergie {e0} → {e1}, Volonté {w0} → {w1}"
        ).format(
            name=before.name,
            old=before.rank,
            new=new_rank,
            e0=before.energy,
            e1=energy,
            w0=before.willpower,
            w1=willpower,
        ),
        ("PU-2",),
    )


PROGRESSION: dict[str, Progression[Any]] = {
    "rank": Progression(
        "rank",
        RankParams,
        rank,
        words=("free",),
        help=N_("The next rank: both gauges +1, one free point in Énergie or Volonté (PU-2)."),
    ),
}
