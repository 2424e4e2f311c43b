"""Issue 29: one distribution per fight command, shared by the fight and its odds.

For every system and every command that rolls, the real decider is played thousands of times on
seeded dice from the same state, and each outcome's frequency must lie in its 99.9 % interval
around the command's declared odds (`tests/command_odds_check.py`); a deliberately wrong odds
function must fail. Each system adds its cases to `CASES`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
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
            "combat 2 : le meilleur de 2d6 (OM-1) ; un 6 est une réussite (OM-2)"
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
        assert "3 × 0,75 = 2,25, arrondi à l'inférieur : 2 (PK-11)." in narration.sentence(
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
