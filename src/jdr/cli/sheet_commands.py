"""`jdr sheet history|set|edit|rename|rm|undo|redo|buy|award|year|grant|rank|new`: living sheets
(the history's table is `jdr.cli.sheet_history`'s, the progression steps
`jdr.cli.sheet_progression`'s).

Each command parses, calls one function of `jdr.characters.service`, and renders what it returns
(a revision: what changed, why, its journal entry). `jdr sheet edit` is the one with more I/O: it
writes the sheet to a file, runs `$VISUAL` or `$EDITOR` on it, and keeps the file when the edit is
refused, so nothing typed is lost.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from pathlib import Path
from typing import Annotated, Any

import typer

from jdr.cli import complete
from jdr.cli.render import console, emit_json
from jdr.cli.sheet_history import show_history
from jdr.cli.sheet_progression import PROGRESSION_HELP, ProgressionCommand, progress
from jdr.cli.sheet_render import show_revised, stored_name
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, OUTPUT_HELP, deliver, opened
from jdr.i18n import N_, _

__all__ = ["add_sheet_commands"]


def add_sheet_commands(app: typer.Typer) -> None:  # noqa: PLR0915 - Typer reads the options
    """The commands that read and change a stored sheet's revisions, added to `jdr sheet`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    campaign_option = Annotated[
        str,
        typer.Option(
            "--campaign",
            metavar="NAME",
            help=_("The campaign's name."),
            autocompletion=complete.campaigns,
        ),
    ]
    name_argument = Annotated[
        str,
        typer.Argument(
            metavar="NAME", help=_("The character's name."), autocompletion=complete.characters
        ),
    ]
    actor_option = Annotated[
        str | None,
        typer.Option("--actor", metavar="NAME", help=_("Who makes the change (for the journal).")),
    ]
    reason_option = Annotated[
        str | None, typer.Option("--reason", metavar="TEXT", help=_("Why, for the history."))
    ]

    @app.command("history", help=_("List a sheet's revisions: what changed, when, who and why."))
    def history_command(
        name: name_argument,
        campaign: campaign_option,
        last: Annotated[
            int | None,
            typer.Option("--last", metavar="N", min=1, help=_("Only the last N revisions.")),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        show_history(name, campaign, last, db, json)

    @app.command(
        "set",
        short_help=_("Set fields of a stored sheet."),
        help=_(
            "Set fields of a stored sheet, named as on the sheet, e.g. `stats.magic=8`"
            " `spells[Lumos].xp=20` … (checked like a new sheet; `field=` removes a field)."
        ),
    )
    def set_command(
        name: name_argument,
        assignments: Annotated[
            list[str], typer.Argument(metavar="FIELD=VALUE…", help=_("The fields and values."))
        ],
        campaign: campaign_option,
        reason: reason_option = None,
        actor: actor_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.characters import service

        with opened(db) as store:
            found = store.campaign(campaign)
            revised = service.set_fields(store, found, name, assignments, actor, reason)
        show_revised(found, stored_name(revised, name), revised, json)

    @app.command(
        "edit",
        help=_(
            "Edit a stored sheet in $EDITOR: checked when saved; a sheet with a problem is kept"
            " in its file for the next edit."
        ),
    )
    def edit_command(
        name: name_argument,
        campaign: campaign_option,
        discard: Annotated[
            bool,
            typer.Option(
                "--discard", help=_("Start again from the stored sheet, not a kept edit.")
            ),
        ] = False,
        actor: actor_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.cli.sheet_edit import edit

        edit(name, campaign, discard, actor, db, json)

    @app.command("rename", help=_("Store a character under a new name."))
    def rename_command(
        name: name_argument,
        new_name: Annotated[str, typer.Argument(metavar="NEW_NAME", help=_("The new name."))],
        campaign: campaign_option,
        actor: actor_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.characters import service

        with opened(db) as store:
            found = store.campaign(campaign)
            revised = service.rename(store, found, name, new_name, actor)
        show_revised(found, stored_name(revised, new_name), revised, json)

    @app.command(
        "rm", help=_("Remove a character (refused while it is in a fight that has not ended).")
    )
    def rm_command(
        name: name_argument,
        campaign: campaign_option,
        actor: actor_option = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.characters import service
        from jdr.cli.journal_commands import journal_json, journal_lines

        with opened(db) as store:
            found = store.campaign(campaign)
            stored = store.character_named(found.id, name).name
            revised = service.remove(store, found, name, actor)
        if json:
            emit_json(
                {
                    "campaign": found.name,
                    "removed": stored,
                    "journal": journal_json(found.name, revised.entry),
                }
            )
            return
        out = console()
        text = _("{name} removed from campaign {campaign}; its journal entries stay")
        out.print(text.format(name=stored, campaign=found.name), markup=False)
        for line in journal_lines(revised.entry):
            out.print(line, markup=False, style="dim")

    for command, help_text, go_back in (
        ("undo", N_("Take back a sheet's last revision (itself a revision)."), False),
        ("redo", N_("Put back the revision undone last."), True),
    ):

        def back(
            name: name_argument,
            campaign: campaign_option,
            actor: actor_option = None,
            db: db_option = None,
            json: json_option = False,
            lang: lang_option = None,
            go_back: bool = go_back,
        ) -> None:
            from jdr.characters import service

            with opened(db) as store:
                found = store.campaign(campaign)
                act = service.redo if go_back else service.undo
                revised = act(store, found, name, actor)
            show_revised(found, stored_name(revised, name), revised, json)

        app.command(command, help=_(help_text))(_without(back, "go_back"))

    for command, help_text in PROGRESSION_HELP.items():

        def step(
            name: name_argument,
            campaign: campaign_option,
            words: Annotated[
                list[str] | None,
                typer.Argument(
                    metavar="[WORD|KEY=VALUE]…", help=_("What to do, as the rules say.")
                ),
            ] = None,
            reason: reason_option = None,
            actor: actor_option = None,
            db: db_option = None,
            json: json_option = False,
            lang: lang_option = None,
            command: str = command,
        ) -> None:
            progress(command, name, words or [], campaign, reason, actor, db, json)

        app.command(command, help=_(help_text), cls=ProgressionCommand)(_without(step, "command"))

    @app.command(
        "new",
        help=_(
            "Write a commented template of a system's sheet (KIND: one of its examples) to fill in."
        ),
    )
    def new_command(
        system: Annotated[
            str,
            typer.Argument(
                metavar="SYSTEM",
                help=_("The rule system's id."),
                autocompletion=complete.system_ids,
            ),
        ],
        kind: Annotated[
            str | None,
            typer.Argument(
                metavar="[KIND]",
                help=_("Which kind of sheet (default: the first)."),
                show_default=False,
            ),
        ] = None,
        output: Annotated[
            Path | None, typer.Option("--output", metavar="FILE", help=_(OUTPUT_HELP))
        ] = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.sheet_check import example_text
        from jdr.sheet_template import template
        from jdr.systems import default_registry

        rules = default_registry().get(system)
        shown = example_text(rules, kind)[0]
        text = template(rules, shown)
        payload = {"system": rules.id, "kind": shown}
        deliver(
            text,
            output,
            json,
            payload,
            lambda file: _("template of a {system} sheet ({kind}) written to {file}").format(
                system=rules.id, kind=shown, file=file
            ),
        )


def _without(function: Any, parameter: str) -> Any:
    """`function` with its keyword `parameter` hidden from Typer (a loop's value bound to it)."""
    import functools
    import inspect

    signature = inspect.signature(function)
    kept = [p for p in signature.parameters.values() if p.name != parameter]

    @functools.wraps(function)
    def wrapper(**values: Any) -> Any:
        return function(**values)

    wrapper.__signature__ = signature.replace(parameters=kept)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in kept}
    return wrapper
