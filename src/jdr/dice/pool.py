"""Scored dice and pools: a rule's scoring written once, for rolling and for exact odds.

A `ScoredDie` is a die size plus a map face → score vector (one or two small whole numbers, e.g.
`(successes, failures)`). A `Pool` is a multiset of scored dice, sizes mixed as the player likes.
`roll_pool` gives a `PoolRoll` record that keeps every face and what it counted for;
`jdr.prob.pool_distribution` takes the same `Pool` to the exact distribution of its summed vector.

>>> d10 = ScoredDie.threshold(10, success_at=6, failure_at=1)
>>> record = roll_pool(Pool.of((d10, 4)), GivenFaces([7, 1, 2, 6]))
>>> record.total
(2, 1)
>>> [roll.mark for roll in record.rolls]
['✓', '✗', '', '✓']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from jdr.dice.source import GivenFaces, RandomSource
from jdr.errors import InputError
from jdr.i18n import _

Vector = tuple[int, ...]

__all__ = [
    "DieRoll",
    "GivenFaces",
    "Pool",
    "PoolRoll",
    "ScoredDie",
    "Vector",
    "count_pool",
    "roll_pool",
]


@dataclass(frozen=True)
class ScoredDie:
    """A die of `size` faces: face `f` scores the vector `scores[f - 1]`, shown as `marks[f - 1]`.

    >>> ScoredDie.sum(6).scores[:3]
    ((1,), (2,), (3,))
    """

    size: int
    scores: tuple[Vector, ...]
    marks: tuple[str, ...] = ()
    name: str = ""

    def __post_init__(self) -> None:
        if self.size < 1:
            reason = _("a die needs at least one face")
            raise InputError("size", self.size, "1..", reason, label=_("faces"))
        if len(self.scores) != self.size:
            raise ValueError(f"{len(self.scores)} scores for a d{self.size}")
        widths = {len(v) for v in self.scores}
        if len(widths) != 1 or not 1 <= widths.pop() <= 2:
            raise ValueError("score vectors must all have 1 or 2 components")
        if self.marks and len(self.marks) != self.size:
            raise ValueError(f"{len(self.marks)} marks for a d{self.size}")

    @property
    def width(self) -> int:
        """How many components each score vector has."""
        return len(self.scores[0])

    def score(self, face: int) -> Vector:
        return self.scores[face - 1]

    def mark(self, face: int) -> str:
        return self.marks[face - 1] if self.marks else ""

    @property
    def label(self) -> str:
        return self.name or f"d{self.size}"

    @classmethod
    def from_function(
        cls,
        size: int,
        score: Callable[[int], Vector],
        mark: Callable[[int], str] | None = None,
        name: str = "",
    ) -> ScoredDie:
        """Build a die from a scoring function of the face (how a system usually writes a rule)."""
        faces = range(1, size + 1)
        return cls(
            size,
            tuple(tuple(score(f)) for f in faces),
            tuple(mark(f) for f in faces) if mark else (),
            name,
        )

    def mapped(self, function: Callable[[Vector], Vector]) -> ScoredDie:
        """The same die scoring `function(score)`: ask the engine only for what is used.

        >>> d10 = ScoredDie.threshold(10, success_at=6, failure_at=1)
        >>> d10.mapped(lambda v: (v[0] - v[1],)).scores
        ((-1,), (0,), (0,), (0,), (0,), (1,), (1,), (1,), (1,), (1,))
        """
        return ScoredDie(
            self.size, tuple(tuple(function(v)) for v in self.scores), self.marks, self.name
        )

    @classmethod
    def sum(cls, size: int) -> ScoredDie:
        """A plain die: it scores its face."""
        return cls.from_function(size, lambda f: (f,))

    @classmethod
    @lru_cache(maxsize=256)
    def threshold(cls, size: int, success_at: int, failure_at: int | None = None) -> ScoredDie:
        """`(successes, failures)`: a success on a face ≥ `success_at`, a failure on ≤ `failure_at`.

        Both may apply to one face (a d10 at difficulty 1 showing 1 is one of each). A die is an
        immutable value: the same question gives the same die, built once (a fight rolls it often).
        """

        def score(face: int) -> Vector:
            return (
                int(face >= success_at),
                int(failure_at is not None and face <= failure_at),
            )

        def mark(face: int) -> str:
            success, failure = score(face)
            return "✓" * success + "✗" * failure

        return cls.from_function(size, score, mark)

    @classmethod
    def counting(cls, size: int, faces: Iterable[int]) -> ScoredDie:
        """`(1,)` when the face is one of `faces`, else `(0,)`: a pool of these counts how many
        dice show them (how many 6s, how many doubles' faces).

        >>> ScoredDie.counting(6, [6]).scores
        ((0,), (0,), (0,), (0,), (0,), (1,))
        """
        wanted = frozenset(faces)
        return cls.from_function(
            size, lambda face: (int(face in wanted),), lambda face: "✓" * (face in wanted)
        )


def count_pool(size: int, dice: int, faces: Iterable[int]) -> Pool:
    """`dice` d`size` counting the dice that show one of `faces`: roll it with `roll_pool`, take
    its exact odds with `jdr.prob.pool_distribution` (a binomial, computed exactly).

    >>> roll_pool(count_pool(6, 4, [6]), GivenFaces([6, 2, 6, 5])).total
    (2,)
    """
    return Pool.of((ScoredDie.counting(size, faces), dice))


@dataclass(frozen=True)
class Pool:
    """A multiset of scored dice: `((die, count), …)` in the order they are rolled.

    >>> Pool.of((ScoredDie.sum(4), 2), (ScoredDie.sum(12), 1)).notation()
    '2d4+1d12'
    """

    groups: tuple[tuple[ScoredDie, int], ...]

    def __post_init__(self) -> None:
        widths = {die.width for die, _count in self.groups}
        if len(widths) > 1:
            raise ValueError("all dice of a pool must score vectors of the same width")
        for _die, count in self.groups:
            if count < 0:
                reason = _("a pool cannot hold a negative count")
                raise InputError("dice", count, "0..", reason, label=_("dice"))

    @classmethod
    def of(cls, *groups: tuple[ScoredDie, int]) -> Pool:
        return cls(tuple((die, count) for die, count in groups if count > 0))

    @property
    def width(self) -> int:
        return self.groups[0][0].width if self.groups else 1

    @property
    def dice_count(self) -> int:
        return sum(count for _die, count in self.groups)

    def mapped(self, function: Callable[[Vector], Vector]) -> Pool:
        """Every die scoring `function(score)` instead: a sum of scores that `function` maps
        linearly (a net score, one component of two) is the pool of the mapped dice.

        >>> d10 = ScoredDie.threshold(10, success_at=6, failure_at=1)
        >>> Pool.of((d10, 4)).mapped(lambda v: (v[0] - v[1],)).width
        1
        """
        return Pool(tuple((die.mapped(function), count) for die, count in self.groups))

    def notation(self) -> str:
        return "+".join(f"{count}{die.label}" for die, count in self.groups) or "0d"

    def dice(self) -> Iterable[ScoredDie]:
        """Every die, one by one, in roll order."""
        for die, count in self.groups:
            yield from [die] * count


@dataclass(frozen=True)
class DieRoll:
    """One die of a roll: its size, the face shown, the vector it scored and its mark."""

    size: int
    face: int
    score: Vector
    mark: str = ""


@dataclass(frozen=True)
class PoolRoll:
    """A rolled pool: every die in roll order, and the summed vector."""

    pool: Pool
    rolls: tuple[DieRoll, ...]
    total: Vector = field(default=())

    @property
    def faces(self) -> list[int]:
        return [r.face for r in self.rolls]

    def faces_text(self) -> str:
        """`7✓ 1✗ 2 6✓`: every face with what it counted for."""
        return " ".join(f"{r.face}{r.mark}" for r in self.rolls)


def roll_pool(pool: Pool, rng: RandomSource) -> PoolRoll:
    """Roll every die of `pool` from `rng` (group by group, in order) and sum the vectors."""
    rolls: list[DieRoll] = []
    for die, count in pool.groups:
        scores, marks = die.scores, die.marks
        for face in rng.faces(die.size, count):
            mark = marks[face - 1] if marks else ""
            rolls.append(DieRoll(die.size, face, scores[face - 1], mark))
    return PoolRoll(pool, tuple(rolls), sum_vectors((r.score for r in rolls), pool.width))


def sum_vectors(vectors: Iterable[Vector], width: int) -> Vector:
    total = [0] * width
    for vector in vectors:
        for i, value in enumerate(vector):
            total[i] += value
    return tuple(total)
