"""Keep/drop pools: roll `dice` dice of one scored die, keep the `keep` highest (or lowest).

The commonest homebrew mechanic ("roll your pool, keep the best die") as one value: rolled by
`roll_keep`, and taken to its exact distribution by `jdr.prob.keep_pool_distribution` (order
statistics, never enumerating rolls), so the odds can never disagree with the roller.

Dice are ordered by their face; the kept dice's scores (one component) are summed, so a keep
can score faces as the rule likes (`ScoredDie.from_function(6, lambda f: (f >= 4,))`: keep the
best die, count whether it is a 4 or more).

>>> best = KeepPool(ScoredDie.sum(6), dice=3)
>>> rolled = roll_keep(best, GivenFaces([2, 6, 4]))
>>> rolled.total, rolled.kept, rolled.faces_text()
(6, (6,), '2 [6] 4')
>>> roll_keep(KeepPool(ScoredDie.sum(6), 4, keep=2, highest=False), GivenFaces([5, 1, 3, 1])).kept
(1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from jdr.dice.pool import ScoredDie
from jdr.dice.source import GivenFaces, RandomSource
from jdr.errors import InputError
from jdr.i18n import _

__all__ = ["GivenFaces", "KeepPool", "KeepRoll", "roll_keep"]


@dataclass(frozen=True)
class KeepPool:
    """`dice` dice of `die`, of which the `keep` highest (`highest=False`: lowest) count.

    `die` scores one component: the pool's total is the sum of its kept dice's scores.

    >>> KeepPool(ScoredDie.sum(6), 4, keep=3).notation()
    '4d6kh3'
    """

    die: ScoredDie
    dice: int
    keep: int = 1
    highest: bool = True

    def __post_init__(self) -> None:
        if self.dice < 1:
            reason = _("a keep pool rolls at least one die")
            raise InputError("dice", self.dice, "1..", reason, label=_("dice"))
        if not 1 <= self.keep <= self.dice:
            reason = _("keep some of the dice rolled, not more")
            raise InputError("keep", self.keep, f"1..{self.dice}", reason, label=_("dice kept"))
        if self.die.width != 1:
            raise ValueError("a keep pool's die scores one component")

    def notation(self) -> str:
        """`4d6kh3` (keep the 3 highest), `2d6kl1` (keep the lowest)."""
        return f"{self.dice}{self.die.label}{'kh' if self.highest else 'kl'}{self.keep}"


@dataclass(frozen=True)
class KeepRoll:
    """A rolled keep pool: every face in roll order, which were kept (by position), the kept
    faces (best first) and their summed score."""

    pool: KeepPool
    faces: tuple[int, ...]
    kept_at: tuple[int, ...]
    total: int

    @property
    def kept(self) -> tuple[int, ...]:
        """The kept faces, the preferred one first."""
        return tuple(sorted((self.faces[i] for i in self.kept_at), reverse=self.pool.highest))

    def faces_text(self) -> str:
        """`2 [6] 4`: every face, the kept ones in brackets."""
        return " ".join(
            f"[{face}]" if i in self.kept_at else str(face) for i, face in enumerate(self.faces)
        )


def roll_keep(pool: KeepPool, rng: RandomSource) -> KeepRoll:
    """Roll `pool` from `rng` and keep its best (or worst) dice; ties keep the first rolled."""
    faces = tuple(rng.faces(pool.die.size, pool.dice))
    order = sorted(range(len(faces)), key=lambda i: (-faces[i] if pool.highest else faces[i], i))
    kept_at = tuple(sorted(order[: pool.keep]))
    total = sum(pool.die.score(faces[i])[0] for i in kept_at)
    return KeepRoll(pool, faces, kept_at, total)
