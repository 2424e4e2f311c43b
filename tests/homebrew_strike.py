"""A homebrew plug-in's strike, the case of issue 29 (part 7): a d100 to hit, then a pool of d6
for damage; a miss deals 0. With a 10 % chance to hit, 0 damage holds 90 % of the chances and
the hits spread over a hundred values or more: a chart must draw the 90 % bar at 0 and every
likely damage, and say what the unlikely ones hold.

Its totals show the JSON contract too: `damage` and `hit` are top-level keys of
`jdr roll --json`, and its details (`outcome` among them, a name every roll's answer uses
itself) are under `details`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import BaseModel, Field

from jdr.dice import Pool, RandomSource, ScoredDie, roll_pool
from jdr.prob import pool_distribution
from jdr.systems import Action, Odds, Record, System

D6 = ScoredDie.sum(6)


class StrikeParams(BaseModel):
    accuracy: int = Field(default=10, ge=1, le=100, description="chance to hit, in percent")
    dice: int = Field(default=30, ge=1, le=40, description="damage dice (d6)")


def roll(params: StrikeParams, rng: RandomSource) -> Record:
    aim = roll_pool(Pool.of((ScoredDie.sum(100), 1)), rng).total[0]
    hit = aim <= params.accuracy
    faces = [aim]
    damage = 0
    if hit:
        rolled = roll_pool(Pool.of((D6, params.dice)), rng)
        faces += list(rolled.faces)
        damage = rolled.total[0]
    result = "hit" if hit else "miss"

    def explain() -> str:
        return f"d100 {aim} ≤ {params.accuracy}? {result}: {damage}"

    return Record(
        outcome=result,
        totals={"damage": damage, "hit": hit},
        faces=faces,
        explain=explain,
        details={"outcome": "the strike's own word", "aim": aim},
    )


def odds(params: StrikeParams, exact: bool) -> Odds:
    hit: Any = Fraction(params.accuracy, 100) if exact else params.accuracy / 100
    damage = pool_distribution(Pool.of((D6, params.dice)), exact).map(lambda v: v[0])
    rows = [(0, 1 - hit)] + [(value, hit * p) for value, p in damage.to_list()]
    return Odds(
        outcomes={"hit": hit, "miss": 1 - hit},
        distribution=rows,
        mean=hit * damage.mean(),
        label="damage",
    )


SYSTEM = System(
    id="brawl",
    names={"fr": "Bagarre", "en": "Brawl"},
    actions={
        "strike": Action(
            "strike",
            StrikeParams,
            roll,
            odds,
            help="A strike: d100 to hit, then d6s of damage",
            example={"accuracy": 10, "dice": 30},
        )
    },
)
