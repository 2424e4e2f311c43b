"""The commands of a Polédémos game as models (PD-4 … PD-10): what the player with the hand types
after `jdr fight act FIGHT PLAYER`, with French and English keys, and who may play what now.
The decider validates its commands with the same models, plus the `player` who gives them.

>>> COMMANDS.parse("activer", ["figurine=Sergent Perry", "dés=2", "groupe=Caporal,Recrue 1"])
('activate', {'figure': 'Sergent Perry', 'dice': 2, 'group': ['Caporal', 'Recrue 1']})
>>> COMMANDS.parse("action", ["type d'action=tir", "pa=2"])
('action', {'kind': 'shoot', 'pa': 2})

Who decides (`jdr.fights.commands.Owner`): every command and key is the choice of the player
with the hand (PD-4), the one who acts: a game of Polédémos has no GM, its figures are that
player's, and an action's `note` is the account that player records (PD-7).
"""

from __future__ import annotations

from jdr.fights.commands import Command, Commands, late_by_preference
from jdr.i18n import N_
from jdr.systems.poledemos.command_keys import ActionKeys, ActivateKeys, Nothing
from jdr.systems.poledemos.fight_odds import activate_odds, activation_outcome_of
from jdr.systems.poledemos.play import play_rules
from jdr.systems.poledemos.play_setup import find_name
from jdr.systems.poledemos.play_state import available_figures, open_kinds
from jdr.systems.protocol import Json


def legal(state: Json, actor: str) -> list[str]:
    """Only the player with the hand plays."""
    if find_name(state["seats"], actor) != state["hand"]:
        return []
    return play_rules().legal_commands(state)


def _activate(state: Json, actor: str | None) -> Json:
    return {"figure": available_figures(state)[0], "dice": 2}


def _action(state: Json, actor: str | None) -> Json:
    kinds = open_kinds(state) or ["move"]
    return {"kind": kinds[0]}


COMMANDS = Commands(
    [
        Command(
            "activate",
            ActivateKeys,
            N_("Roll 1–3 dice to activate a figure: each success is a PA (PD-5)."),
            _activate,
            "PD-5",
            fr="activer",
            odds=activate_odds,
            outcome=activation_outcome_of,
        ),
        Command(
            "action",
            ActionKeys,
            N_("Spend PA on a move, a shot or a melee (PD-6)."),
            _action,
            "PD-6",
            fr="action",
        ),
        Command(
            "end_activation",
            Nothing,
            N_("End the activated figure's activation (its PA left are lost)."),
            rule="PD-5",
            fr="fin d'activation",
            en="end activation",
        ),
        Command(
            "pass",
            Nothing,
            N_("Pass the hand with no figure activated, when the table allows it (PD-4)."),
            rule="PD-4",
            fr="passer",
        ),
    ],
    legal,
)
"""The commands of the `poledemos` system (`System(fight_commands=…)`)."""

LATE = late_by_preference(("end_activation", {}), ("pass", {}))
"""A late player's safe default (`jdr.live.pace`): the figure activated ends its activation,
else the player passes the hand (PD-4)."""
