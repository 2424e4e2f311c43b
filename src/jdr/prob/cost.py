"""The price of exact odds, estimated before any of the work, and the refusal when it is too much.

An estimate is in nanoseconds of the reference 2-core machine, from the shapes of the
polynomials the exact engine will hold (`Poly`: the extent along each component, the possible
terms, the bits of a weight) and from which arithmetic runs (`jdr.prob.exact.engine()`): FLINT,
or the built-in engine, which multiplies Python integers cell by cell and is priced as such. Only
the order of magnitude matters: `MAX_EXACT_NS` (one second) is the budget every `--exact` odds and
advice path charges before computing (`refuse`), and `benchmarks/bench_exact.py` prints each
estimate beside the time it took.

>>> from jdr.dice import Pool, ScoredDie
>>> pool = Pool.of((ScoredDie.sum(100), 200))
>>> pool_ns(pool, "flint") < MAX_EXACT_NS < pool_ns(pool, "python")
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from jdr.dice.pool import Pool, ScoredDie
from jdr.errors import LimitError
from jdr.i18n import _
from jdr.prob.exact import Engine, engine
from jdr.prob.squaring import repeated_squaring

MAX_EXACT_NS = 1_000_000_000
"""What exact odds may cost: about one second on the reference machine."""

# FLINT, calibrated by benchmarks/bench_exact.py (nanoseconds): converting a weight to or from a
# Python integer, per term and per bit; raising to a power (FLINT's powering walks every output
# term once per base term) and multiplying (quasi-linear in the bits of the product, or term by
# term when one side is short), per bit.
_FLINT_TERM = 400.0
_FLINT_TERM_BIT = 1.0
_FLINT_POWER_BIT = 0.15
_FLINT_PRODUCT_BIT = 0.25
_FLINT_DIRECT_BIT = 0.05
_FLINT_CALL = 20_000.0
# The built-in engine (Python integers in NumPy object arrays), as priced before FLINT: per cell,
# per row of the side walked, and a product of Python integers ≈ `_PY_MULTIPLY · (bits_a · bits_b)
# ** 0.8` (Karatsuba).
_PY_CELL = 50.0
_PY_ROW = 6_000.0
_PY_MULTIPLY = 0.036
# Order statistics (`jdr.dice.notation.order`): per Horner step, a polynomial product.
_KEEP_STEP = 3_000.0
_KEEP_DIRECT_BIT = 0.2
# Exact answers handed over: per value, and per squared bit (gcd and decimal text).
_ANSWER_VALUE = 1_000.0
_ANSWER_BIT2 = 0.008
_KEEP_ADD_BIT = 0.15


@dataclass(frozen=True)
class Poly:
    """What the exact engine holds: `extent` values along each component, `terms` of them
    possible (≤ the product of the extents), weights of about `bits` bits.

    >>> Poly.of_die(ScoredDie.threshold(10, 6, 1))
    Poly(extent=(2, 2), terms=3, bits=3.3219...)
    """

    extent: tuple[int, ...]
    terms: int
    bits: float

    @classmethod
    def of_die(cls, die: ScoredDie) -> Poly:
        width = die.width
        low = [min(v[i] for v in die.scores) for i in range(width)]
        high = [max(v[i] for v in die.scores) for i in range(width)]
        extent = tuple(h - lo + 1 for lo, h in zip(low, high, strict=True))
        return cls(extent, len(set(die.scores)), math.log2(die.size))

    @property
    def cells(self) -> int:
        return math.prod(self.extent)

    def power(self, n: int) -> Poly:
        """The shape of this polynomial to the `n`-th power."""
        extent = tuple(n * (e - 1) + 1 for e in self.extent)
        return Poly(extent, _terms(extent, self.terms, n), self.bits * n)

    def times(self, other: Poly) -> Poly:
        """The shape of a product."""
        extent = tuple(a + b - 1 for a, b in zip(self.extent, other.extent, strict=True))
        terms = min(math.prod(extent), self.terms * other.terms)
        return Poly(extent, terms, self.bits + other.bits)


def _terms(extent: tuple[int, ...], base_terms: int, n: int) -> int:
    """Possible terms of a power: at most the box, at most the multisets of `n` base terms."""
    return min(math.prod(extent), math.comb(n + base_terms - 1, base_terms - 1))


def convert_ns(poly: Poly, arithmetic: Engine | None = None) -> float:
    """Weights to FLINT and back (nothing for the built-in engine, which keeps them)."""
    if (arithmetic or engine()) == "python":
        return 0.0
    width = len(poly.extent)
    return poly.terms * width * (_FLINT_TERM + _FLINT_TERM_BIT * poly.bits)


def power_ns(base: Poly, n: int, arithmetic: Engine | None = None) -> float:
    """`base ** n` (`jdr.prob.power` on the exact engine), with its conversions."""
    if n <= 1:
        return 0.0
    result = base.power(n)
    if (arithmetic or engine()) == "python":
        return _squaring_ns(base, n)
    work = result.terms * min(base.terms, 64) * result.bits * _FLINT_POWER_BIT
    return _FLINT_CALL + work + convert_ns(base, "flint") + convert_ns(result, "flint")


def product_ns(a: Poly, b: Poly, arithmetic: Engine | None = None) -> float:
    """`a · b` (`jdr.prob.convolve` on the exact engine), with its conversions."""
    result = a.times(b)
    if (arithmetic or engine()) == "python":
        small, large = sorted((a, b), key=lambda p: p.terms)
        multiply = _PY_MULTIPLY * math.pow(max(a.bits, 1) * max(b.bits, 1), 0.8)
        return small.terms * (_PY_ROW + large.cells * (_PY_CELL + multiply))
    total_bits = result.cells * result.bits
    fast = total_bits * math.log2(max(total_bits, 2)) * _FLINT_PRODUCT_BIT
    direct = a.terms * b.terms * result.bits * _FLINT_DIRECT_BIT
    conversions = convert_ns(a, "flint") + convert_ns(b, "flint") + convert_ns(result, "flint")
    return _FLINT_CALL + min(fast, direct) + conversions


def _squaring_ns(base: Poly, n: int) -> float:
    work = 0.0

    def times(a: Poly, b: Poly) -> Poly:
        nonlocal work
        work += product_ns(a, b, "python")
        return a.times(b)

    repeated_squaring(base, n, times)
    return work


def pool_ns(pool: Pool, arithmetic: Engine | None = None) -> float:
    """`jdr.prob.pool_distribution(pool, exact=True)`: each group's power, then their product."""
    work = 0.0
    total: Poly | None = None
    for die, count in pool.groups:
        part = Poly.of_die(die).power(count)
        work += power_ns(Poly.of_die(die), count, arithmetic)
        if total is not None:
            work += product_ns(total, part, arithmetic)
        total = part if total is None else total.times(part)
    return work


def keep_ns(values: int, dice: int, kept: int, span: int, die_bits: float) -> float:
    """Keep/drop by order statistics (`jdr.dice.notation.order`) on the exact engine.

    Few values for the dice kept: `values × kept` Horner steps, each a product of a growing
    polynomial (on average `kept · span / 2` terms of about `dice · die_bits` bits) by the
    polynomial of the values before the threshold (on average half of them). Many values: about
    `values × kept² / 2` shifted adds of the powers of that polynomial.
    """
    bits = dice * die_bits
    growing = kept * span / 2 + 1
    short = min(values, span + 1) / 2 + 1
    python = engine() == "python"
    multiply = _PY_MULTIPLY * math.pow(max(bits, 1) * max(die_bits, 1), 0.8)
    if values > 2 * kept:  # the powers of the values before the threshold, kept up to date
        adds = values * (kept * kept / 2 + kept)
        if python:
            return adds * (_PY_ROW + growing * (_PY_CELL + multiply))
        return adds * (_KEEP_STEP + growing * bits * _KEEP_ADD_BIT)
    if python:
        step = _PY_ROW * short + growing * short * (_PY_CELL + multiply)
    else:
        direct = growing * short * bits * _KEEP_DIRECT_BIT
        total_bits = (growing + short) * bits
        fast = total_bits * math.log2(max(total_bits, 2)) * _FLINT_PRODUCT_BIT
        step = _KEEP_STEP + min(direct, fast)
    return values * kept * step


def answer_ns(values: int, bits: float) -> float:
    """Handing over `values` exact probabilities of about `bits` bits: each a `Fraction` (a gcd)
    and a decimal text, both quadratic in the digits in Python (1000d20: 19,001 values of 4,300
    bits, about 3 s — more than computing them).

    >>> answer_ns(19_001, 4322) > MAX_EXACT_NS
    True
    """
    return values * (_ANSWER_VALUE + _ANSWER_BIT2 * bits * bits)


def refuse(ns: float, field: str, value: object, allowed: str) -> None:
    """Refuse exact odds estimated over `MAX_EXACT_NS`, before any of the work, saying what is
    allowed and that the same question has a float answer without `--exact`.

    >>> refuse(2e9, "dice", 400, "at most 300 dice")
    Traceback (most recent call last):
    ...
    jdr.errors.LimitError: dice: 400 (too large to compute exactly; without --exact: ...
    """
    if ns > MAX_EXACT_NS:
        raise too_large(field, value, allowed)


def too_large(field: str, value: object, allowed: str) -> LimitError:
    """The refusal of exact odds that would take too long (one wording for every path)."""
    return LimitError(
        field,
        value,
        allowed,
        _("too large to compute exactly; without --exact: the same odds in floating point"),
    )
