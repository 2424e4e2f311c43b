"""The exact engine's arithmetic: whole-number weights multiplied as polynomials.

A distribution's exact weights are the coefficients of a polynomial: `weights[i]` counts the
outcomes worth `offset + i`, so adding two independent parts multiplies their polynomials, and
`n` identical dice raise one die's polynomial to the `n`-th power. Two components are a
polynomial in two variables, `weights[i, j]` the coefficient of `x^i y^j`.

The arithmetic runs on FLINT (`python-flint`, the reference library for exact polynomial
arithmetic): `fmpz_poly` for one component, `fmpz_mpoly` for two (it keeps only the terms that
can occur, and raises a small polynomial to a power without repeated squaring). When `flint`
cannot be imported, the same answers come from NumPy arrays of Python integers — direct shifted
adds and repeated squaring, the engine jdr used before FLINT — and `fallback_notice()` says so in
one line for the command line to show.

Weights go in and come out as NumPy object arrays of Python `int`s, whatever the engine:

>>> import numpy as np
>>> d6 = np.array([1] * 6, dtype=object)
>>> power(d6, 2).tolist()
[1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
>>> multiply(np.array([[1, 1]], dtype=object), np.array([[1], [1]], dtype=object)).tolist()
[[1, 1], [1, 1]]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from types import ModuleType
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from jdr.prob.squaring import repeated_squaring

Weights = npt.NDArray[Any]
Engine = Literal["flint", "python"]

__all__ = [
    "Engine",
    "direct",
    "engine",
    "fallback_notice",
    "flint_polynomial",
    "from_flint",
    "multiply",
    "power",
    "using",
    "zeros",
]

DIRECT_MAX_TERMS = 4
"""A product by a polynomial of at most this many terms (one die, a Passion die scores four) is a
few shifted adds of Python integers: cheaper than converting both sides to FLINT and back."""

_pinned: ContextVar[Engine | None] = ContextVar("exact_engine", default=None)
"""Tests and benchmarks may pin an engine (`using`); `None` takes FLINT when it imports."""


@cache
def _load_flint() -> tuple[ModuleType | None, str]:
    """`(flint, "")`, or `(None, why)` when python-flint cannot be imported (imported once)."""
    try:
        import flint
    except ImportError as error:
        return None, str(error) or type(error).__name__
    return flint, ""


def engine() -> Engine:
    """Which arithmetic the exact engine uses: `"flint"`, or `"python"` without python-flint."""
    pinned = _pinned.get()
    if pinned is not None:
        return pinned
    return "flint" if _load_flint()[0] is not None else "python"


@contextmanager
def using(name: Engine) -> Iterator[None]:
    """Run the exact engine on `name` inside the block (tests and benchmarks compare the two).

    `using("flint")` when python-flint cannot be imported is refused with an `ImportError`.

    >>> with using("python"):
    ...     engine()
    'python'
    """
    if name == "flint" and _load_flint()[0] is None:
        raise ImportError(_load_flint()[1])
    token = _pinned.set(name)
    try:
        yield
    finally:
        _pinned.reset(token)


def fallback_notice() -> str | None:
    """One line for the reader when exact odds run without FLINT, else `None`."""
    flint, why = _load_flint()
    if flint is not None:
        return None
    from jdr.i18n import _

    return _(
        "note: python-flint could not be imported ({why}); exact odds use the slower"
        " built-in engine"
    ).format(why=why)


def zeros(shape: tuple[int, ...]) -> Weights:
    """An object array of Python zeros (NumPy's own zeros would be floats)."""
    array: Weights = np.zeros(shape, dtype=object)
    array[...] = 0
    return array


def multiply(a: Weights, b: Weights) -> Weights:
    """The coefficients of the product of two polynomials in one or two variables."""
    shape = tuple(x + y - 1 for x, y in zip(a.shape, b.shape, strict=True))
    flint = _flint()
    terms_a, terms_b = _nonzero(a), _nonzero(b)
    if flint is None or min(terms_a, terms_b) <= DIRECT_MAX_TERMS:
        return direct(a, b) if terms_a >= terms_b else direct(b, a)
    if a.ndim == 1:
        product = flint.fmpz_poly(a.tolist()) * flint.fmpz_poly(b.tolist())
        return _from_poly(product, shape)
    return _from_mpoly(_to_mpoly(flint, a) * _to_mpoly(flint, b), shape)


def power(base: Weights, n: int) -> Weights:
    """The coefficients of `base ** n` (`n ≥ 1`)."""
    if n < 1:
        raise ValueError("the power of a polynomial here is at least 1")
    shape = tuple(n * (size - 1) + 1 for size in base.shape)
    flint = _flint()
    if flint is None:
        return repeated_squaring(base, n, multiply)
    if base.ndim == 1:
        return _from_poly(flint.fmpz_poly(base.tolist()) ** n, shape)
    return _from_mpoly(_to_mpoly(flint, base) ** n, shape)


def flint_polynomial(coefficients: list[int]) -> Any:
    """FLINT's `fmpz_poly` of these whole-number coefficients, or `None` when the exact engine
    does not run on FLINT (the caller then works on arrays).

    >>> p = flint_polynomial([1, 1])
    >>> from_flint(p * p + p.left_shift(3) * 2, 5).tolist() if p is not None else None
    [1, 2, 1, 2, 2]
    """
    flint = _flint()
    return flint.fmpz_poly(coefficients) if flint is not None else None


def from_flint(poly: Any, size: int) -> Weights:
    """The first `size` coefficients of a FLINT polynomial (its degree is below `size`)."""
    return _from_poly(poly, (size,))


# --- FLINT --------------------------------------------------------------------------------------
def _flint() -> Any:
    if engine() == "python":
        return None
    return _load_flint()[0]


def _from_poly(poly: Any, shape: tuple[int, ...]) -> Weights:
    coefficients = list(map(int, poly.coeffs()))  # FLINT drops the zero top coefficients
    out = zeros(shape)
    out[: len(coefficients)] = coefficients
    return out


def _to_mpoly(flint: Any, weights: Weights) -> Any:
    context = flint.fmpz_mpoly_ctx.get(("x", "y"), "lex")
    rows, columns = np.nonzero(weights)
    terms = zip(rows.tolist(), columns.tolist(), weights[rows, columns].tolist(), strict=True)
    return context.from_dict({(i, j): int(w) for i, j, w in terms})


def _from_mpoly(poly: Any, shape: tuple[int, ...]) -> Weights:
    out = zeros(shape)
    monomials = poly.monoms()
    if monomials:
        flat = itertools.chain.from_iterable(monomials)
        index = np.fromiter(flat, dtype=np.int64, count=2 * len(monomials)).reshape(-1, 2)
        out[index[:, 0], index[:, 1]] = list(map(int, poly.coeffs()))
    return out


# --- the built-in engine (no FLINT) ---------------------------------------------------------------
def _nonzero(weights: Weights) -> int:
    return int(np.count_nonzero(weights))


def direct(large: Weights, small: Weights) -> Weights:
    """Convolution by shifted adds of `large`, one per non-zero weight of `small` (give it the
    sparser side); float64 or Python integers alike (the float engine uses it too).

    >>> direct(np.array([1.0, 1.0]), np.array([0.5, 0.5])).tolist()
    [0.5, 1.0, 0.5]
    """
    shape = tuple(x + y - 1 for x, y in zip(large.shape, small.shape, strict=True))
    out: Weights = np.zeros(shape, dtype=large.dtype)
    if large.dtype == object:
        out[...] = 0
    for index in zip(*np.nonzero(small), strict=True):
        window = tuple(slice(i, i + n) for i, n in zip(index, large.shape, strict=True))
        out[window] += large * small[index]
    return out
