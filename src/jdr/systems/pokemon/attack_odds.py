"""Exact odds of an attack (PK-10 … PK-13): the distribution of the Vitalité lost.

The same code path serves both engines: whole-number weights over one common denominator
(exact, Fractions at the end) or floats over 1.0. NumPy is imported inside the functions.

>>> from jdr.systems.pokemon.attack_rules import Defence
>>> odds = attack_odds(2, 1, defence=Defence("dodge", 2), exact=True)
>>> sorted(odds.outcomes), sum(odds.outcomes.values())
(['dodged', 'hit', 'miss'], Fraction(1, 1))
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from jdr.i18n import _
from jdr.systems.pokemon.attack_rules import (
    Defence,
    attack_difficulty,
    damage_difficulty,
    final_damage,
)
from jdr.systems.pokemon.check import DEFAULT_DIFFICULTY, score_distribution

if TYPE_CHECKING:
    from jdr.prob import Distribution, Probability


_EXACT_CALL = 5_000_000.0
_EXACT_CELL_BIT = 7.0
"""Exact odds walk every attack score n, each against the damage pool of `damage_dice + n` dice:
measured, about `_EXACT_CELL_BIT` ns per cell and per bit of the weights (see `exact_ns`)."""


def exact_ns(attack_dice: int, damage_dice: int, defence_dice: int = 0) -> float:
    """The estimated nanoseconds of `attack_odds(…, exact=True)`.

    >>> from jdr.prob.cost import MAX_EXACT_NS
    >>> exact_ns(10, 10, 5) < MAX_EXACT_NS < exact_ns(200, 200, 200)
    True
    """
    cells = attack_dice * (attack_dice + damage_dice)
    bits = math.log2(10) * (attack_dice + damage_dice + defence_dice)
    return _EXACT_CALL + _EXACT_CELL_BIT * cells * bits


@dataclass(frozen=True)
class AttackOdds:
    """The outcomes' probabilities and the exact distribution of the Vitalité lost."""

    outcomes: Mapping[str, Probability]
    vitality_lost: Distribution


def attack_odds(
    attack_dice: int,
    damage_dice: int,
    *,
    difficulty: int = DEFAULT_DIFFICULTY,
    range_penalty: bool = False,
    high_crit: bool = False,
    multiplier: Fraction = Fraction(1),
    defence: Defence | None = None,
    exact: bool = False,
) -> AttackOdds:
    """The exact odds of `resolve_attack`: Σ over attack scores n > 0 of P(n) × the damage given
    a pool of `damage_dice` + n, then the endure convolution or the dodge chance P(dodge > n).

    Weights stay whole numbers over one common denominator in exact mode (floats over 1.0
    otherwise): no Fraction arithmetic in the loops.

    >>> odds = attack_odds(1, 1, exact=True)
    >>> odds.outcomes["miss"], odds.vitality_lost.probability(1)
    (Fraction(1, 2), Fraction(1, 5))
    """
    import numpy as np

    from jdr.prob import Distribution, convolve
    from jdr.prob.cost import refuse

    if exact:
        defence_dice = defence.dice if defence is not None else 0
        ns = exact_ns(attack_dice, damage_dice, defence_dice)
        refuse(ns, "--exact", True, _("fewer attack, damage or defence dice"))
    attack = score_distribution(attack_dice, attack_difficulty(difficulty, range_penalty), exact)
    one_die = score_distribution(1, damage_difficulty(high_crit), exact)
    pool = score_distribution(damage_dice, damage_difficulty(high_crit), exact)
    dodge = None
    if defence is not None and defence.kind == "dodge":
        dodge = score_distribution(defence.dice, defence.difficulty, exact)
    dodge_total = dodge.denominator if dodge else one_die.denominator**0
    low = attack.offset[0]
    top = max(0, low + attack.weights.shape[0] - 1)
    grow = one_die.denominator  # each extra damage die multiplies the pool's denominator
    base = pool.denominator * grow**top * dodge_total  # one hit's weight scale, for every n
    lost: Any = np.zeros(
        final_damage(damage_dice + top, multiplier) + 1, dtype=attack.weights.dtype
    )
    lost[...] = 0
    miss = attack.weights[: max(0, 1 - low)].sum()
    lost[0] += miss * base
    hit: Any = 0
    dodged: Any = 0
    size = 0
    for index, attack_weight in enumerate(attack.weights):
        score = low + index
        if score <= 0 or not attack_weight:
            continue
        for _extra in range(score - size):
            pool = convolve(pool, one_die)
        size = score
        values = np.arange(pool.weights.shape[0]) + pool.offset[0]
        damages = np.maximum(values, 0) * multiplier.numerator // multiplier.denominator
        weights = pool.weights * (attack_weight * grow ** (top - score))
        tail = dodge.weights[max(0, score + 1 - dodge.offset[0]) :].sum() if dodge else 0
        harmless = weights[damages == 0].sum()
        harmful = weights.sum() - harmless
        np.add.at(lost, damages, weights * (dodge_total - tail))
        lost[0] += (harmless + harmful) * tail
        hit += harmless * dodge_total + harmful * (dodge_total - tail)
        dodged += harmful * tail
    denominator = attack.denominator * base
    result = Distribution((0,), lost, denominator)
    if defence is not None and defence.kind == "endure":
        result = _endure(result, score_distribution(defence.dice, defence.difficulty, exact))
    outcomes = {"miss": miss * base, "hit": hit}
    if dodge:
        outcomes["dodged"] = dodged
    return AttackOdds({k: _probability(w, denominator, exact) for k, w in outcomes.items()}, result)


def _endure(damage: Distribution, endure: Distribution) -> Distribution:
    """max(0, damage − endure score) where damage > 0; no endure roll when damage is 0."""
    import numpy as np

    from jdr.prob import Distribution, convolve

    if damage.weights.shape[0] < 2 or not damage.weights[1:].any():
        return damage
    positive = Distribution((1,), damage.weights[1:], damage.denominator)
    after = convolve(positive, endure.negate())
    low = after.offset[0]
    size = max(1, low + after.weights.shape[0])
    lost: Any = np.zeros(size, dtype=after.weights.dtype)
    lost[...] = 0
    lost[0] = damage.weights[0] * endure.denominator + after.weights[: max(0, 1 - low)].sum()
    first = max(1, low)
    lost[first:] += after.weights[first - low :]
    return Distribution((0,), lost, after.denominator)


def _probability(weight: Any, denominator: Any, exact: bool) -> Probability:
    if exact:
        return Fraction(int(weight), denominator)
    return float(weight) / float(denominator)
