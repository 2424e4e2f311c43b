"""The exact distribution of an expression's total, built from `jdr.prob`.

Per term: plain dice are a uniform die raised to a power; success-counting dice are a `ScoredDie`
whose score is `DiceTerm.contribution` (the same function the roll uses); an exploding die is the
exact distribution of one chain of faces (capped at `MAX_EXPLOSIONS`), mapped through
`contribution` when counting successes, then raised to a power; keep/drop runs the order-statistics
programme of `order.py`. Terms with a minus sign are negated, constants shift the sum.

The work is priced before it starts (`budget.py`): too much is refused with a `LimitError`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from jdr.dice.notation.budget import price
from jdr.dice.notation.limits import MAX_EXPLOSIONS, check
from jdr.dice.notation.order import keep_distribution
from jdr.dice.notation.tree import Constant, DiceTerm, Expression
from jdr.dice.pool import ScoredDie
from jdr.prob import Distribution, convolve, die_distribution, power, unit


def odds(expression: Expression, exact: bool = False) -> Distribution:
    """The exact distribution of `roll(expression, …).total` (floats, or Fractions if `exact`).

    >>> from jdr.dice.notation import parse
    >>> dist = odds(parse("4d6kh3"), exact=True)
    >>> dist.probability(18), dist.mean()
    (Fraction(7, 432), Fraction(15869, 1296))
    >>> round(odds(parse("2d6+3")).probability(10), 12)
    0.166666666667
    """
    check(expression)
    return total_distribution(expression, exact)


def total_distribution(
    expression: Expression, exact: bool, cap: int = MAX_EXPLOSIONS
) -> Distribution:
    """`odds` with the explosion cap as a parameter (tests compare a small cap to brute force)."""
    price(expression, exact, cap)
    parts = []
    constant = 0
    for term in expression.terms:
        if isinstance(term, Constant):
            constant += term.sign * term.value
            continue
        dist = term_distribution(term, exact, cap)
        parts.append(dist.negate() if term.sign < 0 else dist)
    return add_up(parts, exact).shift(constant)


def add_up(parts: list[Distribution], exact: bool) -> Distribution:
    """The distribution of the sum of independent parts, smallest first.

    `convolve` walks the possible values of its second argument: give it the smaller side.
    """
    if not parts:
        return unit(1, exact)
    ordered = sorted(parts, key=lambda d: d.weights.size)
    total = ordered[0]
    for part in ordered[1:]:
        small, large = sorted((total, part), key=lambda d: d.weights.size)
        total = convolve(large, small)
    return total


def term_distribution(term: DiceTerm, exact: bool, cap: int = MAX_EXPLOSIONS) -> Distribution:
    """The distribution of one dice term's unsigned value."""
    kept = term.kept
    if kept == 0:
        return unit(1, exact)
    if kept < term.count:
        assert term.keep is not None
        one = die_values(term, exact, cap)
        return keep_distribution(one, term.count, kept, term.keep.highest, term.contribution)
    if term.explode:
        one = chain_distribution(term.size, exact, cap)
        if term.counts_successes:
            one = one.map(lambda vector: term.contribution(vector[0]))
        return power(one, term.count)
    if term.counts_successes:
        die = ScoredDie.from_function(term.size, lambda face: (term.contribution(face),), term.mark)
        return power(die_distribution(die, exact), term.count)
    return power(uniform(term.size, exact), term.count)


def die_values(term: DiceTerm, exact: bool, cap: int = MAX_EXPLOSIONS) -> Distribution:
    """The distribution of one die's value (a chain's sum when it explodes)."""
    if term.explode:
        return chain_distribution(term.size, exact, cap)
    return uniform(term.size, exact)


def uniform(size: int, exact: bool) -> Distribution:
    """A plain die: each face 1..size weighs 1 out of `size`."""
    if exact:
        return Distribution((1,), np.ones(size, dtype=object), size)
    return Distribution((1,), np.full(size, 1.0 / size), 1.0)


def chain_distribution(size: int, exact: bool, cap: int = MAX_EXPLOSIONS) -> Distribution:
    """One exploding die: the sum of its chain, at most `cap` explosions.

    `k` explosions then a face `r` below the maximum give `k·size + r` with probability
    `size^-(k+1)`; after `cap` explosions the last face, whatever it is, stops the chain.

    >>> chain_distribution(6, exact=True).probability(9)
    Fraction(1, 36)
    >>> chain_distribution(1, exact=True).support()
    [(101,)]
    """
    rows: npt.NDArray[Any]
    if exact:
        rows = np.zeros((cap + 1, size), dtype=object)
        rows[...] = 0
        for k in range(cap):
            rows[k, : size - 1] = size ** (cap - k)
        rows[cap, :] = 1
        return Distribution((1,), rows.reshape(-1), size ** (cap + 1))
    rows = np.zeros((cap + 1, size), dtype=np.float64)
    rows[:cap, : size - 1] = (1.0 / size) ** np.arange(1, cap + 1, dtype=np.float64)[:, None]
    rows[cap, :] = (1.0 / size) ** (cap + 1)
    return Distribution((1,), rows.reshape(-1), 1.0)
