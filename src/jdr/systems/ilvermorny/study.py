"""Studying a spell (IL-9): hours in a row, each a run of stat tests, for the XP of a table.

Hour 1 is a Compréhension test then a Résolution test; hour k ≥ 2 is k Résolution tests. Every
test is IL-2's, with the study's difficulty. The first failed test (a critical failure too) stops
the study: the wizard gets half the XP of the last completed hour, rounded half up.

>>> from jdr.dice import GivenFaces
>>> done = study(comprehension=6, resolution=7, hours=2, modifier=0, rng=GivenFaces([3, 4, 2, 5]))
>>> done.hours_completed, done.xp, done.outcome
(2, 12, 'success')
>>> study_xp(hours_completed=3, stopped=True)  # the source's example: fails in hour 4
13

The odds walk the same schedule, with each test's probability of success taken from IL-2's test
run over the twelve faces (`exact.every_roll`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from jdr.dice.source import RandomSource
from jdr.i18n import _, ngettext
from jdr.prob import Probability
from jdr.systems.ilvermorny.exact import as_probability, every_roll
from jdr.systems.ilvermorny.rules import STAT_LABELS, StatName, StatTest, stat_test

MIN_HOURS, MAX_HOURS = 1, 6  # IL-9
STUDY_XP = (0, 5, 12, 25, 55, 125, 300)
"""IL-9: the total XP for h hours completed (`STUDY_XP[h]`, totals, not per hour)."""


def schedule(hours: int) -> list[tuple[int, StatName]]:
    """IL-9: every test of a study of `hours` hours, in order, as (hour, stat).

    >>> schedule(3)  # doctest: +NORMALIZE_WHITESPACE
    [(1, 'comprehension'), (1, 'resolution'), (2, 'resolution'), (2, 'resolution'),
     (3, 'resolution'), (3, 'resolution'), (3, 'resolution')]
    """
    tests: list[tuple[int, StatName]] = [(1, "comprehension"), (1, "resolution")]
    for hour in range(2, hours + 1):
        tests += [(hour, "resolution")] * hour
    return tests


def half_up(xp: int) -> int:
    """Half, rounded half up (the source rounds 25 / 2 to 13).

    >>> half_up(25), half_up(12), half_up(0)
    (13, 6, 0)
    """
    return (xp + 1) // 2


def study_xp(hours_completed: int, stopped: bool) -> int:
    """IL-9: the table's total for the hours completed, or half of it when a test failed.

    >>> [study_xp(h, stopped=False) for h in range(1, 7)]
    [5, 12, 25, 55, 125, 300]
    >>> [study_xp(h, stopped=True) for h in range(6)]
    [0, 3, 6, 13, 28, 63]
    """
    xp = STUDY_XP[hours_completed]
    return half_up(xp) if stopped else xp


@dataclass(frozen=True)
class StudyTest:
    """One test of a study: its hour, the stat tested, and the test."""

    hour: int
    stat: StatName
    test: StatTest


@dataclass(frozen=True)
class Study:
    """A study as played: the hours planned and every test in order, up to the first failure."""

    hours: int
    tests: tuple[StudyTest, ...]

    @property
    def stopped(self) -> bool:
        return bool(self.tests) and not self.tests[-1].test.success

    @property
    def hours_completed(self) -> int:
        return self.tests[-1].hour - 1 if self.stopped else self.hours

    @property
    def xp(self) -> int:
        return study_xp(self.hours_completed, self.stopped)

    @property
    def outcome(self) -> str:
        """`success` when every hour was completed, else `failure`."""
        return "failure" if self.stopped else "success"

    def explain(self) -> str:
        """Each test, then the hours completed and the XP, in the current language."""
        lines = [
            _("hour {hour}, {stat}: {test}").format(
                hour=done.hour,
                stat=_(STAT_LABELS[done.stat]),
                test=done.test.explain(),
            )
            for done in self.tests
        ]
        done = self.hours_completed
        if self.stopped:
            summary = ngettext(
                "stopped in hour {hour}: {done} hour of {hours} completed, {xp} XP",
                "stopped in hour {hour}: {done} hours of {hours} completed, {xp} XP",
                done,
            )
        else:
            summary = ngettext(
                "{done} hour of {hours} completed: {xp} XP",
                "{done} hours of {hours} completed: {xp} XP",
                done,
            )
        hour = self.tests[-1].hour if self.tests else 1
        lines.append(
            summary.format(hour=hour, done=self.hours_completed, hours=self.hours, xp=self.xp)
        )
        return " · ".join(lines)


def study(
    comprehension: int, resolution: int, hours: int, modifier: int, rng: RandomSource
) -> Study:
    """IL-9: roll the study's tests in order, one d12 each, until one fails or all succeed."""
    stats = {"comprehension": comprehension, "resolution": resolution}
    tests: list[StudyTest] = []
    for hour, stat in schedule(hours):
        test = stat_test(stats[stat], modifier, rng)
        tests.append(StudyTest(hour, stat, test))
        if not test.success:
            break
    return Study(hours, tuple(tests))


# --- exact odds ---------------------------------------------------------------------------------


def success_chance(stat: int, modifier: int) -> Fraction:
    """IL-2's test run over the twelve faces: the probability that it succeeds.

    >>> success_chance(7, 1)
    Fraction(1, 2)
    """
    return sum(
        (p for p, test in every_roll(lambda rng: stat_test(stat, modifier, rng)) if test.success),
        Fraction(0),
    )


@dataclass(frozen=True)
class StudyLaw:
    """The exact law of a study: P(XP = x) for each x, and P(every hour completed)."""

    xp: dict[int, Fraction]
    complete: Fraction

    @property
    def mean(self) -> Fraction:
        return sum((xp * p for xp, p in self.xp.items()), Fraction(0))


def study_law(comprehension: int, resolution: int, hours: int, modifier: int) -> StudyLaw:
    """The exact XP law: walk `schedule(hours)`, a failure at each test ending the study there.

    >>> law = study_law(comprehension=10, resolution=10, hours=2, modifier=-3)
    >>> law.xp[12], law.xp[0], law.complete
    (Fraction(14641, 20736), Fraction(23, 144), Fraction(14641, 20736))
    """
    chance = {
        "comprehension": success_chance(comprehension, modifier),
        "resolution": success_chance(resolution, modifier),
    }
    reach, law = Fraction(1), dict[int, Fraction]()
    for hour, stat in schedule(hours):
        xp = study_xp(hour - 1, stopped=True)
        law[xp] = law.get(xp, Fraction(0)) + reach * (1 - chance[stat])
        reach *= chance[stat]
    full = study_xp(hours, stopped=False)
    law[full] = law.get(full, Fraction(0)) + reach
    return StudyLaw({xp: p for xp, p in sorted(law.items()) if p}, reach)


def plans(comprehension: int, resolution: int, modifier: int) -> dict[int, StudyLaw]:
    """The law of each plan of 1 … 6 hours."""
    return {
        hours: study_law(comprehension, resolution, hours, modifier)
        for hours in range(MIN_HOURS, MAX_HOURS + 1)
    }


def by_hours(laws: dict[int, StudyLaw], exact: bool) -> dict[int, dict[str, Probability]]:
    """For each plan: `expected_xp` and `p_complete` (the probability of completing it)."""
    return {
        hours: {
            "expected_xp": as_probability(law.mean, exact),
            "p_complete": as_probability(law.complete, exact),
        }
        for hours, law in laws.items()
    }


def best_hours(laws: dict[int, StudyLaw]) -> int:
    """The plan with the highest expected XP (the shorter one on a tie).

    >>> best_hours(plans(10, 10, 0)), best_hours(plans(1, 1, 0))
    (6, 1)
    """
    return max(laws, key=lambda hours: (laws[hours].mean, -hours))
