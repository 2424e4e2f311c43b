"""The Polédémos actions: `test` (PD-1, PD-2), `activate` (PD-5, PD-9) and `hand` (PD-4, PD-5).

Every `example` is a roll the meta-tests run.

>>> sorted(ACTIONS)
['activate', 'hand', 'test']
>>> from jdr.dice import GivenFaces
>>> params = ActivateParams(val="3+", dice=3, group="4+,5+,5+")
>>> record = roll_activation(params, GivenFaces([6, 4, 3]))
>>> record.totals["action_points"], [m["action_points"] for m in record.totals["group"]]
(3, [2, 1, 1])

Decisions where the rules are silent:

- `test` has the outcomes `success` (at least one success) and `failure` (none); its odds give the
  distribution of successes — each die is a success or a failure, so failures = dice − successes.
- `activate` has the outcomes `pass_hand` and `keep_hand`. With at most 3 dice, PA + failures =
  dice, so the hand passes exactly when PA ≤ dice − 2: the PA distribution says it all.
- A group member's PA comes from the leader's own faces: the odds enumerate the 6^dice faces once
  and read each with every VAL, so `total_action_points` (leader and members together) is exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, Field

from jdr.dice.source import GivenFaces, RandomSource
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.prob import Distribution, Probability
from jdr.systems.poledemos import hand
from jdr.systems.poledemos.rules import (
    MAX_ACTIVATION_DICE,
    MIN_ACTIVATION_DICE,
    Activation,
    activate,
    member_activation,
    roll_test,
    val_pool,
)
from jdr.systems.poledemos.warband import Val, Vals
from jdr.systems.protocol import Action, Odds, Record

MAX_TEST_DICE = 30
"""A plain test (PD-2) rolls at most this many dice."""
MAX_GROUP = 30
"""The most figures a leader takes along in one activation (PD-8 sets no number)."""
TEST_OUTCOMES = (N_("success"), N_("failure"))
ACTIVATE_OUTCOMES = (N_("pass_hand"), N_("keep_hand"))
WORDS = (
    N_("action_points"),
    N_("pass_hand"),
    N_("val"),
    N_("group"),
    N_("activated"),
    N_("at_least"),
    N_("total_action_points"),
    N_("policy"),
)
"""JSON keys a reader sees as column titles."""


# --- test (PD-1, PD-2) ------------------------------------------------------------------------


class ValTestParams(BaseModel):
    """`test --val V --dice N` (PD-1, PD-2)."""

    val: Val = Field(
        description=N_("the figure's VAL, 1+ … 6+ (written 3 or 3+)"),
        json_schema_extra=named("VAL", "VAL"),
    )
    dice: int = Field(
        default=1,
        ge=1,
        le=MAX_TEST_DICE,
        description=N_("number of d6"),
        json_schema_extra=named("dice", "dés"),
    )


def success_or_failure(successes: int) -> str:
    """`success` with at least one success, else `failure`.

    >>> success_or_failure(2), success_or_failure(0)
    ('success', 'failure')
    """
    return "success" if successes > 0 else "failure"


def roll_val_test(params: ValTestParams, rng: RandomSource) -> Record:
    """The `test` action: JSON `successes`, `failures`."""
    rolled = roll_test(params.val, params.dice, rng)
    return Record(
        outcome=success_or_failure(rolled.successes),
        totals={"successes": rolled.successes, "failures": rolled.failures},
        faces=rolled.faces,
        explain=rolled.explain,
    )


def val_test_odds(params: ValTestParams, exact: bool) -> Odds:
    """The `test` odds: `success`/`failure`, the distribution and mean of successes, and the extra
    key `at_least`: `[k, P(successes ≥ k)]` for k = 1 … dice.

    >>> odds = val_test_odds(ValTestParams(val=3, dice=2), exact=True)
    >>> odds.outcomes["failure"], odds.extra["at_least"][1]
    (Fraction(1, 9), (2, Fraction(4, 9)))
    """
    from jdr.prob import pool_distribution

    successes = pool_distribution(val_pool(params.val, params.dice), exact=exact).marginal(0)
    zero = successes.total() - successes.total()
    outcomes: dict[str, Probability] = dict.fromkeys(TEST_OUTCOMES, zero)
    outcomes.update(successes.outcomes(lambda vector: success_or_failure(vector[0])))
    return Odds(
        outcomes=outcomes,
        distribution=successes.to_list(),
        mean=successes.mean(),
        label="successes",
        extra={"at_least": [(k, successes.at_least(k)) for k in range(1, params.dice + 1)]},
    )


# --- activate (PD-5, PD-9) --------------------------------------------------------------------


class ActivateParams(BaseModel):
    """`activate --val V --dice N [--group V,V,…]` (PD-5, PD-8, PD-9)."""

    val: Val = Field(
        description=N_("the figure's (or the leader's) VAL, 1+ … 6+"),
        json_schema_extra=named("VAL", "VAL"),
    )
    dice: int = Field(
        ge=MIN_ACTIVATION_DICE,
        le=MAX_ACTIVATION_DICE,
        description=N_("dice chosen for the activation: 1, 2 or 3"),
        json_schema_extra=named("dice", "dés"),
    )
    group: Vals = Field(
        default_factory=list,
        max_length=MAX_GROUP,
        description=N_("the VAL of each figure the leader takes along, e.g. 4+,5+,5+"),
        json_schema_extra=named("group's VALs", "VAL du groupe"),
    )


def keep_or_pass(act: Activation) -> str:
    """PD-5: `pass_hand` on two failures or more, else `keep_hand`."""
    return "pass_hand" if act.pass_hand else "keep_hand"


def roll_activation(params: ActivateParams, rng: RandomSource) -> Record:
    """The `activate` action: JSON `successes`, `failures`, `action_points`, `pass_hand`, and
    `group`: each member's `val` and `action_points`."""
    leader = activate(params.val, params.dice, rng)
    members = [member_activation(val, leader) for val in params.group]
    return Record(
        outcome=keep_or_pass(leader),
        totals={
            "successes": leader.test.successes,
            "failures": leader.failures,
            "action_points": leader.action_points,
            "pass_hand": leader.pass_hand,
            "group": [
                {"val": member.test.val, "action_points": member.action_points}
                for member in members
            ],
        },
        faces=leader.test.faces,
        explain=lambda: explain_activation(leader, members),
    )


def explain_activation(leader: Activation, members: Sequence[Activation]) -> str:
    """The leader's roll and PA, then each member's reading of the same dice (PD-9)."""
    parts = [hand.activation_text(leader)]
    for member in members:
        parts.append(
            _("member VAL {val}+ : {faces} → {points} PA").format(
                val=member.test.val,
                faces=member.test.roll.faces_text(),
                points=member.action_points,
            )
        )
    if not leader.pass_hand and any(member.pass_hand for member in members):
        parts.append(_("the members' failures do not pass the hand, only the leader's count"))
    return " · ".join(parts)


def activation_odds(params: ActivateParams, exact: bool) -> Odds:
    """The `activate` odds: `pass_hand`/`keep_hand`, the leader's PA distribution and mean, and the
    extra keys `group` (each member's `val`, `mean`, `distribution` of PA) and
    `total_action_points` (`mean`, `distribution` of the PA of leader and members together)."""
    leader_pa: Counter[int] = Counter()
    member_pa: list[Counter[int]] = [Counter() for _val in params.group]
    total_pa: Counter[int] = Counter()
    outcome: Counter[str] = Counter(dict.fromkeys(ACTIVATE_OUTCOMES, 0))
    for faces in hand.every_roll(params.dice):
        leader = activate(params.val, params.dice, GivenFaces(faces))
        members = [member_activation(val, leader) for val in params.group]
        leader_pa[leader.action_points] += 1
        outcome[keep_or_pass(leader)] += 1
        for counter, member in zip(member_pa, members, strict=True):
            counter[member.action_points] += 1
        total_pa[leader.action_points + sum(m.action_points for m in members)] += 1
    rolls = sum(leader_pa.values())
    leader_dist = _distribution(leader_pa, exact)
    total_dist = _distribution(total_pa, exact)
    return Odds(
        outcomes={key: Fraction(n, rolls) if exact else n / rolls for key, n in outcome.items()},
        distribution=leader_dist.to_list(),
        mean=leader_dist.mean(),
        label="action_points",
        extra={
            "group": [
                {"val": val, **_summary(_distribution(counter, exact))}
                for val, counter in zip(params.group, member_pa, strict=True)
            ],
            "total_action_points": _summary(total_dist),
        },
    )


def _distribution(counts: Counter[int], exact: bool) -> Distribution:
    return Distribution.from_counts({(value,): n for value, n in counts.items()}, exact=exact)


def _summary(dist: Distribution) -> dict[str, Any]:
    return {"mean": dist.mean(), "distribution": dist.to_list()}


# --- the actions --------------------------------------------------------------------------------

ACTIONS: dict[str, Action[Any]] = {
    "test": Action(
        "test",
        ValTestParams,
        roll_val_test,
        val_test_odds,
        help=N_("A test: n d6 against the figure's VAL, a success on a face ≥ VAL (PD-1, PD-2)."),
        example={"val": "3+", "dice": 3},
        names={"en": "test", "fr": "test"},
    ),
    "activate": Action(
        "activate",
        ActivateParams,
        roll_activation,
        activation_odds,
        help=N_(
            "Activate a figure with 1 to 3 dice: successes are PA, two failures pass the hand;"
            " its group reads the same dice (PD-5, PD-9)."
        ),
        example={"val": "3+", "dice": 3, "group": "4+,5+,5+"},
        names={"en": "activate", "fr": "activer"},
    ),
    "hand": Action(
        "hand",
        hand.HandParams,
        hand.roll,
        hand.odds,
        help=N_(
            "A hand: figures activated in order until one passes the hand; total PA and the best"
            " dice per figure (PD-4, PD-5)."
        ),
        example={"figures": "3+,4+,5+,5+", "dice": "best"},
        names={"en": "hand", "fr": "main"},
    ),
}
