"""`jdr sheet …`: the character sheets kept in the store (`jdr campaign …` is in
`jdr.cli.campaign_commands`, `jdr db …` in `jdr.cli.db_commands`).

Every command takes `--db URL` (else `JDR_DATABASE_URL`, else the embedded SQLite file),
`--json` (one JSON object on stdout) and `--lang`. A sheet is validated by its campaign's system
before it is stored, as JSON, under its name.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from jdr.answers import character_json as _character_json
from jdr.cli import complete
from jdr.cli.campaign_commands import build_campaign
from jdr.cli.db_commands import build_db
from jdr.cli.render import console, emit_json, plain_table
from jdr.cli.sheet_files import add_example_command, validate_file
from jdr.cli.stored import (
    DB_HELP,
    JSON_HELP,
    LANG_HELP,
    OUTPUT_HELP,
    deliver,
    opened,
)
from jdr.i18n import N_, _
from jdr.toml_write import to_toml

if TYPE_CHECKING:  # the store (SQLAlchemy) and pydantic load only when a command runs
    from jdr.store import Campaign, Character
    from jdr.systems.protocol import RuleSystem

__all__ = ["build_campaign", "build_db", "build_sheet", "to_toml", "validate_file"]


# --- the options every command shares --------------------------------------------------------

CAMPAIGN_HELP = N_("The campaign's name.")


# --- sheet -----------------------------------------------------------------------------------


def build_sheet() -> typer.Typer:
    """`jdr sheet add|list|show|validate|export|example`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    campaign_option = Annotated[
        str,
        typer.Option(
            "--campaign", metavar="NAME", help=_(CAMPAIGN_HELP), autocompletion=complete.campaigns
        ),
    ]
    app = typer.Typer(
        help=_("Character sheets: validated by their system, stored in a campaign."),
        no_args_is_help=True,
        rich_markup_mode=None,
    )
    file_argument = Annotated[
        Path, typer.Argument(metavar="FILE.toml", help=_("A TOML sheet."), show_default=False)
    ]
    name_argument = Annotated[
        str,
        typer.Argument(
            metavar="NAME", help=_("The character's name."), autocompletion=complete.characters
        ),
    ]

    @app.command("add", help=_("Validate a TOML sheet and add it to a campaign."))
    def add_command(
        file: file_argument,
        campaign: campaign_option,
        name: Annotated[
            str | None,
            typer.Option(
                "--name", metavar="NAME", help=_("Store under this name (default: the sheet's).")
            ),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.characters import service
        from jdr.cli.sheet_files import read_sheet

        data, label = read_sheet(file)
        with opened(db) as store:
            found = store.campaign(campaign)
            revised = service.add(store, found, data, name, label or Path(file).stem)
        character = revised.character
        assert character is not None
        if json:
            emit_json({"campaign": found.name, "character": _character_json(character, True)})
            return
        console().print(
            _("sheet {name} added to campaign {campaign}").format(
                name=character.name, campaign=found.name
            ),
            markup=False,
        )

    @app.command("list", help=_("List a campaign's character sheets."))
    def list_command(
        campaign: campaign_option,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        with opened(db) as store:
            found = store.campaign(campaign)
            characters = store.characters(found.id)
        if json:
            emit_json(
                {"campaign": found.name, "characters": [_character_json(c) for c in characters]}
            )
            return
        out = console()
        if not characters:
            out.print(_("No character yet."), markup=False)
            return
        table = plain_table(_("character"), _("version"))
        for character in characters:
            table.add_row(character.name, str(character.version))
        out.print(table)

    @app.command("show", help=_("Show a stored character sheet (as of a revision with --at)."))
    def show_command(
        name: name_argument,
        campaign: campaign_option,
        at: Annotated[
            int | None,
            typer.Option("--at", metavar="REVISION", help=_("The sheet as it was at a revision.")),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        toml: Annotated[
            bool, typer.Option("--toml", help=_("The sheet's data as TOML, as stored."))
        ] = False,
        lang: lang_option = None,
    ) -> None:
        _show_sheet(name, campaign, at, db, json, toml)

    @app.command(
        "validate",
        help=_(
            "Check a TOML sheet against a rule system, without storing it; without --system, the"
            " sheet's `system` key, its `kind` key, or the system that accepts it."
        ),
    )
    def validate_command(
        file: file_argument,
        system: Annotated[
            str | None,
            typer.Option(
                "--system",
                metavar="ID",
                help=_("The rule system's id."),
                show_default=False,
                autocompletion=complete.system_ids,
            ),
        ] = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.cli.sheet_files import validate_command

        validate_command(file, system, json)

    @app.command("export", help=_("Write a stored sheet as TOML."))
    def export_command(
        name: name_argument,
        campaign: campaign_option,
        output: Annotated[
            Path | None,
            typer.Option("--output", metavar="FILE", help=_(OUTPUT_HELP)),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        with opened(db) as store:
            found = store.campaign(campaign)
            from jdr.characters.binding import named

            character = named(store, found.id, name)
        _export(found, character, output, json)

    add_example_command(app)
    from jdr.cli.sheet_commands import add_sheet_commands

    add_sheet_commands(app)
    return app


def _show_sheet(
    name: str, campaign: str, at: int | None, db: str | None, json: bool, toml: bool = False
) -> None:
    from jdr.characters.views import show  # reading only: no rules, no pydantic

    with opened(db) as store:
        found = store.campaign(campaign)
        view = show(store, found, name, at)
    if json:
        shown = _character_json(view.character, True)
        shown.update(name=view.name, sheet=view.sheet)
        emit_json({"campaign": found.name, "revision": view.revision, "character": shown})
        return
    if toml:
        console().print(to_toml(view.sheet), markup=False, end="")
        return
    from jdr.cli.sheet_show import print_sheet
    from jdr.i18n import current_language
    from jdr.sheet_view import layout
    from jdr.sheet_words import words_of
    from jdr.systems.protocol import display_name

    system = _system(found.system)
    laid_out = layout({**view.sheet, "name": view.name}, words_of(system))
    heading = f"{found.name} ({display_name(system, current_language())})"
    revision = _("revision {revision} of {last}").format(revision=view.revision, last=view.last)
    print_sheet(laid_out, heading, revision)


def _export(found: "Campaign", character: "Character", output: Path | None, json: bool) -> None:
    text = to_toml(character.sheet)
    payload = {"campaign": found.name, "character": character.name}
    deliver(
        text,
        output,
        json,
        payload,
        lambda file: _("sheet {name} written to {file}").format(name=character.name, file=file),
    )


# --- sheets and systems ----------------------------------------------------------------------


def _system(system_id: str) -> "RuleSystem":
    """The installed system `system_id` (`UnknownNameError` listing the known ids)."""
    from jdr.systems import default_registry

    return default_registry().get(system_id)
