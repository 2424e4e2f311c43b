"""A simulation's report as rows of words, in the reader's language: what `jdr simulate` prints
and the web table's simulation page shows (one place, so the two cannot drift).

>>> from jdr.simulate.core import Rate, Report
>>> report = Report(10, 0, {"Ann": "a", "Bo": "b"}, {"a": Rate(7, 10), "b": Rate(3, 10)},
...                 Rate(0, 10), {2: 6, 3: 4}, {"Ann": Rate(3, 10), "Bo": Rate(7, 10)},
...                 {"Ann": 4.0, "Bo": 2.5}, {"Ann": 2.5, "Bo": 4.0})
>>> side_rows(report)[0][:2], round_rows(report)[0], fighter_rows(report)[1][2]
(('a', '70.0 %'), ('2', '60.0 %'), '70.0 %')
"""

from __future__ import annotations

from collections.abc import Sequence

from jdr.i18n import N_, _
from jdr.numbers import decimal, significant
from jdr.simulate.core import DEFAULT_TACTIC, MAX_ACTIONS, Report


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


def fighter_rows(report: Report) -> list[tuple[str, str, str, str, str]]:
    """Each fighter: side, chance of being knocked out, mean damage dealt and taken."""
    return [
        (
            name,
            side,
            percent(report.knocked_out[name].rate),
            decimal(report.dealt[name], 2),
            decimal(report.taken[name], 2),
        )
        for name, side in report.sides.items()
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
