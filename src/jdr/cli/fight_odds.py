"""`jdr fight odds FIGHT ACTOR COMMAND [key=value …]`: the odds of a fight command before it is
played, from the command's own odds function (`jdr.fights.odds`, the one its decider resolves
with): what the chance measures, each outcome, the formula.

No `from __future__ import annotations` here: Typer reads these functions' annotations.
"""

from typing import Annotated, Any

import typer

from jdr.cli import complete
from jdr.cli.render import console, emit_json
from jdr.cli.stored import DB_HELP, JSON_HELP, LANG_HELP, opened
from jdr.i18n import _

__all__ = ["add_odds_command"]


def add_odds_command(app: typer.Typer) -> None:
    """`odds` on `jdr fight`."""
    db_option = Annotated[
        str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
    ]
    json_option = Annotated[bool, typer.Option("--json", help=_(JSON_HELP))]
    lang_option = Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))]

    @app.command(
        "odds",
        help=_(
            "The odds of a fight command before it is played: FIGHT ACTOR COMMAND"
            " [key=value …], as the fight will roll it."
        ),
    )
    def odds_command(
        fight: Annotated[int, typer.Argument(metavar="FIGHT", help=_("The fight's number."))],
        actor: Annotated[
            str,
            typer.Argument(metavar="ACTOR", help=_("Who acts."), autocompletion=complete.fighters),
        ],
        command: Annotated[
            str,
            typer.Argument(
                metavar="COMMAND",
                help=_("The command, e.g. attack."),
                autocompletion=complete.fight_commands,
            ),
        ],
        pairs: Annotated[
            list[str] | None,
            typer.Argument(
                metavar="[KEY=VALUE]…",
                help=_("The command's keys."),
                autocompletion=complete.fight_keys,
            ),
        ] = None,
        exact: Annotated[bool, typer.Option("--exact", help=_("Exact fractions."))] = False,
        db: db_option = None,
        json: json_option = False,
        lang: lang_option = None,
    ) -> None:
        _odds(fight, actor, command, pairs or [], exact, db, json)


def _odds(
    fight: int, actor: str, command: str, pairs: list[str], exact: bool, db: Any, json: bool
) -> None:
    from jdr.fights.odds import command_odds, odds_json
    from jdr.fights.sealed import public
    from jdr.fights.service import state
    from jdr.fights.setup import fighters_named
    from jdr.systems import default_registry

    with opened(db) as store:
        record = store.fight(fight)
        campaign = next(c for c in store.campaigns() if c.id == record.campaign_id)
        system = default_registry().get(campaign.system)
        assert system.fight is not None
        now = public(state(store, fight, system.fight))
    who = fighters_named("ACTOR", [actor], list(record.participants), keep_unknown=True)[0]
    commands = getattr(system, "fight_commands", None)
    found = None
    if commands is not None:
        name, keys = commands.parse(command, pairs)
        found = command_odds(system, now, who, name, keys, exact)
    if json:
        emit_json({"fight": fight, "actor": who, "odds": odds_json(found) if found else None})
        return
    if found is None:
        console().print(_("This command rolls nothing: no odds."), markup=False, highlight=False)
        return
    for line in [found.said(), *found.shown(), *found.formula]:
        console().print(line, markup=False, highlight=False)
