"""The odds of an Ilvermorny duel's `cast` (IL-6), as the duel resolves it: the wizard's Magie and
the spell's level as the duel's state holds them (a level gained in round 1 counts in round 2).

Every view asks these: the odds beside the command, the recaps' chance beside each cast
(`narration`), the property test that plays the decider. The IL-6 law itself is the `cast`
action's (`actions.cast_odds`, the roll run over its twelve faces): one code path.

>>> state = {"wizards": ["Ann", "Bob"], "magic": {"Ann": 7, "Bob": 6}, "over": False, "chosen": {},
...          "spells": {"Ann": {"Incendio": {"level": 2}}, "Bob": {}}}
>>> odds = cast_odds(state, "ann", {"spell": "incendio"}, exact=True)
>>> odds.outcomes["perfect"], odds.said()
(Fraction(1, 12), 'chance to cast 58.33 %')
>>> cast_outcome_of([{"type": "spell_chosen", "wizard": "Bob"},
...     {"type": "spell_cast", "wizard": "Ann", "outcome": "failure"},
...     {"type": "spell_cast", "wizard": "Bob", "outcome": "perfect"}])
'perfect'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from jdr.fights.odds import Chance, CommandOdds
from jdr.i18n import N_, _
from jdr.systems.ilvermorny.fight_state import find
from jdr.systems.ilvermorny.spells import magic_bonus
from jdr.systems.protocol import Json

if TYPE_CHECKING:
    from jdr.prob import Probability

__all__ = ["CAST_MEASURE", "cast_chance", "cast_law", "cast_odds", "cast_outcome_of"]

CAST_MEASURE = N_("chance to cast")
"""What P(cast) measures: the spell goes off (success, perfect or imperfect, IL-11)."""
NAMES = {
    "success": N_("success"),
    "perfect": N_("perfect"),
    "imperfect": N_("imperfect"),
    "failure": N_("failure"),
    "critical_failure": N_("critical_failure"),
}
"""The outcomes of a cast (IL-6); the first three cast the spell (IL-11)."""
CAST = ("success", "perfect", "imperfect")
"""What the caster wants: the spell goes off (`spells.CAST_SUCCESSES`, in the rule's order)."""


@cache
def _law(magic: int, level: int) -> dict[str, Any]:
    from jdr.systems.ilvermorny.actions import CastParams
    from jdr.systems.ilvermorny.actions import cast_odds as action_odds

    return dict(action_odds(CastParams(magic=magic, level=level), exact=True).outcomes)


def cast_law(magic: int, level: int, exact: bool = True) -> dict[str, Probability]:
    """IL-6: the probability of each cast outcome (`spells.CAST_OUTCOMES`) for a caster of Magie
    `magic` and a spell of `level` ≥ 1, exact (Fractions) or floats.

    >>> law = cast_law(7, 2)
    >>> law["success"], law["perfect"], law["imperfect"]
    (Fraction(5, 12), Fraction(1, 12), Fraction(1, 12))
    """
    return {name: p if exact else float(p) for name, p in _law(magic, level).items()}


def cast_chance(magic: int, level: int) -> Chance:
    """The chance the spell goes off, named (what the recaps print beside a cast)."""
    law = cast_law(magic, level)
    return Chance(sum(law[name] for name in CAST), CAST_MEASURE)


def cast_odds(state: Json, actor: str, keys: Mapping[str, Any], exact: bool) -> CommandOdds | None:
    """`cast`'s odds for `actor` (a wizard of the duel) and `keys` (`spell`): each outcome of
    IL-6, the chance to cast (success, perfect or imperfect), the formula; None when the duel
    would refuse the command (an unknown wizard or spell, a spell not learnt, a spell already
    chosen this round, a duel over)."""
    if not state or state.get("over"):
        return None
    wizard = find(list(state["wizards"]), actor)
    if wizard is None or wizard in state["chosen"]:
        return None
    known = state["spells"][wizard]
    spell = find(list(known), keys.get("spell"))
    if spell is None or known[spell]["level"] < 1:
        return None
    magic, level = int(state["magic"][wizard]), int(known[spell]["level"])
    law = cast_law(magic, level, exact)
    return CommandOdds(law, CAST, CAST_MEASURE, NAMES, formula=cast_formula(magic, level))


def cast_formula(magic: int, level: int) -> list[str]:
    """IL-6 in words, with the caster's numbers (in the reader's language)."""
    return [
        _(
            "d12 − Magie/2 ({half}) against level × 2 ({target}): below is a success, equal a"
            " perfect cast, above a failure"
        ).format(half=magic_bonus(magic), target=2 * level),
        _("a natural 1 is an imperfect cast (it goes off), a natural 12 a critical failure"),
    ]


def cast_outcome_of(events: Sequence[Json]) -> str | None:
    """The outcome of the chooser's own spell in one `cast` decision (IL-6); None until both
    spells are chosen (nothing is rolled before)."""
    wizard = next((e["wizard"] for e in events if e["type"] == "spell_chosen"), None)
    for event in events:
        if event["type"] == "spell_cast" and event["wizard"] == wizard:
            return str(event["outcome"])
    return None
