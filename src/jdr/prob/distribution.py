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
    """Weights over integer vectors: `weights[i, j]` weighs `(offset[0] + i, offset[1] + j)`.

    A plug-in rarely builds one by hand: `pool_distribution`, `keep_pool_distribution` and
    `die_distribution` give them; `from_counts` / `from_probabilities` build one from a table.
    Queries answer in Fractions when `exact` (the weights count outcomes out of `denominator`),
    in floats otherwise; `map` changes the value, `convolve` adds two independent ones.

    >>> two = Distribution.from_probabilities({(0,): Fraction(1, 4), (1,): Fraction(3, 4)},
    ...                                       exact=True)
    >>> two.map(lambda v: 10 * v[0]).to_list()
    [(0, Fraction(1, 4)), (10, Fraction(3, 4))]
    >>> two.at_least(1), two.support()
    (Fraction(3, 4), [(0,), (1,)])
    """

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
        """True for the exact engine (answers in Fractions), False for floats."""
        return bool(self.weights.dtype == object)

    @property
    def width(self) -> int:
        """How many components each value has (1 or 2)."""
        return len(self.offset)

    def _prob(self, weight: Any) -> Probability:
        if self.exact:
            return Fraction(int(weight), int(self.denominator))
        return float(weight)

    def items(self) -> Iterator[tuple[Vector, Probability]]:
        """Every possible vector with its probability, in increasing order."""
        vectors, weights = self._cells()
        for vector, weight in zip(vectors, weights.tolist(), strict=True):
            yield vector, self._prob(weight)

    def _cells(self) -> tuple[list[Vector], npt.NDArray[Any]]:
        """The possible vectors (in increasing order) and their weights, found by NumPy."""
        index = np.nonzero(self.weights)
        columns = [(i + o).tolist() for i, o in zip(index, self.offset, strict=True)]
        return list(zip(*columns, strict=True)), self.weights[index]

    def support(self) -> list[Vector]:
        """Every possible value, in increasing order."""
        return [vector for vector, _ in self.items()]

    def probability(self, vector: Vector | int) -> Probability:
        """P(value = `vector`); an int stands for a one-component vector (0 when impossible)."""
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
        """The probability of each outcome of a final function of the summed vector.

        `final` is called once per possible vector; the weights of each outcome are summed by
        NumPy (whole numbers over the denominator, or floats), and divided once per outcome.
        """
        vectors, weights = self._cells()
        keys = [final(vector) for vector in vectors]
        codes: dict[K, int] = {}
        numbered = np.fromiter(
            (codes.setdefault(key, len(codes)) for key in keys), dtype=np.int64, count=len(keys)
        )
        sums = _group_sums(numbered, weights, len(codes))
        return {key: self._prob(sums[code]) for key, code in codes.items()}

    def map(self, function: Callable[[Vector], int | Vector]) -> Distribution:
        """The distribution of `function(vector)`: e.g. successes − failures → the score.

        The weights keep the engine and the denominator: nothing is divided.
        """
        vectors, weights = self._cells()
        keys = [function(vector) for vector in vectors]
        values = np.array(
            [(key,) if isinstance(key, int) else key for key in keys], dtype=np.int64
        ).reshape(len(keys), -1)
        low = values.min(axis=0)
        shape = tuple(int(n) for n in values.max(axis=0) - low + 1)
        cells = np.ravel_multi_index(tuple((values - low).T), shape)
        out = _group_sums(cells, weights, math.prod(shape)).reshape(shape)
        return Distribution(tuple(int(v) for v in low), out, self.denominator)

    def mean(self, function: Callable[[Vector], float] | None = None) -> Probability:
        """The expected value of the first component, or of `function(vector)`."""
        if function is None:
            first = self.weights.sum(axis=tuple(range(1, self.width)))
            values = np.arange(first.shape[0]) + self.offset[0]
            if self.exact:
                pairs = zip(values.tolist(), first.tolist(), strict=True)
                return Fraction(sum(v * int(w) for v, w in pairs), int(self.denominator))
            return float(values @ first)
        acc: Any = 0
        for vector, p in self.items():
            value = function(vector)
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
        """The same distribution in float64, each probability rounded once."""
        if not self.exact:
            return self
        denominator = int(self.denominator)
        weights = np.fromiter(
            (int(w) / denominator for w in self.weights.flat), float, self.weights.size
        ).reshape(self.weights.shape)
        return Distribution(self.offset, weights, 1.0)

    def _need_one_component(self) -> None:
        if self.width != 1:
            raise ValueError("this query needs a one-component distribution")


def _group_sums(groups: npt.NDArray[np.int64], weights: npt.NDArray[Any], size: int) -> Any:
    """`sums[g]`: the total weight of the cells in group `g` (float64 or whole numbers)."""
    if weights.dtype != object:
        return np.bincount(groups, weights=weights, minlength=size)
    sums: npt.NDArray[Any] = np.zeros(size, dtype=object)
    sums[...] = 0
    if groups.size:
        order = np.argsort(groups, kind="stable")
        ordered = groups[order]
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
        sums[ordered[starts]] = np.add.reduceat(weights[order], starts)
    return sums


def _index(vector: Vector, offset: Vector) -> tuple[int, ...]:
    return tuple(v - o for v, o in zip(vector, offset, strict=True))
