"""The default Plus Ultra tactic (issue 21): the attack or technique with the best expected
damage that is ready and affordable, on the weakest opponent still in the fight.

A tactic is a plain function `tactic(state) -> command` (see docs/plugins.md): it reads the
fight's state and returns the command the fighter to play would give; it never rolls.

Expected damage of a plain attack (PU-3, PU-4): P(d20 + Volonté ≥ defense) × rank damage, the
defense being the target's 8 + Énergie (+5 defending, + a technique's bonus). A technique with an
attack effect (PU-7) makes `1 + extra_attacks` rolls at `+attack_bonus`, each hit removing
`damage + extra_damage`; a technique that does not attack is never chosen. While someone flees
(PU-9) the tactic lets them go (`no_interrupt`).

>>> def hero(name, side, energy=5):
...     return {"name": name, "side": side, "rank": "D", "energy": energy,
...             "willpower": 5, "ko": False, "escaped": False, "defending": False,
...             "defense_bonus": 0, "techniques": [], "used_round": {}}
>>> state = {"round": 1, "turn": "Izuku", "fleeing": None, "over": False, "characters": {
...     "Izuku": hero("Izuku", "a"), "Katsuki": hero("Katsuki", "b"),
...     "Shoto": hero("Shoto", "b", energy=2)}}
>>> tactic(state)
{'action': 'attack', 'actor': 'Izuku', 'target': 'Shoto'}
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from jdr.i18n import N_
from jdr.systems.plus_ultra.fight_commands import usable
from jdr.systems.plus_ultra.rules import damage, defense, hit_chance
from jdr.systems.protocol import Columns, Ending, Gauge, Json, Simulation

ATTACK_EFFECTS = (
    "extra_attacks",
    "attack_bonus",
    "extra_damage",
    "lower_willpower",
    "lower_energy",
)


def tactic(state: Json) -> Json:
    """The command the fighter to play gives (PU-4, PU-7, PU-9)."""
    if state["fleeing"]:
        return {"action": "no_interrupt"}
    actor = state["turn"]
    characters = state["characters"]
    me = characters[actor]
    opponents = [
        c
        for c in characters.values()
        if c["side"] != me["side"] and not c["ko"] and not c["escaped"]
    ]
    target = min(opponents, key=lambda c: (c["energy"], c["name"]))
    best: Json = {"action": "attack", "actor": actor, "target": target["name"]}
    best_value = expected_damage(me, target, {})
    for technique in me["techniques"]:
        effects = technique.get("effects", {})
        if not any(effects.get(key) for key in ATTACK_EFFECTS):
            continue
        if usable(state, actor, technique) is not None:
            continue
        value = expected_damage(me, target, effects)
        if value > best_value:
            best_value = value
            best = {
                "action": "technique",
                "actor": actor,
                "technique": technique["name"],
                "target": target["name"],
            }
    return best


def expected_damage(attacker: Json, target: Json, effects: Json) -> Fraction:
    """The Énergie an attack (or an attacking technique's `effects`) removes on average."""
    return _expected(
        attacker["rank"],
        attacker["willpower"] + int(effects.get("attack_bonus", 0) or 0),
        defense(target["energy"], target["defending"], bonus=target["defense_bonus"]),
        1 + int(effects.get("extra_attacks", 0) or 0),
        int(effects.get("extra_damage", 0) or 0),
    )


@lru_cache(maxsize=4096)
def _expected(rank: str, modifier: int, guard: int, rolls: int, extra_damage: int) -> Fraction:
    """`rolls` attacks at d20 + `modifier` against `guard`, each hit removing the rank's damage
    plus `extra_damage`: the mean Énergie removed, exactly (asked again and again in a fight)."""
    return rolls * hit_chance(modifier, guard) * (damage(rank) + extra_damage)


def sides(state: Json) -> dict[str, str]:
    """Each fighter's side, by name."""
    return {name: c["side"] for name, c in state["characters"].items()}


def over(state: Json) -> bool:
    return bool(state["over"])


def ending(events: Sequence[Json], state: Json) -> Ending:
    """The winner, rounds, KOs (PU-1) and Énergie dealt and taken (PU-3), from the events."""
    dealt: dict[str, int] = dict.fromkeys(state["characters"], 0)
    taken: dict[str, int] = dict.fromkeys(state["characters"], 0)
    for event in events:
        if event["type"] == "energy_lost":
            taken[event["name"]] += event["amount"]
            if event.get("by") in dealt:
                dealt[event["by"]] += event["amount"]
    knocked = tuple(name for name, c in state["characters"].items() if c["ko"])
    return Ending(state["winner"], state["round"], knocked, dealt, taken)


def gauges(state: Json) -> dict[str, list[Gauge]]:
    """Each character's Énergie and Volonté as the fight starts (a sheet holds only their
    maxima, PU-1: a fight always starts full)."""
    return {
        name: [
            Gauge(N_("Énergie"), c["energy"], c["energy_max"]),
            Gauge(N_("Volonté"), c["willpower"], c["willpower_max"]),
        ]
        for name, c in state["characters"].items()
    }


SIMULATION = Simulation(
    tactic=tactic,
    sides=sides,
    over=over,
    ending=ending,
    gauges=gauges,
    columns=Columns(N_("knocked out"), N_("Énergie dealt"), N_("Énergie lost")),
)
