"""`jdr discord link|commands|register`: a campaign's table on Discord (docs/discord.md).

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

import json as jsonlib
from typing import Annotated

import typer

from jdr.cli import complete
from jdr.cli.render import console, emit_json
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, opened
from jdr.i18n import _


def build_discord() -> typer.Typer:
    """`jdr discord link|commands|register`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    app = typer.Typer(
        help=_("Play on Discord: link a channel to a campaign, register the /jdr command."),
        no_args_is_help=True,
        rich_markup_mode=None,
    )

    @app.command(
        "link",
        help=_(
            "Print a code that binds a Discord channel to the campaign (single use, a day unless"
            " --expires says otherwise): type /jdr campaign link code:… in the channel."
        ),
    )
    def link_command(
        name: Annotated[
            str,
            typer.Argument(
                metavar="NAME",
                help=_("The campaign's name."),
                autocompletion=complete.campaigns,
            ),
        ],
        expires: Annotated[
            str | None,
            typer.Option("--expires", metavar="7d|12h|30m", help=_("How long the code works.")),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.discord.identity import link_code

        with opened(db) as store:
            found = store.campaign(name)
            made = link_code(store, found.id, expires)
        if json:
            emit_json(
                {
                    "link": {
                        "id": made.id,
                        "campaign": made.campaign,
                        "code": made.code,
                        "expires": made.expires.isoformat(timespec="seconds"),
                    }
                }
            )
            return
        console().print(made.code, markup=False, soft_wrap=True)
        console().print(
            _(
                "In the Discord channel, type: /jdr campaign link code:{code} (single use, until"
                " {date}; whoever uses it is the GM of {campaign} on Discord)"
            ).format(
                code=made.code,
                date=made.expires.strftime("%Y-%m-%d %H:%M UTC"),
                campaign=made.campaign,
            ),
            markup=False,
            style="dim",
            soft_wrap=True,
        )

    @app.command("commands", help=_("Print the /jdr slash command's definitions."))
    def commands_command(json: json_option = False, lang: lang_option = None) -> None:
        from jdr.discord.commands import definitions, option_list, paths

        if json:
            typer.echo(jsonlib.dumps(definitions(), ensure_ascii=False, indent=2))
            return
        for path in paths():
            options = " ".join(o.name if o.required else f"[{o.name}]" for o in option_list(path))
            console().print(f"/jdr {' '.join(path)} {options}".rstrip(), markup=False)

    @app.command(
        "register",
        help=_(
            "Register the /jdr command with Discord (a bulk overwrite of the application's"
            " commands; with --guild, that server's only, shown at once)."
        ),
    )
    def register_command(
        application_id: Annotated[
            str,
            typer.Option(
                "--application-id",
                metavar="ID",
                help=_("The application's id (General Information)."),
            ),
        ],
        token: Annotated[
            str | None,
            typer.Option(
                "--token",
                metavar="TOKEN",
                envvar="JDR_DISCORD_TOKEN",
                show_envvar=False,
                show_default=False,
                help=_("The bot's token (else `JDR_DISCORD_TOKEN`); never stored."),
            ),
        ] = None,
        guild: Annotated[
            str | None,
            typer.Option("--guild", metavar="ID", help=_("Register in this server only.")),
        ] = None,
        api_base: Annotated[
            str | None,
            typer.Option("--api-base", metavar="URL", help=_("Discord's API (for a test).")),
        ] = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.discord.api import API_BASE, register
        from jdr.discord.commands import definitions
        from jdr.errors import InputError

        if not token or not token.strip():
            raise InputError(
                "--token",
                None,
                _("the bot's token (Developer Portal, Bot), or `JDR_DISCORD_TOKEN`"),
                _("missing"),
            )
        found = register(application_id, token, definitions(), guild, api_base or API_BASE)
        names = [str(c.get("name")) for c in found if isinstance(c, dict)]
        if json:
            emit_json({"registered": names, "application": application_id, "guild": guild})
            return
        where = (
            _("in server {guild}").format(guild=guild)
            if guild
            else _("globally (may take up to an hour to show)")
        )
        console().print(
            _("registered /{names} {where}").format(names=", /".join(names) or "-", where=where),
            markup=False,
        )

    return app
