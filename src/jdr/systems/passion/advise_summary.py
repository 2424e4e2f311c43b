"""The advisor's recommendation in one sentence, computed from its ranking.

The sentence names the best choice, its figure by the goal (P(success), P(no failure) or the mean
margin), and what more dice bring: the best pool with more dice, compared with it. Pools of the
best's number of dice that tie with it on the goal's figure and its first tie-breaker (the same
chances of success, status quo and failure, for the first two goals) are all named, or, when every
pool of that number ties, the sentence says "any size". When the best uses the most dice the
advisor considered, the sentence says more might do better.

>>> from jdr.systems.passion.advise import rank_pools
>>> from jdr.systems.passion.params import Conditions
>>> ranked = rank_pools(Conditions(difficulty=0, talent=0), [4, 6], max_dice=2, exact=True)
>>> summary(ranked, "success")
'Roll 1 die, any size: 50.00 % chance of success; more dice only add status quo.'
>>> ranked = rank_pools(Conditions(difficulty=2, talent=4, energy=True), [4, 6], max_dice=2)
>>> summary(ranked, "success")
'Roll 1 die, any size: a sure success; more dice only add status quo and failures.'
>>> ranked = rank_pools(Conditions(difficulty=1, talent=2), [4, 6], max_dice=3, exact=True)
>>> summary(ranked, "margin")
'Roll 2d6: a mean margin of 0.750; more dice only lower the mean margin.'
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from jdr.i18n import _, ngettext
from jdr.numbers import decimal, percent
from jdr.prob import Probability
from jdr.systems.passion.advise import Choice
from jdr.systems.passion.params import Goal

__all__ = ["summary"]

_SHOWN = 3
"""At most this many tied pools are named; more are counted."""


def summary(ranked: Sequence[Choice], goal: Goal) -> str:
    """One sentence for `ranked` (every pool considered, best first by `goal`), in the current
    language; "" when nothing was ranked."""
    if not ranked:
        return ""
    best = ranked[0]
    choice, figure = _choice(ranked, goal), _figure(best, goal)
    more = next((other for other in ranked if other.count > best.count), None)
    if more is not None:
        words = _more(best, more, goal)
    else:
        words = _("the most dice considered: more might do better (--max-dice)")
    return _("{choice}: {figure}; {more}.").format(choice=choice, figure=figure, more=words)


def _choice(ranked: Sequence[Choice], goal: Goal) -> str:
    """`Roll 1 die, any size` when every pool of the best's size is as good, else the pools."""
    best = ranked[0]
    same_count = [choice for choice in ranked if choice.count == best.count]
    tied = [choice.dice for choice in same_count if _tie(choice, best, goal)]
    if len(tied) > 1 and len(tied) == len(same_count):
        return ngettext(
            "Roll {count} die, any size", "Roll {count} dice, any sizes", best.count
        ).format(count=best.count)
    named = _(" or ").join(tied) if len(tied) <= _SHOWN else ", ".join(tied[:_SHOWN])
    if len(tied) > _SHOWN:
        rest = len(tied) - _SHOWN
        named = ngettext(
            "{dice} or {count} other pool as good", "{dice} or {count} other pools as good", rest
        ).format(dice=named, count=rest)
    return _("Roll {dice}").format(dice=named)


def _figure(best: Choice, goal: Goal) -> str:
    if goal == "success":
        if best.sure:
            return _("a sure success")
        return _("{p} chance of success").format(p=percent(best.p_success))
    if goal == "no-failure":
        if best.p_failure == 0:
            return _("never a failure")
        return _("{p} chance of no failure").format(p=percent(1 - best.p_failure))
    return _("a mean margin of {margin}").format(margin=decimal(best.mean_margin, 3))


def _more(best: Choice, more: Choice, goal: Goal) -> str:
    """What the best pool with more dice brings, against the best choice."""
    if _same(more.measures(goal)[0], best.measures(goal)[0]):
        return {
            "success": _("more dice do not raise the odds of success"),
            "no-failure": _("more dice do not lower the odds of failure"),
            "margin": _("more dice do not raise the mean margin"),
        }[goal]
    more_successes = _above(more.p_success, best.p_success)
    if goal == "no-failure" and more_successes:
        return _("more dice bring more successes ({p}), but more failures too").format(
            p=percent(more.p_success)
        )
    if goal == "margin" and more_successes:
        return _("more dice bring more successes ({p}), but a lower mean margin").format(
            p=percent(more.p_success)
        )
    if goal == "margin":
        return _("more dice only lower the mean margin")
    status_quo = _above(more.p_status_quo, best.p_status_quo)
    failures = _above(more.p_failure, best.p_failure)
    if status_quo and failures:
        return _("more dice only add status quo and failures")
    if status_quo:
        return _("more dice only add status quo")
    return _("more dice only add failures")


def _tie(choice: Choice, best: Choice, goal: Goal) -> bool:
    """As good on the goal's figure and its first tie-breaker."""
    pairs = zip(choice.measures(goal)[:2], best.measures(goal)[:2], strict=True)
    return all(_same(a, b) for a, b in pairs)


def _same(a: Probability, b: Probability) -> bool:
    """Equal: exactly for Fractions, to 12 decimals for floats (as the ranking compares them)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a == b
    return round(float(a) - float(b), 12) == 0


def _above(a: Probability, b: Probability) -> bool:
    return not _same(a, b) and a > b
