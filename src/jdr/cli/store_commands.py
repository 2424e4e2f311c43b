"""`jdr db|campaign|sheet …`: the campaigns and character sheets kept in the store.

Every command takes `--db URL` (else `JDR_DATABASE_URL`, else the embedded SQLite file),
`--json` (one JSON object on stdout) and `--lang`. A sheet is validated by its campaign's system
before it is stored, as JSON, under its name.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

import json as jsonlib
import math
import re
from collections.abc import Mapping
from datetime import date, datetime, time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from jdr.cli import complete
from jdr.cli.render import console, emit_json
from jdr.cli.sheet_files import add_example_command, campaign_sheet, sheet_name, validate_file
from jdr.cli.stored import (
    DB_HELP,
    JSON_HELP,
    LANG_HELP,
    OUTPUT_HELP,
    deliver,
    opened,
)
from jdr.i18n import N_, _

if TYPE_CHECKING:  # the store (SQLAlchemy) and pydantic load only when a command runs
    from jdr.store import Campaign, Character, Epoch, Store
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
    """`jdr campaign new|list|show|reveal`."""
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
            _("campaign {name} created ({system})").format(name=name, system=rules.id),
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
            fights = _fights(store, campaign.id)
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

    return app


def _seed_json(epochs: "list[Epoch]") -> Json:
    """The open epoch's commitment and the seeds already revealed."""
    return {
        "epoch": epochs[-1].number,
        "commitment": epochs[-1].commitment,
        "revealed": [
            {"number": e.number, "seed": e.seed.hex(), "commitment": e.commitment}
            for e in epochs
            if e.revealed is not None
        ],
    }


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
        with opened(db) as store:
            found = store.campaign(campaign)
            sheet = campaign_sheet(_system(found.system), file, found.name)
            stored = name or sheet_name(sheet, file)
            character_id = store.add_character(found.id, stored, sheet.model_dump(mode="json"))
            character = store.character(character_id)
        if json:
            emit_json({"campaign": found.name, "character": _character_json(character, True)})
            return
        console().print(
            _("sheet {name} added to campaign {campaign}").format(name=stored, campaign=found.name),
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

    @app.command("show", help=_("Show a stored character sheet."))
    def show_command(
        name: name_argument,
        campaign: campaign_option,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        with opened(db) as store:
            found = store.campaign(campaign)
            character = store.character_named(found.id, name)
        if json:
            emit_json({"campaign": found.name, "character": _character_json(character, True)})
            return
        out = console()
        out.print(f"[bold]{escape(character.name)}[/bold] — {escape(found.name)} ({found.system})")
        table = _table(_("field"), _("value"))
        for key, value in character.sheet.items():
            table.add_row(str(key), _shown(value))
        out.print(table)

    @app.command(
        "validate",
        help=_(
            "Check a TOML sheet against a rule system, without storing it; without --system, the"
            " sheet's system key, its kind, or the system that accepts it."
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
            character = store.character_named(found.id, name)
        _export(found, character, output, json)

    add_example_command(app)
    return app


def _print_campaign(
    campaign: "Campaign", characters: "list[Character]", fights: list[Json]
) -> None:
    out = console()
    out.print(f"[bold]{escape(campaign.name)}[/bold] — {escape(campaign.system)}")
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
            table.add_row(str(fight["id"]), participants, fight["status"], str(fight["version"]))
        out.print(table)
    else:
        out.print(_("No fight yet."), markup=False)


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


def _fights(store: "Store", campaign_id: int) -> list[Json]:
    return [
        {"id": f.id, "participants": list(f.participants), "status": f.status, "version": f.version}
        for f in store.fights(campaign_id)
    ]


# --- rendering -------------------------------------------------------------------------------


def _campaign_json(campaign: "Campaign") -> Json:
    return {
        "id": campaign.id,
        "name": campaign.name,
        "system": campaign.system,
        "settings": campaign.settings,
        "created": campaign.created.isoformat(),
    }


def _character_json(character: "Character", sheet: bool = False) -> Json:
    shown: Json = {"id": character.id, "name": character.name, "version": character.version}
    if sheet:
        shown["sheet"] = character.sheet
    return shown


def _shown(value: Any) -> str:
    if isinstance(value, Mapping | list):
        return jsonlib.dumps(value, ensure_ascii=False)
    return "" if value is None else str(value)


def _table(*columns: str) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in columns:
        table.add_column(column)
    return table


# --- a small TOML writer ---------------------------------------------------------------------

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f"}
_ESCAPES["\r"] = "\\r"


def to_toml(data: Mapping[str, Any]) -> str:
    """`data` (tables, lists, text, numbers, booleans, dates) as TOML text; None values are left
    out, TOML having no null.

    >>> print(to_toml({"name": "Kai", "stats": {"force": 3}, "moves": [{"name": "Éclair"}]}))
    name = "Kai"
    <BLANKLINE>
    [stats]
    force = 3
    <BLANKLINE>
    [[moves]]
    name = "Éclair"
    <BLANKLINE>
    """
    lines: list[str] = []
    _write_table(lines, [], data)
    return "\n".join(lines).lstrip("\n") + "\n"


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _write_table(lines: list[str], path: list[str], table: Mapping[str, Any]) -> None:
    tables: list[tuple[str, Any]] = []
    for key, value in table.items():
        if value is None:
            continue
        if (isinstance(value, Mapping) and value) or _is_table_array(value):
            tables.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in tables:
        inner = [*path, _key(key)]
        if isinstance(value, Mapping):
            lines += ["", f"[{'.'.join(inner)}]"]
            _write_table(lines, inner, value)
        else:
            for item in value:
                lines += ["", f"[[{'.'.join(inner)}]]"]
                _write_table(lines, inner, item)


def _key(key: Any) -> str:
    text = str(key)
    return text if _BARE_KEY.fullmatch(text) else _string(text)


def _string(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Mapping):
        items = (f"{_key(k)} = {_value(v)}" for k, v in value.items() if v is not None)
        return "{ " + ", ".join(items) + " }" if value else "{}"
    if isinstance(value, list | tuple):
        if any(v is None for v in value):
            raise ValueError("TOML has no null: a list cannot hold None")
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__}")
