"""The default Pokémon tactic (issue 21): the move with the best expected damage from the exact
attack odds (PK-10 … PK-13) and the type chart (PK-11), and the sensible reaction for the target.

A tactic is a plain function `tactic(state) -> commands`, best first (see docs/plugins.md): the
simulation plays the first one the decider accepts, so a move the tactic rates well but the rules
refuse (too little Énergie, a condition) falls back to the next, and to `pass` at last.

- The Pokémon to play is the first of `to_play`; its target, the standing opponent with the
  least Vitalité left.
- Each attack it can pay for is rated by the mean Vitalité lost (`attack_odds`, floats, with the
  chart's multiplier and the accuracy), against the target's best answer among those it may give
  (none, endure, dodge: the one that lowers that mean the most), and that answer is given with the
  order. A status move is not chosen (its worth is not a damage).
- An attack waiting for an answer (a table that asks defenders) is endured.

The default never counters (PK-14): a counter spends the defender's action and Énergie, and it is
worth neither a damage to lower nor a gain to count against them. `countering` is the same
tactic with the defender countering every attack it may counter, with its counter move that
would take the most Vitalité from the attacker: pass it as a user's tactic,
`simulate(SYSTEM, setup, tactic=countering)` (a module-level function, so it pickles for process
pools and Dask).

>>> def mon(name, side, strength):
...     stats = dict(strength=strength, concentration=2, constitution=3, willpower=2, dexterity=2)
...     moves = [{"name": "Charge", "type": "Normal", "category": "physique", "damage_dice": 2}]
...     return {"name": name, "types": ["Normal"], "stats": stats, "side": side, "moves": moves,
...             "vitality": {"current": 9, "max": 9}, "energy": {"current": 5, "max": 5}}
>>> from jdr.dice import Seeded
>>> from jdr.fights import Fight
>>> from jdr.systems.pokemon.fight import fight_rules
>>> fight = Fight.start(fight_rules(), {"pokemon": [mon("Evoli", "a", 3), mon("Rattata", "b", 2)]},
...                     Seeded(1))
>>> first = countering(fight.state)[0]
>>> first["response"], first["counter_move"]
('counter', 'Charge')
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from jdr.i18n import N_
from jdr.systems.pokemon.attack_odds import attack_odds
from jdr.systems.pokemon.attack_rules import Defence, defence_difficulty
from jdr.systems.pokemon.fight_moves import ATTACK_STAT, TOUGHNESS
from jdr.systems.pokemon.fight_orders import counter_moves, is_attack, may_dodge
from jdr.systems.pokemon.fight_state import accuracy, opponents, stat
from jdr.systems.pokemon.stalemate import stalled
from jdr.systems.pokemon.types import default_chart
from jdr.systems.protocol import Columns, Ending, Gauge, Json, Simulation, full_gauges


def tactic(state: Json) -> list[Json]:
    """The orders of the Pokémon to play, best first (PK-10 … PK-13)."""
    reaction = state.get("reaction")
    if reaction is not None:
        return [{"action": "respond", "actor": reaction["pokemon"], "response": "endure"}]
    actor = state["to_play"][0]
    me = state["pokemon"][actor]
    targets = opponents(state, actor)
    if not targets:
        return [{"action": "pass", "actor": actor}]
    target = min(targets, key=lambda name: (state["pokemon"][name]["vitality"], name))
    rated: list[tuple[float, Json]] = []
    for move in me["moves"]:
        if not is_attack(move) or move.get("energy", 0) > me["energy"]:
            continue
        value, response = best_against(state, me, move, target)
        order = {"action": "move", "actor": actor, "move": move["name"], "target": target}
        rated.append((value, order | {"response": response}))
    rated.sort(key=lambda pair: -pair[0])
    return [order for _value, order in rated] + [{"action": "pass", "actor": actor}]


def countering(state: Json) -> list[Json]:
    """The default tactic's orders, each attack answered by a counter when its target may counter
    it (PK-14), the order with its default answer next; an attack waiting for an answer is
    countered when it may be, else endured."""
    reaction = state.get("reaction")
    if reaction is not None:
        defender, attacker = reaction["pokemon"], reaction["attacker"]
        move = next(m for m in state["pokemon"][attacker]["moves"] if m["name"] == reaction["move"])
        answer: Json = {"action": "respond", "actor": defender}
        counter = counter_move(state, attacker, move, defender)
        countered = [] if counter is None else [answer | {"response": "counter"} | counter]
        return [*countered, answer | {"response": "endure"}]
    orders: list[Json] = []
    for order in tactic(state):
        if order["action"] == "move":
            move = next(m for m in state["pokemon"][order["actor"]]["moves"]
                        if m["name"] == order["move"])  # fmt: skip
            counter = counter_move(state, order["actor"], move, order["target"])
            if counter is not None:
                orders.append(order | {"response": "counter"} | counter)
        orders.append(order)
    return orders


def counter_move(state: Json, attacker: str, move: Json, defender: str) -> Json | None:
    """`{"counter_move": name}`: of the moves `defender` may counter `move` with, the one that
    takes the most Vitalité from `attacker` on average when the counter wins (its move then
    strikes with no defence and no accuracy check, PK-14); None when it may not counter."""
    them, me = state["pokemon"][defender], state["pokemon"][attacker]
    rated: list[tuple[float, str]] = []
    for counter in counter_moves(state, move, defender):
        multiplier = default_chart().multiplier(counter["type"], me["types"], them["types"])
        mean = _mean_lost(
            stat(them, ATTACK_STAT[counter["category"]]),
            counter["damage_dice"],
            bool(counter.get("high_crit")),
            multiplier.value,
            "none",
            0,
            0,
        )
        rated.append((mean, counter["name"]))
    if not rated:
        return None
    best = max(range(len(rated)), key=lambda index: (rated[index][0], -index))
    return {"counter_move": rated[best][1]}


def best_against(state: Json, attacker: Json, move: Json, target: str) -> tuple[float, str]:
    """The mean Vitalité `move` removes from `target` when it answers as well as it can, and
    that answer."""
    defender = state["pokemon"][target]
    category = move["category"]
    return _best_answer(
        move["type"],
        tuple(defender["types"]),
        tuple(attacker["types"]),
        stat(attacker, ATTACK_STAT[category]),
        move["damage_dice"],
        bool(move.get("high_crit")),
        accuracy(move["accuracy"], attacker["accuracy_stage"]),
        defence_difficulty(defender["waiting"]),
        stat(defender, TOUGHNESS[category]),
        stat(defender, "dexterity") if may_dodge(state, move, target) else None,
    )


@lru_cache(maxsize=4096)
def _best_answer(
    move_type: str,
    defender_types: tuple[str, ...],
    user_types: tuple[str, ...],
    attack_dice: int,
    damage_dice: int,
    high_crit: bool,
    effective_accuracy: int,
    difficulty: int,
    endure_dice: int,
    dodge_dice: int | None,
) -> tuple[float, str]:
    """`best_against` on the values it depends on: the least mean Vitalité lost among the
    answers none, endure and dodge (None: the defender may not dodge), and that answer (the
    first by name on a tie)."""
    multiplier = default_chart().multiplier(move_type, defender_types, user_types).value
    hit = min(100, effective_accuracy) / 100
    answers = []
    for response, dice in (("none", 0), ("endure", endure_dice), ("dodge", dodge_dice)):
        if dice is None:
            continue
        mean = _mean_lost(
            attack_dice, damage_dice, high_crit, multiplier, response, dice, difficulty
        )
        answers.append((hit * mean, response))
    return min(answers)


@lru_cache(maxsize=4096)
def _mean_lost(
    attack_dice: int,
    damage_dice: int,
    high_crit: bool,
    multiplier: Fraction,
    response: str,
    defence_dice: int,
    difficulty: int,
) -> float:
    defence = None
    if response in ("endure", "dodge"):
        defence = Defence("endure" if response == "endure" else "dodge", defence_dice, difficulty)
    odds = attack_odds(
        attack_dice, damage_dice, high_crit=high_crit, multiplier=multiplier, defence=defence
    )
    return float(odds.vitality_lost.mean())


def sides(state: Json) -> dict[str, str]:
    return {name: p["side"] for name, p in state["pokemon"].items()}


def over(state: Json) -> bool:
    return bool(state["over"])


def ending(events: Sequence[Json], state: Json) -> Ending:
    """The winner, rounds, KOs and Vitalité dealt and taken (moves and conditions)."""
    dealt: dict[str, int] = dict.fromkeys(state["pokemon"], 0)
    taken: dict[str, int] = dict.fromkeys(state["pokemon"], 0)
    for event in events:
        if event["type"] in ("damage_taken", "condition_damage"):
            taken[event["pokemon"]] += event["amount"]
            if event.get("by") in dealt:
                dealt[event["by"]] += event["amount"]
    knocked = tuple(name for name, p in state["pokemon"].items() if p["ko"])
    return Ending(state["winner"], state["round"], knocked, dealt, taken)


def fresh(sheet: Json) -> Json:
    """A Pokémon as it starts a fresh fight: Vitalité and Énergie full, no condition (PK-16,
    PK-17: what a Pokémon Center gives back; `jdr simulate --as-is` keeps them)."""
    rested = full_gauges(sheet)
    if rested.get("kind", "pokemon") == "pokemon":
        rested["condition"] = None
        rested["volatile"] = []
    return rested


def gauges(state: Json) -> dict[str, list[Gauge]]:
    """Each Pokémon's Vitalité and Énergie as the fight starts."""
    return {
        name: [
            Gauge(N_("Vitalité"), p["vitality"], p["vitality_max"]),
            Gauge(N_("Énergie"), p["energy"], p["energy_max"]),
        ]
        for name, p in state["pokemon"].items()
    }


SIMULATION = Simulation(
    tactic=tactic,
    sides=sides,
    over=over,
    ending=ending,
    tactics={"countering": countering},
    stalled=stalled,
    fresh=fresh,
    gauges=gauges,
    columns=Columns(N_("knocked out"), N_("Vitalité dealt"), N_("Vitalité lost")),
)
