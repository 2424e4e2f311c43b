"""The price of odds, charged before any of the work.

Two budgets. The distribution of the total, and of one die, may hold at most `MAX_SUPPORT`
possible values. And the work, estimated from the shapes of the arrays the engines will build, must
stay under a time budget: for exact odds `jdr.prob.cost.MAX_EXACT_NS` (one second, priced by
`jdr.prob.cost` for the engine that will run), for float odds `MAX_WORK`. Estimates are in
nanoseconds of a modest 2-core machine, calibrated by timing the engines
(`benchmarks/bench_exact.py`); only their order of magnitude matters.

>>> from jdr.dice.notation import parse
>>> price(parse("100d6kh50"), exact=True)
>>> price(parse("1000d100kh500"), exact=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
jdr.errors.LimitError: expression: '1000d100kh500' (too large to compute exactly; ...)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from jdr.dice.notation.limits import MAX_EXPLOSIONS, MAX_SUPPORT, too_large
from jdr.dice.notation.tree import DiceTerm, Expression, Scaled, dice_terms
from jdr.i18n import _
from jdr.prob import cost
from jdr.prob.cost import Poly
from jdr.prob.squaring import repeated_squaring

MAX_WORK = 3_000_000_000
"""Estimated nanoseconds of work float odds may take."""

# Float engine calibration, in nanoseconds: convolution per cell, an FFT per cell and doubling;
# keep/drop per Horner step and per multiply-add of its product.
_FLOAT_CELL = 2.0
_FFT_CELL = 10.0
_KEEP_FLOAT_STEP = 3_000.0
_KEEP_FLOAT_CELL = 1.0
# A die's value built, scored or mapped in Python.
_PYTHON_VALUE = 1_000.0
_DIRECT_MAX_NONZERO = 24  # as in jdr.prob.convolve


@dataclass(frozen=True)
class _Shape:
    """What the float engine holds for a distribution: how many values."""

    size: int


def price(expression: Expression, exact: bool, cap: int = MAX_EXPLOSIONS) -> None:
    """Refuse odds that would lay out too many values or take too long, before doing any of it."""
    dice = dice_terms(expression)
    die_sizes = [_die_size(term, cap) for term in dice]
    support = _support(expression, cap)
    if support > MAX_SUPPORT or any(size > MAX_SUPPORT for size in die_sizes):
        raise too_large(expression, _("at most {max} possible totals").format(max=MAX_SUPPORT))
    if exact:
        work = estimate(expression, exact, cap)
        cost.refuse(work, "expression", expression.text, _("fewer or smaller dice"))
    elif estimate(expression, exact, cap) > MAX_WORK:
        raise too_large(expression, _("fewer or smaller dice"))


def estimate(expression: Expression, exact: bool, cap: int = MAX_EXPLOSIONS) -> float:
    """The estimated work of the odds of `expression`, in nanoseconds."""
    dice = dice_terms(expression)
    work = sum(_term_work(term, exact, cap) for term in dice) + _scaling_work(expression, cap)
    if exact:
        polys = sorted((_term_poly(term, cap) for term in dice), key=lambda p: p.cells)
        for index in range(1, len(polys)):  # as odds.add_up adds the terms
            work += cost.product_ns(polys[index - 1], polys[index])
            polys[index] = polys[index - 1].times(polys[index])
        if polys:  # every total's probability handed over as a fraction
            work += cost.answer_ns(polys[-1].cells, polys[-1].bits)
        return work
    ordered = sorted((_term_shape(term, cap) for term in dice), key=lambda s: s.size)
    for index in range(1, len(ordered)):  # as odds.add_up adds the terms
        small, large = sorted(ordered[index - 1 : index + 1], key=lambda s: s.size)
        work += _convolution_work(large, small)
        ordered[index] = _sum_shape(large, small)
    return work


def _support(expression: Expression, cap: int) -> int:
    """How many totals the expression's distribution spans (an upper bound)."""
    span = 0
    for term in expression.terms:
        if isinstance(term, DiceTerm):
            span += _term_shape(term, cap).size - 1
        elif isinstance(term, Scaled):
            inner = _support(term.inner, cap) - 1
            for operator, number in term.steps:
                inner = inner * number if operator == "*" else inner // number + 1
            span += inner
    return span + 1


def _scaling_work(expression: Expression, cap: int) -> float:
    """Mapping each total of a term in parentheses through its steps, value by value."""
    work = 0.0
    for term in expression.terms:
        if isinstance(term, Scaled):
            work += _support(term.inner, cap) * _PYTHON_VALUE + _scaling_work(term.inner, cap)
    return work


def _die_size(term: DiceTerm, cap: int) -> int:
    """How many values one die's distribution spans (a whole chain when it explodes)."""
    return term.size * (cap + 1) if term.explode else term.size


def _die_bits(term: DiceTerm, cap: int) -> float:
    """Bits of one die's exact denominator."""
    return math.log2(term.size) * (cap + 1 if term.explode else 1)


def _spread(term: DiceTerm, cap: int) -> int:
    """How far apart the lowest and highest contribution of one die are."""
    if term.counts_successes:
        return 1 if term.failure is None else 2
    return _die_size(term, cap) - 1


def _term_shape(term: DiceTerm, cap: int) -> _Shape:
    return _Shape(term.kept * _spread(term, cap) + 1)


def _term_poly(term: DiceTerm, cap: int) -> Poly:
    """What the exact engine holds for one term's distribution."""
    values = term.kept * _spread(term, cap) + 1
    return Poly((values,), values, term.count * _die_bits(term, cap))


def _term_work(term: DiceTerm, exact: bool, cap: int) -> float:
    values = _die_size(term, cap)
    kept = term.kept
    if kept == 0:
        return 0.0
    keeping = kept < term.count
    work = float(values)
    if term.counts_successes and not keeping:
        work += values * _PYTHON_VALUE  # a ScoredDie built, or a chain mapped, value by value
    if exact and term.explode:
        work += values * _PYTHON_VALUE  # a chain of big integers built
    span = _spread(term, cap)
    if keeping:
        if exact:
            return work + cost.keep_ns(values, term.count, kept, span, _die_bits(term, cap))
        growing = kept * span / 2 + 1  # a polynomial of the kept dice, on average
        if values > 2 * kept:  # as order.py: every power updated at once, `2·kept` array adds
            adds = values * 2 * kept
            return work + adds * (_KEEP_FLOAT_STEP + kept * growing * _KEEP_FLOAT_CELL)
        short = min(values, span + 1) / 2 + 20  # the values before the threshold, and overhead
        return work + values * kept * (_KEEP_FLOAT_STEP + growing * short * _KEEP_FLOAT_CELL)
    if exact:
        one = Poly((span + 1,), min(values, span + 1), _die_bits(term, cap))
        return work + cost.power_ns(one, term.count)
    return work + _power_work(_Shape(span + 1), term.count)


def _power_work(base: _Shape, n: int) -> float:
    """The work of `jdr.prob.power` on floats (repeated squaring), step by step."""
    work = 0.0

    def times(a: _Shape, b: _Shape) -> _Shape:
        nonlocal work
        work += _convolution_work(a, b)
        return _sum_shape(a, b)

    repeated_squaring(base, n, times)
    return work


def _sum_shape(a: _Shape, b: _Shape) -> _Shape:
    return _Shape(a.size + b.size - 1)


def _convolution_work(a: _Shape, b: _Shape) -> float:
    """The work of `jdr.prob.convolve(a, b)` on floats: direct shifted adds or an FFT."""
    cells = a.size * b.size
    if min(a.size, b.size) <= _DIRECT_MAX_NONZERO:
        return cells * _FLOAT_CELL
    out = a.size + b.size - 1
    return out * math.log2(out) * _FFT_CELL
