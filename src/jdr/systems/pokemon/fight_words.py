"""The words a Pokémon fight's commands, odds and sentences share: the defender's answers to
an attack (PK-12 … PK-14), the `respond` command that gives one, and the stats as the game
names them.

>>> Respond(response="dodge").response
'dodge'
>>> STATS["willpower"]
'Volonté'
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from jdr.fights.commands import Word, key
from jdr.i18n import N_

Response = Literal["none", "endure", "dodge", "counter"]
RESPONSE_WORDS = (N_("none"), N_("endure"), N_("dodge"), N_("counter"))
"""The answers as a reader sees them (`_("dodge")` is `esquive` in French)."""
RESPONSE_NAMES = {
    "none": Word("no answer", "aucune", "rien"),
    "endure": Word("endure", "encaisser", "encaisse"),
    "dodge": Word("dodge", "esquive", "esquiver"),
    "counter": Word("counter", "contrer", "contre"),
}
"""Each answer's display names (`jdr.fights.commands.Word`): shown, and typed, in either
language."""


class Keys(BaseModel):
    """A command's keys: any other key is refused."""

    model_config = ConfigDict(extra="forbid")


class Respond(Keys):
    """PK-12 … PK-14: the defender's answer to the attack the fight waits for."""

    response: Response = key(
        N_("endure, dodge, counter, or none"), fr="réponse", choices=RESPONSE_NAMES
    )
    counter_move: str | None = key(
        N_("with a counter answer: the move to counter with"),
        fr="capacité de contre",
        en="counter move",
        default=None,
    )


STATS = {
    "strength": N_("Force"),
    "concentration": N_("Concentration"),
    "constitution": N_("Constitution"),
    "willpower": N_("Volonté"),
    "dexterity": N_("Dextérité"),
    "accuracy": N_("accuracy"),
}
"""The stats as the game names them (French in both languages, as on the sheets)."""
