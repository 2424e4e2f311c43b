"""`jdr campaign export NAME --output FILE` (or `NAME FILE`) and `jdr campaign import FILE`: a
whole campaign as a backup file, verified when it comes back (`jdr.backup`).

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from jdr.cli import complete
from jdr.cli.render import console, emit_json
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, one_output, opened, write_private
from jdr.i18n import _, ngettext

if TYPE_CHECKING:  # the store (SQLAlchemy) loads only when a command runs
    from jdr.store import Campaign


def add_backup_commands(app: typer.Typer) -> None:
    """Add `export` and `import` to the `jdr campaign` group."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]

    @app.command(
        "export",
        help=_(
            "Write a whole campaign to FILE as a backup (- : standard output): its seeds, the"
            " secret one included, its sheets and their history, its fights and its journal."
            " The file is a secret: it is written readable by you only, and never over an"
            " existing file without --force. Web invites and sessions are left out."
        ),
    )
    def export_command(
        name: Annotated[
            str,
            typer.Argument(
                metavar="NAME", help=_("The campaign's name."), autocompletion=complete.campaigns
            ),
        ],
        file: Annotated[
            str | None,
            typer.Argument(
                metavar="[FILE]",
                help=_("Where to write the backup (or --output FILE)."),
                show_default=False,
            ),
        ] = None,
        output: Annotated[
            str | None,
            typer.Option(
                "--output",
                metavar="FILE",
                help=_("Where to write the backup (- : standard output)."),
                show_default=False,
            ),
        ] = None,
        force: Annotated[
            bool, typer.Option("--force", help=_("Replace FILE if it exists."))
        ] = False,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _export(name, _backup_file(file, output), force, db, json)

    @app.command(
        "import",
        help=_(
            "Import a campaign from a backup written by jdr campaign export: checked and its"
            " journal verified before anything is written, then written in one transaction."
            " Its fights and characters keep their ids (its journal names them): import it into"
            " a fresh database, or where the campaign was removed."
        ),
    )
    def import_command(
        file: Annotated[
            str, typer.Argument(metavar="FILE", help=_("The backup (- : standard input)."))
        ],
        as_name: Annotated[
            str | None,
            typer.Option(
                "--as", metavar="NEW_NAME", help=_("Import it under this name."), show_default=False
            ),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _import(file, as_name, db, json)


def _backup_file(file: str | None, output: str | None) -> str:
    """Where `campaign export` writes: FILE or `--output FILE` (one of them, or both alike)."""
    from jdr.errors import InputError

    chosen = one_output(file, output)
    if chosen is None:
        raise InputError(
            "--output",
            None,
            _("--output FILE, or - for standard output"),
            _("where to write the backup is missing"),
        )
    return chosen


def _export(name: str, file: str, force: bool, db: str | None, json: bool) -> None:
    from jdr.backup import FORMAT, VERSION, backup
    from jdr.errors import InputError

    to_stdout = file == "-"
    if to_stdout and json:
        raise InputError(
            "FILE",
            file,
            _("a file name"),
            _("--json answers on standard output, where the backup would go"),
        )
    with opened(db) as store:
        campaign = store.campaign(name)
        written = backup(store, campaign)
    if to_stdout:
        sys.stdout.write(written.text)
        return
    write_private(Path(file), written.text, force)
    if json:
        emit_json(
            {
                "campaign": campaign.name,
                "file": file,
                "format": FORMAT,
                "v": VERSION,
                "rows": written.counts,
            }
        )
        return
    out = console()
    out.print(
        _("campaign {name} written to {file}: {what}").format(
            name=campaign.name, file=file, what=_held(written.counts)
        ),
        markup=False,
    )
    out.print(
        _(
            "keep it private: it holds the campaign's secret seed and its hidden rolls (the"
            " file is readable by you only)"
        ),
        markup=False,
        style="dim",
    )


def _import(file: str, as_name: str | None, db: str | None, json: bool) -> None:
    from jdr.backup import read, restore
    from jdr.store import StoreError

    document = read(file)
    with opened(db) as store:
        try:
            restored = restore(store, document, as_name)
        except StoreError as error:
            if error.problem == "duplicate_campaign" and as_name is None:
                error.hint = _("import it under another name: --as NEW_NAME")
            raise
    report = restored.report
    if json:
        from jdr.answers import campaign_json

        emit_json(
            {
                "campaign": campaign_json(restored.campaign),
                "rows": restored.counts,
                "verified": _verified_json(report),
            }
        )
        return
    _print_imported(restored.campaign, restored.counts, report)


def _verified_json(report: Any) -> dict[str, Any]:
    last = None if report.last is None else {"seq": report.last[0], "hash": report.last[1]}
    return {
        "ok": report.ok,
        "entries": report.entries,
        "dice_checked": report.dice_checked,
        "results_checked": report.results_checked,
        "last": last,
    }


def _print_imported(campaign: "Campaign", counts: dict[str, int], report: Any) -> None:
    from jdr.cli.render import command_line
    from jdr.journal.entries import short

    out = console()
    out.print(
        _("campaign {name} imported ({system}): {what}").format(
            name=campaign.name, system=campaign.system, what=_held(counts)
        ),
        markup=False,
    )
    verified = _("journal verified: {dice} dice re-derived, {results} results re-computed").format(
        dice=report.dice_checked, results=report.results_checked
    )
    if report.last is not None:
        verified += " · " + _("last entry: #{seq} {hash}").format(
            seq=report.last[0], hash=short(report.last[1])
        )
    out.print(verified, markup=False)
    out.print(
        _("web invites are not in a backup: invite the table again ({command})").format(
            command=command_line("jdr", "campaign", "invite", campaign.name) + " --role …"
        ),
        markup=False,
        style="dim",
    )


def _held(counts: dict[str, int]) -> str:
    """`2 sheets, 1 fight, 14 journal entries`."""
    parts = [
        ngettext("{n} sheet", "{n} sheets", counts["characters"]),
        ngettext("{n} fight", "{n} fights", counts["fights"]),
        ngettext("{n} journal entry", "{n} journal entries", counts["journal"]),
    ]
    numbers = (counts["characters"], counts["fights"], counts["journal"])
    return ", ".join(text.format(n=n) for text, n in zip(parts, numbers, strict=True))
