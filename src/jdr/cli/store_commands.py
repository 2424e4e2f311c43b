"""`jdr db|campaign|sheet …`: the campaigns and character sheets kept in the store.

Every command takes `--db URL` (else `JDR_DATABASE_URL`, else the embedded SQLite file),
`--json` (one JSON object on stdout) and `--lang`. A sheet is validated by its campaign's system
before it is stored, as JSON, under its name.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

import json as jsonlib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from jdr.answers import campaign_json as _campaign_json
from jdr.answers import character_json as _character_json
from jdr.answers import fights_json
from jdr.answers import seed_json as _seed_json
from jdr.cli import complete
from jdr.cli.render import console, emit_json
from jdr.cli.sheet_files import add_example_command, shown_system, validate_file
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
    from jdr.store import Campaign, Character, Epoch
    from jdr.systems.protocol import RuleSystem

__all__ = ["build_campaign", "build_db", "build_sheet", "to_toml", "validate_file"]

Json = dict[str, Any]

# --- the options every command shares --------------------------------------------------------

CAMPAIGN_HELP = N_("The campaign's name.")


def _group(help_text: str) -> typer.Typer:
    return typer.Typer(help=help_text, no_args_is_help=True, rich_markup_mode=None)


# --- db --------------------------------------------------------------------------------------


def build_db() -> typer.Typer:
    """`jdr db upgrade`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    app = _group(_("The database: migrate it to the latest revision."))

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


# --- campaign --------------------------------------------------------------------------------


def build_campaign() -> typer.Typer:
    """`jdr campaign new|list|show|rm|invite|revoke|reveal|webhook|feed|export|import`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    app = _group(_("Campaigns: a name, a rule system, its characters and fights."))

    @app.command("new", help=_("Create a campaign played with a rule system."))
    def new_command(
        name: Annotated[str, typer.Argument(metavar="NAME", help=_("The campaign's name."))],
        system: Annotated[
            str,
            typer.Option(
                "--system",
                metavar="ID",
                help=_("The rule system's id."),
                autocompletion=complete.system_ids,
            ),
        ],
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        rules = _system(system)
        with opened(db) as store:
            store.create_campaign(rules.id, name)
            campaign = store.campaign(name)
            epochs = store.epochs(campaign.id)
        if json:
            emit_json({"campaign": _campaign_json(campaign), "seed": _seed_json(epochs)})
            return
        out = console()
        out.print(
            _("campaign {name} created ({system})").format(name=name, system=shown_system(rules)),
            markup=False,
        )
        _print_commitment(epochs)

    @app.command("list", help=_("List the campaigns."))
    def list_command(
        db: db_option = None, json: json_option = False, lang: lang_option = None
    ) -> None:
        with opened(db) as store:
            found = store.campaigns()
            counts = store.character_counts()
        if json:
            emit_json(
                {
                    "campaigns": [
                        {**_campaign_json(c), "characters": counts.get(c.id, 0)} for c in found
                    ]
                }
            )
            return
        out = console()
        if not found:
            out.print(_("No campaign yet: jdr campaign new NAME --system ID."), markup=False)
            return
        table = _table(_("campaign"), _("system"), _("characters"))
        for campaign in found:
            table.add_row(campaign.name, campaign.system, str(counts.get(campaign.id, 0)))
        out.print(table)

    @app.command("show", help=_("Show a campaign: its settings, characters and fights."))
    def show_command(
        name: Annotated[
            str,
            typer.Argument(
                metavar="NAME", help=_("The campaign's name."), autocompletion=complete.campaigns
            ),
        ],
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        with opened(db) as store:
            campaign = store.campaign(name)
            characters = store.characters(campaign.id)
            fights = fights_json(store, campaign.id)
            store.epoch(campaign.id)  # a campaign from before the journal gets its seed now
            epochs = store.epochs(campaign.id)
        if json:
            emit_json(
                {
                    "campaign": _campaign_json(campaign),
                    "characters": [_character_json(c) for c in characters],
                    "fights": fights,
                    "seed": _seed_json(epochs),
                }
            )
            return
        _print_campaign(campaign, characters, fights)
        _print_commitment(epochs)

    @app.command(
        "rm",
        help=_(
            "Remove a campaign and everything it holds: characters, fights, journal (asks for"
            " its name, or --yes)."
        ),
    )
    def rm_command(
        name: Annotated[
            str,
            typer.Argument(
                metavar="NAME", help=_("The campaign's name."), autocompletion=complete.campaigns
            ),
        ],
        yes: Annotated[
            bool, typer.Option("--yes", help=_("Remove without asking for the name."))
        ] = False,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _remove_campaign(name, yes, db, json)

    from jdr.cli.invite_commands import add_invite_commands

    add_invite_commands(app)

    @app.command(
        "reveal",
        help=_(
            "Publish the campaign's secret seed so anyone can verify its rolls, and commit to a"
            " new one."
        ),
    )
    def reveal_command(
        name: Annotated[
            str,
            typer.Argument(
                metavar="NAME", help=_("The campaign's name."), autocompletion=complete.campaigns
            ),
        ],
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.cli.journal_commands import reveal

        reveal(name, db, json)

    from jdr.cli.backup_commands import add_backup_commands

    add_backup_commands(app)
    from jdr.cli.live_commands import add_live_commands

    add_live_commands(app)
    return app


def _remove_campaign(name: str, yes: bool, db: str | None, json: bool) -> None:
    """`jdr campaign rm NAME`: the campaign's name typed again to confirm, unless `--yes`."""
    from jdr.errors import InputError

    with opened(db) as store:
        campaign = store.campaign(name)
        characters = len(store.characters(campaign.id))
        fights = len(store.fights(campaign.id))
        entries = len(store.journal(campaign.id))
        if not yes:
            if json:
                raise InputError("--yes", None, "--yes", _("--json cannot ask: give --yes"))
            console().print(
                _(
                    "This removes campaign {name}: {characters} characters, {fights} fights and"
                    " {entries} journal entries, for good."
                ).format(name=campaign.name, characters=characters, fights=fights, entries=entries),
                markup=False,
            )
            typed = typer.prompt(_("Type the campaign's name to confirm"), default="")
            if typed.strip() != campaign.name:
                raise InputError(
                    _("confirmation"), typed, campaign.name, _("not the campaign's name: kept")
                )
        store.delete_campaign(campaign.id)
    if json:
        emit_json({"removed": campaign.name, "characters": characters, "fights": fights})
        return
    console().print(_("campaign {name} removed").format(name=campaign.name), markup=False)


def _print_commitment(epochs: "list[Epoch]") -> None:
    out = console()
    out.print(
        _("seed commitment (epoch {number}): {commitment}").format(
            number=epochs[-1].number, commitment=epochs[-1].commitment
        ),
        markup=False,
    )
    revealed = [e.number for e in epochs if e.revealed is not None]
    if revealed:
        out.print(
            _("seeds revealed: epochs {numbers} (jdr journal export, then jdr verify)").format(
                numbers=", ".join(map(str, revealed))
            ),
            markup=False,
        )


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
    app = _group(_("Character sheets: validated by their system, stored in a campaign."))
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
        table = _table(_("character"), _("version"))
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


def _print_campaign(
    campaign: "Campaign", characters: "list[Character]", fights: list[Json]
) -> None:
    out = console()
    out.print(f"[bold]{escape(campaign.name)}[/bold] — {escape(campaign.system)}", markup=True)
    if campaign.settings:
        settings = _table(_("setting"), _("value"))
        for key, value in campaign.settings.items():
            settings.add_row(str(key), _shown(value))
        out.print(settings)
    out.print()
    if characters:
        table = _table(_("character"), _("version"))
        for character in characters:
            table.add_row(character.name, str(character.version))
        out.print(table)
    else:
        out.print(_("No character yet."), markup=False)
    out.print()
    if fights:
        table = _table(_("fight"), _("participants"), _("status"), _("version"))
        for fight in fights:
            participants = ", ".join(map(str, fight["participants"]))
            status = str(fight["status"])
            status = _(FIGHT_STATUS[status]) if status in FIGHT_STATUS else status
            table.add_row(str(fight["id"]), participants, status, str(fight["version"]))
        out.print(table)
    else:
        out.print(_("No fight yet."), markup=False)


FIGHT_STATUS = {"open": N_("under way"), "ended": N_("over")}
"""A stored fight's status (`open`, `ended`: the JSON's) as `campaign show` says it."""


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


# --- reading the store (lists the Store API does not offer yet) ------------------------------


# --- rendering -------------------------------------------------------------------------------


def _shown(value: Any) -> str:
    if isinstance(value, Mapping | list):
        return jsonlib.dumps(value, ensure_ascii=False)
    return "" if value is None else str(value)


def _table(*columns: str) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in columns:
        table.add_column(column)
    return table
