"""A simulation's report as rows of words, in the reader's language: what `jdr simulate` prints
and the web table's simulation page shows (one place, so the two cannot drift).

>>> from jdr.simulate.core import Rate, Report
>>> report = Report(10, 0, {"Ann": "a", "Bo": "b"}, {"a": Rate(7, 10), "b": Rate(3, 10)},
...                 Rate(0, 10), {2: 6, 3: 4}, {"Ann": Rate(3, 10), "Bo": Rate(7, 10)},
...                 {"Ann": 4.0, "Bo": 2.5}, {"Ann": 2.5, "Bo": 4.0})
>>> side_rows(report)[0][:2], round_rows(report)[0], fighter_rows(report)[1][2]
(('a', '70.0 %'), ('2', '60.0 %'), '70.0 %')
>>> fighter_headers(report)
['fighter', 'side', 'knocked out', 'damage dealt', 'damage taken']
"""

from __future__ import annotations

from collections.abc import Sequence

from jdr.i18n import N_, _
from jdr.numbers import decimal, significant
from jdr.simulate.core import DEFAULT_TACTIC, MAX_ACTIONS, Report
from jdr.systems.protocol import Gauge


def percent(value: float) -> str:
    """`61.6 %`, `61,6 %` in French (`jdr.numbers`)."""
    return f"{decimal(100 * value, 1)} %"


def signed(value: float) -> str:
    """`+2.4`, `-0.6`: a difference in points, with its sign."""
    text = decimal(value, 1)
    return text if text.startswith("-") else f"+{text}"


BUILT_IN_TACTICS = (N_("default"), N_("countering"))
"""The built-in tactics' names, for the catalog: a name is shown through `_` (a plug-in's
tactic without a translation shows as it is named)."""


def tactic_label(name: str) -> str:
    """A tactic's name in the reader's language: `countering` is `contre-attaque` in French."""
    return _(name)


def heading(report: Report) -> str:
    """How the fights were played: how many, why that many, the seed, and the tactic when it is
    not the default.

    >>> from jdr.simulate.core import Rate, Report
    >>> report = Report(500, 3, {}, {}, Rate(0, 500), {}, {}, {}, {}, precision=0.01)
    >>> heading(report)
    '500 fights (until each side is known within ±1 point), seed 3'
    """
    if report.precision is None:
        text = _("{runs} fights, seed {seed}").format(runs=report.runs, seed=report.seed)
    else:
        text = _("{runs} fights (until each side is known within ±{points} point), seed {seed}")
        text = text.format(
            runs=report.runs, seed=report.seed, points=significant(100 * report.precision, 3)
        )
    if report.tactic != DEFAULT_TACTIC:
        text += _(", tactic {tactic}").format(tactic=tactic_label(report.tactic))
    return text


def undecided_note(report: Report) -> str:
    """Why some fights have no winner, when some have none (else ``)."""
    if not report.undecided.hits:
        return ""
    return _(
        "no winner: a draw, a fight that could no longer end (nobody able to hurt anybody any"
        " more) or one cut after {most} commands"
    ).format(most=MAX_ACTIONS)


def mean_rounds(report: Report) -> str:
    """The mean number of rounds (of hands, in Polédémos)."""
    if report.columns.rounds == "hands":
        return _("mean hands: {mean}").format(mean=decimal(report.mean_rounds, 2))
    return _("mean rounds: {mean}").format(mean=decimal(report.mean_rounds, 2))


def side_rows(report: Report) -> list[tuple[str, str, str]]:
    """Each side's wins and their 95 % interval, then the fights nobody won (if any)."""
    rows = []
    for side, rate in report.wins.items():
        low, high = rate.interval
        rows.append((side, percent(rate.rate), f"{percent(low)} – {percent(high)}"))
    if report.undecided.hits:
        low, high = report.undecided.interval
        rows.append(
            (_("no winner"), percent(report.undecided.rate), f"{percent(low)} – {percent(high)}")
        )
    return rows


def fighter_headers(report: Report) -> list[str]:
    """The fighters table's headers, as the system names its measures (`Columns`: Polédémos's
    are PA gained and activations)."""
    columns = report.columns
    measures = [columns.knocked_out, columns.dealt, columns.taken]
    return [_("fighter"), _("side"), *(_(label) for label in measures if label is not None)]


def fighter_rows(report: Report) -> list[tuple[str, ...]]:
    """Each fighter: side, chance of being knocked out, mean damage dealt and taken (the
    system's measures: `fighter_headers`)."""
    rows = []
    for name, side in report.sides.items():
        row = [name, side]
        if report.columns.knocked_out is not None:
            row.append(percent(report.knocked_out[name].rate))
        row.append(decimal(report.dealt[name], 2))
        if report.columns.taken is not None:
            row.append(decimal(report.taken[name], 2))
        rows.append(tuple(row))
    return rows


def rounds_header(report: Report) -> str:
    """What the system's rounds are called (Polédémos: hands)."""
    return _(report.columns.rounds)


def gauge_text(gauge: Gauge) -> str:
    """`Énergie 3/10`; an item's: `Multi-shurikens Énergie 5/5`."""
    if gauge.item is not None:
        return _("{item} Énergie {now}/{max}").format(
            item=gauge.item, now=gauge.current, max=gauge.max
        )
    return f"{_(gauge.name)} {gauge.current}/{gauge.max}"


def start_note(report: Report) -> str:
    """What the fights start from: the sheets at full gauges, or as they are (`--as-is`); a
    system without gauges (Ilvermorny, Polédémos) says it has none to fill.

    >>> from jdr.simulate.core import Rate, Report
    >>> start_note(Report(1, 0, {}, {}, Rate(0, 1), {}, {}, {}, {}, start={"A": [Gauge("Énergie",
    ...     1, 2)]}))
    'start: the sheets with every gauge full (--as-is keeps their current gauges)'
    """
    if not any(report.start.values()):
        return _("start: the sheets as they are (they have no gauges to fill)")
    if report.as_is:
        return _("start: the sheets as they are, with their current gauges (--as-is)")
    return _("start: the sheets with every gauge full (--as-is keeps their current gauges)")


def start_rows(report: Report) -> list[tuple[str, str]]:
    """Each fighter's gauges as the fights start (none for a system without gauges)."""
    return [
        (name, ", ".join(gauge_text(gauge) for gauge in gauges))
        for name, gauges in report.start.items()
        if gauges
    ]


def start_warnings(report: Report) -> list[str]:
    """One warning per gauge that starts the fights at 0 (`Report.at_zero`).

    >>> from jdr.simulate.core import Rate, Report
    >>> report = Report(1, 0, {}, {}, Rate(0, 1), {}, {}, {}, {}, as_is=True,
    ...                 start={"Pika": [Gauge("Énergie", 0, 10)]})
    >>> start_warnings(report)
    ['warning: Pika starts at 0 Énergie (0/10)']
    """
    return [
        _("warning: {fighter} starts at 0 {gauge} ({now}/{max})").format(
            fighter=name,
            gauge=gauge.item + " " + _(gauge.name) if gauge.item else _(gauge.name),
            now=gauge.current,
            max=gauge.max,
        )
        for name, gauge in report.at_zero
    ]


def round_rows(report: Report) -> list[tuple[str, str]]:
    """How many fights lasted each number of rounds."""
    return [(str(count), percent(fights / report.runs)) for count, fights in report.rounds.items()]


def differences(report: Report, variant: Sequence[str]) -> list[str]:
    """What a variant changed, one sentence per side."""
    sentences = []
    for difference in report.compare:
        low, high = difference.interval
        sentences.append(
            _("with {variant}: side {side} wins {delta} points (95 %: {low} … {high})").format(
                variant=", ".join(variant),
                side=difference.side,
                delta=signed(100 * difference.delta),
                low=signed(100 * low),
                high=signed(100 * high),
            )
        )
    return sentences
