"""Passion fights (PS-7 … PS-17): whole fights scripted with given faces, the seed's Romuald
examples replayed, every illegal command refused with its rule.

Each fight ends with `finish`: every given face was used, and the state is the fold of the events
after a JSON round trip (a fight is a fold over its events). `refuse` checks that an illegal command
raises `RulesError` with its rule, rolls nothing and changes nothing.
"""

from __future__ import annotations

import random
import tomllib
from collections import OrderedDict
from typing import Any

import pytest

from fight_checks import finish, refuse
from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError, JdrError, RulesError
from jdr.fights import Fight
from jdr.fights.sealed import check, public, seal, sealing
from jdr.systems import FightRules
from jdr.systems.passion.fight import PassionFight, fight_rules
from jdr.systems.passion.fight_state import choice_of
from jdr.systems.passion.sheet_files import SheetError, example_path

RULES = fight_rules()
Json = dict[str, Any]


def sheet(example: str, side: str, **changes: Any) -> Json:
    data: Json = tomllib.loads(example_path(example).read_text(encoding="utf-8"))
    return data | {"side": side} | changes


def romuald(**changes: Any) -> Json:
    """Romuald: Corps 3, Esprit 2, Mobilité 2; kick 4, Blast 7, Esquive 3; Passion 5, Énergie 6."""
    return sheet("romuald", "heroes", **changes)


def ninja(
    name: str = "Ninja", dodge: int = 6, energy: int = 9, mobility: int = 3, **changes: Any
) -> Json:
    """A cyber-ninja: Corps 2, Mobilité 3; roulés-boulés `dodge`, Katana 3; Passion 2."""
    data = sheet("cyber-ninja", "ninjas", name=name, **changes)
    data["talents"] = data["talents"] | {"Roulés-boulés arrières": dodge}
    data["potentials"] = data["potentials"] | {"Mobilité": mobility}
    return data | {"energy": {"current": energy, "max": energy}}


def start(*fighters: Json, **settings: Any) -> Fight:
    return Fight.start(RULES, {"fighters": list(fighters), **settings}, GivenFaces([]))


def act(fight: Fight, faces: list[int] | tuple[int, ...] = (), /, **command: Any) -> list[Json]:
    """Play one command with exactly these faces."""
    source = GivenFaces(faces)
    events = fight.act(command, source)
    source.finish()
    return events


def markers(fight: Fight, faces: tuple[int, ...] = (), **chosen: int) -> list[Json]:
    """Every fighter's marker (keyword names with `_` for spaces), the last with `faces`."""
    events: list[Json] = []
    items = list(chosen.items())
    for index, (name, marker) in enumerate(items):
        last = index == len(items) - 1
        events += act(
            fight,
            faces if last else (),
            action="choose_marker",
            actor=name.replace("_", " "),
            marker=marker,
        )
    return events


def of(events: list[Json], kind: str) -> list[Json]:
    return [e for e in events if e["type"] == kind]


def one(events: list[Json], kind: str) -> Json:
    found = of(events, kind)
    assert len(found) == 1, [e["type"] for e in events]
    return found[0]


def fighter(fight: Fight, name: str) -> Json:
    found: Json = fight.state["fighters"][name]
    return found


# --- the protocol -----------------------------------------------------------------------------


def test_fight_rules_keep_the_protocol() -> None:
    assert isinstance(RULES, FightRules)
    assert isinstance(RULES, PassionFight)
    assert RULES.legal_commands({}) == []


def test_setup_checks_sheets_names_sides_and_mobility() -> None:
    with pytest.raises(SheetError, match=r"talents\.Blast"):
        start(romuald(talents={"Blast": -1}), ninja())
    with pytest.raises(RulesError, match="two sides") as refused:
        start(romuald(), romuald(name="Bis"))
    assert refused.value.rule == "PS-9"
    with pytest.raises(RulesError, match="two fighters are named"):
        start(romuald(), ninja(name="ROMUALD"))
    with pytest.raises(SheetError, match="mobility"):
        start(romuald(), ninja(uses={"mobility": "Vitesse"}))
    no_mobility = ninja()
    no_mobility["potentials"] = {"Corps": 2}
    with pytest.raises(SheetError, match="no mobility potential Mobilité"):
        start(romuald(), no_mobility)


def test_a_setup_checked_once_still_opens_each_fight_with_an_event_of_its_own() -> None:
    """A setup of plain data is checked once per process (issue 21): the same setup opens each
    fight with an equal event of its own; one given with a tuple, or with a dict of another
    class (not plain data: checked each time), opens alike, and a refused one is refused every
    time."""
    setup = {"fighters": [romuald(), ninja()]}
    first = RULES.start(setup, GivenFaces([]))[0]
    second = RULES.start(setup, GivenFaces([]))[0]
    assert first == second
    assert first is not second and first["fighters"][0] is not second["fighters"][0]
    first["fighters"][0]["talents"]["Blast"] = 0  # a caller changing its event changes no other
    assert RULES.start(setup, GivenFaces([]))[0] == second
    tupled = {"fighters": (romuald(), ninja())}
    assert RULES.start(tupled, GivenFaces([]))[0] == second
    ordered = {"fighters": [OrderedDict(romuald()), ninja()]}
    assert RULES.start(ordered, GivenFaces([]))[0] == second
    for _attempt in range(2):
        with pytest.raises(SheetError, match=r"talents\.Blast"):
            start(romuald(talents={"Blast": -1}), ninja())


# --- PS-9: secret markers, reveal, order ------------------------------------------------------


def test_ps_9_markers_are_chosen_then_revealed_highest_initiative_first() -> None:
    fight = start(romuald(), ninja())
    assert RULES.legal_commands(fight.state) == ["choose_marker", "deus_ex_machina"]
    events = act(fight, action="choose_marker", actor="romuald", marker=2)
    assert [e["type"] for e in events] == ["marker_chosen"]
    refuse(fight, {"action": "choose_marker", "actor": "Romuald", "marker": 3}, "PS-9", "already")
    refuse(
        fight,
        {"action": "attack", "actor": "Romuald", "target": "Ninja", "dice": "2d6"},
        "PS-9",
        "choosing their markers",
    )
    events = act(fight, action="choose_marker", actor="Ninja", marker=0)
    revealed = one(events, "markers_revealed")
    assert revealed["order"] == ["Romuald", "Ninja"]  # 2 + 2 = 4 before 0 + 3 = 3
    assert revealed["fighters"]["Romuald"] == {
        "marker": 2,
        "potential": "Mobilité",
        "mobility": 2,
        "initiative": 4,
        "salt": "",
        "sealed": seal({"marker": 2, "potential": "Mobilité", "mobility": 2}, ""),
    }
    assert one(events, "turn_started")["name"] == "Romuald"
    finish(fight)


def test_ps_9_a_tie_goes_to_the_higher_mobility_then_to_a_d6_roll_off() -> None:
    fight = start(romuald(), ninja("Ninja A"), ninja("Ninja B"))
    # Romuald 3 + 2 = 5; Ninja A 2 + 3 = 5 (higher mobility first); Ninja B 2 + 3 = 5 too: the
    # two ninjas roll off: 4 each, again 2 and 5.
    events = markers(fight, (4, 4, 2, 5), Romuald=3, Ninja_A=2, Ninja_B=2)
    revealed = one(events, "markers_revealed")
    assert revealed["order"] == ["Ninja B", "Ninja A", "Romuald"]
    assert revealed["roll_offs"] == {"Ninja A": [4, 2], "Ninja B": [4, 5]}
    finish(fight)


def test_ps_9_the_marker_must_be_available_and_the_potential_a_potential() -> None:
    fight = start(romuald(ticked_markers=[4]), ninja())
    refuse(
        fight, {"action": "choose_marker", "actor": "Romuald", "marker": 4}, "PS-12", "no marker"
    )
    refuse(
        fight, {"action": "choose_marker", "actor": "Romuald", "marker": 11}, "PS-12", "no marker"
    )
    refuse(
        fight,
        {"action": "choose_marker", "actor": "Romuald", "marker": 1, "potential": "Blast"},
        "PS-9",
        "no potential Blast",
    )
    act(fight, action="choose_marker", actor="Romuald", marker=1, potential="corps")
    assert choice_of(fighter(fight, "Romuald")) == {
        "marker": 1,
        "potential": "Corps",
        "mobility": 3,
    }


def test_ps_9_markers_are_sealed_until_every_fighter_has_chosen_then_opened_together() -> None:
    """Each choice is committed (a salted hash in the event), shown to nobody, and opened with
    its salt once the last fighter has chosen: anyone checks it against its commitment."""
    fight = start(romuald(), ninja())
    chosen = act(fight, action="choose_marker", actor="Romuald", marker=2, salt="c0ffee")
    assert public(chosen) == [
        {
            "type": "marker_chosen",
            "name": "Romuald",
            "round": 1,
            "sealed": seal({"marker": 2, "potential": "Mobilité", "mobility": 2}, "c0ffee"),
        }
    ]
    assert sealing(chosen)
    shown = public(fight.state)["fighters"]["Romuald"]
    assert (shown["marker"], shown["mobility"], "secret" in shown) == (None, None, False)
    assert shown["sealed"] == chosen[0]["sealed"]
    events = act(fight, action="choose_marker", actor="Ninja", marker=0, salt="beef")
    assert not sealing(events)  # the last choice is opened in the same action as it is made
    revealed = one(events, "markers_revealed")
    assert revealed["unsealed"] == [chosen[0]["sealed"], events[0]["sealed"]]
    for name, shown in revealed["fighters"].items():
        choice = {key: shown[key] for key in ("marker", "potential", "mobility")}
        assert check(choice, shown["salt"], shown["sealed"]), name
    assert fighter(fight, "Romuald")["marker"] == 2 and "secret" not in fighter(fight, "Romuald")
    finish(fight)


def test_ps_9_a_fight_from_before_markers_were_sealed_keeps_them_in_the_clear() -> None:
    opening = start(romuald(), ninja()).events
    legacy = [{k: v for k, v in opening[0].items() if k != "sealed"}, *opening[1:]]
    fight = Fight(RULES, legacy)
    events = act(fight, action="choose_marker", actor="Romuald", marker=2)
    assert events == [
        {
            "type": "marker_chosen",
            "name": "Romuald",
            "round": 1,
            "marker": 2,
            "potential": "Mobilité",
            "mobility": 2,
        }
    ]
    revealed = one(act(fight, action="choose_marker", actor="Ninja", marker=0), "markers_revealed")
    assert "unsealed" not in revealed and "salt" not in revealed["fighters"]["Romuald"]


# --- PS-10, PS-11: the seed's kick (table rows 3 and 4) ---------------------------------------


def test_ps_10_ps_11_romuald_kicks_with_two_dice_four_six_against_six_margin_1() -> None:
    """The seed: marker 2, 2 dice: 4 and 6 are 3 positives; the ninjas' 6 in backward rolls are 6
    negatives, 4 cancelled by his kick: 3 positives, 2 negatives, margin 1: he hits."""
    fight = start(romuald(), ninja())
    markers(fight, Romuald=2, Ninja=0)
    events = act(
        fight, [4, 6], action="attack", actor="Romuald", target="ninja", dice="2d6", weapon="pied"
    )
    started = one(events, "action_started")
    assert (started["min_dice"], started["score"], started["damage"]) == (2, 4, 3 + 1)
    rolled = one(events, "roll_made")
    assert (rolled["faces"], rolled["difficulty"], rolled["talent"]) == ([4, 6], 6, 4)
    assert RULES.legal_commands(fight.state) == ["settle", "npc_passion", "deus_ex_machina"]
    events = act(fight, action="settle", actor="Romuald")
    settled = one(events, "roll_settled")
    assert (settled["positives"], settled["negatives"], settled["margin"]) == (3, 2, 1)
    assert settled["outcome"] == "success"
    hit = one(events, "target_hit")
    # Ninja: Corps 2 + cyber suit 1 = 3; the Pied's Violence 2 cut by the suit's Robustesse 1.
    assert (hit["damage"], hit["resistance"], hit["violence_dice"], hit["robustness_dice"]) == (
        4,
        3,
        1,
        0,
    )
    assert fight.state["waiting"] == {
        "for": "violence",
        "actor": "Romuald",
        "target": "Ninja",
        "max_dice": 1,
    }
    refuse(
        fight,
        {"action": "violence", "actor": "Romuald", "dice": "2d6"},
        "PS-14",
        "at most 1 dice",
    )
    act(fight, [1], action="violence", actor="Romuald", dice="1d6")
    events = act(fight, action="settle", actor="Romuald")
    wounded = one(events, "wounded")
    # PS-16: 4 − 3 = 1, Violence 1 → 2 negatives, margin −2: 1 − 2 → 0.
    assert (wounded["base"], wounded["violence_margin"], wounded["wounds"]) == (1, -2, 0)
    assert one(events, "action_ended")["failed"] is False
    assert fight.state["turn"]["name"] == "Ninja"
    finish(fight)


def test_ps_10_ps_12_romuald_five_dice_fails_by_4_and_ticks_marker_5() -> None:
    """The seed: marker 5, faces 4 3 1 2 5: 2 positives, 4 negatives + 6 for the rolls, − 4 for
    his kick: margin −4, a miss; the marker is ticked off (a failure, and 5 ≥ Mobilité 2)."""
    fight = start(romuald(), ninja())
    markers(fight, Romuald=5, Ninja=0)
    act(fight, [4, 3, 1, 2, 5], action="attack", actor="Romuald", target="Ninja", dice="5d6")
    events = act(fight, action="settle", actor="Romuald")
    settled = one(events, "roll_settled")
    assert (settled["positives"], settled["negatives"], settled["margin"]) == (2, 6, -4)
    assert one(events, "target_missed")["target"] == "Ninja"
    assert one(events, "action_ended")["failed"] is True
    events = act(fight, action="pass", actor="Ninja")
    ticked = one(events, "marker_ticked")
    assert (ticked["name"], ticked["marker"], ticked["reasons"]) == (
        "Romuald",
        5,
        ["failure", "mobility"],
    )
    assert 5 not in fighter(fight, "Romuald")["available"]
    assert one(events, "round_started")["round"] == 2
    refuse(
        fight, {"action": "choose_marker", "actor": "Romuald", "marker": 5}, "PS-12", "no marker"
    )
    finish(fight)


def test_ps_10_fewer_dice_than_the_marker_is_refused_an_energy_point_may_stand_in() -> None:
    fight = start(romuald(), ninja())
    markers(fight, Romuald=2, Ninja=0)
    attack = {"action": "attack", "actor": "Romuald", "target": "Ninja", "dice": "1d6"}
    refuse(fight, attack, "PS-10", "marker 2 asks for at least 2")
    events = act(fight, [6], **attack, energy_die=True)
    spent = one(events, "pool_spent")
    assert (spent["pool"], spent["amount"], spent["use"]) == ("energy", 1, "die")
    assert fighter(fight, "Romuald")["energy"] == 5
    refuse(fight, {"action": "settle", "actor": "Romuald", "energy": True}, "PS-5", "one Énergie")
    events = act(fight, action="settle", actor="Romuald")
    settled = one(events, "roll_settled")
    # 6: 2 positives + 1 for the Énergie point; 6 negatives − 4: margin 1.
    assert (settled["positives"], settled["negatives"], settled["margin"]) == (3, 2, 1)
    finish(fight)


def test_ps_11_an_npc_attack_is_dodged_against_its_combat_score_any_number_of_dice() -> None:
    fight = start(romuald(), ninja())
    markers(fight, Romuald=0, Ninja=8)
    refuse(
        fight,
        {"action": "attack", "actor": "Ninja", "target": "Romuald", "dice": "2d6"},
        "PS-11",
        "the GM never rolls",
    )
    events = act(fight, action="attack", actor="Ninja", target="Romuald", weapon="Katana")
    waiting = one(events, "waiting")
    assert (waiting["for"], waiting["actor"], waiting["difficulty"]) == ("dodge", "Romuald", 3)
    assert RULES.legal_commands(fight.state) == ["dodge", "no_dodge", "deus_ex_machina"]
    refuse(fight, {"action": "dodge", "actor": "Ninja", "dice": "1d6"}, "PS-5", "waits for Romuald")
    # One die though the ninja's marker is 8: the defender chooses (PS-11). 4: 1 positive;
    # Katana 3 negatives, Esquive 3 cancels them: margin 1, dodged.
    act(fight, [4], action="dodge", actor="Romuald", dice="1d6")
    events = act(fight, action="settle", actor="Romuald")
    assert one(events, "roll_settled")["margin"] == 1
    assert one(events, "target_missed")["target"] == "Romuald"
    assert one(events, "action_ended")["failed"] is True
    finish(fight)


def test_ps_11_a_status_quo_dodge_does_not_avoid_the_hit_and_no_dodge_takes_it() -> None:
    fight = start(romuald(), ninja(), ninja("Ninja 2"))
    markers(fight, Romuald=0, Ninja=8, Ninja_2=7)
    act(fight, action="attack", actor="Ninja", target="Romuald")
    act(fight, [3], action="dodge", actor="Romuald", dice="1d6")
    events = act(fight, action="settle", actor="Romuald", passion=1)
    assert one(events, "roll_settled")["outcome"] == "status_quo"
    hit = one(events, "target_hit")
    # Bare hands: Corps 2, against Corps 3 + suit 2 = 5; Robustesse 1 die to soak.
    assert (hit["damage"], hit["resistance"], hit["robustness_dice"]) == (2, 5, 1)
    events = act(fight, action="soak", actor="Romuald")
    assert one(events, "wounded")["wounds"] == 0
    act(fight, action="attack", actor="Ninja 2", target="Romuald")
    events = act(fight, action="no_dodge", actor="Romuald")
    assert [e["type"] for e in events][:3] == ["dodge_declined", "target_hit", "waiting"]
    finish(fight)


# --- PS-12: ticking markers -------------------------------------------------------------------


def test_ps_12_a_marker_below_mobility_is_kept_after_success_and_the_last_is_never_ticked() -> None:
    everything_but_1 = [m for m in range(11) if m != 1]
    fight = start(romuald(ticked_markers=everything_but_1[:-1]), ninja(mobility=1))  # 1, 10 left
    markers(fight, Romuald=1, Ninja=0)
    act(fight, [6, 6], action="attack", actor="Romuald", target="Ninja", dice="2d6")
    act(fight, action="settle", actor="Romuald")  # 4 positives, 2 negatives left: a hit
    events = act(fight, action="pass", actor="Ninja")
    assert of(events, "marker_ticked") == [] and of(events, "marker_kept") == []  # 1 < 2
    markers(fight, Romuald=10, Ninja=0)
    act(fight, action="pass", actor="Romuald")
    events = act(fight, action="pass", actor="Ninja")
    assert one(events, "marker_ticked")["reasons"] == ["mobility"]  # a pass uses the marker
    assert fighter(fight, "Romuald")["available"] == [1]
    markers(fight, Romuald=1, Ninja=0)
    act(fight, [1, 1], action="attack", actor="Romuald", target="Ninja", dice="2d6")
    act(fight, action="settle", actor="Romuald")
    events = act(fight, action="pass", actor="Ninja")
    kept = one(events, "marker_kept")
    assert (kept["marker"], kept["reasons"], kept["kept_last"]) == (1, ["failure"], True)
    assert fighter(fight, "Romuald")["available"] == [1]
    finish(fight)


def test_ps_12_a_status_quo_ticks_only_with_the_tables_setting() -> None:
    for setting, ticked in ((False, 0), (True, 1)):
        fight = start(romuald(), ninja(mobility=1), status_quo_ticks=setting)
        markers(fight, Romuald=1, Ninja=0)
        # 1 die (6: 2 positives), 6 negatives − 4 = 2: a status quo, no hit.
        act(fight, [6], action="attack", actor="Romuald", target="Ninja", dice="1d6")
        events = act(fight, action="settle", actor="Romuald")
        assert one(events, "roll_settled")["outcome"] == "status_quo"
        events = act(fight, action="pass", actor="Ninja")
        assert len(of(events, "marker_ticked")) == ticked


# --- PS-13: special attacks -------------------------------------------------------------------


def test_ps_13_the_blast_on_three_ninjas_four_dice_against_nine_margin_1() -> None:
    """The seed: Blast 7, marker 4, faces 4 6 2 3 against three ninjas with 3 in backward rolls:
    4 positives, 1 negative + 9, − 7: 4 positives, 3 negatives, margin 1: all three are hit."""
    fight = start(romuald(), *(ninja(f"Ninja {i}", dodge=3) for i in (1, 2, 3)))
    markers(fight, Romuald=4, Ninja_1=0, Ninja_2=1, Ninja_3=2)
    blast = {"action": "blast", "actor": "Romuald", "talent": "blast", "weapon": "Multi-shurikens"}
    targets = ["Ninja 1", "Ninja 2", "Ninja 3"]
    refuse(fight, blast | {"targets": ["Ninja 1"], "dice": "4d6"}, "PS-13", "at least 2 targets")
    refuse(fight, blast | {"targets": targets, "dice": "3d6"}, "PS-10", "at least 4")
    events = act(fight, [4, 6, 2, 3], **blast, targets=targets, dice="4d6")
    assert one(events, "roll_made")["difficulty"] == 9
    events = act(fight, action="settle", actor="Romuald")
    settled = one(events, "roll_settled")
    assert (settled["positives"], settled["negatives"], settled["margin"]) == (4, 3, 1)
    assert [e["target"] for e in of(events, "target_hit")] == targets
    # Multi-shurikens 3 (ranged) against Corps 2 + suit 1: base 0; Violence 1 − Robustesse 1 = 0,
    # but its Énergie may add 1 damage: the fight asks, target by target.
    assert all(e["violence_dice"] == 0 for e in of(events, "target_hit"))
    for target in targets:
        assert fight.state["waiting"]["target"] == target
        events = act(fight, action="violence", actor="Romuald", weapon_energy=target == "Ninja 2")
        assert one(events, "wounded")["wounds"] == int(target == "Ninja 2")
    assert one(events, "action_ended")["participants"] == ["Romuald"]
    finish(fight)


def test_ps_13_a_split_attack_plays_each_part_at_its_own_initiative() -> None:
    """The seed: combat 4, marker 6, three ninjas: (2, 3), (1, 2), (1, 1). The tool's initiatives:
    marker part + Mobilité 2 = 5, 4, 3 (the seed's 5, 3, 1 do not follow from its numbers)."""
    fight = start(romuald(), *(ninja(f"Ninja {i}") for i in (1, 2, 3)))
    markers(fight, Romuald=6, Ninja_1=3, Ninja_2=0, Ninja_3=1)  # 8, then ninjas 6, 3, 4
    split = {"action": "split_attack", "actor": "Romuald"}
    parts = [
        {"target": "Ninja 1", "talent": 2, "marker": 3},
        {"target": "Ninja 2", "talent": 1, "marker": 2},
        {"target": "Ninja 3", "talent": 1, "marker": 1},
    ]
    wrong = [dict(parts[0], marker=4), *parts[1:]]
    refuse(fight, split | {"parts": wrong}, "PS-13", "add up to the whole: talent 4, marker 6")
    refuse(fight, split | {"parts": parts[:1]}, "PS-13", "at least two parts")
    events = act(fight, **split, parts=parts)
    declared = one(events, "attack_split")
    assert declared["initiatives"] == [5, 4, 3]
    order = [
        (s["name"], s["initiative"], s["part"] and s["part"]["target"]) for s in declared["slots"]
    ]
    # Ninja 1 (3 + 3 = 6) first; ties at 4 and 3 go to the ninjas' Mobilité 3 (> 2).
    assert order == [
        ("Ninja 1", 6, None),
        ("Romuald", 5, "Ninja 1"),
        ("Ninja 3", 4, None),
        ("Romuald", 4, "Ninja 2"),
        ("Ninja 2", 3, None),
        ("Romuald", 3, "Ninja 3"),
    ]
    act(fight, action="pass", actor="Ninja 1")
    assert fight.state["turn"]["part"]["target"] == "Ninja 1"
    assert RULES.legal_commands(fight.state) == ["attack", "pass", "deus_ex_machina"]
    refuse(fight, {"action": "blast", "actor": "Romuald"}, "PS-13", "one attack of a split")
    attack = {"action": "attack", "actor": "Romuald"}
    refuse(fight, attack | {"dice": "2d6"}, "PS-10", "marker 3 asks for at least 3")
    refuse(fight, attack | {"target": "Ninja 2", "dice": "3d6"}, "PS-13", "attacks Ninja 1")
    events = act(fight, [6, 6, 6], **attack, dice="3d6")
    rolled = one(events, "roll_made")
    assert (rolled["target"], rolled["talent"], rolled["difficulty"]) == ("Ninja 1", 2, 6)
    events = act(fight, action="settle", actor="Romuald")
    assert one(events, "roll_settled")["margin"] == 2  # 6 positives, 6 − 2 negatives
    # A part's XP compares its talent part (2) with the negatives before rolling (6): +1.
    assert one(events, "xp_changed")["name"] == "Coup de pied circulaire"
    act(fight, action="pass", actor="Ninja 3")
    assert fight.state["turn"]["part"]["target"] == "Ninja 2"
    act(fight, [1, 1], action="attack", actor="Romuald", dice="2d6")
    act(fight, action="settle", actor="Romuald")  # a failure: marker 6 ticked at round end
    act(fight, action="pass", actor="Ninja 2")
    events = act(fight, action="pass", actor="Romuald")  # the third part
    ticked = of(events, "marker_ticked")[0]
    assert (ticked["name"], ticked["marker"], ticked["reasons"]) == (
        "Romuald",
        6,
        ["failure", "mobility"],
    )
    finish(fight)


def test_ps_13_a_combined_attack_adds_talents_and_damages_smallest_marker_one_roll() -> None:
    lea = romuald(name="Léa", talents={"Combat": 2, "Esquive": 1}, xp={}, uses={"combat": "Combat"})
    fight = start(romuald(), lea, ninja())
    markers(fight, Romuald=5, Léa=1, Ninja=0)  # 7, 3, 3
    combined = {"action": "combined_attack", "actor": "Romuald", "target": "Ninja"}
    refuse(fight, combined | {"partners": ["Ninja"], "dice": "1d6"}, "PS-13", "not a partner")
    refuse(fight, combined | {"partners": ["Romuald"], "dice": "1d6"}, "PS-13", "not a partner")
    events = act(
        fight,
        [6],
        **combined,
        partners=["lea"],
        dice="1d6",
        weapons={"Romuald": "Pied", "Léa": "Pied"},
    )
    started = one(events, "action_started")
    # Talents 4 + 2, damages (3 + 1) + (3 + 1), Violence 2 + 2; Léa's marker 1 is the minimum.
    assert (started["score"], started["min_dice"], started["damage"], started["violence"]) == (
        6,
        1,
        8,
        4,
    )
    assert [s["name"] for s in fight.state["slots"]] == ["Ninja"]  # Léa gave up her turn
    events = act(fight, action="settle", actor="Romuald")
    assert one(events, "roll_settled")["margin"] == 2  # 2 positives, 6 − 6 negatives
    assert of(events, "xp_changed") == []  # a combined attack's XP is nobody's
    hit = one(events, "target_hit")
    assert (hit["damage"], hit["violence_dice"]) == (8, 3)  # 4 cut by the suit's Robustesse 1
    act(fight, action="violence", actor="Romuald")
    events = act(fight, action="pass", actor="Ninja")
    assert {e["name"] for e in of(events, "marker_ticked")} == {"Romuald"}  # 5 ≥ 2; Léa 1 < 2
    finish(fight)


def test_ps_13_an_npc_blast_is_dodged_by_each_target_in_turn() -> None:
    lea = romuald(name="Léa")
    fight = start(romuald(), lea, ninja())
    markers(fight, Romuald=0, Léa=1, Ninja=9)
    events = act(fight, action="blast", actor="Ninja", targets=["Romuald", "Léa"], talent="Katana")
    assert one(events, "waiting")["actor"] == "Romuald"
    act(fight, [6], action="dodge", actor="Romuald", dice="1d6")
    events = act(fight, action="settle", actor="Romuald")
    assert one(events, "target_missed")["target"] == "Romuald"
    assert one(events, "waiting")["actor"] == "Léa"
    act(fight, [1], action="dodge", actor="Léa", dice="1d6")
    events = act(fight, action="settle", actor="Léa")
    assert one(events, "target_hit")["target"] == "Léa"
    events = act(fight, action="soak", actor="Léa")
    assert one(events, "action_ended")["failed"] is False  # it hit one of them
    finish(fight)


# --- PS-7: the NPCs' pools --------------------------------------------------------------------


def test_ps_7_npc_energy_before_the_roll_and_passion_after_it() -> None:
    fight = start(romuald(), ninja())
    markers(fight, Romuald=2, Ninja=0)
    attack = {"action": "attack", "actor": "Romuald", "target": "Ninja", "dice": "2d6"}
    refuse(fight, attack | {"npc_energy": ["Romuald"]}, "PS-7", "not an NPC opposing")
    refuse(fight, attack | {"energy": True}, "PS-5", "after seeing the dice")
    events = act(fight, [4, 6], **attack, npc_energy=["Ninja"])
    assert one(events, "pool_spent") | {} == {
        "type": "pool_spent",
        "name": "Ninja",
        "pool": "energy",
        "item": None,
        "amount": 1,
        "use": "score",
    }
    assert one(events, "roll_made")["npc_energy"] == 1
    refuse(fight, {"action": "npc_passion", "actor": "Ninja", "points": 4}, "PS-7", "Passion")
    refuse(fight, {"action": "npc_passion", "actor": "Romuald", "points": 1}, "PS-7", "not an NPC")
    act(fight, action="npc_passion", actor="Ninja", points=2)
    assert fighter(fight, "Ninja")["passion"] == 0
    refuse(fight, {"action": "settle", "actor": "Romuald", "passion": 9}, "PS-5", "has 5 Passion")
    refuse(
        fight, {"action": "settle", "actor": "Romuald", "passion": 4}, "PS-5", "only 3 negatives"
    )
    events = act(fight, action="settle", actor="Romuald", passion=2)
    settled = one(events, "roll_settled")
    # 3 positives − 2 cancelled by the ninja's Passion; 7 negatives − 4 − 2 Passion: margin 0.
    assert (settled["positives"], settled["negatives"], settled["margin"]) == (1, 1, 0)
    assert settled["steps"]["cancelled_positives"] == 2
    assert fighter(fight, "Romuald")["passion"] == 3
    finish(fight)


def test_ps_7_an_npc_attacker_spends_energy_before_the_dodge() -> None:
    fight = start(romuald(), ninja())
    markers(fight, Romuald=0, Ninja=8)
    act(fight, action="attack", actor="Ninja", target="Romuald", weapon="Katana", energy=True)
    assert fight.state["waiting"]["npc_energy"] == 1
    act(fight, [4], action="dodge", actor="Romuald", dice="1d6")
    events = act(fight, action="settle", actor="Romuald", energy=True)
    settled = one(events, "roll_settled")
    # 1 positive + 1 Énergie; 3 + 1 negatives − 3: margin 1.
    assert (settled["positives"], settled["negatives"], settled["margin"]) == (2, 1, 1)
    finish(fight)


# --- PS-8: deus ex machina --------------------------------------------------------------------


def test_ps_8_a_player_spends_4_passion_for_a_deus_ex_machina_never_an_npc() -> None:
    fight = start(romuald(), ninja())
    refuse(fight, {"action": "deus_ex_machina", "actor": "Ninja"}, "PS-8", "only a player")
    events = act(fight, action="deus_ex_machina", actor="Romuald", text="a mattress truck")
    assert [e["type"] for e in events] == ["pool_spent", "deus_ex_machina"]
    assert one(events, "deus_ex_machina")["text"] == "a mattress truck"
    assert fighter(fight, "Romuald")["passion"] == 1
    assert "deus_ex_machina" not in RULES.legal_commands(fight.state)
    refuse(fight, {"action": "deus_ex_machina", "actor": "Romuald"}, "PS-8", "costs 4 Passion")
    finish(fight)


# --- PS-14, PS-15: weapons and protections with their Énergie ---------------------------------


def test_ps_14_a_weapons_energy_adds_a_positive_or_damage_and_at_0_it_is_unusable() -> None:
    weapons = romuald()["weapons"]
    weapons[1] = weapons[1] | {"energy": {"current": 2, "max": 5}}
    fight = start(romuald(weapons=weapons), ninja(energy=20, mobility=1))
    markers(fight, Romuald=1, Ninja=0)
    shoot = {"action": "attack", "actor": "Romuald", "target": "Ninja", "weapon": "multi-shurikens"}
    act(fight, [6], **shoot, dice="1d6")
    refuse(fight, {"action": "settle", "actor": "Romuald", "item": "Pied"}, "PS-14", "only the")
    events = act(fight, action="settle", actor="Romuald", item="Multi-shurikens")
    settled = one(events, "roll_settled")
    assert (settled["positives"], settled["margin"], settled["item"]) == (3, 1, "Multi-shurikens")
    hit = one(events, "target_hit")
    assert (hit["damage"], hit["violence_dice"]) == (3, 0)  # Violence 1 − Robustesse 1
    act(fight, action="violence", actor="Romuald")  # keeps its last Énergie point
    events = act(fight, action="pass", actor="Ninja")
    markers(fight, Romuald=1, Ninja=0)
    act(fight, [6], **shoot, dice="1d6")
    act(fight, action="settle", actor="Romuald", energy=True)
    events = act(fight, action="violence", actor="Romuald", weapon_energy=True)
    wounded = one(events, "wounded")
    assert (wounded["damage"], wounded["weapon_energy"], wounded["base"]) == (3, True, 1)
    act(fight, action="pass", actor="Ninja")
    markers(fight, Romuald=1, Ninja=0)
    refuse(fight, shoot | {"dice": "1d6"}, "PS-14", "no Énergie left: it is unusable")
    finish(fight)


def test_ps_15_a_protections_energy_adds_to_a_dodge_or_a_soak_and_at_0_it_is_gone() -> None:
    protections = romuald()["protections"]
    protections[0] = protections[0] | {"energy": {"current": 1, "max": 3}}
    fight = start(romuald(protections=protections), ninja())
    markers(fight, Romuald=0, Ninja=8)
    act(fight, action="attack", actor="Ninja", target="Romuald", weapon="Katana")
    act(fight, [4, 3], action="dodge", actor="Romuald", dice="2d6")
    events = act(fight, action="settle", actor="Romuald", item="costume renforcé")
    assert one(events, "roll_settled")["margin"] == 1  # 1 − (1 + 3 − 3) = 0, + 1
    assert fighter(fight, "Romuald")["protections"][0]["energy"] == 0
    act(fight, action="pass", actor="Romuald")
    markers(fight, Romuald=0, Ninja=9)
    act(fight, action="attack", actor="Ninja", target="Romuald", weapon="Katana")
    events = act(fight, action="no_dodge", actor="Romuald")
    hit = one(events, "target_hit")
    # The suit is gone: Corps 3 alone against Katana 2 + Corps 2; no Robustesse left to roll.
    assert (hit["resistance"], hit["robustness_dice"]) == (3, 0)
    assert one(events, "wounded")["wounds"] == 1
    finish(fight)


def test_ps_15_ps_16_soak_with_robustesse_dice_and_a_protection_point_every_step_shown() -> None:
    fight = start(romuald(), ninja())
    markers(fight, Romuald=0, Ninja=8)
    act(
        fight,
        action="attack",
        actor="Ninja",
        target="Romuald",
        weapon="Katana",
        weapon_energy="damage",
    )
    events = act(fight, action="no_dodge", actor="Romuald")
    assert one(events, "target_hit")["weapon_energy"] is True
    refuse(fight, {"action": "soak", "actor": "Romuald", "dice": "2d6"}, "PS-15", "at most 1")
    act(fight, [1], action="soak", actor="Romuald", dice="1d6", protection="Costume renforcé")
    events = act(fight, action="settle", actor="Romuald", passion=1)
    wounded = one(events, "wounded")
    # (4 + 1) − (5 + 1) = −1; the Robustesse die's 1 is 2 negatives, 1 cancelled by Passion: −1,
    # and a Robustesse roll only reduces (« pour réduire encore plus les dégats »): 0 wounds.
    assert {k: wounded[k] for k in ("damage", "resistance", "base", "robustness_margin")} == {
        "damage": 4,
        "resistance": 5,
        "base": -1,
        "robustness_margin": -1,
    }
    assert (wounded["weapon_energy"], wounded["protection_energy"], wounded["wounds"]) == (
        True,
        True,
        0,
    )
    finish(fight)


# --- PS-16: wounds take a fighter down --------------------------------------------------------


def test_ps_16_wounds_add_up_and_reaching_the_energy_maximum_ends_the_fight() -> None:
    fight = start(romuald(), ninja(energy=2))
    markers(fight, Romuald=2, Ninja=0)
    act(fight, [6, 6], action="attack", actor="Romuald", target="Ninja", dice="2d6", weapon="Pied")
    act(fight, action="settle", actor="Romuald")
    act(fight, [6], action="violence", actor="Romuald", dice="1d6")
    events = act(fight, action="settle", actor="Romuald")
    assert one(events, "wounded")["wounds"] == 3  # 4 − 3 = 1, + 2
    assert one(events, "fighter_down")["name"] == "Ninja"
    assert one(events, "fight_over")["winner"] == "heroes"
    assert RULES.legal_commands(fight.state) == []
    refuse(fight, {"action": "pass", "actor": "Romuald"}, "PS-9", "over")
    finish(fight)


# --- PS-17: experience in a fight -------------------------------------------------------------


def test_ps_17_ps_18_a_hard_success_gains_xp_and_a_level_mid_fight() -> None:
    fight = start(romuald(xp={"Coup de pied circulaire": 4}), ninja(energy=30))
    markers(fight, Romuald=2, Ninja=0)
    act(fight, [4, 6], action="attack", actor="Romuald", target="Ninja", dice="2d6")
    events = act(fight, action="settle", actor="Romuald")
    assert [e["type"] for e in events][:3] == ["roll_settled", "xp_changed", "level_changed"]
    assert fighter(fight, "Romuald")["talents"]["Coup de pied circulaire"] == 5
    assert fighter(fight, "Romuald")["xp"]["Coup de pied circulaire"] == 0
    finish(fight)


# --- refusals ---------------------------------------------------------------------------------


def test_illegal_commands_are_refused_with_their_rule_and_change_nothing() -> None:
    fight = start(romuald(), ninja())
    markers(fight, Romuald=2, Ninja=0)
    refuse(fight, {"action": "fly", "actor": "Romuald"}, "PS-9", "unknown action fly")
    refuse(fight, {"action": "pass", "actor": "Ninja"}, "PS-9", "not Ninja's turn")
    refuse(fight, {"action": "settle", "actor": "Romuald"}, "PS-5", "nothing waits")
    refuse(
        fight, {"action": "attack", "actor": "Romuald", "dice": "2d6"}, "PS-11", "needs a target"
    )
    refuse(fight, {"action": "attack", "actor": "Romuald", "target": "Romuald"}, "PS-11", "itself")
    refuse(fight, {"action": "attack", "actor": "Romuald", "target": "Ninja"}, "PS-1", "which dice")
    refuse(
        fight,
        {"action": "attack", "actor": "Romuald", "target": "Ninja", "dice": "2d6", "weapon": "Arc"},
        "PS-14",
        "no weapon Arc",
    )
    refuse(fight, {"action": "action", "actor": "Romuald", "dice": "2d6"}, "PS-4", "which talent")
    with pytest.raises(InputError, match="unknown key"):
        fight.act({"action": "pass", "actor": "Romuald", "speed": 3}, GivenFaces([]))
    with pytest.raises(InputError, match="not a Passion die size"):
        fight.act(
            {"action": "attack", "actor": "Romuald", "target": "Ninja", "dice": "2d7"},
            GivenFaces([]),
        )
    assert len(of(fight.events, "roll_made")) == 0
    refuse(fight, {"action": "dodge", "actor": "Romuald", "dice": "1d6"}, "PS-11", "nothing waits")
    with pytest.raises(RulesError, match="has not started"):
        RULES.decide({}, {"action": "pass", "actor": "Romuald"}, GivenFaces([]))


def test_an_action_roll_in_combat_uses_the_marker_and_any_talent() -> None:
    fight = start(romuald(), ninja())
    markers(fight, Romuald=2, Ninja=0)
    action = {"action": "action", "actor": "Romuald", "talent": "crochetage", "difficulty": 4}
    refuse(fight, action | {"dice": "1d6"}, "PS-10", "at least 2")
    act(fight, [2, 5], **action, dice="2d6")
    events = act(fight, action="settle", actor="Romuald")
    settled = one(events, "roll_settled")
    assert (settled["talent_name"], settled["margin"]) == ("Crochetage", 1)
    assert one(events, "action_ended")["kind"] == "action"
    finish(fight)


# --- a random fight: every state is the fold of its events ------------------------------------


def _random_command(state: Json, rng: random.Random) -> Json:
    legal = [c for c in RULES.legal_commands(state) if c != "deus_ex_machina"]
    waiting = state["waiting"]
    dice = f"{rng.randint(1, 4)}d{rng.choice([4, 6, 8])}"
    if waiting:
        actor = waiting["actor"]
        kind = waiting["for"]
        if kind == "settle":
            return {"action": "settle", "actor": actor}
        if kind == "dodge":
            if rng.random() < 0.2:
                return {"action": "no_dodge", "actor": actor}
            return {"action": "dodge", "actor": actor, "dice": dice}
        if not waiting["max_dice"]:
            return {"action": kind, "actor": actor}
        return {"action": kind, "actor": actor, "dice": f"1d{rng.choice([4, 6])}"}
    if legal == ["choose_marker"]:
        name = next(
            n for n, f in state["fighters"].items() if not f["down"] and choice_of(f) is None
        )
        return {
            "action": "choose_marker",
            "actor": name,
            "marker": rng.choice(state["fighters"][name]["available"][:3]),
        }
    turn = state["turn"]
    actor = turn["name"]
    me = state["fighters"][actor]
    foes = [n for n, f in state["fighters"].items() if not f["down"] and f["side"] != me["side"]]
    target = turn["part"]["target"] if turn["part"] else rng.choice(foes)
    count = max(1, int(turn["marker"]))
    command: Json = {"action": "attack", "actor": actor, "target": target}
    if not me["npc"]:
        command["dice"] = f"{count}d{rng.choice([4, 6, 12])}"
    if me["weapons"] and rng.random() < 0.8:  # bare hands rarely pass a resistance (PS-16)
        command["weapon"] = rng.choice(me["weapons"])["name"]
    return command


@pytest.mark.parametrize("seed", range(6))
def test_random_fights_fold_and_end(seed: int) -> None:
    """Random legal play from a seed: no crash, and the state is always the fold of the events."""
    rng = random.Random(seed)
    fight = start(romuald(), romuald(name="Léa"), ninja(energy=4), ninja("Ninja 2", energy=4))
    source = Seeded(seed)
    state = fight.state
    for _ in range(1000):  # fights are long: wounds need a weapon that passes a resistance
        if state["over"]:
            break
        command = _random_command(state, rng)
        try:
            new = RULES.decide(state, command, source)
        except JdrError:
            fallback = "no_dodge" if command["action"] == "dodge" else "pass"
            new = RULES.decide(state, {"action": fallback, "actor": command["actor"]}, source)
        fight.events.extend(new)
        for event in new:
            state = RULES.evolve(state, event)
    assert finish(fight) == state
    assert state["over"], state["round"]
