"""`jdr simulate [SYSTEM] [--campaign C] --with A,B --against X,Y`: who wins a fight, and how
often (stored characters of the campaign, or sheet files `NAME.toml`, or both). Given
`--campaign`, SYSTEM may be left out: the campaign's own system plays.

Thin over `jdr.simulate.lineup` (who fights) and `jdr.simulate.service` (the runs): options in,
a table (or `--json`, or `--chart`, `jdr.cli.simulate_report`) out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from jdr.cli.render import emit_json
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, campaign_system, opened
from jdr.errors import InputError
from jdr.i18n import N_, _

Json = dict[str, Any]

RUNS_HELP = N_(
    "Fights to play (default: until each side's 95 % interval is within ±1 point; 500 fights for"
    " a walkover, 9604 at most)."
)


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
        # SYSTEM, the one argument, follows --with and --against here only because it has a
        # default now: on the command line it comes first as before.
        system: Annotated[
            str | None,
            typer.Argument(
                metavar="[SYSTEM]",
                help=_("The rule system (default: the campaign's, with --campaign)."),
                show_default=False,
            ),
        ] = None,
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
    system_id: str | None,
    campaign: str | None,
    with_: str,
    against: str,
    plan: Plan,
    vary: list[str] | None,
    chart: Path | None,
    db: str | None,
    json: bool,
) -> None:
    from jdr.campaigns import system_played
    from jdr.cli.sheet_files import read_sheet
    from jdr.cli.simulate_report import check_chart, draw_chart, print_report, progress
    from jdr.simulate import lineup
    from jdr.simulate.core import DEFAULT_RUNS, simulation_of, tactic_named
    from jdr.simulate.service import run, side_names
    from jdr.systems import default_registry

    if system_id is None and campaign is None:
        raise InputError(
            "SYSTEM",
            None,
            _("a rule system's id, or --campaign NAME (its system)"),
            _("no rule system given"),
        )
    if chart is not None:
        check_chart(chart)
    if system_id is None:
        assert campaign is not None
        system_id = campaign_system(campaign, db)
    system = default_registry().get(system_id)
    simulation = simulation_of(system)  # a system without one says so before any sheet is read
    if plan.tactic is not None:
        tactic_named(simulation, plan.tactic)
    sides = lineup.sides_typed(with_, against)
    lineup.needs_campaign(sides, campaign)
    stored: dict[str, Json] = {}
    if lineup.stored_names(sides):
        assert campaign is not None
        with opened(db) as store:
            found = store.campaign(campaign)
            system_played(store, found.name, system.id)  # the campaign plays SYSTEM
            stored = lineup.stored_fighters(store, found, sides)
    fighters = lineup.line_up(system, sides, stored, read_sheet)
    named = side_names(fighters, plan.sides)
    changes, swaps = lineup.variants(system, vary or (), read_sheet)
    most = (plan.runs or DEFAULT_RUNS) * (2 if vary else 1)
    with progress(most, not json) as progressing:
        report = run(
            system,
            fighters,
            runs=plan.runs,
            seed=plan.seed,
            workers=plan.workers,
            scheduler=plan.scheduler,
            variant=changes,
            progress=progressing,
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
