"""Issue 21 item 1: every system's `evolve` shares with the state before it every part an event
leaves alone instead of copying the whole fight, and nothing it returns is ever changed after:
every state of a fight stays the state it was when it was made, and the last one is the fold
from scratch (checked against a fold that copies everything) — on fights of all five systems
that their default tactics play (Plus Ultra with techniques, defense, flight and KOs; Passion
with a tactic that also splits, blasts, combines, rolls other actions and calls a deus ex
machina at random; Pokémon with one that gives any move, answer, wait or free order at random)."""

from __future__ import annotations

import copy
import functools
import json
import random
import tomllib
from collections.abc import Callable
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


def _played(
    rules: Any, tactic: Any, evolve: Any, setup: Json, seed: int, over: Any = None
) -> list[Json]:
    """The events of the fight `setup` played to its end (`over(state)`, by default its `over`
    key) or 300 commands, each fighter following `tactic` (its first command the rules accept),
    the state folded by `evolve`."""
    rng = Seeded(seed)
    events = list(rules.start(setup, rng))
    state: Json = {}
    for event in events:
        state = evolve(state, event)
    for _step in range(300):
        if over(state) if over is not None else state["over"]:
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


POKEMON_MOVES: list[Json] = [
    {"name": "Charge", "type": "Normal", "category": "physique", "damage_dice": 3},
    {"name": "Flammèche", "type": "Feu", "category": "speciale", "damage_dice": 1, "energy": 1,
     "inflicts": {"condition": "brulure", "chance": 50}},
    {"name": "Morsure", "type": "Tenebres", "category": "physique", "damage_dice": 1,
     "inflicts": {"condition": "flinch"}},
    {"name": "Ultrason", "type": "Normal", "category": "statut", "accuracy": 80,
     "inflicts": {"condition": "confusion"}},
    {"name": "Hypnose", "type": "Psy", "category": "statut", "accuracy": 60,
     "inflicts": {"condition": "sommeil"}},
    {"name": "Toxik", "type": "Poison", "category": "statut",
     "inflicts": {"condition": "Empoisonnement grave"}},
    {"name": "Attraction", "type": "Normal", "category": "statut",
     "inflicts": {"condition": "Attirance"}},
    {"name": "Jet de Sable", "type": "Sol", "category": "statut",
     "stat_change": {"stat": "précision", "stages": -1}},
    {"name": "Groz'Yeux", "type": "Normal", "category": "statut",
     "stat_change": {"stat": "Constitution", "stages": -2}},
]  # fmt: skip
"""Moves that reach every handler of the Pokémon fold (conditions, stat changes, flinch …)."""


@functools.cache
def _wild_pokemon_fight(seed: int) -> list[Json]:
    """A Pokémon 2-against-2 (shared initiative slots: every Dextérité is 2) where each order is
    drawn from `Random(seed)`: any move with any answer, or none (the defender is then asked and
    answers at random), a wait or a free order; a fifth Pokémon joins in round 2. Refused
    commands fall back to `pass` (or `endure`)."""
    from jdr.systems.pokemon import fight_state as pokemon_state

    system: Any = default_registry().get("pokemon")
    rules = system.fight
    draw = random.Random(seed)

    def mon(name: str, side: str, kind: str) -> Json:
        stats = dict(strength=3, concentration=3, constitution=2, willpower=2, dexterity=2)
        return {
            "name": name, "types": [kind], "stats": stats, "side": side,
            "moves": draw.sample(POKEMON_MOVES, 5), "vitality": {"current": 8, "max": 8},
            "energy": {"current": 8, "max": 8},
        }  # fmt: skip

    kinds = ["Eau", "Feu", "Plante", "Spectre"]
    setup = {"pokemon": [mon(f"P{i}", "ab"[i % 2], kinds[i]) for i in range(4)]}

    def wild(state: Json) -> list[Json]:
        reaction = state["reaction"]
        if reaction is not None:
            answer = draw.choice(reaction["responses"])
            counter = draw.choice(state["pokemon"][reaction["pokemon"]]["moves"])["name"]
            respond = {"action": "respond", "actor": reaction["pokemon"]}
            return [respond | {"response": answer, "counter_move": counter}, respond]
        if state["round"] == 2 and "Late" not in state["pokemon"]:
            return [{"action": "join", "pokemon": mon("Late", "a", "Normal")}]
        actor = draw.choice(state["to_play"])
        others = [name for name in state["pokemon"] if name != actor]
        roll = draw.random()
        if roll < 0.1:
            order: Json = {"action": "wait", "actor": actor}
        elif roll < 0.15:
            order = {"action": "free", "actor": actor, "text": "hides"}
        else:
            target = draw.choice(others)
            order = {"action": "move", "actor": actor, "target": target}
            order |= {"move": draw.choice(state["pokemon"][actor]["moves"])["name"]}
            order |= {"response": draw.choice([None, "none", "endure", "dodge", "counter"])}
            order |= {"counter_move": draw.choice(state["pokemon"][target]["moves"])["name"]}
        return [order, {"action": "pass", "actor": actor}]

    return _played(rules, wild, pokemon_state.evolve, setup, seed)


POKEMON_SEEDS = [1, 2, 3, 5]


@pytest.mark.parametrize("seed", POKEMON_SEEDS)
def test_pk_every_state_of_a_wild_fight_stays_as_it_was_made(seed: int) -> None:
    from jdr.systems.pokemon import fight_state as pokemon_state

    _unchanged_and_the_fold_from_scratch(pokemon_state.evolve, _wild_pokemon_fight(seed))


def test_pk_the_wild_fights_play_every_kind_of_event() -> None:
    """The fights above reach every handler of the fold (shared slots' held effects, joins,
    answers asked of defenders, conditions, stat changes, flinch, confusion …)."""
    from jdr.systems.pokemon.fight_state import _CHANGES, _HANDLERS

    kinds = {e["type"] for seed in POKEMON_SEEDS for e in _wild_pokemon_fight(seed)}
    assert set(_HANDLERS) | set(_CHANGES) <= kinds, (set(_HANDLERS) | set(_CHANGES)) - kinds
    assert any(e.get("held") for seed in POKEMON_SEEDS for e in _wild_pokemon_fight(seed))


def test_pk_an_event_copies_only_the_pokemon_it_touches() -> None:
    from jdr.systems.pokemon import fight_state as pokemon_state

    state: Json = {}
    for event in _pokemon_fight(1)[:4]:
        state = pokemon_state.evolve(state, event)
    hit = {"type": "damage_taken", "pokemon": "Carapuce", "amount": 2, "by": "Salamèche"}
    after = pokemon_state.evolve(state, hit)
    before, now = state["pokemon"], after["pokemon"]
    assert now["Carapuce"]["vitality"] == before["Carapuce"]["vitality"] - 2
    assert now["Salamèche"] is before["Salamèche"]
    assert now["Carapuce"] is not before["Carapuce"]
    assert now["Carapuce"]["stats"] is before["Carapuce"]["stats"]
    assert now["Carapuce"]["moves"] is before["Carapuce"]["moves"]
    assert after["order"] is state["order"] and after["settings"] is state["settings"]
    record = {"type": "attack_rolled", "pokemon": "Carapuce", "move": "Charge"}
    assert pokemon_state.evolve(state, record)["pokemon"] is state["pokemon"]


def _unchanged_and_the_fold_from_scratch(
    evolve: Callable[[Json, Json], Json], events: list[Json]
) -> None:
    """Each state stays what it was when made; the last is a fold that deep-copies each state."""
    states, taken = [], []
    state: Json = {}
    for event in events:
        state = evolve(state, event)
        states.append(state)
        taken.append(json.dumps(state, sort_keys=True))
    assert [json.dumps(s, sort_keys=True) for s in states] == taken
    scratch: Json = {}
    for event in events:
        scratch = evolve(copy.deepcopy(scratch), event)
    assert scratch == state


# --- Passion ------------------------------------------------------------------------------------


def _passion_sheet(name: str, side: str, **changes: Any) -> Json:
    text = resources.files("jdr.systems.passion").joinpath("examples", name).read_text("utf-8")
    return tomllib.loads(text) | {"side": side} | changes


def _wild_passion(seed: int) -> Callable[[Json], list[Json]]:
    """The default Passion tactic, but at a fighter's own turn, now and then (drawn from
    `Random(seed)`), a split attack, a blast, a combined attack, another action roll or a deus ex
    machina first, or a pass; at a dodge, now and then none: the decider plays it, or refuses it
    and the default is played."""
    from jdr.systems.passion.tactic import tactic, targets_of

    draw = random.Random(seed)

    def wild(state: Json) -> list[Json]:
        default = tactic(state)
        turn, waiting = state["turn"], state["waiting"]
        if waiting and waiting["for"] == "dodge" and draw.random() < 0.2:
            return [{"action": "no_dodge", "actor": waiting["actor"]}]
        if waiting or turn is None or turn["part"] is not None:
            return default
        actor = turn["name"]
        me = state["fighters"][actor]
        opponents = targets_of(state, actor)
        dice = f"{max(1, me['marker'])}d6"
        roll = draw.random()
        if roll < 0.15 and len(opponents) >= 2:
            talent = int(me["talents"].get(me["uses"]["combat"], 0))
            marker = int(me["marker"])
            parts = [
                {"target": opponents[0], "talent": talent // 2, "marker": marker // 2},
                {"target": opponents[1], "talent": talent - talent // 2,
                 "marker": marker - marker // 2},
            ]  # fmt: skip
            return [{"action": "split_attack", "actor": actor, "parts": parts}, *default]
        if roll < 0.3 and len(opponents) >= 2:
            blast = {"action": "blast", "actor": actor, "targets": opponents[:2], "dice": dice}
            return [blast, *default]
        if roll < 0.45 and opponents:
            partners = [
                slot["name"] for slot in state["slots"]
                if slot["part"] is None and slot["name"] != actor
                and state["fighters"][slot["name"]]["side"] == me["side"]
            ]  # fmt: skip
            together = {"action": "combined_attack", "actor": actor, "partners": partners[:1]}
            return [together | {"target": opponents[0], "dice": dice}, *default]
        if roll < 0.55:
            other = {"action": "action", "actor": actor, "dice": dice, "difficulty": 2}
            return [other | {"talent": me["uses"]["combat"]}, *default]
        if roll < 0.6:
            return [{"action": "deus_ex_machina", "actor": actor}, *default]
        if roll < 0.65:
            return [{"action": "pass", "actor": actor}]
        return default

    return wild


def _passion_fight(seed: int) -> list[Json]:
    """The events of a Passion 2-against-2: Romuald and Rosalie (a kick of 1: her XP raises it,
    PS-17, PS-18) against two cyber-ninjas."""
    from jdr.systems.passion import fight_state as passion_state

    system: Any = default_registry().get("passion")
    romuald = _passion_sheet("romuald.toml", "heroes")
    rosalie = romuald | {
        "name": "Rosalie",
        "potentials": {"Corps": 2, "Esprit": 3, "Mobilité": 3},
        "talents": romuald["talents"] | {"Coup de pied circulaire": 1},
    }
    ninja = _passion_sheet("cyber-ninja.toml", "ninjas")
    setup = {"fighters": [romuald, rosalie, ninja, ninja | {"name": "Ninja 2"}]}
    return _played(system.fight, _wild_passion(seed), passion_state.evolve, setup, seed)


PASSION_SEEDS = [1, 2, 3, 5, 8, 13]


@pytest.mark.parametrize("seed", PASSION_SEEDS)
def test_ps_9_every_state_stays_as_it_was_made_and_the_fold_is_unchanged(seed: int) -> None:
    from jdr.systems.passion import fight_state as passion_state

    events = _passion_fight(seed)
    assert {"wounded", "roll_settled", "marker_chosen", "round_started"} <= {
        e["type"] for e in events
    }
    _unchanged_and_the_fold_from_scratch(passion_state.evolve, events)


def test_ps_9_the_passion_fights_play_every_kind_of_event() -> None:
    """The fights above reach every handler of the fold (splits, blasts, combined attacks, the
    NPCs' Passion, damage dice, XP, ticked markers …)."""
    from jdr.systems.passion.fight_state import _HANDLERS

    kinds = {e["type"] for seed in PASSION_SEEDS for e in _passion_fight(seed)}
    assert set(_HANDLERS) <= kinds, set(_HANDLERS) - kinds


def test_ps_16_an_event_copies_only_the_fighters_it_touches() -> None:
    from jdr.systems.passion import fight_state as passion_state

    events = _passion_fight(1)
    state: Json = {}
    for event in events[:2]:
        state = passion_state.evolve(state, event)
    hit = {"type": "wounded", "name": "Rosalie", "wounds": 2}
    after = passion_state.evolve(state, hit)
    assert after["fighters"]["Rosalie"]["wounds"] == state["fighters"]["Rosalie"]["wounds"] + 2
    assert after["fighters"]["Romuald"] is state["fighters"]["Romuald"]
    assert after["fighters"]["Rosalie"] is not state["fighters"]["Rosalie"]
    assert after["fighters"]["Rosalie"]["weapons"] is state["fighters"]["Rosalie"]["weapons"]
    assert after["settings"] is state["settings"]


# --- Ilvermorny, Polédémos -------------------------------------------------------------------


def _ilvermorny_duel(seed: int) -> list[Json]:
    """A duel of the shipped wizard against a rival with spells of two elements."""
    from jdr.systems.ilvermorny import fight_state as ilvermorny_state

    system: Any = default_registry().get("ilvermorny")
    text = resources.files("jdr.systems.ilvermorny").joinpath("examples", "wizard.toml")
    wizard = tomllib.loads(text.read_text("utf-8"))
    rival = {
        "name": "Rival",
        "stats": dict(wizard["stats"]) | {"magic": 6},
        "spells": [
            {"name": "Incendio", "difficulty": 1, "element": "feu", "level": 2},
            {"name": "Aguamenti", "difficulty": 1, "element": "eau", "level": 1},
        ],
    }
    setup = {"wizards": [wizard, rival]}
    rules, tactic = system.fight, system.simulation.tactic
    return _played(rules, tactic, ilvermorny_state.evolve, setup, seed)


@pytest.mark.parametrize("seed", [1, 2, 3, 5])
def test_il_10_every_state_stays_as_it_was_made_and_the_fold_is_unchanged(seed: int) -> None:
    from jdr.systems.ilvermorny import fight_state as ilvermorny_state

    events = _ilvermorny_duel(seed)
    assert {"spell_chosen", "spells_opened", "spell_cast", "duel_ended"} <= {
        e["type"] for e in events
    }
    _unchanged_and_the_fold_from_scratch(ilvermorny_state.evolve, events)


def _poledemos_game(seed: int) -> list[Json]:
    """The shipped warband against a smaller one, each hand played by the best policy."""
    from jdr.systems.poledemos import play_state as poledemos_state

    system: Any = default_registry().get("poledemos")
    text = resources.files("jdr.systems.poledemos").joinpath("examples", "warband.toml")
    warband = tomllib.loads(text.read_text("utf-8"))
    other = {"name": "Bob", "figures": [{"name": f"B{i}", "val": "4+"} for i in range(3)]}
    setup = {"players": [warband | {"name": "Alice"}, other]}
    rules, simulation = system.fight, system.simulation
    return _played(rules, simulation.tactic, poledemos_state.evolve, setup, seed, simulation.over)


@pytest.mark.parametrize("seed", [1, 2, 3, 5])
def test_pd_4_every_state_stays_as_it_was_made_and_the_fold_is_unchanged(seed: int) -> None:
    from jdr.systems.poledemos import play_state as poledemos_state

    events = _poledemos_game(seed)
    assert {"hand_started", "activation_rolled", "action_taken", "activation_ended"} <= {
        e["type"] for e in events
    }
    _unchanged_and_the_fold_from_scratch(poledemos_state.evolve, events)
