"""Repeated squaring: `n` copies of a value combined by an associative product in O(log n) steps.

The one loop behind a pool of identical dice (`jdr.prob.power`: distributions, whole-number
weights) and behind the price of that work (`jdr.prob.cost`, the notation's budget: the shapes
combined, each product's cost added up).

>>> repeated_squaring(3, 5, lambda a, b: a * b)
243
>>> steps = []
>>> repeated_squaring("x", 5, lambda a, b: steps.append((a, b)) or a + b)
'xxxxx'
>>> len(steps)
3
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def repeated_squaring(base: T, n: int, product: Callable[[T, T], T]) -> T:
    """`base · base · … · base` (`n ≥ 1` copies), squaring `base` and multiplying in the powers
    of two that `n` is made of."""
    if n < 1:
        raise ValueError("at least one copy")
    result: T | None = None
    square = base
    while n:
        if n & 1:
            result = square if result is None else product(result, square)
        n >>= 1
        if n:
            square = product(square, square)
    assert result is not None
    return result
