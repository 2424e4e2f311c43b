"""`jdr fight new|act|commands|show|log|undo|redo|recap|end|odds`: play a stored fight, one command
per process, told in sentences.

Every command takes `--db URL`, `--json` (one JSON object on stdout) and `--lang`. The fight's
state is never kept between commands: each one folds the stored events again. This module
declares the commands and their options; each one calls one function of the core
(`jdr.fights.playing`, `queries`, `recaps`) through `fight_play`, `fight_show` or `fight_odds`,
which print what it returns (the systems' narration, views and command models).

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from collections.abc import Callable
from functools import partial
from typing import Annotated

import typer

from jdr.cli import complete
from jdr.cli.fight_odds import odds
from jdr.cli.fight_outcome import add_outcome_commands
from jdr.cli.fight_parsing import COMMAND_HELP, FORMATS, ON_LATE, SEATS, ActCommand, seat
from jdr.cli.fight_play import act, command_keys, commands, new, undo_redo
from jdr.cli.fight_show import late, log, pace, recap, show
from jdr.cli.stored import CLIENT_SEED_HELP, DB_HELP, JSON_HELP, LANG_HELP
from jdr.i18n import N_, _

__all__ = ["build_fight"]

FIGHT_HELP = N_("The fight's number.")
FACES_HELP = N_("Faces already rolled, in roll order.")
SEED_HELP = N_("Seed for a reproducible roll.")


def build_fight() -> typer.Typer:
    """`jdr fight new|act|commands|show|log|undo|redo|recap|end`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    faces_option = Annotated[
        str | None, typer.Option("--faces", metavar="F,F,…", help=_(FACES_HELP))
    ]
    seed_option = Annotated[str | None, typer.Option("--seed", metavar="N", help=_(SEED_HELP))]
    deadline_option = Annotated[
        str | None,
        typer.Option(
            "--deadline",
            metavar="48h",
            help=_("A turn's deadline, for play by post: 48h, 2d, 30m, or none."),
        ),
    ]
    on_late_option = Annotated[
        str | None,
        typer.Option(
            "--on-late",
            metavar=ON_LATE.metavar(),
            parser=ON_LATE,
            help=_(
                "When a turn passes its deadline: the system's safe default (defend, wait,"
                " pass …) or the GM decides."
            ),
        ),
    ]
    fight_argument = Annotated[int, typer.Argument(metavar="FIGHT", help=_(FIGHT_HELP))]
    actor_argument = Annotated[
        str,
        typer.Argument(metavar="ACTOR", help=_("Who acts."), autocompletion=complete.fighters),
    ]
    pairs_argument = Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[KEY=VALUE]…",
            help=_("The command's keys."),
            autocompletion=complete.fight_keys,
        ),
    ]
    app = typer.Typer(
        help=_("Fights: start one from stored sheets, act, show, undo and redo."),
        no_args_is_help=True,
        rich_markup_mode=None,
    )

    @app.command("new", help=_("Start a fight between stored characters of a campaign."))
    def new_command(
        campaign: Annotated[
            str,
            typer.Option(
                "--campaign",
                metavar="NAME",
                help=_("The campaign's name."),
                autocompletion=complete.campaigns,
            ),
        ],
        with_: Annotated[
            str,
            typer.Option(
                "--with",
                metavar="A,B,…",
                help=_("The fighters: stored character names."),
                autocompletion=complete.character_lists,
            ),
        ],
        side: Annotated[
            list[str] | None,
            typer.Option(
                "--side",
                metavar="NAME=SIDE",
                help=_('A fighter\'s side (default: "a" for the first, "b" for the others).'),
            ),
        ] = None,
        order: Annotated[
            str | None, typer.Option("--order", metavar="A,B,…", help=_("The order of play."))
        ] = None,
        setting: Annotated[
            list[str] | None,
            typer.Option(
                "--setting",
                metavar="KEY=VALUE",
                help=_(
                    "A table's setting for this fight, e.g. reactions=dodge (Pokémon: the"
                    " defender's answer given at once)."
                ),
            ),
        ] = None,
        deadline: deadline_option = None,
        on_late: on_late_option = None,
        seed: seed_option = None,
        faces: faces_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        new(campaign, with_, side, order, setting, seed, faces, db, json, deadline, on_late)

    @app.command(
        "act",
        cls=ActCommand,
        help=_(
            "Play a command in a fight: FIGHT ACTOR COMMAND [key=value …]; "
            "FIGHT ACTOR COMMAND --help shows the command's keys."
        ),
    )
    def act_command(
        ctx: typer.Context,
        fight: fight_argument,
        actor: actor_argument,
        command: Annotated[
            str | None,
            typer.Argument(
                metavar="[COMMAND]",
                help=_("The command, e.g. attack."),
                autocompletion=complete.fight_commands,
            ),
        ] = None,
        pairs: pairs_argument = None,
        help_commands: Annotated[
            bool,
            typer.Option(
                "--help-commands", help=_("List what ACTOR may play now, and play nothing.")
            ),
        ] = False,
        client_seed: Annotated[
            str | None,
            typer.Option("--client-seed", metavar="TEXT", help=_(CLIENT_SEED_HELP)),
        ] = None,
        as_: Annotated[
            str,
            typer.Option(
                "--as",
                metavar=SEATS.metavar(),
                parser=SEATS,
                help=_(
                    "Who gives the command: the GM (every decision), or ACTOR's player, refused"
                    " any key that is someone else's choice (a hot-seat table)."
                ),
            ),
        ] = SEATS.name("gm"),  # shown in the reader's language, read as `gm`
        seed: seed_option = None,
        faces: faces_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        if ctx.meta.get(COMMAND_HELP) and command is not None:
            command_keys(fight, actor, command, db, json)
            return
        if help_commands:
            commands(fight, actor, None, db, json)
            return
        act(fight, actor, command, pairs, seed, faces, db, json, client_seed, seat(as_, actor))

    @app.command(
        "commands",
        help=_(
            "What may be played now in a fight (by ACTOR), with an example each; without FIGHT,"
            " every command of the systems, and with --json their JSON schema."
        ),
    )
    def commands_command(
        fight: Annotated[
            int | None, typer.Argument(metavar="[FIGHT]", help=_(FIGHT_HELP), show_default=False)
        ] = None,
        actor: Annotated[
            str | None,
            typer.Argument(
                metavar="[ACTOR]",
                help=_("Who would act."),
                autocompletion=complete.fighters,
                show_default=False,
            ),
        ] = None,
        system: Annotated[
            str | None,
            typer.Option(
                "--system",
                metavar="SYSTEM",
                help=_("Without FIGHT: this system's commands only."),
                autocompletion=complete.system_ids,
            ),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        commands(fight, actor, system, db, json)

    def on_fight(handler: Callable[[int, str | None, bool], None]) -> Callable[..., None]:
        """A command taking only FIGHT and the common options, calling `handler`."""

        def command(
            fight: fight_argument,
            db: db_option = None,
            json: json_option = False,
            lang: lang_option = None,
        ) -> None:
            handler(fight, db, json)

        return command

    for name, help_text, handler in (
        ("show", N_("Show a fight: where it stands, each fighter, the legal commands."), show),
        ("log", N_("Tell the story of a fight: every action, in sentences."), log),
        ("undo", N_("Take back the last action of a fight."), partial(undo_redo, redo=False)),
        ("redo", N_("Put back the action undone last."), partial(undo_redo, redo=True)),
    ):
        app.command(name, help=_(help_text))(on_fight(handler))

    @app.command(
        "recap",
        help=_(
            "Recap a fight, ready to post: its last action, round N, a fighter's last action "
            "(--actor) or the whole fight (--all); in Discord's format (--format discord), Markdown"
            " in messages of at most 2,000 characters each, numbered (1/3)."
        ),
    )
    def recap_command(
        fight: fight_argument,
        fmt: Annotated[
            str,
            typer.Option(
                "--format",
                metavar=FORMATS.metavar(),
                parser=FORMATS,
                help=_("The recap's format."),
            ),
        ] = FORMATS.name("text"),  # shown in the reader's language, read as `text`
        max_chars: Annotated[
            int | None,
            typer.Option(
                "--max-chars",
                metavar="N",
                help=_(
                    "Cut the recap into messages of at most N characters each (a forum's post"
                    " limit), between actions, never inside a line."
                ),
            ),
        ] = None,
        round_: Annotated[
            int | None,
            typer.Option("--round", metavar="N", help=_("Recap round N, not the last action.")),
        ] = None,
        actor: Annotated[
            str | None,
            typer.Option(
                "--actor",
                metavar="NAME",
                help=_("Recap this fighter's last action (Plus Ultra: its post, PU-11)."),
                autocompletion=complete.fighters,
            ),
        ] = None,
        whole: Annotated[bool, typer.Option("--all", help=_("Recap the whole fight."))] = False,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        recap(fight, fmt, round_, actor, whole, db, json, max_chars)

    add_outcome_commands(app)  # `outcome`, and `end` with --apply/--no-apply (sheets, issue 16)

    @app.command(
        "odds",
        help=_(
            "The odds of a fight command before it is played: FIGHT ACTOR COMMAND"
            " [key=value …], as the fight will roll it."
        ),
    )
    def odds_command(
        fight: fight_argument,
        actor: actor_argument,
        command: Annotated[
            str,
            typer.Argument(
                metavar="COMMAND",
                help=_("The command, e.g. attack."),
                autocompletion=complete.fight_commands,
            ),
        ],
        pairs: pairs_argument = None,
        exact: Annotated[bool, typer.Option("--exact", help=_("Exact fractions."))] = False,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        odds(fight, actor, command, pairs or [], exact, db, json)  # issue 29

    @app.command(
        "pace",
        help=_(
            "Set a fight's turn deadline (play by post) and what happens when it passes; the"
            " clock starts again now."
        ),
    )
    def pace_command(
        fight: fight_argument,
        deadline: deadline_option = None,
        on_late: on_late_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        pace(fight, deadline, on_late, db, json)

    @app.command(
        "late",
        help=_(
            "Play every turn gone past its deadline now, as each fight's pace says (what the"
            " web table's clock does; for a cron job)."
        ),
    )
    def late_command(
        campaign: Annotated[
            str | None,
            typer.Option(
                "--campaign",
                metavar="NAME",
                help=_("Only this campaign's fights."),
                autocompletion=complete.campaigns,
            ),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        late(campaign, db, json)

    return app
