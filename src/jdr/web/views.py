"""What the pages show, computed from the services' values: SVG bars of a distribution, a
roller's luck (the post-ready copies of a roll are `jdr.journal.words.recap_texts`).

>>> [bar.height for bar in chart([(0, 0.25), (1, 0.75)]).bars]
[40, 120]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from jdr.numbers import decimal, percent

CHART_HEIGHT = 120
BAR_WIDTH = 12
BAR_STEP = 14
GAP = 10
"""Extra room before a bar whose value does not follow the one before (values left out)."""
BREAK = 10
"""A bar over `BREAK` times the next tallest is drawn broken, so the others stay readable."""
LABEL_CHAR = 5
"""About how wide one character of a bar's label is (font size 8), to label bars sparsely
enough that two labels never overlap."""


@dataclass(frozen=True)
class Bar:
    x: int
    width: int
    height: int
    label: str
    percent: str
    labelled: bool = True
    """Whether the value is written under the bar (every bar has its `<title>` and its row in
    the chart's table)."""
    broken: bool = False
    """Taller than the chart: drawn full height with a break, its chance written above it."""
    tallest: bool = False
    """The likeliest value: its chance is written above it."""
    after_gap: bool = False
    """Values are left out between the bar before and this one."""


@dataclass(frozen=True)
class Chart:
    """A distribution drawn: its bars (`jdr.prob.shown`: every value holding at least 0.1 % of
    the chances, in value order) and the values left out, in words."""

    bars: list[Bar]
    tails: str
    """What the values not drawn hold ("" when every value is drawn)."""
    width: int
    floor: str
    """The least chance a value needs to be drawn (`jdr.prob.shown.FLOOR`), as a percentage."""


def chart(distribution: Any) -> Chart:
    """One bar per value holding at least 0.1 % of the chances, however many and wherever they
    are, scaled so the tallest is `CHART_HEIGHT` high (or, when one bar is over `BREAK` times
    any other, that bar broken and the others scaled to the next tallest); a gap where values
    are left out between two bars; the rest said in words.

    >>> drawn = chart([(0, 0.95), (1, 0.0495), (2, 0.0005)])
    >>> [bar.label for bar in drawn.bars], drawn.tails
    (['0', '1'], '0.05 % of the chances above 1')
    >>> [(bar.height, bar.broken) for bar in drawn.bars]
    [(120, True), (96, False)]
    """
    from jdr.prob.shown import FLOOR, shown_rows, tails_text, value_text

    rows = [(value, Fraction(p) if isinstance(p, str) else p) for value, p in distribution]
    held = shown_rows(rows)
    chances = [float(p) for _value, p in held.rows]
    ordered = sorted(chances, reverse=True) or [1.0]
    scale = ordered[0] or 1.0
    if len(ordered) > 1 and ordered[0] > BREAK * ordered[1]:
        scale = ordered[1] * 1.25
    labels = [value_text(value) for value, _p in held.rows]
    room = max((len(label) for label in labels), default=1) * LABEL_CHAR + 4
    bars: list[Bar] = []
    x, free, previous = 0, 0, None
    for (value, p), chance, label in zip(held.rows, chances, labels, strict=True):
        skipped = previous is not None and _skips(previous, value)
        x += GAP if skipped else 0
        labelled = x >= free
        free = x + room if labelled else free
        bars.append(
            Bar(
                x,
                BAR_WIDTH,
                min(CHART_HEIGHT, max(1, round(CHART_HEIGHT * chance / scale))),
                label,
                percent(p),
                labelled,
                chance > scale,
                chance == ordered[0],
                skipped,
            )
        )
        x += BAR_STEP
        previous = value
    return Chart(bars, tails_text(held), max(x, 120), percent(FLOOR))


def _skips(before: Any, value: Any) -> bool:
    """Whether whole values are left out between two values drawn side by side."""
    if isinstance(before, int) and isinstance(value, int):
        return value != before + 1
    return False


@dataclass(frozen=True)
class LuckBar:
    """One roller's luck as a bar: where their dice total falls among every total those dice
    could have made (50 % is exactly as lucky as expected)."""

    actor: str
    y: int
    width: int
    percent: str
    rolls: int
    dice: int
    luck: int
    mean: str


LUCK_WIDTH = 300


def luck_bars(report: Any) -> list[LuckBar]:
    """`jdr.journal.luck.audit`'s report as bars of a chart.

    >>> from jdr.journal.luck import audit
    >>> [(b.actor, b.percent) for b in luck_bars(audit([("Kai", [(6, 6), (6, 6)])]))]
    [('Kai', '98.61 %')]
    """
    return [
        LuckBar(
            str(each.actor),
            i * 28,
            round(LUCK_WIDTH * float(each.percentile)),
            percent(each.percentile),
            each.rolls,
            each.dice,
            each.observed,
            decimal(each.mean, 1),
        )
        for i, each in enumerate(report)
    ]
