"""`jdr verify|systems|dice|serve|demo`: the commands at the top of `jdr` that no group holds.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from typing import Annotated

import typer

from jdr.cli import complete
from jdr.cli.stored import (
    ACTION_ID_HELP,
    ACTOR_HELP,
    CAMPAIGN_ROLL_HELP,
    CLIENT_SEED_HELP,
    DB_HELP,
    HIDDEN_HELP,
)
from jdr.i18n import _


def register(app: typer.Typer) -> None:
    """Add the top-level commands to `app`."""
    json_help = _("Print one JSON object on stdout.")
    lang_help = _("Language of the output.")
    host_option = Annotated[
        str, typer.Option("--host", metavar="ADDRESS", help=_("Address to listen on."))
    ]
    port_option = Annotated[
        int, typer.Option("--port", metavar="PORT", min=1, max=65535, help=_("Port."))
    ]

    @app.command(
        "verify",
        help=_(
            "Check an exported journal offline: seeds, hash chain, every die and result."
            " Exit 1 at a discrepancy."
        ),
    )
    def verify_command(
        file: Annotated[
            str,
            typer.Argument(
                metavar="FILE.json", help=_("A journal from `jdr journal export` (- for stdin).")
            ),
        ],
        pin: Annotated[
            list[str] | None,
            typer.Option(
                "--pin",
                metavar="SEQ:HASH",
                help=_("An entry's hash seen elsewhere (a forum post): the journal must hold it."),
            ),
        ] = None,
        witness: Annotated[
            list[str] | None,
            typer.Option(
                "--witness",
                metavar="FILE",
                help=_(
                    "A saved text showing journal lines (a recap, a forum thread as text or"
                    " HTML): every head it shows must lie on the chain."
                ),
            ),
        ] = None,
        json: Annotated[bool, typer.Option("--json", help=json_help)] = False,
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
    ) -> int:
        from jdr.cli.journal_commands import verify_file

        code = verify_file(file, pin, json, witness)
        if code:
            raise typer.Exit(code)
        return 0

    @app.command("systems", help=_("List the installed rule systems and their actions."))
    def systems_command(
        json: Annotated[bool, typer.Option("--json", help=json_help)] = False,
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
    ) -> None:
        from jdr.cli.actions import show_systems

        show_systems(json)

    @app.command("dice", help=_('Roll dice notation: "2d6+3", "4d10>=6f1", "4d6kh3", "3d6!".'))
    def dice_command(
        expression: Annotated[
            str,
            typer.Argument(
                metavar="EXPRESSION",
                help=_(
                    "A dice expression, e.g. 4d10>=6f1, or several separated by ; (the forms of"
                    " Roll20, Rolisteam, Dice Maiden and Avrae too: 8d10k3, 1d20adv, 4dF)."
                ),
            ),
        ],
        odds: Annotated[
            bool, typer.Option("--odds", help=_("Print the exact distribution."))
        ] = False,
        exact: Annotated[
            bool, typer.Option("--exact", help=_('Exact probabilities, as "a/b" fractions.'))
        ] = False,
        faces: Annotated[
            str | None,
            typer.Option(
                "--faces", metavar="F,F,…", help=_("Faces already rolled, in roll order.")
            ),
        ] = None,
        seed: Annotated[
            str | None, typer.Option("--seed", metavar="N", help=_("Seed for a reproducible roll."))
        ] = None,
        campaign: Annotated[
            str | None,
            typer.Option(
                "--campaign",
                metavar="NAME",
                help=_(CAMPAIGN_ROLL_HELP),
                autocompletion=complete.campaigns,
            ),
        ] = None,
        actor: Annotated[
            str | None,
            typer.Option(
                "--actor", metavar="NAME", help=_(ACTOR_HELP), autocompletion=complete.characters
            ),
        ] = None,
        action_id: Annotated[
            str | None, typer.Option("--action-id", metavar="ID", help=_(ACTION_ID_HELP))
        ] = None,
        client_seed: Annotated[
            str | None, typer.Option("--client-seed", metavar="TEXT", help=_(CLIENT_SEED_HELP))
        ] = None,
        hidden: Annotated[bool, typer.Option("--hidden", help=_(HIDDEN_HELP))] = False,
        db: Annotated[
            str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
        ] = None,
        json: Annotated[bool, typer.Option("--json", help=json_help)] = False,
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
    ) -> None:
        from jdr.cli.dice import dice
        from jdr.cli.options import Journal

        journal = Journal(campaign, actor, action_id, client_seed, hidden, db)
        dice(
            expression,
            odds=odds,
            exact=exact,
            faces=faces,
            seed=seed,
            as_json=json,
            journal=journal,
        )

    @app.command(
        "serve",
        help=_("Serve the web table: campaigns, rolls with odds, journal, in a browser."),
    )
    def serve_command(
        host: host_option = "127.0.0.1",
        port: port_option = 8000,
        url: Annotated[
            str | None,
            typer.Option(
                "--url", metavar="URL", help=_("The address players reach (behind a proxy).")
            ),
        ] = None,
        db: Annotated[
            str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
        ] = None,
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
        workers: Annotated[
            int,
            typer.Option(
                "--workers",
                metavar="N",
                min=1,
                max=64,
                help=_("Worker processes (more than 1 needs PostgreSQL)."),
            ),
        ] = 1,
        webhook_host: Annotated[
            list[str] | None,
            typer.Option(
                "--webhook-host",
                metavar="HOST",
                help=_(
                    "A host campaigns' webhooks may post to, besides Discord's and Slack's"
                    " (a self-hosted chat); repeat or separate with commas."
                ),
            ),
        ] = None,
        trusted_proxy: Annotated[
            str,
            typer.Option(
                "--trusted-proxy",
                metavar="ADDRESS",
                help=_(
                    "The reverse proxy whose X-Forwarded-For and X-Forwarded-Proto headers are"
                    " believed (addresses separated by commas, * for any)."
                ),
            ),
        ] = "127.0.0.1",
        discord_public_key: Annotated[
            str | None,
            typer.Option(
                "--discord-public-key",
                metavar="HEX",
                envvar="JDR_DISCORD_PUBLIC_KEY",
                show_envvar=False,
                help=_(
                    "Answer Discord's slash commands at /discord/interactions: the"
                    " application's public key (or `JDR_DISCORD_PUBLIC_KEY`; see docs/discord.md)."
                ),
            ),
        ] = None,
    ) -> None:
        from jdr.cli.serving import server

        hosts = tuple(
            h.strip() for given in webhook_host or [] for h in given.split(",") if h.strip()
        )
        serve = server()
        serve(
            host,
            port,
            db,
            url,
            workers=workers,
            webhook_hosts=hosts,
            proxies=trusted_proxy,
            discord_public_key=discord_public_key or None,
        )

    @app.command("demo", help=_("Show what jdr does, on a few real rolls and odds."))
    def demo_command(
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
        serve: Annotated[
            bool,
            typer.Option(
                "--serve",
                help=_(
                    "Serve the web table on a ready campaign (a throw-away database) and open it"
                    " in the browser."
                ),
            ),
        ] = False,
        host: host_option = "127.0.0.1",
        port: port_option = 8000,
        no_open: Annotated[
            bool, typer.Option("--no-open", help=_("With --serve: print the links only."))
        ] = False,
    ) -> None:
        if serve:
            from jdr.cli.serving import demo_serve

            demo_serve(host, port, not no_open)
            return
        from jdr.cli.demo import demo

        demo()
