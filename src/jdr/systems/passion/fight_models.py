"""The commands of a Passion fight as models (PS-5 … PS-16): what a player (or the GM, for an
NPC) types after `jdr fight act FIGHT FIGHTER`, with French and English keys, and who may play
what now.

>>> COMMANDS.parse("attaque", ["cible=Ninja", "dés=2d6", "arme=Pied"])
('attack', {'dice': '2d6', 'target': 'Ninja', 'weapon': 'Pied'})
>>> COMMANDS.parse("marqueur", ["marqueur=2"])
('choose_marker', {'marker': 2})

Who decides (`jdr.fights.commands.Owner`): the acting fighter's controller (a player for their
character, the GM for an NPC: `npc_passion`, an NPC attacker's `energy`), but
- `npc_energy` and `npc_protection`: NPCs' pools, announced by the GM (PS-7, PS-15): the GM's;
- `action`'s `difficulty`: set by the GM (PS-3): the GM's;
- `combined_attack`'s `partners`: each partner's player agrees to act together (PS-13), so only
  a seat that controls them all (or the GM) names them.
`deus_ex_machina` stays the player's (PS-8: a player spends the Passion; the GM narrates) and so
does a dodge's number of dice (PS-11: the defender chooses).

>>> ATTACK_OWNERS = [COMMANDS.get("attack").owner_of(k).text() for k in ("dice", "npc_energy")]
>>> ATTACK_OWNERS, COMMANDS.get("action").owner_of("difficulty").text()
(['actor', 'gm'], 'gm')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jdr.systems.passion.fight_keys import commands
from jdr.systems.passion.fight_odds import odds_of, roll_outcome_of
from jdr.systems.passion.fight_state import find
from jdr.systems.protocol import Json

COMMANDS = commands(odds_of, roll_outcome_of)
"""The fight commands of the `passion` system (`System(fight_commands=…)`), with their odds
(`fight_keys` declares them)."""


def late(state: Json, actor: str, legal: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    """A late fighter's safe default (`jdr.live.pace`): its lowest available marker (PS-9),
    settling its roll spending nothing (PS-5), no Violence or Robustesse dice (PS-14, PS-15),
    passing its turn (PS-12). A dodge has none (how many dice is a real choice): the GM
    decides.

    >>> late({"fighters": {"Ana": {"available": [1, 2, 3]}}}, "Ana", ["choose_marker"])
    ('choose_marker', {'marker': 1})
    >>> late({}, "Ana", ["dodge", "no_dodge"]) is None
    True
    """
    if "choose_marker" in legal:
        name = find(state, actor)
        available = state["fighters"][name]["available"] if name else []
        return ("choose_marker", {"marker": min(available)}) if available else None
    for command in ("settle", "violence", "soak", "pass"):
        if command in legal:
            return command, {}
    return None
