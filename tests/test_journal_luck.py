"""The luck audit has oracles: brute-force enumeration, seeded sampling and symmetry.

(a) on small mixed dice sets, enumerating every combination of faces gives the exact percentile,
    P(S ≤ x), P(S ≥ x) and expected luck, which `audit(exact=True)` must equal as Fractions (and
    the float engine to 1e-12), for the whole set and for each die size;
(b) actors: filtering, roll counting, grouping, first-roll order, rolls without dice ignored;
(c) on a large set (300 d20 + 100 d6 + 50 d100), 20,000 seeded sums agree with the percentile
    within 4 standard errors;
(d) symmetry: all maximum faces, all minimum faces, mirrored faces;
(e) the exact budget: above it, `exact=True` answers in floats, quickly;
(f) the command line: `--exact` puts each percentile's fraction beside it, an actor without dice
    is named.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from jdr.journal import luck as luck_module
from jdr.journal.luck import ActorLuck, Luck, Stat, audit, face_luck
from jdr.systems.ilvermorny import luck as ilvermorny_luck
from jdr.systems.passion.pool import luck as passion_luck
from jdr.systems.pokemon import luck as pokemon_luck

Dice = list[tuple[int, int]]
TOLERANCE = 1e-12


# --- oracles --------------------------------------------------------------------------------------
def brute_force(sizes: Sequence[int], faces: Sequence[int], luck: Luck) -> dict[str, Fraction]:
    """Every combination of faces, scored and counted: the audit's figures by definition."""
    observed = sum(luck(size, face) for size, face in zip(sizes, faces, strict=True))
    counts: Counter[int] = Counter()
    for combination in itertools.product(*(range(1, size + 1) for size in sizes)):
        counts[sum(luck(s, f) for s, f in zip(sizes, combination, strict=True))] += 1
    ways = math.prod(sizes)
    below = Fraction(sum(n for total, n in counts.items() if total < observed), ways)
    equal = Fraction(counts[observed], ways)
    mean = Fraction(sum(total * n for total, n in counts.items()), ways)
    return {
        "observed": Fraction(observed),
        "mean": mean,
        "percentile": below + equal / 2,
        "at_most": below + equal,
        "at_least": 1 - below,
    }


def figures(stat: Stat | ActorLuck) -> dict[str, Any]:
    return {
        "observed": stat.observed,
        "mean": stat.mean,
        "percentile": stat.percentile,
        "at_most": stat.at_most,
        "at_least": stat.at_least,
    }


def one_face_per_sum(sizes: Sequence[int], luck: Luck) -> Iterator[tuple[int, ...]]:
    """One combination of faces for every possible luck total (each observed value once)."""
    seen: set[int] = set()
    for combination in itertools.product(*(range(1, size + 1) for size in sizes)):
        total = sum(luck(s, f) for s, f in zip(sizes, combination, strict=True))
        if total not in seen:
            seen.add(total)
            yield combination


def assert_matches_brute_force(sizes: Sequence[int], faces: Sequence[int], luck: Luck) -> None:
    dice = list(zip(sizes, faces, strict=True))
    [exact] = audit([("P", dice)], luck=luck, exact=True)
    [fast] = audit([("P", dice)], luck=luck)
    expected = brute_force(sizes, faces, luck)
    assert figures(exact) == expected, dice
    for key in ("mean", "percentile", "at_most", "at_least"):
        assert isinstance(getattr(exact, key), Fraction), key
        assert isinstance(getattr(fast, key), float), key
        assert getattr(fast, key) == pytest.approx(float(expected[key]), abs=TOLERANCE), (dice, key)
    assert exact.dice == fast.dice == len(dice)
    assert exact.observed == fast.observed == expected["observed"]
    assert sorted(exact.by_size) == sorted(fast.by_size) == sorted(set(sizes))
    for size in set(sizes):
        part = [(s, f) for s, f in dice if s == size]
        want = brute_force([s for s, _ in part], [f for _, f in part], luck)
        assert figures(exact.by_size[size]) == want, (dice, size)
        assert exact.by_size[size].dice == len(part)
        for key in ("mean", "percentile", "at_most", "at_least"):
            got = getattr(fast.by_size[size], key)
            assert got == pytest.approx(float(want[key]), abs=TOLERANCE), (dice, size, key)


# --- (a) brute force ------------------------------------------------------------------------------
SMALL_SETS: list[tuple[str, list[int], Luck]] = [
    ("2d6+1d20, face", [6, 6, 20], face_luck),
    ("d4+d10+d12, face", [4, 10, 12], face_luck),
    ("d4+d6+d8+d20, face", [4, 6, 8, 20], face_luck),
    ("d4+d10+d12, Passion", [4, 10, 12], passion_luck),
    ("2d6+d20, Passion", [6, 6, 20], passion_luck),
    ("3d4+d8, Passion", [4, 4, 4, 8], passion_luck),
    ("2d12+2d6, Ilvermorny", [12, 12, 6, 6], ilvermorny_luck),
    ("d12+d20, Ilvermorny", [12, 20], ilvermorny_luck),
    ("d100+d10, Pokémon", [100, 10], pokemon_luck),
]


@pytest.mark.parametrize(
    ("sizes", "luck"), [(s, f) for _, s, f in SMALL_SETS], ids=[name for name, _, _ in SMALL_SETS]
)
def test_exact_audit_equals_brute_force_for_every_possible_total(
    sizes: list[int], luck: Luck
) -> None:
    for faces in one_face_per_sum(sizes, luck):
        assert_matches_brute_force(sizes, faces, luck)


def test_brute_force_on_seeded_random_mixed_sets() -> None:
    rng = random.Random(1)
    lucks: list[Luck] = [face_luck, passion_luck, ilvermorny_luck, pokemon_luck]
    for _ in range(25):
        count = rng.randint(1, 4)
        sizes = [rng.choice([4, 6, 8, 10, 12, 20]) for _ in range(count)]
        faces = [rng.randint(1, size) for size in sizes]
        assert_matches_brute_force(sizes, faces, rng.choice(lucks))


def test_mean_is_the_expected_luck_of_each_die_summed() -> None:
    dice = [(6, 1), (6, 2), (20, 3), (12, 4), (100, 5)]
    for luck in (face_luck, passion_luck, ilvermorny_luck, pokemon_luck):
        [exact] = audit([("P", dice)], luck=luck, exact=True)
        expected = sum(
            (Fraction(sum(luck(size, f) for f in range(1, size + 1)), size) for size, _ in dice),
            Fraction(0),
        )
        assert exact.mean == expected
        assert isinstance(exact.mean, Fraction)
        [fast] = audit([("P", dice)], luck=luck)
        assert isinstance(fast.mean, float)
        assert fast.mean == pytest.approx(float(expected), abs=TOLERANCE)
    # By hand: a d6 averages 7/2, a Passion d6 (1 → -2, 2 → +1, 3 → -1, 4 → +1, 5 → -1, 6 → +2) 0.
    assert audit([("P", [(6, 1)])], exact=True)[0].mean == Fraction(7, 2)
    assert audit([("P", [(6, 1)])], luck=passion_luck, exact=True)[0].mean == 0
    # A Passion d4: 1 → -2, 2 → +1, 3 → -1, 4 → +2: mean 0; a d20: 9 evens +1, 9 odds -1, ±2: 0.
    assert audit([("P", [(4, 1), (20, 1)])], luck=passion_luck, exact=True)[0].mean == 0


def test_docstring_example_by_hand() -> None:
    """11 on 2d6: 33/36 of sums are below, 2/36 equal: percentile 34/36, P(≥ 11) = 3/36."""
    [ana] = audit([("Ana", [(6, 6), (6, 5)])], exact=True)
    assert ana.percentile == Fraction(34, 36)
    assert ana.at_most == Fraction(35, 36)
    assert ana.at_least == Fraction(3, 36)
    assert ana.mean == 7


def test_probabilities_are_consistent_with_each_other() -> None:
    """at_most + at_least = 1 + P(S = x), and the percentile lies halfway in that overlap."""
    rng = random.Random(7)
    for _ in range(20):
        dice = [(size, rng.randint(1, size)) for size in rng.choices([4, 6, 10, 12, 20], k=8)]
        [stat] = audit([("P", dice)], luck=passion_luck, exact=True)
        equal = stat.at_most + stat.at_least - 1
        assert 0 < equal <= 1
        assert stat.percentile == stat.at_most - equal / 2 == 1 - stat.at_least + equal / 2


def test_float_engine_agrees_with_exact_engine_on_a_larger_mixed_set() -> None:
    """100 d20 + 30 d6 + 10 d12 goes through the float engine's FFT; the exact one is the oracle."""
    rng = random.Random(3)
    dice = [(size, rng.randint(1, size)) for size in [20] * 100 + [6] * 30 + [12] * 10]
    for luck in (face_luck, passion_luck, ilvermorny_luck):
        [exact] = audit([("P", dice)], luck=luck, exact=True)
        [fast] = audit([("P", dice)], luck=luck)
        assert isinstance(exact.percentile, Fraction)
        for key in ("mean", "percentile", "at_most", "at_least"):
            assert getattr(fast, key) == pytest.approx(float(getattr(exact, key)), abs=TOLERANCE)
        for size, part in exact.by_size.items():
            for key in ("mean", "percentile", "at_most", "at_least"):
                got = getattr(fast.by_size[size], key)
                assert got == pytest.approx(float(getattr(part, key)), abs=TOLERANCE)


# --- (b) actors -----------------------------------------------------------------------------------
def test_actor_keeps_one_actor_only() -> None:
    rolls = [("Ana", [(6, 6)]), ("Bo", [(6, 1), (20, 3)]), ("Ana", [(20, 20)])]
    [bo] = audit(rolls, actor="Bo")
    assert (bo.actor, bo.rolls, bo.dice, bo.observed) == ("Bo", 1, 2, 4)
    assert sorted(bo.by_size) == [6, 20]
    [ana] = audit(rolls, actor="Ana")
    assert (ana.actor, ana.rolls, ana.dice, ana.observed) == ("Ana", 2, 2, 26)
    assert audit(rolls, actor="Cy") == []


def test_the_kept_actor_is_audited_as_in_the_full_report() -> None:
    rolls = [("Ana", [(6, 6)]), ("Bo", [(6, 1), (20, 3)]), ("Ana", [(20, 20)])]
    full = {a.actor: a for a in audit(rolls, exact=True)}
    assert audit(rolls, actor="Ana", exact=True) == [full["Ana"]]
    assert audit(rolls, actor="Bo", exact=True) == [full["Bo"]]


def test_rolls_counts_rolls_with_dice_and_dice_counts_dice() -> None:
    rolls = [
        ("Ana", [(6, 3)]),
        ("Ana", []),
        ("Ana", [(6, 4), (6, 5), (20, 1)]),
        ("Ana", []),
        ("Ana", [(12, 12)]),
    ]
    [ana] = audit(rolls)
    assert ana.rolls == 3
    assert ana.dice == 5
    assert ana.observed == 3 + 4 + 5 + 1 + 12
    assert {size: stat.dice for size, stat in ana.by_size.items()} == {6: 3, 12: 1, 20: 1}
    assert {size: stat.observed for size, stat in ana.by_size.items()} == {6: 12, 12: 12, 20: 1}


def test_several_rolls_of_an_actor_are_pooled_like_one_roll() -> None:
    dice: Dice = [(6, 2), (20, 17), (6, 6), (12, 1), (20, 4)]
    [split, bo] = audit([("Ana", dice[:2]), ("Bo", [(6, 1)]), ("Ana", dice[2:])], exact=True)
    assert (split.actor, bo.actor) == ("Ana", "Bo")
    [whole] = audit([("Ana", dice)], exact=True)
    assert figures(split) == figures(whole)
    assert split.by_size == whole.by_size
    assert (split.rolls, whole.rolls) == (2, 1)


def test_actors_come_in_first_roll_order() -> None:
    rolls = [
        ("Cy", [(6, 1)]),
        ("Ana", [(6, 2)]),
        ("Cy", [(6, 3)]),
        ("Bo", [(6, 4)]),
        ("Ana", [(6, 5)]),
    ]
    assert [a.actor for a in audit(rolls)] == ["Cy", "Ana", "Bo"]
    assert [a.rolls for a in audit(rolls)] == [2, 2, 1]


def test_rolls_without_dice_are_ignored() -> None:
    rolls: list[tuple[str, Dice]] = [
        ("Bo", []),  # Bo's first roll has no dice: his place comes from his first die
        ("Ana", [(6, 2)]),
        ("Dee", []),  # Dee never rolled a die: not reported at all
        ("Bo", [(6, 4)]),
        ("Dee", []),
    ]
    report = audit(rolls)
    assert [(a.actor, a.rolls, a.dice) for a in report] == [("Ana", 1, 1), ("Bo", 1, 1)]
    assert audit(rolls, actor="Dee") == []
    assert audit([]) == []
    assert audit([("Ana", []), ("Bo", [])]) == []


def test_any_iterable_and_any_hashable_actor() -> None:
    def rolls() -> Iterator[tuple[Any, Dice]]:
        yield (1, [(6, 6)])
        yield (("Ana", "Pikachu"), [(100, 1)])
        yield (1, [(6, 6)])

    report = audit(rolls(), luck=pokemon_luck)
    assert [(a.actor, a.rolls, a.observed) for a in report] == [
        (1, 2, 12),
        (("Ana", "Pikachu"), 1, 100),
    ]


def test_the_luck_function_is_applied_per_die() -> None:
    """Ilvermorny: a 1 on the d12 is the best face; the d6 keeps its face."""
    [wizard] = audit([("W", [(12, 1), (12, 12), (6, 6)])], luck=ilvermorny_luck, exact=True)
    assert wizard.observed == 12 + 1 + 6
    assert wizard.by_size[12].observed == 13
    assert wizard.by_size[6].observed == 6
    # Passion: max face +2, a 1 -2, other even +1, other odd -1.
    [hero] = audit([("H", [(10, 10), (10, 1), (10, 4), (10, 7)])], luck=passion_luck)
    assert hero.observed == 2 - 2 + 1 - 1


# --- (c) sampling on a large set ------------------------------------------------------------------
LARGE: list[tuple[int, int]] = [(20, 300), (6, 100), (100, 50)]  # (size, count)


def faces_for_total(target: int, luck: Luck) -> Dice:
    """Faces of the LARGE set whose luck sums to `target` (every size scores 1..size here)."""
    scores: list[tuple[int, int]] = []  # (size, score), every die starting at score 1
    for size, count in LARGE:
        scores.extend((size, 1) for _ in range(count))
    remaining = target - len(scores)
    for i, (size, score) in enumerate(scores):
        step = min(remaining, size - score)
        scores[i] = (size, score + step)
        remaining -= step
    assert remaining == 0
    by_score = {size: {luck(size, f): f for f in range(1, size + 1)} for size, _count in LARGE}
    dice = [(size, by_score[size][score]) for size, score in scores]
    assert sum(luck(size, face) for size, face in dice) == target
    return dice


def seeded_faces(rng: random.Random, size: int, n: int) -> npt.NDArray[np.int64]:
    """`n` fair faces of a d`size` (size ≤ 256) from `rng`'s bytes, by rejection: no modulo bias."""
    limit = 256 - 256 % size
    got = np.zeros(0, dtype=np.int64)
    while got.size < n:
        raw = np.frombuffer(rng.randbytes(2 * (n - got.size) + 64), dtype=np.uint8)
        got = np.concatenate([got, raw[raw < limit].astype(np.int64) % size + 1])
    return got[:n]


def test_sampling_agrees_with_the_percentile_on_a_large_set() -> None:
    luck = pokemon_luck  # the d100 is better low: its score is 101 - face
    rng = random.Random(1)
    samples = 20_000
    totals = np.zeros(samples, dtype=np.int64)
    for size, count in LARGE:
        table = np.array([0] + [luck(size, f) for f in range(1, size + 1)], dtype=np.int64)
        faces = seeded_faces(rng, size, samples * count).reshape(samples, count)
        totals += table[faces].sum(axis=1)
    sums = Counter(int(total) for total in totals)
    mean = sum(count * Fraction(size + 1, 2) for size, count in LARGE)
    sd = math.sqrt(sum(count * (size * size - 1) / 12 for size, count in LARGE))
    for z in (-2.5, -1.0, 0.0, 0.3, 1.0, 2.0):
        target = round(mean + z * sd)
        [stat] = audit([("Ana", faces_for_total(target, luck))], luck=luck)
        assert isinstance(stat.percentile, float)
        assert stat.observed == target
        assert stat.mean == pytest.approx(float(mean), abs=TOLERANCE)
        below = sum(n for total, n in sums.items() if total < target) / samples
        equal = sums[target] / samples
        empirical = below + equal / 2
        p_below, p_equal = 1 - stat.at_least, stat.at_most + stat.at_least - 1
        variance = p_below + p_equal / 4 - stat.percentile**2
        error = math.sqrt(variance / samples)
        assert abs(empirical - stat.percentile) < 4 * error, (z, empirical, stat.percentile)


# --- (d) symmetry ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("size", "n"), [(6, 1), (6, 5), (20, 3), (12, 7), (100, 2), (4, 30)])
def test_all_maximum_faces_and_all_minimum_faces(size: int, n: int) -> None:
    one_in = Fraction(1, size**n)
    [top] = audit([("A", [(size, size)] * n)], exact=True)
    assert top.at_least == one_in
    assert top.at_most == 1
    assert top.percentile == 1 - one_in / 2
    [bottom] = audit([("A", [(size, 1)] * n)], exact=True)
    assert bottom.at_most == one_in
    assert bottom.at_least == 1
    assert bottom.percentile == one_in / 2
    [fast_top] = audit([("A", [(size, size)] * n)])
    [fast_bottom] = audit([("A", [(size, 1)] * n)])
    assert fast_top.percentile == pytest.approx(1 - float(one_in) / 2, abs=TOLERANCE)
    assert fast_top.at_least == pytest.approx(float(one_in), abs=TOLERANCE)
    assert fast_bottom.percentile == pytest.approx(float(one_in) / 2, abs=TOLERANCE)
    assert fast_bottom.at_most == pytest.approx(float(one_in), rel=1e-9)


def test_mirrored_faces_have_mirrored_percentiles() -> None:
    """Face luck is symmetric: faces f and size + 1 - f have percentiles p and 1 - p."""
    rng = random.Random(11)
    for _ in range(20):
        sizes = rng.choices([4, 6, 8, 10, 12, 20, 100], k=rng.randint(1, 12))
        dice = [(size, rng.randint(1, size)) for size in sizes]
        mirror = [(size, size + 1 - face) for size, face in dice]
        [a] = audit([("A", dice)], exact=True)
        [b] = audit([("A", mirror)], exact=True)
        assert a.percentile + b.percentile == 1
        assert a.at_most == b.at_least
        assert a.at_least == b.at_most
        assert a.observed + b.observed == sum(size + 1 for size in sizes)


def test_ilvermorny_d12_is_face_luck_mirrored() -> None:
    """A d12 scored 13 - face at Ilvermorny is exactly the plain d12 showing 13 - face."""
    rng = random.Random(5)
    faces = [rng.randint(1, 12) for _ in range(9)]
    [wizard] = audit([("W", [(12, f) for f in faces])], luck=ilvermorny_luck, exact=True)
    [plain] = audit([("W", [(12, 13 - f) for f in faces])], exact=True)
    assert figures(wizard) == figures(plain)


def test_float_probabilities_stay_within_zero_and_one_in_the_upper_tail() -> None:
    [top] = audit([("A", [(20, 20)] * 20)])
    assert 0 <= top.at_least <= 1
    assert 0 <= top.percentile <= 1
    assert 0 <= top.at_most <= 1
    # relative accuracy of the tail, as the lower tail has it (at_most of all minimum faces)
    assert top.at_least == pytest.approx(20.0**-20, rel=1e-6)


# --- (e) the exact budget -------------------------------------------------------------------------
def test_exact_on_a_very_large_set_answers_floats_quickly() -> None:
    dice = [(20, 1 + i % 20) for i in range(3000)] + [(100, 1 + i % 100) for i in range(1000)]
    start = time.perf_counter()
    [stat] = audit([("A", dice)], exact=True)
    elapsed = time.perf_counter() - start
    assert elapsed < 5.0
    for value in (stat.mean, stat.percentile, stat.at_most, stat.at_least):
        assert isinstance(value, float)
    [fast] = audit([("A", dice)])
    assert figures(stat) == figures(fast)


def test_exact_budget_boundary(monkeypatch: pytest.MonkeyPatch) -> None:
    """Work is dice × total faces: 2 d6 is 2 × 12 = 24, 3 d6 is 3 × 18 = 54."""
    monkeypatch.setattr(luck_module, "EXACT_BUDGET", 24)
    [two] = audit([("A", [(6, 3), (6, 4)])], exact=True)
    [three] = audit([("A", [(6, 3), (6, 4), (6, 5)])], exact=True)
    assert isinstance(two.percentile, Fraction)
    assert isinstance(three.percentile, float)
    assert two.percentile == Fraction(1, 2)
    # 12 on 3d6: P(S ≤ 10) = 1/2, P(S = 11) = 27/216, P(S = 12) = 25/216
    assert three.percentile == pytest.approx(float(Fraction(295, 432)), abs=TOLERANCE)
    # exact=False is floats whatever the work
    [small] = audit([("A", [(6, 3)])])
    assert isinstance(small.percentile, float)


def test_the_float_and_exact_reports_share_everything_but_number_types() -> None:
    rolls: list[tuple[str, Dice]] = [("Ana", [(6, 2), (20, 19)]), ("Bo", [(12, 1)])]
    exact = audit(rolls, exact=True)
    fast = audit(rolls)
    assert [(a.actor, a.rolls, a.dice, a.observed) for a in exact] == [
        (a.actor, a.rolls, a.dice, a.observed) for a in fast
    ]
    assert all(isinstance(a.percentile, Fraction) for a in exact)
    assert all(isinstance(a.percentile, float) for a in fast)


def test_one_engine_for_all_of_an_actors_figures_and_faces_are_checked() -> None:
    from jdr.errors import InputError

    [mixed] = audit([("A", [(20, 7)] * 300 + [(6, 2)] * 100)], exact=True)
    kinds = {type(mixed.percentile), *(type(s.percentile) for s in mixed.by_size.values())}
    assert len(kinds) == 1
    [single] = audit([("A", [(6, 2), (6, 5)])], exact=True)
    assert single.by_size[6].percentile == single.percentile
    with pytest.raises(InputError, match="not a face of a d6"):
        audit([("A", [(6, 7)])])


# --- (f) the command line: jdr journal luck -------------------------------------------------------


def luck_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    from jdr.cli.app import main

    code = main(["journal", "luck", *args])
    out, _err = capsys.readouterr()
    return code, out


@pytest.fixture
def table(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> str:
    """A Polédémos campaign where Ana rolled 2d6 then 1d6 from the seed (Bo typed his faces)."""
    from jdr.cli.app import main

    db = f"sqlite:///{tmp_path}/t.db"
    assert main(["campaign", "new", "Mardi", "--system", "poledemos", "--db", db]) == 0
    roll = ["roll", "poledemos", "test", "--val", "3+", "--campaign", "Mardi", "--db", db]
    assert main([*roll, "--dice", "2", "--actor", "Ana"]) == 0
    assert main([*roll, "--dice", "1", "--actor", "Ana"]) == 0
    assert main([*roll, "--dice", "3", "--actor", "Bo", "--faces", "6,6,6"]) == 0
    capsys.readouterr()
    return db


def test_exact_text_shows_each_percentiles_fraction_beside_it(
    table: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    code, out = luck_cli(capsys, "Mardi", "--exact", "--json", "--db", table)
    percentile = Fraction(json.loads(out)["actors"][0]["percentile"])
    code, out = luck_cli(capsys, "Mardi", "--exact", "--db", table)
    assert code == 0
    [row] = [line for line in out.splitlines() if "Ana" in line]
    cells = [cell.strip() for cell in row.strip("│ ").split("│")]
    assert cells[0] == "Ana" and cells[1] == "3"
    assert cells[-2] == f"{float(percentile) * 100:.2f} %"
    assert cells[-1] == f"{percentile.numerator}/{percentile.denominator}"
    assert "exact" in out.splitlines()[1]
    code, plain = luck_cli(capsys, "Mardi", "--db", table)
    assert "exact" not in plain and f"{percentile.numerator}/{percentile.denominator}" not in plain
    code, french = luck_cli(capsys, "Mardi", "--exact", "--db", table, "--lang", "fr")
    assert f"{percentile.numerator}/{percentile.denominator}" in french
    assert f"{float(percentile) * 100:.2f} %".replace(".", ",") in french


def test_exact_text_says_when_the_fractions_are_too_large(
    table: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(luck_module, "EXACT_BUDGET", 0)
    code, out = luck_cli(capsys, "Mardi", "--exact", "--db", table)
    assert code == 0
    [row] = [line for line in out.splitlines() if "Ana" in line]
    assert row.rstrip(" │").endswith("-")
    assert "-: too many dice for exact fractions; floats instead (error below 1e-12)" in out
    code, out = luck_cli(capsys, "Mardi", "--exact", "--db", table, "--lang", "fr")
    assert "-\u00a0: trop de dés pour des fractions exactes" in out


def test_an_actor_without_dice_is_named(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = luck_cli(capsys, "Mardi", "--actor", "Nobody", "--db", table)
    assert (code, out) == (0, "No derived dice for Nobody.\n")
    code, out = luck_cli(capsys, "Mardi", "--actor", "Nobody", "--db", table, "--lang", "fr")
    assert out == "Aucun dé tiré de la graine pour Nobody.\n"
    code, out = luck_cli(capsys, "Mardi", "--actor", "Bo", "--db", table)
    assert out == "No derived dice for Bo.\n", "typed faces do not count"


def test_a_campaign_without_dice_says_so(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from jdr.cli.app import main

    db = f"sqlite:///{tmp_path}/t.db"
    assert main(["campaign", "new", "Vide", "--system", "poledemos", "--db", db]) == 0
    capsys.readouterr()
    for args in ((), ("--actor", "Ana")):
        code, out = luck_cli(capsys, "Vide", *args, "--db", db)
        assert (code, out) == (0, "No dice derived from the campaign's seed yet.\n")


def test_an_actor_typed_in_another_case_or_without_accents_is_one_actor() -> None:
    report = audit([("Élodie", [(6, 6)]), ("elodie", [(6, 1)]), ("Bo", [(6, 3)])])
    assert [(a.actor, a.rolls, a.dice, a.observed) for a in report] == [
        ("Élodie", 2, 2, 7),
        ("Bo", 1, 1, 3),
    ]
    (only,) = audit([("Élodie", [(6, 6)]), ("elodie", [(6, 1)])], actor="ELODIE")
    assert only.dice == 2
