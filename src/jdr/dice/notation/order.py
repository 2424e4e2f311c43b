"""Keep and drop: the exact distribution of the best (or worst) `kept` of `dice` dice.

An order-statistics dynamic programme. The possible values of one die are taken one by one, from the
preferred end (highest first for `kh` / `dl`); the state is `(dice placed so far, sum of the kept
ones)`. Placing `j` more dice of value `v` when `p` are placed weighs `C(dice − p, j) · w(v)^j`
(which of the remaining dice show `v`), and the placed dice that fall among the first `kept` places
count. When more dice are kept than dropped the programme runs from the other end instead, dropping
the first places: the cost grows with `min(kept, dropped)`.

Weights are Python integers over `denominator ** dice` in the exact engine, floats otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from jdr.prob import Distribution


def keep_distribution(
    die: Distribution, dice: int, kept: int, highest: bool, contribution: Callable[[int], int]
) -> Distribution:
    """The distribution of the summed `contribution` of the `kept` highest (or lowest) dice.

    `die` is the distribution of one die's value; ties between equal values do not matter.

    >>> from jdr.prob import die_distribution
    >>> from jdr.dice import ScoredDie
    >>> d6 = die_distribution(ScoredDie.sum(6), exact=True)
    >>> keep_distribution(d6, 2, 1, True, lambda v: v).probability(6)
    Fraction(11, 36)
    """
    exact = die.exact
    faces = [(die.offset[0] + int(i), die.weights[i]) for i in np.flatnonzero(die.weights != 0)]
    if highest:
        faces.reverse()
    if kept > dice - kept:  # run from the other end: the first places are the dropped ones
        faces.reverse()
        low, high = dice - kept, dice
    else:
        low, high = 0, kept
    scores = [contribution(value) for value, _ in faces]
    least = min(scores)
    span = kept * (max(scores) - least) + 1
    state = _zeros((dice + 1, span), exact)
    state[0, 0] = 1
    places = np.arange(dice + 1)
    for (_value, weight), score in zip(faces, scores, strict=True):
        state = _place(state, weight, score - least, low=low, high=high, places=places, exact=exact)
    weights = state[dice]
    denominator = die.denominator**dice if exact else 1.0
    return Distribution((kept * least,), weights, denominator)


def _place(
    state: npt.NDArray[Any],
    weight: Any,
    step: int,
    *,
    low: int,
    high: int,
    places: npt.NDArray[np.int64],
    exact: bool,
) -> npt.NDArray[Any]:
    """The state after placing every possible number `j` of dice showing one more value."""
    dice, span = state.shape[0] - 1, state.shape[1]
    new = state.copy()
    coefficient = _zeros((dice + 1,), exact)
    coefficient[:] = 1
    for j in range(1, dice + 1):
        # C(dice − p, j) · weight^j, for every p, from the one for j − 1
        if exact:
            coefficient = coefficient * (dice - places - j + 1) * weight // j
        else:
            coefficient = coefficient * ((dice - places - j + 1) * weight / j)
        rows = dice - j + 1  # p in 0 .. dice − j
        kept = np.clip(
            np.minimum(places[:rows] + j, high) - np.maximum(places[:rows], low), 0, None
        )
        for start, stop, shift in _runs(kept * step):  # shift ≤ kept · step < span
            block = state[start:stop, : span - shift] * coefficient[start:stop, None]
            new[start + j : stop + j, shift:] += block
    return new


def _runs(shifts: npt.NDArray[np.int64]) -> list[tuple[int, int, int]]:
    """`[(start, stop, shift), …]`: the stretches of places where the shift is the same."""
    edges = np.flatnonzero(np.diff(shifts)) + 1
    starts = [0, *edges.tolist()]
    stops = [*edges.tolist(), len(shifts)]
    return [(a, b, int(shifts[a])) for a, b in zip(starts, stops, strict=True)]


def _zeros(shape: tuple[int, ...], exact: bool) -> npt.NDArray[Any]:
    if exact:
        array: npt.NDArray[Any] = np.zeros(shape, dtype=object)
        array[...] = 0
        return array
    return np.zeros(shape, dtype=np.float64)
