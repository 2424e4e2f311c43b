"""Progression steps on a stored Passion sheet: `jdr sheet buy|award` (PS-19).

- `award NAME points=N [REASON]`: end-of-scenario points, to spend on increases (PS-19).
- `buy NAME passion`: 1 Passion point for 2 points (PS-19); `buy NAME energy|talent|potential
  [NAME] cost=N`: what the table sets (the source does not say), the cost given each time. A new
  talent may be bought (0 → 1), a new potential may not.

XP in talents and potentials (PS-17, PS-18) come from rolls made through the sheet
(`jdr roll passion action --sheet NAME --talent T`) and from fights.

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> romuald = tomllib.loads(systems_example("passion", "romuald")) | {"scenario_points": 5}
>>> done = buy(romuald, BuyParams(what="passion"))
>>> done.sheet["passion"], done.sheet["scenario_points"]
({'current': 6, 'max': 6}, 3)
>>> done.summary()
'Romuald buys 1 point of Passion for 2 scenario points: Passion 5 → 6, points 5 → 3'
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from jdr.i18n import N_, _
from jdr.labels import named
from jdr.sheets import validate_sheet
from jdr.systems.passion.sheets import MAX_POOL, Sheet
from jdr.systems.passion.xp import PURCHASE_WORDS, Costs
from jdr.systems.passion.xp import buy as buy_point
from jdr.systems.protocol import Json, Progressed, Progression

__all__ = ["PROGRESSION", "AwardParams", "BuyParams", "award", "buy"]


class BuyParams(BaseModel):
    """`buy NAME passion|energy|talent|potential [NAME] [cost=N]` (PS-19)."""

    what: Literal["passion", "energy", "talent", "potential"] = Field(
        description=N_("what to buy"),
        json_schema_extra=named(
            "what to buy",
            "achat",
            {
                "passion": ("Passion", "Passion"),
                "energy": ("Énergie", "Énergie"),
                "talent": ("talent", "talent"),
                "potential": ("potential", "potentiel"),
            },
        ),
    )
    which: str = Field(
        default="",
        description=N_("the talent or potential raised"),
        json_schema_extra=named("which one", "lequel"),
    )
    cost: int | None = Field(
        default=None,
        ge=0,
        le=MAX_POOL,
        description=N_("scenario points a point costs, as the table sets it (PS-19)"),
        json_schema_extra=named("cost", "coût"),
    )


def buy(sheet: Json, params: BuyParams) -> Progressed:
    """PS-19: one point bought with end-of-scenario points (`RulesError` when short)."""
    before = validate_sheet(Sheet, sheet)
    costs = Costs()
    if params.cost is not None and params.what != "passion":
        costs = Costs(**{params.what: params.cost})
    after, changes = buy_point(before, params.what, params.which, costs)
    spent = changes[0]["amount"]
    raised = changes[1]
    if raised["type"] == "pool_raised":
        what = _(PURCHASE_WORDS[params.what])
        old = getattr(before, params.what).max
    else:
        what = raised["name"]
        old = raised["level"] - 1
    return Progressed(
        after.model_dump(mode="json"),
        lambda: _(
            "{name} buys 1 point of {what} for {cost} scenario points: {what} {before} →"
            " {after}, points {points} → {left}"
        ).format(
            name=before.name,
            what=what,
            cost=spent,
            before=old,
            after=old + 1,
            points=before.scenario_points,
            left=after.scenario_points,
        ),
        ("PS-19",),
        {"scenario_points": spent},
    )


class AwardParams(BaseModel):
    """`award NAME points=N [REASON]` (PS-19)."""

    points: int = Field(
        ge=0,
        le=MAX_POOL,
        description=N_("end-of-scenario points given"),
        json_schema_extra=named("points", "points"),
    )
    reason: str | None = Field(
        default=None,
        description=N_("why, for the history"),
        json_schema_extra=named("reason", "raison"),
    )


def award(sheet: Json, params: AwardParams) -> Progressed:
    """PS-19: end-of-scenario points, to buy increases with."""
    before = validate_sheet(Sheet, sheet)
    left = before.scenario_points + params.points
    after = validate_sheet(Sheet, before.model_dump() | {"scenario_points": left})
    return Progressed(
        after.model_dump(mode="json"),
        lambda: _award_sentence(before.name, params, before.scenario_points, left),
        ("PS-19",),
        {"scenario_points": -params.points},
    )


def _award_sentence(name: str, params: AwardParams, before: int, left: int) -> str:
    """`Romuald gains 2 scenario points: the villain unmasked (points 0 → 2)` (PS-19).

    >>> _award_sentence("Romuald", AwardParams(points=2, reason="the villain unmasked"), 0, 2)
    'Romuald gains 2 scenario points: the villain unmasked (points 0 → 2)'
    """
    moved = _("points {before} → {after}").format(before=before, after=left)
    if params.reason:
        return _("{name} gains {n} scenario points: {reason} ({moved})").format(
            name=name, n=params.points, reason=params.reason, moved=moved
        )
    return _("{name} gains {n} scenario points ({moved})").format(
        name=name, n=params.points, moved=moved
    )


PROGRESSION: dict[str, Progression[Any]] = {
    "buy": Progression(
        "buy",
        BuyParams,
        buy,
        words=("what", "which"),
        help=N_(
            "Buy Passion (2 points), Énergie, a talent or a potential with scenario points (PS-19)."
        ),
    ),
    "award": Progression(
        "award",
        AwardParams,
        award,
        words=("reason",),
        help=N_("Give end-of-scenario points (PS-19)."),
    ),
}
