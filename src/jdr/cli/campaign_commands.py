"""`jdr campaign new|list|show|rm|invite|revoke|reveal|export|import|…`: the campaigns kept in the
store. Each command parses, calls `jdr.campaigns` (or the module its subject has), and renders.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

import json as jsonlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from jdr import campaigns
from jdr.answers import campaign_json as _campaign_json
from jdr.answers import character_json as _character_json
from jdr.answers import seed_json as _seed_json
from jdr.cli import complete
from jdr.cli.render import console, emit_json, plain_table
from jdr.cli.sheet_files import shown_system
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, opened
from jdr.i18n import N_, _

if TYPE_CHECKING:  # the store (SQLAlchemy) loads only when a command runs
    from jdr.store import Campaign, Character, Epoch

__all__ = ["FIGHT_STATUS", "build_campaign"]

Json = dict[str, Any]


def build_campaign() -> typer.Typer:
    """`jdr campaign new|list|show|rm|invite|revoke|reveal|webhook|feed|export|import`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    app = typer.Typer(
        help=_("Campaigns: a name, a rule system, its characters and fights."),
        no_args_is_help=True,
        rich_markup_mode=None,
    )

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
        from jdr.systems import default_registry

        rules = default_registry().get(system)
        with opened(db) as store:
            created = campaigns.create(store, rules, name)
        campaign, epochs = created.campaign, created.epochs
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
            listed = campaigns.listing(store)
        found, counts = listed.campaigns, listed.counts
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
        table = plain_table(_("campaign"), _("system"), _("characters"))
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
            shown = campaigns.overview(store, name)
        campaign, characters, fights = shown.campaign, shown.characters, shown.fights
        epochs = shown.epochs
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
        held = campaigns.holdings(store, campaign)
        characters, fights, entries = held.characters, held.fights, held.entries
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


def _print_campaign(
    campaign: "Campaign", characters: "list[Character]", fights: list[Json]
) -> None:
    out = console()
    out.print(f"[bold]{escape(campaign.name)}[/bold] — {escape(campaign.system)}", markup=True)
    if campaign.settings:
        settings = plain_table(_("setting"), _("value"))
        for key, value in campaign.settings.items():
            settings.add_row(str(key), _shown(value))
        out.print(settings)
    out.print()
    if characters:
        table = plain_table(_("character"), _("version"))
        for character in characters:
            table.add_row(character.name, str(character.version))
        out.print(table)
    else:
        out.print(_("No character yet."), markup=False)
    out.print()
    if fights:
        table = plain_table(_("fight"), _("participants"), _("status"), _("version"))
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


def _shown(value: Any) -> str:
    if isinstance(value, Mapping | list):
        return jsonlib.dumps(value, ensure_ascii=False)
    return "" if value is None else str(value)
