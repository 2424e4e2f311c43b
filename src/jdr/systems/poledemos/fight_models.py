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

from typing import Literal

from pydantic import BaseModel, ConfigDict

from jdr.fights.commands import Command, Commands, Word, key, late_by_preference
from jdr.i18n import N_
from jdr.systems.poledemos.fight_odds import activate_odds, activation_outcome_of
from jdr.systems.poledemos.play_setup import MAX_NAME, find_name
from jdr.systems.poledemos.play_state import available_figures, open_kinds
from jdr.systems.poledemos.warband import MAX_FIGURES
from jdr.systems.protocol import Json

MAX_NOTE = 500
"""Characters in an action's note."""


class Nothing(BaseModel):
    """`end_activation` and `pass`: no key."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class ActivateKeys(Nothing):
    """PD-5, PD-8: roll 1–3 dice for a figure, with the followers it takes along."""

    figure: str = key(N_("the figure, as the warband names it"), fr="figurine", max_length=MAX_NAME)
    dice: int = key(N_("1 to 3 dice: more PA, more risk of passing the hand"), fr="dés")
    group: list[str] = key(
        N_("the followers a leader takes along, within 10 cm (PD-8)"),
        fr="groupe",
        default_factory=list,
        max_length=MAX_FIGURES,
    )


class ActionKeys(Nothing):
    """PD-6, PD-10: spend PA on one action; what each member spends; the table's note (PD-7)."""

    kind: Literal["move", "shoot", "melee"] = key(
        N_("move, shoot or melee: one of each per activation"),
        fr="type d'action",
        en="action kind",
        choices={
            "move": Word("move", "déplacement", "mouvement"),
            "shoot": Word("shot", "tir", "shoot"),
            "melee": Word("melee", "mêlée"),
        },
    )
    pa: int = key(N_("PA spent: 2 or 3 augment the action (PD-6)"), fr="PA", en="PA", default=1)
    members: dict[str, int] = key(
        N_('what each member spends, as JSON {"figure": PA} (default 1, PD-10)'),
        fr="membres",
        default_factory=dict,
        max_length=MAX_FIGURES,
    )
    note: str | None = key(
        N_("the table's account (a length, a shot's outcome), recorded as it is (PD-7)"),
        fr="note",
        default=None,
        max_length=MAX_NOTE,
    )


def legal(state: Json, actor: str) -> list[str]:
    """Only the player with the hand plays."""
    from jdr.systems.poledemos.play import play_rules

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
