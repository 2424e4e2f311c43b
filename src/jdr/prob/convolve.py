"""Convolution: the distribution of a sum of independent parts.

Two engines over the same code path. The fast one works on float64: `np.convolve` for one component
while both sides are short, direct shifted adds when one side has few possible values (a scored die
has two to four), otherwise an FFT, with the support of the result computed alongside so that
impossible sums stay exactly 0; a pool of n identical dice is one die raised to the n-th power by
repeated squaring. The exact one counts outcomes in Python integers and multiplies them as
polynomials (`jdr.prob.exact`: FLINT, or NumPy object arrays without it); it never rounds, and the
tests check it against brute force.

>>> from jdr.dice import ScoredDie
>>> two_d6 = power(die_distribution(ScoredDie.sum(6), exact=True), 2)
>>> two_d6.probability(7)
Fraction(1, 6)
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from jdr.dice.pool import Pool, ScoredDie
from jdr.prob import exact as exact_engine
from jdr.prob.distribution import Distribution
from jdr.prob.squaring import repeated_squaring

# Direct convolution costs nnz(small) shifted adds of the large side; an FFT costs a few passes of
# n log n over the output. Below this many non-zero cells on the small side, direct wins.
_DIRECT_MAX_NONZERO = 24
# One-component float sums go through `np.convolve` (a C loop, no Python per cell) while the product
# of the two lengths stays below this: measured faster than the FFT and its support mask up to about
# 1000 × 1000 cells on a 2-core machine.
_NP_CONVOLVE_MAX_CELLS = 1 << 20


def die_distribution(die: ScoredDie, exact: bool = False) -> Distribution:
    """The distribution of one scored die's vector: each face weighs 1 out of `size`.

    >>> die_distribution(ScoredDie.threshold(10, success_at=6), exact=True).probability((1, 0))
    Fraction(1, 2)
    """
    scores = np.array(die.scores, dtype=np.int64)
    low = scores.min(axis=0)
    shape = tuple(int(n) for n in scores.max(axis=0) - low + 1)
    cells = np.ravel_multi_index(tuple((scores - low).T), shape)
    counts = np.bincount(cells, minlength=math.prod(shape)).reshape(shape)
    offset = tuple(int(o) for o in low)
    if exact:
        return Distribution(offset, counts.astype(object), die.size)
    return Distribution(offset, counts / die.size, 1.0)


def unit(width: int, exact: bool = False) -> Distribution:
    """The distribution of an empty sum: the zero vector, surely."""
    return Distribution.from_counts({(0,) * width: 1}, exact=exact)


def convolve(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent vectors."""
    if a.exact != b.exact:
        raise ValueError("cannot mix the exact and the float engines")
    if a.width != b.width:
        raise ValueError("cannot add vectors of different widths")
    offset = tuple(x + y for x, y in zip(a.offset, b.offset, strict=True))
    if a.exact:
        weights = exact_engine.multiply(a.weights, b.weights)
        return Distribution(offset, weights, a.denominator * b.denominator)
    return Distribution(offset, _float_sum(a.weights, b.weights), 1.0)


def power(base: Distribution, n: int) -> Distribution:
    """The distribution of the sum of `n` independent copies of `base` (repeated squaring)."""
    if n < 0:
        raise ValueError("a count of dice cannot be negative")
    if n == 0:
        return unit(base.width, base.exact)
    if base.exact:
        offset = tuple(n * o for o in base.offset)
        return Distribution(offset, exact_engine.power(base.weights, n), base.denominator**n)
    return repeated_squaring(base, n, convolve)


def pool_distribution(pool: Pool, exact: bool = False) -> Distribution:
    """The joint distribution of a pool's summed score vector.

    >>> from jdr.dice import ScoredDie, Pool
    >>> d10 = ScoredDie.threshold(10, success_at=6, failure_at=1)
    >>> dist = pool_distribution(Pool.of((d10, 4)), exact=True)
    >>> dist.outcomes(lambda v: v[0] - v[1] > 0)[True]
    Fraction(1601, 2000)
    """
    result: Distribution | None = None
    for die, count in pool.groups:
        part = power(die_distribution(die, exact), count)
        result = part if result is None else convolve(result, part)
    return result if result is not None else unit(pool.width, exact)


def sum_distributions(
    parts: list[Distribution], exact: bool = False, width: int = 1
) -> Distribution:
    """The distribution of the sum of independent parts (in any order)."""
    result = unit(width, exact)
    for part in sorted(parts, key=lambda d: d.weights.size):
        result = convolve(result, part)
    return result


def _float_sum(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The float engine's convolution, by the cheapest exact-support method for these shapes."""
    if a.ndim == 1 and a.size * b.size <= _NP_CONVOLVE_MAX_CELLS:
        return np.convolve(a, b)
    nonzero_a, nonzero_b = np.count_nonzero(a), np.count_nonzero(b)
    small, large, nonzero = (a, b, nonzero_a) if nonzero_a <= nonzero_b else (b, a, nonzero_b)
    if nonzero <= _DIRECT_MAX_NONZERO:
        return exact_engine.direct(large, small)
    return _fft(a, b)


def _fft(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    shape = tuple(x + y - 1 for x, y in zip(a.shape, b.shape, strict=True))
    fast = tuple(_next_fast_len(n) for n in shape)
    axes = tuple(range(len(shape)))
    window = tuple(slice(0, n) for n in shape)

    def product(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        fx = np.fft.rfftn(x, fast, axes=axes)
        fy = fx if x is y else np.fft.rfftn(y, fast, axes=axes)
        return np.fft.irfftn(fx * fy, fast, axes=axes)[window]

    values = product(a, b) if a is not b else product(a, a)
    # The FFT leaves ~1e-17 noise where no sum is possible: compute the true support (counts of
    # ways, ≥ 1 where possible) and zero everything else.
    mask_a = (a > 0).astype(np.float64)
    mask_b = mask_a if a is b else (b > 0).astype(np.float64)
    support = product(mask_a, mask_b) > 0.5
    result: npt.NDArray[np.float64] = np.where(support, np.maximum(values, 0.0), 0.0)
    return result


def _next_fast_len(n: int) -> int:
    """The smallest 2·3·5-smooth number ≥ n (FFT sizes NumPy handles fastest)."""
    best: int = 2 ** math.ceil(math.log2(max(n, 1)))
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            p235 = p35
            while p235 < n:
                p235 *= 2
            best = min(best, p235)
            p35 *= 3
        p5 *= 5
    return best
