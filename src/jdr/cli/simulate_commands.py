"""`jdr simulate SYSTEM [--campaign C] --with A,B --against X,Y`: who wins a fight, and how often
(stored characters of the campaign, or sheet files `NAME.toml`, or both).

Thin over `jdr.simulate.service`: options in, a table (or `--json`, or `--chart`) out.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from jdr.cli.render import console, emit_json
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, opened
from jdr.i18n import N_, _

if TYPE_CHECKING:
    from jdr.simulate.core import Report

Json = dict[str, Any]

RUNS_HELP = N_(
    "Fights to play (default: until each side's 95 % interval is within ±1 point; 500 fights for"
    " a walkover, 9604 at most)."
)
PROGRESS_AFTER = 1.0
"""Seconds before the progress bar shows (a shorter simulation prints only its report)."""


def register(app: typer.Typer) -> None:
    @app.command(
        "simulate",
        help=_(
            "Play a fight between stored characters many times, each playing the system's"
            " default tactic: each side's chance to win, rounds, knock-outs, damage. Fighters"
            " start from their sheets with every gauge full and no condition, as a fresh fight"
            " (--as-is: from their current gauges); the report shows each one's starting"
            " gauges and warns of a gauge at 0."
        ),
    )
    def simulate_command(
        system: Annotated[str, typer.Argument(metavar="SYSTEM", help=_("The rule system."))],
        with_: Annotated[
            str,
            typer.Option(
                "--with",
                metavar="A,B,…",
                help=_("Side a: stored character names, or sheet files (NAME.toml)."),
            ),
        ],
        against: Annotated[
            str,
            typer.Option(
                "--against",
                metavar="X,Y,…",
                help=_("Side b: stored character names, or sheet files (NAME.toml)."),
            ),
        ],
        campaign: Annotated[
            str | None,
            typer.Option(
                "--campaign",
                metavar="NAME",
                help=_("The campaign of the stored characters (not needed for sheet files)."),
            ),
        ] = None,
        runs: Annotated[
            int | None, typer.Option("--runs", metavar="N", help=_(RUNS_HELP), show_default=False)
        ] = None,
        tactic: Annotated[
            str | None,
            typer.Option(
                "--tactic",
                metavar="NAME",
                help=_(
                    "The tactic every fighter plays: default, or another the system names"
                    " (pokemon: countering; a wrong name lists them)."
                ),
                show_default=False,
            ),
        ] = None,
        seed: Annotated[
            int,
            typer.Option("--seed", metavar="N", help=_("Seed: the same seed, the same report.")),
        ] = 0,
        as_is: Annotated[
            bool,
            typer.Option(
                "--as-is",
                help=_(
                    "Start from the sheets' current gauges and conditions (right after a"
                    " fight: what it left) rather than full ones."
                ),
            ),
        ] = False,
        side: Annotated[
            list[str] | None,
            typer.Option(
                "--side",
                metavar="NAME=SIDE",
                help=_(
                    "Name the side of a fighter, as jdr fight new does (--side"
                    " Pikachu=héros); default: its fighters' names."
                ),
            ),
        ] = None,
        workers: Annotated[
            int | None,
            typer.Option(
                "--workers", metavar="N", help=_("Processes to use (default: one per core).")
            ),
        ] = None,
        scheduler: Annotated[
            str | None,
            typer.Option(
                "--scheduler",
                metavar="tcp://HOST:8786",
                help=_("A Dask scheduler to spread the runs over (pip install 'jdr[dask]')."),
            ),
        ] = None,
        vary: Annotated[
            list[str] | None,
            typer.Option(
                "--vary",
                "--compare",
                metavar="NAME.FIELD=+1|NAME=FILE.toml",
                help=_(
                    "Also simulate a variant (a changed field, or another sheet for a fighter,"
                    " given as the fighter's name, =, and the sheet's file; repeat to change"
                    " several at once) and report the difference."
                ),
            ),
        ] = None,
        chart: Annotated[
            Path | None,
            typer.Option(
                "--chart",
                metavar="OUT.png",
                help=_("Draw the win rates and rounds (pip install 'jdr[sim]')."),
            ),
        ] = None,
        db: Annotated[
            str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
        ] = None,
        json: Annotated[bool, typer.Option("--json", help=_(JSON_HELP))] = False,
        lang: Annotated[
            str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))
        ] = None,
    ) -> None:
        simulate_cli(
            system,
            campaign,
            with_,
            against,
            Plan(runs, seed, workers, scheduler, tactic, as_is, side or []),
            vary,
            chart,
            db,
            json,
        )


@dataclass(frozen=True)
class Plan:
    """How to play the runs: how many (None: until ±1 point), the seed, where, which tactic."""

    runs: int | None
    seed: int
    workers: int | None
    scheduler: str | None
    tactic: str | None
    as_is: bool = False
    sides: list[str] = field(default_factory=list)


def simulate_cli(
    system_id: str,
    campaign: str | None,
    with_: str,
    against: str,
    plan: Plan,
    vary: list[str] | None,
    chart: Path | None,
    db: str | None,
    json: bool,
) -> None:
    from jdr.cli.sheet_files import read_sheet
    from jdr.errors import InputError
    from jdr.simulate.core import DEFAULT_RUNS, simulation_of, tactic_named
    from jdr.simulate.service import (
        run,
        sheet_fighter,
        side_names,
        sides_checked,
        stored_fighter,
    )
    from jdr.systems import default_registry

    if chart is not None:
        _check_chart(chart)
    system = default_registry().get(system_id)
    simulation = simulation_of(system)  # a system without one says so before any sheet is read
    if plan.tactic is not None:
        tactic_named(simulation, plan.tactic)
    given = ((with_, "a"), (against, "b"))
    sides = [(typed, side) for text, side in given for typed in _names(text)]
    fighters: list[Json] = []
    stored = [typed for typed, _side in sides if not _is_file(typed)]
    if stored and campaign is None:
        raise InputError(
            "--campaign",
            None,
            _("a campaign's name"),
            _("{name} is no sheet file (NAME.toml): a stored character needs --campaign").format(
                name=stored[0]
            ),
        )
    if stored:
        assert campaign is not None
        with opened(db) as store:
            found = store.campaign(campaign)
            if found.system != system.id:
                raise InputError(
                    "SYSTEM", system_id, found.system, _("the campaign plays another rule system")
                )
            by_name = {
                typed: stored_fighter(store, found.id, typed, side)
                for typed, side in sides
                if not _is_file(typed)
            }
    for typed, side in sides:
        if _is_file(typed):
            data, label = read_sheet(Path(typed))
            fighters.append(sheet_fighter(system, data, label, side))
        else:
            fighters.append(by_name[typed])
    fighters = sides_checked(fighters)
    named = side_names(fighters, plan.sides)
    changes, swaps = [], []
    for change in vary or ():
        name, equals, value = change.partition("=")
        if equals and "." not in name and _is_file(value.strip()):  # NAME=FILE.toml
            data, label = read_sheet(Path(value.strip()))
            swaps.append(sheet_fighter(system, data, label, "-") | {"name": name.strip()})
        else:
            changes.append(change)
    most = (plan.runs or DEFAULT_RUNS) * (2 if vary else 1)
    with _progress(most, not json) as progress:
        report = run(
            system,
            fighters,
            runs=plan.runs,
            seed=plan.seed,
            workers=plan.workers,
            scheduler=plan.scheduler,
            variant=changes,
            progress=progress,
            swaps=swaps,
            tactic=plan.tactic,
            as_is=plan.as_is,
            sides=named,
        )
    if chart is not None:
        draw_chart(report, chart)
    if json:
        emit_json({"system": system.id, "campaign": campaign, "variant": vary} | report.to_json())
        return
    print_report(report, vary)


def _is_file(typed: str) -> bool:
    """Whether a `--with`/`--against` item is a sheet file rather than a stored name."""
    return typed.lower().endswith(".toml")


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


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


def _progress(total: int, enabled: bool) -> _Progress:
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


def _check_chart(path: Path) -> None:
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
