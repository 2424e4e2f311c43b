"""The attack rules on plain values (PK-10 … PK-13, PK-15): difficulties, the damage pool, the
final damage, enduring and dodging, and the `Defence` a defender opposes to a move.

`attack` rolls them and `attack_odds` weighs them; both read them here.

>>> final_damage(3, Fraction(3, 2)), endured(5, 2), dodges(3, 2)
(4, 3, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from jdr.systems.pokemon.check import DEFAULT_DIFFICULTY
from jdr.systems.pokemon.types import apply

RANGE_PENALTY = 2
"""PK-10: a physical move not in contact, or a special one at close range, is at difficulty +2."""

WAIT_BONUS = 2
"""PK-15: while waiting, Constitution, Volonté and Dextérité rolls are at difficulty −2."""

DefenceKind = Literal["endure", "dodge"]


# --- the rules, on plain values -------------------------------------------------------------


def attack_difficulty(difficulty: int = DEFAULT_DIFFICULTY, range_penalty: bool = False) -> int:
    """PK-10: the attack roll's difficulty, +2 for the range penalty.

    >>> attack_difficulty(6, range_penalty=True)
    8
    """
    return difficulty + (RANGE_PENALTY if range_penalty else 0)


def damage_difficulty(high_crit: bool = False) -> int:
    """PK-10 / PK-4: the damage roll is at DD6, DD5 for a `high_crit` move.

    >>> damage_difficulty(), damage_difficulty(high_crit=True)
    (6, 5)
    """
    return DEFAULT_DIFFICULTY - 1 if high_crit else DEFAULT_DIFFICULTY


def damage_pool(damage_dice: int, attack_score: int) -> int:
    """PK-10: the damage pool is the move's dice + the attack score; 0 when the attack failed.

    >>> damage_pool(2, 3), damage_pool(2, 0)
    (5, 0)
    """
    return damage_dice + attack_score if attack_score > 0 else 0


def final_damage(damage_score: int, multiplier: Fraction = Fraction(1)) -> int:
    """PK-10, PK-11: raw damage = max(0, damage score); final = floor(raw × multiplier).

    >>> final_damage(3, Fraction(3, 2)), final_damage(-1, Fraction(2))
    (4, 0)
    """
    return apply(max(0, damage_score), multiplier)


def defence_difficulty(waiting: bool = False) -> int:
    """PK-12, PK-13, PK-15: the endure or dodge roll is at DD6; DD4 while the defender waits.

    >>> defence_difficulty(), defence_difficulty(waiting=True)
    (6, 4)
    """
    return DEFAULT_DIFFICULTY - (WAIT_BONUS if waiting else 0)


def endured(damage: int, endure_score: int) -> int:
    """PK-12: Vitalité lost = max(0, damage − endure score) (a negative score adds to it).

    >>> endured(5, 2), endured(1, 3), endured(4, -1)
    (3, 0, 5)
    """
    return max(0, damage - endure_score)


def dodges(dodge_score: int, attack_score: int) -> bool:
    """PK-13: the dodge avoids all damage only with a score strictly above the attack's.

    >>> dodges(3, 2), dodges(2, 2)
    (True, False)
    """
    return dodge_score > attack_score


@dataclass(frozen=True)
class Defence:
    """What the defender does against the move: endure or dodge with `dice` d10 at `difficulty`."""

    kind: DefenceKind
    dice: int
    difficulty: int = DEFAULT_DIFFICULTY
