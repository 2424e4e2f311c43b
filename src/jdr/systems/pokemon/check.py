"""The action roll (PK-1 … PK-4): a pool of d10, successes on faces ≥ DD, failures on 1s.

>>> from jdr.dice import GivenFaces
>>> roll = roll_check(4, 6, GivenFaces([7, 1, 2, 6]))
>>> (roll.successes, roll.failures, roll.score, roll.outcome)
(2, 1, 1, 'success')
>>> roll.explain()
'4d10 DD6: 7✓ 1✗ 2 6✓ → 2 successes − 1 failure = 1 → success'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from jdr.dice.pool import DieRoll, Pool, PoolRoll, ScoredDie, Vector, roll_pool
from jdr.dice.source import RandomSource
from jdr.i18n import _, labelled
from jdr.vocabulary import failures_text, successes_text

if TYPE_CHECKING:
    from jdr.prob import Distribution

DEFAULT_DIFFICULTY = 6
MAX_DICE = 200


def effective_difficulty(difficulty: int) -> int:
    """PK-4: modifiers add up, but the final DD is never below 1 (it may exceed 10)."""
    return max(1, difficulty)


@lru_cache(maxsize=256)
def d10(difficulty: int) -> ScoredDie:
    """PK-2: `(successes, failures)` of one d10 at `difficulty` (made once per difficulty: a die
    is immutable).

    At DD1 a 1 is one success and one failure (net 0): both clauses of the text apply.
    """
    return ScoredDie.threshold(10, success_at=effective_difficulty(difficulty), failure_at=1)


@lru_cache(maxsize=1024)
def check_pool(dice: int, difficulty: int = DEFAULT_DIFFICULTY) -> Pool:
    """PK-1: one d10 per point of stat and skill (made once per size and difficulty: a pool is
    immutable)."""
    return Pool.of((d10(difficulty), dice))


def outcome(score: int) -> str:
    """PK-3: score > 0 success, 0 failure, < 0 critical failure."""
    if score > 0:
        return "success"
    return "failure" if score == 0 else "critical_failure"


@dataclass(frozen=True)
class CheckRoll:
    """A rolled check: the pool roll (every face and mark), its counts, score and outcome."""

    dice: int
    difficulty: int
    roll: PoolRoll

    @property
    def successes(self) -> int:
        return self.roll.total[0] if self.roll.rolls else 0

    @property
    def failures(self) -> int:
        return self.roll.total[1] if self.roll.rolls else 0

    @property
    def score(self) -> int:
        if not self.roll.rolls:
            return 0
        successes, failures = self.roll.total
        return successes - failures

    @property
    def outcome(self) -> str:
        return outcome(self.score)

    @property
    def faces(self) -> list[int]:
        return self.roll.faces

    def explain(self) -> str:
        """`4d10 DD6\u00a0: 7✓ 1✗ 2 6✓ → 2 succès − 1 échec = 1 → réussite`, in the reader's
        language."""
        faces = self.roll.faces_text() or "—"
        counts = f"{successes_text(self.successes)} − {failures_text(self.failures)}"
        return labelled(
            f"{self.dice}d10 DD{self.difficulty}",
            f"{faces} → {counts} = {self.score} → {_(self.outcome)}",
        )


def roll_check(dice: int, difficulty: int, rng: RandomSource) -> CheckRoll:
    """Roll `dice` d10 at `difficulty` (clamped to ≥ 1) from `rng`.

    The record `roll_pool` would make (one `rng.faces(10, dice)`, every face with its score and
    mark, the summed `(successes, failures)`), each face's record made once per difficulty
    (`_face_rolls`) rather than once per die rolled."""
    final = effective_difficulty(difficulty)
    pool = check_pool(dice, final)
    if dice <= 0:  # nothing to roll
        return CheckRoll(dice, final, roll_pool(pool, rng))
    records = _face_rolls(final)
    rolls = tuple([records[face - 1] for face in rng.faces(10, dice)])
    successes = failures = 0
    for roll in rolls:
        successes += roll.score[0]
        failures += roll.score[1]
    return CheckRoll(dice, final, PoolRoll(pool, rolls, (successes, failures)))


@lru_cache(maxsize=256)
def _face_rolls(difficulty: int) -> tuple[DieRoll, ...]:
    """The record of each face of `d10(difficulty)`, 1 to 10 (a record is immutable)."""
    die = d10(difficulty)
    faces = range(1, die.size + 1)
    return tuple(DieRoll(die.size, face, die.score(face), die.mark(face)) for face in faces)


def net(score: Vector) -> Vector:
    """PK-3: a die's `(successes, failures)` as its part of the score, successes − failures."""
    return (score[0] - score[1],)


def score_distribution(dice: int, difficulty: int, exact: bool = False) -> Distribution:
    """The exact distribution of a check's score (successes − failures).

    Only the score is used, so each die scores its net part and the engine adds one component
    (the same answer as the (successes, failures) joint mapped to its difference, far faster).

    >>> score_distribution(2, 6, exact=True).probability(2)
    Fraction(1, 4)
    """
    from jdr.prob import pool_distribution
    from jdr.prob.cost import pool_ns, refuse

    pool = check_pool(dice, difficulty).mapped(net)
    if exact:
        refuse(pool_ns(pool), "dice", dice, _("fewer dice"))
    return pool_distribution(pool, exact=exact)
