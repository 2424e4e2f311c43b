"""Keep and drop: the exact distribution of the best (or worst) `kept` of `dice` dice.

By order statistics, one possible value at a time, never enumerating rolls. Take the values from
the preferred end (highest first for `kh` / `dl`) and call *threshold* the value of the last die
kept. For a threshold `v`: `p < kept` dice show a value before `v` (all kept), at least
`kept − p` of the other `dice − p` show `v` (exactly `kept − p` of them are kept), and the rest
show a value after `v` (dropped). So the kept sum's polynomial is

    Σ_v  Σ_{p < kept}  C(dice, p) · B_v(dice − p, kept − p) · R_v(x)^p · x^((kept − p)·c(v))

where `R_v` is the polynomial of one die's contribution `c` over the values before `v`, and
`B_v(m, r) = Σ_{j ≥ r} C(m, j) · w^j · F^(m − j)` weighs "at least `r` of `m` dice show `v`, the
others a value after it" (`w` the weight of `v`, `F` that of the values after it). The inner sum
is evaluated by Horner's rule in `R_v`: `kept` polynomial products per value, whatever the number
of dice. Equal values need no tie rule: they contribute alike.

Weights are whole numbers over `denominator ** dice` in the exact engine (the products on FLINT,
`jdr.prob.exact.horner`), floats otherwise (`B` then starts from logarithms, so that no term
underflows before it is weighed).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from jdr.prob import exact as exact_engine
from jdr.prob.distribution import Distribution

_DIRECT_FLOAT_DICE = 60
"""Up to this many dice, `C(n, j) · w^j · F^(n − j)` in floats underflows only where the term
itself is below 1e-290: no logarithms needed."""


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
    >>> keep_distribution(d6, 4, 3, True, lambda v: v).probability(18)
    Fraction(7, 432)
    """
    if not 0 < kept <= dice:
        raise ValueError("keep between 1 and all of the dice")
    exact = die.exact
    index = np.flatnonzero(die.weights != 0)
    values = (index + die.offset[0]).tolist()
    weights = die.weights[index].tolist()
    if highest:
        values.reverse()
        weights.reverse()
    scores = [contribution(value) for value in values]
    least = min(scores)
    steps = [score - least for score in scores]
    span = max(steps)
    size = kept * span + 1
    # Horner costs `kept` products per threshold by the polynomial of the values before it;
    # keeping its powers up to date costs about kept² / 2 shifted adds instead: cheaper when
    # there are many values for few dice kept (an exploding die's chain, a d1000).
    by_powers = len(values) > 2 * kept
    if exact and exact_engine.flint_polynomial([0]) is not None:
        thresholds = _flint_by_powers if by_powers else _flint_by_horner
        kept_sum = exact_engine.from_flint(thresholds(weights, steps, dice, kept), size)
    else:
        arrays = _arrays_by_powers if by_powers else _arrays_by_horner
        kept_sum = arrays(weights, steps, dice, kept, _zeros(size, exact))
    denominator = die.denominator**dice if exact else 1.0
    return Distribution((kept * least,), kept_sum, denominator)


def _flint_by_horner(weights: list[int], steps: list[int], dice: int, kept: int) -> Any:
    """Σ over thresholds of `Σ_p a_p · R^p · x^((kept − p)·step)`, by Horner's rule in `R`, on
    FLINT's polynomials."""
    poly = exact_engine.flint_polynomial
    above = [0] * (max(steps) + 1)  # R: the values before the threshold
    result = poly([])
    for weight, step, after in zip(weights, steps, _afters(weights), strict=True):
        coefficients = list(_coefficients(dice, kept, weight, after, True))
        if not any(above):
            coefficients = coefficients[:1]  # no value before the threshold: p = 0 only
        before = poly(above)
        last = len(coefficients) - 1
        inner = poly([coefficients[last]])
        for p in range(last - 1, -1, -1):
            inner = inner * before + poly([coefficients[p]]).left_shift((last - p) * step)
        result += inner.left_shift(step * (kept - last))
        above[step] += weight
    return result


def _flint_by_powers(weights: list[int], steps: list[int], dice: int, kept: int) -> Any:
    """The same sum, keeping `R^p` for p < kept up to date as each value joins `R`:
    `(R + w·x^s)^p = Σ_i C(p, i) · w^i · x^(i·s) · R^(p − i)`."""
    poly = exact_engine.flint_polynomial
    powers = [poly([1])] + [poly([])] * (kept - 1)
    result = poly([])
    for weight, step, after in zip(weights, steps, _afters(weights), strict=True):
        for p, coefficient in enumerate(_coefficients(dice, kept, weight, after, True)):
            result += (powers[p] * coefficient).left_shift(step * (kept - p))
        for p in range(kept - 1, 0, -1):
            for i in range(1, p + 1):
                scale = math.comb(p, i) * weight**i
                powers[p] += (powers[p - i] * scale).left_shift(step * i)
    return result


def _arrays_by_horner(
    weights: list[Any], steps: list[int], dice: int, kept: int, result: Any
) -> Any:
    """`_flint_by_horner` on NumPy arrays: float64, or Python integers without FLINT."""
    exact = result.dtype == object
    above = _zeros(max(steps) + 1, exact)
    for weight, step, after in zip(weights, steps, _afters(weights), strict=True):
        coefficients = list(_coefficients(dice, kept, weight, after, exact))
        if not above.any():
            coefficients = coefficients[:1]
        last = len(coefficients) - 1
        inner = _zeros(last * max(above.shape[0] - 1, step) + 1, exact)
        inner[0] = coefficients[last]
        length = 1
        for p in range(last - 1, -1, -1):
            product = (
                exact_engine.multiply(inner[:length], above)
                if exact
                else np.convolve(inner[:length], above)
            )
            length = product.shape[0]
            inner[:length] = product
            inner[(last - p) * step] += coefficients[p]
            length = max(length, (last - p) * step + 1)
        shift = step * (kept - last)
        result[shift : shift + inner.shape[0]] += inner
        above[step] += weight
    return result


def _arrays_by_powers(
    weights: list[Any], steps: list[int], dice: int, kept: int, result: Any
) -> Any:
    """`_flint_by_powers` on NumPy arrays, every power updated at once for each `i`."""
    exact = result.dtype == object
    size = result.shape[0]
    powers = np.zeros((kept, size), dtype=result.dtype)
    if exact:
        powers[...] = 0
    powers[0, 0] = 1
    for weight, step, after in zip(weights, steps, _afters(weights), strict=True):
        for p, coefficient in enumerate(_coefficients(dice, kept, weight, after, exact)):
            shift = step * (kept - p)
            result[shift:] += powers[p, : size - shift] * coefficient
        old = powers.copy()
        for i in range(1, kept):
            scale = np.array([math.comb(p, i) * weight**i for p in range(i, kept)], dtype=old.dtype)
            powers[i:, i * step :] += scale[:, None] * old[: kept - i, : size - i * step]
    return result


def _afters(weights: list[Any]) -> list[Any]:
    """The weight of the values after each one, summed from the far end (so that floats never
    come out negative, as subtracting from the total could).

    >>> _afters([1, 2, 3])
    [5, 3, 0]
    """
    afters = [weights[0] - weights[0]] * len(weights)
    for index in range(len(weights) - 2, -1, -1):
        afters[index] = afters[index + 1] + weights[index + 1]
    return afters


def _coefficients(dice: int, kept: int, weight: Any, after: Any, exact: bool) -> Iterator[Any]:
    """`C(dice, p) · B(dice − p, kept − p)` for p = 0, 1, … kept − 1 (see the module's text).

    `B` moves from `(m, r)` to `(m − 1, r − 1)` by `B' = (B + F·T) / (w + F)` with
    `T = C(m − 1, r − 1) · w^(r − 1) · F^(dice − kept)`: sums of positive terms only, and an exact
    division on whole numbers. Floats for more than `_DIRECT_FLOAT_DICE` dice go through
    logarithms, where a power of a weight alone could underflow.
    """
    if not exact and dice > _DIRECT_FLOAT_DICE:
        yield from _log_coefficients(dice, kept, weight, after)
        return
    at_or_after = weight + after
    tail = after ** (dice - kept)

    def term(j: int) -> Any:
        return math.comb(dice, j) * weight**j * after ** (dice - j)

    if exact and kept <= dice - kept:  # all the ways, less those with fewer than `kept` at `v`
        b = at_or_after**dice - sum(term(j) for j in range(kept))
    else:
        b = sum(term(j) for j in range(kept, dice + 1))
    for p in range(kept):
        yield math.comb(dice, p) * b
        if p + 1 < kept:
            t = math.comb(dice - p - 1, kept - p - 1) * weight ** (kept - p - 1) * tail
            b = (b + after * t) // at_or_after if exact else (b + after * t) / at_or_after


def _log_coefficients(dice: int, kept: int, weight: float, after: float) -> Iterator[float]:
    """The float coefficients from logarithms (see `_coefficients`)."""
    log_w = math.log(weight)
    log_f = math.log(after) if after > 0 else -math.inf
    b = float(np.exp(_log_terms(dice, kept, log_w, log_f)).sum())
    for p in range(kept):
        yield math.exp(_log_term(dice, p, 0.0, 0.0) + math.log(b)) if b > 0 else 0.0
        if p + 1 < kept:
            t = math.exp(_log_term(dice - p - 1, kept - p - 1, log_w, log_f) + log_f)
            b = (b + t) / (weight + after)


def _log_terms(dice: int, kept: int, log_w: float, log_f: float) -> Any:
    """`log(C(dice, j) · w^j · F^(dice − j))` for j = kept … dice, by NumPy (`log C` summed up
    from `log C(dice, kept)` one ratio at a time)."""
    j = np.arange(kept + 1, dice + 1)
    log_binomial = _log_term(dice, kept, 0.0, 0.0) + np.concatenate(
        ([0.0], np.cumsum(np.log(dice - j + 1) - np.log(j)))
    )
    j = np.arange(kept, dice + 1)
    with np.errstate(invalid="ignore"):
        log_f_part = np.where(j < dice, (dice - j) * log_f, 0.0)
    return log_binomial + j * log_w + log_f_part


def _log_term(m: int, j: int, log_w: float, log_f: float) -> float:
    """log(C(m, j) · w^j · F^(m − j)), with F^0 = 1 even when F = 0 (`C(m, j)` alone with
    zeros for both logarithms)."""
    log_binomial = math.lgamma(m + 1) - math.lgamma(j + 1) - math.lgamma(m - j + 1)
    return log_binomial + j * log_w + ((m - j) * log_f if m > j else 0.0)


def _zeros(size: int, exact: bool) -> Any:
    return exact_engine.zeros((size,)) if exact else np.zeros(size, dtype=np.float64)


def keep_distributions(
    die: Distribution,
    counts: list[int],
    kept: int,
    highest: bool,
    contribution: Callable[[int], int],
) -> dict[int, Distribution]:
    """`keep_distribution(die, n, kept, …)` for each `n` of `counts`, in one pass over the
    thresholds (floats): the powers of `R` do not depend on the number of dice, only the
    coefficients do, so every count shares them (`jdr.dice.notation.pools` asks for every
    number of dice outside a tally at once). Exact weights, or more than `_DIRECT_FLOAT_DICE`
    dice, go one count at a time through `keep_distribution`.

    >>> from jdr.prob import die_distribution
    >>> from jdr.dice import ScoredDie
    >>> d6 = die_distribution(ScoredDie.sum(6))
    >>> both = keep_distributions(d6, [2, 4], 1, True, lambda v: v)
    >>> round(both[2].probability(6), 12), round(both[4].probability(6), 12)
    (0.305555555556, 0.51774691358)
    """
    if not all(0 < kept < n for n in counts):
        raise ValueError("keep between 1 and fewer than all of the dice")
    if die.exact or max(counts, default=0) > _DIRECT_FLOAT_DICE:
        return {n: keep_distribution(die, n, kept, highest, contribution) for n in counts}
    index = np.flatnonzero(die.weights != 0)
    values = (index + die.offset[0]).tolist()
    weights = die.weights[index].astype(np.float64)
    if highest:
        values.reverse()
        weights = weights[::-1].copy()
    scores = [contribution(value) for value in values]
    least = min(scores)
    steps = [score - least for score in scores]
    size = kept * max(steps) + 1
    afters = np.concatenate((np.cumsum(weights[::-1])[::-1][1:], [0.0]))
    tables = np.stack([_float_table(weights, afters, n, kept) for n in counts], axis=1)
    results = np.zeros((len(counts), size))
    powers = np.zeros((kept, size))
    powers[0, 0] = 1.0
    for position, (weight, step) in enumerate(zip(weights.tolist(), steps, strict=True)):
        row = tables[position]  # (counts, kept)
        for p in range(kept):
            shift = step * (kept - p)
            results[:, shift:] += np.outer(row[:, p], powers[p, : size - shift])
        old = powers.copy()
        for i in range(1, kept):
            scale = np.array([math.comb(p, i) * weight**i for p in range(i, kept)])
            powers[i:, i * step :] += scale[:, None] * old[: kept - i, : size - i * step]
    return {n: Distribution((kept * least,), results[k], 1.0) for k, n in enumerate(counts)}


def _float_table(weights: Any, afters: Any, dice: int, kept: int) -> Any:
    """`_coefficients` of every threshold at once (floats, at most `_DIRECT_FLOAT_DICE` dice):
    an array of one row per value, one column per `p < kept`."""
    b = np.zeros_like(weights)
    for j in range(kept, dice + 1):
        b += math.comb(dice, j) * weights**j * afters ** (dice - j)
    table = np.empty((weights.shape[0], kept))
    tail = afters ** (dice - kept)
    for p in range(kept):
        table[:, p] = math.comb(dice, p) * b
        if p + 1 < kept:
            t = math.comb(dice - p - 1, kept - p - 1) * weights ** (kept - p - 1) * tail
            b = (b + afters * t) / (weights + afters)
    return table
