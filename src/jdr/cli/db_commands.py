"""`jdr db upgrade`: the database itself.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from typing import Annotated

import typer

from jdr.cli.render import console, emit_json
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP
from jdr.i18n import _


def build_db() -> typer.Typer:
    """`jdr db upgrade`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    app = typer.Typer(
        help=_("The database: migrate it to the latest revision."),
        no_args_is_help=True,
        rich_markup_mode=None,
    )

    @app.command("upgrade", help=_("Migrate the database to the latest revision."))
    def upgrade_command(
        db: db_option = None, json: json_option = False, lang: lang_option = None
    ) -> None:
        from jdr.store import upgrade
        from jdr.store.engine import resolve_url, safe_url

        url = resolve_url(db)
        revision = upgrade(url)
        if json:
            emit_json({"database": safe_url(url), "revision": revision})
            return
        console().print(
            _("database {url} is at revision {revision}").format(
                url=safe_url(url), revision=revision
            ),
            markup=False,
        )

    return app
