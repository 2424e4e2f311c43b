"""Exact odds of a Passion roll (PS-2 … PS-7): the three outcomes, the margin, sure successes.

The dice give the joint distribution of `(positives, negatives)`: `jdr.prob.pool_distribution` of
the pool `pool.py` builds. `resolve`, the roller's own count, gives every cell its margin: the
*margin table*. Its positives depend on the dice's positives alone and its negatives on the dice's
negatives alone (PS-3 … PS-7 add to and cancel each side separately), so the table is a column of
`resolve` calls minus a row of them; the tests check it against `resolve` cell by cell.

A roll is *sure* when every `(positives, negatives)` its dice can show resolves to a success. That
is decided on the set of reachable cells, built from the dice's faces (`reachable`), never on
probabilities: in floats they underflow (two hundred 1s on 200d100 have probability 10⁻⁴⁰⁰).

>>> from jdr.systems.passion.pool import parse_dice
>>> odds = roll_odds(parse_dice("2d4"), Conditions(), exact=True)
>>> [odds.outcomes[outcome] * 16 for outcome in OUTCOMES]
[Fraction(6, 1), Fraction(4, 1), Fraction(6, 1)]
>>> sure = Conditions(difficulty=2, talent=4, energy=True)
>>> roll_odds(parse_dice("1d100"), sure, exact=True).extra["sure"]
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from jdr.dice.pool import Pool, ScoredDie
from jdr.i18n import _
from jdr.prob import Distribution, Probability, pool_distribution
from jdr.prob.cost import pool_ns, refuse
from jdr.systems.passion.params import Conditions
from jdr.systems.protocol import Odds

__all__ = [
    "OUTCOMES",
    "Conditions",
    "add_die",
    "is_sure",
    "margin_distribution",
    "margin_table",
    "reachable",
    "roll_odds",
]

OUTCOMES = ("success", "status_quo", "failure")
"""PS-6, in the order the odds list them."""

Mask = npt.NDArray[np.bool_]
Table = npt.NDArray[np.int64]


def margin_table(conditions: Conditions, positives: int, negatives: int) -> Table:
    """`table[p, n]`: the margin (PS-6) of dice showing `p` positives and `n` negatives, for every
    `p < positives` and `n < negatives`.

    >>> margin_table(Conditions(difficulty=1, talent=2), 3, 3).tolist()
    [[0, 0, -1], [1, 1, 0], [2, 2, 1]]
    """
    gained = [conditions.resolve((p, 0)).positives for p in range(positives)]
    kept = [conditions.resolve((0, n)).negatives for n in range(negatives)]
    table: Table = np.subtract.outer(
        np.array(gained, dtype=np.int64), np.array(kept, dtype=np.int64)
    )
    return table


def add_die(mask: Mask, die: ScoredDie) -> Mask:
    """The cells reachable with one more `die`: each cell moved by each of the die's scores.

    >>> from jdr.systems.passion.pool import passion_die
    >>> add_die(np.ones((1, 1), dtype=bool), passion_die(4)).astype(int).tolist()
    [[0, 1, 1], [1, 0, 0], [1, 0, 0]]
    """
    scores = set(die.scores)
    rows = mask.shape[0] + max(score[0] for score in scores)
    columns = mask.shape[1] + max(score[1] for score in scores)
    grown: Mask = np.zeros((rows, columns), dtype=bool)
    for positives, negatives in scores:
        grown[positives : positives + mask.shape[0], negatives : negatives + mask.shape[1]] |= mask
    return grown


def reachable(pool: Pool) -> Mask:
    """`mask[p, n]`: whether the pool's dice can show `p` positives and `n` negatives.

    >>> from jdr.systems.passion.pool import parse_dice
    >>> mask = reachable(parse_dice("2d6"))
    >>> mask.shape, bool(mask[0, 4]), bool(mask[4, 4])
    ((5, 5), True, False)
    """
    mask: Mask = np.ones((1, 1), dtype=bool)
    for die in pool.dice():
        mask = add_die(mask, die)
    return mask


def is_sure(pool: Pool, conditions: Conditions) -> bool:
    """P(success) = 1: every cell the dice can reach resolves to a success (the rules-file row
    "talent 4, difficulty 2, +1 Énergie: any single die").

    >>> from jdr.systems.passion.pool import parse_dice
    >>> door = Conditions(difficulty=2, talent=4, energy=True)
    >>> is_sure(parse_dice("1d4"), door), is_sure(parse_dice("2d4"), door)
    (True, False)
    """
    mask = reachable(pool)
    return bool(np.all(margin_table(conditions, *mask.shape)[mask] > 0))


def margin_distribution(joint: Distribution, table: Table) -> Distribution:
    """The distribution of the margin: the joint's weights summed over the cells of each margin.

    `table` covers the joint's cells from `(0, 0)`; the weights keep their engine (floats, or
    whole numbers over the joint's denominator).

    >>> from jdr.systems.passion.pool import parse_dice
    >>> joint = pool_distribution(parse_dice("1d4"), exact=True)
    >>> margin_distribution(joint, margin_table(Conditions(), 3, 3)).to_list()
    [(-2, Fraction(1, 4)), (-1, Fraction(1, 4)), (1, Fraction(1, 4)), (2, Fraction(1, 4))]
    """
    rows, columns = joint.weights.shape
    first, second = joint.offset
    margins = table[first : first + rows, second : second + columns].ravel()
    order = np.argsort(margins, kind="stable")
    ordered = margins[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    sums = np.add.reduceat(joint.weights.ravel()[order], starts)
    low = int(ordered[0])
    weights: npt.NDArray[Any] = np.zeros(int(ordered[-1]) - low + 1, dtype=joint.weights.dtype)
    if joint.exact:
        weights[...] = 0
    weights[ordered[starts] - low] = sums
    return Distribution((low,), weights, joint.denominator)


def roll_odds(pool: Pool, conditions: Conditions, exact: bool = False) -> Odds:
    """The exact odds of a roll: P(success), P(status quo), P(failure), the margin's distribution
    and mean, and the extra key `sure` (P(success) = 1, decided on the reachable cells).

    >>> from jdr.systems.passion.pool import parse_dice
    >>> odds = roll_odds(parse_dice("1d6"), Conditions(talent=1), exact=True)
    >>> odds.outcomes["success"], odds.mean, odds.extra["sure"]
    (Fraction(1, 2), Fraction(1, 2), False)
    """
    if exact:
        refuse(pool_ns(pool), "dice", pool.notation(), _("fewer or smaller dice"))
    joint = pool_distribution(pool, exact)
    rows, columns = joint.weights.shape
    table = margin_table(conditions, joint.offset[0] + rows, joint.offset[1] + columns)
    margins = margin_distribution(joint, table)
    sure = is_sure(pool, conditions)
    zero = margins.total() - margins.total()
    outcomes: dict[str, Probability] = {
        "success": margins.at_least(1),
        "status_quo": margins.probability(0),
        "failure": margins.at_most(-1),
    }
    if sure:  # exactly 1, even where a float sum of the weights would be 1 − 1 ulp
        outcomes = {"success": zero + 1, "status_quo": zero, "failure": zero}
    return Odds(
        outcomes=outcomes,
        distribution=margins.to_list(),
        mean=margins.mean(),
        label="margin",
        extra={"sure": sure},
    )
