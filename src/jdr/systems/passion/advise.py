"""Which dice to roll: every pool of one or two sizes, ranked by a goal (the source's question).

For a talent, a difficulty and the pools at hand, every pool of 1 … N dice made of one size
(`5d6`) or two (`2d4+3d12`) gets P(success), P(status quo), P(failure), the mean margin and whether
it is sure (P(success) = 1); the list is ranked by the goal, best first:

- `success`: the highest P(success) — the roll must succeed;
- `no-failure`: the highest P(success) + P(status quo) — a status quo will do;
- `margin`: the highest mean margin.

Ties go to fewer dice, then (a choice of this tool) to the other two measures in that order
(`success`: fewer failures, then the mean margin; `no-failure`: more successes, then the mean
margin; `margin`: more successes, then fewer failures), then to the listing order of `pools`: one
size before two, smaller sizes first.

How it stays fast (all eight sizes, N = 20: 5,480 pools in well under a second, see
benchmarks/bench_advise.py). Each pool's joint `(positives, negatives)` distribution is built by
`jdr.prob.convolve` once: each size's powers `d^1 … d^N` as prefix powers (one die more each
time), and for two sizes `s < t`, `a·ds + b·dt` from `a·ds + (b−1)·dt` by one convolution with one
`dt` — one convolution per pair of counts, each against a die of four scores. The margin of every
cell comes from one margin table (`resolve` once per row and column, see `odds.py`), so the four
figures of a pool are four sums of its weights against fixed masks, ranked in float64; a pool
is sure when every cell its dice can reach is a success — decided on the reachable cells, which
depend only on the number of dice (every size scores (2, 0), (1, 0), (0, 1) and (0, 2)), never on a
float compare. With `exact`, the same steps run on whole numbers and give Fractions: about five
times slower (N = 20: about 1.2 s against 0.25 s on the reference 2-core machine).

>>> from jdr.systems.passion.params import Conditions
>>> best = rank_pools(Conditions(difficulty=2, talent=4, energy=True), [4, 6], max_dice=2)
>>> [(choice.dice, choice.sure) for choice in best[:3]]
[('1d4', True), ('1d6', True), ('2d6', False)]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from jdr.i18n import _
from jdr.prob import Distribution, Probability, convolve, die_distribution, unit
from jdr.prob.cost import refuse
from jdr.systems.passion.odds import Mask, add_die, margin_table
from jdr.systems.passion.params import Conditions, Goal
from jdr.systems.passion.pool import SIZES, passion_die

__all__ = ["GOALS", "Choice", "pools", "rank_pools"]

GOALS: tuple[Goal, ...] = ("success", "no-failure", "margin")
_DIGITS = 12
"""Float figures are compared rounded to 12 decimals, so that equal odds reached by different sums
tie (exact Fractions are compared as they are)."""


@dataclass(frozen=True)
class Choice:
    """One pool and its exact (or float) odds."""

    dice: str
    count: int
    p_success: Probability
    p_status_quo: Probability
    p_failure: Probability
    mean_margin: Probability
    sure: bool

    def as_json(self) -> dict[str, Any]:
        """The JSON keys of a choice: `dice`, `p_success`, `p_status_quo`, `p_failure`,
        `mean_margin`, `sure`."""
        return {
            "dice": self.dice,
            "p_success": self.p_success,
            "p_status_quo": self.p_status_quo,
            "p_failure": self.p_failure,
            "mean_margin": self.mean_margin,
            "sure": self.sure,
        }

    def measures(self, goal: Goal) -> tuple[Probability, Probability, Probability]:
        """The goal's figure, then the two tie-breakers (higher is better for all three)."""
        no_failure = self.p_success + self.p_status_quo
        if goal == "success":
            return self.p_success, -self.p_failure, self.mean_margin
        if goal == "no-failure":
            return no_failure, self.p_success, self.mean_margin
        return self.mean_margin, self.p_success, -self.p_failure


def pools(sizes: Sequence[int], max_dice: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every pool of 1 … `max_dice` dice of one or two of `sizes`, as `((count, size), …)`.

    >>> [("+".join(f"{n}d{s}" for n, s in pool)) for pool in pools([4, 6], 2)]
    ['1d4', '2d4', '1d6', '2d6', '1d4+1d6']
    """
    ordered = sorted(set(sizes))
    for size in ordered:
        for count in range(1, max_dice + 1):
            yield ((count, size),)
    for index, small in enumerate(ordered):
        for large in ordered[index + 1 :]:
            for a in range(1, max_dice):
                for b in range(1, max_dice - a + 1):
                    yield ((a, small), (b, large))


def rank_pools(
    conditions: Conditions,
    sizes: Sequence[int] = SIZES,
    max_dice: int = 10,
    goal: Goal = "success",
    min_dice: int = 1,
    exact: bool = False,
) -> list[Choice]:
    """Every pool of `min_dice` … `max_dice` dice of one or two `sizes`, best first for `goal`.

    >>> from jdr.systems.passion.params import Conditions
    >>> ranked = rank_pools(Conditions(talent=2, difficulty=1), [4, 6], max_dice=3, exact=True)
    >>> [(c.dice, c.p_success) for c in ranked[:3]]
    [('2d6', Fraction(23, 36)), ('2d4', Fraction(5, 8)), ('1d4+1d6', Fraction(5, 8))]
    """
    if exact:
        refuse(exact_ns(sizes, max_dice), "max_dice", max_dice, _("fewer dice or fewer sizes"))
    grid = 2 * max_dice + 1
    table = margin_table(conditions, grid, grid)
    masks = _Masks(table)
    sure = _sure_by_count(table, max_dice)
    ordered = tuple(sorted(set(sizes)))
    if exact or max_dice > KEPT_DICE:
        joints: Iterable[tuple[Distribution, str, int]] = _joints(ordered, max_dice, exact)
    else:
        joints = _kept_joints(ordered, max_dice)
    choices = [
        masks.choice(joint, notation, count, sure[count])
        for joint, notation, count in joints
        if count >= min_dice
    ]

    def key(item: tuple[int, Choice]) -> tuple[Any, ...]:
        position, choice = item
        measures = [_comparable(value, exact) for value in choice.measures(goal)]
        return (-measures[0], choice.count, -measures[1], -measures[2], position)

    return [choice for _position, choice in sorted(enumerate(choices), key=key)]


KEPT_DICE = 10
"""Float joints of pools of at most this many dice are kept for the process (`_kept_joints`):
1,340 pools of the eight sizes, about 3 MB; a simulated fight ranks pools for each new set of
conditions, and only the margin table changes."""


@lru_cache(maxsize=4)
def _kept_joints(
    sizes: tuple[int, ...], max_dice: int
) -> tuple[tuple[Distribution, str, int], ...]:
    """`_joints` in floats, kept (never changed: `_Masks.choice` only reads them)."""
    return tuple(_joints(sizes, max_dice, False))


def _joints(
    sizes: tuple[int, ...], max_dice: int, exact: bool
) -> Iterator[tuple[Distribution, str, int]]:
    """Every pool of 1 … `max_dice` dice of one or two of `sizes` (in order), as `pools` lists
    them: its joint distribution of (positives, negatives), its notation, its number of dice."""
    dice = {size: die_distribution(passion_die(size), exact) for size in sizes}
    powers = {size: _prefix_powers(dice[size], max_dice) for size in sizes}
    for size in sizes:
        for count in range(1, max_dice + 1):
            yield powers[size][count], f"{count}d{size}", count
    for index, small in enumerate(sizes):
        for large in sizes[index + 1 :]:
            for a in range(1, max_dice):
                joint = powers[small][a]
                for b in range(1, max_dice - a + 1):
                    joint = convolve(joint, dice[large])
                    yield joint, f"{a}d{small}+{b}d{large}", a + b


_EXACT_CELL = 260.0
"""Nanoseconds per cell of a pool's joint distribution with `exact`: its convolution with one die
and its four sums against the masks, on Python integers (measured: N = 20, 5,480 pools, 1.2 s)."""


def exact_ns(sizes: Sequence[int], max_dice: int) -> float:
    """The estimated nanoseconds of `rank_pools(…, exact=True)`: every pool's joint, cell by cell.

    >>> from jdr.prob.cost import MAX_EXACT_NS
    >>> exact_ns(SIZES, 10) < MAX_EXACT_NS < exact_ns(SIZES, 30)
    True
    """
    cells = sum((2 * sum(n for n, _size in pool) + 1) ** 2 for pool in pools(sizes, max_dice))
    return cells * _EXACT_CELL


def _prefix_powers(die: Distribution, max_dice: int) -> list[Distribution]:
    """`[d^0, d^1, …, d^max_dice]`: one convolution with one die each."""
    powers = [unit(die.width, die.exact)]
    for _count in range(max_dice):
        powers.append(convolve(powers[-1], die))
    return powers


def _sure_by_count(table: npt.NDArray[np.int64], max_dice: int) -> list[bool]:
    """`sure[n]`: every cell n Passion dice can reach is a success (P(success) = 1, exactly).

    Every size scores the same four vectors, so the reachable cells depend on n alone.
    """
    die = passion_die(SIZES[0])
    mask: Mask = np.ones((1, 1), dtype=bool)
    sure = [False]
    for _count in range(max_dice):
        mask = add_die(mask, die)
        rows, columns = mask.shape
        sure.append(bool(np.all(table[:rows, :columns][mask] > 0)))
    return sure


def _comparable(value: Probability, exact: bool) -> Probability:
    return value if exact else round(float(value), _DIGITS)


class _Masks:
    """The margin table as the masks a pool's weights are summed against."""

    def __init__(self, table: npt.NDArray[np.int64]) -> None:
        self.table = table
        self.success = table > 0
        self.status_quo = table == 0
        self.failure = table < 0

    def choice(self, joint: Distribution, notation: str, count: int, sure: bool) -> Choice:
        """The four figures of one pool (its joint starts at (0, 0), as Passion dice do)."""
        weights = joint.weights
        rows, columns = weights.shape
        window = (slice(0, rows), slice(0, columns))
        sums = [
            weights[mask[window]].sum() for mask in (self.success, self.status_quo, self.failure)
        ]
        margin = (weights * self.table[window]).sum()
        figures: list[Probability]
        if joint.exact:
            denominator = int(joint.denominator)
            figures = [Fraction(int(s), denominator) for s in (*sums, margin)]
        else:
            figures = [float(s) for s in (*sums, margin)]
        p_success, p_status_quo, p_failure, mean = figures
        if sure:  # exactly 1: the reachable cells are all successes
            one = p_success - p_success + 1
            p_success, p_status_quo, p_failure = one, one - 1, one - 1
        return Choice(notation, count, p_success, p_status_quo, p_failure, mean, sure)
