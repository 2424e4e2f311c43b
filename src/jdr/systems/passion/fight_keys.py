"""The keys of each Passion fight command (PS-5 … PS-16) as models, who may play what now,
and the commands themselves, built with the odds `fight_models` passes in: the decider
(`fight_commands`, `fight_attacks`, `fight`) reads their names and keys here, below the odds
(`fight_odds`), which play the decider.

>>> sorted(KEYS["choose_marker"])
['action', 'actor', 'marker', 'potential', 'salt']
>>> PLAIN_COMMANDS.get("attack").odds is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from jdr.fights.commands import Command, Commands, Owner, Word, key, keys_of
from jdr.fights.odds import CommandOddsFn, OutcomeOf
from jdr.i18n import N_
from jdr.systems.passion.fight_state import choice_of, find, in_fight
from jdr.systems.passion.initiative import MARKERS
from jdr.systems.protocol import Json

WAITS = {
    "settle": ("settle", "npc_passion"),
    "dodge": ("dodge", "no_dodge"),
    "violence": ("violence",),
    "soak": ("soak",),
}
"""What the fight waits for → the commands that answer."""
TURN_ACTIONS = ("attack", "split_attack", "blast", "combined_attack", "action", "pass")
"""What the fighter whose turn it is may do (PS-9 … PS-13)."""
PART_ACTIONS = ("attack", "pass")
"""At the turn of one part of a split attack (PS-13)."""
PLAYER_ROLL = frozenset({"dice", "energy_die", "npc_energy", "npc_protection"})
"""Keys only a player's roll takes (the GM never rolls, PS-11)."""
NPC_ATTACK = frozenset({"energy", "weapon_energy"})
"""Keys only an NPC attacker takes (a player spends its pools after the roll, PS-5)."""
DEUS = "deus_ex_machina"
DEUS_COST = 4
"""PS-8: a player's miraculous turn of events costs 4 Passion."""


class _Keys(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _dice(text: str) -> Any:
    return key(text, fr="dés", default=None)


def _talent() -> Any:
    return key(
        N_("the talent or potential used (default: its combat score)"), fr="talent", default=None
    )


def _weapon() -> Any:
    return key(N_("the weapon, as the sheet names it (none: bare hands)"), fr="arme", default=None)


class _Pools(_Keys):
    """The pools spent before a player's roll: its Énergie for a die, NPCs' Énergie."""

    energy_die: bool = key(
        N_("one Énergie point stands in for one of the dice (PS-10)"),
        fr="dé d'Énergie",
        en="Énergie die",
        default=False,
    )
    npc_energy: list[str] = key(
        N_("NPCs spending 1 Énergie each before the roll: +1 to their score (PS-7)"),
        fr="Énergie des PNJ",
        en="NPC Énergie",
        default_factory=list,
        owner=Owner.GM,
    )


class _PlayerRoll(_Pools):
    """The keys of a roll a player makes (PS-7, PS-10, PS-15), and an NPC attacker's."""

    dice: str | None = _dice(N_("a player's dice, e.g. 2d6 or 2d4+1d12 (at least its marker)"))
    npc_protection: dict[str, str] = key(
        N_('NPC targets spending 1 Énergie of a protection: +1 to dodge, as JSON {"NPC": "item"}'),
        fr="protections des PNJ",
        en="NPC protections",
        default_factory=dict,
        owner=Owner.GM,
    )
    energy: bool = key(
        N_("an NPC attacker spends 1 Énergie: +1 to its score (PS-7)"),
        fr="Énergie",
        en="Énergie",
        default=False,
    )
    weapon_energy: Literal["roll", "damage"] | None = key(
        N_("an NPC attacker spends 1 Énergie of its weapon: on the roll or on damage (PS-14)"),
        fr="Énergie de l'arme",
        en="weapon Énergie",
        default=None,
        choices={
            "roll": Word("on the roll", "au jet", "jet"),
            "damage": Word("on damage", "aux dégâts", "dégâts"),
        },
    )


class ChooseMarker(_Keys):
    """PS-9: an initiative marker, sealed until every fighter has chosen."""

    marker: int = key(N_("one of your available markers"), fr="marqueur", ge=0, le=10)
    potential: str | None = key(
        N_("the mobility potential added (default: the sheet's)"), fr="potentiel", default=None
    )


class Attack(_PlayerRoll):
    """PS-10, PS-11: one attack against one target."""

    target: str | None = key(N_("the fighter attacked"), fr="cible", default=None, fighter=True)
    talent: str | None = _talent()
    weapon: str | None = _weapon()


class SplitAttack(_Keys):
    """PS-13: the talent and the marker split between several targets."""

    parts: list[dict[str, Any]] = key(
        N_("the parts, as JSON: one table per target, its talent and marker parts"),
        fr="parts",
        table={
            "target": ("target", "cible"),
            "talent": ("talent", "talent"),
            "marker": ("marker", "marqueur"),
        },
    )
    talent: str | None = _talent()


class Blast(_PlayerRoll):
    """PS-13: one roll against several targets' summed dodge scores."""

    targets: list[str] = key(N_("the fighters hit by the blast, A,B"), fr="cibles")
    talent: str | None = _talent()
    weapon: str | None = _weapon()


class CombinedAttack(_PlayerRoll):
    """PS-13: fighters of one side attack together; talents and damages add up."""

    partners: list[str] = key(
        N_("the partners, A,B"), fr="partenaires", owner=Owner.target("partners")
    )
    target: str = key(N_("the fighter attacked"), fr="cible", fighter=True)
    talents: dict[str, str] = key(
        N_('each fighter\'s talent, as JSON {"fighter": "talent"}'),
        fr="talents",
        default_factory=dict,
    )
    weapons: dict[str, str] = key(
        N_('each fighter\'s weapon, as JSON {"fighter": "weapon"}'),
        fr="armes",
        default_factory=dict,
    )


class ActionRoll(_Pools):
    """PS-3 … PS-6: any other action roll."""

    dice: str | None = _dice(N_("your dice, e.g. 3d6 (at least your marker)"))
    talent: str = key(N_("the talent or potential used"), fr="talent")
    difficulty: int = key(
        N_("the difficulty the GM sets"), fr="difficulté", default=0, ge=0, owner=Owner.GM
    )


class Text(_Keys):
    """A command with an optional text (a pass, a deus ex machina)."""

    text: str | None = key(N_("what happens, for the GM to narrate"), fr="texte", default=None)


class Dodge(_Keys):
    """PS-11: a dodge against an NPC's attack, as many dice as you like."""

    dice: str = key(N_("your dice, e.g. 3d6"), fr="dés")
    talent: str | None = key(
        N_("the talent used (default: your dodge score)"), fr="talent", default=None
    )


class NpcPassion(_Keys):
    """PS-7: an NPC's Passion cancels positives the player got on the dice."""

    points: int = key(N_("Passion points spent"), fr="points", ge=1)


class Settle(_Keys):
    """PS-5: the pools spent after seeing the dice."""

    energy: bool = key(
        N_("1 Énergie point: +1 positive"), fr="Énergie", en="Énergie", default=False
    )
    passion: int = key(
        N_("Passion points: each cancels a negative"),
        fr="Passion",
        en="Passion",
        default=0,
        ge=0,
    )
    item: str | None = key(
        N_("1 Énergie of the attack's weapon or of a protection (a dodge): +1 positive"),
        fr="objet",
        default=None,
    )


class Violence(_Keys):
    """PS-14: the attacker's Violence dice."""

    dice: str | None = _dice(N_("up to your weapon's Violence dice, e.g. 2d6 (none: omit)"))
    weapon_energy: bool = key(
        N_("1 Énergie of your weapon: +1 damage"),
        fr="Énergie de l'arme",
        en="weapon Énergie",
        default=False,
    )


class Soak(_Keys):
    """PS-15: the target's Robustesse dice."""

    dice: str | None = _dice(N_("up to your protections' Robustesse dice (none: omit)"))
    protection: str | None = key(
        N_("1 Énergie of this protection: +1 to soak"), fr="protection", default=None
    )


class Nothing(_Keys):
    """A command with no key."""


def legal(state: Json, actor: str) -> list[str]:
    """What `actor` may play now: its marker, its answer to what the fight waits for, its
    turn, a deus ex machina."""
    name = find(state, actor)
    if state["over"] or name is None:
        return []
    fighter = state["fighters"][name]
    found: list[str] = []
    waiting = state["waiting"]
    if waiting is not None:
        if waiting["actor"] == name:
            found = [c for c in WAITS[waiting["for"]] if c != "npc_passion"]
        elif "npc_passion" in WAITS[waiting["for"]] and _may_cancel(state, name):
            found = ["npc_passion"]
    elif state["phase"] == "markers":
        if name in in_fight(state) and choice_of(fighter) is None:
            found = ["choose_marker"]
    elif state["turn"] is not None and state["turn"]["name"] == name:
        found = list(PART_ACTIONS if state["turn"]["part"] is not None else TURN_ACTIONS)
    if not fighter["npc"] and fighter["passion"] >= DEUS_COST:
        found.append(DEUS)
    return found


def _may_cancel(state: Json, name: str) -> bool:
    rolled = state["waiting"]["roll"]
    npc = state["fighters"][name]
    side = state["fighters"][rolled["roller"]]["side"]
    left = rolled["dice_positives"] > rolled["npc_passion"]
    return bool(npc["npc"] and npc["side"] != side and npc["passion"] > 0 and left)


def _target(state: Json, actor: str | None) -> str:
    me = find(state, actor) or state["turn"]["name"]
    side = state["fighters"][me]["side"]
    return next(n for n in in_fight(state) if state["fighters"][n]["side"] != side)


def _marker(state: Json, actor: str | None) -> Json:
    me = find(state, actor)
    available = state["fighters"][me]["available"] if me else MARKERS
    return {"marker": available[min(2, len(available) - 1)]}


def _attack(state: Json, actor: str | None) -> Json:
    me = find(state, actor) or state["turn"]["name"]
    if state["fighters"][me]["npc"]:
        return {"target": _target(state, me)}
    return {"target": _target(state, me), "dice": f"{max(1, state['fighters'][me]['marker'])}d6"}


def _no_odds(name: str) -> CommandOddsFn | None:
    return None


def commands(
    odds: Callable[[str], CommandOddsFn | None] = _no_odds, outcome: OutcomeOf | None = None
) -> Commands:
    """The fight commands of the `passion` system, each rolled one with `odds(name)` and
    `outcome` (`fight_models` passes `fight_odds`'; by default none: what a command is called
    and takes, which the decider reads without the odds, which read the decider)."""
    return Commands(
        [
            Command(
                "choose_marker",
                ChooseMarker,
                N_("Choose an initiative marker in secret: sealed until every fighter has chosen."),
                _marker,
                "PS-9",
                fr="marqueur",
                en="marker",
                sealed=True,
            ),
            Command(
                "attack",
                Attack,
                N_("Attack a fighter: a player rolls against its dodge; an NPC's target dodges."),
                _attack,
                "PS-11",
                fr="attaque",
                odds=odds("attack"),
                outcome=outcome,
            ),
            Command(
                "split_attack",
                SplitAttack,
                N_("Split your talent and marker between several targets, one attack each."),
                {
                    "parts": [
                        {"target": "Ninja 1", "talent": 2, "marker": 3},
                        {"target": "Ninja 2", "talent": 2, "marker": 1},
                    ]
                },
                "PS-13",
                fr="attaque répartie",
            ),
            Command(
                "blast",
                Blast,
                N_("One roll against several targets' summed dodge scores."),
                {"targets": ["Ninja 1", "Ninja 2"], "dice": "4d6", "talent": "Blast"},
                "PS-13",
                fr="rafale",
                odds=odds("blast"),
                outcome=outcome,
            ),
            Command(
                "combined_attack",
                CombinedAttack,
                N_("Attack with partners of your side: talents and damages add up."),
                {"partners": ["Léa"], "target": "Ninja", "dice": "3d6"},
                "PS-13",
                fr="attaque combinée",
                odds=odds("combined_attack"),
                outcome=outcome,
            ),
            Command(
                "action",
                ActionRoll,
                N_("Any other action roll in the fight."),
                {"dice": "3d6", "talent": "Crochetage", "difficulty": 2},
                "PS-3",
                fr="action",
                odds=odds("action"),
                outcome=outcome,
            ),
            Command(
                "pass",
                Text,
                N_("Pass your turn (the marker still counts as used)."),
                rule="PS-12",
                fr="passer",
            ),
            Command(
                "dodge",
                Dodge,
                N_("Dodge an NPC's attack, with as many dice as you like."),
                {"dice": "3d6"},
                "PS-11",
                fr="esquive",
                odds=odds("dodge"),
                outcome=outcome,
            ),
            Command(
                "no_dodge",
                Nothing,
                N_("Take the NPC's attack without dodging."),
                rule="PS-11",
                fr="pas d'esquive",
                en="no dodge",
            ),
            Command(
                "npc_passion",
                NpcPassion,
                N_("An NPC spends Passion to cancel positives the player rolled."),
                {"points": 1},
                "PS-7",
                fr="Passion du PNJ",
                en="NPC Passion",
                optional=True,
            ),
            Command(
                "settle",
                Settle,
                N_(
                    "Settle your roll: the Énergie, Passion or item you spend"
                    " after seeing the dice."
                ),
                {"passion": 1},
                "PS-5",
                fr="régler",
            ),
            Command(
                "violence",
                Violence,
                N_("Roll your weapon's Violence dice (or none)."),
                {"dice": "1d6"},
                "PS-14",
                fr="violence",
                odds=odds("violence"),
                outcome=outcome,
            ),
            Command(
                "soak",
                Soak,
                N_("Roll your protections' Robustesse dice (or none)."),
                {"dice": "1d6"},
                "PS-15",
                fr="encaisser",
                odds=odds("soak"),
                outcome=outcome,
            ),
            Command(
                DEUS,
                Text,
                N_("Spend 4 Passion on a miraculous turn of events."),
                {"text": "un camion de matelas passait par là"},
                "PS-8",
                fr="deus ex machina",
                en="deus ex machina",
            ),
        ],
        legal,
    )


PLAIN_COMMANDS = commands()
"""The commands without their odds: their names, display names and keys."""

KEYS = keys_of(PLAIN_COMMANDS, "action", "actor")
"""The keys each command may carry (the decider refuses any other)."""
