"""Which values of a distribution a chart or a table shows, and the rest in words.

One rule for every front end: every value that holds at least `FLOOR` (0.1 %) of the chances is
shown, in value order, whatever its position (a 90 % bar at 0 beside a long tail of damage is
drawn); what is left out is never lost, but said: so much of the chances below the first value
shown, so much above the last, so much between the values shown. A table with a row budget
(`limit`) keeps its likeliest rows and says the rest the same way.

>>> held = shown_rows([(0, 0.9), (1, 0.0995), (2, 0.0005)])
>>> [value for value, _p in held.rows], held.above, held.left_out
([0, 1], 0.0005, 1)
>>> print(tails_text(held))
0.05 % of the chances above 1
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from jdr.i18n import _, ngettext
from jdr.numbers import percent

FLOOR = Fraction(1, 1000)
"""The least share of the chances a value needs to be drawn on its own (0.1 %)."""
MAX_GAPS = 3
"""Runs of values left out between values shown, said one by one up to this many."""


@dataclass(frozen=True)
class Shown:
    """A distribution's rows to show, and what the others hold."""

    rows: list[tuple[Any, Any]]
    """`(value, probability)` shown, in value order."""
    below: Any
    """The chances of the values left out below the first value shown."""
    above: Any
    """The chances of the values left out above the last value shown."""
    gaps: list[tuple[Any, Any, Any]]
    """`(shown value, next shown value, chances)` of each run of values left out between two
    values shown."""
    left_out: int
    """How many values are not shown."""
    lowest: Any = None
    """The distribution's lowest value (None when it has none)."""
    highest: Any = None
    """The distribution's highest value."""

    @property
    def between(self) -> Any:
        """The chances of the values left out between two values shown."""
        return sum((p for _low, _high, p in self.gaps), self.below * 0)

    @property
    def missing(self) -> Any:
        """The chances of every value left out."""
        return self.below + self.above + self.between


def shown_rows(
    distribution: Iterable[tuple[Any, Any]], floor: Any = FLOOR, limit: int | None = None
) -> Shown:
    """The rows of `distribution` (`(value, probability)`, lowest value first) that hold at
    least `floor` of the chances, all of them; with `limit`, only the `limit` likeliest of those
    (ties: the lower values), still in value order. Found in linear time: a 2,000,000-row
    distribution is chosen from in well under a second.

    >>> held = shown_rows([(1, 0.1), (2, 0.5), (3, 0.3), (4, 0.1)], floor=0, limit=2)
    >>> held.rows, held.below, held.above
    ([(2, 0.5), (3, 0.3)], 0.1, 0.1)
    """
    import numpy as np

    rows = list(distribution)
    zero: Any = Fraction(0) if rows and isinstance(rows[0][1], Fraction) else 0.0
    if not rows:
        return Shown([], zero, zero, [], 0)
    chances = np.fromiter((float(p) for _value, p in rows), float, len(rows))
    keep = np.flatnonzero(chances >= float(floor))
    if limit is not None and len(keep) > limit:
        order = np.lexsort((keep, -chances[keep]))  # likeliest first, then the lower value
        keep = np.sort(keep[order[:limit]])
    kept = set(keep.tolist())
    first = int(keep[0]) if len(keep) else len(rows)
    last = int(keep[-1]) if len(keep) else -1
    below, above = zero, zero
    gaps: list[list[Any]] = []  # [shown value before, shown value after, chances]
    previous: Any = None  # the last value shown so far
    for index, (value, p) in enumerate(rows):
        if index in kept:
            if gaps and gaps[-1][1] is None:
                gaps[-1][1] = value
            previous = value
        elif index < first:
            below += p
        elif index > last:
            above += p
        elif gaps and gaps[-1][1] is None:
            gaps[-1][2] += p
        else:
            gaps.append([previous, None, p])
    return Shown(
        [rows[i] for i in keep.tolist()],
        below,
        above,
        [(low, high, p) for low, high, p in gaps],
        len(rows) - len(kept),
        rows[0][0],
        rows[-1][0],
    )


def tails_text(shown: Shown) -> str:
    """What the values left out hold, in words of the current language ("" when none is):
    `0.30 % of the chances below 2, 0.10 % above 40`."""
    if not shown.left_out:
        return ""
    if not shown.rows:
        return ngettext(
            "no single value holds {floor} of the chances: {count} value from {low} to {high}",
            "no single value holds {floor} of the chances: {count} values from {low} to {high}",
            shown.left_out,
        ).format(
            floor=percent(FLOOR),
            count=shown.left_out,
            low=value_text(shown.lowest),
            high=value_text(shown.highest),
        )
    parts: list[tuple[str, str, dict[str, str]]] = []  # (first wording, later wording, values)
    if shown.below:
        parts.append(
            (
                _("{p} of the chances below {value}"),
                _("{p} below {value}"),
                {"p": percent(shown.below), "value": value_text(shown.rows[0][0])},
            )
        )
    if len(shown.gaps) > MAX_GAPS:
        parts.append(
            (
                _("{p} of the chances between the values shown"),
                _("{p} between the values shown"),
                {"p": percent(shown.between)},
            )
        )
    else:
        parts += [
            (
                _("{p} of the chances between {low} and {high}"),
                _("{p} between {low} and {high}"),
                {"p": percent(p), "low": value_text(low), "high": value_text(high)},
            )
            for low, high, p in shown.gaps
        ]
    if shown.above:
        parts.append(
            (
                _("{p} of the chances above {value}"),
                _("{p} above {value}"),
                {"p": percent(shown.above), "value": value_text(shown.rows[-1][0])},
            )
        )
    return ", ".join(
        (first if i == 0 else later).format(**values)
        for i, (first, later, values) in enumerate(parts)
    )


def value_text(value: Any) -> str:
    """A value as a table shows it: a number, or `(a, b)` for a value of several numbers."""
    if isinstance(value, tuple | list):
        return "(" + ", ".join(map(str, value)) + ")"
    return str(value)
