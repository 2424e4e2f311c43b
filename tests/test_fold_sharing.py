"""Issue 21 item 1: Plus Ultra's `evolve` shares with the state before it every part an event
leaves alone instead of copying the whole fight, and nothing it returns is ever changed after:
every state of a fight stays the state it was when it was made, and the last one is the fold
from scratch (checked against a fold that copies everything, on fights the default tactic plays
with techniques, defense, flight and KOs)."""

from __future__ import annotations

import copy
import json
import tomllib
from importlib import resources
from typing import Any

import pytest

from jdr.dice import Seeded
from jdr.systems import default_registry
from jdr.systems.plus_ultra import fight_state

Json = dict[str, Any]


def _example(name: str) -> Json:
    text = resources.files("jdr.systems.plus_ultra").joinpath("examples", name).read_text("utf-8")
    return tomllib.loads(text)


def _fight(seed: int) -> list[Json]:
    """The events of a 2-against-1 Plus Ultra fight the default tactic plays to its end."""
    system: Any = default_registry().get("plus-ultra")
    rules, tactic = system.fight, system.simulation.tactic
    hero, villain = _example("hero.toml"), _example("villain.toml")
    sidekick = hero | {"name": "Aiko"}
    fighters = [hero | {"side": "a"}, sidekick | {"side": "a"}, villain | {"side": "b"}]
    setup = {"characters": fighters}
    return _played(rules, tactic, rules.evolve, setup, seed)


def _played(rules: Any, tactic: Any, evolve: Any, setup: Json, seed: int) -> list[Json]:
    """The events of the fight `setup` played to its end, each fighter following `tactic` (its
    first command the rules accept), the state folded by `evolve`."""
    rng = Seeded(seed)
    events = list(rules.start(setup, rng))
    state: Json = {}
    for event in events:
        state = evolve(state, event)
    for _step in range(300):
        if state["over"]:
            break
        chosen = tactic(state)
        for command in chosen if isinstance(chosen, list) else [chosen]:
            try:
                new = list(rules.decide(state, command, rng))
                break
            except Exception:  # the next command the tactic offers
                continue
        for event in new:
            state = evolve(state, event)
        events.extend(new)
    return events


def _copying_evolve(state: Json, event: Json) -> Json:
    """The fold as it was: a whole copy of the state, then the event applied to it."""
    return fight_state.evolve(copy.deepcopy(state), event)


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8, 13])
def test_pu_1_every_state_stays_as_it_was_made_and_the_fold_is_unchanged(seed: int) -> None:
    events = _fight(seed)
    kinds = {e["type"] for e in events}
    assert {"energy_lost", "turn_started", "round_started"} <= kinds
    states: list[Json] = []
    taken: list[str] = []
    state: Json = {}
    for event in events:
        state = fight_state.evolve(state, event)
        states.append(state)
        taken.append(json.dumps(state, sort_keys=True))  # what it was when made
    assert [json.dumps(s, sort_keys=True) for s in states] == taken
    scratch: Json = {}
    for event in events:
        scratch = _copying_evolve(scratch, event)
    assert scratch == state


def test_pu_1_an_event_copies_only_the_characters_it_touches() -> None:
    events = _fight(1)
    state: Json = {}
    for event in events[:3]:
        state = fight_state.evolve(state, event)
    hit = {"type": "energy_lost", "name": "Aiko", "amount": 1}
    after = fight_state.evolve(state, hit)
    assert after["characters"]["Aiko"]["energy"] == state["characters"]["Aiko"]["energy"] - 1
    assert after["characters"]["Kaito Arashi"] is state["characters"]["Kaito Arashi"]
    assert after["characters"]["Aiko"] is not state["characters"]["Aiko"]
    assert after["order"] is state["order"]


# --- Pokémon ------------------------------------------------------------------------------------


def _pokemon_fight(seed: int) -> list[Json]:
    """The events of a Pokémon 1-against-1 the default tactic plays to its end (bench_simulate's
    duel: two attacks each, one of them typed)."""
    from jdr.systems.pokemon import fight_state as pokemon_state

    system: Any = default_registry().get("pokemon")
    rules, tactic = system.fight, system.simulation.tactic

    def mon(name: str, side: str, kind: str) -> Json:
        stats = dict(strength=3, concentration=3, constitution=2, willpower=2, dexterity=2)
        moves = [
            {"name": "Charge", "type": "Normal", "category": "physique", "damage_dice": 2},
            {"name": "Jet", "type": kind, "category": "speciale", "damage_dice": 2},
        ]
        return {
            "name": name, "types": [kind], "stats": stats, "side": side, "moves": moves,
            "vitality": {"current": 12, "max": 12}, "energy": {"current": 5, "max": 5},
        }  # fmt: skip

    setup = {"pokemon": [mon("Carapuce", "a", "Eau"), mon("Salamèche", "b", "Feu")]}
    return _played(rules, tactic, pokemon_state.evolve, setup, seed)


@pytest.mark.parametrize("seed", [1, 2, 3, 5])
def test_pk_every_state_stays_as_it_was_made_and_the_fold_is_unchanged(seed: int) -> None:
    from jdr.systems.pokemon import fight_state as pokemon_state

    events = _pokemon_fight(seed)
    assert {"damage_taken", "round_started", "slot_opened"} <= {e["type"] for e in events}
    states, taken = [], []
    state: Json = {}
    for event in events:
        state = pokemon_state.evolve(state, event)
        states.append(state)
        taken.append(json.dumps(state, sort_keys=True))
    assert [json.dumps(s, sort_keys=True) for s in states] == taken
    scratch: Json = {}
    for event in events:
        scratch = pokemon_state.evolve(copy.deepcopy(scratch), event)
    assert scratch == state
