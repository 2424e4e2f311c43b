"""The commands of a Plus Ultra fight as models (PU-4 … PU-9): what a player types after
`jdr fight act FIGHT CHARACTER`, with French and English keys, and who may play what now.

>>> COMMANDS.parse("attaque", ["cible=Corbeau", "protecteur=Aiko"])
('attack', {'target': 'Corbeau', 'protector': 'Aiko'})
>>> sorted(KEYS["technique"])
['action', 'actor', 'protector', 'target', 'technique']

Who decides (`jdr.fights.commands.Owner`): every key is the acting character's player's, but
`protector` (PU-6: protecting another is the protector's own action, played before the
protected one), the choice of the player of the character `protector` names, or the GM's.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from jdr.fights.commands import Command, Commands, Owner, key, keys_of, late_by_preference
from jdr.i18n import N_
from jdr.systems.plus_ultra.fight_commands import legal_actions
from jdr.systems.plus_ultra.fight_odds import (
    attack_odds,
    interrupt_odds,
    outcome_of,
    technique_odds,
)
from jdr.systems.plus_ultra.fight_state import find, in_fight
from jdr.systems.protocol import Json


class _Keys(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Attack(_Keys):
    """PU-4: one d20 against the target's defense (or its protector's, PU-6)."""

    target: str = key(N_("the character attacked"), fr="cible", fighter=True)
    protector: str | None = key(
        N_("an ally of the target who protects it, taking its place in the order (PU-6)"),
        fr="protecteur",
        default=None,
        fighter=True,
        owner=Owner.target("protector"),
    )


class Technique(_Keys):
    """PU-7: a technique of the sheet."""

    technique: str = key(N_("the technique, as the sheet names it"), fr="technique")
    target: str | None = key(
        N_("the character it aims at (a technique that attacks needs one)"),
        fr="cible",
        default=None,
        fighter=True,
    )
    protector: str | None = key(
        N_("an ally of the target who protects it (PU-6)"),
        fr="protecteur",
        default=None,
        fighter=True,
        owner=Owner.target("protector"),
    )


class Nothing(_Keys):
    """A command with no key."""


def _opponent(state: Json, actor: str | None) -> str:
    me = find(state, actor) or state["turn"]
    side = state["characters"][me]["side"]
    return next(n for n in in_fight(state) if state["characters"][n]["side"] != side)


def _technique_example(state: Json, actor: str | None) -> Json:
    me = find(state, actor) or state["turn"]
    return {"technique": state["characters"][me]["techniques"][0]["name"]} | {
        "target": _opponent(state, me)
    }


def legal(state: Json, actor: str) -> list[str]:
    """What `actor` may play now: while a character flees, its opponents answer; else the
    character whose turn it is plays."""
    name = find(state, actor)
    if state["over"] or name is None:
        return []
    fleeing = state["fleeing"]
    if fleeing is not None:
        foe = state["characters"][name]["side"] != state["characters"][fleeing]["side"]
        return ["interrupt", "no_interrupt"] if foe and name in in_fight(state) else []
    return legal_actions(state) if name == state["turn"] else []


COMMANDS = Commands(
    [
        Command(
            "attack",
            Attack,
            N_("Attack: d20 + Volonté against 8 + the target's Énergie (+ its bonuses)."),
            lambda state, actor: {"target": _opponent(state, actor)},
            "PU-4",
            fr="attaque",
            odds=attack_odds,
            outcome=outcome_of,
        ),
        Command(
            "defend",
            Nothing,
            N_("Defend: +5 defense until the start of your next turn."),
            rule="PU-5",
            fr="défense",
        ),
        Command(
            "technique",
            Technique,
            N_("Use a technique of the sheet: its cost is paid after it resolves."),
            _technique_example,
            "PU-7",
            fr="technique",
            odds=technique_odds,
            outcome=outcome_of,
        ),
        Command(
            "flee",
            Nothing,
            N_("Flee: +3 defense; an opponent may interrupt you."),
            rule="PU-9",
            fr="fuite",
        ),
        Command(
            "interrupt",
            Nothing,
            N_("Interrupt a fleeing opponent with an attack: a hit stops the flight."),
            rule="PU-9",
            fr="interrompre",
            odds=interrupt_odds,
            outcome=outcome_of,
        ),
        Command(
            "no_interrupt",
            Nothing,
            N_("Let a fleeing opponent go: it leaves the fight."),
            rule="PU-9",
            fr="laisser fuir",
            en="let go",
        ),
    ],
    legal,
)
"""The fight commands of the `plus-ultra` system (`System(fight_commands=…)`)."""

KEYS = keys_of(COMMANDS, "action", "actor")
"""The keys each command may carry (the decider refuses any other)."""

LATE = late_by_preference(("no_interrupt", {}), ("defend", {}))
"""A late character's safe default (`jdr.live.pace`): it lets a fleeing opponent go without an
interrupting attack, else it defends (+5 defense until the start of its next turn, PU-5)."""
