"""Plus Ultra fights (PU-1, PU-4 … PU-10): whole fights scripted with given faces, every event
checked.

Each fight ends with `finish`: every given face was used, and the state is the fold of the events
after a JSON round trip (a fight is a fold over its events). `refuse` checks that an illegal command
raises `RulesError` with its rule, rolls nothing and changes nothing.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from fight_checks import check, finish, refuse
from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError, RulesError
from jdr.fights import Fight, fold, play
from jdr.i18n import language
from jdr.systems import FightRules
from jdr.systems.plus_ultra.fight import PlusUltraFight, fight_rules

RULES = fight_rules()
Expected = list[tuple[str, dict[str, Any]]]


def hero(
    name: str,
    side: str,
    rank: str = "D",
    energy: int = 5,
    willpower: int = 5,
    techniques: tuple[dict[str, Any], ...] = (),
) -> dict[str, Any]:
    """A sheet in a fight: rank D, 5/5 unless given (D: base 4 + 2 free points, PU-2)."""
    sheet = {"name": name, "rank": rank, "energy": energy, "willpower": willpower}
    return sheet | {"side": side, "techniques": list(techniques)}


def tech(
    name: str, cost: int, cooldown: int, equipment: bool = False, **effects: Any
) -> dict[str, Any]:
    found = {"name": name, "cost": cost, "cooldown": cooldown, "effects": effects}
    return found | ({"equipment": True} if equipment else {})


def cmd(actor: str | None, action: str, **fields: Any) -> dict[str, Any]:
    return {"action": action, **({"actor": actor} if actor else {}), **fields}


def attack(actor: str, target: str, **fields: Any) -> dict[str, Any]:
    return cmd(actor, "attack", target=target, **fields)


def turn(name: str, number: int) -> tuple[str, dict[str, Any]]:
    return ("turn_started", {"name": name, "round": number})


def new_round(number: int, first: str) -> Expected:
    return [("round_started", {"round": number}), turn(first, number)]


def opening(order: list[str]) -> Expected:
    return [("fight_started", {"order": order}), *new_round(1, order[0])]


def rolled(actor: str, defender: str, face: int, attack: int, defense: int, **more: Any) -> Any:
    """An `attack_rolled` event: the numbers, and `hit` / `damage` / `outcome` when given."""
    fields = {"actor": actor, "defender": defender, "face": face, "attack": attack}
    return ("attack_rolled", fields | {"defense": defense} | more)


def lost(name: str, amount: int, by: str) -> tuple[str, dict[str, Any]]:
    return ("energy_lost", {"name": name, "amount": amount, "by": by})


IZUKU = hero("Izuku", "a")
KATSUKI = hero("Katsuki", "b", "C", 8, 8)
OCHACO = hero("Ochaco", "a")


def test_pu_10_fight_rules_is_a_decider() -> None:
    assert isinstance(RULES, FightRules)
    assert isinstance(RULES, PlusUltraFight)
    assert RULES.legal_commands({}) == []


# --- PU-1, PU-4, PU-10: a duel to the KO ------------------------------------------------------


def test_pu_1_pu_4_a_duel_hits_on_equal_misses_below_and_ends_at_a_ko() -> None:
    source = GivenFaces([10, 5, 20, 3, 1, 2])
    fight = play(
        RULES,
        {"characters": [IZUKU, KATSUKI]},
        [attack("Izuku", "Katsuki"), attack("Katsuki", "Izuku")] * 3,
        source,
    )
    check(
        fight.events,
        [
            *opening(["Izuku", "Katsuki"]),
            ("attacked", {"actor": "Izuku", "target": "Katsuki", "protector": None, "round": 1}),
            # 10 + Volonté 5 = 15 < 8 + Énergie 8
            rolled("Izuku", "Katsuki", 10, 15, 16, willpower=5, hit=False, damage=0),
            turn("Katsuki", 1),
            ("attacked", {"actor": "Katsuki", "target": "Izuku"}),
            # 5 + 8 = 13 ≥ 8 + 5: a hit on equal; rank C removes 2 (PU-3)
            rolled("Katsuki", "Izuku", 5, 13, 13, outcome="hit", hit=True, damage=2),
            lost("Izuku", 2, "Katsuki"),
            *new_round(2, "Izuku"),
            ("attacked", {"actor": "Izuku", "round": 2}),
            rolled("Izuku", "Katsuki", 20, 25, 16, hit=True, damage=1),  # rank D: 1
            lost("Katsuki", 1, "Izuku"),
            turn("Katsuki", 2),
            ("attacked", {"actor": "Katsuki"}),
            rolled("Katsuki", "Izuku", 3, 11, 11, hit=True, damage=2),  # defense fell with Énergie
            lost("Izuku", 2, "Katsuki"),
            *new_round(3, "Izuku"),
            ("attacked", {"actor": "Izuku"}),
            rolled("Izuku", "Katsuki", 1, 6, 15, outcome="miss", hit=False),
            turn("Katsuki", 3),
            ("attacked", {"actor": "Katsuki"}),
            rolled("Katsuki", "Izuku", 2, 10, 9, hit=True, damage=2),
            lost("Izuku", 1, "Katsuki"),  # never below 0 (PU-1)
            ("knocked_out", {"name": "Izuku"}),
            ("fight_over", {"winner": "b"}),
        ],
    )
    state = finish(fight, source)
    izuku, katsuki = state["characters"]["Izuku"], state["characters"]["Katsuki"]
    assert (izuku["energy"], izuku["energy_max"], izuku["ko"]) == (0, 5, True)
    assert (katsuki["energy"], katsuki["willpower"]) == (7, 8)
    assert state["over"] and state["winner"] == "b" and state["turn"] is None
    assert RULES.legal_commands(state) == []
    refuse(fight, attack("Katsuki", "Izuku"), "PU-10", "the fight is over")


# --- PU-5: defend -------------------------------------------------------------------------------


def test_pu_5_defend_is_not_retroactive_and_lasts_until_the_start_of_its_next_turn() -> None:
    source = GivenFaces([5, 7, 1, 3])
    fight = Fight.start(
        RULES, {"characters": [IZUKU, KATSUKI], "order": ["katsuki", "IZUKU"]}, source
    )
    fight.act(attack("Katsuki", "Izuku"), source)
    fight.act(cmd("Izuku", "defend"), source)
    izuku = fight.state["characters"]["Izuku"]
    assert (izuku["energy"], izuku["defending"]) == (3, True)  # the hit already rolled stays
    fight.act(attack("Katsuki", "Izuku"), source)
    assert fight.state["characters"]["Izuku"]["defending"] is False  # its turn has started
    fight.act(attack("Izuku", "Katsuki"), source)
    fight.act(attack("Katsuki", "Izuku"), source)
    check(
        fight.events,
        [
            *opening(["Katsuki", "Izuku"]),
            ("attacked", {"actor": "Katsuki"}),
            rolled("Katsuki", "Izuku", 5, 13, 13, defending=False, hit=True),
            lost("Izuku", 2, "Katsuki"),
            turn("Izuku", 1),
            ("defended", {"actor": "Izuku", "round": 1}),
            *new_round(2, "Katsuki"),
            ("attacked", {"actor": "Katsuki"}),
            # 8 + 3 + 5: 15 would have hit without the +5
            rolled("Katsuki", "Izuku", 7, 15, 16, defending=True, hit=False),
            turn("Izuku", 2),
            ("attacked", {"actor": "Izuku"}),
            rolled("Izuku", "Katsuki", 1, 6, 16, hit=False),
            *new_round(3, "Katsuki"),
            ("attacked", {"actor": "Katsuki"}),
            rolled("Katsuki", "Izuku", 3, 11, 11, defending=False, hit=True),
            lost("Izuku", 2, "Katsuki"),
            turn("Izuku", 3),
        ],
    )
    assert finish(fight, source)["characters"]["Izuku"]["energy"] == 1


# --- PU-6: protect another ----------------------------------------------------------------------


def test_pu_6_a_protector_swaps_places_and_the_new_order_holds_in_later_rounds() -> None:
    source = GivenFaces([10, 15, 1, 3])
    fight = Fight.start(RULES, {"characters": [KATSUKI, OCHACO, IZUKU]}, source)
    assert fight.state["order"] == ["Katsuki", "Ochaco", "Izuku"]
    fight.act(attack("Katsuki", "Ochaco", protector="izuku"), source)
    assert fight.state["order"] == ["Katsuki", "Izuku", "Ochaco"]
    assert fight.state["played"] == ["Katsuki", "Izuku"]
    fight.act(attack("Ochaco", "Katsuki"), source)
    fight.act(attack("Katsuki", "Izuku"), source)
    fight.act(cmd("Izuku", "defend"), source)
    fight.act(cmd("Ochaco", "defend"), source)
    fight.act(attack("Katsuki", "Ochaco", protector="Izuku"), source)
    protected = {"actor": "Izuku", "target": "Ochaco", "attacker": "Katsuki"}
    check(
        fight.events,
        [
            *opening(["Katsuki", "Ochaco", "Izuku"]),
            ("attacked", {"actor": "Katsuki", "target": "Ochaco", "protector": "Izuku"}),
            ("protected", protected | {"order": ["Katsuki", "Izuku", "Ochaco"], "swapped": True}),
            # the protector's raw defense 8 + 5 is lower than 18: it takes the hit in full
            rolled("Katsuki", "Izuku", 10, 18, 13, outcome="takes_hit", hit=True, damage=2),
            lost("Izuku", 2, "Katsuki"),
            turn("Ochaco", 1),  # Izuku has played: protecting was its action
            ("attacked", {"actor": "Ochaco"}),
            rolled("Ochaco", "Katsuki", 15, 20, 16, hit=True, damage=1),
            lost("Katsuki", 1, "Ochaco"),
            *new_round(2, "Katsuki"),
            ("attacked", {"actor": "Katsuki", "target": "Izuku", "protector": None}),
            rolled("Katsuki", "Izuku", 1, 9, 11, hit=False),
            turn("Izuku", 2),  # the new order holds: Izuku before Ochaco
            ("defended", {"actor": "Izuku"}),
            turn("Ochaco", 2),
            ("defended", {"actor": "Ochaco"}),
            *new_round(3, "Katsuki"),
            ("attacked", {"actor": "Katsuki", "protector": "Izuku"}),
            ("protected", protected | {"order": ["Katsuki", "Izuku", "Ochaco"], "swapped": False}),
            # raw defense: no +5 although Izuku defends; a tie blocks, for 1 Énergie
            rolled("Katsuki", "Izuku", 3, 11, 11, defending=False, outcome="blocks", damage=1),
            lost("Izuku", 1, "Katsuki"),
            turn("Ochaco", 3),
        ],
    )
    state = finish(fight, source)
    assert [state["characters"][n]["energy"] for n in state["order"]] == [7, 2, 5]
    assert state["characters"]["Izuku"]["defending"] is False


def test_pu_6_only_turns_that_follow_each_other_swap() -> None:
    """« vous pouvez échanger vos tours de jeu si nécessaire si ces derniers se suivent »: with
    the order A, C, D, B, B may not protect C."""
    shoto = hero("Shoto", "b", "C", 8, 8)
    setup = {"characters": [KATSUKI, OCHACO, shoto, IZUKU]}
    fight = Fight.start(RULES, setup, GivenFaces([]))
    assert fight.state["order"] == ["Katsuki", "Ochaco", "Shoto", "Izuku"]
    far = attack("Katsuki", "Ochaco", protector="Izuku")
    refuse(fight, far, "PU-6", "their turns do not follow each other \\(Shoto in between\\)")
    with language("fr"):
        refuse(fight, far, "PU-6", "leurs tours ne se suivent pas \\(Shoto entre les deux\\)")
    # turns that follow each other still swap
    source = GivenFaces([3, 3])
    fight = Fight.start(RULES, setup | {"order": ["Katsuki", "Ochaco", "Izuku", "Shoto"]}, source)
    fight.act(attack("Katsuki", "Ochaco", protector="Izuku"), source)
    assert fight.state["order"] == ["Katsuki", "Izuku", "Ochaco", "Shoto"]
    # a protector that already plays first needs no swap, however far
    fight = Fight.start(RULES, setup | {"order": ["Katsuki", "Izuku", "Shoto", "Ochaco"]}, source)
    fight.act(attack("Katsuki", "Ochaco", protector="Izuku"), source)
    assert fight.state["order"] == ["Katsuki", "Izuku", "Shoto", "Ochaco"]
    assert next(e for e in fight.events if e["type"] == "protected")["swapped"] is False
    finish(fight, source)


def test_pu_6_a_character_out_of_the_fight_plays_no_turn_between_two_that_swap() -> None:
    mirio = hero("Mirio", "c", "E", 2, 2)
    source = GivenFaces([20, 3])
    fight = Fight.start(RULES, {"characters": [KATSUKI, OCHACO, mirio, IZUKU]}, source)
    fight.act(attack("Katsuki", "Mirio"), source)  # 20 + 8 against 10: Mirio is KO
    fight.act(cmd("Ochaco", "defend"), source)
    fight.act(cmd("Izuku", "defend"), source)
    assert fight.state["characters"]["Mirio"]["ko"] and fight.state["round"] == 2
    fight.act(attack("Katsuki", "Ochaco", protector="Izuku"), source)
    assert fight.state["order"] == ["Katsuki", "Izuku", "Mirio", "Ochaco"]
    finish(fight, source)


def test_pu_6_protecting_needs_an_ally_still_in_the_fight_and_neither_having_played() -> None:
    source = GivenFaces([20])
    shoto = hero("Shoto", "b", "C", 8, 8)
    small = hero("Ochaco", "a", "E", 2, 2)
    fight = Fight.start(RULES, {"characters": [KATSUKI, IZUKU, shoto, small]}, source)
    on_ochaco = attack("Katsuki", "Ochaco")
    refuse(fight, on_ochaco | {"protector": "Katsuki"}, "PU-6", "against its own attack")
    refuse(fight, on_ochaco | {"protector": "Ochaco"}, "PU-6", "Ochaco cannot protect itself")
    refuse(fight, on_ochaco | {"protector": "Shoto"}, "PU-6", "not on Ochaco's side")
    refuse(fight, on_ochaco | {"protector": "Mirio"}, "PU-6", "unknown character Mirio")
    fight.act(on_ochaco, source)
    played = "Katsuki has already played this round"
    refuse(
        fight, attack("Izuku", "Shoto", protector="Katsuki"), "PU-6", f"{played} and cannot protect"
    )
    refuse(fight, attack("Izuku", "Katsuki", protector="Shoto"), "PU-6", "cannot be protected")
    refuse(fight, attack("Izuku", "Ochaco"), "PU-1", "Ochaco is out of the fight")
    fight.act(cmd("Izuku", "defend"), source)
    refuse(fight, attack("Shoto", "Izuku", protector="Ochaco"), "PU-1", "Ochaco is out")
    fight.act(cmd("Shoto", "defend"), source)
    check(
        fight.events[3:],
        [
            ("attacked", {"actor": "Katsuki", "target": "Ochaco"}),
            rolled("Katsuki", "Ochaco", 20, 28, 10, damage=2),
            lost("Ochaco", 2, "Katsuki"),
            ("knocked_out", {"name": "Ochaco"}),
            turn("Izuku", 1),
            ("defended", {"actor": "Izuku"}),
            turn("Shoto", 1),
            ("defended", {"actor": "Shoto"}),
            *new_round(2, "Katsuki"),  # Ochaco, KO, does not play: the round is over
        ],
    )
    finish(fight, source)


# --- PU-7: techniques ---------------------------------------------------------------------------

SMASH = tech("Smash", 3, 2, extra_damage=2, attack_bonus=1)
SHOOT = tech("Shoot Style", 3, 0, defense_bonus=2)


def test_pu_7_a_cooldown_2_used_in_round_1_is_refused_in_rounds_2_and_3_ready_in_4() -> None:
    source = GivenFaces([12, 1])
    izuku = hero("Izuku", "a", "C", 8, 8, (SMASH, SHOOT))
    katsuki = hero("Katsuki", "b", "B", 12, 10)
    fight = Fight.start(RULES, {"characters": [izuku, katsuki]}, source)
    smash = cmd("Izuku", "technique", technique="smash", target="Katsuki")
    assert RULES.legal_commands(fight.state) == ["attack", "defend", "technique", "flee"]
    fight.act(smash, source)
    fight.act(cmd("Katsuki", "defend"), source)
    for number, left in ((2, 1), (3, 2)):
        assert fight.state["round"] == number
        refuse(fight, smash, "PU-7", rf"Smash is recharging \({left}/2\): usable again in round 4")
        fight.act(cmd("Izuku", "defend"), source)
        fight.act(cmd("Katsuki", "defend"), source)
    assert fight.state["round"] == 4
    fight.act(smash, source)
    fight.act(cmd("Katsuki", "defend"), source)
    used = {"actor": "Izuku", "technique": "Smash", "target": "Katsuki", "cost": 3, "cooldown": 2}
    check(
        fight.events[3:7] + fight.events[-7:],
        [
            ("technique_used", used | {"round": 1, "protector": None, "text": None}),
            # the cost comes after: the roll uses Volonté 8, +1 bonus; 2 (rank C) + 2 damage
            rolled("Izuku", "Katsuki", 12, 21, 20, willpower=8, bonus=1, hit=True, damage=4),
            lost("Katsuki", 4, "Izuku"),
            ("willpower_spent", {"name": "Izuku", "amount": 3, "technique": "Smash"}),
            ("technique_used", used | {"round": 4}),
            rolled("Izuku", "Katsuki", 1, 7, 21, willpower=5, defending=True, hit=False),
            ("willpower_spent", {"name": "Izuku", "amount": 3}),  # paid on a miss too
            turn("Katsuki", 4),
            ("defended", {"actor": "Katsuki"}),
            *new_round(5, "Izuku"),
        ],
    )
    state = finish(fight, source)
    refuse(fight, smash, "PU-7", "usable again in round 7")
    shoot = cmd("Izuku", "technique", technique="Shoot Style")
    refuse(fight, shoot, "PU-7", "too little Volonté: Shoot Style costs 3, Izuku has 2")
    assert RULES.legal_commands(state) == ["attack", "defend", "flee"]
    assert state["characters"]["Izuku"]["used_round"] == {"Smash": 4}


def test_pu_7_defense_bonus_lowering_volonte_and_energie_and_free_text() -> None:
    source = GivenFaces([12, 10, 8])
    gloves = tech("Gantelets", 0, 3, equipment=True, defense_bonus=2, text="Le coup est encaissé.")
    fear = tech("Intimidation", 1, 1, lower_willpower=2, lower_energy=1)
    izuku = hero("Izuku", "a", "C", 8, 8, (gloves, fear))
    fight = play(
        RULES,
        {"characters": [izuku, KATSUKI]},
        [
            cmd("Izuku", "technique", technique="Gantelets"),
            attack("Katsuki", "Izuku"),
            cmd("Izuku", "technique", technique="Intimidation", target="Katsuki"),
            attack("Katsuki", "Izuku"),
        ],
        source,
    )
    check(
        fight.events[3:],
        [
            (
                "technique_used",
                {"technique": "Gantelets", "target": None, "cost": 0}
                | {"text": "Le coup est encaissé."},
            ),
            ("defense_raised", {"name": "Izuku", "bonus": 2, "technique": "Gantelets"}),
            turn("Katsuki", 1),  # an equipment costing 0: nothing spent
            ("attacked", {"actor": "Katsuki"}),
            rolled("Katsuki", "Izuku", 12, 20, 18, defense_bonus=2, hit=True, damage=2),
            lost("Izuku", 2, "Katsuki"),
            *new_round(2, "Izuku"),
            ("technique_used", {"technique": "Intimidation", "target": "Katsuki", "cost": 1}),
            rolled("Izuku", "Katsuki", 10, 18, 16, hit=True, damage=2),
            lost("Katsuki", 2, "Izuku"),
            ("willpower_lost", {"name": "Katsuki", "amount": 2, "by": "Izuku"}),
            ("energy_lost", {"name": "Katsuki", "amount": 1, "technique": "Intimidation"}),
            ("willpower_spent", {"name": "Izuku", "amount": 1}),
            turn("Katsuki", 2),
            ("attacked", {"actor": "Katsuki"}),
            # Volonté 6 now; the +2 ended when Izuku's turn started
            rolled("Katsuki", "Izuku", 8, 14, 14, willpower=6, defense_bonus=0, hit=True),
            lost("Izuku", 2, "Katsuki"),
            *new_round(3, "Izuku"),
        ],
    )
    state = finish(fight, source)
    katsuki, izuku = state["characters"]["Katsuki"], state["characters"]["Izuku"]
    assert (katsuki["energy"], katsuki["willpower"]) == (5, 6)
    assert (izuku["energy"], izuku["willpower"]) == (4, 7)


# --- PU-8: several rolls ------------------------------------------------------------------------

RAFALE = tech("Rafale", 2, 1, extra_attacks=2)


def test_pu_8_a_multi_hit_stops_when_its_target_reaches_0() -> None:
    source = GivenFaces([8, 2, 17])
    izuku = hero("Izuku", "a", "C", 8, 8, (RAFALE,))
    ochaco = hero("Ochaco", "b", "D", 4, 6)
    fight = play(
        RULES,
        {"characters": [izuku, ochaco]},
        [cmd("Izuku", "technique", technique="Rafale", target="Ochaco")],
        source,
    )
    check(
        fight.events[3:],
        [
            ("technique_used", {"technique": "Rafale"}),
            rolled("Izuku", "Ochaco", 8, 16, 12, roll=1, rolls=3, hit=True, damage=2),
            lost("Ochaco", 2, "Izuku"),
            rolled("Izuku", "Ochaco", 2, 10, 10, roll=2, rolls=3, hit=True, damage=2),
            lost("Ochaco", 2, "Izuku"),
            ("knocked_out", {"name": "Ochaco"}),
            ("rolls_ignored", {"actor": "Izuku", "faces": [17], "at_zero": "Ochaco"}),
            ("willpower_spent", {"name": "Izuku", "amount": 2}),
            ("fight_over", {"winner": "a"}),
        ],
    )
    assert finish(fight, source)["characters"]["Izuku"]["willpower"] == 6


def test_pu_8_pu_6_a_protector_brought_to_0_stops_the_rolls() -> None:
    source = GivenFaces([10, 4, 4])
    katsuki = hero("Katsuki", "b", "C", 8, 8, (RAFALE,))
    izuku = hero("Izuku", "a", "E", 2, 2)
    rafale = cmd("Katsuki", "technique", technique="Rafale", target="Ochaco", protector="Izuku")
    fight = play(RULES, {"characters": [katsuki, OCHACO, izuku]}, [rafale], source)
    check(
        fight.events[3:],
        [
            ("technique_used", {"technique": "Rafale", "protector": "Izuku"}),
            ("protected", {"actor": "Izuku", "swapped": True}),
            rolled("Katsuki", "Izuku", 10, 18, 10, roll=1, outcome="takes_hit", damage=2),
            lost("Izuku", 2, "Katsuki"),
            ("knocked_out", {"name": "Izuku"}),
            ("rolls_ignored", {"faces": [4, 4], "at_zero": "Izuku"}),
            ("willpower_spent", {"name": "Katsuki", "amount": 2}),
            turn("Ochaco", 1),
        ],
    )
    state = finish(fight, source)
    assert state["order"] == ["Katsuki", "Izuku", "Ochaco"]
    assert state["characters"]["Ochaco"]["energy"] == 5


# --- PU-9: flee ---------------------------------------------------------------------------------


def test_pu_9_an_interrupting_hit_stops_the_flight_and_a_miss_lets_it_go() -> None:
    source = GivenFaces([10, 1, 5])
    fight = Fight.start(RULES, {"characters": [IZUKU, KATSUKI]}, source)
    fight.act(cmd("Izuku", "flee"), source)
    assert RULES.legal_commands(fight.state) == ["interrupt", "no_interrupt"]
    refuse(fight, attack("Katsuki", "Izuku"), "PU-9", "Izuku is fleeing: an opponent answers")
    refuse(fight, cmd("Izuku", "interrupt"), "PU-9", "Izuku is not an opponent of Izuku")
    refuse(fight, cmd(None, "interrupt"), "PU-9", "say who interrupts Izuku's flight")
    fight.act(cmd("Katsuki", "interrupt"), source)
    fight.act(attack("Katsuki", "Izuku"), source)
    fight.act(cmd("Izuku", "flee"), source)
    fight.act(cmd("Katsuki", "interrupt"), source)
    check(
        fight.events[3:],
        [
            ("fled", {"actor": "Izuku", "round": 1}),
            ("interrupted", {"actor": "Katsuki", "target": "Izuku", "round": 1}),
            # 8 + 5 + 3 fleeing: 18 hits
            rolled("Katsuki", "Izuku", 10, 18, 16, fleeing=True, hit=True, damage=2),
            lost("Izuku", 2, "Katsuki"),
            ("flight_failed", {"name": "Izuku"}),
            turn("Katsuki", 1),  # the interrupt was a reaction: Katsuki still plays
            ("attacked", {"actor": "Katsuki"}),
            rolled("Katsuki", "Izuku", 1, 9, 11, fleeing=False, hit=False),
            *new_round(2, "Izuku"),
            ("fled", {"actor": "Izuku", "round": 2}),
            ("interrupted", {"actor": "Katsuki"}),
            rolled("Katsuki", "Izuku", 5, 13, 14, fleeing=True, hit=False),
            ("escaped", {"name": "Izuku"}),
            ("fight_over", {"winner": "b"}),
        ],
    )
    state = finish(fight, source)
    izuku = state["characters"]["Izuku"]
    assert (izuku["escaped"], izuku["ko"], izuku["energy"]) == (True, False, 3)


def test_pu_9_without_an_interrupt_the_character_leaves_and_the_fight_goes_on() -> None:
    source = GivenFaces([20])
    fight = Fight.start(RULES, {"characters": [OCHACO, IZUKU, KATSUKI]}, source)
    refuse(fight, cmd("Katsuki", "interrupt"), "PU-9", "nobody is fleeing")
    fight.act(cmd("Ochaco", "flee"), source)
    refuse(fight, cmd("Izuku", "no_interrupt"), "PU-9", "Izuku is not an opponent of Ochaco")
    fight.act(cmd(None, "no_interrupt"), source)
    refuse(fight, attack("Izuku", "Ochaco"), "PU-9", "Ochaco is out of the fight")
    fight.act(attack("Izuku", "Katsuki"), source)
    fight.act(cmd("Katsuki", "defend"), source)
    check(
        fight.events[3:],
        [
            ("fled", {"actor": "Ochaco"}),
            ("not_interrupted", {"actor": None, "target": "Ochaco"}),
            ("escaped", {"name": "Ochaco"}),
            turn("Izuku", 1),
            ("attacked", {"actor": "Izuku"}),
            rolled("Izuku", "Katsuki", 20, 25, 16, hit=True),
            lost("Katsuki", 1, "Izuku"),
            turn("Katsuki", 1),
            ("defended", {"actor": "Katsuki"}),
            *new_round(2, "Izuku"),
        ],
    )
    finish(fight, source)


# --- PU-10: order of play and the setup ---------------------------------------------------------


def test_pu_10_the_order_is_drawn_with_one_d100_each_a_tie_keeping_setup_order() -> None:
    source = GivenFaces([40, 90, 40])
    fight = Fight.start(RULES, {"characters": [IZUKU, KATSUKI, OCHACO], "draw_order": True}, source)
    check(
        fight.events,
        [
            (
                "fight_started",
                {"order": ["Katsuki", "Izuku", "Ochaco"]}
                | {"draws": {"Izuku": 40, "Katsuki": 90, "Ochaco": 40}},
            ),
            *new_round(1, "Katsuki"),
        ],
    )
    state = finish(fight, source)
    assert [state["characters"][n]["energy"] for n in state["order"]] == [8, 5, 5]


@pytest.mark.parametrize(
    ("setup", "error", "rule", "match"),
    [
        ({"characters": [IZUKU]}, RulesError, "PU-10", "at least two characters"),
        ({"characters": [IZUKU, OCHACO]}, RulesError, "PU-10", "two sides"),
        ({"characters": [IZUKU, hero("izuku", "b")]}, RulesError, "PU-10", "two characters"),
        ({"characters": [IZUKU, hero("Mei", "")]}, RulesError, "PU-10", "Mei needs a side"),
        (
            {"characters": [IZUKU, KATSUKI], "order": ["Izuku"]},
            RulesError,
            "PU-10",
            "every character once: Izuku, Katsuki",
        ),
        (
            {"characters": [IZUKU, KATSUKI], "order": ["Izuku", "Mirio"]},
            RulesError,
            "PU-10",
            "every character once",
        ),
        (
            {"characters": [IZUKU, KATSUKI], "order": ["Izuku", "Katsuki"], "draw_order": True},
            RulesError,
            "PU-10",
            "not both",
        ),
        ({"characters": [IZUKU, hero("Mei", "b", "D", 6, 5)]}, InputError, None, "rank D"),
        ({"characters": [IZUKU, hero("Mei", "b", "Z")]}, InputError, None, "rank"),
        ({"characters": [IZUKU, "Mei"]}, InputError, None, "characters"),
        ({"fighters": [IZUKU, KATSUKI]}, InputError, None, "fighters"),
    ],
)
def test_pu_10_pu_2_a_bad_setup_is_refused(
    setup: dict[str, Any], error: type[Exception], rule: str | None, match: str
) -> None:
    with pytest.raises(error, match=match) as refused:
        RULES.start(setup, GivenFaces([]))
    assert getattr(refused.value, "rule", None) == rule


def test_pu_4_pu_7_pu_10_illegal_commands_are_refused_with_their_rule_and_change_nothing() -> None:
    gloves = tech("Gantelets lestés", 0, 3, equipment=True, defense_bonus=2)
    izuku = hero("Izuku", "a", "C", 8, 8, (SMASH, gloves))
    fight = Fight.start(RULES, {"characters": [izuku, KATSUKI]}, GivenFaces([]))
    with pytest.raises(RulesError, match="not started"):
        RULES.decide({}, cmd("Izuku", "defend"), GivenFaces([]))
    malformed: list[tuple[Any, str]] = [("defend", "command"), ({"action": "defend", "x": 5}, "x")]
    for command, key in malformed:
        with pytest.raises(InputError) as wrong:
            fight.act(command, GivenFaces([]))
        assert wrong.value.field == key
    refuse(fight, cmd("Izuku", "dance"), "PU-4", "unknown action dance")
    refuse(fight, cmd("Mirio", "defend"), "PU-10", "unknown character Mirio")
    refuse(fight, cmd("Katsuki", "defend"), "PU-10", "not Katsuki's turn: Izuku to play")
    refuse(fight, cmd("Izuku", "attack"), "PU-4", "Izuku needs a target: one of Katsuki")
    refuse(fight, attack("Izuku", "Izuku"), "PU-4", "Izuku cannot attack itself")
    refuse(fight, attack("Izuku", "Mirio"), "PU-4", "unknown target Mirio")
    refuse(fight, cmd("Izuku", "technique"), "PU-7", "one of Smash, Gantelets lestés")
    technique = cmd("Izuku", "technique", technique="Kamehameha")
    refuse(fight, technique, "PU-7", "Izuku has no technique Kamehameha")
    refuse(fight, cmd("Izuku", "technique", technique="Smash"), "PU-7", "needs a target")
    gloves_protected = cmd("Izuku", "technique", technique="gantelets lestes", protector="Izuku")
    refuse(fight, gloves_protected, "PU-6", "Gantelets lestés makes no attack")
    refuse(fight, cmd("Izuku", "no_interrupt"), "PU-9", "nobody is fleeing")
    with pytest.raises(InputError, match="protecter"):
        fight.act(attack("Izuku", "Katsuki", protecter="Katsuki"), GivenFaces([]))
    assert len(fight.events) == 3


# --- a fight is a fold over its events ------------------------------------------------------------

ROSTER = (
    hero("Izuku", "a", "C", 8, 8, (SMASH, RAFALE)),
    hero("Ochaco", "a", "D", 4, 6, (tech("Gravité", 2, 1, lower_energy=1, text="flotte"),)),
    hero("Katsuki", "b", "C", 7, 9, (SHOOT, tech("Howitzer", 4, 3, extra_damage=3))),
    hero("Shoto", "b", "B", 10, 12, (RAFALE, tech("Glace", 2, 2, lower_willpower=2))),
    hero("Mirio", "c", "E", 2, 2),
)


@pytest.mark.parametrize("seed", range(12))
def test_random_fights_are_folds_of_their_json_events(seed: int) -> None:
    """Fights played from random commands never break a rule of the decider: a refused command
    changes nothing, gauges stay within 0 … max, and the state is the fold of the events."""
    choose = random.Random(seed)
    rng = Seeded(seed)
    characters = [dict(c) for c in choose.sample(ROSTER, choose.randint(2, 5))]
    if len({c["side"] for c in characters}) < 2:
        characters.append(dict(ROSTER[4]))
    events = RULES.start({"characters": characters, "draw_order": choose.random() < 0.5}, rng)
    state = fold(RULES, events)
    names = list(state["characters"])
    for _command in range(200):
        if state["over"]:
            assert RULES.legal_commands(state) == []
            break
        action = choose.choice(RULES.legal_commands(state))
        if action == "flee" and choose.random() < 0.8:
            action = "attack"  # fewer flights: longer fights
        command: dict[str, Any] = {"action": action, "actor": state["turn"]}
        standing = [n for n in state["order"] if not state["characters"][n]["ko"]]
        if action in ("interrupt", "no_interrupt"):
            command["actor"] = choose.choice(names)
        if action in ("attack", "technique"):
            command["target"] = choose.choice(standing if choose.random() < 0.9 else names)
            if choose.random() < 0.4:
                command["protector"] = choose.choice(standing)
        if action == "technique":
            own = state["characters"][state["turn"]]["techniques"]
            command["technique"] = choose.choice(own)["name"]
        before = json.dumps(state)
        try:
            new = RULES.decide(state, command, rng)
        except RulesError:
            assert json.dumps(state) == before
            fallback = {"action": "defend", "actor": state["turn"]}
            if state["fleeing"]:
                fallback = {"action": "no_interrupt"}
            new = RULES.decide(state, fallback, rng)
        for event in new:
            state = RULES.evolve(state, event)
        events += new
    assert fold(RULES, json.loads(json.dumps(events))) == state
    assert sorted(state["order"]) == sorted(names)
    for each in state["characters"].values():
        assert 0 <= each["energy"] <= each["energy_max"]
        assert 0 <= each["willpower"] <= each["willpower_max"]
        assert each["ko"] == (each["energy"] == 0)
