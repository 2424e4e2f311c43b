"""OM-1, OM-2: a check keeps the highest d6; exact odds from the same pools."""

from __future__ import annotations

from fractions import Fraction

from jdr.dice import KeepPool, RandomSource, ScoredDie, count_pool, roll_keep
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.prob import keep_pool_distribution, pool_distribution
from jdr.prob.distribution import Probability
from jdr.systems import Odds, Record
from pydantic import BaseModel, Field

D6 = ScoredDie.sum(6)


class Check(BaseModel):
    dice: int = Field(
        ge=0,
        le=10,
        description=N_("the rating: how many d6 to roll (0 to 10)"),
        json_schema_extra=named("rating", "cote"),
    )


def pool(dice: int) -> KeepPool:
    """OM-1: the best of `dice` d6, or the worst of 2d6 with no rating."""
    return KeepPool(D6, dice) if dice > 0 else KeepPool(D6, 2, highest=False)


def outcome(kept: int, sixes: int, dice: int) -> str:
    """OM-2: the kept die's outcome (two 6s or more are critical, if the rating is not 0)."""
    if kept == 6:
        return "critical_success" if sixes >= 2 and dice > 0 else "success"
    return "partial_success" if kept >= 4 else "failure"


def roll(params: Check, rng: RandomSource) -> Record:
    rolled = roll_keep(pool(params.dice), rng)
    kept = rolled.total
    sixes = rolled.faces.count(6)
    result = outcome(kept, sixes, params.dice)

    def explain() -> str:
        how = _("keep the highest") if params.dice > 0 else _("no rating: keep the lowest of 2")
        return _("{dice}d6, {how}: {faces} → {kept}: {outcome}").format(
            dice=rolled.pool.dice, how=how, faces=rolled.faces_text(), kept=kept, outcome=_(result)
        )

    return Record(
        outcome=result,
        totals={"kept": kept, "sixes": sixes},
        faces=list(rolled.faces),
        explain=explain,
        details={"kept_at": list(rolled.kept_at)},
    )


def odds(params: Check, exact: bool) -> Odds:
    kept = keep_pool_distribution(pool(params.dice), exact)
    zero: Probability = Fraction(0) if exact else 0.0
    if params.dice > 0:
        sixes = pool_distribution(count_pool(6, params.dice, [6]), exact)
        critical, success = sixes.at_least(2), sixes.probability(1)
    else:
        critical, success = zero, kept.probability(6)
    chances = {
        "critical_success": critical,
        "success": success,
        "partial_success": kept.at_least(4) - kept.at_least(6),
        "failure": kept.at_most(3),
    }
    return Odds(outcomes=chances, distribution=kept.to_list(), mean=kept.mean(), label="kept")
