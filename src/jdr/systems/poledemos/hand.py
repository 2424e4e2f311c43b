"""A hand (PD-4, PD-5): figures activated one at a time until one passes the hand or none is left.

Each figure rolls its dice once, in the order given; its PA count even when its failures pass the
hand (PD-5: the hand passes *after* its actions). The exact distribution of the total PA is a
Markov chain over the position in the order (the figures left); `best_policy` finds, by dynamic
programming over that position, the dice per figure that maximise the expected total.

>>> law = activation_law(3, 3)
>>> law.mean, law.keep
(Fraction(2, 1), Fraction(20, 27))
>>> best_policy([3, 4, 5, 5]).dice
[3, 3, 1, 3]

Decisions where the rules are silent:

- A figure that rolls 0 successes "does not activate" (PD-5), yet it has had its roll: it is not
  rolled again in the same hand (else one die at a time could be re-rolled until it succeeds).
- Outcomes: `pass_hand` when a figure passed the hand while others were still waiting,
  `all_activated` when every figure was rolled for (the last one may have rolled two failures: the
  hand passes then anyway, PD-4).
- The policy depends only on the position in the order: the PA already gained add to the total and
  do not change which choice is best from there on. Between choices of equal expectation, the
  fewest dice.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from pydantic import BaseModel, Field, field_validator, model_validator

from jdr.dice.source import GivenFaces, RandomSource
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.prob import Distribution, Probability
from jdr.systems.poledemos.rules import (
    MAX_ACTIVATION_DICE,
    MIN_ACTIVATION_DICE,
    Activation,
    activate,
    check_activation_dice,
    val_die,
)
from jdr.systems.poledemos.warband import Vals
from jdr.systems.protocol import Odds, Record
from jdr.validation import fail

OUTCOMES = (N_("pass_hand"), N_("all_activated"))
DICE_CHOICES = tuple(range(MIN_ACTIVATION_DICE, MAX_ACTIVATION_DICE + 1))
D6 = val_die(1)
MAX_HAND_FIGURES = 30
"""More figures than a skirmish fields; the exact chain stays instant."""


def every_roll(dice: int) -> Iterator[tuple[int, ...]]:
    """Every face sequence of `dice` d6 (PD-1), each equally likely: 6^dice of them.

    >>> len(list(every_roll(2)))
    36
    """
    return itertools.product(range(1, D6.size + 1), repeat=dice)


@dataclass(frozen=True)
class ActivationLaw:
    """PD-5 for one figure: out of `rolls` equally likely rolls, how many give each PA and whether
    the hand passes — `counts` holds `(action_points, pass_hand, rolls)`."""

    val: int
    dice: int
    counts: tuple[tuple[int, bool, int], ...]
    rolls: int

    @property
    def mean(self) -> Fraction:
        """The expected PA."""
        return Fraction(sum(points * n for points, _passes, n in self.counts), self.rolls)

    @property
    def keep(self) -> Fraction:
        """The chance the hand stays with the player."""
        return Fraction(sum(n for _points, passes, n in self.counts if not passes), self.rolls)


@cache
def activation_law(val: int, dice: int) -> ActivationLaw:
    """Every roll of an activation read by the rules themselves (`activate`), tallied.

    >>> activation_law(3, 1).counts
    ((0, False, 2), (1, False, 4))
    """
    check_activation_dice(dice)
    tally = Counter(
        (act.action_points, act.pass_hand)
        for act in (activate(val, dice, GivenFaces(faces)) for faces in every_roll(dice))
    )
    counts = tuple((points, passes, n) for (points, passes), n in sorted(tally.items()))
    return ActivationLaw(val, dice, counts, sum(tally.values()))


def hand_distribution(
    vals: Sequence[int], policy: Sequence[int], exact: bool = False
) -> Distribution:
    """The joint distribution of `(total PA, figures rolled for)` over one hand (PD-4, PD-5).

    >>> hand = hand_distribution([3, 3], [3, 3], exact=True)
    >>> hand.marginal(1).to_list()
    [(1, Fraction(7, 27)), (2, Fraction(20, 27))]
    """
    one: Probability = Fraction(1) if exact else 1.0
    waiting: dict[tuple[int, int], Probability] = {(0, 0): one}
    done: dict[tuple[int, ...], Probability] = {}
    for val, dice in zip(vals, policy, strict=True):
        law = activation_law(val, dice)
        following: dict[tuple[int, int], Probability] = {}
        for (total, rolled), p in waiting.items():
            for points, passes, n in law.counts:
                q = Fraction(n, law.rolls) if exact else n / law.rolls
                target = done if passes else following
                key = (total + points, rolled + 1)
                target[key] = target.get(key, 0) + p * q
        waiting = following
    for key, p in waiting.items():
        done[key] = done.get(key, 0) + p
    return Distribution.from_probabilities(done, exact=exact)


def hand_outcome(rolled: int, figures: int) -> str:
    """`all_activated` when every figure was rolled for, else `pass_hand`."""
    return "all_activated" if rolled == figures else "pass_hand"


def expected_action_points(vals: Sequence[int], policy: Sequence[int]) -> Fraction:
    """The exact expected total PA of a hand: backwards, E_i = mean_i + keep_i × E_{i+1}.

    >>> expected_action_points([3, 3], [1, 1])
    Fraction(4, 3)
    """
    expected = Fraction(0)
    for val, dice in reversed(list(zip(vals, policy, strict=True))):
        law = activation_law(val, dice)
        expected = law.mean + law.keep * expected
    return expected


@dataclass(frozen=True)
class Policy:
    """Dice per figure, in the order of play, and the exact expected total PA they give."""

    dice: list[int]
    mean: Fraction


def best_policy(vals: Sequence[int]) -> Policy:
    """The dice per figure that maximise the expected total PA (dynamic programming, exact).

    >>> best_policy([2]), best_policy([6, 6]).dice
    (Policy(dice=[3], mean=Fraction(5, 2)), [1, 3])
    """
    dice, expected = _best(tuple(vals))
    return Policy(list(dice), expected)


@cache
def _best(vals: tuple[int, ...]) -> tuple[tuple[int, ...], Fraction]:
    """`best_policy`'s dice and mean, computed once per sequence of Vals (a simulated game asks
    again at every activation)."""
    expected, chosen = Fraction(0), []
    for val in reversed(vals):
        options = [(law.mean + law.keep * expected, law.dice) for law in _laws(val)]
        expected, dice = max(options, key=lambda option: (option[0], -option[1]))
        chosen.append(dice)
    return tuple(chosen[::-1]), expected


def _laws(val: int) -> list[ActivationLaw]:
    return [activation_law(val, dice) for dice in DICE_CHOICES]


def fixed_policy(vals: Sequence[int], dice: int) -> Policy:
    """Every figure with the same number of dice.

    >>> fixed_policy([3, 3], 1).mean
    Fraction(4, 3)
    """
    return Policy([dice] * len(vals), expected_action_points(vals, [dice] * len(vals)))


# --- rolling a hand ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandRoll:
    """One hand as played: each activation in order, until one passed the hand or none is left."""

    vals: tuple[int, ...]
    policy: tuple[int, ...]
    activations: tuple[Activation, ...]

    @property
    def action_points(self) -> int:
        return sum(act.action_points for act in self.activations)

    @property
    def outcome(self) -> str:
        return hand_outcome(len(self.activations), len(self.vals))

    @property
    def faces(self) -> list[int]:
        return [face for act in self.activations for face in act.test.faces]

    def explain(self) -> str:
        """Each activation on its line's part, then the total, in the current language."""
        parts = [
            f"{position}. {activation_text(act)}"
            for position, act in enumerate(self.activations, 1)
        ]
        parts.append(
            _("total: {points} PA, {rolled} of {figures} figures activated").format(
                points=self.action_points, rolled=len(self.activations), figures=len(self.vals)
            )
        )
        return " · ".join(parts)


def activation_text(act: Activation) -> str:
    """`3d6 VAL 3+ : 2✗ 5✓ 2✗ → 1 success, 2 failures → 1 PA, the hand passes`."""
    text = f"{act.test.explain()} → " + _("{points} PA").format(points=act.action_points)
    if not act.activated:
        text += " " + _("(the figure does not activate)")
    if act.pass_hand:
        text += ", " + _("the hand passes after its actions")
    return text


def roll_hand(vals: Sequence[int], policy: Sequence[int], rng: RandomSource) -> HandRoll:
    """PD-4, PD-5: activate each figure with its dice until one passes the hand.

    >>> from jdr.dice import GivenFaces
    >>> hand = roll_hand([3, 4, 5], [2, 2, 2], GivenFaces([6, 5, 2, 1]))
    >>> hand.action_points, hand.outcome
    (2, 'pass_hand')
    """
    activations: list[Activation] = []
    for val, dice in zip(vals, policy, strict=True):
        act = activate(val, dice, rng)
        activations.append(act)
        if act.pass_hand:
            break
    return HandRoll(tuple(vals), tuple(policy), tuple(activations))


# --- the action -------------------------------------------------------------------------------


class HandParams(BaseModel):
    """`hand --figures 3,4,5,5 [--dice 1|2|3|best|3,2,2,1]` (PD-4, PD-5)."""

    figures: Vals = Field(
        min_length=1,
        max_length=MAX_HAND_FIGURES,
        description=N_("each figure's VAL in the order they activate, e.g. 3,4+,5+,5+"),
        json_schema_extra=named("figures' VALs", "VAL des figurines"),
    )
    dice: str = Field(
        default="best",
        description=N_(
            "dice per activation: 1, 2, 3, best (the highest expected PA),"
            " or one count per figure, e.g. 3,2,2,1"
        ),
        json_schema_extra=named("dice", "dés"),
    )

    @field_validator("dice", mode="before")
    @classmethod
    def _dice(cls, value: Any) -> str:
        text = str(value).strip().lower().replace(" ", "")
        if text == "best":
            return text
        parts = text.split(",")
        for index, part in enumerate(parts):
            if part not in {str(d) for d in DICE_CHOICES}:
                where = {"at": index} if len(parts) > 1 else {}
                raise fail(
                    "dice",
                    N_("a figure is activated with 1, 2 or 3 dice (PD-5)"),
                    N_("1, 2, 3, best, or one count per figure"),
                    value=str(value),
                    **where,
                )
        return text

    @model_validator(mode="after")
    def _one_count_per_figure(self) -> HandParams:
        counts = self.dice.split(",")
        if len(counts) > 1 and len(counts) != len(self.figures):
            raise fail(
                "dice",
                N_("{counts} dice counts for {figures} figures"),
                N_("1, 2, 3, best, or one count per figure"),
                value=self.dice,
                counts=len(counts),
                figures=len(self.figures),
                at="dice",
            )
        return self

    def policy(self) -> list[int]:
        """The dice of each figure: the best policy, one count for all, or the counts given."""
        if self.dice == "best":
            return best_policy(self.figures).dice
        counts = [int(part) for part in self.dice.split(",")]
        return counts * len(self.figures) if len(counts) == 1 else counts


def roll(params: HandParams, rng: RandomSource) -> Record:
    """The `hand` action: JSON `action_points` (the total), `activated`, `policy`, and
    `activations`: each one's `figure`, `val`, `dice`, `faces`, `successes`, `failures`,
    `action_points`, `pass_hand`."""
    hand = roll_hand(params.figures, params.policy(), rng)
    activations = [
        {
            "figure": position,
            "val": act.test.val,
            "dice": len(act.test.faces),
            "faces": act.test.faces,
            "successes": act.test.successes,
            "failures": act.failures,
            "action_points": act.action_points,
            "pass_hand": act.pass_hand,
        }
        for position, act in enumerate(hand.activations, 1)
    ]
    return Record(
        outcome=hand.outcome,
        totals={
            "action_points": hand.action_points,
            "activated": len(hand.activations),
            "policy": list(hand.policy),
            "activations": activations,
        },
        faces=hand.faces,
        explain=hand.explain,
    )


def odds(params: HandParams, exact: bool) -> Odds:
    """The `hand` odds: `pass_hand` / `all_activated`, the total PA's distribution and mean, and
    extra keys `policy` (the dice used), `best` (the best policy's dice), `policies` (`1`, `2`, `3`,
    `best`: each one's `dice` and `mean`) and `activated` (how many figures were rolled for)."""
    vals, policy = params.figures, params.policy()
    joint = hand_distribution(vals, policy, exact)
    zero = joint.total() - joint.total()
    outcomes: dict[str, Probability] = dict.fromkeys(("pass_hand", "all_activated"), zero)
    outcomes.update(joint.outcomes(lambda vector: hand_outcome(vector[1], len(vals))))
    best = best_policy(vals)
    table = {str(d): fixed_policy(vals, d) for d in DICE_CHOICES} | {"best": best}
    total = joint.marginal(0)
    return Odds(
        outcomes=outcomes,
        distribution=total.to_list(),
        mean=total.mean(),
        label="action_points",
        extra={
            "policy": policy,
            "best": best.dice,
            "policies": {
                key: {"dice": choice.dice, "mean": choice.mean if exact else float(choice.mean)}
                for key, choice in table.items()
            },
            "activated": joint.marginal(1).to_list(),
        },
    )
