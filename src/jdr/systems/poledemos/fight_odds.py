"""The odds of a Polédémos `activate` (PD-5, PD-9), as the game resolves it: the figure's VAL and
its group's as the game's state holds them, the dice chosen.

`action`, `end_activation` and `pass` roll nothing (PD-6, PD-7: an action's outcome is the
table's): only `activate` has odds. Every view asks these: the odds beside the command, the
recaps' chance beside each activation (`narration`), the property test that plays the decider.
The law is the `activate` action's (`actions.activation_odds`, the roll run over its faces): one
code path.

>>> from jdr.dice import GivenFaces
>>> from jdr.fights import play
>>> from jdr.systems.poledemos.play import play_rules
>>> state = play(play_rules(), {"first": "Alice", "players": [
...     {"name": "Alice", "figures": [{"name": "Perry", "val": "3+"}]},
...     {"name": "Bob", "figures": [{"name": "Smith", "val": "4+"}]}]}, [], GivenFaces([])).state
>>> odds = activate_odds(state, "Alice", {"figure": "Perry", "dice": 2}, exact=True)
>>> odds.outcomes["activated"], odds.outcomes["activated_passing"], odds.said()
(Fraction(8, 9), Fraction(0, 1), 'chance to activate 88.89 %')
>>> activation_outcome_of([{"type": "activation_rolled", "action_points": 1, "pass_hand": True}])
'activated_passing'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from jdr.errors import JdrError
from jdr.fights.odds import Chance, CommandOdds
from jdr.i18n import N_, _
from jdr.systems.poledemos.play_commands import check_activate, parse_command
from jdr.systems.poledemos.rules import PASS_HAND_FAILURES
from jdr.systems.protocol import Json

__all__ = [
    "ACTIVATION_MEASURE",
    "activate_odds",
    "activation_chance",
    "activation_law",
    "activation_outcome_of",
]

ACTIVATION_MEASURE = N_("chance to activate")
"""What the chance of an activation measures: at least 1 PA (PD-5)."""
ACTIVATED = ("activated", "activated_passing")
"""The outcomes the player wants: the figure activates (the hand may pass after it)."""
NAMES = {
    "activated": N_("activated, keeps the hand"),
    "activated_passing": N_("activated, then the hand passes"),
    "not_activated": N_("not activated"),
}
"""The outcomes of an activation (PD-5): the PA, and the hand."""


def outcome(dice: int, action_points: int) -> str:
    """PD-5: 0 PA does not activate; two failures or more pass the hand after the PA are used.

    >>> outcome(3, 3), outcome(3, 1), outcome(1, 0)
    ('activated', 'activated_passing', 'not_activated')
    """
    if action_points == 0:
        return "not_activated"
    return "activated_passing" if dice - action_points >= PASS_HAND_FAILURES else "activated"


@cache
def _odds(val: int, dice: int, group: tuple[int, ...]) -> Any:
    from jdr.systems.poledemos.actions import ActivateParams, activation_odds

    return activation_odds(ActivateParams(val=val, dice=dice, group=list(group)), exact=True)


def activation_law(val: int, dice: int, exact: bool = True) -> dict[int, Any]:
    """PD-5: the probability of each number of PA (the leader's successes) with `dice` d6 against
    VAL `val`+.

    >>> activation_law(3, 2)
    {0: Fraction(1, 9), 1: Fraction(4, 9), 2: Fraction(4, 9)}
    """
    found = {int(pa): p for pa, p in _odds(val, dice, ()).distribution}
    return {
        pa: found.get(pa, Fraction(0)) if exact else float(found.get(pa, 0))
        for pa in range(dice + 1)
    }


def activation_chance(val: int, dice: int) -> Chance:
    """The chance the figure activates (at least 1 PA), named: what the recaps print."""
    law = activation_law(val, dice)
    return Chance(1 - law[0], ACTIVATION_MEASURE)


def activate_odds(
    state: Json, actor: str, keys: Mapping[str, Any], exact: bool
) -> CommandOdds | None:
    """`activate`'s odds for the player `actor` and `keys` (`figure`, `dice`, `group`): activated
    keeping the hand, activated then passing it, not activated (PD-5), with the formula and the
    PA's distribution; None when the game would refuse the command."""
    if not state or state.get("hand") is None:
        return None
    try:
        _name, fields = parse_command({"action": "activate", "player": actor, **keys})
        _player, figure, members = check_activate(state, fields)  # type: ignore[arg-type]
    except JdrError:
        return None
    val, dice = int(figure["val"]), int(keys["dice"])
    law = activation_law(val, dice, exact)
    zero = law[0] - law[0]
    outcomes = dict.fromkeys(NAMES, zero)
    for pa, p in law.items():
        outcomes[outcome(dice, pa)] += p
    return CommandOdds(
        outcomes,
        ACTIVATED,
        ACTIVATION_MEASURE,
        NAMES,
        formula=activation_formula(val, dice, [int(m["val"]) for m in members], law),
        distribution=law,
        label=N_("PA"),
    )


def activation_formula(
    val: int, dice: int, group: Sequence[int], law: Mapping[int, Any]
) -> list[str]:
    """PD-5, PD-9 in words, with the figure's numbers (in the reader's language)."""
    from jdr.numbers import decimal, percent

    lines = [
        _(
            "{dice}d6 against VAL {val}+: each face ≥ {val} is 1 PA ({face} a die); two failures"
            " or more pass the hand after the PA are used"
        ).format(dice=dice, val=val, face=percent(Fraction(7 - val, 6))),
    ]
    if group:
        found = _odds(val, dice, tuple(group)).extra["group"]
        lines.append(
            _("the group reads the same dice: {members}").format(
                members=", ".join(
                    _("VAL {val}+ {mean} PA on average").format(
                        val=member["val"], mean=decimal(float(member["mean"]), 2)
                    )
                    for member in found
                )
            )
        )
    return lines


def activation_outcome_of(events: Sequence[Json]) -> str | None:
    """The outcome one `activate` decision shows (`activated`, `activated_passing`,
    `not_activated`), None when it rolled nothing."""
    for event in events:
        if event["type"] == "activation_rolled":
            if event["action_points"] == 0:
                return "not_activated"
            return "activated_passing" if event["pass_hand"] else "activated"
    return None
