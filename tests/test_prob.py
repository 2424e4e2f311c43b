"""Exact odds have oracles: the exact engine, brute-force enumeration and seeded sampling.

(a) the float engine agrees with the exact engine on a generated grid of pools;
(b) both agree with enumerating every face on small pools;
(c) 100,000 seeded rolls fit the exact distribution (chi-square at p = 0.001);
(d) a 200-dice pool keeps a total of 1, no negative weight and exactly-zero impossible vectors;
(e) the questions asked of a `Distribution` answer in the engine's own kind (float or Fraction).
"""

from __future__ import annotations

import importlib
import itertools
import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jdr.dice import Pool, ScoredDie, Seeded, Vector, roll_pool
from jdr.prob import (
    Distribution,
    convolve,
    die_distribution,
    pool_distribution,
    power,
    sum_distributions,
    unit,
)
from jdr.prob import exact as exact_engine

# `jdr.prob.convolve` is also the name of a function re-exported by `jdr.prob`.
convolve_module = importlib.import_module("jdr.prob.convolve")
EXACT_ENGINES: tuple[exact_engine.Engine, ...] = ("flint", "python")
"""The exact engine's arithmetic: FLINT, and the built-in one it falls back to."""


# --- oracles --------------------------------------------------------------------------------------
def brute_force(pool: Pool) -> dict[Vector, Fraction]:
    """Every face of every die, summed by hand: the distribution by definition."""
    dice = list(pool.dice())
    ways = math.prod(die.size for die in dice)
    counts: Counter[Vector] = Counter()
    for faces in itertools.product(*(range(1, die.size + 1) for die in dice)):
        total = [0] * pool.width
        for die, face in zip(dice, faces, strict=True):
            for axis, value in enumerate(die.score(face)):
                total[axis] += value
        counts[tuple(total)] += 1
    return {vector: Fraction(count, ways) for vector, count in counts.items()}


def as_dict(dist: Distribution) -> dict[Vector, Any]:
    return dict(dist.items())


def assert_float_matches_exact(fast: Distribution, exact: Distribution, tolerance: float) -> None:
    """Same vectors up to `tolerance`, and an impossible vector is exactly 0 in the float engine."""
    assert not fast.exact
    assert exact.exact
    truth = as_dict(exact)
    for vector, p in fast.items():
        assert vector in truth, f"{vector} is impossible but weighs {p}"
    for vector, p in truth.items():
        assert abs(float(fast.probability(vector)) - float(p)) <= tolerance, vector


def passion(size: int) -> ScoredDie:
    """Passion: the top face is 2 positives, a 1 is 2 negatives, else even → +1, odd → −1."""

    def score(face: int) -> Vector:
        if face == size:
            return (2, 0)
        if face == 1:
            return (0, 2)
        return (1, 0) if face % 2 == 0 else (0, 1)

    return ScoredDie.from_function(size, score)


# --- strategies -----------------------------------------------------------------------------------
@st.composite
def scored_dice(draw: st.DrawFn, width: int, low: int, high: int, max_size: int) -> ScoredDie:
    """A die of 1..max_size faces, each scoring a random vector of small integers in low..high."""
    size = draw(st.integers(1, max_size))
    component = st.integers(low, high)
    vector = st.tuples(component) if width == 1 else st.tuples(component, component)
    return ScoredDie(size, tuple(draw(st.lists(vector, min_size=size, max_size=size))))


def _extent(die: ScoredDie, axis: int) -> int:
    return max(v[axis] for v in die.scores) - min(v[axis] for v in die.scores)


# The exact engine multiplies Python integers cell by cell: two groups of 40 dice scoring −1..2 on
# both components (a 241 × 241 box) would take it minutes. Two-component pools are therefore drawn
# inside an _EXACT_BOX_SIDE² box: counts still reach 40 + 40 when each component spans one step
# (success/failure dice), fewer when the scores spread wider.
_EXACT_BOX_SIDE = 81


@st.composite
def grid_pools(draw: st.DrawFn) -> Pool:
    """1–2 groups of d1..d20, 0..40 dice each, scores in −3..3 (one component) or −1..2 (two)."""
    width = draw(st.sampled_from((1, 2)))
    low, high = (-3, 3) if width == 1 else (-1, 2)
    dice = draw(st.lists(scored_dice(width, low, high, 20), min_size=1, max_size=2))
    groups = []
    used = [0] * width
    for die in dice:
        cap = 40
        if width == 2:
            for axis in range(width):
                room = _EXACT_BOX_SIDE - 1 - used[axis]
                cap = min(cap, room // max(_extent(die, axis), 1))
        count = draw(st.integers(0, cap))
        used = [u + count * _extent(die, axis) for axis, u in enumerate(used)]
        groups.append((die, count))
    return Pool.of(*groups)


@st.composite
def small_pools(draw: st.DrawFn) -> Pool:
    """At most 6 dice of mixed sizes (d1..d12), at most 20,000 face combinations to enumerate."""
    width = draw(st.sampled_from((1, 2)))
    low, high = (-3, 4) if width == 1 else (-2, 2)
    groups = []
    dice_left, combinations = 6, 1
    for _ in range(draw(st.integers(1, 3))):
        count = draw(st.integers(0, min(3, dice_left)))
        biggest = max(s for s in range(1, 13) if combinations * s**count <= 20_000)
        die = draw(scored_dice(width, low, high, biggest))
        groups.append((die, count))
        dice_left -= count
        combinations *= die.size**count
    return Pool.of(*groups)


def _d20_one_component() -> ScoredDie:
    return ScoredDie.from_function(20, lambda face: (face % 7 - 3,))


# --- (a) the two engines agree --------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(pool=grid_pools())
@example(pool=Pool.of((_d20_one_component(), 40), (ScoredDie.sum(17), 40)))
@example(pool=Pool.of((ScoredDie.threshold(10, 6, 1), 40)))
@example(pool=Pool.of((ScoredDie.threshold(20, 8, 3), 40), (ScoredDie.threshold(13, 2, 1), 40)))
@example(pool=Pool.of((ScoredDie.from_function(20, lambda f: (f % 4 - 1, f % 3 - 1)), 18)))
@example(pool=Pool.of())
def test_float_engine_agrees_with_exact_engine_to_1e_12(pool: Pool) -> None:
    exact = pool_distribution(pool, exact=True)
    assert exact.total() == 1
    assert_float_matches_exact(pool_distribution(pool), exact, 1e-12)


def _spy_on_fft(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = convolve_module._fft

    def spy(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        calls.append(a.size)
        result: npt.NDArray[np.float64] = real(a, b)
        return result

    monkeypatch.setattr(convolve_module, "_fft", spy)
    return calls


def test_fft_path_agrees_with_exact_engine_on_two_components(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _spy_on_fft(monkeypatch)
    die = ScoredDie.from_function(20, lambda f: (f % 5 - 2, (f * 7) % 4 - 1))
    pool = Pool.of((die, 9), (ScoredDie.from_function(12, lambda f: (f % 3, f % 2 - 1)), 7))
    fast = pool_distribution(pool)
    assert calls, "this pool should reach the FFT"
    assert_float_matches_exact(fast, pool_distribution(pool, exact=True), 1e-12)


def test_fft_path_agrees_with_exact_engine_on_one_component(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _spy_on_fft(monkeypatch)
    pool = Pool.of((ScoredDie.sum(20), 60), (ScoredDie.sum(19), 60))
    fast = pool_distribution(pool)
    assert calls, "this pool should reach the FFT"
    assert_float_matches_exact(fast, pool_distribution(pool, exact=True), 1e-12)


# --- (b) both engines agree with brute force ------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(pool=small_pools())
@example(pool=Pool.of((ScoredDie.sum(4), 1), (ScoredDie.sum(6), 2), (ScoredDie.sum(20), 1)))
@example(pool=Pool.of((ScoredDie.threshold(10, 1, 1), 3), (ScoredDie.threshold(6, 4, 2), 3)))
def test_both_engines_equal_brute_force_enumeration(pool: Pool) -> None:
    truth = brute_force(pool)
    for arithmetic in EXACT_ENGINES:
        with exact_engine.using(arithmetic):
            assert as_dict(pool_distribution(pool, exact=True)) == truth, arithmetic
    assert all(isinstance(p, Fraction) for p in truth.values())
    fast = pool_distribution(pool)
    assert set(as_dict(fast)) <= set(truth)
    for vector, p in truth.items():
        assert fast.probability(vector) == pytest.approx(float(p), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(pool=grid_pools())
@example(pool=Pool.of((passion(100), 40)))
@example(pool=Pool.of((ScoredDie.threshold(10, 6, 1), 40), (ScoredDie.threshold(6, 4, 2), 3)))
def test_flint_and_the_builtin_exact_engine_give_the_same_whole_numbers(pool: Pool) -> None:
    with exact_engine.using("flint"):
        flint = pool_distribution(pool, exact=True)
    with exact_engine.using("python"):
        builtin = pool_distribution(pool, exact=True)
    assert flint.offset == builtin.offset
    assert flint.denominator == builtin.denominator
    assert flint.weights.shape == builtin.weights.shape
    assert flint.weights.tolist() == builtin.weights.tolist()
    assert all(type(w) is int for w in flint.weights.flat)


@pytest.mark.parametrize("arithmetic", EXACT_ENGINES)
def test_exact_convolve_and_power_of_two_components_on_each_engine(
    arithmetic: exact_engine.Engine,
) -> None:
    d10 = die_distribution(ScoredDie.threshold(10, 6, 1), exact=True)
    d6 = die_distribution(ScoredDie.threshold(6, 4, 2), exact=True)
    pool = Pool.of((ScoredDie.threshold(10, 6, 1), 3), (ScoredDie.threshold(6, 4, 2), 2))
    with exact_engine.using(arithmetic):
        assert as_dict(convolve(power(d10, 3), power(d6, 2))) == brute_force(pool)
        assert as_dict(power(d10, 1)) == as_dict(d10)


@pytest.mark.parametrize(
    ("pool", "question", "answer"),
    [
        (Pool.of((ScoredDie.sum(6), 2)), lambda v: v == (7,), Fraction(1, 6)),
        (Pool.of((ScoredDie.sum(6), 3)), lambda v: v == (10,), Fraction(27, 216)),
        (Pool.of((ScoredDie.sum(6), 3)), lambda v: v[0] >= 18, Fraction(1, 216)),
        # 4d10 at difficulty 6, a 1 fails: more successes than failures.
        (Pool.of((ScoredDie.threshold(10, 6, 1), 4)), lambda v: v[0] > v[1], Fraction(1601, 2000)),
        # difficulty 1: every die succeeds, a 1 also fails.
        (Pool.of((ScoredDie.threshold(10, 1, 1), 2)), lambda v: v == (2, 1), Fraction(18, 100)),
    ],
)
def test_rulebook_odds_are_exact(
    pool: Pool, question: Callable[[Vector], bool], answer: Fraction
) -> None:
    assert pool_distribution(pool, exact=True).outcomes(question)[True] == answer
    assert pool_distribution(pool).outcomes(question)[True] == pytest.approx(
        float(answer), abs=1e-15
    )


# --- (c) seeded sampling fits the exact distribution ----------------------------------------------
def chi_square_survival(x: float, df: int) -> float:
    """P(X ≥ x) for X ~ χ²(df), closed forms for a whole df (Abramowitz & Stegun 26.4.4, 26.4.5)."""
    half = x / 2
    if df % 2 == 0:
        term = total = math.exp(-half)
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return total
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(2 * x / math.pi) * math.exp(-half)
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * i + 1)
    return total


def chi_square_critical(df: int, p: float = 0.001) -> float:
    """The x with P(χ²(df) ≥ x) = p, by bisection on the survival function."""
    low, high = 0.0, df + 50.0 * math.sqrt(df) + 50.0
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if chi_square_survival(middle, df) > p else (low, middle)
    return (low + high) / 2


@pytest.mark.parametrize(
    ("df", "table"),
    # Upper 0.1 % points of χ² (NIST/SEMATECH e-Handbook, table 1.3.6.7.4).
    [(1, 10.828), (2, 13.816), (5, 20.515), (10, 29.588), (30, 59.703), (100, 149.449)],
)
def test_chi_square_critical_value_matches_the_printed_table(df: int, table: float) -> None:
    assert chi_square_critical(df) == pytest.approx(table, abs=2e-3)


def chi_square(observed: Counter[Vector], exact: Distribution, rolls: int) -> tuple[float, int]:
    """The statistic and its degrees of freedom, cells of expected count < 5 merged into one."""
    cells = exact.support()
    expected = np.array([float(exact.probability(v)) * rolls for v in cells])
    seen = np.array([observed[v] for v in cells], dtype=np.float64)
    assert sum(observed.values()) == rolls
    assert set(observed) <= set(cells), "a roll gave an impossible total"
    rare = expected < 5
    bins_expected = [*expected[~rare], expected[rare].sum()] if rare.any() else list(expected)
    bins_seen = [*seen[~rare], seen[rare].sum()] if rare.any() else list(seen)
    if bins_expected[-1] < 5:  # the merged rare cell is itself too small: join it to another
        bins_expected[-2] += bins_expected.pop()
        bins_seen[-2] += bins_seen.pop()
    e, o = np.array(bins_expected), np.array(bins_seen)
    return float(((o - e) ** 2 / e).sum()), len(e) - 1


ROLLS = 100_000


@pytest.mark.parametrize(
    "pool",
    [
        Pool.of((ScoredDie.threshold(10, success_at=6, failure_at=1), 20)),
        Pool.of(*((ScoredDie.sum(size), 1) for size in (4, 6, 8, 12))),
    ],
    ids=lambda pool: pool.notation(),
)
def test_100000_seeded_rolls_fit_the_exact_distribution(pool: Pool) -> None:
    source = Seeded(20_240_601)
    observed = Counter(roll_pool(pool, source).total for _ in range(ROLLS))
    statistic, df = chi_square(observed, pool_distribution(pool, exact=True), ROLLS)
    assert df >= 20
    assert statistic < chi_square_critical(df), (statistic, df)


# --- (d) a large pool stays a distribution --------------------------------------------------------
def reachable(die: ScoredDie, count: int, shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """Which sums `count` dice can reach (non-negative vectors), by boolean dynamic programming."""
    moves = set(die.scores)
    state = np.zeros(shape, dtype=bool)
    state[(0,) * len(shape)] = True
    for _ in range(count):
        step = np.zeros(shape, dtype=bool)
        for move in moves:
            target = tuple(slice(m, None) for m in move)
            source = tuple(slice(0, n - m) for n, m in zip(shape, move, strict=True))
            step[target] |= state[source]
        state = step
    return state


def test_200_dice_of_100_faces_two_components_stay_a_distribution() -> None:
    die = passion(100)
    dist = pool_distribution(Pool.of((die, 200)))
    assert abs(float(dist.total()) - 1) < 1e-9
    assert (dist.weights >= 0).all()
    assert dist.offset == (0, 0)
    assert dist.weights.shape == (401, 401)
    possible = reachable(die, 200, dist.weights.shape)
    assert (dist.weights[~possible] == 0).all(), "an impossible vector has a weight"
    # Each die scores (51/100) positives and (51/100) negatives on average.
    assert float(dist.mean()) == pytest.approx(102, abs=1e-9)
    assert float(dist.mean(lambda v: v[1])) == pytest.approx(102, abs=1e-9)


# --- (e) the questions asked of a distribution ----------------------------------------------------
@pytest.fixture
def two_d6() -> Distribution:
    return pool_distribution(Pool.of((ScoredDie.sum(6), 2)), exact=True)


@pytest.fixture
def four_d10() -> Distribution:
    return pool_distribution(Pool.of((ScoredDie.threshold(10, 6, 1), 4)), exact=True)


def _triangle(total: int) -> Fraction:
    return Fraction(6 - abs(total - 7), 36)


def test_exact_engine_answers_in_fractions(two_d6: Distribution) -> None:
    assert two_d6.exact
    assert two_d6.width == 1
    assert two_d6.denominator == 36
    values: list[Any] = [
        two_d6.probability(7),
        two_d6.total(),
        two_d6.mean(),
        two_d6.at_least(10),
        two_d6.at_most(4),
        *(p for _, p in two_d6.items()),
    ]
    assert all(type(value) is Fraction for value in values)


def test_float_engine_answers_in_floats(two_d6: Distribution) -> None:
    fast = pool_distribution(Pool.of((ScoredDie.sum(6), 2)))
    assert not fast.exact
    values = [fast.probability(7), fast.total(), fast.mean(), fast.at_least(10), fast.at_most(4)]
    assert all(type(value) is float for value in values)


def test_items_support_and_to_list_go_in_increasing_order(two_d6: Distribution) -> None:
    assert two_d6.to_list() == [(total, _triangle(total)) for total in range(2, 13)]
    assert two_d6.support() == [(total,) for total in range(2, 13)]


def test_probability_of_an_impossible_vector_is_zero(
    two_d6: Distribution, four_d10: Distribution
) -> None:
    assert two_d6.probability(1) == 0
    assert two_d6.probability((13,)) == 0
    assert four_d10.probability((5, 0)) == 0
    assert four_d10.probability((-1, 0)) == 0


def test_two_component_to_list_keeps_vectors(four_d10: Distribution) -> None:
    listed = four_d10.to_list()
    assert listed[0] == ((0, 0), Fraction(4**4, 10**4))
    assert listed[-1] == ((4, 0), Fraction(5**4, 10**4))
    assert sum(p for _, p in listed) == 1


def test_at_least_and_at_most_are_tail_sums(two_d6: Distribution) -> None:
    assert two_d6.at_least(10) == Fraction(6, 36)
    assert two_d6.at_most(4) == Fraction(6, 36)
    assert two_d6.at_least(2) == 1
    assert two_d6.at_least(-100) == 1
    assert two_d6.at_least(13) == 0
    assert two_d6.at_most(1) == 0
    assert two_d6.at_most(-100) == 0
    assert two_d6.at_most(100) == 1
    for k in range(0, 15):
        assert two_d6.at_least(k) + two_d6.at_most(k - 1) == 1


def test_tail_queries_refuse_two_components(four_d10: Distribution) -> None:
    for query in (four_d10.at_least, four_d10.at_most):
        with pytest.raises(ValueError):
            query(1)
    with pytest.raises(ValueError):
        four_d10.negate()


def test_mean_of_the_first_component_or_of_a_function(
    two_d6: Distribution, four_d10: Distribution
) -> None:
    assert two_d6.mean() == 7
    assert two_d6.mean(lambda v: v[0] ** 2) == Fraction(329, 6)
    assert four_d10.mean() == 2
    assert four_d10.mean(lambda v: v[1]) == Fraction(2, 5)
    assert four_d10.mean(lambda v: v[0] - v[1]) == Fraction(8, 5)


def test_outcomes_group_vectors_by_a_final_function(four_d10: Distribution) -> None:
    net = four_d10.outcomes(lambda v: v[0] - v[1] > 0)
    assert net == {True: Fraction(1601, 2000), False: Fraction(399, 2000)}
    assert sum(four_d10.outcomes(lambda v: v[0]).values()) == 1


def test_outcomes_of_two_d6_parity_are_even(two_d6: Distribution) -> None:
    even = {True: Fraction(1, 2), False: Fraction(1, 2)}
    assert two_d6.outcomes(lambda v: v[0] % 2 == 0) == even


def test_map_to_an_integer_gives_a_one_component_distribution(four_d10: Distribution) -> None:
    net = four_d10.map(lambda v: v[0] - v[1])
    assert net.exact
    assert net.width == 1
    assert net.total() == 1
    assert net.at_least(1) == Fraction(1601, 2000)
    assert net.probability(-4) == Fraction(1, 10**4)
    assert net.mean() == Fraction(8, 5)


def test_map_to_a_vector_keeps_two_components(four_d10: Distribution) -> None:
    swapped = four_d10.map(lambda v: (v[1], v[0]))
    assert swapped.width == 2
    assert all(swapped.probability((b, a)) == p for (a, b), p in four_d10.items())


def test_marginal_sums_out_the_other_component(four_d10: Distribution) -> None:
    successes, failures = four_d10.marginal(0), four_d10.marginal(1)
    binomial = [Fraction(math.comb(4, k), 16) for k in range(5)]
    assert successes.to_list() == list(enumerate(binomial))
    assert failures.to_list() == [
        (k, Fraction(math.comb(4, k) * 9 ** (4 - k), 10**4)) for k in range(5)
    ]
    assert successes.exact


def test_negate_mirrors_the_values(two_d6: Distribution) -> None:
    negative = two_d6.negate()
    assert negative.to_list() == [(-total, _triangle(total)) for total in range(12, 1, -1)]
    assert negative.mean() == -7


def test_shift_adds_a_constant(two_d6: Distribution, four_d10: Distribution) -> None:
    assert two_d6.shift(3).to_list() == [(total + 3, _triangle(total)) for total in range(2, 13)]
    assert two_d6.shift((-2,)).mean() == 5
    assert four_d10.shift((1, -1)).probability((5, -1)) == Fraction(5**4, 10**4)


def test_from_probabilities_takes_the_common_denominator() -> None:
    dist = Distribution.from_probabilities(
        {(1,): Fraction(1, 3), (3,): Fraction(1, 6), (4,): Fraction(1, 2)}, exact=True
    )
    assert dist.denominator == 6
    assert dist.to_list() == [(1, Fraction(1, 3)), (3, Fraction(1, 6)), (4, Fraction(1, 2))]
    assert dist.probability(2) == 0


def test_from_probabilities_in_floats() -> None:
    dist = Distribution.from_probabilities({(0, 1): 0.25, (2, 0): 0.75})
    assert not dist.exact
    assert dist.to_list() == [((0, 1), 0.25), ((2, 0), 0.75)]


def test_from_counts_refuses_an_empty_mapping() -> None:
    with pytest.raises(ValueError):
        Distribution.from_counts({})


def test_as_float_rounds_each_fraction_once(two_d6: Distribution) -> None:
    fast = two_d6.as_float()
    assert not fast.exact
    assert fast.to_list() == [(total, float(_triangle(total))) for total in range(2, 13)]
    assert fast.as_float() is fast


# --- the convolution building blocks --------------------------------------------------------------
def test_die_distribution_weighs_each_face_one_out_of_size() -> None:
    d10 = die_distribution(ScoredDie.threshold(10, 6, 1), exact=True)
    assert d10.denominator == 10
    assert as_dict(d10) == {(0, 0): Fraction(2, 5), (0, 1): Fraction(1, 10), (1, 0): Fraction(1, 2)}
    assert as_dict(die_distribution(ScoredDie.threshold(10, 6, 1))) == {
        (0, 0): 0.4,
        (0, 1): 0.1,
        (1, 0): 0.5,
    }


def test_unit_is_the_zero_vector_surely() -> None:
    assert unit(2, exact=True).to_list() == [((0, 0), 1)]
    assert unit(1).to_list() == [(0, 1.0)]


@pytest.mark.parametrize("exact", [True, False])
def test_power_is_repeated_convolution(exact: bool) -> None:
    d6 = die_distribution(ScoredDie.sum(6), exact=exact)
    by_hand = unit(1, exact)
    for count in range(8):
        assert as_dict(power(d6, count)) == pytest.approx(as_dict(by_hand), abs=1e-15)
        by_hand = convolve(by_hand, d6)


def test_power_refuses_a_negative_count() -> None:
    with pytest.raises(ValueError):
        power(unit(1), -1)


def test_convolve_refuses_mixing_engines_or_widths() -> None:
    with pytest.raises(ValueError):
        convolve(unit(1, exact=True), unit(1))
    with pytest.raises(ValueError):
        convolve(unit(1), unit(2))


def test_sum_distributions_equals_the_pool_distribution() -> None:
    parts = [die_distribution(ScoredDie.sum(size), exact=True) for size in (4, 6, 8)]
    pool = Pool.of(*((ScoredDie.sum(size), 1) for size in (8, 4, 6)))
    assert as_dict(sum_distributions(parts, exact=True)) == brute_force(pool)
    assert sum_distributions([], exact=True, width=2).to_list() == [((0, 0), 1)]


@pytest.mark.parametrize(
    "pool", [Pool.of(), Pool.of((ScoredDie.sum(1), 5))], ids=lambda pool: pool.notation()
)
def test_a_pool_without_chance_is_certain(pool: Pool) -> None:
    for exact in (True, False):
        assert pool_distribution(pool, exact=exact).to_list() == [(pool.dice_count, 1)]
