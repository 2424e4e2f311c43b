"""What the pages show, computed from the services' values: SVG bars of a distribution, the
post-ready copies of a roll (BBCode, Markdown) with user text escaped for each medium.

>>> [bar.height for bar in svg_bars([(0, 0.25), (1, 0.75)])]
[40, 120]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from jdr.i18n import current_language
from jdr.journal.entries import Entry, short
from jdr.markup import escape
from jdr.systems.protocol import Action, RuleSystem, display_name

CHART_HEIGHT = 120
MAX_BARS = 60


@dataclass(frozen=True)
class Bar:
    x: int
    width: int
    height: int
    label: str
    percent: str


def svg_bars(distribution: Any) -> list[Bar]:
    """One bar per value of a distribution (the most likely `MAX_BARS` around the middle),
    scaled so the tallest is `CHART_HEIGHT` high."""
    rows = [(value, float(Fraction(p) if isinstance(p, str) else p)) for value, p in distribution]
    if len(rows) > MAX_BARS:
        start = max(0, (len(rows) - MAX_BARS) // 2)
        rows = rows[start : start + MAX_BARS]
    top = max((p for _v, p in rows), default=0.0) or 1.0
    width = 12
    return [
        Bar(i * (width + 2), width, round(CHART_HEIGHT * p / top), str(value), f"{p:.1%}")
        for i, (value, p) in enumerate(rows)
    ]


def journal_line(entry: Entry) -> str:
    return f"journal #{entry.seq} · {short(entry.hash)} · {entry.commitment[:16]}…"


def recap_texts(
    system: RuleSystem, action: Action[Any], explanation: str, entry: Entry
) -> dict[str, str]:
    """A roll ready to paste on a forum: BBCode and Markdown, every line escaped for its
    medium (a name a player typed stays text)."""
    from jdr.labels import action_label

    title = f"{display_name(system, current_language())} · {action_label(action)}"
    line = journal_line(entry)
    lines = explanation.splitlines()
    bbcode = "\n".join(
        [f"[b]{escape(title, 'bbcode')}[/b]"]
        + [escape(text, "bbcode") for text in lines]
        + [f"[size=85]{escape(line, 'bbcode')}[/size]"]
    )
    markdown = "\n".join(
        [f"**{escape(title, 'markdown')}**", ""]
        + [escape(text, "markdown") + "  " for text in lines]
        + ["", f"*{escape(line, 'markdown')}*"]
    )
    return {"bbcode": bbcode, "markdown": markdown}


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
    [('Kai', '98.6%')]
    """
    return [
        LuckBar(
            str(each.actor),
            i * 28,
            round(LUCK_WIDTH * float(each.percentile)),
            f"{float(each.percentile):.1%}",
            each.rolls,
            each.dice,
            each.observed,
            f"{float(each.mean):.1f}",
        )
        for i, each in enumerate(report)
    ]
