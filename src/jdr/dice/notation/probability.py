"""The exact distribution of an expression's total, built from `jdr.prob`.

Per term: plain dice are a uniform die raised to a power; success-counting dice are a `ScoredDie`
whose score is `DiceTerm.contribution` (the same function the roll uses); an exploding die is the
exact distribution of one chain of faces (capped at `MAX_EXPLOSIONS`), mapped through
`contribution` when counting successes, then raised to a power; keep/drop runs the order-statistics
programme of `order.py`. A rerolled die (`r1`) is one die's exact distribution with the reroll
(capped like an explosion, or once for `ro`); a Fate die a d3 shifted to −1..+1. A term in
parentheses is its sub-expression's distribution mapped through its `*` and `/` steps. Terms with
a minus sign are negated, constants shift the sum.

The work is priced before it starts (`budget.py`): too much is refused with a `LimitError`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from jdr.dice.notation.budget import price
from jdr.dice.notation.limits import MAX_EXPLOSIONS, check
from jdr.dice.notation.order import keep_distribution
from jdr.dice.notation.tree import (
    Comparison,
    Constant,
    DiceTerm,
    Expression,
    Scaled,
    Step,
    scale,
)
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
    return sum_distribution(expression, exact, cap)


def sum_distribution(
    expression: Expression, exact: bool, cap: int = MAX_EXPLOSIONS
) -> Distribution:
    """The distribution of the expression's total, without pricing it (`total_distribution`)."""
    parts = []
    constant = 0
    for term in expression.terms:
        if isinstance(term, Constant):
            constant += term.sign * term.value
            continue
        if isinstance(term, Scaled):
            inner = sum_distribution(term.inner, exact, cap)
            dist = _scaled(inner, term.steps) if term.steps else inner
        else:
            dist = term_distribution(term, exact, cap)
        parts.append(dist.negate() if term.sign < 0 else dist)
    return add_up(parts, exact).shift(constant)


def _scaled(inner: Distribution, steps: tuple[Step, ...]) -> Distribution:
    """The distribution of `scale(total, steps)`."""
    return inner.map(lambda vector: scale(vector[0], steps))


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
    if term.explode or term.fate or term.reroll is not None:
        one = die_values(term, exact, cap)
        if term.counts_successes:
            one = one.map(lambda vector: term.contribution(vector[0]))
        return power(one, term.count)
    if term.counts_successes:
        die = ScoredDie.from_function(term.size, lambda face: (term.contribution(face),), term.mark)
        return power(die_distribution(die, exact), term.count)
    return power(uniform(term.size, exact), term.count)


def die_values(term: DiceTerm, exact: bool, cap: int = MAX_EXPLOSIONS) -> Distribution:
    """The distribution of one die's value (a chain's sum when it explodes, the last face when
    it rerolls, −1..+1 for a Fate die)."""
    if term.explode:
        return chain_distribution(term.size, exact, cap)
    if term.reroll is not None:
        rerolls = 1 if term.reroll_once else cap
        one = reroll_distribution(term.size, term.reroll, term.shift, exact, rerolls)
    else:
        one = uniform(term.size, exact)
    return one.shift(term.shift) if term.shift else one


def reroll_distribution(
    size: int, reroll: Comparison, shift: int, exact: bool, rerolls: int = MAX_EXPLOSIONS
) -> Distribution:
    """One die rolled again while its value (face + `shift`) matches `reroll`, at most `rerolls`
    times; the last face stays, whatever it is. Of `size` faces, `r` match: a face that does not
    match weighs `Σ_{k ≤ rerolls} r^k · size^(rerolls − k)` out of `size^(rerolls + 1)`, one
    that does `r^rerolls` (rerolled every time, then shown once more).

    >>> once = reroll_distribution(6, Comparison("=", 1), 0, exact=True, rerolls=1)
    >>> once.probability(1), once.probability(4)
    (Fraction(1, 36), Fraction(7, 36))
    """
    faces = np.arange(1, size + 1) + shift
    matching = _matches(reroll, faces)
    r = int(matching.sum())
    if exact:
        stays = sum(r**k * size ** (rerolls - k) for k in range(rerolls + 1))
        weights = np.empty(size, dtype=object)
        weights[:] = stays
        weights[matching] = r**rerolls
        return Distribution((1,), weights, size ** (rerolls + 1))
    ratio = r / size
    stays_p = sum(ratio**k for k in range(rerolls + 1)) / size
    floats = np.full(size, stays_p)
    floats[matching] = ratio**rerolls / size
    return Distribution((1,), floats, 1.0)


def _matches(comparison: Comparison, values: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    """`comparison.matches` over an array of values at once."""
    operators = {
        ">=": np.greater_equal,
        ">": np.greater,
        "<=": np.less_equal,
        "<": np.less,
        "=": np.equal,
    }
    return np.asarray(operators[comparison.operator](values, comparison.value))


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
