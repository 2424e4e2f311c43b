"""Issue 29: one distribution per fight command, shared by the fight and its odds.

For every system and every command that rolls, the real decider is played thousands of times on
seeded dice from the same state, and each outcome's frequency must lie in its 99.9 % interval
around the command's declared odds (`tests/command_odds_check.py`); a deliberately wrong odds
function must fail. Each system adds its cases to `CASES`.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from command_odds_check import Case, check_odds, decide_many, mismatches, rolls, shifted
from jdr.dice import Seeded
from jdr.fights.narration import Words
from jdr.fights.odds import CommandOdds, command_odds
from jdr.i18n import add_catalog, language
from jdr.simulate.service import sheet_fighter
from jdr.systems import default_registry
from jdr.systems.protocol import Json

PLUGIN = Path(__file__).resolve().parents[1] / "examples" / "plugin" / "src"


@cache
def system(system_id: str) -> Any:
    """A built-in system, or the example plug-in (`ombres`, from examples/plugin)."""
    if system_id == "ombres":
        if str(PLUGIN) not in sys.path:
            sys.path.append(str(PLUGIN))
        from jdr_ombres import SYSTEM

        assert SYSTEM.messages is not None
        add_catalog(SYSTEM.messages)
        return SYSTEM
    return default_registry().get(system_id)


def started(system_id: str, setup: Json, commands: list[Json] = ()) -> Callable[[], Json]:  # type: ignore[assignment]
    """The state of a fight started from `setup` (seeded), after `commands`."""

    def state() -> Json:
        from jdr.fights import play

        return play(system(system_id).fight, setup, list(commands), Seeded(7)).state

    return state


# --- the example plug-in (OM-4) -----------------------------------------------------------------


def _ombres(combat: int, resolve: int) -> Json:
    fighters = [
        {"name": "Ann", "side": "a", "combat": combat, "resolve": resolve, "stress_max": 9},
        {"name": "Bob", "side": "b", "combat": 1, "resolve": 1, "stress_max": 9},
    ]
    return {"fighters": fighters, "order": ["Ann", "Bob"]}


OMBRES = [
    Case("ombres attack combat 2", "ombres", started("ombres", _ombres(2, 1)), "Ann", "attack",
         {"target": "Bob"}),
    Case("ombres attack combat 0", "ombres", started("ombres", _ombres(0, 1)), "Ann", "attack",
         {"target": "Bob"}),
    Case("ombres recover resolve 3", "ombres", started("ombres", _ombres(1, 3)), "Ann",
         "recover"),
]  # fmt: skip

# --- Pokémon (PK-9 … PK-17) ---------------------------------------------------------------------


def _move(name: str, kind: str, category: str, damage: int = 0, **extra: Any) -> Json:
    return (
        {"name": name, "type": kind, "category": category, "damage_dice": damage}
        | {"energy": 1}
        | extra
    )


FOUDRE = _move("Fatal-Foudre", "Électrik", "spéciale", 3, accuracy=70)
CHARGE = _move("Charge", "Normal", "physique", 1)
TRANCHE = _move("Tranche", "Normal", "physique", 2, high_crit=True, accuracy=85)
HYPNOSE = _move(
    "Hypnose", "Psy", "statut", accuracy=60, inflicts={"condition": "sleep", "chance": 100}
)


def _mon(name: str, side: str, types: list[str], dexterity: int, **extra: Any) -> Json:
    stats = {"strength": 3, "concentration": 4, "constitution": 2, "willpower": 3}
    sheet: Json = {"name": name, "side": side, "types": types}
    sheet["stats"] = stats | {"dexterity": dexterity}
    sheet["moves"] = [FOUDRE, CHARGE, TRANCHE, HYPNOSE]
    sheet |= {"vitality": {"current": 30, "max": 30}, "energy": {"current": 20, "max": 20}}
    return sheet | extra


def _pokemon(reactions: str = "none", first: str = "Pikachu", **extra: Any) -> Json:
    """Pikachu (Électrik) against Onix (Eau/Roche: Électrik ×2, Normal ×0.5) in the setup's
    order: the first one has Dextérité 20, so it plays first whatever its d10."""
    pikachu = _mon("Pikachu", "a", ["Électrik"], 20 if first == "Pikachu" else 1, **extra)
    onix = _mon("Onix", "b", ["Eau", "Roche"], 20 if first == "Onix" else 1)
    return {"pokemon": [pikachu, onix], "settings": {"reactions": reactions}}


def _wait_then(reactions: str) -> Callable[[], Json]:
    """Onix waits (PK-15) first: Pikachu's attack meets a defence at DD 4."""
    return started(
        "pokemon", _pokemon(reactions, first="Onix"), [{"actor": "Onix", "action": "wait"}]
    )


def _asked() -> Callable[[], Json]:
    """Pikachu's Charge (no accuracy roll) waits for Onix's answer."""
    command = {"actor": "Pikachu", "action": "move", "move": "Charge"}
    return started("pokemon", _pokemon("ask"), [command])


POKEMON = [
    Case("pokemon 70 % move, no defence", "pokemon", started("pokemon", _pokemon()), "Pikachu",
         "move", {"move": "Fatal-Foudre"}),
    Case("pokemon 70 % move, the table's default dodge against a waiting Onix", "pokemon",
         _wait_then("dodge"), "Pikachu", "move", {"move": "Fatal-Foudre"}),
    Case("pokemon range penalty, declared endure, ×0.5 rounded down", "pokemon",
         started("pokemon", _pokemon("ask")), "Pikachu", "move",
         {"move": "Charge", "range_penalty": True, "response": "endure"}),
    Case("pokemon high critical 85 %, declared dodge", "pokemon",
         started("pokemon", _pokemon("ask")), "Pikachu", "move",
         {"move": "Tranche", "response": "dodge"}),
    Case("pokemon status move at 60 %", "pokemon", started("pokemon", _pokemon()), "Pikachu",
         "move", {"move": "Hypnose"}),
    Case("pokemon infatuated attacker", "pokemon",
         started("pokemon", _pokemon(volatile=["infatuation"])), "Pikachu", "move",
         {"move": "Tranche"}),
    Case("pokemon respond dodge", "pokemon", _asked(), "Onix", "respond", {"response": "dodge"}),
    Case("pokemon respond endure", "pokemon", _asked(), "Onix", "respond",
         {"response": "endure"}),
    Case("pokemon respond none", "pokemon", _asked(), "Onix", "respond", {"response": "none"}),
    Case("pokemon declared counter (PK-14)", "pokemon", started("pokemon", _pokemon("ask")),
         "Pikachu", "move", {"move": "Charge", "response": "counter", "counter_move": "Tranche"}),
    Case("pokemon respond counter (PK-14)", "pokemon", _asked(), "Onix", "respond",
         {"response": "counter", "counter_move": "Charge"}),
]  # fmt: skip

# --- Plus Ultra (PU-4 … PU-9) ---------------------------------------------------------------------

RAFALE = {"name": "Rafale", "cost": 2, "cooldown": 1}
RAFALE["effects"] = {"extra_attacks": 2, "attack_bonus": 1, "extra_damage": 2, "lower_energy": 1}
GARDE = {"name": "Garde", "cost": 0, "cooldown": 1, "equipment": True}
GARDE["effects"] = {"defense_bonus": 2}


def _heroes(order: list[str]) -> Json:
    """Kaito (C, 8/8, hits for 2) against Corbeau (B, 12/10) and its ally Sbire (D+, 8/5)."""
    kaito = {"name": "Kaito", "rank": "C", "energy": 8, "willpower": 8, "side": "a"}
    corbeau = {"name": "Corbeau", "rank": "B", "energy": 12, "willpower": 10, "side": "b"}
    sbire = {"name": "Sbire", "rank": "D+", "energy": 8, "willpower": 5, "side": "b"}
    kaito["techniques"] = [RAFALE]
    corbeau["techniques"] = [GARDE]
    return {"characters": [kaito, corbeau, sbire], "order": order}


def _after(order: list[str], *commands: Json) -> Callable[[], Json]:
    return started("plus-ultra", _heroes(order), list(commands))


KAITO_FIRST = ["Kaito", "Corbeau", "Sbire"]
GUARDED = {"action": "technique", "actor": "Corbeau", "technique": "Garde"}
PLUS_ULTRA = [
    Case("plus-ultra attack", "plus-ultra", _after(KAITO_FIRST), "Kaito", "attack",
         {"target": "Corbeau"}),
    Case("plus-ultra attack, a protector", "plus-ultra", _after(KAITO_FIRST), "Kaito", "attack",
         {"target": "Corbeau", "protector": "Sbire"}),
    Case("plus-ultra 3-roll technique, defense falling", "plus-ultra", _after(KAITO_FIRST),
         "Kaito", "technique", {"technique": "Rafale", "target": "Sbire"}),
    Case("plus-ultra 3-roll technique, a protector", "plus-ultra", _after(KAITO_FIRST), "Kaito",
         "technique", {"technique": "Rafale", "target": "Corbeau", "protector": "Sbire"}),
    Case("plus-ultra attack on a defending, guarded target", "plus-ultra",
         _after(["Corbeau", "Kaito", "Sbire"], GUARDED), "Kaito", "attack",
         {"target": "Corbeau"}),
    Case("plus-ultra interrupt a flight", "plus-ultra",
         _after(["Corbeau", "Kaito", "Sbire"], {"action": "flee", "actor": "Corbeau"}), "Kaito",
         "interrupt"),
]  # fmt: skip

CASES: list[Case] = [*OMBRES, *POKEMON, *PLUS_ULTRA]
"""Every command that rolls, of every system, in the states that change its odds."""


@pytest.mark.parametrize("case", CASES, ids=str)
def test_issue_29_each_outcome_happens_as_often_as_its_odds_say(case: Case) -> None:
    found = system(case.system)
    state = case.state()
    problems = check_odds(found, state, case.actor, case.name, case.keys, case.trials)
    assert not problems, problems


@pytest.mark.parametrize("case", [OMBRES[0]], ids=str)
def test_issue_29_odds_moved_by_five_points_fail_the_check(case: Case) -> None:
    found = system(case.system)
    state = case.state()
    right = command_odds(found, state, case.actor, case.name, case.keys)
    assert right is not None
    seen = decide_many(found, state, case.actor, case.name, case.keys, case.trials)
    assert not mismatches(right, seen, case.trials)
    assert mismatches(shifted(right, 0.05), seen, case.trials)


def test_om_4_attack_odds_name_what_they_measure_in_both_languages() -> None:
    found = system("ombres")
    state = started("ombres", _ombres(2, 1))()
    odds = command_odds(found, state, "Ann", "attack", {"target": "Bob"}, exact=True)
    assert isinstance(odds, CommandOdds)
    assert odds.chance().probability == Fraction(11, 36)  # type: ignore[union-attr]
    assert odds.said() == "chance of a success (6) 30.56 %"
    assert odds.formula == ["combat 2: the highest of 2d6 (OM-1); a 6 is a success (OM-2)"]
    with language("fr"):
        assert odds.said() == "chance de réussite (6) 30,56 %"
        french = command_odds(found, state, "Ann", "attack", {"target": "Bob"})
        assert french is not None
        assert french.formula == [
            "combat 2\u00a0: le meilleur de 2d6 (OM-1)\u202f; un 6 est une réussite (OM-2)"
        ]
    assert rolls(found, state, "Ann", "attack", {"target": "Bob"})


# --- formulas shown where the rules apply one -----------------------------------------------------


def test_pk_11_damage_rounded_down_says_so() -> None:
    narration = system("pokemon").narration
    damage = {"type": "damage_rolled", "dice": 4, "difficulty": 6, "faces": [3, 6, 10, 8]}
    damage |= {"raw": 3, "multiplier": 0.75, "damage": 2}
    assert narration.sentence(damage, Words()) == (
        "Damage: 4d10 DD6 (3 6✓ 10✓ 8✓) → 3 × 0.75 = 2.25, rounded down: 2 (PK-11)."
    )
    with language("fr"):
        assert "3 × 0,75 = 2,25, arrondi à l'inférieur\u00a0: 2 (PK-11)." in narration.sentence(
            damage, Words()
        )


def test_pk_12_a_negative_endure_score_adds_to_the_damage_and_says_so() -> None:
    narration = system("pokemon").narration
    endure = {"type": "endure_rolled", "pokemon": "Chu", "stat": "constitution", "dice": 2}
    endure |= {"difficulty": 6, "faces": [1, 2], "successes": 0, "failures": 1, "score": -1}
    earlier = [{"type": "damage_rolled", "damage": 3}]
    assert narration.sentence(endure, Words(earlier=earlier)) == (
        "Chu endures: Constitution 2d10 DD6 (1✗ 2) → score −1: 3 − (−1) → 4 Vitalité lost (PK-12)."
    )


# --- every command that rolls declares its odds ---------------------------------------------------

NO_OUTCOME_OF_THEIR_OWN = {
    ("pokemon", "wait"): "the dice are the turn-start checks of the slot it opens (PK-16, PK-17)",
    ("pokemon", "pass"): "the dice are the turn-start checks of the slot it opens (PK-16, PK-17)",
    ("pokemon", "free"): "the dice are the turn-start checks of the slot it opens (PK-16, PK-17)",
    ("passion", "choose_marker"): "the last marker's dice are the d6 roll-offs of tied markers "
    "(PS-9): they order the round, no outcome of the command's own",
}
"""Commands that draw dice with no outcome of their own to show odds for, and why."""


def _sheets(found: Any) -> list[Json]:
    """Two fighters from the system's example sheets, on sides a and b, named apart."""
    kinds = list(found.examples)
    first, second = kinds[0], kinds[1] if found.id == "plus-ultra" else kinds[0]
    fighters = []
    for side, kind in (("a", first), ("b", second)):
        data = tomllib.loads(found.examples[kind].read_text(encoding="utf-8"))
        if side == "b" and second == first:
            data["name"] = f"{data.get('name', kind)} Bis"
        fighters.append(sheet_fighter(found, data, kind, side))
    return fighters


def _walk(found: Any, seed: int, most: int = 60) -> list[Json]:
    """The states one simulated fight goes through (its default tactic, seeded)."""
    from jdr.fights.setup import build_setup
    from jdr.simulate.core import _deciding, _first_legal

    rules, simulation = found.fight, found.simulation
    rng = Seeded(seed)
    state: Json = {}
    for event in rules.start(build_setup(found, _sheets(found), {}), rng):
        state = rules.evolve(state, event)
    decided, states = _deciding(rules), [state]
    for _step in range(most):
        if simulation.over(state):
            break
        state = _first_legal(decided, state, simulation.tactic(state), rng)[1]
        states.append(state)
    return states


def undeclared(found: Any, seeds: int = 3) -> dict[str, int]:
    """The commands of `found` seen drawing dice with no `odds` declared, and how often, in
    the states of a few simulated fights, each fighter trying each command it may play with
    its example keys."""
    from jdr.errors import JdrError
    from jdr.fights.odds import Counting
    from jdr.fights.service import legal_now
    from jdr.fights.setup import make_command, per_participant

    missing: dict[str, int] = {}
    names = [f["name"] for f in _sheets(found)]
    for seed in range(seeds):
        for state in _walk(found, seed):
            for actor in list(per_participant(state) or names):
                for name in legal_now(found, state, actor):
                    command = found.fight_commands.commands[name]
                    if name == "join" or command.odds is not None:
                        continue
                    if (found.id, name) in NO_OUTCOME_OF_THEIR_OWN:
                        continue
                    keys = command.example_keys(state, actor)
                    source = Counting(Seeded(seed))
                    try:
                        found.fight.decide(state, make_command(found, actor, name, keys), source)
                    except JdrError:
                        continue
                    if source.drawn:
                        missing[name] = missing.get(name, 0) + 1
    return missing


@pytest.mark.parametrize(
    "system_id", ["pokemon", "plus-ultra", "passion", "ilvermorny", "poledemos"]
)
def test_issue_29_every_command_that_rolls_declares_its_odds(system_id: str) -> None:
    assert undeclared(system(system_id)) == {}


def test_issue_29_a_command_that_rolls_with_no_odds_is_found() -> None:
    found = system("plus-ultra")
    bare = type(found.fight_commands)(
        [replace(c, odds=None) if c.name == "attack" else c for c in found.fight_commands],
        found.fight_commands.legal,
    )
    assert "attack" in undeclared(replace(found, fight_commands=bare), seeds=1)
