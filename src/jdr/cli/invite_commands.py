"""`jdr campaign invite NAME --role …` and `jdr campaign revoke NAME ID`: links into the web table.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from typing import Annotated

import typer

from jdr.cli import complete
from jdr.cli.click_words import Words
from jdr.cli.render import console, emit_json
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, opened
from jdr.i18n import _

ROLES = Words(
    "--role",
    {
        "gm": ("gm", "MJ", "meneur"),
        "player": ("player", "joueur", "joueuse"),
        "spectator": ("spectator", "spectateur", "spectatrice"),
    },
)
"""`--role`: what an invite lets do (`jdr.access.ROLES`), in English or French."""


def add_invite_commands(app: typer.Typer) -> None:
    """Add `invite` and `revoke` to the `jdr campaign` group."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]

    @app.command(
        "invite",
        help=_(
            "Print an invite link into the campaign's web table (single use, a week unless"
            " --expires says otherwise)."
        ),
    )
    def invite_command(
        name: Annotated[
            str,
            typer.Argument(
                metavar="NAME", help=_("The campaign's name."), autocompletion=complete.campaigns
            ),
        ],
        role: Annotated[
            str,
            typer.Option(
                "--role", metavar=ROLES.metavar(), parser=ROLES, help=_("What it lets do.")
            ),
        ],
        character: Annotated[
            str | None,
            typer.Option(
                "--character",
                metavar="NAME",
                help=_("The player's character (with --role player)."),
                autocompletion=complete.characters,
            ),
        ] = None,
        create_character: Annotated[
            bool,
            typer.Option(
                "--create-character",
                help=_(
                    "The player creates their character in the browser; you approve it (with"
                    " --role player, without --character)."
                ),
            ),
        ] = False,
        expires: Annotated[
            str | None,
            typer.Option("--expires", metavar="7d|12h|30m", help=_("How long the link works.")),
        ] = None,
        url: Annotated[
            str,
            typer.Option("--url", metavar="URL", help=_("Where `jdr serve` is reached.")),
        ] = "http://127.0.0.1:8000",
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr import access

        with opened(db) as store:
            found = store.campaign(name)
            made = access.invite(
                store, found.id, role, character, expires, creates=create_character
            )
        link = f"{url.rstrip('/')}/invite/{made.token}"
        if json:
            emit_json(
                {
                    "invite": {
                        "id": made.id,
                        "campaign": found.name,
                        "role": made.role,
                        "character": made.character,
                        "creates": made.creates,
                        "expires": made.expires.isoformat(timespec="seconds"),
                        "link": link,
                    }
                }
            )
            return
        console().print(link, markup=False, soft_wrap=True)
        console().print(
            _(
                "invite {id}: single use, until {date}; revoke: jdr campaign revoke NAME {id}"
            ).format(id=made.id, date=made.expires.strftime("%Y-%m-%d %H:%M UTC")),
            markup=False,
            style="dim",
        )

    @app.command("revoke", help=_("Revoke an unused invite of the campaign."))
    def revoke_command(
        name: Annotated[
            str,
            typer.Argument(
                metavar="NAME", help=_("The campaign's name."), autocompletion=complete.campaigns
            ),
        ],
        invite_id: Annotated[int, typer.Argument(metavar="ID", help=_("The invite's number."))],
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.errors import InputError

        with opened(db) as store:
            found = store.campaign(name)
            if not store.revoke_invite(found.id, invite_id):
                unused = [i.id for i in store.invites(found.id) if not i.used and not i.revoked]
                raise InputError("ID", invite_id, ", ".join(map(str, unused)) or "-")
        if json:
            emit_json({"revoked": invite_id, "campaign": found.name})
            return
        console().print(_("invite {id} revoked").format(id=invite_id), markup=False)
