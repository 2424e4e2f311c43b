"""`Distribution`: the exact joint distribution of a small integer vector (1 or 2 components).

Weights live in a dense NumPy array indexed from `offset`: float64 probabilities (the fast
engine) or Python integers counting equally likely outcomes out of `denominator` (the exact engine,
used by tests as the oracle). Every query answers in the engine's kind: `float` or `Fraction`.

>>> from fractions import Fraction
>>> coin = Distribution.from_counts({(0,): 1, (1,): 1}, exact=True)
>>> coin.probability((1,))
Fraction(1, 2)
>>> coin.mean()
Fraction(1, 2)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

Vector = tuple[int, ...]
Probability = float | Fraction
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, eq=False)
class Distribution:
    """Weights over integer vectors: `weights[i, j]` weighs `(offset[0] + i, offset[1] + j)`."""

    offset: Vector
    weights: npt.NDArray[Any]
    denominator: int | float = 1.0

    @classmethod
    def from_counts(cls, counts: Mapping[Vector, int], exact: bool = False) -> Distribution:
        """A distribution from whole-number counts of equally likely outcomes."""
        if not counts:
            raise ValueError("a distribution needs at least one outcome")
        width = len(next(iter(counts)))
        low = tuple(min(v[i] for v in counts) for i in range(width))
        high = tuple(max(v[i] for v in counts) for i in range(width))
        shape = tuple(h - lo + 1 for lo, h in zip(low, high, strict=True))
        total = sum(counts.values())
        if exact:
            weights: npt.NDArray[Any] = np.zeros(shape, dtype=object)
            weights[...] = 0
            for vector, count in counts.items():
                weights[_index(vector, low)] += count
            return cls(low, weights, total)
        floats = np.zeros(shape, dtype=np.float64)
        for vector, count in counts.items():
            floats[_index(vector, low)] += count / total
        return cls(low, floats, 1.0)

    @classmethod
    def from_probabilities(
        cls, probabilities: Mapping[Vector, Probability], exact: bool = False
    ) -> Distribution:
        """From probabilities (Fractions when `exact`): the denominator is their common one."""
        if not exact:
            floats = {v: float(p) for v, p in probabilities.items()}
            dist = cls.from_counts({v: 1 for v in floats}, exact=False)
            weights = np.zeros_like(dist.weights)
            for vector, p in floats.items():
                weights[_index(vector, dist.offset)] += p
            return cls(dist.offset, weights, 1.0)
        fractions = {v: Fraction(p) for v, p in probabilities.items()}
        denominator = math.lcm(*(p.denominator for p in fractions.values()))
        counts = {v: int(p * denominator) for v, p in fractions.items()}
        dist = cls.from_counts(counts, exact=True)
        return cls(dist.offset, dist.weights, denominator)

    # --- what it is -------------------------------------------------------------------------
    @property
    def exact(self) -> bool:
        return bool(self.weights.dtype == object)

    @property
    def width(self) -> int:
        return len(self.offset)

    def _prob(self, weight: Any) -> Probability:
        if self.exact:
            return Fraction(int(weight), int(self.denominator))
        return float(weight)

    def items(self) -> Iterator[tuple[Vector, Probability]]:
        """Every possible vector with its probability, in increasing order."""
        for index in zip(*np.nonzero(self.weights), strict=True):
            vector = tuple(int(i) + o for i, o in zip(index, self.offset, strict=True))
            yield vector, self._prob(self.weights[index])

    def support(self) -> list[Vector]:
        return [vector for vector, _ in self.items()]

    def probability(self, vector: Vector | int) -> Probability:
        key = (vector,) if isinstance(vector, int) else vector
        index = tuple(v - o for v, o in zip(key, self.offset, strict=True))
        if any(i < 0 or i >= n for i, n in zip(index, self.weights.shape, strict=True)):
            return self._prob(0)
        return self._prob(self.weights[index])

    def total(self) -> Probability:
        """The sum of all probabilities: 1, up to float rounding in the fast engine."""
        return self._prob(self.weights.sum())

    # --- queries ----------------------------------------------------------------------------
    def outcomes(self, final: Callable[[Vector], K]) -> dict[K, Probability]:
        """The probability of each outcome of a final function of the summed vector."""
        sums: dict[K, Any] = {}
        for index in zip(*np.nonzero(self.weights), strict=True):
            vector = tuple(int(i) + o for i, o in zip(index, self.offset, strict=True))
            key = final(vector)
            sums[key] = sums.get(key, 0) + self.weights[index]
        return {key: self._prob(weight) for key, weight in sums.items()}

    def map(self, function: Callable[[Vector], int | Vector]) -> Distribution:
        """The distribution of `function(vector)`: e.g. successes − failures → the score."""
        grouped = self.outcomes(function)
        vectors = {(k,) if isinstance(k, int) else k: p for k, p in grouped.items()}
        return Distribution.from_probabilities(vectors, exact=self.exact)

    def mean(self, function: Callable[[Vector], float] | None = None) -> Probability:
        """The expected value of the first component, or of `function(vector)`."""
        acc: Any = 0
        for vector, p in self.items():
            value = vector[0] if function is None else function(vector)
            acc += Fraction(value) * p if self.exact else value * p
        return acc  # type: ignore[no-any-return]

    def at_least(self, k: int) -> Probability:
        """P(value ≥ k) for a one-component distribution."""
        self._need_one_component()
        start = max(0, k - self.offset[0])
        return self._prob(self.weights[start:].sum())

    def at_most(self, k: int) -> Probability:
        """P(value ≤ k) for a one-component distribution."""
        self._need_one_component()
        stop = max(0, k - self.offset[0] + 1)
        return self._prob(self.weights[:stop].sum())

    def marginal(self, axis: int) -> Distribution:
        """The distribution of one component alone."""
        other = tuple(i for i in range(self.width) if i != axis)
        weights = self.weights.sum(axis=other) if other else self.weights
        return Distribution((self.offset[axis],), weights, self.denominator)

    def to_list(self) -> list[tuple[int | Vector, Probability]]:
        """`[(value, probability), …]`; values are plain ints for one component."""
        return [(v[0] if self.width == 1 else v, p) for v, p in self.items()]

    def negate(self) -> Distribution:
        """The distribution of −value (one component)."""
        self._need_one_component()
        top = self.offset[0] + self.weights.shape[0] - 1
        return Distribution((-top,), self.weights[::-1].copy(), self.denominator)

    def shift(self, amount: Vector | int) -> Distribution:
        """The distribution of value + amount."""
        delta = (amount,) if isinstance(amount, int) else amount
        return Distribution(
            tuple(o + d for o, d in zip(self.offset, delta, strict=True)),
            self.weights,
            self.denominator,
        )

    def as_float(self) -> Distribution:
        if not self.exact:
            return self
        weights = np.array(
            [float(Fraction(int(w), int(self.denominator))) for w in self.weights.flat]
        ).reshape(self.weights.shape)
        return Distribution(self.offset, weights, 1.0)

    def _need_one_component(self) -> None:
        if self.width != 1:
            raise ValueError("this query needs a one-component distribution")


def _index(vector: Vector, offset: Vector) -> tuple[int, ...]:
    return tuple(v - o for v, o in zip(vector, offset, strict=True))
