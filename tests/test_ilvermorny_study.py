"""Ilvermorny study (IL-9): the source's example, the XP table and its halves, and the exact XP law
against brute force over the d12 sequences."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import partial

import pytest

from jdr.dice import GivenFaces
from jdr.systems.ilvermorny.actions import StudyParams, roll_study, study_odds
from jdr.systems.ilvermorny.exact import every_roll, exact_law
from jdr.systems.ilvermorny.study import (
    STUDY_XP,
    best_hours,
    plans,
    schedule,
    study,
    study_law,
    study_xp,
)

TABLE = {0: 0, 1: 5, 2: 12, 3: 25, 4: 55, 5: 125, 6: 300}


def plain_tests(comprehension: int, resolution: int, hours: int) -> list[tuple[int, int]]:
    """The oracle's schedule: (hour, stat) for hour 1's two tests, then k tests in hour k."""
    tests = [(1, comprehension), (1, resolution)]
    for hour in range(2, hours + 1):
        tests += [(hour, resolution)] * hour
    return tests


def plain_xp(
    comprehension: int, resolution: int, hours: int, modifier: int, faces: list[int]
) -> int:
    """The oracle: IL-9 on a sequence of faces (faces after the first failure are ignored)."""
    for (hour, stat), face in zip(
        plain_tests(comprehension, resolution, hours), faces, strict=False
    ):
        if face == 12 or face + modifier > stat:
            return (TABLE[hour - 1] + 1) // 2
    return TABLE[hours]


def plain_law(comprehension: int, resolution: int, hours: int, modifier: int) -> Counter[int]:
    """The oracle's law, walking every face of each test until the first failure."""
    tests = plain_tests(comprehension, resolution, hours)
    law: Counter[int] = Counter()

    def walk(index: int, faces: list[int], weight: Fraction) -> None:
        if index == len(tests):
            law[plain_xp(comprehension, resolution, hours, modifier, faces)] += weight  # type: ignore[assignment]
            return
        for face in range(1, 13):
            _hour, stat = tests[index]
            if face == 12 or face + modifier > stat:
                xp = plain_xp(comprehension, resolution, hours, modifier, [*faces, face])
                law[xp] += weight / 12  # type: ignore[assignment]
            else:
                walk(index + 1, [*faces, face], weight / 12)

    walk(0, [], Fraction(1))
    return law


# --- the rules ----------------------------------------------------------------------------------


def test_il_9_source_example_fails_in_hour_4_gets_13_xp() -> None:
    # hour 1: Compréhension, Résolution; hour 2: 2 tests; hour 3: 3 tests; hour 4 fails at once
    done = study(7, 7, 4, 0, GivenFaces([1, 2, 3, 4, 5, 6, 7, 9]))
    assert (done.hours_completed, done.xp, done.outcome) == (3, 13, "failure")
    assert len(done.tests) == 8


def test_il_9_failing_the_last_test_of_hour_4_still_gets_13_xp() -> None:
    done = study(7, 7, 4, 0, GivenFaces([1] * 10 + [8]))
    assert (done.hours_completed, done.xp) == (3, 13)


def test_il_9_failing_in_hour_1_gets_nothing() -> None:
    assert study(7, 7, 3, 0, GivenFaces([8])).xp == 0  # Compréhension fails
    assert study(7, 7, 3, 0, GivenFaces([1, 12])).xp == 0  # Résolution fails critically


def test_il_9_totals_not_per_hour() -> None:
    assert STUDY_XP[1:] == (5, 12, 25, 55, 125, 300)
    for hours in range(1, 7):
        faces = [1] * len(schedule(hours))
        assert study(5, 5, hours, 0, GivenFaces(faces)).xp == TABLE[hours]


def test_il_9_half_of_the_last_completed_hour_rounded_half_up() -> None:
    assert [study_xp(h, stopped=True) for h in range(6)] == [0, 3, 6, 13, 28, 63]


def test_il_9_hour_1_is_comprehension_then_resolution_hour_k_is_k_resolution_tests() -> None:
    assert schedule(1) == [(1, "comprehension"), (1, "resolution")]
    assert [hour for hour, _stat in schedule(6)] == [1, 1, 2, 2, 3, 3, 3] + [4] * 4 + [5] * 5 + [
        6
    ] * 6


def test_il_9_the_difficulty_applies_to_every_test() -> None:
    # Résolution 5, "complexe" (+2): a 4 fails (6 > 5)
    done = study(9, 5, 2, 2, GivenFaces([7, 3, 4]))
    assert [t.test.result for t in done.tests] == [9, 5, 6]
    assert (done.hours_completed, done.xp) == (1, 3)


def test_il_9_roll_record_and_explanation() -> None:
    record = roll_study(StudyParams(comprehension=6, resolution=7, hours=2), GivenFaces([3, 4, 9]))
    assert record.outcome == "failure"
    assert list(record.faces) == [3, 4, 9]
    assert record.totals["hours_completed"] == 1
    assert record.totals["xp"] == 3
    assert record.totals["tests"][2] == {
        "hour": 2,
        "stat": "resolution",
        "natural": 9,
        "result": 9,
        "outcome": "failure",
    }
    assert record.explain().endswith("stopped in hour 2: 1 hour of 2 completed, 3 XP")


# --- the exact law ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("comprehension", "resolution", "hours", "modifier"),
    [(6, 7, 1, 0), (0, 10, 1, 2), (6, 7, 2, 0), (10, 3, 2, -1), (2, 9, 2, 3)],
)
def test_il_9_xp_law_matches_every_d12_sequence(
    comprehension: int, resolution: int, hours: int, modifier: int
) -> None:
    n = len(schedule(hours))
    counts = Counter(
        plain_xp(comprehension, resolution, hours, modifier, list(faces))
        for faces in itertools.product(range(1, 13), repeat=n)
    )
    expected = {xp: Fraction(count, 12**n) for xp, count in counts.items()}
    assert study_law(comprehension, resolution, hours, modifier).xp == dict(
        sorted(expected.items())
    )


@pytest.mark.parametrize(
    ("comprehension", "resolution", "hours", "modifier"),
    [(4, 3, 3, 0), (3, 2, 4, 0), (10, 1, 6, 0), (1, 1, 5, 0), (7, 0, 6, -1)],
)
def test_il_9_xp_law_matches_brute_force_for_longer_studies(
    comprehension: int, resolution: int, hours: int, modifier: int
) -> None:
    law = study_law(comprehension, resolution, hours, modifier)
    assert law.xp == {
        xp: p
        for xp, p in sorted(plain_law(comprehension, resolution, hours, modifier).items())
        if p
    }
    assert sum(law.xp.values()) == 1


@pytest.mark.parametrize(("comprehension", "resolution", "hours"), [(4, 3, 2), (2, 2, 3)])
def test_il_9_the_roll_itself_walked_over_every_face_gives_the_same_law(
    comprehension: int, resolution: int, hours: int
) -> None:
    params = StudyParams(comprehension=comprehension, resolution=resolution, hours=hours)
    walked = exact_law(
        (p, record.totals["xp"]) for p, record in every_roll(partial(roll_study, params))
    )
    assert walked == study_law(comprehension, resolution, hours, 0).xp


def test_il_9_study_odds_mean_by_hours_and_best_hours() -> None:
    odds = study_odds(StudyParams(comprehension=6, resolution=7, hours=4, difficulty=-2), True)
    law = study_law(6, 7, 4, -2)
    assert odds.mean == law.mean == sum(xp * p for xp, p in law.xp.items())
    assert odds.outcomes == {"success": law.complete, "failure": 1 - law.complete}
    assert dict(odds.distribution) == law.xp
    by_hours = odds.extra["by_hours"]
    assert sorted(by_hours) == [1, 2, 3, 4, 5, 6]
    for hours, row in by_hours.items():
        assert row["expected_xp"] == study_law(6, 7, hours, -2).mean
        assert row["p_complete"] == Fraction(8, 12) * Fraction(9, 12) ** (len(schedule(hours)) - 1)
    best = max(range(1, 7), key=lambda h: by_hours[h]["expected_xp"])
    assert odds.extra["best_hours"] == best


def test_il_9_best_hours_prefers_the_shorter_plan_on_a_tie() -> None:
    laws = plans(0, 0, 0)  # at 0 with no modifier no test succeeds: every plan gives 0 XP
    assert all(law.mean == 0 for law in laws.values())
    assert best_hours(laws) == 1


def test_il_9_float_and_exact_odds_agree() -> None:
    params = StudyParams(comprehension=8, resolution=9, hours=6)
    exact, floats = study_odds(params, True), study_odds(params, False)
    assert abs(float(exact.mean or 0) - float(floats.mean or 0)) < 1e-9
    for hours, row in exact.extra["by_hours"].items():
        assert (
            abs(float(row["expected_xp"]) - floats.extra["by_hours"][hours]["expected_xp"]) < 1e-9
        )
