"""The keys of a Polédémos command (PD-4 … PD-10), as models with French and English names:
`fight_models` shows them to a player, the decider (`play_commands`) validates with them.

>>> ActivateKeys(figure="Sergent Perry", dice=2).group
[]
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from jdr.fights.commands import Word, key
from jdr.i18n import N_
from jdr.systems.poledemos.play_setup import MAX_NAME
from jdr.systems.poledemos.warband import MAX_FIGURES

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
