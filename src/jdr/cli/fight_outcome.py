"""`jdr fight outcome FIGHT` and `jdr fight end FIGHT --apply/--no-apply [--winner NAME |
--draw]`: what a fight leaves on its stored fighters' sheets, reviewed before it lands, applied
when it ends; the GM's end of a fight its rules have not ended is journaled, naming the winner
or a draw (`jdr.fights.service.end`).

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from jdr.cli.render import console, emit_json
from jdr.cli.sheet_render import campaign_words, changes_json, changes_lines
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, opened
from jdr.i18n import _
from jdr.sheet_words import GENERIC

if TYPE_CHECKING:
    from jdr.characters.fights import FighterOutcome
    from jdr.sheet_words import SheetWords

__all__ = ["add_outcome_commands"]

ENDED = "ended"


def add_outcome_commands(app: typer.Typer) -> None:
    """`outcome` and `end` (which applies the outcome unless `--no-apply`) on `jdr fight`."""
    fight_argument = Annotated[int, typer.Argument(metavar="FIGHT", help=_("The fight's number."))]
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]

    @app.command(
        "outcome",
        help=_(
            "What ending a fight would change on its stored fighters' sheets, for the GM to"
            " review (jdr fight end applies it)."
        ),
    )
    def outcome_command(
        fight: fight_argument,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.fights.playing import outcome_now

        with opened(db) as store:
            status, found_campaign, found = outcome_now(store, fight)
        if json:
            emit_json({"fight": fight, "status": status, "outcome": _outcome_json(found)})
            return
        _print_outcome(found, _("nothing to write on the sheets"), campaign_words(found_campaign))

    @app.command(
        "end",
        help=_(
            "End a fight: no command can be played in it any more; its outcome lands on the"
            " stored fighters' sheets unless --no-apply. If its rules have not ended it, the GM"
            " names the winner (--winner) or a draw (--draw)."
        ),
    )
    def end_command(
        fight: fight_argument,
        apply: Annotated[
            bool,
            typer.Option(
                "--apply/--no-apply",
                help=_("Write the fight's outcome on the sheets (review it: jdr fight outcome)."),
            ),
        ] = True,
        actor: Annotated[
            str | None,
            typer.Option("--actor", metavar="NAME", help=_("Who ends it (for the journal).")),
        ] = None,
        winner: Annotated[
            list[str] | None,
            typer.Option(
                "--winner",
                metavar="NAME",
                help=_(
                    "Who won, when the rules have not said it: a fighter, a side or a player"
                    " (several: --winner A --winner B, or A,B)."
                ),
            ),
        ] = None,
        draw: Annotated[
            bool, typer.Option("--draw", help=_("The fight ends in a draw: nobody wins."))
        ] = False,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        from jdr.answers import journal_json
        from jdr.fights.playing import ending as end
        from jdr.journal.words import journal_lines

        winners = [n.strip() for given in winner or [] for n in given.split(",") if n.strip()]
        with opened(db) as store:
            campaign, closed = end(store, fight, winners, draw, actor, apply)
        ending, entry, found = closed.ending, closed.entry, closed.outcome
        if json:
            emit_json(
                {
                    "fight": fight,
                    "status": ENDED,
                    "ending": None if ending is None else ending.json(),
                    "applied": apply,
                    "outcome": _outcome_json(found),
                    "journal": None if entry is None else journal_json(campaign.name, entry),
                }
            )
            return
        out = console()
        out.print(_("fight {fight} ended").format(fight=fight), markup=False)
        if ending is not None:
            out.print(ending.sentence(), markup=False)
        if entry is not None:
            for line in journal_lines(entry):
                out.print(line, markup=False, style="dim")
        if found and not apply:
            out.print(_("its outcome was not written on the sheets (--no-apply):"), markup=False)
        _print_outcome(found, None, campaign_words(campaign))


def _outcome_json(found: "list[FighterOutcome]") -> list[dict[str, Any]]:
    from jdr.answers import journal_json

    shown = []
    for each in found:
        item: dict[str, Any] = {
            "fighter": each.fighter,
            "character": each.character.id,
            "sheet": each.character.name,
            "from_revision": each.start_revision,
            "rules": list(each.rules),
            "changes": changes_json(each.changes, each.character.sheet),
            "conflicts": changes_json(each.conflicts, each.character.sheet),
        }
        if each.revised is not None:
            item["revision"] = each.revised.revision
            item["journal"] = journal_json("", each.revised.entry)
        shown.append(item)
    return shown


def _print_outcome(
    found: "list[FighterOutcome]", empty: str | None, words: "SheetWords | None" = None
) -> None:
    out = console()
    if not found and empty:
        out.print(empty, markup=False)
    for each in found:
        rules = f" ({', '.join(each.rules)})" if each.rules else ""
        if each.revised is not None:
            head = _("{name}: revision {revision}").format(
                name=each.character.name, revision=each.revised.revision
            )
        else:
            head = _("{name}, from revision {revision}:").format(
                name=each.character.name, revision=each.start_revision
            )
        out.print(head + rules, markup=False)
        for sentence in each.why:
            out.print(f"  {sentence}", markup=False)
        if not each.why:
            for line in changes_lines(each.changes, each.character.sheet, words or GENERIC):
                out.print(line, markup=False)
        if each.conflicts:
            from jdr.characters.fights import describe_conflicts

            out.print("  " + describe_conflicts(each.conflicts, each.character.sheet), markup=False)
