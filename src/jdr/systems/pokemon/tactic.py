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
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from jdr.systems.pokemon.attack import Defence, defence_difficulty
from jdr.systems.pokemon.attack_odds import attack_odds
from jdr.systems.pokemon.fight_moves import ATTACK_STAT, TOUGHNESS
from jdr.systems.pokemon.fight_orders import is_attack, possible_responses
from jdr.systems.pokemon.fight_state import accuracy, opponents, stat
from jdr.systems.pokemon.types import default_chart
from jdr.systems.protocol import Ending, Json, Simulation


def tactic(state: Json) -> list[Json]:
    """The orders of the Pokémon to play, best first (PK-10 … PK-13)."""
    if state.get("reaction") is not None:
        return [{"action": "respond", "response": "endure"}]
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


def best_against(state: Json, attacker: Json, move: Json, target: str) -> tuple[float, str]:
    """The mean Vitalité `move` removes from `target` when it answers as well as it can, and
    that answer."""
    defender = state["pokemon"][target]
    category = move["category"]
    multiplier = default_chart().multiplier(move["type"], defender["types"], attacker["types"])
    hit = min(100, accuracy(move["accuracy"], attacker["accuracy_stage"])) / 100
    difficulty = defence_difficulty(defender["waiting"])
    answers = []
    for response in possible_responses(state, move, target):
        if response == "counter":
            continue
        dice = 0
        if response == "endure":
            dice = stat(defender, TOUGHNESS[category])
        elif response == "dodge":
            dice = stat(defender, "dexterity")
        mean = _mean_lost(
            stat(attacker, ATTACK_STAT[category]),
            move["damage_dice"],
            bool(move.get("high_crit")),
            multiplier.value,
            response,
            dice,
            difficulty,
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


SIMULATION = Simulation(tactic=tactic, sides=sides, over=over, ending=ending)
