"""Keep/drop by order statistics (`jdr.dice.notation.order`) against its oracles.

(a) every multiset enumerated by hand, on both exact engines, for random small pools;
(b) Fraction-equal to icepool on the benchmark's pools, where enumeration is out of reach;
(c) the float engine within 1e-12 of the exact one, up to 1,000 dice;
(d) 100,000 seeded rolls of a large keep fit its distribution (chi-square at p = 0.001).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jdr.dice import ScoredDie, Seeded
from jdr.dice.notation import odds, parse, roll
from jdr.dice.notation.order import keep_distribution
from jdr.prob import Distribution, die_distribution
from jdr.prob import exact as exact_engine
from test_notation import chi_square, chi_square_critical


def enumerate_keep(
    size: int, dice: int, kept: int, highest: bool, contribution: Callable[[int], int]
) -> dict[int, Fraction]:
    """Every roll of `dice` d`size`, sorted, the kept ones scored by hand."""
    counts: Counter[int] = Counter()
    for faces in itertools.product(range(1, size + 1), repeat=dice):
        ordered = sorted(faces, reverse=highest)
        counts[sum(contribution(face) for face in ordered[:kept])] += 1
    return {value: Fraction(count, size**dice) for value, count in counts.items()}


def as_dict(dist: Distribution) -> dict[int, Fraction]:
    return {vector[0]: Fraction(p) for vector, p in dist.items()}


CONTRIBUTIONS: dict[str, Callable[[int], int]] = {
    "value": lambda v: v,
    "≥4 counts": lambda v: int(v >= 4),
    "≥4, a 1 fails": lambda v: int(v >= 4) - int(v == 1),
    "≤2 counts": lambda v: int(v <= 2),  # not monotone in the value
    "odd penalty": lambda v: v if v % 2 == 0 else -v,
}


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(1, 6),
    dice=st.integers(1, 6),
    data=st.data(),
    highest=st.booleans(),
    scoring=st.sampled_from(sorted(CONTRIBUTIONS)),
)
def test_keep_equals_every_roll_enumerated_on_both_exact_engines(
    size: int, dice: int, data: st.DataObject, highest: bool, scoring: str
) -> None:
    if size**dice > 8000:
        dice = int(math.log(8000, size)) if size > 1 else dice
    kept = data.draw(st.integers(1, dice))
    contribution = CONTRIBUTIONS[scoring]
    truth = enumerate_keep(size, dice, kept, highest, contribution)
    for arithmetic in ("flint", "python"):
        with exact_engine.using(arithmetic):
            die = die_distribution(ScoredDie.sum(size), exact=True)
            exact = keep_distribution(die, dice, kept, highest, contribution)
        assert as_dict(exact) == truth, arithmetic
    float_die = die_distribution(ScoredDie.sum(size))
    fast = keep_distribution(float_die, dice, kept, highest, contribution)
    assert set(as_dict(fast)) <= set(truth)
    for value, p in truth.items():
        assert float(fast.probability(value)) == pytest.approx(float(p), abs=1e-12)


def icepool_keep(dice: int, size: int, kept: int, highest: bool) -> dict[int, Fraction]:
    pool = icepool.d(size).pool(dice)
    die = (pool.highest(kept) if highest else pool.lowest(kept)).sum()
    total = die.denominator()
    return {int(value): Fraction(quantity, total) for value, quantity in die.items()}


@pytest.mark.parametrize(
    ("text", "dice", "size", "kept", "highest"),
    [
        ("4d6kh3", 4, 6, 3, True),
        ("10d10kh3", 10, 10, 3, True),
        ("20d6kh5", 20, 6, 5, True),
        ("40d10kh10", 40, 10, 10, True),
        ("30d8dl25", 30, 8, 5, True),
        ("25d12kl7", 25, 12, 7, False),
        ("20d6dh2", 20, 6, 18, False),
    ],
)
def test_keep_is_fraction_equal_to_icepool(
    text: str, dice: int, size: int, kept: int, highest: bool
) -> None:
    assert as_dict(odds(parse(text), exact=True)) == icepool_keep(dice, size, kept, highest)


@pytest.mark.parametrize(
    "text", ["1000d2kh1", "1000d6kh3", "200d4kl100", "100d20kh50", "30d20dl1", "60d10kh30>=6f1"]
)
def test_float_keep_agrees_with_exact_keep_on_large_pools(text: str) -> None:
    exact = odds(parse(text), exact=True)
    fast = odds(parse(text))
    assert exact.total() == 1
    assert abs(float(fast.total()) - 1) < 1e-12
    values = {v[0] for v in exact.support()} | {v[0] for v in fast.support()}
    worst = max(abs(float(exact.probability(v)) - float(fast.probability(v))) for v in values)
    assert worst < 1e-12


def test_seeded_rolls_of_a_large_keep_follow_its_distribution() -> None:
    expression, source, n = parse("40d10kh10"), Seeded(17), 100_000
    counts = Counter(roll(expression, source).total for _ in range(n))
    statistic, df = chi_square(counts, odds(expression, exact=True), n)
    assert df >= 10
    assert statistic < chi_square_critical(df)


def test_keep_refuses_to_keep_none_or_more_than_all() -> None:
    die = die_distribution(ScoredDie.sum(6), exact=True)
    for kept in (0, 5):
        with pytest.raises(ValueError):
            keep_distribution(die, 4, kept, True, lambda v: v)
