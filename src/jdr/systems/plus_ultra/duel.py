"""A duel where both sides only attack in turn (PU-1, PU-3, PU-4): who wins, in how many rounds.

Each side is given as its rank and **current** gauges, `rank=C,energy=7,willpower=5`. A round is
both sides attacking once, `first` then the other; it ends early when the first attack of the round
brings the target to 0 Énergie (KO, PU-1). Rounds count from 1: a duel decided by the very first
attack lasts 1 round. Volonté never changes when only attacking, so the state of the duel is the two
Énergie gauges, and its odds are an exact Markov chain over them (Fractions with `exact`, floats
otherwise, from the same code).

Where the rules are silent, this module reads them so:

- Énergie only goes down, so hit chances only go up: if neither side can hit at the start (d20 +
  Volonté < 8 + Énergie for every face), nobody ever will, and the duel is a `draw` with
  probability 1; otherwise it ends with probability 1 and `draw` has probability 0.
- The number of rounds has no upper bound (both may miss forever, with a vanishing probability):
  the distribution lists rounds until less than `TAIL` of the duels are still going (at most
  `MAX_LISTED_ROUNDS`); what is left is `rounds_beyond`. The mean is exact, over the duels that end.

>>> a, b = Duelist(rank="C", energy=7, willpower=5), Duelist(rank="E", energy=2, willpower=2)
>>> odds = duel_odds(a, b, exact=True)
>>> odds.outcomes["a"] + odds.outcomes["b"], odds.outcomes["draw"]
(Fraction(1, 1), Fraction(0, 1))
>>> from jdr.dice import GivenFaces
>>> simulate(a, b, GivenFaces([3, 20, 10])).winner
'a'
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, Field

from jdr.dice.source import RandomSource
from jdr.errors import LimitError
from jdr.i18n import N_, _
from jdr.labels import Choices, named
from jdr.prob.distribution import Probability
from jdr.systems.plus_ultra.rules import (
    DIE,
    AttackRoll,
    damage,
    defense,
    hit_chance,
    resolve_attack,
)
from jdr.systems.plus_ultra.sheets import Duelist, Spec
from jdr.systems.protocol import Odds, Record

Side = Literal["a", "b"]
SIDES: Choices = {"a": ("side a", "camp a"), "b": ("side b", "camp b")}
"""A duel's sides (English, French)."""
OUTCOMES = ("a", "b", N_("draw"))
TAIL = 1e-6
"""The distribution of rounds stops once fewer duels than this are still going."""
MAX_LISTED_ROUNDS = 500
MAX_SIMULATED_ROUNDS = 10_000
"""A safety net: with a fair d20 a duel this long has a probability below 10⁻²⁰⁰."""
_ROUND = DIE * DIE  # the equally likely face pairs of one round

WORDS = (N_("rounds_beyond"),)
"""The odds' own keys, shown to a reader in the catalog's words."""


class DuelParams(BaseModel):
    """`duel --a SPEC --b SPEC [--first a|b]`."""

    a: Spec = Field(
        description=N_("side a, current gauges: rank=R,energy=E,willpower=W"),
        json_schema_extra=named("side a", "camp a"),
    )
    b: Spec = Field(
        description=N_("side b, current gauges: rank=R,energy=E,willpower=W"),
        json_schema_extra=named("side b", "camp b"),
    )
    first: Side = Field(
        default="a",
        description=N_("who attacks first in each round"),
        json_schema_extra=named("first to attack", "premier à attaquer", SIDES),
    )


def other(side: Side) -> Side:
    """The other side: `a` ↔ `b`.

    >>> other("a")
    'b'
    """
    return "b" if side == "a" else "a"


def hits(attacker: Duelist, target_energy: int) -> int:
    """How many of the d20's faces hit a target at `target_energy` (PU-4).

    >>> hits(Duelist(rank="C", energy=6, willpower=5), 6)
    12
    """
    return int(hit_chance(attacker.willpower, defense(target_energy)) * DIE)


# --- the exact odds -----------------------------------------------------------------------

State = tuple[int, int]  # (Énergie of the side playing first, Énergie of the other)
Next = State | Literal["first", "second"]  # a state, or the winner


def _round(first: Duelist, second: Duelist, state: State) -> list[tuple[int, Next]]:
    """The ways one round from `state` goes, as (face pairs out of 400, what follows)."""
    e1, e2 = state
    h1, h2 = hits(first, e2), hits(second, e1)
    ways: list[tuple[int, Next]] = []
    for count, left in ((h1, e2 - damage(first.rank)), (DIE - h1, e2)):
        if count == 0:
            continue
        if left <= 0:  # KO mid-round: the second side never plays (its die counts all 20)
            ways.append((count * DIE, "first"))
            continue
        hurt = e1 - damage(second.rank)
        if h2:
            ways.append((count * h2, "second" if hurt <= 0 else (hurt, left)))
        if h2 < DIE:
            ways.append((count * (DIE - h2), (e1, left)))
    return ways


@dataclass(frozen=True)
class DuelOdds:
    """`outcomes` a / b / draw; `rounds` as (n, P(the duel ends in round n)); see the module."""

    outcomes: dict[str, Probability]
    rounds: list[tuple[int, Probability]]
    rounds_beyond: Probability
    mean_rounds: Probability | None


def duel_odds(a: Duelist, b: Duelist, first: Side = "a", exact: bool = False) -> DuelOdds:
    """The exact odds of a duel of attacks only: each side's chance to win, and how long it lasts.

    >>> wall = Duelist(rank="S+", energy=24, willpower=0)  # 0 + 20 < 8 + 24: nobody can hit
    >>> duel_odds(wall, wall, exact=True).outcomes
    {'a': Fraction(0, 1), 'b': Fraction(0, 1), 'draw': Fraction(1, 1)}
    """
    one, two = (a, b) if first == "a" else (b, a)
    ratio: Callable[[int, int], Probability] = Fraction if exact else (lambda n, d: n / d)
    zero = ratio(0, 1)
    wins = _absorption(one, two, ratio)
    win_one, win_two, weighted = wins[(one.energy, two.energy)]
    ends = win_one + win_two
    rounds, beyond = _rounds(one, two, exact)
    won = {first: win_one, other(first): win_two}
    return DuelOdds(
        outcomes={"a": won["a"], "b": won["b"], "draw": zero if ends else ratio(1, 1)},
        rounds=rounds,
        rounds_beyond=beyond,
        mean_rounds=weighted / ends if ends else None,
    )


def _absorption(
    one: Duelist, two: Duelist, ratio: Callable[[int, int], Probability]
) -> dict[State, tuple[Probability, Probability, Probability]]:
    """For every state: P(first wins), P(second wins), E[rounds · 1{the duel ends}].

    Every round leaves the state, or stays with the chance that both miss: conditioning on
    leaving, states are solved in increasing order (a state only leads to smaller ones).
    """
    zero = ratio(0, 1)
    solved: dict[State, tuple[Probability, Probability, Probability]] = {}
    for e1 in range(1, one.energy + 1):
        for e2 in range(1, two.energy + 1):
            ways = _round(one, two, (e1, e2))
            leave = sum(count for count, after in ways if after != (e1, e2))
            if leave == 0:  # nobody can hit: a draw
                solved[(e1, e2)] = (zero, zero, zero)
                continue
            w1, w2, weighted = zero, zero, zero
            for count, after in ways:
                p = ratio(count, leave)
                if after == "first":
                    w1 += p
                elif after == "second":
                    w2 += p
                elif after != (e1, e2):
                    n1, n2, m = solved[after]
                    w1, w2, weighted = w1 + p * n1, w2 + p * n2, weighted + p * m
            # E[R·1end] = P(end) · (expected rounds spent here) + the rest, conditioned on leaving
            solved[(e1, e2)] = (w1, w2, (w1 + w2) * ratio(_ROUND, leave) + weighted)
    return solved


def _rounds(
    one: Duelist, two: Duelist, exact: bool
) -> tuple[list[tuple[int, Probability]], Probability]:
    """P(the duel ends in round n) for n = 1, 2 … and P(still going after the last one listed).

    Weights are whole numbers over 400ⁿ in the exact engine, probabilities in the float one.
    """
    step: Callable[[Any, int], Any] = (
        (lambda w, c: w * c) if exact else (lambda w, c: w * c / _ROUND)
    )
    prob: Callable[[Any, int], Probability] = (
        (lambda w, n: Fraction(w, _ROUND**n)) if exact else (lambda w, n: float(w))
    )
    start = (one.energy, two.energy)
    live: dict[State, Any] = {start: 1 if exact else 1.0}
    if all(after == start for _count, after in _round(one, two, start)):
        return [], prob(0, 0)  # a draw: no round ever ends the duel
    rows: list[tuple[int, Probability]] = []
    beyond = prob(0, 0)
    for n in range(1, MAX_LISTED_ROUNDS + 1):
        ended: Any = 0
        following: dict[State, Any] = defaultdict(int)
        for state, weight in live.items():
            for count, after in _round(one, two, state):
                if isinstance(after, str):
                    ended += step(weight, count)
                else:
                    following[after] += step(weight, count)
        live = following
        if ended:
            rows.append((n, prob(ended, n)))
        beyond = prob(sum(live.values()), n)
        if float(beyond) < TAIL:
            break
    return rows, beyond


# --- one duel, rolled ---------------------------------------------------------------------


@dataclass(frozen=True)
class DuelAttack:
    """One attack of a duel: its round, who attacked, the roll, and the target's Énergie after."""

    round: int
    attacker: Side
    roll: AttackRoll
    willpower: int
    energy_left: int

    def json(self) -> dict[str, Any]:
        roll = self.roll
        return {
            "round": self.round,
            "attacker": self.attacker,
            "roll": roll.face,
            "attack": roll.attack,
            "defense": roll.defense,
            "hit": roll.hit,
            "damage": roll.damage,
            "energy_left": self.energy_left,
        }

    def explain(self) -> str:
        roll = self.roll
        head = _("round {round}, {side}: {face} + {willpower} = {attack} vs {defense}").format(
            round=self.round,
            side=self.attacker,
            face=roll.face,
            willpower=self.willpower,
            attack=roll.attack,
            defense=roll.defense,
        )
        if not roll.hit:
            return f"{head} → {_('miss')}"
        return f"{head} → " + _("hit, {side} at {energy} Énergie").format(
            side=other(self.attacker), energy=self.energy_left
        )


@dataclass(frozen=True)
class Duel:
    """A duel played out: every attack in order and the winner (None: nobody could ever hit)."""

    attacks: tuple[DuelAttack, ...]
    winner: Side | None
    energy: dict[str, int]

    @property
    def outcome(self) -> str:
        return self.winner or "draw"

    @property
    def rounds(self) -> int:
        return self.attacks[-1].round if self.attacks else 0

    @property
    def faces(self) -> list[int]:
        return [attack.roll.face for attack in self.attacks]

    def explain(self) -> str:
        parts = [attack.explain() for attack in self.attacks]
        if self.winner is None:
            parts.append(_("nobody can hit: a draw"))
        else:
            parts.append(
                _("{side} wins in round {round}").format(side=self.winner, round=self.rounds)
            )
        return " · ".join(parts)


def simulate(a: Duelist, b: Duelist, rng: RandomSource, first: Side = "a") -> Duel:
    """Play a duel from `rng`: each attack's d20 in turn, `first` then the other, until a KO.

    >>> from jdr.dice import GivenFaces
    >>> a, b = Duelist(rank="D", energy=4, willpower=4), Duelist(rank="E", energy=1, willpower=2)
    >>> duel = simulate(a, b, GivenFaces([2, 20]), first="b")
    >>> duel.outcome, duel.rounds, duel.energy
    ('a', 1, {'a': 4, 'b': 0})
    """
    sides = {"a": a, "b": b}
    energy = {"a": a.energy, "b": b.energy}
    if hits(a, b.energy) == 0 and hits(b, a.energy) == 0:
        return Duel((), None, energy)
    attacks: list[DuelAttack] = []
    for number in range(1, MAX_SIMULATED_ROUNDS + 1):
        for side in (first, other(first)):
            target, attacker = other(side), sides[side]
            roll = resolve_attack(attacker.willpower, energy[target], attacker.rank, rng)
            energy[target] = max(0, energy[target] - roll.damage)
            attacks.append(DuelAttack(number, side, roll, attacker.willpower, energy[target]))
            if energy[target] == 0:
                return Duel(tuple(attacks), side, energy)
    raise LimitError(
        "rounds", MAX_SIMULATED_ROUNDS, str(MAX_SIMULATED_ROUNDS), _("the duel never ended")
    )


# --- the action ---------------------------------------------------------------------------


def roll(params: DuelParams, rng: RandomSource) -> Record:
    """The `duel` roll: JSON `winner`, `rounds`, `energy` (each side's at the end), `attacks`."""
    duel = simulate(params.a, params.b, rng, params.first)
    return Record(
        outcome=duel.outcome,
        totals={
            "winner": duel.winner,
            "rounds": duel.rounds,
            "energy": dict(duel.energy),
            "attacks": [attack.json() for attack in duel.attacks],
        },
        faces=duel.faces,
        explain=duel.explain,
    )


def odds(params: DuelParams, exact: bool) -> Odds:
    """The `duel` odds: outcomes a / b / draw, the distribution and mean of the rounds."""
    answer = duel_odds(params.a, params.b, params.first, exact)
    return Odds(
        outcomes=answer.outcomes,
        distribution=answer.rounds,
        mean=answer.mean_rounds,
        label=N_("rounds"),
        extra={"rounds_beyond": answer.rounds_beyond},
    )
