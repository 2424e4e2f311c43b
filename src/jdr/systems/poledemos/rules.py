"""The core rules of Polédémos (seed 002): VAL tests (PD-1, PD-2), activation (PD-5) and the
leader's dice read by every member of its group (PD-9). Pure functions; dice come from a source.

>>> from jdr.dice import GivenFaces
>>> test = roll_test(3, 3, GivenFaces([3, 1, 4]))
>>> (test.successes, test.failures)
(2, 1)
>>> act = activate(3, 3, GivenFaces([2, 5, 2]))
>>> (act.action_points, act.failures, act.pass_hand)
(1, 2, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jdr.dice.pool import Pool, PoolRoll, ScoredDie, roll_pool
from jdr.dice.source import GivenFaces, RandomSource
from jdr.errors import InputError
from jdr.i18n import _
from jdr.vocabulary import failures_text, successes_text

if TYPE_CHECKING:
    from jdr.prob import Distribution

MIN_VAL, MAX_VAL = 1, 6
MIN_ACTIVATION_DICE, MAX_ACTIVATION_DICE = 1, 3
PASS_HAND_FAILURES = 2  # PD-5: two failures or more pass the hand


def parse_val(value: str | int) -> int:
    """`3+`, `3` or 3 → 3 (PD-1: 1+ … 6+); anything else is refused clearly.

    >>> parse_val("4+"), parse_val(" 2 ")
    (4, 2)
    """
    text = str(value).strip().removesuffix("+").strip()
    try:
        val = int(text)
    except ValueError:
        raise InputError("val", value, "1+ … 6+", _("a VAL is written 3 or 3+")) from None
    if not MIN_VAL <= val <= MAX_VAL:
        raise InputError("val", value, "1+ … 6+", _("a d6 test needs a VAL from 1+ to 6+"))
    return val


def val_die(val: int) -> ScoredDie:
    """PD-1: a d6 scoring `(success, failure)`: face ≥ VAL succeeds, below fails."""
    return ScoredDie.threshold(6, success_at=val, failure_at=val - 1)


def val_pool(val: int, dice: int) -> Pool:
    """PD-2: `dice` d6 against one VAL."""
    return Pool.of((val_die(val), dice))


@dataclass(frozen=True)
class ValTest:
    """A rolled test: the faces with their marks, successes and failures."""

    val: int
    roll: PoolRoll

    @property
    def successes(self) -> int:
        return self.roll.total[0] if self.roll.rolls else 0

    @property
    def failures(self) -> int:
        return self.roll.total[1] if self.roll.rolls else 0

    @property
    def faces(self) -> list[int]:
        return self.roll.faces

    def explain(self) -> str:
        """`3d6 VAL 3+ : 3✓ 1✗ 4✓ → 2 succès − 1 échec` in the current language."""
        counts = f"{successes_text(self.successes)}, {failures_text(self.failures)}"
        return f"{len(self.roll.rolls)}d6 VAL {self.val}+ : {self.roll.faces_text()} → {counts}"


def roll_test(val: int, dice: int, rng: RandomSource) -> ValTest:
    """PD-2: roll `dice` d6 against `val`."""
    return ValTest(val, roll_pool(val_pool(val, dice), rng))


def read_test(val: int, faces: Sequence[int]) -> ValTest:
    """The same faces read against another VAL (PD-9: a member reads the leader's dice)."""
    return roll_test(val, len(faces), GivenFaces(faces))


@dataclass(frozen=True)
class Activation:
    """PD-5: successes are the PA (0 → no activation); two failures or more pass the hand."""

    test: ValTest

    @property
    def action_points(self) -> int:
        return self.test.successes

    @property
    def failures(self) -> int:
        return self.test.failures

    @property
    def activated(self) -> bool:
        return self.action_points > 0

    @property
    def pass_hand(self) -> bool:
        return self.failures >= PASS_HAND_FAILURES


def check_activation_dice(dice: int) -> None:
    if not MIN_ACTIVATION_DICE <= dice <= MAX_ACTIVATION_DICE:
        raise InputError(
            "dice", dice, "1..3", _("a figure is activated with 1, 2 or 3 dice (PD-5)")
        )


def activate(val: int, dice: int, rng: RandomSource) -> Activation:
    """PD-5: roll 1–3 dice against the figure's VAL."""
    check_activation_dice(dice)
    return Activation(roll_test(val, dice, rng))


def member_activation(val: int, leader: Activation) -> Activation:
    """PD-9: a group member compares the leader's own dice with its VAL; its failures never pass
    the hand (only the leader's count)."""
    return Activation(read_test(val, leader.test.faces))


def activation_distribution(val: int, dice: int, exact: bool = False) -> Distribution:
    """The joint distribution of `(successes, failures)` of an activation (PA, pass the hand)."""
    from jdr.prob import pool_distribution

    check_activation_dice(dice)
    return pool_distribution(val_pool(val, dice), exact=exact)
