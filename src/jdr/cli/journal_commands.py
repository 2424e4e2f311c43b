"""`jdr journal show|export|luck|disclose`, `jdr campaign reveal NAME`, and the journal line
under every roll made through a campaign (`jdr journal show|luck` print in `journal_show`,
`jdr verify FILE` in `journal_verify`).

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from jdr.cli import complete
from jdr.cli.journal_show import luck, show
from jdr.cli.journal_verify import pins_of, verify_file
from jdr.cli.render import command_line, console, emit_json
from jdr.cli.stored import (
    DB_HELP,
    JSON_HELP,
    LANG_HELP,
    OUTPUT_HELP,
    opened,
    output_file,
    write_output,
)
from jdr.i18n import N_, _
from jdr.journal.words import fight_entries, journal_lines, recap_footer

if TYPE_CHECKING:  # the store (SQLAlchemy) loads only when a command runs
    from jdr.cli.options import Common, Journal
    from jdr.journal.entries import Entry
    from jdr.journal.service import Rolled
    from jdr.systems.protocol import Action, RuleSystem

__all__ = [
    "build_journal",
    "fight_entries",
    "journal_json",
    "journal_lines",
    "recap_footer",
    "reveal",
    "roll_in_campaign",
    "showing_original",
    "verify_file",
]

Json = dict[str, Any]

CAMPAIGN_HELP = N_("The campaign's name.")

_pins = pins_of
"""`--pin SEQ:HASH …` read (`journal_verify.pins_of`), by the name it had here."""


# --- a roll through a campaign ---------------------------------------------------------------


def roll_in_campaign(
    system: "RuleSystem", action: "Action[Any]", params: Any, common: "Common", journal: "Journal"
) -> "Rolled":
    """Roll through the campaign's journal: derived dice, or `--faces`/`--seed` recorded as such."""
    from jdr.dice.source import make_source
    from jdr.journal import service

    assert journal.campaign is not None
    given = common.faces is not None or common.seed is not None
    rng = make_source(common.faces, common.seed) if given else None
    with opened(journal.db) as store, showing_original(journal.campaign, common.json):
        campaign = store.campaign(journal.campaign)
        return service.roll(
            store,
            campaign,
            system,
            action,
            params,
            actor=journal.actor,
            action_id=journal.action_id,
            client_seed=journal.client_seed,
            hidden=journal.hidden,
            rng=rng,
        )


def roll_dice_in_campaign(
    expression: Any, faces: str | None, seed: str | None, journal: "Journal", as_json: bool = False
) -> "Rolled":
    """`jdr dice EXPR --campaign NAME`: generic dice through the campaign's journal."""
    from jdr.dice.source import make_source
    from jdr.journal import service

    assert journal.campaign is not None
    rng = make_source(faces, seed) if faces is not None or seed is not None else None
    who = service.Who(journal.actor, journal.action_id, journal.client_seed, journal.hidden)
    with opened(journal.db) as store, showing_original(journal.campaign, as_json):
        return service.roll_dice(store, store.campaign(journal.campaign), expression, who, rng)


@contextmanager
def showing_original(campaign: str, as_json: bool) -> "Iterator[None]":
    """A re-ask refused because its action id names another roll shows that roll: printed before
    the error, or under the error's `original` key in JSON."""
    from jdr.journal.replay import stored_roll
    from jdr.journal.service import ActionIdTakenError

    try:
        yield
    except ActionIdTakenError as taken:
        record = stored_roll(taken.entry)
        shown = record.explain() if record is not None else _("hidden roll")
        if as_json:
            taken.extra = {
                "original": {"explanation": shown, "journal": journal_json(campaign, taken.entry)}
            }
        else:
            out = console()
            out.print(_("This action id names this roll:"), markup=False)
            out.print(shown, markup=False)
            for line in journal_lines(taken.entry):
                out.print(line, markup=False, style="dim")
        raise


def journal_json(campaign: str, entry: "Entry", replayed: bool = False) -> Json:
    """The `journal` key of a roll's or a fight action's JSON answer (`jdr.answers`)."""
    from jdr.answers import journal_json as answer

    return answer(campaign, entry, replayed)


# --- jdr journal -----------------------------------------------------------------------------


def build_journal() -> typer.Typer:
    """`jdr journal show|export|luck|disclose`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]
    name_argument = Annotated[
        str,
        typer.Argument(metavar="NAME", help=_(CAMPAIGN_HELP), autocompletion=complete.campaigns),
    ]
    app = typer.Typer(
        help=_("A campaign's journal: every roll and fight action, hash-chained and verifiable."),
        no_args_is_help=True,
        rich_markup_mode=None,
    )

    @app.command(
        "show",
        help=_(
            "List a campaign's journal, as everyone may read it, one line an entry: the last"
            " 50 entries, or a page of them."
        ),
    )
    def show_command(
        name: name_argument,
        last: Annotated[
            int | None,
            typer.Option(
                "--last",
                metavar="N",
                help=_("How many entries: the last N, or N from --from (default 50)."),
                min=1,
            ),
        ] = None,
        start: Annotated[
            int | None,
            typer.Option("--from", metavar="SEQ", help=_("Start the page at entry SEQ."), min=1),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        show(name, last, db, json, start)

    @app.command("export", help=_("Write the journal as JSON, with everything `jdr verify` needs."))
    def export_command(
        name: name_argument,
        output: Annotated[
            Path | None,
            typer.Option("--output", metavar="FILE", help=_(OUTPUT_HELP)),
        ] = None,
        db: db_option = None,
        lang: lang_option = None,
    ) -> None:
        from jdr.journal.reading import export_lines
        from jdr.journal.service import export

        with opened(db) as store:
            data = export(store, store.campaign(name))
        output = output_file(output)
        if output is None:
            for line in export_lines(data):  # one entry a line, written as it is made
                sys.stdout.write(line)
            return
        write_output(output, "".join(export_lines(data)))
        console().print(
            _("journal of {name} written to {file}").format(name=name, file=output), markup=False
        )

    @app.command(
        "luck",
        help=_(
            "Each player's luck: the exact percentile of their dice against every result they"
            " could have rolled."
        ),
    )
    def luck_command(
        name: name_argument,
        actor: Annotated[
            str | None,
            typer.Option(
                "--actor",
                metavar="NAME",
                help=_("Only this player."),
                autocompletion=complete.journal_actors,
            ),
        ] = None,
        exact: Annotated[
            bool, typer.Option("--exact", help=_('Exact probabilities, as "a/b" fractions.'))
        ] = False,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        luck(name, actor, exact, db, json)

    @app.command(
        "disclose",
        help=_("Make hidden rolls public (all of them, or the entries SEQ …)."),
    )
    def disclose_command(
        name: name_argument,
        seqs: Annotated[
            list[int] | None,
            typer.Argument(metavar="[SEQ]…", help=_("The hidden entries to disclose.")),
        ] = None,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        with opened(db) as store:
            campaign = store.campaign(name)
            done = store.disclose(campaign.id, seqs or None)
        if json:
            emit_json({"campaign": name, "disclosed": done})
            return
        if not done:
            console().print(_("no hidden roll to disclose"), markup=False)
            return
        console().print(
            _("disclosed: entries {seqs}").format(seqs=", ".join(map(str, done))), markup=False
        )

    return app


# --- jdr campaign reveal ---------------------------------------------------------------------


def reveal(name: str, db: str | None, json: bool) -> None:
    """End the campaign's epoch: publish its seed, open a new one."""
    from jdr.store import StoreError

    with opened(db) as store:
        campaign = store.campaign(name)
        try:
            revealed, opened_epoch = store.reveal_epoch(campaign.id)
        except StoreError as error:
            if error.problem == "hidden_rolls":
                error.hint = command_line("jdr", "journal", "disclose", campaign.name)
            raise
    if json:
        emit_json(
            {
                "campaign": name,
                "revealed": {
                    "number": revealed.number,
                    "seed": revealed.seed.hex(),
                    "commitment": revealed.commitment,
                },
                "next": {"number": opened_epoch.number, "commitment": opened_epoch.commitment},
            }
        )
        return
    out = console()
    out.print(
        _("epoch {number} of {name} revealed").format(number=revealed.number, name=name),
        markup=False,
    )
    out.print(_("seed: {seed}").format(seed=revealed.seed.hex()), markup=False)
    out.print(_("commitment: {commitment}").format(commitment=revealed.commitment), markup=False)
    out.print(
        _("new seed committed (epoch {number}): {commitment}").format(
            number=opened_epoch.number, commitment=opened_epoch.commitment
        ),
        markup=False,
    )
    out.print(
        _(
            "anyone can now check every roll: {export} > journal.json; jdr verify journal.json"
        ).format(export=command_line("jdr", "journal", "export", campaign.name)),
        markup=False,
        style="dim",
    )
