"""Passion odds (PS-2 … PS-7): exact odds against brute force over every face, exact against
floats, a seeded sample on a large pool, the 2d4 count, sure successes, and the command line."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.dice import Seeded
from jdr.prob import pool_distribution
from jdr.systems import Registry
from jdr.systems.passion.actions import roll
from jdr.systems.passion.odds import (
    OUTCOMES,
    is_sure,
    margin_table,
    reachable,
    roll_odds,
)
from jdr.systems.passion.params import ActionParams, Conditions
from jdr.systems.passion.pool import SIZES, parse_dice


def oracle_margin(faces: tuple[int, ...], sizes: tuple[int, ...], c: Conditions) -> int:
    """PS-2 … PS-7 written once more, plainly, from the rules file."""
    positives = negatives = 0
    for face, size in zip(faces, sizes, strict=True):
        if face == size:
            positives += 2
        elif face == 1:
            negatives += 2
        elif face % 2 == 0:
            positives += 1
        else:
            negatives += 1
    negatives += c.difficulty + c.npc_energy
    negatives -= min(c.talent, negatives)
    negatives -= min(c.passion, negatives)
    positives -= min(c.npc_passion, positives)
    positives += int(c.energy)
    return positives - negatives


def sizes_of(dice: str) -> tuple[int, ...]:
    return tuple(die.size for die in parse_dice(dice).dice())


def brute_force(dice: str, c: Conditions) -> Counter[int]:
    """How many of the equally likely faces give each margin."""
    sizes = sizes_of(dice)
    faces = itertools.product(*(range(1, size + 1) for size in sizes))
    return Counter(oracle_margin(f, sizes, c) for f in faces)


def outcome_of(margin: int) -> str:
    return "success" if margin > 0 else "status_quo" if margin == 0 else "failure"


SMALL_POOLS = ["1d4", "2d4", "3d6", "1d4+1d6", "2d4+1d8", "1d10+1d12", "1d4+1d20", "1d30", "1d100"]
CONDITIONS = [
    Conditions(),
    Conditions(difficulty=2, talent=1),
    Conditions(difficulty=3, talent=5, energy=True),
    Conditions(difficulty=1, passion=2, npc_energy=1),
    Conditions(difficulty=2, talent=1, energy=True, passion=1, npc_energy=2, npc_passion=1),
    Conditions(npc_passion=3),
]


# --- PS-6: the source's 2d4 count -----------------------------------------------------------------


def test_ps_6_two_d4_count_is_6_4_6_of_16() -> None:
    odds = roll_odds(parse_dice("2d4"), Conditions(), exact=True)
    counts = [odds.outcomes[outcome] * 16 for outcome in OUTCOMES]
    assert counts == [6, 4, 6]
    assert sum(odds.outcomes.values()) == 1


# --- PS-2 … PS-7: exact odds against brute force --------------------------------------------------


@pytest.mark.parametrize("dice", SMALL_POOLS)
@pytest.mark.parametrize("conditions", CONDITIONS, ids=lambda c: repr(c)[10:-1] or "none")
def test_ps_2_to_ps_7_exact_odds_match_brute_force(dice: str, conditions: Conditions) -> None:
    counts = brute_force(dice, conditions)
    total = sum(counts.values())
    odds = roll_odds(parse_dice(dice), conditions, exact=True)
    assert dict(odds.distribution) == {m: Fraction(n, total) for m, n in counts.items()}
    for outcome in OUTCOMES:
        expected = sum(n for m, n in counts.items() if outcome_of(m) == outcome)
        assert odds.outcomes[outcome] == Fraction(expected, total)
    assert odds.mean == Fraction(sum(m * n for m, n in counts.items()), total)
    assert odds.extra["sure"] == all(m > 0 for m in counts)


@pytest.mark.parametrize("conditions", CONDITIONS, ids=lambda c: repr(c)[10:-1] or "none")
def test_ps_3_to_ps_7_margin_table_is_resolve_cell_by_cell(conditions: Conditions) -> None:
    table = margin_table(conditions, 12, 15)
    for positives, negatives in itertools.product(range(12), range(15)):
        expected = conditions.resolve((positives, negatives)).margin
        assert table[positives, negatives] == expected


@pytest.mark.parametrize("dice", ["1d4", "3d6", "1d4+2d100", "2d8+1d10"])
def test_ps_2_reachable_cells_are_what_the_faces_give(dice: str) -> None:
    pool = parse_dice(dice)
    exact = pool_distribution(pool, exact=True)
    assert {
        tuple(int(x) for x in cell) for cell in zip(*reachable(pool).nonzero(), strict=True)
    } == set(exact.support())


@pytest.mark.parametrize("dice", ["1d6", "3d6", "2d4+1d12", "20d6+5d10", "30d100"])
@pytest.mark.parametrize("conditions", CONDITIONS[1:], ids=lambda c: repr(c)[10:-1])
def test_exact_and_float_odds_agree(dice: str, conditions: Conditions) -> None:
    exact = roll_odds(parse_dice(dice), conditions, exact=True)
    floats = roll_odds(parse_dice(dice), conditions, exact=False)
    for outcome in OUTCOMES:
        assert abs(float(exact.outcomes[outcome]) - float(floats.outcomes[outcome])) < 1e-12
    assert exact.mean is not None and floats.mean is not None
    assert abs(float(exact.mean) - float(floats.mean)) < 1e-12
    float_rows = dict(floats.distribution)
    for margin, p in exact.distribution:
        assert abs(float(p) - float_rows.get(margin, 0.0)) < 1e-12
    assert exact.extra["sure"] is floats.extra["sure"]


def test_seeded_sample_of_a_large_pool_agrees_with_the_exact_odds() -> None:
    """20d6+5d10, 20,000 seeded rolls through the action itself: each outcome within 4 σ."""
    params = ActionParams(dice="20d6+5d10", talent=12, difficulty=10, energy=True, npc_passion=1)
    odds = roll_odds(params.pool(), params.conditions(), exact=True)
    rolls = 20_000
    rng = Seeded(2024)
    seen = Counter(roll(params, rng).outcome for _ in range(rolls))
    chi_square = 0.0
    for outcome in OUTCOMES:
        p = float(odds.outcomes[outcome])
        sigma = math.sqrt(rolls * p * (1 - p))
        assert abs(seen[outcome] - rolls * p) < 4 * sigma, outcome
        chi_square += (seen[outcome] - rolls * p) ** 2 / (rolls * p)
    assert chi_square < 18.4  # 2 degrees of freedom: P(χ² > 18.4) ≈ 1e-4


# --- PS-5: sure successes -------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_ps_5_any_single_die_with_talent_4_difficulty_2_and_energy_is_sure(size: int) -> None:
    door = Conditions(difficulty=2, talent=4, energy=True)
    for exact in (True, False):
        odds = roll_odds(parse_dice(f"1d{size}"), door, exact=exact)
        assert odds.extra["sure"] is True
        assert odds.outcomes["success"] == 1
        assert odds.outcomes["failure"] == odds.outcomes["status_quo"] == 0
    assert roll_odds(parse_dice(f"2d{size}"), door, exact=True).extra["sure"] is False


def test_ps_5_sure_is_decided_on_the_reachable_cells_not_on_floats() -> None:
    """200 ones on 200d100 have probability 10⁻⁴⁰⁰: zero in floats, yet they can happen."""
    pool = parse_dice("200d100")
    almost = Conditions(talent=399, energy=True)  # 200 ones: 400 negatives, 399 cancelled
    floats = roll_odds(pool, almost, exact=False)
    # the float engine cannot see the one status quo: it underflows to nothing
    assert floats.outcomes["status_quo"] == floats.outcomes["failure"] == 0.0
    assert floats.extra["sure"] is False
    assert is_sure(pool, Conditions(talent=400, energy=True))


# --- the command line -----------------------------------------------------------------------------


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main([*args, "--json"])
    out, _err = capsys.readouterr()
    return code, json.loads(out)


def test_cli_odds_json_keys(passion_actions: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = cli_json(capsys, "odds", "passion", "action", "--dice", "2d4", "--exact")
    assert code == 0
    assert out["outcomes"] == {"success": "3/8", "status_quo": "1/4", "failure": "3/8"}
    assert out["distribution_of"] == "margin"
    assert out["mean"] == "0/1"
    assert out["sure"] is False
    assert [row[0] for row in out["distribution"]] == list(range(-4, 5))


def test_cli_odds_sure(passion_actions: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--dice", "1d20", "--talent", "4", "--difficulty", "2", "--energy")
    code, out = cli_json(capsys, "odds", "passion", "action", *args)
    assert code == 0
    assert out["sure"] is True
    assert out["outcomes"] == {"success": 1.0, "status_quo": 0.0, "failure": 0.0}


def test_cli_odds_french_keeps_the_structure(
    passion_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("odds", "passion", "action", "--dice", "3d6", "--talent", "2")
    _code, english = cli_json(capsys, *args)
    code, french = cli_json(capsys, *args, "--lang", "fr")
    assert code == 0
    assert french == english
    code = main([*args, "--lang", "fr"])
    out, _err = capsys.readouterr()
    assert code == 0
    assert "réussite" in out


def test_cli_odds_bad_input_exit_2(
    passion_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["odds", "passion", "action", "--dice", "3d7"])
    _out, err = capsys.readouterr()
    assert code == 2
    assert "--dice: 3d7" in err
