"""The exact distribution of a keep/drop pool (`jdr.dice.KeepPool`), by order statistics.

>>> from jdr.dice import KeepPool, ScoredDie
>>> best = keep_pool_distribution(KeepPool(ScoredDie.sum(6), dice=2), exact=True)
>>> best.probability(6), best.at_least(4)
(Fraction(11, 36), Fraction(3, 4))
>>> three = keep_pool_distribution(KeepPool(ScoredDie.sum(6), 4, keep=3), exact=True)
>>> three.probability(18), round(float(three.mean()), 4)
(Fraction(7, 432), 12.2446)
"""

from __future__ import annotations

from jdr.dice.keep import KeepPool
from jdr.dice.pool import ScoredDie
from jdr.prob.distribution import Distribution

__all__ = ["keep_pool_distribution"]


def keep_pool_distribution(pool: KeepPool, exact: bool = False) -> Distribution:
    """The distribution of the summed score of the pool's kept dice (one component): Fractions
    when `exact`, floats otherwise. Its cost grows with the kept dice and the die's size, not
    with the rolls (20 d6 keep 3 is as quick as 4 d6 keep 3)."""
    from jdr.dice.notation.order import keep_distribution
    from jdr.prob.convolve import die_distribution

    faces = die_distribution(ScoredDie.sum(pool.die.size), exact)
    return keep_distribution(
        faces, pool.dice, pool.keep, pool.highest, lambda face: pool.die.score(face)[0]
    )
