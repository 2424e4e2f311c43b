"""What `jdr simulate` shows besides its options: a progress bar for a long simulation, the
report as tables, and `--chart`'s picture (checked before any fight is played).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jdr.cli.render import console
from jdr.i18n import _

if TYPE_CHECKING:
    from jdr.simulate.core import Report

PROGRESS_AFTER = 1.0
"""Seconds before the progress bar shows (a shorter simulation prints only its report)."""


class _Progress:
    """A Rich progress bar that shows only once a simulation has run for a second."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled = total, enabled
        self.started = time.monotonic()
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, done: int) -> None:
        if not self.enabled:
            return
        if self.bar is None and time.monotonic() - self.started >= PROGRESS_AFTER:
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(_("fights"), total=self.total)
        if self.bar is not None:
            self.bar.update(self.task, completed=done)

    def __enter__(self) -> Callable[[int], None]:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def progress(total: int, enabled: bool) -> _Progress:
    return _Progress(total, enabled and sys.stderr.isatty())


def print_report(report: Report, vary: list[str] | None) -> None:
    from rich.table import Table

    from jdr.simulate.view import (
        differences,
        fighter_headers,
        fighter_rows,
        heading,
        mean_rounds,
        round_rows,
        rounds_header,
        side_rows,
        start_note,
        start_rows,
        start_warnings,
        undecided_note,
    )

    out = console()
    out.print(heading(report), markup=False)
    out.print(start_note(report), markup=False)
    gauges = start_rows(report)
    if gauges:
        start = Table(_("fighter"), _("starting gauges"))
        for gauge_row in gauges:
            start.add_row(*gauge_row)
        out.print(start)
    for warning in start_warnings(report):
        out.print(warning, markup=False, style="bold")
    sides = Table(_("side"), _("wins"), _("95 % interval"))
    for row in side_rows(report):
        sides.add_row(*row)
    out.print(sides)
    if report.undecided.hits:
        out.print(undecided_note(report), markup=False)
    fighters = Table(*fighter_headers(report))
    for fighter in fighter_rows(report):
        fighters.add_row(*fighter)
    out.print(fighters)
    rounds = Table(rounds_header(report), _("fights"))
    for line in round_rows(report):
        rounds.add_row(*line)
    out.print(rounds)
    out.print(mean_rounds(report), markup=False)
    for sentence in differences(report, vary or ()):
        out.print(sentence, markup=False)


def check_chart(path: Path) -> None:
    """Refuse `--chart` before any fight is played: matplotlib missing, an image format it does
    not write, or a path that is not a regular file or a new one (`check_target`)."""
    from jdr.cli.stored import check_target
    from jdr.errors import InputError

    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
    except ImportError:
        raise InputError(
            "--chart", None, "pip install 'jdr[sim]'", _("matplotlib is not installed")
        ) from None
    formats = FigureCanvasAgg.get_supported_filetypes()
    if _chart_format(path) not in formats:
        raise InputError(
            "--chart", str(path), ", ".join(sorted(formats)), _("not an image format jdr draws")
        )
    check_target(path, "--chart")


def _chart_format(path: Path) -> str:
    """The image format `path` names by its extension (PNG without one)."""
    return path.suffix[1:].lower() or "png"


def draw_chart(report: Report, path: Path) -> None:
    """Two panels: each side's win rate with its interval, and the rounds distribution; drawn
    in memory, then written as `--output` is (`write_output`: a failed write says so, and only
    a regular file is replaced)."""
    import io

    import matplotlib

    from jdr.cli.stored import write_output

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (wins, rounds) = plt.subplots(1, 2, figsize=(10, 4))
    names = list(report.wins)
    rates = [report.wins[s].rate for s in names]
    errors = [
        [r - report.wins[s].interval[0] for s, r in zip(names, rates, strict=True)],
        [report.wins[s].interval[1] - r for s, r in zip(names, rates, strict=True)],
    ]
    wins.bar(names, rates, yerr=errors, capsize=6)
    wins.set_ylim(0, 1)
    wins.set_title(_("wins"))
    rounds.bar([str(r) for r in report.rounds], [n / report.runs for n in report.rounds.values()])
    rounds.set_title(_(report.columns.rounds))
    figure.tight_layout()
    image = io.BytesIO()
    try:
        figure.savefig(image, format=_chart_format(path))
    finally:
        plt.close(figure)
    write_output(path, image.getvalue(), "--chart")
