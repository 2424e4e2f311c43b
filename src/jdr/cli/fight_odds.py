"""`jdr fight odds FIGHT ACTOR COMMAND [key=value …]`: the odds of a fight command before it is
played, from the command's own odds function (`jdr.fights.odds`, the one its decider resolves
with): what the chance measures, each outcome, the formula.

The command itself is declared with the others, in `jdr.cli.fight_commands`.
"""

from typing import Any

from jdr.cli.render import console, emit_json
from jdr.cli.stored import opened
from jdr.i18n import _

__all__ = ["odds"]


def odds(
    fight: int, actor: str, command: str, pairs: list[str], exact: bool, db: Any, json: bool
) -> None:
    """`jdr fight odds`."""
    from jdr.fights.odds import odds_json
    from jdr.fights.queries import fight_odds

    with opened(db) as store:
        who, found = fight_odds(store, fight, actor, command, pairs, exact)
    if json:
        emit_json({"fight": fight, "actor": who, "odds": odds_json(found) if found else None})
        return
    if found is None:
        console().print(_("This command rolls nothing: no odds."), markup=False, highlight=False)
        return
    for line in [found.said(), *found.shown(), *found.formula]:
        console().print(line, markup=False, highlight=False)
