"""The notation's pools as public API for a plug-in's own rules, with exact odds.

One dice term — explode (`!`, a compounding chain on the highest face), reroll (`r`, `ro`),
keep (`kh`, `kl`, `dh`, `dl`), count successes (`>=N`, failures `fN`), Fate (`dF`) — is a
`DiceTerm`; `pool` reads one from the notation. `roll_pool` rolls it from a random source (the
roller of `jdr dice`, so a journaled roll replays), `pool_odds` gives the exact distribution of
its value, and with `tally` the joint distribution of its value and of how many of its dice
(kept or not) show a value matching a comparison: "keep the two highest d10, a 10 explodes,
half the dice showing 1 is a catastrophe" in a few lines, without writing any probability.

>>> from fractions import Fraction
>>> from jdr.dice import GivenFaces
>>> five = pool("5d10!kh2")
>>> rolled = roll_pool(five, GivenFaces([10, 4, 1, 1, 7, 3]))
>>> rolled.value, tallied(rolled, "=1")
(20, 2)
>>> joint = pool_odds(pool("3d6kh2"), tally="=1", exact=True)  # (kept sum, dice showing 1)
>>> joint.probability((2, 3)), joint.probability((2, 2))
(Fraction(1, 216), Fraction(0, 1))

A tally's comparison must pick the lowest or the highest values of the die (`=1`, `<=2`,
`>=8`, or `=` its highest face without explosion): the odds condition on how many dice match,
and the kept dice then come from one end of each group. Another comparison is refused.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from jdr.dice.notation.limits import MAX_EXPLOSIONS
from jdr.dice.notation.result import TermRoll
from jdr.dice.notation.tree import Comparison, DiceTerm, Operator
from jdr.errors import InputError
from jdr.i18n import _

if TYPE_CHECKING:
    from jdr.dice.source import RandomSource
    from jdr.prob import Distribution

__all__ = ["DiceTerm", "pool", "pool_odds", "roll_pool", "tallied"]

_TALLY = re.compile(r"\s*(>=|<=|>|<|=)?\s*(-?\d+)\s*")


def pool(text: str) -> DiceTerm:
    """One dice term from the notation, e.g. `pool("5d10!kh2")`, `pool("4dF")`, `pool("6d10t7")`.

    >>> pool("8d10k3").keep
    KeepDrop(mode='kh', count=3)
    """
    from jdr.dice.notation.parse import parse

    expression = parse(text)
    (term,) = expression.terms if len(expression.terms) == 1 else (None,)
    if not isinstance(term, DiceTerm) or term.sign < 0:
        raise InputError("pool", text, _("one dice term, e.g. 5d10!kh2"), _("not one dice term"))
    return term


def roll_pool(term: DiceTerm, rng: RandomSource) -> TermRoll:
    """Roll one pool: its dice (`.dice`, each with `.value` and `.kept`) and its `.value`.

    The notation's limits hold (a `LimitError` before any die is rolled)."""
    from jdr.dice.notation.evaluate import roll_term

    return roll_term(term, rng)


def tallied(rolled: TermRoll, tally: Comparison | str) -> int:
    """How many dice of a rolled pool, kept or not, have a value matching `tally`."""
    comparison = _comparison(tally)
    return sum(comparison.matches(die.value) for die in rolled.dice)


def pool_odds(
    term: DiceTerm, tally: Comparison | str | None = None, exact: bool = False
) -> Distribution:
    """The exact distribution of the pool's value; with `tally`, of `(value, dice matching)`.

    Fractions when `exact`, floats otherwise. Without `tally` this is `jdr dice --odds`. The
    work is priced first, as for `jdr dice --odds` (a `LimitError` when too large).

    A homebrew rule, "keep the two highest d10, a 10 explodes, half the dice showing 1 is a
    catastrophe", for a plug-in's roll and odds:

    >>> from jdr.dice import GivenFaces
    >>> five = pool("5d10!kh2")  # keep the two highest d10, a 10 explodes
    >>> joint = pool_odds(five, tally="=1")  # (kept total, dice showing 1)
    >>> catastrophe = sum(p for (kept, ones), p in joint.items() if 2 * ones >= five.count)
    >>> round(catastrophe, 5), round(joint.marginal(0).at_least(15), 4)
    (0.00856, 0.7354)
    >>> rolled = roll_pool(five, GivenFaces([1, 1, 10, 6, 1, 4]))  # the 10 explodes: 10!+4
    >>> rolled.value, 2 * tallied(rolled, "=1") >= five.count
    (20, True)

    Exact odds (`exact=True`) take Fractions the same way; an exploding d10's chain of 100
    explosions makes them too large for more than a few dice (refused at once, as in
    `jdr dice --odds --exact`): the floats are the same distribution, to 1e-15.
    """
    from jdr.dice.notation.budget import price
    from jdr.dice.notation.limits import check
    from jdr.dice.notation.probability import term_distribution
    from jdr.dice.notation.tree import Expression

    expression = Expression((term,))
    check(expression)
    price(expression, exact)
    if tally is None:
        return term_distribution(term, exact)
    return _tallied_odds(term, _comparison(tally), exact)


def _comparison(tally: Comparison | str) -> Comparison:
    if isinstance(tally, Comparison):
        return tally
    match = _TALLY.fullmatch(tally)
    if match is None:
        raise InputError("tally", tally, _("a comparison, e.g. =1 or >=8"))
    operator = cast(Operator, match.group(1) or "=")
    return Comparison(operator, int(match.group(2)))


def _tallied_odds(term: DiceTerm, tally: Comparison, exact: bool) -> Distribution:
    """Σ_j P(j dice match) · (kept value given j match) ⊗ (j): the dice that match are the
    lowest (or highest) values, so the kept ones come first from one group, then the other."""
    import numpy as np

    from jdr.prob import Distribution

    one = die_values_of(term, exact)
    index = np.flatnonzero(one.weights != 0)
    values = (index + one.offset[0]).tolist()
    matching = [tally.matches(value) for value in values]
    low = matching == sorted(matching, reverse=True)  # the matching values are the lowest
    if not (low or matching == sorted(matching)):
        raise InputError(
            "tally",
            tally.text,
            _("a comparison picking the lowest or highest values, e.g. =1 or >=8"),
            _("the dice matching it are not at one end of the die's values"),
        )
    groups = {flag: _restricted(one, index[np.array(matching) == flag]) for flag in (True, False)}
    n = term.count
    kept_sums = _kept_sums(term, groups, low)
    rows = []
    for j in range(n + 1):
        row = _given(term, groups, j, low, exact, kept_sums)
        if row is not None:
            rows.append((j, *row))
    start = min(dist.offset[0] for _j, dist, _p in rows)
    stop = max(dist.offset[0] + dist.weights.shape[0] for _j, dist, _p in rows)
    weights = np.zeros((stop - start, n + 1), dtype=object if exact else np.float64)
    if exact:
        weights[...] = 0
    chance: Any
    for j, dist, chance in rows:
        at = dist.offset[0] - start
        column = weights[at : at + dist.weights.shape[0], j]
        if exact:  # whole numbers over the die's denominator to the n: divisions are exact
            column += dist.weights * chance // dist.denominator
        else:
            column += dist.weights / dist.denominator * chance
    return Distribution((start, 0), weights, one.denominator**n if exact else 1.0)


def die_values_of(term: DiceTerm, exact: bool) -> Distribution:
    """One die's value (explosions, rerolls, Fate), as the pool's odds use it."""
    from jdr.dice.notation.probability import die_values

    return die_values(term, exact, MAX_EXPLOSIONS)


def _takes(term: DiceTerm, j: int, low: bool) -> dict[bool, int]:
    """How many kept dice come from the matching group (True) and from the others, when `j`
    dice match: first from the group at the end the kept dice are taken from."""
    counts = {True: j, False: term.count - j}
    highest = term.keep.highest if term.keep is not None else True
    first = low != highest
    taken = min(term.kept, counts[first])
    return {first: taken, not first: term.kept - taken}


def _kept_sums(
    term: DiceTerm, groups: dict[bool, tuple[Distribution, object] | None], low: bool
) -> dict[tuple[bool, int, int], Distribution]:
    """Every keep the cases need, `(group, dice, kept)` → its distribution: the counts of one
    group and one number kept in one pass (`order.keep_distributions`)."""
    from jdr.dice.notation.order import keep_distributions

    wanted: dict[tuple[bool, int], list[int]] = {}
    for j in range(term.count + 1):
        counts = {True: j, False: term.count - j}
        for flag, take in _takes(term, j, low).items():
            if groups[flag] is not None and 0 < take < counts[flag]:
                wanted.setdefault((flag, take), []).append(counts[flag])
    highest = term.keep.highest if term.keep is not None else True
    found: dict[tuple[bool, int, int], Distribution] = {}
    for (flag, take), dice_counts in wanted.items():
        group = groups[flag]
        assert group is not None
        each = keep_distributions(group[0], dice_counts, take, highest, term.contribution)
        found.update({(flag, dice, take): dist for dice, dist in each.items()})
    return found


def _given(
    term: DiceTerm,
    groups: dict[bool, tuple[Distribution, object] | None],
    j: int,
    low: bool,
    exact: bool,
    kept_sums: dict[tuple[bool, int, int], Distribution],
) -> tuple[Distribution, object] | None:
    """The kept value's distribution given that exactly `j` dice match, and the weight of
    that case (a whole number over the die's denominator to the n, or a probability)."""
    from jdr.dice.notation.probability import add_up
    from jdr.prob import Distribution, power

    n = term.count
    counts = {True: j, False: n - j}
    if any(counts[flag] and groups[flag] is None for flag in (True, False)):
        return None
    takes = _takes(term, j, low)
    pieces = []
    chance: object = math.comb(n, j)
    for flag in (True, False):
        found = groups[flag]
        dice, take = counts[flag], takes[flag]
        if found is None or dice == 0:
            continue
        part, weight = found
        chance = chance * weight**dice  # type: ignore[operator]
        if take == 0:
            pieces.append(
                Distribution(
                    (0,), np.ones(1, dtype=object if exact else float), 1 if exact else 1.0
                )
            )
        elif take == dice:
            pieces.append(power(part.map(lambda v: term.contribution(v[0])), dice))
        else:
            pieces.append(kept_sums[(flag, dice, take)])
    return add_up(pieces, exact), chance


def _restricted(one: Distribution, positions: object) -> tuple[Distribution, object] | None:
    """One die given that its value is among `positions` (its own weight as denominator, or
    renormalised floats), and that group's weight (whole, or a probability)."""
    import numpy as np

    from jdr.prob import Distribution

    where = np.asarray(positions)
    if where.size == 0:
        return None
    weights = np.zeros_like(one.weights)
    if one.exact:
        weights[...] = 0
    weights[where] = one.weights[where]
    mass = weights.sum()
    if one.exact:
        return Distribution(one.offset, weights, int(mass)), int(mass)
    return Distribution(one.offset, weights / mass, 1.0), float(mass)
