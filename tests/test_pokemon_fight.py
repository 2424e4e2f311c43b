"""Pokémon fights (PK-5 … PK-18): whole fights scripted with given faces, every event checked.

Each fight ends with `finish`: every given face was used, and the state is the fold of the events
after a JSON round trip (a fight is a fold over its events).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from fight_checks import check, finish, refuse
from jdr.dice import GivenFaces, Recording, Seeded
from jdr.errors import InputError, RulesError
from jdr.fights import Fight, fold, play
from jdr.systems import FightRules
from jdr.systems.pokemon.fight import PokemonFight, fight_rules, usable_moves
from jdr.systems.pokemon.fight_state import accuracy, fraction_of


class AnswerNone(PokemonFight):
    """The rules with the table's default answer `none` for a defender not asked (`reactions`
    setting): the attacks below give their answer in the attacker's command, as a GM may, or
    none. Asking the defender (`respond`) is tested with the plain rules, at the end."""

    def start(self, setup: dict[str, Any], rng: Any) -> list[dict[str, Any]]:
        settings = {"reactions": "none", **(setup.get("settings") or {})}
        return super().start({**setup, "settings": settings}, rng)


RULES = AnswerNone()
Expected = list[tuple[str, dict[str, Any]]]


def mon(
    name: str,
    side: str,
    types: tuple[str, ...] = ("Normal",),
    moves: tuple[dict[str, Any], ...] = (),
    vitality: int = 10,
    energy: int = 10,
    **extra: Any,
) -> dict[str, Any]:
    """A Pokémon sheet for a fight: stats 2 unless given (`dexterity=5` …)."""
    stats = {"strength": 2, "concentration": 2, "constitution": 2, "willpower": 2, "dexterity": 2}
    sheet: dict[str, Any] = {}
    for key, value in extra.items():
        if key in stats:
            stats[key] = value
        else:
            sheet[key] = value
    return {
        "name": name,
        "side": side,
        "types": list(types),
        "stats": stats,
        "moves": list(moves),
        "vitality": {"current": vitality, "max": vitality},
        "energy": {"current": energy, "max": energy},
        **sheet,
    }


def move(
    name: str, kind: str, category: str, damage: int = 0, energy: int = 1, **extra: Any
) -> dict[str, Any]:
    return {
        "name": name,
        "type": kind,
        "category": category,
        "damage_dice": damage,
        "energy": energy,
        **extra,
    }


CHARGE = move("Charge", "Normal", "physique", 1)
PASS = "pass"


def order(actor: str, action: str = PASS, **fields: Any) -> dict[str, Any]:
    return {"actor": actor, "action": action, **fields}


def start_events(names: list[str], faces: list[int], totals: list[int]) -> Expected:
    expected: Expected = [("fight_started", {})]
    for name, face, total in zip(names, faces, totals, strict=True):
        expected.append(("initiative_rolled", {"pokemon": name, "face": face, "total": total}))
    return [*expected, ("round_started", {"round": 1})]


def slot(index: int, *to_play: str) -> tuple[str, dict[str, Any]]:
    return ("slot_opened", {"slot": index, "to_play": list(to_play)})


def passed(name: str) -> tuple[str, dict[str, Any]]:
    return ("passed", {"pokemon": name})


def phases(number: int, *between: tuple[str, dict[str, Any]]) -> Expected:
    return [
        ("phase_started", {"round": number, "phase": "condition"}),
        *between,
        ("phase_started", {"round": number, "phase": "end"}),
    ]


def end_of_round(number: int) -> Expected:
    return [*phases(number), ("round_started", {"round": number + 1})]


def test_pk_5_fight_rules_is_a_decider() -> None:
    assert isinstance(RULES, FightRules)
    assert isinstance(RULES, PokemonFight)
    assert RULES.legal_commands({}) == []


# --- PK-5, PK-6, PK-10 … PK-13: a whole fight ---------------------------------------------

KARATE = move("Poing Karaté", "Combat", "physique", 2, energy=2)
PSYKO = move("Choc Mental", "Psy", "spéciale", 2, energy=2)
MACHOC = mon("Machoc", "a", ("Combat",), (KARATE,), strength=3, concentration=1)
ABRA = mon("Abra", "b", ("Psy",), (PSYKO,), vitality=4, strength=1, concentration=3, constitution=1)


def test_pk_5_pk_12_pk_13_simultaneous_slot_endure_dodge_ko_and_fight_over() -> None:
    source = GivenFaces(
        [
            *[5, 5],  # initiative: 5 + 2 = 7 each → one shared slot
            *[8, 9, 2, 7, 7, 10, 3, 6],  # Machoc: attack 2, damage 3 × 0.75 = 2, Abra endures 1
            *[6, 6, 1, 9, 9, 9, 10, 10],  # Abra: attack 1, damage 3 × 3 = 9, Machoc dodges 2 > 1
            *[9, 9, 9, 6, 6, 6, 6, 6],  # Machoc: attack 3, damage 5 × 0.75 = 3, no defence
            *[7, 7, 1, 6, 2, 2, 6, 3],  # Abra: attack 1, damage 1 × 3 = 3, dodge 1 not > 1
        ]
    )
    fight = play(
        RULES,
        {"pokemon": [MACHOC, ABRA]},
        [
            order("Machoc", "move", move="poing karate", target="Abra", response="endure"),
            order("Abra", "move", move="Choc Mental", response="dodge"),
            order("Machoc", "move", move="Poing Karaté"),
            order("Abra", "move", move="Choc Mental", response="dodge"),
        ],
        source,
    )
    attack = ("attack_rolled", {"pokemon": "Machoc", "stat": "strength", "difficulty": 6})
    psy = ("attack_rolled", {"pokemon": "Abra", "stat": "concentration", "difficulty": 6})
    check(
        fight.events,
        [
            *start_events(["Machoc", "Abra"], [5, 5], [7, 7]),
            slot(0, "Machoc", "Abra"),
            ("move_used", {"pokemon": "Machoc", "move": "Poing Karaté", "energy": 2}),
            (attack[0], attack[1] | {"faces": [8, 9, 2], "score": 2}),
            (
                "damage_rolled",
                {"dice": 4, "faces": [7, 7, 10, 3], "raw": 3, "multiplier": 0.75, "damage": 2},
            ),
            ("endure_rolled", {"pokemon": "Abra", "stat": "constitution", "score": 1}),
            ("damage_taken", {"pokemon": "Abra", "amount": 1, "held": True}),
            ("move_used", {"pokemon": "Abra", "target": "Machoc", "category": "speciale"}),
            (psy[0], psy[1] | {"faces": [6, 6, 1], "score": 1}),
            ("damage_rolled", {"dice": 3, "raw": 3, "multiplier": 3.0, "damage": 9}),
            ("dodge_rolled", {"pokemon": "Machoc", "score": 2, "against": 1, "dodged": True}),
            ("slot_resolved", {"slot": 0}),
            *end_of_round(1),
            slot(0, "Machoc", "Abra"),
            ("move_used", {"pokemon": "Machoc"}),
            (attack[0], attack[1] | {"score": 3}),
            ("damage_rolled", {"dice": 5, "raw": 5, "damage": 3}),
            ("damage_taken", {"pokemon": "Abra", "amount": 3, "held": True}),
            # Abra acts in the slot although Machoc's blow already knocked it out: simultaneous
            ("move_used", {"pokemon": "Abra"}),
            (psy[0], psy[1] | {"score": 1}),
            ("damage_rolled", {"dice": 3, "raw": 1, "damage": 3}),
            ("dodge_rolled", {"pokemon": "Machoc", "score": 1, "against": 1, "dodged": False}),
            ("damage_taken", {"pokemon": "Machoc", "amount": 3, "held": True}),
            ("slot_resolved", {"slot": 0}),
            ("knocked_out", {"pokemon": "Abra"}),
            *phases(2),
            ("removed", {"pokemon": "Abra"}),
            ("fight_over", {"winner": "a"}),
        ],
    )
    state = finish(fight, source)
    assert state["over"] and state["winner"] == "a" and state["phase"] == "over"
    assert state["pokemon"]["Machoc"]["vitality"] == 7
    assert state["pokemon"]["Machoc"]["energy"] == 6
    assert (state["pokemon"]["Abra"]["vitality"], state["pokemon"]["Abra"]["ko"]) == (0, True)
    assert state["order"] == [{"total": 7, "members": ["Machoc"]}]
    assert RULES.legal_commands(state) == []
    before = list(fight.events)
    with pytest.raises(RulesError, match="over") as refused:
        fight.act(order("Machoc"), GivenFaces([]))
    assert refused.value.rule == "PK-6" and fight.events == before


def test_pk_5_shared_slot_holds_effects_until_everyone_acted() -> None:
    source = GivenFaces([5, 5, 9, 9, 9, 6, 6, 6, 6, 6])
    fight = Fight.start(RULES, {"pokemon": [MACHOC, ABRA]}, source)
    assert RULES.legal_commands(fight.state) == ["move", "wait", "free", "pass", "join"]
    fight.act(order("Machoc", "move", move="Poing Karaté"), source)
    # the damage waits in `held`: Abra still has its Vitalité and may act
    assert fight.state["pokemon"]["Abra"]["vitality"] == 4
    assert [e["amount"] for e in fight.state["held"]] == [3]
    assert fight.state["to_play"] == ["Abra"]
    fight.act(order("Abra", "wait"), source)
    assert fight.state["pokemon"]["Abra"]["vitality"] == 1
    assert fight.state["held"] == [] and fight.state["round"] == 2
    finish(fight, source)


def test_pk_5_initiative_descending_and_joining_pokemon_slotted_by_total() -> None:
    source = GivenFaces([6, 4, 5, 10])
    fight = Fight.start(
        RULES,
        {"pokemon": [mon("Ponyta", "a", dexterity=6), mon("Ramoloss", "b", dexterity=1)]},
        source,
    )
    fight.act({"action": "join", "pokemon": mon("Nidoran", "b", dexterity=3)}, source)
    fight.act({"action": "join", "pokemon": mon("Caninos", "a", dexterity=2)}, source)
    for name in ("Ponyta", "Nidoran", "Ramoloss", "Ponyta", "Caninos"):
        fight.act(order(name), source)
    check(
        fight.events,
        [
            *start_events(["Ponyta", "Ramoloss"], [6, 4], [12, 5]),
            slot(0, "Ponyta"),
            ("joined", {"pokemon": "Nidoran"}),
            ("initiative_rolled", {"pokemon": "Nidoran", "face": 5, "dexterity": 3, "total": 8}),
            ("joined", {"pokemon": "Caninos"}),
            ("initiative_rolled", {"pokemon": "Caninos", "face": 10, "total": 12}),
            passed("Ponyta"),
            slot(1, "Nidoran"),  # slotted later this round: acts this round
            passed("Nidoran"),
            slot(2, "Ramoloss"),
            passed("Ramoloss"),
            *end_of_round(1),
            slot(0, "Ponyta", "Caninos"),  # joined the open slot: acts from the next round
            passed("Ponyta"),
            passed("Caninos"),
            ("slot_resolved", {"slot": 0}),
            slot(1, "Nidoran"),
        ],
    )
    state = finish(fight, source)
    assert [(s["total"], s["members"]) for s in state["order"]] == [
        (12, ["Ponyta", "Caninos"]),
        (8, ["Nidoran"]),
        (5, ["Ramoloss"]),
    ]


def test_pk_6_ko_removed_at_end_of_round_and_held_item_noted() -> None:
    source = GivenFaces([5, 5, 5, 6, 6, 2, 2, 6, 6, 6])
    fight = Fight.start(
        RULES,
        {
            "pokemon": [
                mon("Tauros", "a", moves=(CHARGE,), dexterity=5, strength=4, item="Restes"),
                mon("Miaouss", "b", dexterity=3),
                mon("Magicarpe", "b", vitality=2, dexterity=1),
            ]
        },
        source,
    )
    fight.act(order("Tauros", "move", move="Charge", target="Magicarpe"), source)
    assert fight.state["pokemon"]["Magicarpe"]["ko"]
    assert fight.state["pokemon"]["Magicarpe"]["in_fight"]  # until the End of round
    with pytest.raises(RulesError, match="Magicarpe is KO") as refused:
        fight.act(order("Magicarpe"), GivenFaces([]))
    assert refused.value.rule == "PK-6"
    fight.act(order("Miaouss"), source)
    check(
        fight.events,
        [
            *start_events(["Tauros", "Miaouss", "Magicarpe"], [5, 5, 5], [10, 8, 6]),
            slot(0, "Tauros"),
            ("move_used", {"pokemon": "Tauros", "target": "Magicarpe", "energy": 1}),
            ("attack_rolled", {"dice": 4, "faces": [6, 6, 2, 2], "score": 2}),
            ("damage_rolled", {"dice": 3, "faces": [6, 6, 6], "multiplier": 1.5, "damage": 4}),
            ("damage_taken", {"pokemon": "Magicarpe", "amount": 4}),
            ("knocked_out", {"pokemon": "Magicarpe"}),
            slot(1, "Miaouss"),
            passed("Miaouss"),
            *phases(1),
            ("held_item", {"pokemon": "Tauros", "item": "Restes"}),
            ("removed", {"pokemon": "Magicarpe"}),
            ("round_started", {"round": 2}),
            slot(0, "Tauros"),
        ],
    )
    assert "held" not in fight.events[7]
    state = finish(fight, source)
    assert not state["pokemon"]["Magicarpe"]["in_fight"]
    assert [s["members"] for s in state["order"]] == [["Tauros"], ["Miaouss"]]


def test_pk_7_free_orders_are_recorded_as_text() -> None:
    source = GivenFaces([5, 1])
    fight = play(
        RULES,
        {"pokemon": [mon("Pikachu", "a"), mon("Rattata", "b")]},
        [order("Pikachu", "free", text="  hides behind a rock ")],
        source,
    )
    assert fight.events[5] == {
        "type": "free_order",
        "pokemon": "Pikachu",
        "text": "hides behind a rock",
    }
    with pytest.raises(RulesError, match="text") as refused:
        fight.act(order("Rattata", "free"), GivenFaces([]))
    assert refused.value.rule == "PK-7"
    finish(fight, source)


# --- PK-10, PK-11: using a move -------------------------------------------------------------

QUICK = move("Vive-Attaque", "Normal", "physique", 1)
SLASH = move("Tranche", "Normal", "physique", 1, high_crit=True)


def test_pk_10_range_penalty_skill_failed_attack_and_high_crit() -> None:
    source = GivenFaces(
        [
            *[1, 1],
            *[2, 3],  # Pikachu at range, skill cancels the +2: DD6, score 0: the attack fails
            *[7, 8, 1, 1],  # Rattata at range, DD8: 8 succeeds; damage 2d10 at DD6: 1, 1 → 0
            *[6, 6, 5, 5, 4],  # Tranche: attack 2, damage 3d10 at DD5 (high crit): 5, 5 → 2
        ]
    )
    pikachu = mon(
        "Pikachu",
        "a",
        ("Électrik",),
        (QUICK, SLASH),
        dexterity=5,
        skills={"deplacements RAPIDES": 1},
    )
    fight = play(
        RULES,
        {"pokemon": [pikachu, mon("Rattata", "b", moves=(CHARGE,))]},
        [
            order("Pikachu", "move", move="Vive-Attaque", range_penalty=True),
            order("Rattata", "move", move="Charge", range_penalty=True, response="none"),
            order("Pikachu", "move", move="TRANCHE", response="none"),
        ],
        source,
    )
    check(
        fight.events,
        [
            *start_events(["Pikachu", "Rattata"], [1, 1], [6, 3]),
            slot(0, "Pikachu"),
            ("move_used", {"pokemon": "Pikachu", "move": "Vive-Attaque", "target": "Rattata"}),
            (
                "attack_rolled",
                {"difficulty": 6, "range_penalty": False, "score": 0, "outcome": "failure"}
                | {"penalty_cancelled_by": "Déplacements rapides"},
            ),
            slot(1, "Rattata"),
            ("move_used", {"pokemon": "Rattata", "energy": 1}),
            (
                "attack_rolled",
                {"difficulty": 8, "range_penalty": True, "penalty_cancelled_by": None}
                | {"faces": [7, 8], "score": 1},
            ),
            ("damage_rolled", {"dice": 2, "score": -2, "raw": 0, "damage": 0}),
            ("damage_taken", {"pokemon": "Pikachu", "amount": 0}),
            *end_of_round(1),
            slot(0, "Pikachu"),
            ("move_used", {"move": "Tranche"}),
            ("attack_rolled", {"difficulty": 6, "score": 2}),
            ("damage_rolled", {"dice": 3, "difficulty": 5, "score": 2, "multiplier": 1.0}),
            ("damage_taken", {"pokemon": "Rattata", "amount": 2}),
            slot(1, "Rattata"),
        ],
    )
    state = finish(fight, source)
    assert state["pokemon"]["Pikachu"]["energy"] == 8
    assert state["pokemon"]["Rattata"]["vitality"] == 8


# --- PK-14: counter -------------------------------------------------------------------------

KICK = move("Mawashi Geri", "Combat", "physique", 1, energy=2)
SLAM = move("Écrasement", "Normal", "physique", 1, energy=3)
GROWL = move("Rugissement", "Normal", "statut", stat_change={"stat": "strength", "stages": -1})


def test_pk_14_counter_either_side_wins_and_uses_the_defenders_action() -> None:
    source = GivenFaces(
        [
            *[5, 5],
            *[6, 1, 2, 7, 8],  # attacker 1 success (1/3), defender 2 (2/2): the defender wins
            *[9, 9, 6, 6, 6],  # Écrasement hits: attack 2, damage 3 × 1.5 = 4, no defence
            *[6, 6, 6],  # round 2: the attacker's 3 successes reach 3 at once
            *[6, 6, 2, 6, 6, 6],  # Mawashi Geri: attack 2, damage 3 × 3 = 9
        ]
    )
    kicker = mon("Kicklee", "a", ("Combat",), (KICK,), strength=3, dexterity=4)
    kanga = mon("Kangourex", "b", moves=(SLAM, GROWL), energy=6, constitution=3)
    counter = {"response": "counter", "counter_move": "ecrasement"}
    fight = play(
        RULES,
        {"pokemon": [kicker, kanga]},
        [order("Kicklee", "move", move="Mawashi Geri", **counter)] * 2,
        source,
    )
    check(
        fight.events,
        [
            *start_events(["Kicklee", "Kangourex"], [5, 5], [9, 7]),
            slot(0, "Kicklee"),
            ("move_used", {"pokemon": "Kicklee", "energy": 2}),
            ("counter_started", {"pokemon": "Kangourex", "move": "Écrasement", "energy": 3}),
            (
                "counter_resolved",
                {"attacker_needs": 3, "defender_needs": 2, "winner": "Kangourex"}
                | {
                    "exchanges": [
                        {
                            "attacker": {"faces": [6, 1, 2], "successes": 1, "total": 1},
                            "defender": {"faces": [7, 8], "successes": 2, "total": 2},
                        }
                    ]
                },
            ),
            ("attack_rolled", {"pokemon": "Kangourex", "move": "Écrasement", "score": 2}),
            ("damage_rolled", {"pokemon": "Kangourex", "raw": 3, "damage": 4}),
            ("damage_taken", {"pokemon": "Kicklee", "amount": 4, "by": "Kangourex"}),
            # Kangourex spent its action on the counter: its slot is skipped
            *end_of_round(1),
            slot(0, "Kicklee"),
            ("move_used", {"pokemon": "Kicklee"}),
            ("counter_started", {"pokemon": "Kangourex"}),
            ("counter_resolved", {"winner": "Kicklee"}),
            ("attack_rolled", {"pokemon": "Kicklee", "score": 2}),
            ("damage_rolled", {"pokemon": "Kicklee", "raw": 3, "multiplier": 3.0, "damage": 9}),
            ("damage_taken", {"pokemon": "Kangourex", "amount": 9}),
            *end_of_round(2),
            slot(0, "Kicklee"),
        ],
    )
    resolved = [e for e in fight.events if e["type"] == "counter_resolved"]
    assert resolved[1]["exchanges"] == [
        {"attacker": {"faces": [6, 6, 6], "successes": 3, "total": 3}, "defender": None}
    ]
    state = finish(fight, source)
    assert state["pokemon"]["Kangourex"]["energy"] == 0
    assert (state["pokemon"]["Kicklee"]["vitality"], state["pokemon"]["Kangourex"]["vitality"]) == (
        6,
        1,
    )
    with pytest.raises(RulesError, match="Énergie") as refused:
        fight.act(order("Kicklee", "move", move="Mawashi Geri", **counter), GivenFaces([]))
    assert refused.value.rule == "PK-10"
    with pytest.raises(RulesError, match="same category") as refused:
        fight.act(
            order(
                "Kicklee",
                "move",
                move="Mawashi Geri",
                response="counter",
                counter_move="Rugissement",
            ),
            GivenFaces([]),
        )
    assert refused.value.rule == "PK-14"


# --- PK-15: wait ----------------------------------------------------------------------------


def test_pk_15_wait_lowers_defence_difficulty_until_its_next_action() -> None:
    source = GivenFaces([5, 5, 6, 6, 6, 6, 6, 4, 5, 6, 6, 6, 6, 6, 4, 5])
    fight = play(
        RULES,
        {
            "pokemon": [
                mon("Onix", "a", ("Roche",), dexterity=5),
                mon("Rattata", "b", moves=(CHARGE,)),
            ]
        },
        [
            order("Onix", "wait"),
            order("Rattata", "move", move="Charge", response="endure"),
            order("Onix"),
            order("Rattata", "move", move="Charge", response="endure"),
        ],
        source,
    )
    hit = ("damage_rolled", {"raw": 3, "multiplier": 0.75, "damage": 2})
    check(
        fight.events,
        [
            *start_events(["Onix", "Rattata"], [5, 5], [10, 7]),
            slot(0, "Onix"),
            ("waited", {"pokemon": "Onix"}),
            slot(1, "Rattata"),
            ("move_used", {"pokemon": "Rattata"}),
            ("attack_rolled", {"score": 2}),
            hit,
            ("endure_rolled", {"pokemon": "Onix", "waiting": True, "difficulty": 4, "score": 2}),
            ("damage_taken", {"pokemon": "Onix", "amount": 0}),
            *end_of_round(1),
            slot(0, "Onix"),
            passed("Onix"),
            slot(1, "Rattata"),
            ("move_used", {"pokemon": "Rattata"}),
            ("attack_rolled", {"score": 2}),
            hit,
            ("endure_rolled", {"pokemon": "Onix", "waiting": False, "difficulty": 6, "score": 0}),
            ("damage_taken", {"pokemon": "Onix", "amount": 2}),
            *end_of_round(2),
            slot(0, "Onix"),
        ],
    )
    state = finish(fight, source)
    assert state["pokemon"]["Onix"]["vitality"] == 8 and not state["pokemon"]["Onix"]["waiting"]


# --- PK-8, PK-9: stat changes and accuracy --------------------------------------------------

LEER = move("Groz'Yeux", "Normal", "statut", stat_change={"stat": "Constitution", "stages": -2})
SWORDS = move(
    "Danse Lames", "Normal", "statut", stat_change={"target": "self", "stat": "Force", "stages": 2}
)
SAND = move("Jet de Sable", "Sol", "statut", stat_change={"stat": "précision", "stages": -1})
HYDRO = move("Hydrocanon", "Eau", "spéciale", 1, energy=2, accuracy=85)


def test_pk_8_stat_changes_never_below_1_and_last_the_fight() -> None:
    source = GivenFaces([5, 5])
    fight = play(
        RULES,
        {
            "pokemon": [
                mon("Arbok", "a", moves=(LEER,), dexterity=5),
                mon("Kabuto", "b", moves=(SWORDS,)),
            ]
        },
        [
            order("Arbok", "move", move="Groz'Yeux"),
            order("Kabuto", "move", move="Danse Lames"),
            order("Arbok", "move", move="Groz'Yeux"),
            order("Kabuto"),
        ],
        source,
    )
    check(
        fight.events,
        [
            *start_events(["Arbok", "Kabuto"], [5, 5], [10, 7]),
            slot(0, "Arbok"),
            ("move_used", {"pokemon": "Arbok", "target": "Kabuto", "category": "statut"}),
            ("stat_changed", {"pokemon": "Kabuto", "stat": "constitution", "stages": -2}),
            slot(1, "Kabuto"),
            ("move_used", {"pokemon": "Kabuto", "target": None}),
            ("stat_changed", {"pokemon": "Kabuto", "stat": "strength", "stages": 2}),
            *end_of_round(1),
            slot(0, "Arbok"),
            ("move_used", {"pokemon": "Arbok"}),
            ("stat_changed", {"pokemon": "Kabuto", "stat": "constitution", "stages": -2}),
            slot(1, "Kabuto"),
            passed("Kabuto"),
            *end_of_round(2),
            slot(0, "Arbok"),
        ],
    )
    state = finish(fight, source)
    assert state["pokemon"]["Kabuto"]["stats"]["constitution"] == 1
    assert state["pokemon"]["Kabuto"]["stats"]["strength"] == 4


def test_pk_9_accuracy_stages_85_then_75_then_60_and_energy_spent_on_a_miss() -> None:
    source = GivenFaces([5, 5, 75, 2, 3, 61])
    fight = play(
        RULES,
        {
            "pokemon": [
                mon("Sabelette", "a", ("Sol",), (SAND,), dexterity=5),
                mon("Tentacool", "b", ("Eau",), (HYDRO,)),
            ]
        },
        [
            order("Sabelette", "move", move="Jet de Sable"),
            order("Tentacool", "move", move="Hydrocanon"),
            order("Sabelette", "move", move="Jet de Sable"),
            order("Tentacool", "move", move="Hydrocanon"),
        ],
        source,
    )
    check(
        fight.events,
        [
            *start_events(["Sabelette", "Tentacool"], [5, 5], [10, 7]),
            slot(0, "Sabelette"),
            ("move_used", {"pokemon": "Sabelette"}),
            ("stat_changed", {"pokemon": "Tentacool", "stat": "accuracy", "stages": -1}),
            slot(1, "Tentacool"),
            ("move_used", {"pokemon": "Tentacool", "energy": 2}),
            (
                "accuracy_checked",
                {"accuracy": 85, "stage": -1, "effective": 75, "roll": 75, "hit": True},
            ),
            ("attack_rolled", {"faces": [2, 3], "score": 0}),
            *end_of_round(1),
            slot(0, "Sabelette"),
            ("move_used", {"pokemon": "Sabelette"}),
            ("stat_changed", {"pokemon": "Tentacool", "stat": "accuracy", "stages": -1}),
            slot(1, "Tentacool"),
            ("move_used", {"pokemon": "Tentacool", "energy": 2}),
            ("accuracy_checked", {"stage": -2, "effective": 60, "roll": 61, "hit": False}),
            *end_of_round(2),
            slot(0, "Sabelette"),
        ],
    )
    state = finish(fight, source)
    assert state["pokemon"]["Tentacool"]["accuracy_stage"] == -2
    assert state["pokemon"]["Tentacool"]["energy"] == 6


def test_pk_9_stage_table_and_raised_stages_only_buffer() -> None:
    assert [accuracy(100, s) for s in range(-6, 7)] == [33, 38, 43, 50, 60, 75] + [100] * 7
    assert accuracy(85, 0) == 85 and accuracy(85, 2 - 3) == 75 and accuracy(85, -9) == 33


# --- PK-16 … PK-18: conditions ----------------------------------------------------------------


def test_pk_16_pk_18_burn_poison_bad_poison_damage_each_condition_phase() -> None:
    source = GivenFaces([1, 1, 1, 1, 2, 3])
    rattata = mon("Rattata", "a", moves=(CHARGE,), vitality=20, strength=5, dexterity=5)
    pokemon = [
        rattata | {"condition": "burn"},
        mon("Nosferapti", "b", ("Vol",), vitality=20, dexterity=4, condition="Empoisonnement"),
        mon("Racaillou", "a", ("Roche",), vitality=32, dexterity=3, condition="bad_poison"),
        mon("Chenipan", "b", ("Insecte",), vitality=7, condition="brûlure"),
    ]
    names = [p["name"] for p in pokemon]
    commands = [order("Rattata", "move", move="Charge", target="Chenipan")]
    commands += [order(n) for n in names[1:]] + [order(n) for _ in range(2) for n in names]
    fight = play(RULES, {"pokemon": pokemon}, commands, source)

    def damage(
        name: str, condition: str, fraction: list[int], amount: int
    ) -> tuple[str, dict[str, Any]]:
        return (
            "condition_damage",
            {"pokemon": name, "condition": condition} | {"fraction": fraction, "amount": amount},
        )

    def round_of(number: int, first: list[tuple[str, dict[str, Any]]]) -> Expected:
        return [
            slot(0, "Rattata"),
            *first,
            slot(1, "Nosferapti"),
            passed("Nosferapti"),
            slot(2, "Racaillou"),
            passed("Racaillou"),
            slot(3, "Chenipan"),
            passed("Chenipan"),
            *phases(
                number,
                damage("Rattata", "burn", [1, 8], 2),
                damage("Nosferapti", "poison", [1, 16], 1),
                damage("Racaillou", "bad_poison", [number, 16], 2 * number),
                damage("Chenipan", "burn", [1, 8], 1),  # 7 / 8 floors to 0: at least 1
            ),
            ("round_started", {"round": number + 1}),
        ]

    presets = [
        ("condition_inflicted", {"pokemon": n, "condition": c, "by": None})
        for n, c in zip(names, ["burn", "poison", "bad_poison", "burn"], strict=True)
    ]
    start = start_events(names, [1, 1, 1, 1], [6, 5, 4, 3])
    check(
        fight.events,
        [
            start[0],
            *presets,
            *start[1:],
            *round_of(
                1,
                [
                    ("move_used", {"pokemon": "Rattata"}),
                    ("attack_rolled", {"stat": "strength", "dice": 2, "faces": [2, 3]}),
                ],
            ),
            *round_of(2, [passed("Rattata")]),
            *round_of(3, [passed("Rattata")]),
            slot(0, "Rattata"),
        ],
    )
    state = finish(fight, source)
    vitality = {name: p["vitality"] for name, p in state["pokemon"].items()}
    assert vitality == {"Rattata": 14, "Nosferapti": 17, "Racaillou": 20, "Chenipan": 4}
    assert state["pokemon"]["Racaillou"]["condition_turns"] == 3
    assert fraction_of(15, 1, 16) == 1 and fraction_of(33, 1, 4) == 8


WILL_O = move("Feu Follet", "Feu", "statut", inflicts={"condition": "burn"})
TRI = move("Triplattaque", "Normal", "spéciale", 1, inflicts={"condition": "burn", "chance": 20})
TOXIC = move("Toxik", "Poison", "statut", inflicts={"condition": "Empoisonnement grave"})
THUNDER_WAVE = move("Cage-Éclair", "Électrik", "statut", inflicts={"condition": "paralysie"})


def test_pk_16_immunities_triplattaque_and_one_major_condition_at_a_time() -> None:
    source = GivenFaces([4, 4, 4, 4, 6, 6, 1, 1, 1, 20])
    fight = play(
        RULES,
        {
            "pokemon": [
                mon("Ponyta", "a", moves=(WILL_O, TRI), dexterity=6),
                mon("Smogo", "a", moves=(TOXIC, THUNDER_WAVE), dexterity=5),
                mon("Caninos", "b", ("Feu",)),
                mon("Magneti", "b", ("Électrik", "Acier"), dexterity=1),
            ]
        },
        [
            order("Ponyta", "move", move="Feu Follet", target="Caninos"),
            order("Smogo", "move", move="Toxik", target="Magneti"),
            order("Caninos"),
            order("Magneti"),
            order("Ponyta", "move", move="Triplattaque", target="Caninos"),
            order("Smogo", "move", move="Cage-Éclair", target="Caninos"),
            order("Caninos"),
            order("Magneti"),
        ],
        source,
    )
    refused = "condition_refused"
    check(
        fight.events,
        [
            *start_events(["Ponyta", "Smogo", "Caninos", "Magneti"], [4] * 4, [10, 9, 6, 5]),
            slot(0, "Ponyta"),
            ("move_used", {"pokemon": "Ponyta", "move": "Feu Follet"}),
            (refused, {"pokemon": "Caninos", "condition": "burn", "reason": "immune_type"}),
            slot(1, "Smogo"),
            ("move_used", {"pokemon": "Smogo", "move": "Toxik"}),
            (refused, {"pokemon": "Magneti", "condition": "bad_poison", "reason": "immune_type"}),
            slot(2, "Caninos"),
            passed("Caninos"),
            slot(3, "Magneti"),
            passed("Magneti"),
            *end_of_round(1),
            slot(0, "Ponyta"),
            ("move_used", {"pokemon": "Ponyta", "move": "Triplattaque"}),
            ("attack_rolled", {"score": 2}),
            ("damage_rolled", {"dice": 3, "score": -3, "damage": 0}),
            ("damage_taken", {"pokemon": "Caninos", "amount": 0}),
            ("condition_checked", {"condition": "burn", "chance": 20, "roll": 20, "hit": True}),
            ("condition_inflicted", {"pokemon": "Caninos", "condition": "burn", "by": "Ponyta"}),
            slot(1, "Smogo"),
            ("move_used", {"pokemon": "Smogo", "move": "Cage-Éclair"}),
            (refused, {"condition": "paralysis", "reason": "already_major", "rule": "PK-16"}),
            slot(2, "Caninos"),
            passed("Caninos"),
            slot(3, "Magneti"),
            passed("Magneti"),
            *phases(2, ("condition_damage", {"pokemon": "Caninos", "amount": 1})),
            ("round_started", {"round": 3}),
            slot(0, "Ponyta"),
        ],
    )
    state = finish(fight, source)
    assert state["pokemon"]["Caninos"]["condition"] == "burn"
    assert state["pokemon"]["Magneti"]["condition"] is None


def test_pk_16_paralysis_may_lose_the_action_and_quarters_dexterity() -> None:
    source = GivenFaces([5, 5, 30, 51])
    fight = play(
        RULES,
        {
            "pokemon": [
                mon("Pikachu", "a", dexterity=8, condition="paralysis"),
                mon("Rattata", "b", dexterity=3),
            ]
        },
        [order("Rattata"), order("Rattata"), order("Pikachu")],
        source,
    )
    start = start_events(["Pikachu", "Rattata"], [5, 5], [7, 8])
    check(
        fight.events,
        [
            start[0],
            ("condition_inflicted", {"pokemon": "Pikachu", "condition": "paralysis"}),
            ("initiative_rolled", {"pokemon": "Pikachu", "dexterity": 2, "total": 7}),
            *start[2:],
            slot(0, "Rattata"),
            passed("Rattata"),
            slot(1, "Pikachu"),
            ("paralysis_checked", {"pokemon": "Pikachu", "chance": 50, "roll": 30, "lost": True}),
            ("action_lost", {"pokemon": "Pikachu", "reason": "paralysis"}),
            *end_of_round(1),
            slot(0, "Rattata"),
            passed("Rattata"),
            slot(1, "Pikachu"),
            ("paralysis_checked", {"roll": 51, "lost": False}),
            passed("Pikachu"),
            *end_of_round(2),
            slot(0, "Rattata"),
        ],
    )
    finish(fight, source)


WHEEL = move("Roue De Feu", "Feu", "physique", 1)
EMBER = move("Flammèche", "Feu", "spéciale", 1)


def test_pk_16_freeze_thaw_roll_thawing_moves_and_fire_hits() -> None:
    source = GivenFaces([4, 4, 4, 4, 50, 2, 2, 10, 11, 6, 6, 6, 2, 2])
    fight = Fight.start(
        RULES,
        {
            "pokemon": [
                mon("Lokhlass", "a", moves=(CHARGE, WHEEL), dexterity=6, condition="gel"),
                mon("Lamantine", "a", dexterity=5, condition="freeze"),
                mon("Otaria", "a", dexterity=4, condition="freeze"),
                mon("Goupix", "b", ("Feu",), (EMBER,)),
            ]
        },
        source,
    )
    assert RULES.legal_commands(fight.state) == ["move", "pass", "join"]
    assert usable_moves(fight.state, "Lokhlass") == ["Roue De Feu"]
    with pytest.raises(RulesError, match="frozen") as refused:
        fight.act(order("Lokhlass", "move", move="Charge"), GivenFaces([]))
    assert refused.value.rule == "PK-16"
    with pytest.raises(RulesError, match="frozen"):
        fight.act(order("Lokhlass", "wait"), GivenFaces([]))
    fight.act(order("Lokhlass", "move", move="roue de feu"), source)
    fight.act(order("Lamantine"), source)
    fight.act(order("Goupix", "move", move="Flammèche", target="Otaria"), source)
    cured = "condition_cured"
    check(
        fight.events[9:],
        [
            slot(0, "Lokhlass"),
            ("thaw_checked", {"pokemon": "Lokhlass", "chance": 10, "roll": 50, "thawed": False}),
            (cured, {"pokemon": "Lokhlass", "condition": "freeze", "reason": "move"}),
            ("move_used", {"pokemon": "Lokhlass", "move": "Roue De Feu"}),
            ("attack_rolled", {"faces": [2, 2], "score": 0}),
            slot(1, "Lamantine"),
            ("thaw_checked", {"pokemon": "Lamantine", "roll": 10, "thawed": True}),
            (cured, {"pokemon": "Lamantine", "condition": "freeze", "reason": "roll"}),
            passed("Lamantine"),
            slot(2, "Otaria"),
            ("thaw_checked", {"pokemon": "Otaria", "roll": 11, "thawed": False}),
            ("action_lost", {"pokemon": "Otaria", "reason": "freeze"}),
            slot(3, "Goupix"),
            ("move_used", {"pokemon": "Goupix", "target": "Otaria"}),
            ("attack_rolled", {"score": 2}),
            ("damage_rolled", {"faces": [6, 2, 2], "damage": 1}),
            ("damage_taken", {"pokemon": "Otaria", "amount": 1}),
            (cured, {"pokemon": "Otaria", "condition": "freeze", "reason": "fire_hit"}),
            *end_of_round(1),
            slot(0, "Lokhlass"),
        ],
    )
    state = finish(fight, source)
    assert all(p["condition"] is None for p in state["pokemon"].values())


def test_pk_16_sleep_wakes_by_20_percent_or_at_the_latest_after_7_turns() -> None:
    """« Il se réveille au bout de 1 à 7 tours »: the first turn asleep is slept through with no
    roll, then 20 % at each turn, and no roll either at the turn after 7 turns lost."""
    wake_rolls = [100, 50, 99, 30, 80, 21]
    source = GivenFaces([5, 5, 5, wake_rolls[0], 20, *wake_rolls[1:]])
    fight = Fight.start(
        RULES,
        {
            "pokemon": [
                mon("Ronflex", "a", dexterity=5, condition="sleep"),
                mon("Rondoudou", "a", dexterity=4, condition="Sommeil"),
                mon("Rattata", "b", dexterity=2),
            ]
        },
        source,
    )
    first_turn = {"roll": None, "woke": False, "turns_asleep": 1, "min_turns": 1}
    check(
        fight.events[7:],
        [
            slot(0, "Ronflex"),
            ("wake_checked", {"pokemon": "Ronflex", "chance": 20} | first_turn),
            ("action_lost", {"pokemon": "Ronflex", "reason": "sleep"}),
            slot(1, "Rondoudou"),
            ("wake_checked", {"pokemon": "Rondoudou", "chance": 20} | first_turn),
            ("action_lost", {"pokemon": "Rondoudou", "reason": "sleep"}),
            slot(2, "Rattata"),
        ],
    )
    fight.act(order("Rattata"), source)
    for _ in range(6):
        fight.act(order("Rondoudou"), source)
        fight.act(order("Rattata"), source)
    fight.act(order("Ronflex"), source)
    events = fight.events[7:]
    check(
        events[11:18],
        [
            slot(0, "Ronflex"),
            ("wake_checked", {"pokemon": "Ronflex", "roll": 100, "woke": False, "turns_asleep": 2}),
            ("action_lost", {"pokemon": "Ronflex", "reason": "sleep"}),
            slot(1, "Rondoudou"),
            ("wake_checked", {"pokemon": "Rondoudou", "chance": 20, "roll": 20, "woke": True}),
            ("condition_cured", {"pokemon": "Rondoudou", "condition": "sleep", "reason": "roll"}),
            passed("Rondoudou"),
        ],
    )
    checks = [e for e in events if e["type"] == "wake_checked" and e["pokemon"] == "Ronflex"]
    assert [e["roll"] for e in checks] == [None, *wake_rolls, None]
    assert [e["turns_asleep"] for e in checks] == [1, 2, 3, 4, 5, 6, 7, 7]
    lost = [e for e in events if e["type"] == "action_lost"]
    assert len(lost) == 8  # Ronflex's 7 turns, Rondoudou's first
    check(
        fight.events[-5:],
        [
            slot(0, "Ronflex"),
            ("wake_checked", {"pokemon": "Ronflex", "roll": None, "woke": True}),
            ("condition_cured", {"pokemon": "Ronflex", "reason": "max_turns"}),
            passed("Ronflex"),
            slot(1, "Rondoudou"),
        ],
    )
    assert fight.state["round"] == 8
    finish(fight, source)


LULLABY = move("Berceuse", "Normal", "statut", inflicts={"condition": "sleep"})


def _lullaby_fight(settings: dict[str, Any] | None = None) -> tuple[Fight, GivenFaces]:
    """Rondoudou (first) sings Berceuse on Rattata, whose turn comes later in the same round."""
    source = GivenFaces([5, 5])
    setup: dict[str, Any] = {
        "pokemon": [
            mon("Rondoudou", "a", moves=(LULLABY,), dexterity=5),
            mon("Rattata", "b", moves=(CHARGE,), dexterity=2),
        ]
    }
    if settings is not None:
        setup["settings"] = settings
    return Fight.start(RULES, setup, source), source


def test_pk_16_put_to_sleep_earlier_in_the_round_it_cannot_act_on_its_next_turn() -> None:
    fight, source = _lullaby_fight()
    fight.act(order("Rondoudou", "move", move="Berceuse", target="Rattata"), source)
    check(
        fight.events[-8:-4],  # then the round's phases and round 2
        [
            ("condition_inflicted", {"pokemon": "Rattata", "condition": "sleep"}),
            slot(1, "Rattata"),
            (
                "wake_checked",
                {"pokemon": "Rattata", "roll": None, "woke": False, "turns_asleep": 1}
                | {"min_turns": 1},
            ),
            ("action_lost", {"pokemon": "Rattata", "reason": "sleep"}),
        ],
    )
    assert fight.state["to_play"] == ["Rondoudou"]  # round 2: Rattata did not act
    assert fight.state["pokemon"]["Rattata"]["condition"] == "sleep"
    source = GivenFaces([20])  # its next turn rolls: 20 ≤ 20 %, it wakes and acts
    fight.act(order("Rondoudou"), source)
    check(
        fight.events[-3:],
        [
            slot(1, "Rattata"),
            ("wake_checked", {"pokemon": "Rattata", "roll": 20, "woke": True, "turns_asleep": 1}),
            ("condition_cured", {"pokemon": "Rattata", "condition": "sleep", "reason": "roll"}),
        ],
    )
    assert fight.state["to_play"] == ["Rattata"]
    finish(fight, source)


def test_pk_16_sleep_min_turns_is_a_table_setting() -> None:
    """`--setting sleep_min_turns=0`: the roll at its very next turn; 2: two turns slept through."""
    fight, source = _lullaby_fight({"sleep_min_turns": 0})
    source = GivenFaces([20])
    fight.act(order("Rondoudou", "move", move="Berceuse", target="Rattata"), source)
    assert fight.state["to_play"] == ["Rattata"]  # woke at once (20 ≤ 20 %)
    finish(fight, source)
    fight, source = _lullaby_fight({"sleep_min_turns": 2})
    fight.act(order("Rondoudou", "move", move="Berceuse", target="Rattata"), source)
    fight.act(order("Rondoudou"), source)  # Rattata's second turn: still no roll
    checks = [e for e in fight.events if e["type"] == "wake_checked"]
    assert [(e["roll"], e["turns_asleep"], e["min_turns"]) for e in checks] == [
        (None, 1, 2),
        (None, 2, 2),
    ]
    finish(fight, source)


def test_pk_16_a_fight_stored_before_sleep_min_turns_replays_unchanged() -> None:
    """A journal's `fight_started` without `sleep_min_turns` is a fight from before: its
    sleepers rolled at their very next turn, and its events fold and decide as they did."""
    events = RULES.start(
        {
            "pokemon": [
                mon("Rondoudou", "a", moves=(LULLABY,), dexterity=5),
                mon("Rattata", "b", moves=(CHARGE,), dexterity=2),
            ]
        },
        GivenFaces([5, 5]),
    )
    del events[0]["settings"]["sleep_min_turns"]
    state = fold(RULES, json.loads(json.dumps(events)))
    assert state["settings"]["sleep_min_turns"] == 0
    source = GivenFaces([21])
    lullaby = order("Rondoudou", "move", move="Berceuse", target="Rattata")
    decided = RULES.decide(state, lullaby, source)
    source.finish()  # the wake roll was made at once
    check(
        decided[-7:-4],
        [
            slot(1, "Rattata"),
            ("wake_checked", {"pokemon": "Rattata", "roll": 21, "woke": False, "turns_asleep": 1}),
            ("action_lost", {"pokemon": "Rattata", "reason": "sleep"}),
        ],
    )
    assert "min_turns" not in decided[-6]


SNORE = move("Ronflement", "Normal", "physique", 1)
SUPERSONIC = move("Ultrason", "Normal", "statut", inflicts={"condition": "confusion"})


def test_pk_17_pk_18_confusion_lasts_1d4_turns_and_hurts_itself() -> None:
    source = GivenFaces([2, 5, 5, 40, 7, 8, 70, 3, 55])
    fight = play(
        RULES,
        {
            "pokemon": [
                mon("Psykokwak", "a", ("Eau",), dexterity=5, volatile=["confusion"]),
                mon("Nosferapti", "b", moves=(SUPERSONIC,)),
            ]
        },
        [
            order("Nosferapti"),
            order("Psykokwak"),
            order("Nosferapti"),
            order("Psykokwak"),
            order("Nosferapti", "move", move="Ultrason"),
        ],
        source,
    )
    start = start_events(["Psykokwak", "Nosferapti"], [5, 5], [10, 7])
    check(
        fight.events,
        [
            start[0],
            ("condition_inflicted", {"pokemon": "Psykokwak", "condition": "confusion", "turns": 2}),
            *start[1:],
            slot(0, "Psykokwak"),
            (
                "confusion_checked",
                {"roll": 40, "hurt": True, "turns_left": 1, "damage": 2}
                | {
                    "self_hit": {"dice": 2, "difficulty": 6, "faces": [7, 8], "successes": 2}
                    | {"failures": 0, "score": 2, "outcome": "success"}
                },
            ),
            ("damage_taken", {"pokemon": "Psykokwak", "amount": 2, "cause": "confusion"}),
            ("action_lost", {"pokemon": "Psykokwak", "reason": "confusion"}),
            slot(1, "Nosferapti"),
            passed("Nosferapti"),
            *end_of_round(1),
            slot(0, "Psykokwak"),
            ("confusion_checked", {"roll": 70, "hurt": False, "turns_left": 0}),
            ("condition_cured", {"condition": "confusion", "reason": "turns"}),
            passed("Psykokwak"),
            slot(1, "Nosferapti"),
            passed("Nosferapti"),
            *end_of_round(2),
            slot(0, "Psykokwak"),  # no confusion roll any more
            passed("Psykokwak"),
            slot(1, "Nosferapti"),
            ("move_used", {"pokemon": "Nosferapti", "target": "Psykokwak"}),
            ("condition_inflicted", {"pokemon": "Psykokwak", "condition": "confusion", "turns": 3}),
            *end_of_round(3),
            slot(0, "Psykokwak"),
            ("confusion_checked", {"roll": 55, "hurt": False, "turns_left": 2}),
        ],
    )
    state = finish(fight, source)
    assert state["pokemon"]["Psykokwak"]["volatile"] == {"confusion": {"turns_left": 2}}
    assert state["pokemon"]["Psykokwak"]["vitality"] == 8


BITE = move("Morsure", "Ténèbres", "physique", 1, inflicts={"condition": "flinch"})


def test_pk_17_flinch_only_when_the_user_acted_first_and_for_one_turn() -> None:
    source = GivenFaces([4, 4, 4, 6, 6, 1, 1, 1, 6, 6, 1, 1, 1])
    fight = Fight.start(
        RULES,
        {
            "pokemon": [
                mon("Grahyena", "a", moves=(BITE,), dexterity=6),
                mon("Abo", "b", moves=(CHARGE,), dexterity=6),
                mon("Taupiqueur", "b", moves=(CHARGE,), dexterity=1),
            ]
        },
        source,
    )
    fight.act(order("Grahyena", "move", move="Morsure", target="Taupiqueur"), source)
    fight.act(order("Abo"), source)
    assert "flinch" in fight.state["pokemon"]["Taupiqueur"]["volatile"]
    assert RULES.legal_commands(fight.state) == ["wait", "free", "pass", "join"]
    refuse(fight, order("Taupiqueur", "move", move="Charge"), "PK-17", "flinched")
    fight.act(order("Taupiqueur"), source)
    assert fight.state["pokemon"]["Taupiqueur"]["volatile"] == {}  # one turn only
    fight.act(order("Abo"), source)
    counter = {"response": "counter", "counter_move": "Charge"}
    bite = order("Grahyena", "move", move="Morsure", target="Abo")
    refuse(fight, bite | counter, "PK-14", "already acted")
    fight.act(bite, source)
    fight.act(order("Taupiqueur"), source)
    check(
        fight.events[5:],
        [
            slot(0, "Grahyena", "Abo"),
            ("move_used", {"pokemon": "Grahyena", "target": "Taupiqueur"}),
            ("attack_rolled", {"score": 2}),
            ("damage_rolled", {"score": -3, "damage": 0}),
            ("damage_taken", {"pokemon": "Taupiqueur", "amount": 0, "held": True}),
            ("condition_inflicted", {"pokemon": "Taupiqueur", "condition": "flinch"}),
            passed("Abo"),
            ("slot_resolved", {"slot": 0}),
            slot(1, "Taupiqueur"),
            passed("Taupiqueur"),
            *end_of_round(1),
            slot(0, "Grahyena", "Abo"),
            passed("Abo"),
            ("move_used", {"pokemon": "Grahyena", "target": "Abo"}),
            ("attack_rolled", {"score": 2}),
            ("damage_rolled", {"score": -3, "damage": 0}),
            ("damage_taken", {"pokemon": "Abo", "amount": 0, "held": True}),
            ("condition_refused", {"pokemon": "Abo", "reason": "acted_first", "rule": "PK-17"}),
            ("slot_resolved", {"slot": 0}),
            slot(1, "Taupiqueur"),
            passed("Taupiqueur"),
            *end_of_round(2),
            slot(0, "Grahyena", "Abo"),
        ],
    )
    assert fight.events[10]["held"] is True
    finish(fight, source)


ATTRACT = move("Attraction", "Normal", "statut", inflicts={"condition": "Attirance"})


def test_pk_17_infatuation_may_stop_an_attack_on_the_one_it_is_attracted_to() -> None:
    source = GivenFaces([5, 5, 50, 51, 2, 2])
    fight = play(
        RULES,
        {
            "pokemon": [
                mon("Melofee", "a", moves=(CHARGE,), dexterity=5, volatile=["attirance"]),
                mon("Rattata", "b", moves=(ATTRACT,)),
            ]
        },
        [
            order("Melofee", "move", move="Charge"),
            order("Rattata"),
            order("Melofee", "move", move="Charge"),
            order("Rattata", "move", move="Attraction"),
        ],
        source,
    )
    check(
        fight.events[5:],
        [
            slot(0, "Melofee"),
            (
                "infatuation_checked",
                {"pokemon": "Melofee", "towards": "Rattata", "chance": 50, "roll": 50}
                | {"refused": True},
            ),
            ("action_lost", {"pokemon": "Melofee", "reason": "infatuation"}),
            slot(1, "Rattata"),
            passed("Rattata"),
            *end_of_round(1),
            slot(0, "Melofee"),
            ("infatuation_checked", {"roll": 51, "refused": False}),
            ("move_used", {"pokemon": "Melofee", "energy": 1}),
            ("attack_rolled", {"faces": [2, 2], "score": 0}),
            slot(1, "Rattata"),
            ("move_used", {"pokemon": "Rattata", "move": "Attraction"}),
            ("condition_refused", {"condition": "infatuation", "reason": "already"}),
            *end_of_round(2),
            slot(0, "Melofee"),
        ],
    )
    state = finish(fight, source)
    assert state["pokemon"]["Melofee"]["energy"] == 9  # the refused attack cost nothing


CURSE = move("Malédiction", "Spectre", "statut", inflicts={"condition": "curse"})


def test_pk_17_curse_only_from_a_spectre_using_malediction_loses_a_quarter() -> None:
    source = GivenFaces([4, 4, 4])
    fight = Fight.start(
        RULES,
        {
            "pokemon": [
                mon("Rattata", "a", moves=(CURSE,), dexterity=6),
                mon("Fantominus", "a", ("Spectre", "Poison"), (CURSE,), dexterity=5),
                mon("Chetiflor", "b", ("Plante", "Poison"), dexterity=1),
            ]
        },
        source,
    )
    curse = order("Rattata", "move", move="malediction")
    refuse(fight, curse | {"response": "endure"}, "PK-12", "physical or special")
    fight.act(curse, source)
    fight.act(order("Fantominus", "move", move="Malédiction"), source)
    fight.act(order("Chetiflor"), source)
    check(
        fight.events[5:],
        [
            slot(0, "Rattata"),
            ("move_used", {"pokemon": "Rattata", "target": "Chetiflor"}),
            ("condition_refused", {"reason": "curse_needs_spectre", "rule": "PK-17"}),
            slot(1, "Fantominus"),
            ("move_used", {"pokemon": "Fantominus"}),
            ("condition_inflicted", {"pokemon": "Chetiflor", "condition": "curse"}),
            slot(2, "Chetiflor"),
            passed("Chetiflor"),
            *phases(
                1,
                ("condition_damage", {"condition": "curse", "fraction": [1, 4], "amount": 2}),
            ),
            ("round_started", {"round": 2}),
            slot(0, "Rattata"),
        ],
    )
    assert finish(fight, source)["pokemon"]["Chetiflor"]["vitality"] == 8


# --- refusals ---------------------------------------------------------------------------------

HYPER = move("Ultralaser", "Normal", "spéciale", 5, energy=20)
SACRED = move("Feu Sacré", "Feu", "physique", 2)


def test_pk_7_illegal_orders_are_refused_with_their_rule_and_change_nothing() -> None:
    source = GivenFaces([4, 4, 4, 4, 6, 6, 6, 6, 6, 100])
    fight = Fight.start(
        RULES,
        {
            "pokemon": [
                mon("Tauros", "a", moves=(CHARGE, HYPER), dexterity=6),
                mon("Magicarpe", "b", vitality=1, dexterity=3),
                mon("Ronflex", "b", moves=(SNORE, CHARGE), condition="sleep"),
                mon("Lokhlass", "b", moves=(SACRED, CHARGE), dexterity=1, condition="freeze"),
            ]
        },
        source,
    )
    charge = order("Tauros", "move", move="Charge")
    refuse(fight, order("Ronflex"), "PK-5", "not Ronflex's turn: Tauros to play")
    refuse(fight, order("Mewtwo"), "PK-7", "unknown Pokémon Mewtwo")
    refuse(fight, order("Tauros", "dance"), "PK-7", "unknown order dance")
    refuse(fight, order("Tauros", "move", move="Ultralaser"), "PK-10", "too little Énergie")
    refuse(fight, order("Tauros", "move", move="Lance-Soleil"), "PK-10", "does not know")
    refuse(fight, charge, "PK-10", "needs a target: one of Magicarpe, Ronflex, Lokhlass")
    refuse(fight, charge | {"target": "Tauros"}, "PK-10", "itself")
    refuse(fight, charge | {"target": "Mewtwo"}, "PK-10", "unknown target Mewtwo")
    refuse(fight, charge | {"target": "Ronflex", "response": "dodge"}, "PK-16", "asleep")
    frozen = {"target": "Lokhlass", "response": "counter", "counter_move": "Feu Sacré"}
    refuse(fight, charge | frozen, "PK-16", "frozen")
    refuse(fight, charge | {"target": "Magicarpe", "response": "parry"}, "PK-7", "parry")
    refuse(fight, charge | {"target": "Magicarpe", "range_penalty": "yes"}, "PK-10", "true")
    trempette = {"target": "Magicarpe", "response": "counter", "counter_move": "Trempette"}
    refuse(fight, charge | trempette, "PK-10", "Magicarpe does not know the move Trempette")
    fight.act(charge | {"target": "Magicarpe"}, source)
    refuse(fight, order("Magicarpe"), "PK-6", "KO")
    assert RULES.legal_commands(fight.state) == ["move", "pass", "join"]
    assert usable_moves(fight.state, "Ronflex") == ["Ronflement"]
    refuse(fight, order("Ronflex", "move", move="Charge"), "PK-16", "asleep")
    refuse(fight, order("Ronflex", "wait"), "PK-16", "asleep")
    snore = order("Ronflex", "move", move="Ronflement", target="Magicarpe")
    refuse(fight, snore, "PK-6", "Magicarpe is KO and cannot be targeted")
    fight.act(order("Ronflex"), source)
    refuse(fight, order("Lokhlass", "move", move="Charge"), "PK-16", "frozen")
    refuse(fight, order("Lokhlass", "free", text="shivers"), "PK-16", "frozen")
    fight.act(order("Lokhlass"), source)
    check(
        fight.events[8:],
        [
            slot(0, "Tauros"),
            ("move_used", {"pokemon": "Tauros", "target": "Magicarpe"}),
            ("attack_rolled", {"score": 2}),
            ("damage_rolled", {"damage": 4}),
            ("damage_taken", {"pokemon": "Magicarpe", "amount": 4}),
            ("knocked_out", {"pokemon": "Magicarpe"}),
            slot(2, "Ronflex"),
            ("wake_checked", {"roll": None, "woke": False, "turns_asleep": 1}),
            passed("Ronflex"),
            slot(3, "Lokhlass"),
            ("thaw_checked", {"roll": 100, "thawed": False}),
            passed("Lokhlass"),
            *phases(1),
            ("removed", {"pokemon": "Magicarpe"}),
            ("round_started", {"round": 2}),
            slot(0, "Tauros"),
        ],
    )
    finish(fight, source)


def test_pk_5_a_fight_before_its_start_refuses_commands() -> None:
    with pytest.raises(RulesError, match="not started"):
        RULES.decide({}, order("Pikachu"), GivenFaces([]))


@pytest.mark.parametrize(
    ("setup", "error", "match"),
    [
        ({}, RulesError, "list of Pokémon"),
        ({"pokemon": [mon("Pikachu", "a"), mon("Evoli", "a")]}, RulesError, "two sides"),
        ({"pokemon": [mon("Evoli", "a"), mon("Evoli", "b")]}, RulesError, "two Pokémon"),
        ({"pokemon": [mon("Evoli", "a"), mon("Pikachu", "")]}, RulesError, "needs a side"),
        ({"pokemon": [mon("Evoli", "a"), "Pikachu"]}, RulesError, "sheet with a side"),
        ({"pokemon": [mon("Evoli", "a"), mon("Pikachu", "b", vitality=0)]}, InputError, "max"),
        ({"pokemon": [mon("Evoli", "a"), mon("Pikachu", "b", strength=0)]}, InputError, "stats"),
        ({"pokemon": [mon("A", "a"), mon("B", "b")], "settings": {"wake": 1}}, InputError, "wake"),
    ],
)
def test_pk_5_a_bad_setup_is_refused(
    setup: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        RULES.start(setup, GivenFaces([5, 5]))


def test_pk_5_a_setup_started_again_is_checked_again_and_shares_nothing() -> None:
    """A simulation starts one setup many times (its Pokémon validated once, then copied): a bad
    sheet is refused every time, and a fight's events share nothing with another's."""
    bad = {"pokemon": [mon("Evoli", "a"), mon("Pikachu", "b", strength=0)]}
    for _time in range(2):
        with pytest.raises(InputError, match="stats"):
            RULES.start(bad, GivenFaces([5, 5]))
    setup = {"pokemon": [mon("Evoli", "a", moves=(CHARGE,)), mon("Rattata", "b")]}
    first, second = (RULES.start(setup, GivenFaces([5, 4]))[0] for _time in range(2))
    assert first == second
    first["pokemon"][0]["sheet"]["moves"][0]["name"] = "Griffe"
    assert second["pokemon"][0]["sheet"]["moves"][0]["name"] == "Charge"
    assert RULES.start(setup, GivenFaces([5, 4]))[0] == second
    assert setup["pokemon"][0]["moves"][0]["name"] == "Charge"


def test_pk_6_a_knocked_out_pokemon_cannot_enter_or_join() -> None:
    ko = mon("Pikachu", "b")
    ko["vitality"] = {"current": 0, "max": 10}
    with pytest.raises(RulesError, match="KO") as refused:
        RULES.start({"pokemon": [mon("Evoli", "a"), ko]}, GivenFaces([5, 5]))
    assert refused.value.rule == "PK-6"
    fight = Fight.start(
        RULES, {"pokemon": [mon("Evoli", "a"), mon("Rattata", "b")]}, GivenFaces([5, 5])
    )
    refuse(fight, {"action": "join", "pokemon": ko}, "PK-6", "KO")
    refuse(fight, {"action": "join", "pokemon": mon("Evoli", "b")}, "PK-5", "two Pokémon")


def test_pk_16_settings_change_the_chances() -> None:
    source = GivenFaces([5, 5, 100])
    fight = Fight.start(
        RULES,
        {
            "pokemon": [
                mon("Pikachu", "a", dexterity=8, condition="paralysis"),
                mon("Rattata", "b", dexterity=1),
            ],
            "settings": {"paralysis_chance": 100},
        },
        source,
    )
    check(
        fight.events[-4:],
        [
            slot(0, "Pikachu"),
            ("paralysis_checked", {"chance": 100, "roll": 100, "lost": True}),
            ("action_lost", {"pokemon": "Pikachu", "reason": "paralysis"}),
            slot(1, "Rattata"),
        ],
    )
    assert finish(fight, source)["settings"]["paralysis_chance"] == 100


# --- a fight is a fold over its events -------------------------------------------------------

POOL = (
    CHARGE,
    KARATE,
    PSYKO,
    EMBER,
    BITE,
    SUPERSONIC,
    ATTRACT,
    WILL_O,
    TOXIC,
    THUNDER_WAVE,
    SAND,
    LEER,
    SWORDS,
    HYDRO,
    SNORE,
    move(
        "Blizzard", "Glace", "spéciale", 2, accuracy=70, inflicts={"condition": "gel", "chance": 30}
    ),
    move("Hypnose", "Psy", "statut", accuracy=60, inflicts={"condition": "sommeil"}),
)


@pytest.mark.parametrize("seed", range(12))
def test_random_fights_are_folds_of_their_json_events(seed: int) -> None:
    """Fights played from random legal orders never break a rule of the decider: a refused
    command changes nothing, someone can always act, and the state is the fold of the events."""
    import random

    choose = random.Random(seed)
    rng = Seeded(seed)
    sides = ("a", "b", "a", "b", "c")
    setup = {
        "pokemon": [
            mon(
                f"P{index}",
                side,
                (choose.choice(["Normal", "Feu", "Eau", "Spectre", "Acier", "Psy"]),),
                tuple(choose.sample(POOL, 4)),
                vitality=choose.randint(4, 14),
                energy=choose.randint(2, 12),
                strength=choose.randint(1, 4),
                dexterity=choose.randint(1, 5),
            )
            for index, side in enumerate(sides[: choose.randint(2, 5)])
        ]
    }
    events = RULES.start(setup, rng)
    state = fold(RULES, events)
    for _command in range(150):
        if state["over"]:
            assert RULES.legal_commands(state) == []
            break
        assert state["to_play"] and "pass" in RULES.legal_commands(state)
        actor = choose.choice(state["to_play"])
        action = choose.choice(RULES.legal_commands(state)[:-1])
        command: dict[str, Any] = {"actor": actor, "action": action, "text": "dances"}
        if action == "move":
            usable = usable_moves(state, actor)
            if not usable:
                command["action"] = "pass"
            else:
                others = [n for n in state["to_play"] + list(state["pokemon"]) if n != actor]
                command |= {
                    "move": choose.choice(usable),
                    "target": choose.choice(others),
                    "response": choose.choice(["none", "endure", "dodge", "counter"]),
                    "counter_move": choose.choice([m["name"] for m in POOL]),
                    "range_penalty": choose.random() < 0.3,
                }
        try:
            new = RULES.decide(state, command, rng)
        except RulesError:
            command = {"actor": actor, "action": "pass"}
            new = RULES.decide(state, command, rng)
        for event in new:
            state = RULES.evolve(state, event)
        events += new
    stored = json.loads(json.dumps(events))
    assert fold(RULES, stored) == state
    assert all(p["vitality"] >= 0 and p["energy"] >= 0 for p in state["pokemon"].values())


# --- PK-12 … PK-14 asked of the defender (`respond`) -------------------------------------------

ASKED = fight_rules()


def recorded(faces: list[int]) -> Recording:
    return Recording(GivenFaces(faces))


def test_pk_12_pk_13_an_attack_waits_for_the_defenders_answer_and_its_dice_are_the_defenders() -> (
    None
):
    fight = Fight.start(ASKED, {"pokemon": [MACHOC, ABRA]}, GivenFaces([9, 5]))
    assert fight.state["settings"]["reactions"] == "ask"
    source = recorded([8, 9, 2, 7, 7, 10, 3, 6])
    fight.act(order("Machoc", "move", move="Poing Karaté", target="Abra"), source)
    asked = fight.events[-1]
    assert asked == {
        "type": "reaction_asked",
        "pokemon": "Abra",
        "attacker": "Machoc",
        "move": "Poing Karaté",
        "range_penalty": False,
        "responses": ["none", "endure", "dodge"],  # Abra has no physical move to counter with
    }
    assert source.rolled == []  # nothing rolled before the defender answers
    assert ASKED.legal_commands(fight.state) == ["respond", "join"]
    refuse(fight, order("Abra", "move", move="Choc Mental"), "PK-12", "waits for Abra's answer")
    refuse(fight, order("Machoc", "respond", response="none"), "PK-12", "not Machoc's")
    refuse(fight, order("Abra", "respond"), "PK-12", "response: one of none, endure, dodge")
    refuse(fight, order("Abra", "respond", response="parry"), "PK-7", "parry")
    counter = order("Abra", "respond", response="counter", counter_move="Choc Mental")
    refuse(fight, counter, "PK-14", "same category")
    fight.act(order("abra", "respond", response="endure"), source)
    check(
        fight.events[-6:],
        [
            ("reaction_given", {"pokemon": "Abra", "attacker": "Machoc", "response": "endure"}),
            ("attack_rolled", {"pokemon": "Machoc", "faces": [8, 9, 2], "score": 2}),
            ("damage_rolled", {"faces": [7, 7, 10, 3], "damage": 2}),
            ("endure_rolled", {"pokemon": "Abra", "faces": [6], "score": 1}),
            ("damage_taken", {"pokemon": "Abra", "amount": 1}),
            slot(1, "Abra"),
        ],
    )
    assert fight.state["reaction"] is None
    # the attacker's attack and damage dice are the attacker's, the endure die the defender's
    assert source.owners == ["Machoc"] * 7 + ["Abra"]
    assert not [e for e in fight.events if e["type"] == "reaction_asked" and e is not asked]
    finish(fight)


def test_pk_14_a_counter_answered_by_the_defender_alternates_whose_dice_are_rolled() -> None:
    kicker = mon("Kicklee", "a", ("Combat",), (KICK,), strength=3, dexterity=4)
    kanga = mon("Kangourex", "b", moves=(SLAM, GROWL), energy=6, constitution=3)
    fight = Fight.start(ASKED, {"pokemon": [kicker, kanga]}, GivenFaces([5, 5]))
    source = recorded([6, 1, 2, 7, 8, 9, 9, 6, 6, 6])
    fight.act(order("Kicklee", "move", move="Mawashi Geri"), source)
    assert fight.events[-1]["responses"] == ["none", "endure", "dodge", "counter"]
    fight.act(order("Kangourex", "respond", response="counter", counter_move="ecrasement"), source)
    given = next(i for i, e in enumerate(fight.events) if e["type"] == "reaction_given")
    assert [e["type"] for e in fight.events[given : given + 6]] == [
        "reaction_given",
        "counter_started",
        "counter_resolved",
        "attack_rolled",
        "damage_rolled",
        "damage_taken",
    ]
    assert fight.events[given]["counter_move"] == "Écrasement"
    # exchange: Kicklee's 3 d10, Kangourex's 2; then the winner Kangourex's attack and damage
    assert source.owners == ["Kicklee"] * 3 + ["Kangourex"] * 7


def test_pk_12_a_defender_asleep_may_only_endure_or_take_the_blow() -> None:
    sleepy = mon("Ronflex", "b", condition="Sommeil", vitality=20)
    fight = Fight.start(ASKED, {"pokemon": [MACHOC, sleepy]}, GivenFaces([9, 5, 50]))
    fight.act(order("Machoc", "move", move="Poing Karaté", target="Ronflex"), GivenFaces([]))
    assert fight.events[-1]["responses"] == ["none", "endure"]
    refuse(fight, order("Ronflex", "respond", response="dodge"), "PK-16", "asleep")


@pytest.mark.parametrize(
    ("default", "asleep", "kind"),
    [("endure", False, "endure_rolled"), ("dodge", False, "dodge_rolled"), ("dodge", True, None)],
)
def test_pk_12_a_tables_default_answer_keeps_the_old_speed(
    default: str, asleep: bool, kind: str | None
) -> None:
    """`reactions = endure | dodge`: the attack resolves at once with that answer (a dodge the
    defender cannot make is an endure); the defence roll is still the defender's."""
    extra: dict[str, Any] = {"condition": "Sommeil"} if asleep else {}
    target = mon("Ronflex", "b", vitality=20, **extra)
    setup = {"pokemon": [MACHOC, target], "settings": {"reactions": default}}
    fight = Fight.start(ASKED, setup, GivenFaces([9, 5]))
    # attack, damage, two defence dice (no wake roll at a sleeper's first turn asleep, PK-16)
    source = recorded([8, 9, 2, 7, 7, 10, 3, 6, 6])
    fight.act(order("Machoc", "move", move="Poing Karaté", target="Ronflex"), source)
    kinds = [e["type"] for e in fight.events]
    assert "reaction_asked" not in kinds and "reaction_given" not in kinds
    assert (kind or "endure_rolled") in kinds
    assert source.owners == ["Machoc"] * 7 + ["Ronflex"] * 2


def test_pk_12_a_fight_from_before_answers_were_asked_plays_as_it_did() -> None:
    """A `fight_started` without the `reactions` setting (journals written before): no answer
    in the attacker's command is none, and every die is the acting command's."""
    started = Fight.start(ASKED, {"pokemon": [MACHOC, ABRA]}, GivenFaces([9, 5]))
    legacy = [dict(started.events[0]), *started.events[1:]]
    legacy[0]["settings"] = {k: v for k, v in legacy[0]["settings"].items() if k != "reactions"}
    fight = Fight(ASKED, legacy)
    assert fight.state["settings"]["reactions"] == "attacker"
    source = recorded([8, 9, 2, 7, 7, 10, 3])
    fight.act(order("Machoc", "move", move="Poing Karaté", target="Abra"), source)
    assert [e["type"] for e in fight.events[-4:]] == [
        "attack_rolled",
        "damage_rolled",
        "damage_taken",
        "slot_opened",
    ]
    assert source.owners == [None] * 7
