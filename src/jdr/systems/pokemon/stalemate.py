"""When a simulated Pokémon fight can no longer end (`Simulation.stalled`, issue 21).

Énergie is only ever spent in a fight (PK-10): once no standing Pokémon can pay for any of its
moves, nobody can hurt anybody with a move again. Vitalité then changes only through conditions
(PK-16, PK-17): burn, poison, bad poison and curse take some at every Condition phase, and a
confused Pokémon may hurt itself. With none of those either, every round to come is the same
round of passes: the fight is a stalemate and has no winner.

>>> def mon(name, side, energy, condition=None):
...     return {"side": side, "ko": False, "energy": energy, "condition": condition,
...             "volatile": {}, "moves": [{"name": "Éclair", "energy": 1}]}
>>> state = {"over": False, "reaction": None,
...          "pokemon": {"Pika": mon("Pika", "a", 0), "Chu": mon("Chu", "b", 0)}}
>>> stalled(state)
True
>>> stalled(state | {"pokemon": {"Pika": mon("Pika", "a", 1), "Chu": mon("Chu", "b", 0)}})
False
>>> stalled(state | {"pokemon": {"Pika": mon("Pika", "a", 0, "poison"),
...                              "Chu": mon("Chu", "b", 0)}})
False
"""

from __future__ import annotations

from jdr.systems.protocol import Json

HURTING_CONDITIONS = frozenset({"burn", "poison", "bad_poison"})
"""PK-16: the major conditions that take Vitalité at every Condition phase."""
HURTING_VOLATILE = frozenset({"curse", "confusion"})
"""PK-17: the volatile conditions that take Vitalité (a curse each phase; confusion by a
self-hit, until it wears off)."""


def stalled(state: Json) -> bool:
    """Whether the fight, not over, can no longer change any Pokémon's Vitalité: no standing
    Pokémon can pay for a move, none suffers a condition that hurts, no answer is awaited."""
    if state["over"] or state.get("reaction") is not None:
        return False
    for pokemon in state["pokemon"].values():
        if pokemon["ko"]:
            continue
        if pokemon["condition"] in HURTING_CONDITIONS:
            return False
        if HURTING_VOLATILE.intersection(pokemon["volatile"]):
            return False
        if any(move.get("energy", 0) <= pokemon["energy"] for move in pokemon["moves"]):
            return False
    return True
