"""The generic dice notation: parse, roll, explain, limits and exact odds.

Rolls are checked with given faces against hand-computed totals and explanations; odds against
brute-force enumeration (every face, or every explosion chain under a small cap) and against 100,000
seeded rolls (chi-square).
"""

from __future__ import annotations

import itertools
import json
import math
import operator
import string
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jdr.dice.notation as notation
from jdr.dice import GivenFaces, Recording, Seeded
from jdr.dice.notation import DiceRoll, Expression, odds, parse, roll
from jdr.dice.notation.limits import (
    MAX_CONSTANT,
    MAX_DICE,
    MAX_EXPLOSIONS,
    MAX_LENGTH,
    MAX_SIZE,
)
from jdr.dice.notation.probability import chain_distribution, total_distribution
from jdr.dice.notation.tree import Comparison, Constant, DiceTerm, KeepDrop
from jdr.errors import FacesError, InputError, JdrError, LimitError
from jdr.prob import Distribution


def roll_given(text: str, faces: list[int]) -> DiceRoll:
    """Roll `text` with exactly these faces (all of them must be used)."""
    source = GivenFaces(faces)
    record = roll(parse(text), source)
    source.finish()
    return record


class NoDice:
    """A random source that must never be asked for a face."""

    def faces(self, size: int, count: int) -> list[int]:
        raise AssertionError("rolled dice despite a limit")


# --- rolling: every form, hand-checked --------------------------------------------------------

FORMS = [
    ("2d6+3", [3, 5], 11, "2d6 (3, 5) + 3 = 11"),
    ("4d10>=6", [7, 1, 2, 6], 2, "4d10>=6 (7✓, 1, 2, 6✓) = 2"),
    ("4d10>=6f1", [7, 1, 2, 6], 1, "4d10>=6f1 (7✓, 1✗, 2, 6✓) = 1"),
    ("4d10>=6f<=2", [7, 1, 2, 6], 0, "4d10>=6f<=2 (7✓, 1✗, 2✗, 6✓) = 0"),
    ("4d6kh3", [5, 3, 1, 6], 14, "4d6kh3 (5, 3, ~~1~~, 6) = 14"),
    ("4d6kl3", [5, 3, 1, 6], 9, "4d6kl3 (5, 3, 1, ~~6~~) = 9"),
    ("4d6dh1", [5, 3, 1, 6], 9, "4d6dh1 (5, 3, 1, ~~6~~) = 9"),
    ("4d6dl1", [5, 3, 1, 6], 14, "4d6dl1 (5, 3, ~~1~~, 6) = 14"),
    ("3d6!", [6, 2, 3, 4], 15, "3d6! (6!+4, 2, 3) = 15"),
    ("d100", [42], 42, "1d100 (42) = 42"),
    ("d%", [100], 100, "1d100 (100) = 100"),
    ("2d4+1d12", [1, 3, 7], 11, "2d4 (1, 3) + 1d12 (7) = 11"),
    ("1d20+5-1d4", [12, 3], 14, "1d20 (12) + 5 - 1d4 (3) = 14"),
    ("7", [], 7, "7 = 7"),
    ("-3+1d4", [2], -1, "-3 + 1d4 (2) = -1"),
    ("-1d4", [3], -3, "-1d4 (3) = -3"),
    (" 4 D6 KH 3 ", [5, 3, 1, 6], 14, "4d6kh3 (5, 3, ~~1~~, 6) = 14"),
    ("4d6!kh3", [6, 3, 1, 2, 5], 16, "4d6!kh3 (6!+5, 3, ~~1~~, 2) = 16"),
    ("6d10!>=8f1", [10, 1, 8, 3, 7, 9, 4], 2, "6d10!>=8f1 (10!+4✓, 1✗, 8✓, 3, 7, 9✓) = 2"),
    ("5d10kh3>=6", [7, 2, 9, 5, 6], 3, "5d10kh3>=6 (7✓, ~~2~~, 9✓, ~~5~~, 6✓) = 3"),
    ("5d10kl3>=6", [7, 2, 9, 5, 6], 1, "5d10kl3>=6 (~~7~~, 2, ~~9~~, 5, 6✓) = 1"),
    ("3d10<=2f1", [1, 2, 3], 1, "3d10<=2f1 (1✓✗, 2✓, 3) = 1"),
]


@pytest.mark.parametrize(("text", "faces", "total", "explanation"), FORMS)
def test_every_form_rolls_to_its_hand_checked_total(
    text: str, faces: list[int], total: int, explanation: str
) -> None:
    record = roll_given(text, faces)
    assert record.total == total
    assert record.explain() == explanation
    assert record.faces == faces


@pytest.mark.parametrize(
    ("text", "total"),
    [("5d6>4", 2), ("5d6>=4", 3), ("5d6<3", 2), ("5d6<=4", 3), ("5d6=6", 1), ("5d6=4f=4", 0)],
)
def test_comparisons_have_their_mathematical_meaning(text: str, total: int) -> None:
    assert roll_given(text, [4, 5, 6, 1, 2]).total == total


def test_pk_2_a_d10s_0_counts_10_in_the_notation_and_the_explanation_shows_10() -> None:
    """« parfois, un 0 remplace le 10, mais il compte toujours pour 10 » (PK-2)."""
    record = roll_given("4d10>=6f1", [0, 1, 2, 6])
    assert record.explain() == "4d10>=6f1 (10✓, 1✗, 2, 6✓) = 1"
    assert record.faces == [10, 1, 2, 6]
    exploding = roll_given("1d10!+1d6", [0, 3, 4])  # the 0 is a 10: it explodes
    assert exploding.explain() == "1d10! (10!+3) + 1d6 (4) = 17"
    for text in ("1d6", "1d100", "1d20"):  # only a d10 has a 0 for its 10
        with pytest.raises(FacesError, match="face 1 is 0, not a face of a d"):
            roll_given(text, [0])


def test_explosions_chain_and_each_exploded_face_is_marked() -> None:
    record = roll_given("2d6!", [6, 1, 6, 6, 2])
    assert record.explain() == "2d6! (6!+6!+6!+2, 1) = 21"
    assert record.terms[0].dice[0].faces == (6, 6, 6, 2)


def test_explosions_come_in_waves_and_faces_keep_the_order_drawn() -> None:
    # the three d6 first; then the two sixes reroll together; then the new six alone
    record = roll_given("3d6!+1d4", [6, 6, 1, 2, 6, 3, 4])
    assert record.explain() == "3d6! (6!+2, 6!+6!+3, 1) + 1d4 (4) = 28"
    assert record.faces == [6, 6, 1, 2, 6, 3, 4]
    recording = Recording(GivenFaces(record.faces))
    again = roll(parse("3d6!+1d4"), recording)
    assert recording.rolled == again.faces == record.faces
    assert recording.sizes == [6, 6, 6, 6, 6, 6, 4]


def test_a_die_explodes_at_most_100_times() -> None:
    assert MAX_EXPLOSIONS == 100
    capped = roll_given("1d2!", [2] * 101)  # the 101st face stops the chain even if it is a 2
    assert len(capped.terms[0].dice[0].faces) == 101
    assert capped.total == 202
    assert capped.explain().endswith("!+2) = 202")


def test_equal_values_keep_the_earlier_die() -> None:
    record = roll_given("3d6kh1", [4, 4, 2])
    assert record.explain() == "3d6kh1 (4, ~~4~~, ~~2~~) = 4"
    assert [die.kept for die in record.terms[0].dice] == [True, False, False]


def test_the_record_keeps_what_each_die_counted_for() -> None:
    record = roll_given("5d10kh3>=6f1+2", [7, 1, 9, 5, 6])
    dice = record.terms[0].dice
    assert [d.value for d in dice] == [7, 1, 9, 5, 6]
    assert [d.kept for d in dice] == [True, False, True, False, True]
    assert [d.counted for d in dice] == [1, 0, 1, 0, 1]
    assert [d.mark for d in dice] == ["✓", "", "✓", "", "✓"]
    assert [t.signed for t in record.terms] == [3, 2]
    assert record.expression == parse("5d10kh3>=6f1+2")


def test_seeded_rolls_are_reproducible() -> None:
    expression = parse("10d6!kh5 + 4d10>=6f1 - d8")
    first, second = roll(expression, Seeded(7)), roll(expression, Seeded(7))
    assert first == second
    assert first.explain() == second.explain()
    recording = Recording(Seeded(7))
    assert roll(expression, recording).faces == recording.rolled == first.faces
    assert roll(expression, Seeded(8)).faces != first.faces


def test_too_few_given_faces_is_an_input_error() -> None:
    with pytest.raises(InputError):
        roll(parse("3d6"), GivenFaces([1, 2]))


# --- the parsed expression ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "normal", "dice"),
    [
        ("D%", "1d100", 1),
        ("4d6 ! KH 3", "4d6!kh3", 4),
        ("6d10!>=8f=1", "6d10!>=8f1", 6),
        ("2d4 + 1d12 - 3", "2d4+1d12-3", 3),
        ("+5-d4", "5-1d4", 1),
        ("12", "12", 0),
    ],
)
def test_expression_text_is_normalised(text: str, normal: str, dice: int) -> None:
    expression = parse(text)
    assert expression.text == str(expression) == normal
    assert expression.dice_count == dice
    assert parse(normal) == expression


def test_the_tree_is_small_immutable_values() -> None:
    expression = parse("6d10!dl1>=8f<=2-3")
    assert expression == Expression(
        (
            DiceTerm(
                6,
                10,
                explode=True,
                keep=KeepDrop("dl", 1),
                success=Comparison(">=", 8),
                failure=Comparison("<=", 2),
            ),
            Constant(3, sign=-1),
        )
    )
    with pytest.raises(AttributeError):
        expression.terms = ()  # type: ignore[misc]


def test_the_public_api_is_exactly_these_names() -> None:
    assert sorted(notation.__all__) == [
        "DiceRoll",
        "Expression",
        "notes",
        "odds",
        "parse",
        "parse_rolls",
        "roll",
    ]


# --- limits, charged before any work ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("1001d6", "dice", 1001),
        ("600d6+401d6", "dice", 1001),
        ("1d1000001", "size", MAX_SIZE + 1),
        ("d0", "size", 0),
        ("1d1!", "explode", "1d1!"),  # a d1 shows its maximum every time: it could only explode
        ("2d6+3d1!kh1", "explode", "3d1!kh1"),
        ("4d1!>=1f1", "explode", "4d1!>=1f1"),
        ("0d6", "dice", 0),
        ("4d6kh5", "keep", 5),
        ("4d6dl5", "keep", 5),
        ("2d20+1000000001", "constant", MAX_CONSTANT + 1),
        ("1+" * 100 + "1", "length", MAX_LENGTH + 1),
        ("9" * 300, "length", 300),
    ],
)
def test_each_limit_is_refused_before_rolling(text: str, field: str, value: int | str) -> None:
    with pytest.raises(LimitError) as refused:
        roll(parse(text), NoDice())
    assert refused.value.field == field
    assert refused.value.value == value
    assert refused.value.message()  # one line the edge can show
    assert "\n" not in refused.value.message()


def test_the_limits_themselves_are_allowed() -> None:
    assert parse("1000d6").dice_count == MAX_DICE
    assert parse(f"1d{MAX_SIZE}+{MAX_CONSTANT}").terms[0] == DiceTerm(1, MAX_SIZE)
    assert parse("4d6kh4+4d6dh0+4d6kl0").dice_count == 12
    assert len(parse("1+" * 99 + "12").text) == MAX_LENGTH


def test_a_tree_built_by_hand_is_still_checked_before_rolling_or_odds() -> None:
    too_many = Expression((DiceTerm(MAX_DICE + 1, 6),))
    with pytest.raises(LimitError):
        roll(too_many, NoDice())
    with pytest.raises(LimitError):
        odds(too_many)


def test_an_exploding_d1_is_refused_with_a_clear_message_a_plain_d1_is_not() -> None:
    with pytest.raises(LimitError) as refused:
        parse("1d1!")
    assert refused.value.message() == (
        "exploding die: 1d1! — a d1 always shows its maximum: it could only explode"
        " (allowed: an exploding die of 2 faces or more)"
    )
    assert refused.value.field == "explode"  # the JSON's
    assert roll_given("3d1+1d2!", [1, 1, 1, 1]).total == 4
    with pytest.raises(LimitError):
        odds(Expression((DiceTerm(1, 1, explode=True),)))  # built by hand: checked too


def test_limit_messages_say_what_is_allowed() -> None:
    with pytest.raises(LimitError) as refused:
        parse("4d6kh5")
    assert refused.value.allowed == "0..4"
    assert refused.value.message() == (
        "dice kept or dropped in 4d6kh5: 5 — 4d6 has only 4 dice to keep or drop (allowed: 0..4)"
    )
    assert refused.value.field == "keep"  # the JSON's


@pytest.mark.parametrize(
    ("text", "exact"),
    [
        ("20d1000000", False),  # 20 million possible totals
        ("1000d100kh500", False),
        ("1000d100", True),
        ("200d20kh100", True),
        ("20d6!kh10", True),
    ],
)
def test_odds_too_large_to_compute_are_refused_at_once(text: str, exact: bool) -> None:
    with pytest.raises(LimitError) as refused:
        odds(parse(text), exact=exact)
    assert refused.value.reason == (
        "too large to compute exactly; without --exact: the same odds in floating point"
        if exact
        else "too large to compute exactly"
    )


@pytest.mark.parametrize("text", ["1000d6", "200d100", "300d20", "100d20kh50", "4d6!kh3"])
def test_exact_odds_refused_before_flint_now_answer(text: str) -> None:
    assert odds(parse(text), exact=True).total() == 1


# --- malformed expressions ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "d",
        "4d",
        "4d6kh",
        "2d6+",
        "+",
        "4d6>=",
        "4d6f1",
        "4d6>=6f",
        "abc",
        "2d6 3",
        "1.5d6",
        "4d6>==6",
        "d6d6",
        "4d6=>6",
        "--1",
        "2d6*1d6",
        "4d6kh1kh2",
        "3d6!r1",
    ],
)
def test_malformed_expressions_are_input_errors(text: str) -> None:
    with pytest.raises(InputError) as refused:
        parse(text)
    assert type(refused.value) is InputError
    assert refused.value.field == "expression"
    assert refused.value.allowed.startswith("NdX[!][kh|kl|dh|dl N][>=T[fT]]") or (
        refused.value.reason and refused.value.allowed  # a known form, told how jdr writes it
    )


def test_a_parse_error_says_where() -> None:
    with pytest.raises(InputError) as refused:
        parse("4d6kh3x")
    assert refused.value.reason == "unexpected 'x' at column 7"
    with pytest.raises(InputError) as refused:
        parse("2d6+")
    assert refused.value.reason == "unexpected end of the expression"


# --- odds against brute force ------------------------------------------------------------------

COMPARE: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
    "=": operator.eq,
}


def oracle_term(term: DiceTerm, values: list[int]) -> int:
    """A term's value from its dice values, written independently of the package's code."""
    if term.keep is not None:
        mode, n = term.keep.mode, term.keep.count
        ordered = sorted(values, reverse=mode in ("kh", "dl"))
        values = ordered[:n] if mode in ("kh", "kl") else ordered[: len(values) - n]
    if term.success is None:
        return sum(values)
    total = 0
    for value in values:
        total += COMPARE[term.success.operator](value, term.success.value)
        if term.failure is not None:
            total -= COMPARE[term.failure.operator](value, term.failure.value)
    return total


def chains(size: int, cap: int) -> Iterator[tuple[int, Fraction]]:
    """Every explosion chain of one die under `cap`: (its value, its probability)."""
    for k in range(cap + 1):
        last = range(1, size + 1) if k == cap else range(1, size)
        for face in last:
            yield k * size + face, Fraction(1, size ** (k + 1))


def brute_force(text: str, cap: int = MAX_EXPLOSIONS) -> dict[int, Fraction]:
    """The distribution of the total, enumerating every die's every outcome."""
    expression = parse(text)
    per_die: list[list[tuple[int, Fraction]]] = []
    for term in expression.terms:
        if isinstance(term, DiceTerm):
            if term.explode:
                outcomes = list(chains(term.size, cap))
            else:
                outcomes = [(face, Fraction(1, term.size)) for face in range(1, term.size + 1)]
            per_die.extend([outcomes] * term.count)
    result: defaultdict[int, Fraction] = defaultdict(Fraction)
    for combination in itertools.product(*per_die):
        values = iter(value for value, _ in combination)
        total = 0
        for term in expression.terms:
            if isinstance(term, Constant):
                total += term.sign * term.value
            else:
                assert isinstance(term, DiceTerm)
                total += term.sign * oracle_term(term, [next(values) for _ in range(term.count)])
        result[total] += math.prod((p for _, p in combination), start=Fraction(1))
    return dict(result)


def as_dict(dist: Distribution) -> dict[int, Fraction]:
    return {vector[0]: Fraction(p) for vector, p in dist.items()}


def assert_floats_agree(exact: Distribution, fast: Distribution) -> None:
    assert not fast.exact
    values = {v[0] for v in exact.support()} | {v[0] for v in fast.support()}
    for value in values:
        assert abs(float(exact.probability(value)) - float(fast.probability(value))) < 1e-12
    assert abs(float(fast.total()) - 1) < 1e-12


SMALL = [
    "3d6",
    "2d6+3",
    "2d4+1d12",
    "1d20+5-1d4",
    "-2d4+1",
    "4d6kh3",
    "4d6kl2",
    "5d4dh2",
    "5d4dl1",
    "5d6kh4",
    "5d6kh1",
    "4d6kh0",
    "4d10>=6",
    "4d10>=6f1",
    "4d10>=6f<=2",
    "3d10<=2f1",
    "5d6>4f=4",
    "5d6kh3>=4f1",
    "4d6kl1<=2",
    "3d8dl1>5f<2",
    "6d3kh3>=2f1",
    "3d5kh2-2d4kl1",
    "2d6=6+1d3<2-4",
    "d%",
    "7",
]


@pytest.mark.parametrize("text", SMALL)
def test_odds_match_brute_force(text: str) -> None:
    exact = odds(parse(text), exact=True)
    assert exact.exact
    assert exact.total() == 1
    assert as_dict(exact) == brute_force(text)
    assert_floats_agree(exact, odds(parse(text)))


EXPLODING = ["2d4!", "3d3!kh2", "2d4!>=4f1", "2d3!+1d4!-2", "3d2!dl1>=3", "2d3!kl1", "1d2!+2"]


@pytest.mark.parametrize("cap", [1, 2, 3])
@pytest.mark.parametrize("text", EXPLODING)
def test_exploding_odds_match_brute_force_under_a_small_cap(text: str, cap: int) -> None:
    exact = total_distribution(parse(text), exact=True, cap=cap)
    assert as_dict(exact) == brute_force(text, cap)
    assert_floats_agree(exact, total_distribution(parse(text), exact=False, cap=cap))


@pytest.mark.parametrize("size", [1, 2, 3, 6])
def test_one_chain_under_the_real_cap_matches_a_recursive_computation(size: int) -> None:
    def chain(explosions_left: int) -> dict[int, Fraction]:
        result: defaultdict[int, Fraction] = defaultdict(Fraction)
        for face in range(1, size + 1):
            if face == size and explosions_left:
                for rest, p in chain(explosions_left - 1).items():
                    result[face + rest] += p / size
            else:
                result[face] += Fraction(1, size)
        return dict(result)

    exact = chain_distribution(size, exact=True)
    assert as_dict(exact) == chain(MAX_EXPLOSIONS)
    assert_floats_agree(exact, chain_distribution(size, exact=False))


def test_odds_match_every_roll_with_given_faces() -> None:
    # the roll itself as the oracle: every face tuple, rolled through GivenFaces, weighs the same
    for text in ["4d6kh3", "4d10>=6f1", "3d4dl1-1d3+2", "3d6kl2<=3f1"]:
        expression = parse(text)
        sizes = [
            t.size for t in expression.terms if isinstance(t, DiceTerm) for _ in range(t.count)
        ]
        totals = Counter(
            roll(expression, GivenFaces(faces)).total
            for faces in itertools.product(*(range(1, s + 1) for s in sizes))
        )
        n = math.prod(sizes)
        assert as_dict(odds(expression, exact=True)) == {
            t: Fraction(c, n) for t, c in totals.items()
        }


@pytest.mark.parametrize(
    "text", ["10d10kh3", "6d6!kh2>=8f1", "20d6-3d8+4", "5d10!>=8f1", "12d20dl4", "3d6!kl2+1d4!"]
)
def test_exact_and_float_odds_agree(text: str) -> None:
    exact = odds(parse(text), exact=True)
    assert exact.total() == 1
    assert_floats_agree(exact, odds(parse(text)))


def test_well_known_odds() -> None:
    four_d6 = odds(parse("4d6kh3"), exact=True)
    assert four_d6.probability(18) == Fraction(21, 1296)
    assert four_d6.probability(3) == Fraction(1, 1296)
    assert four_d6.mean() == Fraction(15869, 1296)
    advantage = odds(parse("2d20kh1"), exact=True)
    assert advantage.probability(20) == Fraction(39, 400)
    assert odds(parse("4d10>=6f1"), exact=True).at_least(1) == Fraction(1601, 2000)
    assert odds(parse("1d6!"), exact=True).mean() == Fraction(21, 5) - Fraction(21, 5) / 6**101


# --- odds against sampling -----------------------------------------------------------------------


def chi_square(counts: Counter[int], dist: Distribution, n: int) -> tuple[float, int]:
    """Pearson's statistic over bins with ≥ 5 expected, the tails pooled; and its degrees."""
    values = [v[0] for v in dist.support()]
    expected = np.array([float(dist.probability(v)) * n for v in values])
    observed = np.array([counts.get(v, 0) for v in values], dtype=np.float64)
    assert sum(counts.values()) == observed.sum() == n  # nothing outside the support
    bins_e: list[float] = []
    bins_o: list[float] = []
    pool_e = pool_o = 0.0
    for e, o in zip(expected, observed, strict=True):
        pool_e, pool_o = pool_e + e, pool_o + o
        if pool_e >= 5:
            bins_e.append(pool_e)
            bins_o.append(pool_o)
            pool_e = pool_o = 0.0
    bins_e[-1] += pool_e
    bins_o[-1] += pool_o
    e_arr, o_arr = np.array(bins_e), np.array(bins_o)
    return float(((o_arr - e_arr) ** 2 / e_arr).sum()), len(bins_e) - 1


def chi_square_critical(df: int, z: float = 3.09) -> float:
    """The 99.9 % quantile of chi-square with `df` degrees (Wilson–Hilferty)."""
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


@pytest.mark.parametrize(("text", "seed"), [("3d6", 2024), ("4d10>=6f1", 2025)])
def test_seeded_rolls_follow_the_exact_distribution(text: str, seed: int) -> None:
    expression, source, n = parse(text), Seeded(seed), 100_000
    counts = Counter(roll(expression, source).total for _ in range(n))
    statistic, df = chi_square(counts, odds(expression, exact=True), n)
    assert df >= 5
    assert statistic < chi_square_critical(df)


# --- fuzzing -----------------------------------------------------------------------------------

ALPHABET = string.digits + "dDkhl!><=f+-% "


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=ALPHABET, max_size=30))
def test_any_text_parses_and_rolls_or_raises_a_jdr_error(text: str) -> None:
    try:
        expression = parse(text)
        record = roll(expression, Seeded(len(text)))
    except JdrError:
        return
    assert record.explain().endswith(f"= {record.total}")


def _term_text(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(["", "1", "2", "3", "4"])) + draw(st.sampled_from("dD"))
    size = draw(st.sampled_from(["1", "2", "3", "4", "6", "%"]))
    text += size + ("" if size == "%" else draw(st.sampled_from(["", "!"])))  # odds stay quick
    if draw(st.booleans()):
        text += draw(st.sampled_from(["kh", "kl", "dh", "dl", "KH"])) + str(draw(st.integers(0, 4)))
    if draw(st.booleans()):
        text += draw(st.sampled_from([">=", ">", "<=", "<", "="])) + str(draw(st.integers(0, 7)))
        if draw(st.booleans()):
            text += "f" + draw(st.sampled_from(["", ">=", ">", "<=", "<", "="]))
            text += str(draw(st.integers(0, 7)))
    return text


@st.composite
def expressions(draw: st.DrawFn) -> str:
    parts = []
    for index in range(draw(st.integers(1, 3))):
        sign = draw(st.sampled_from(["+", "-"] if index else ["", "-", "+"]))
        term = str(draw(st.integers(0, 20))) if draw(st.integers(0, 3)) == 0 else _term_text(draw)
        parts.append(sign + draw(st.sampled_from(["", " "])) + term)
    return "".join(parts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions(), st.integers(0, 2**32))
def test_grammar_built_expressions_roll_within_their_odds(text: str, seed: int) -> None:
    try:
        expression = parse(text)
    except JdrError:
        return  # e.g. a keep count over the dice count
    assert parse(expression.text) == expression
    record = roll(expression, Seeded(seed))
    assert record.total == sum(term.signed for term in record.terms)
    assert len(record.faces) >= expression.dice_count
    assert odds(expression).probability(record.total) > 0


# --- the command line: `jdr dice` ----------------------------------------------------------------


def run_dice(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from jdr.cli.app import main

    code = main(["dice", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_pk_2_jdr_dice_reads_a_d10s_0_as_10(capsys: pytest.CaptureFixture[str]) -> None:
    """« parfois, un 0 remplace le 10, mais il compte toujours pour 10 » (PK-2)."""
    code, out, err = run_dice(capsys, "4d10>=6f1", "--faces", "0,1,2,6", "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert payload["faces"] == [10, 1, 2, 6]
    assert payload["explanation"] == "4d10>=6f1 (10✓, 1✗, 2, 6✓) = 1"
    code, _out, err = run_dice(capsys, "1d6", "--faces", "0")
    assert code == 2 and "face 1 is 0, not a face of a d6" in err and err.count("\n") == 1


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_jdr_dice_refuses_an_exploding_d1_at_once(
    capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    code, out, err = run_dice(capsys, "1d1!", "--lang", lang)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    expected = {
        "en": "a d1 always shows its maximum: it could only explode",
        "fr": "un d1 montre toujours son maximum\u00a0: il ne pourrait qu'exploser",
    }
    assert expected[lang] in err
    code, out, _err = run_dice(capsys, "3d1!", "--odds", "--json")
    assert code == 2 and json.loads(out)["error"]["field"] == "explode"


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ("1,,3", "nothing between two commas, after face 1"),
        ("1,3,", "nothing after the last comma"),
        (",1,3", "nothing before the first comma"),
    ],
)
def test_jdr_dice_refuses_an_empty_face(
    capsys: pytest.CaptureFixture[str], faces: str, message: str
) -> None:
    code, out, err = run_dice(capsys, "2d6", "--faces", faces)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert message in err


def test_jdr_dice_takes_faces_with_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_dice(capsys, "2d6", "--faces", "1, 3", "--json")
    assert code == 0, err
    assert json.loads(out)["total"] == 4
