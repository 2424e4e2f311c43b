"""The commands of an Ilvermorny duel as models (IL-5, IL-11): what a wizard (or the GM) types
after `jdr fight act FIGHT NAME`, with French and English keys, and who may play what now.

>>> COMMANDS.parse("lancer", ["sort=Lumos"])
('cast', {'spell': 'Lumos'})
>>> sorted(KEYS["cast"]), sorted(KEYS["end"])
(['action', 'salt', 'spell', 'wizard'], ['action', 'note', 'winner'])

Who decides (`jdr.fights.commands.Owner`): `cast` is the wizard's player's (IL-11); `end`, the
whole command, is the GM's (IL-11: the GM rolls and judges the duel; no wizard declares
themselves the winner).

>>> COMMANDS.get("end").owner == Owner.GM
True
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from jdr.fights.commands import Command, Commands, Owner, key, keys_of
from jdr.i18n import N_
from jdr.systems.ilvermorny.fight_odds import cast_odds, cast_outcome_of
from jdr.systems.ilvermorny.fight_state import find
from jdr.systems.protocol import Json


class Cast(BaseModel):
    """IL-11: the wizard's spell for the round, sealed until both have chosen."""

    model_config = ConfigDict(extra="forbid")

    spell: str = key(N_("a learnt spell of your sheet"), fr="sort")


class End(BaseModel):
    """The GM ends the duel."""

    model_config = ConfigDict(extra="forbid")

    winner: str | None = key(
        N_("the winner (none: no winner)"), fr="vainqueur", default=None, fighter=True
    )
    note: str | None = key(N_("the GM's account"), fr="note", default=None)


def legal(state: Json, actor: str) -> list[str]:
    """A wizard who has not chosen this round casts; anyone (the GM) may end the duel."""
    if state["over"]:
        return []
    wizard = find(state["wizards"], actor)
    return ["cast", "end"] if wizard is not None and wizard not in state["chosen"] else ["end"]


def _spell(state: Json, actor: str | None) -> Json:
    wizard = find(state["wizards"], actor) or state["wizards"][0]
    learnt = [name for name, spell in state["spells"][wizard].items() if spell["level"] > 0]
    return {"spell": learnt[0]}


COMMANDS = Commands(
    [
        Command(
            "cast",
            Cast,
            N_("Choose your spell for the round, sealed: both are cast once both have chosen."),
            _spell,
            "IL-11",
            fr="lancer",
            sealed=True,
            odds=cast_odds,
            outcome=cast_outcome_of,
        ),
        Command(
            "end",
            End,
            N_("The GM ends the duel, naming a winner or none."),
            {"winner": "Ann"},
            "IL-11",
            fr="fin",
            owner=Owner.GM,
        ),
    ],
    legal,
)
"""The fight commands of the `ilvermorny` system (`System(fight_commands=…)`)."""

KEYS = keys_of(COMMANDS, "action")
KEYS["cast"].add("wizard")
"""The keys each command may carry (the decider refuses any other)."""
