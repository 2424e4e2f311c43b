"""The luck audit: "the dice hate me", answered with exact percentiles.

Each die a player rolled through the journal gets a **luck score**: how good its face is for the
roller, by the rule system's `luck(size, face)` (higher is luckier; the face itself unless the
system says otherwise: a low d12 is lucky at Ilvermorny, Passion scores a die by its parity). A
player's luck is the sum of the scores of all their dice; since every face of a die is equally
likely, the exact distribution of that sum is the convolution of each die's score distribution,
and the player's **percentile** is `P(sum < observed) + ½ P(sum = observed)` under it: 50 % is
perfectly average, 3 % means only 3 % of possible luck is worse.

Only dice derived from the campaign's seed count (faces a player typed in and test seeds do not),
and only entries everyone can read (a hidden roll counts once disclosed). In a fight, the dice of
an action count for the fighter who acted (a defender's reaction rolled inside an attack counts
for the attacker).

>>> report = audit([("Ana", [(6, 6), (6, 5)]), ("Bo", [(6, 1)])], exact=True)
>>> [(a.actor, a.dice, a.observed) for a in report]
[('Ana', 2, 11), ('Bo', 1, 1)]
>>> report[0].percentile  # 11 on 2d6: 33/36 below, 2/36 equal, so 33/36 + 1/36
Fraction(17, 18)
>>> round(audit([("Ana", [(6, 6), (6, 5)])])[0].percentile, 4)  # floats, shown rounded
0.9444
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any

from jdr.i18n import _
from jdr.names import fold

Luck = Callable[[int, int], int]
"""`luck(size, face)`: how lucky a face of a die of `size` faces is; higher is luckier."""

EXACT_BUDGET = 20_000_000
"""Above this much work (support × dice), fractions would be slow: floats from the same exact
convolution are used instead (absolute error below 1e-12). On FLINT, 20,000,000 (600 d20 and
300 d6 for one player) takes about 0.35 s; the built-in engine took that long at 2,000,000."""


def face_luck(size: int, face: int) -> int:
    """The default luck score: the face itself."""
    return face


@dataclass(frozen=True)
class Stat:
    """One group of dice (all of an actor's dice, or those of one size)."""

    dice: int
    observed: int
    mean: Any
    percentile: Any
    at_most: Any
    at_least: Any


@dataclass(frozen=True)
class ActorLuck(Stat):
    """An actor's luck: the figures over all their dice, then by die size."""

    actor: Any = None
    rolls: int = 0
    by_size: dict[int, Stat] = field(default_factory=dict)


def audit(
    rolls: Iterable[tuple[Any, Sequence[tuple[int, int]]]],
    luck: Luck = face_luck,
    actor: Any = None,
    exact: bool = False,
) -> list[ActorLuck]:
    """Each actor's luck from `(actor, [(size, face), …])` per roll, actors in first-roll order.

    `actor` keeps one actor only (None: everyone); `exact` gives Fractions when the actor's
    work is small enough (`EXACT_BUDGET`), floats from the same convolution otherwise. Faces
    outside `1..size` are refused (`InputError`).
    """
    by_actor: dict[Any, list[tuple[int, int]]] = {}
    counts: Counter[Any] = Counter()
    shown: dict[Any, Any] = {}  # an actor typed `kaito` and `Kaito` is one actor (`jdr.names`)
    for who, dice in rolls:
        key = fold(who) if isinstance(who, str) else who
        if actor is not None and key != (fold(actor) if isinstance(actor, str) else actor):
            continue
        if not dice:
            continue
        by_actor.setdefault(key, []).extend(dice)
        shown.setdefault(key, who)
        counts[key] += 1
    report = []
    for key, dice in by_actor.items():
        who = shown[key]
        use_exact = (
            exact and _work(dice) <= EXACT_BUDGET
        )  # one engine for all of an actor's figures
        whole = _stat(dice, luck, use_exact)
        sizes = sorted({size for size, _face in dice})
        by_size = (
            {sizes[0]: whole}
            if len(sizes) == 1
            else {s: _stat([d for d in dice if d[0] == s], luck, use_exact) for s in sizes}
        )
        figures = {f.name: getattr(whole, f.name) for f in fields(Stat)}
        report.append(ActorLuck(**figures, actor=who, rolls=counts[key], by_size=by_size))
    return report


def _work(dice: Sequence[tuple[int, int]]) -> int:
    """The exact engine's work for `dice`: about (number of dice) × (support of the sum)."""
    return len(dice) * sum(size for size, _face in dice)


def _stat(dice: Sequence[tuple[int, int]], luck: Luck, exact: bool) -> Stat:
    from jdr.errors import InputError

    for size, face in dice:
        if not 1 <= face <= size:
            reason = _("not a face of a d{size}").format(size=size)
            raise InputError("face", face, f"1..{size}", reason)
    sizes = Counter(size for size, _face in dice)
    observed = sum(luck(size, face) for size, face in dice)
    shape = tuple(sorted(sizes.items()))
    try:
        total = _expected(shape, luck, exact)
    except TypeError:  # a scoring that cannot be a key: computed each time
        total = _expected.__wrapped__(shape, luck, exact)
    below = total.at_most(observed - 1)
    above = total.at_least(observed + 1)
    equal = total.probability(observed)
    mean = sum(
        (
            Fraction(luck(size, f), size) * n
            for size, n in sizes.items()
            for f in range(1, size + 1)
        ),
        Fraction(0),
    )
    return Stat(
        dice=len(dice),
        observed=observed,
        mean=mean if exact else float(mean),
        percentile=_clamp(below + equal / 2),
        at_most=_clamp(below + equal),
        at_least=_clamp(above + equal),
    )


@functools.lru_cache(maxsize=256)
def _expected(sizes: tuple[tuple[int, int], ...], luck: Luck, exact: bool) -> Any:
    """The distribution of the luck of `n` dice of each size (`(size, n)`, sizes ascending):
    kept, so a page read after one more roll convolves again only for the roller who rolled
    (a `Distribution` is never changed once made)."""
    from jdr.prob import Distribution, convolve, power

    total = None
    for size, n in sizes:
        scores: Counter[tuple[int, ...]] = Counter(
            (luck(size, face),) for face in range(1, size + 1)
        )
        one = Distribution.from_counts(scores, exact=exact)
        part = power(one, n)
        total = part if total is None else convolve(total, part)
    assert total is not None
    return total


def _clamp(p: Any) -> Any:
    """Float rounding never takes a probability out of [0, 1] (Fractions are exact already)."""
    return p if isinstance(p, Fraction) else min(1.0, max(0.0, float(p)))


def verifiable_rolls(entries: Iterable[Any]) -> list[tuple[Any, list[tuple[int, int]]]]:
    """The rolls a luck audit counts, as `(roller, [(size, face), …])`: the dice of readable
    entries that derived from the campaign's seed (typed-in or seeded faces prove nothing), each
    die counted for whom it was rolled."""
    from jdr.journal.entries import rollers

    return [
        (who if who is not None else "-", dice)
        for entry in entries
        if entry.disclosed and (entry.dice or {}).get("source") == "derived"
        for who, dice in rollers(entry)
    ]
