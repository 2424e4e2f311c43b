"""The price of exact odds, charged before any of the work.

Two budgets. The distribution of the total, and of one die, may hold at most `MAX_SUPPORT`
possible values. And the work, estimated from the shapes of the arrays the engines will build, must
stay under `MAX_WORK`: the estimate is in nanoseconds of a modest 2-core machine, calibrated by
timing the engines, and only its order of magnitude matters (a few seconds at most).

>>> from jdr.dice.notation import parse
>>> price(parse("100d6kh50"), exact=True)
>>> price(parse("1000d20kh500"), exact=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
jdr.errors.LimitError: expression: '1000d20kh500' (too large to compute exactly; ...)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from jdr.dice.notation.limits import MAX_EXPLOSIONS, MAX_SUPPORT, too_large
from jdr.dice.notation.tree import DiceTerm, Expression
from jdr.i18n import _

MAX_WORK = 3_000_000_000
"""Estimated nanoseconds of work odds may take."""

# Calibration, in nanoseconds. Convolution: per cell; an FFT per cell and doubling; the exact
# engine per value of the side it walks, and per cell a multiplication of Python integers, which
# costs about `_MULTIPLY · (bits_a · bits_b) ** 0.8` (Karatsuba). A typical weight of a sum of
# values has about `_TYPICAL_BITS` of the bits of the denominator (the tails are small numbers);
# one of a count of successes, all of them.
_FLOAT_CELL = 2.0
_FFT_CELL = 10.0
_EXACT_CELL = 25.0
_EXACT_ROW = 3_000.0
_MULTIPLY = 0.018
_TYPICAL_BITS = 0.7
# Keep/drop programme: per (value, dice count) step, per stretch of places, per cell.
_KEEP_FLOAT_STEP = 10_000.0
_KEEP_EXACT_STEP = 20_000.0
_KEEP_EXACT_STEP_PER_DIE = 200.0
_KEEP_FLOAT_RUN = 2_000.0
_KEEP_EXACT_RUN = 5_000.0
_KEEP_FLOAT_CELL = 0.7
_KEEP_EXACT_BIT = 0.1
# A die's value built, scored or mapped in Python.
_PYTHON_VALUE = 1_000.0
_DIRECT_MAX_NONZERO = 24  # as in jdr.prob.convolve


@dataclass(frozen=True)
class _Shape:
    """What the engines will hold for a distribution: how many values, how many bits per weight
    (a typical one, for the exact engine)."""

    size: int
    bits: float


def price(expression: Expression, exact: bool, cap: int = MAX_EXPLOSIONS) -> None:
    """Refuse odds that would lay out too many values or take too long, before doing any of it."""
    dice = [term for term in expression.terms if isinstance(term, DiceTerm)]
    die_sizes = [_die_size(term, cap) for term in dice]
    shapes = [_term_shape(term, cap) for term in dice]
    support = 1 + sum(shape.size - 1 for shape in shapes)
    if support > MAX_SUPPORT or any(size > MAX_SUPPORT for size in die_sizes):
        raise too_large(expression, _("at most {max} possible totals").format(max=MAX_SUPPORT))
    if estimate(expression, exact, cap) > MAX_WORK:
        raise too_large(expression, _("fewer or smaller dice"))


def estimate(expression: Expression, exact: bool, cap: int = MAX_EXPLOSIONS) -> float:
    """The estimated work of the odds of `expression`, in nanoseconds (see `MAX_WORK`)."""
    dice = [term for term in expression.terms if isinstance(term, DiceTerm)]
    work = sum(_term_work(term, exact, cap) for term in dice)
    ordered = sorted((_term_shape(term, cap) for term in dice), key=lambda s: s.size)
    for index in range(1, len(ordered)):  # as odds.add_up adds the terms
        small, large = sorted(ordered[index - 1 : index + 1], key=lambda s: s.size)
        work += _convolution_work(large, small, exact)
        ordered[index] = _sum_shape(large, small)
    return work


def _die_size(term: DiceTerm, cap: int) -> int:
    """How many values one die's distribution spans (a whole chain when it explodes)."""
    return term.size * (cap + 1) if term.explode else term.size


def _die_bits(term: DiceTerm, cap: int) -> float:
    """Bits of one die's exact denominator."""
    return math.log2(term.size) * (cap + 1 if term.explode else 1)


def _typical_bits(term: DiceTerm, cap: int) -> float:
    """Bits of a typical exact weight of one die, once dice are added up."""
    return _die_bits(term, cap) * (1.0 if term.counts_successes else _TYPICAL_BITS)


def _spread(term: DiceTerm, cap: int) -> int:
    """How far apart the lowest and highest contribution of one die are."""
    if term.counts_successes:
        return 1 if term.failure is None else 2
    return _die_size(term, cap) - 1


def _term_shape(term: DiceTerm, cap: int) -> _Shape:
    return _Shape(term.kept * _spread(term, cap) + 1, term.count * _typical_bits(term, cap))


def _term_work(term: DiceTerm, exact: bool, cap: int) -> float:
    values = _die_size(term, cap)
    bits = _die_bits(term, cap)
    kept = term.kept
    if kept == 0:
        return 0.0
    keeping = kept < term.count
    work = float(values)
    if term.counts_successes and not keeping:
        work += values * _PYTHON_VALUE  # a ScoredDie built, or a chain mapped, value by value
    if exact and term.explode:
        work += values * _PYTHON_VALUE  # a chain of big integers built
    if keeping:
        return work + _keep_work(term, values, bits, exact, cap)
    one = _Shape(_spread(term, cap) + 1, _typical_bits(term, cap))
    return work + _power_work(one, term.count, exact)


def _keep_work(term: DiceTerm, values: int, bits: float, exact: bool, cap: int) -> float:
    """The work of `order.keep_distribution`: for each value and each count of dice showing it,
    a few stretches of places, each one block of the (places × kept sums) state."""
    n, kept = term.count, term.kept
    steps = values * n
    runs = steps * (2 + min(kept, n - kept))
    cells = values * (n + 1) * (n + 2) // 2 * (kept * _spread(term, cap) + 1)
    if exact:
        return (
            steps * (_KEEP_EXACT_STEP + _KEEP_EXACT_STEP_PER_DIE * n)
            + runs * _KEEP_EXACT_RUN
            + cells * (_EXACT_CELL + _KEEP_EXACT_BIT * n * bits)
        )
    return steps * _KEEP_FLOAT_STEP + runs * _KEEP_FLOAT_RUN + cells * _KEEP_FLOAT_CELL


def _power_work(base: _Shape, n: int, exact: bool) -> float:
    """The work of `jdr.prob.power` (repeated squaring), step by step."""
    work = 0.0
    result: _Shape | None = None
    square = base
    while n:
        if n & 1:
            if result is not None:
                work += _convolution_work(result, square, exact)
            result = square if result is None else _sum_shape(result, square)
        n >>= 1
        if n:
            work += _convolution_work(square, square, exact)
            square = _sum_shape(square, square)
    return work


def _sum_shape(a: _Shape, b: _Shape) -> _Shape:
    return _Shape(a.size + b.size - 1, a.bits + b.bits)


def _convolution_work(a: _Shape, b: _Shape, exact: bool) -> float:
    """The work of `jdr.prob.convolve(a, b)`: Python integers (walking `b`), floats or an FFT."""
    cells = a.size * b.size
    if exact:
        multiply = _MULTIPLY * math.pow(a.bits * b.bits, 0.8)
        return b.size * _EXACT_ROW + cells * (_EXACT_CELL + multiply)
    if min(a.size, b.size) <= _DIRECT_MAX_NONZERO:
        return cells * _FLOAT_CELL
    out = a.size + b.size - 1
    return out * math.log2(out) * _FFT_CELL
