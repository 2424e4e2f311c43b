"""Counter (PK-14, contrecarrer): both sides roll in turn and add up their successes.

The attacker rolls first. Each roll adds its **successes** (faces ≥ DD, not the score) to its side's
running total; the first whose total reaches its threshold (the *opponent's* Constitution or
Volonté) wins, at once: the other side does not roll again. After 50 exchanges (an exchange is the
attacker's roll then the defender's) with no winner, both moves are cancelled: `none`.

>>> from jdr.dice import GivenFaces
>>> fight = resolve_counter(2, 3, 2, 2, GivenFaces([7, 1, 2, 3, 9, 6]))
>>> fight.winner, [(e.attacker.total, e.defender and e.defender.total) for e in fight.exchanges]
('attacker', [(1, 0), (3, None)])
>>> counter_odds(1, 1, 1, 1, max_exchanges=1, exact=True)
{'attacker': Fraction(1, 2), 'defender': Fraction(1, 4), 'none': Fraction(1, 4)}
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from jdr.dice.source import RandomSource
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.systems.pokemon.check import DEFAULT_DIFFICULTY, MAX_DICE, CheckRoll, roll_check
from jdr.systems.protocol import Odds, Record
from jdr.vocabulary import successes_text

if TYPE_CHECKING:
    import numpy.typing as npt

    from jdr.prob import Distribution, Probability

MAX_EXCHANGES = 50
MAX_THRESHOLD = 100
# Exact odds cost thresholds² × exchanges × successes big-integer operations on weights whose bits
# grow with every roll (each multiplies the common denominator): measured, about
# `_EXACT_OP + _EXACT_BIT · bits^1.5` nanoseconds each (see `exact_ns`).
_EXACT_OP = 50.0
_EXACT_BIT = 0.0035
WINNERS = (N_("attacker"), N_("defender"), N_("none"))


@dataclass(frozen=True)
class CounterRoll:
    """One side's roll in an exchange: the check rolled and the side's running total after it."""

    roll: CheckRoll
    total: int

    @property
    def successes(self) -> int:
        return self.roll.successes


@dataclass(frozen=True)
class Exchange:
    """The attacker's roll, then the defender's (None when the attacker won with its roll)."""

    attacker: CounterRoll
    defender: CounterRoll | None


@dataclass(frozen=True)
class CounterResult:
    """Every exchange, and the winner: `attacker`, `defender` or `none`."""

    winner: str
    exchanges: tuple[Exchange, ...]
    attacker_threshold: int
    defender_threshold: int

    @property
    def faces(self) -> list[int]:
        faces: list[int] = []
        for exchange in self.exchanges:
            faces += exchange.attacker.roll.faces
            if exchange.defender is not None:
                faces += exchange.defender.roll.faces
        return faces

    def explain(self) -> str:
        """`1. attacker 2d10 DD6 : 7✓ 1✗ → 1 success (1/3), defender … · 2. … → attacker wins`."""
        parts = []
        for number, exchange in enumerate(self.exchanges, start=1):
            rolls = [_side_text(_("attacker"), exchange.attacker, self.attacker_threshold)]
            if exchange.defender is not None:
                rolls.append(_side_text(_("defender"), exchange.defender, self.defender_threshold))
            parts.append(f"{number}. " + ", ".join(rolls))
        if self.winner == "none":
            parts.append(
                _("no winner after {count} exchanges: both moves are cancelled").format(
                    count=len(self.exchanges)
                )
            )
        else:
            parts.append(_("{side} wins").format(side=_(self.winner)))
        return " · ".join(parts)


def _side_text(label: str, side: CounterRoll, threshold: int) -> str:
    roll = side.roll
    faces = roll.roll.faces_text() or "—"
    return (
        f"{label} {roll.dice}d10 DD{roll.difficulty} : {faces} → "
        f"{successes_text(side.successes)} ({side.total}/{threshold})"
    )


def resolve_counter(
    attacker_dice: int,
    attacker_threshold: int,
    defender_dice: int,
    defender_threshold: int,
    rng: RandomSource,
    *,
    attacker_difficulty: int = DEFAULT_DIFFICULTY,
    defender_difficulty: int = DEFAULT_DIFFICULTY,
    max_exchanges: int = MAX_EXCHANGES,
    defender_rng: RandomSource | None = None,
) -> CounterResult:
    """PK-14: roll exchanges until one side's successes reach its threshold, or the cap.

    The defender's dice come from `defender_rng` when given (`jdr.dice.rolled_for`: a fight
    journals them as the defender's), else from `rng`; the faces are read in the same order.

    >>> from jdr.dice import GivenFaces
    >>> resolve_counter(1, 1, 1, 1, GivenFaces([2, 6])).winner
    'defender'
    """
    exchanges: list[Exchange] = []
    attacker_total = defender_total = 0
    for _exchange in range(max_exchanges):
        attack = roll_check(attacker_dice, attacker_difficulty, rng)
        attacker_total += attack.successes
        attacker = CounterRoll(attack, attacker_total)
        if attacker_total >= attacker_threshold:
            exchanges.append(Exchange(attacker, None))
            return _result("attacker", exchanges, attacker_threshold, defender_threshold)
        defence = roll_check(defender_dice, defender_difficulty, defender_rng or rng)
        defender_total += defence.successes
        exchanges.append(Exchange(attacker, CounterRoll(defence, defender_total)))
        if defender_total >= defender_threshold:
            return _result("defender", exchanges, attacker_threshold, defender_threshold)
    return _result("none", exchanges, attacker_threshold, defender_threshold)


def _result(
    winner: str, exchanges: list[Exchange], attacker_threshold: int, defender_threshold: int
) -> CounterResult:
    return CounterResult(winner, tuple(exchanges), attacker_threshold, defender_threshold)


def successes_distribution(dice: int, difficulty: int, exact: bool = False) -> Distribution:
    """The distribution of one roll's successes (faces ≥ DD): the pool's first component.

    >>> successes_distribution(1, 6, exact=True).probability(1)
    Fraction(1, 2)
    """
    from jdr.prob import pool_distribution
    from jdr.systems.pokemon.check import check_pool

    return pool_distribution(check_pool(dice, difficulty).mapped(lambda v: v[:1]), exact=exact)


def exact_ns(
    attacker_dice: int,
    attacker_threshold: int,
    defender_dice: int,
    defender_threshold: int,
    max_exchanges: int = MAX_EXCHANGES,
) -> float:
    """The estimated nanoseconds of `counter_odds(…, exact=True)`: the chain's operations, each on
    weights of about half the final denominator's bits.

    >>> from jdr.prob.cost import MAX_EXACT_NS
    >>> exact_ns(3, 4, 3, 3) < MAX_EXACT_NS < exact_ns(200, 30, 200, 30)
    True
    """
    steps = min(attacker_dice, attacker_threshold) + min(defender_dice, defender_threshold) + 2
    operations = attacker_threshold * defender_threshold * max_exchanges * steps
    bits = max_exchanges / 2 * (attacker_dice + defender_dice) * math.log2(10)
    return float(operations * (_EXACT_OP + _EXACT_BIT * bits**1.5))


def counter_odds(
    attacker_dice: int,
    attacker_threshold: int,
    defender_dice: int,
    defender_threshold: int,
    *,
    attacker_difficulty: int = DEFAULT_DIFFICULTY,
    defender_difficulty: int = DEFAULT_DIFFICULTY,
    max_exchanges: int = MAX_EXCHANGES,
    exact: bool = False,
) -> dict[str, Probability]:
    """P(`attacker`), P(`defender`), P(`none`): a Markov chain over both running totals.

    The state is the array of probabilities of (attacker total, defender total) below the
    thresholds; a roll shifts it along its side's axis, and what crosses the threshold wins.
    Exact mode keeps whole-number weights over a common denominator (the oracle's way).

    >>> odds = counter_odds(3, 4, 3, 3)
    >>> round(odds["attacker"], 4), round(odds["defender"], 4)
    (0.4565, 0.5435)
    """
    import numpy as np

    if exact:
        from jdr.prob.cost import refuse

        ns = exact_ns(
            attacker_dice, attacker_threshold, defender_dice, defender_threshold, max_exchanges
        )
        refuse(ns, "--exact", True, _("smaller thresholds or fewer dice"))
    sides = (
        successes_distribution(attacker_dice, attacker_difficulty, exact),
        successes_distribution(defender_dice, defender_difficulty, exact),
    )
    shape = (attacker_threshold, defender_threshold)
    state: npt.NDArray[Any] = np.zeros(shape, dtype=object if exact else np.float64)
    state[...] = 0
    state[0, 0] = 1
    denominator: Any = 1 if exact else 1.0
    won: list[Any] = [0, 0]
    for _exchange in range(max_exchanges):
        for axis, successes in enumerate(sides):
            state, crossed = _roll_side(state, successes, axis)
            denominator *= successes.denominator
            won = [w * successes.denominator for w in won]
            won[axis] += crossed
        if not state.any():
            break
    left = state.sum()

    def probability(weight: Any) -> Probability:
        if exact:
            from fractions import Fraction

            return Fraction(int(weight), int(denominator))
        return float(weight) / float(denominator)

    return {
        "attacker": probability(won[0]),
        "defender": probability(won[1]),
        "none": probability(left),
    }


def _roll_side(
    state: npt.NDArray[Any], successes: Distribution, axis: int
) -> tuple[npt.NDArray[Any], Any]:
    """One side's roll: the state shifted along `axis`, and the weight that crossed over."""
    import numpy as np

    limit = state.shape[axis]
    out: npt.NDArray[Any] = np.zeros_like(state)
    out[...] = 0
    crossed: Any = 0
    total = state.sum()
    for index, weight in enumerate(successes.weights):
        step = successes.offset[0] + index
        if not weight:
            continue
        if step >= limit:
            crossed += total * weight
            continue
        source = [slice(None), slice(None)]
        target = [slice(None), slice(None)]
        over = [slice(None), slice(None)]
        source[axis], target[axis], over[axis] = (
            slice(0, limit - step),
            slice(step, limit),
            slice(limit - step, limit),
        )
        out[tuple(target)] += state[tuple(source)] * weight
        crossed += state[tuple(over)].sum() * weight
    return out, crossed


# --- the action ---------------------------------------------------------------------------


class CounterParams(BaseModel):
    """`counter --attacker-dice N --attacker-threshold T --defender-dice M …` (PK-14)."""

    attacker_dice: int = Field(
        ge=0,
        le=MAX_DICE,
        description=N_("attacker's dice (Force or Concentration)"),
        json_schema_extra=named("attacker's dice", "dés de l'attaquant"),
    )
    attacker_threshold: int = Field(
        ge=1,
        le=MAX_THRESHOLD,
        description=N_("successes the attacker needs: the defender's Constitution or Volonté"),
        json_schema_extra=named("attacker's threshold", "seuil de l'attaquant"),
    )
    defender_dice: int = Field(
        ge=0,
        le=MAX_DICE,
        description=N_("defender's dice (Force or Concentration)"),
        json_schema_extra=named("defender's dice", "dés du défenseur"),
    )
    defender_threshold: int = Field(
        ge=1,
        le=MAX_THRESHOLD,
        description=N_("successes the defender needs: the attacker's Constitution or Volonté"),
        json_schema_extra=named("defender's threshold", "seuil du défenseur"),
    )
    difficulty: int = Field(
        default=DEFAULT_DIFFICULTY,
        ge=-20,
        le=100,
        description=N_("difficulty (DD) of both sides' rolls"),
        json_schema_extra=named("difficulty (DD)", "difficulté (DD)"),
    )


def roll(params: CounterParams, rng: RandomSource) -> Record:
    """The `counter` action: JSON `winner` and `exchanges` (each side's faces, successes, total)."""
    result = resolve_counter(
        params.attacker_dice,
        params.attacker_threshold,
        params.defender_dice,
        params.defender_threshold,
        rng,
        attacker_difficulty=params.difficulty,
        defender_difficulty=params.difficulty,
    )
    exchanges = [
        {
            "attacker": _side_json(exchange.attacker),
            "defender": _side_json(exchange.defender) if exchange.defender else None,
        }
        for exchange in result.exchanges
    ]
    return Record(
        outcome=result.winner,
        totals={"winner": result.winner, "exchanges": exchanges},
        faces=result.faces,
        explain=result.explain,
    )


def _side_json(side: CounterRoll) -> dict[str, Any]:
    return {"faces": side.roll.faces, "successes": side.successes, "total": side.total}


def odds(params: CounterParams, exact: bool) -> Odds:
    """`attacker`, `defender`, `none`: exact after the 50-exchange cap."""
    return Odds(
        outcomes=counter_odds(
            params.attacker_dice,
            params.attacker_threshold,
            params.defender_dice,
            params.defender_threshold,
            attacker_difficulty=params.difficulty,
            defender_difficulty=params.difficulty,
            exact=exact,
        )
    )
