"""`jdr sheet history|set|edit|rename|rm|undo|redo|buy|award|year|grant|rank|new`: living sheets.

Each command parses, calls one function of `jdr.characters.service`, and renders what it returns
(a revision: what changed, why, its journal entry). `jdr sheet edit` is the one with more I/O: it
writes the sheet to a file, runs `$VISUAL` or `$EDITOR` on it, and keeps the file when the edit is
refused, so nothing typed is lost.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from jdr.cli import complete
from jdr.cli.render import console, emit_json
from jdr.cli.sheet_render import show_revised
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, OUTPUT_HELP, deliver, opened
from jdr.i18n import N_, _, joined

if TYPE_CHECKING:
    pass

__all__ = ["add_sheet_commands"]

PROGRESSION_HELP = {
    "buy": N_("Buy with XP or points: a skill, an EV, a level, Passion … (the system's rules)."),
    "award": N_("Give XP or points: xp=N, points=N … and why."),
    "year": N_("Ilvermorny: a school year's 2 points, e.g. magic=1 intuition=1 (IL-4)."),
    "grant": N_("Ilvermorny: the GM grants a spell's level 1 after a lesson (IL-8)."),
    "rank": N_("Plus Ultra: the next rank, its free point in Énergie or Volonté (PU-2)."),
}


class _ProgressionCommand(typer.core.TyperCommand):
    """`jdr sheet buy|award|…`: `--help` ends with what each installed system (a plug-in's as
    a built-in's) takes for this step, its words and keys, and its own help."""

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        super().format_epilog(ctx, formatter)
        rows = _progression_help(str(self.name))
        if rows:
            with formatter.section(_("Each rule system's own")):
                formatter.write_dl(rows)


def _progression_help(command: str) -> list[tuple[str, str]]:
    """`(system: NAME WORD… [key=…], its help)` for each installed system that has the
    progression step `command` (a plug-in that does not load is left out)."""
    import typing

    from jdr.cli.click_words import placeholders
    from jdr.labels import field_label
    from jdr.sheet_check import installed
    from jdr.systems import default_registry

    rows = []
    for system in installed(default_registry()):
        step = (getattr(system, "progression", None) or {}).get(command)
        if step is None:
            continue
        fields = step.params.model_fields
        parts = [f"{system.id}:", "NAME"]
        for word in step.words:
            info = fields.get(word)
            shown = field_label(word, info).upper().replace(" ", "-")
            parts.append(shown if info is None or info.is_required() else f"[{shown}]")
        for key_name, info in fields.items():
            if typing.get_origin(info.annotation) is dict:  # its own keys: `magic=1`
                parts.append(placeholders("KEY=VALUE…"))
            elif key_name not in step.words:
                typed = _typed_key(key_name, info)
                parts.append(f"{typed}=…" if info.is_required() else f"[{typed}=…]")
        rows.append((" ".join(parts), _(step.help) if step.help else ""))
    return rows


def _typed_key(name: str, info: Any) -> str:
    """How a reader types a progression step's key: in French its display name (`coût`,
    `niveau du Pokémon vaincu`, accepted as typed: `jdr.characters.steps`), in English the
    key itself (`cost`, `defeated`)."""
    from jdr.i18n import current_language
    from jdr.labels import field_label

    return field_label(name, info) if current_language() == "fr" else name


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
        _history(name, campaign, last, db, json)

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
        show_revised(found, _stored(revised, name), revised, json)

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
        show_revised(found, _stored(revised, new_name), revised, json)

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
            show_revised(found, _stored(revised, name), revised, json)

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
            _progress(command, name, words or [], campaign, reason, actor, db, json)

        app.command(command, help=_(help_text), cls=_ProgressionCommand)(_without(step, "command"))

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


def _stored(revised: Any, fallback: str) -> str:
    return revised.character.name if revised.character is not None else fallback


# --- history ---------------------------------------------------------------------------------


def _history(name: str, campaign: str, last: int | None, db: str | None, json: bool) -> None:
    from rich.table import Table

    from jdr.characters.revisions import kind_name
    from jdr.characters.views import history  # reading only: no rules, no pydantic

    with opened(db) as store:
        found = store.campaign(campaign)
        character, lines = history(store, found, name, last)
    if json:
        emit_json(
            {
                "campaign": found.name,
                "character": {"id": character.id, "name": character.name},
                "version": character.version,
                "revisions": [
                    {
                        "revision": line.revision,
                        "kind": line.kind,
                        "created": line.created.isoformat(),
                        "actor": line.actor,
                        "journal": line.journal_seq,
                        "undone": line.undone,
                        **{k: v for k, v in line.data.items() if k != "changes"},
                        "changes": _history_changes(line.data, character.sheet),
                    }
                    for line in lines
                ],
            }
        )
        return
    from jdr.cli.sheet_render import campaign_words

    words = campaign_words(found)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("#", _("when"), _("what"), _("who"), _("changes"), _("why"), _("journal")):
        table.add_column(column, no_wrap=column in ("#", _("when"), _("journal")))
    for line in lines:
        kind = kind_name(line.kind) + (" " + _("(undone)") if line.undone else "")
        shown = (
            _("the whole sheet")
            if line.kind == "created"
            else joined(_history_texts(line.data, character.sheet, words))
        )
        table.add_row(
            str(line.revision),
            line.created.strftime("%m-%d %H:%M"),
            kind,
            line.actor or "-",
            shown or "-",
            _why(line.data, words) or "-",
            f"#{line.journal_seq}" if line.journal_seq is not None else "-",
        )
    out = console()
    out.print(
        _("{name} — {campaign}, revision {version}").format(
            name=character.name, campaign=found.name, version=character.version
        ),
        markup=False,
    )
    out.print(table)


def _history_changes(data: Any, sheet: Any = None) -> list[Any]:
    """A revision's changes for a reader (`sheet` names list items); the whole sheet of a
    creation is not listed."""
    from jdr.cli.sheet_render import changes_json

    changes = [c for c in data.get("changes", []) if c["path"]]
    shown = changes_json(changes, sheet)
    if data.get("rename"):
        before, after = data["rename"]
        shown.insert(0, {"field": _("name"), "before": before, "after": after})
    return shown


def _history_texts(data: Any, sheet: Any, words: Any) -> list[str]:
    """A revision's changes in the system's words (`Vitalité 14 → 7`); a rename as one."""
    from jdr.sheet_words import change_text

    texts = [change_text(c, sheet, words) for c in data.get("changes", []) if c["path"]]
    if data.get("rename"):
        before, after = data["rename"]
        texts.insert(0, f"{_('name')} {before} → {after}")
    return texts


def _why(data: Any, words: Any = None) -> str:
    parts = []
    if data.get("reason"):
        parts.append(str(data["reason"]))
    cause = data.get("cause") or {}
    if "fight" in cause:
        parts.append(_("fight {fight}").format(fight=cause["fight"]))
    elif "action" in cause:
        parts.append(_("roll: {action}").format(action=cause["action"]))
    if data.get("target"):
        parts.append(_("revision {revision}").format(revision=data["target"]))
    if data.get("cost"):
        from jdr.sheet_words import GENERIC

        named = words or GENERIC
        paid = {k: v for k, v in data["cost"].items() if isinstance(v, int | float) and v > 0}
        if paid:
            cost = ", ".join(f"{v} {named.key(str(k))}" for k, v in paid.items())
            parts.append(_("cost: {cost}").format(cost=cost))
    if data.get("rules"):
        parts.append(", ".join(data["rules"]))
    return " · ".join(parts)


# --- progression -----------------------------------------------------------------------------


def _progress(
    command: str,
    name: str,
    words: list[str],
    campaign: str,
    reason: str | None,
    actor: str | None,
    db: str | None,
    json: bool,
) -> None:
    from jdr.characters import service

    bare = [word for word in words if "=" not in word]
    pairs = {}
    for word in words:
        if "=" in word:
            key, _equals, value = word.partition("=")
            pairs[key.strip()] = value.strip()
    with opened(db) as store:
        found = store.campaign(campaign)
        revised = service.progress(store, found, name, command, bare, pairs, actor, reason)
    summary = revised.value.summary() if revised.value is not None else None
    show_revised(found, _stored(revised, name), revised, json, summary)
