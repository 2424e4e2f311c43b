"""`jdr campaign webhook NAME [URL]` and `jdr campaign feed NAME`: the live table's announcements
(issue 20) set up from a terminal, through the same services as the web table's settings page
(`jdr.live.seat`; the terminal holds the database, so it acts as the GM).

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from typing import Annotated

import typer

from jdr.cli import complete
from jdr.cli.render import console, emit_json
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, opened
from jdr.i18n import _, current_language


def add_live_commands(app: typer.Typer) -> None:
    """Add `webhook` and `feed` to the `jdr campaign` group."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    name_argument = Annotated[
        str,
        typer.Argument(
            metavar="NAME", help=_("The campaign's name."), autocompletion=complete.campaigns
        ),
    ]

    @app.command(
        "webhook",
        help=_(
            "Post each action's recap and whose turn it is to a Discord or Slack webhook (the"
            " server running `jdr serve` posts them); without URL, show it; --remove to stop."
        ),
    )
    def webhook_command(
        name: name_argument,
        url: Annotated[
            str | None,
            typer.Argument(metavar="URL", help=_("The channel's webhook URL.")),
        ] = None,
        format: Annotated[
            str, typer.Option("--format", metavar="discord|slack", help=_("The message format."))
        ] = "discord",
        allow_host: Annotated[
            list[str] | None,
            typer.Option(
                "--allow-host",
                metavar="HOST",
                help=_("Another host to allow (the server must allow it too: --webhook-host)."),
            ),
        ] = None,
        remove: Annotated[bool, typer.Option("--remove", help=_("Stop posting."))] = False,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.access import Viewer
        from jdr.live import seat

        with opened(db) as store:
            found = store.campaign(name)
            gm = Viewer(found.id, "gm")
            if remove:
                seat.remove_webhook(store, gm, found)
            elif url is not None:
                hosts = tuple(allow_host or ())
                seat.set_webhook(store, gm, found, url, format, current_language(), hosts)
            shown = seat.webhook_shown(store, gm, found)
        if json:
            emit_json({"campaign": found.name, "webhook": shown})
            return
        if shown is None:
            console().print(_("{campaign}: no webhook").format(campaign=found.name), markup=False)
            return
        line = _("{campaign}: posting to {host} ({format}, {lang})").format(
            campaign=found.name, host=shown["host"], format=shown["format"], lang=shown["lang"]
        )
        if shown["error"]:
            line += " · " + _("last attempt failed: {error}").format(error=shown["error"])
        console().print(line, markup=False, highlight=False)

    @app.command(
        "feed",
        help=_(
            "Print a new secret Atom feed link of the campaign's announcements, for a feed"
            " reader or a forum (whoever has it reads what a spectator reads)."
        ),
    )
    def feed_command(
        name: name_argument,
        url: Annotated[
            str,
            typer.Option("--url", metavar="URL", help=_("Where `jdr serve` is reached.")),
        ] = "http://127.0.0.1:8000",
        revoke: Annotated[
            int | None,
            typer.Option("--revoke", metavar="ID", help=_("Revoke the feed link ID instead.")),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.access import Viewer
        from jdr.live import seat

        with opened(db) as store:
            found = store.campaign(name)
            gm = Viewer(found.id, "gm")
            if revoke is not None:
                seat.revoke_feed(store, gm, found, revoke)
                made = None
            else:
                made = seat.make_feed(store, gm, found, current_language())
        if made is None:
            if json:
                emit_json({"campaign": found.name, "revoked": revoke})
            else:
                console().print(_("feed link {id} revoked").format(id=revoke), markup=False)
            return
        link = f"{url.rstrip('/')}/feeds/{made.token}"
        if json:
            emit_json(
                {"campaign": found.name, "feed": {"id": made.id, "lang": made.lang, "link": link}}
            )
            return
        console().print(link, markup=False, highlight=False, soft_wrap=True)
