"""Exact odds by running the roll itself over every face it asks for: one code path for both.

`every_roll(roll)` walks the tree of faces a roll consumes, depth first: the roll is run on a
prefix of faces, and when it asks for one more die, the walk branches on each of that die's faces.
A roll that stops early (a study's first failure, a duel where only one spell was cast) is a short
branch. Each leaf is the roll's own result, with the probability of its faces.

>>> from jdr.systems.ilvermorny.rules import stat_test
>>> law = outcome_law(every_roll(lambda rng: stat_test(5, 0, rng).outcome), exact=True)
>>> law["success"], law["critical_failure"]
(Fraction(5, 12), Fraction(1, 12))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import TypeVar

from jdr.dice.source import RandomSource
from jdr.errors import LimitError
from jdr.i18n import _
from jdr.prob import Probability

T = TypeVar("T")
K = TypeVar("K")

MAX_LEAVES = 200_000
"""A budget on the leaves walked: the actions' rolls have 12 or 144; a study's oracle more."""


class _NeedMoreError(Exception):
    """The roll asked for a die beyond the prefix: branch on its faces."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.size = size


class _Prefix:
    """A random source that gives the faces of a prefix, then asks to branch."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.given = faces
        self.used = 0

    def faces(self, size: int, count: int) -> list[int]:
        if self.used + count > len(self.given):
            raise _NeedMoreError(size)
        taken = list(self.given[self.used : self.used + count])
        self.used += count
        return taken


def every_roll(
    roll: Callable[[RandomSource], T], limit: int = MAX_LEAVES
) -> Iterator[tuple[Fraction, T]]:
    """Every way `roll` can go, as (probability, result); the probabilities add up to 1.

    >>> [p for p, _faces in every_roll(lambda rng: rng.faces(2, 2))]
    [Fraction(1, 4), Fraction(1, 4), Fraction(1, 4), Fraction(1, 4)]
    """
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    leaves = 0
    while stack:
        prefix, weight = stack.pop()
        try:
            result = roll(_Prefix(prefix))
        except _NeedMoreError as more:
            branches = [((*prefix, face), weight / more.size) for face in range(1, more.size + 1)]
            stack.extend(reversed(branches))
            continue
        leaves += 1
        if leaves > limit:
            raise LimitError("rolls", leaves, f"..{limit}", _("too many ways to enumerate"))
        yield weight, result


def exact_law(leaves: Iterable[tuple[Fraction, K]], keys: Iterable[K] = ()) -> dict[K, Fraction]:
    """The exact probability of each result, `keys` first (at 0 when never reached).

    >>> exact_law([(Fraction(1, 2), "a"), (Fraction(1, 2), "a")], keys=["b"])
    {'b': Fraction(0, 1), 'a': Fraction(1, 1)}
    """
    sums: dict[K, Fraction] = dict.fromkeys(keys, Fraction(0))
    for weight, key in leaves:
        sums[key] = sums.get(key, Fraction(0)) + weight
    return sums


def outcome_law(
    leaves: Iterable[tuple[Fraction, K]], exact: bool, keys: Iterable[K] = ()
) -> dict[K, Probability]:
    """`exact_law`, as Fractions when `exact`, else floats.

    >>> outcome_law([(Fraction(1, 4), "a"), (Fraction(3, 4), "b")], exact=False)
    {'a': 0.25, 'b': 0.75}
    """
    return {key: as_probability(p, exact) for key, p in exact_law(leaves, keys).items()}


def as_probability(value: Fraction, exact: bool) -> Probability:
    """A Fraction, or its float when not `exact`."""
    return value if exact else float(value)
