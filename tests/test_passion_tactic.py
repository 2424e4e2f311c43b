"""The default Passion tactic (issue 21): what each fighter chooses, and simulated fights checked
against the exact odds of a single action (`jdr odds passion action`, exact)."""

from __future__ import annotations

import itertools
import random
import tomllib
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from typing import Any

import pytest

from jdr.dice import GivenFaces, Seeded
from jdr.fights import Fight, play
from jdr.simulate import play_fight, run_seed, simulate
from jdr.simulate.core import Rate
from jdr.systems.passion import SYSTEM as PASSION
from jdr.systems.passion.actions import ActionParams
from jdr.systems.passion.params import Conditions
from jdr.systems.passion.sheet_files import example_path
from jdr.systems.passion.tactic import (
    best_marker,
    best_pools,
    ranked_pools,
    same_count,
    tactic,
    weapon_for,
)

Json = dict[str, Any]
RULES = PASSION.fight


def sheet(example: str, side: str, **changes: Any) -> Json:
    data: Json = tomllib.loads(example_path(example).read_text(encoding="utf-8"))
    return data | {"side": side} | changes


def romuald(**changes: Any) -> Json:
    """Corps 3, Mobilité 2; kick 4 (Pied: 1 + Corps, Violence 2), Esquive 3; Passion 5,
    Énergie 6; Costume renforcé (physical 2, Robustesse 1, Énergie 3)."""
    return sheet("romuald", "heroes", **changes)


def ninja(**changes: Any) -> Json:
    """An NPC: Corps 2, Mobilité 3; dodge 6, Katana 3; Passion 2, Énergie 3."""
    return sheet("cyber-ninja", "ninjas", **changes)


def exact_action(dice: str, **conditions: Any) -> dict[str, Fraction]:
    """`jdr odds passion action --dice DICE … --exact`, through the system's own action."""
    action = PASSION.actions["action"]
    assert action.odds is not None
    odds = action.odds(ActionParams(dice=dice, **conditions), True)
    return {outcome: Fraction(p) for outcome, p in odds.outcomes.items()}


def first_command(setup: Json, action: str) -> Json:
    """The first `action` command the tactic gives in a fight of `setup` (no die rolled before it
    in these setups: the markers and the order involve no roll-off)."""
    fight = Fight.start(RULES, setup, Seeded(0))  # type: ignore[arg-type]
    for _step in range(20):
        command = tactic(fight.state)[0]
        if command["action"] == action:
            return command
        fight.act(command, GivenFaces([]))
    raise AssertionError(f"no {action}")


# --- choices ---------------------------------------------------------------------------------


def test_ps_9_ps_10_marker_the_highest_as_likely_to_hit_and_an_npc_its_highest() -> None:
    """Romuald (kick 4, Passion 5, Énergie) against the ninja's dodge 6 + its Énergie point: one
    die and his pools cancel every negative (a sure hit), two dice may not; the ninja takes 10."""
    fight = Fight.start(RULES, {"fighters": [romuald(), ninja()]}, Seeded(1))  # type: ignore[arg-type]
    state = fight.state
    conditions = Conditions(difficulty=6, talent=4, energy=True, passion=5, npc_energy=1)
    assert best_pools(conditions)[1].sure and not best_pools(conditions)[2].sure
    assert best_marker(state, "Romuald") == 1
    fight.act(tactic(state)[0], GivenFaces([]))
    assert tactic(fight.state) == [
        {"action": "choose_marker", "actor": "Cyber-ninja", "marker": 10}
    ]
    weak = fight.state | {"fighters": fight.state["fighters"] | {"Romuald": {
        **fight.state["fighters"]["Romuald"], "passion": 0, "energy": 0}}}  # fmt: skip
    # without his pools no pool is sure: more dice help, so the highest marker as good as any
    assert best_marker(weak, "Romuald") == 10


@pytest.mark.parametrize("seed", range(12))
def test_ps_3_ps_7_conditions_that_count_alike_rank_alike(seed: int) -> None:
    """The tactic asks the advisor once for all the conditions that count every roll alike
    (`same_count`): the ranking of those conditions as given is the same, pool for pool."""
    draw = random.Random(seed)
    given = Conditions(
        difficulty=draw.randint(0, 9),
        talent=draw.randint(0, 8),
        energy=draw.random() < 0.5,
        passion=draw.randint(0, 5),
        npc_energy=draw.randint(0, 2),
        npc_passion=draw.randint(0, 2),
    )
    assert same_count(same_count(given)) == same_count(given)
    for dice in itertools.product(range(6), repeat=2):  # every roll counts the same
        assert given.resolve(dice).margin == same_count(given).resolve(dice).margin
    alike = [choice.as_json() for choice in ranked_pools(same_count(given))]
    assert [choice.as_json() for choice in ranked_pools(given)] == alike


def test_ps_14_ps_16_weapon_with_the_most_damage_over_the_resistance() -> None:
    """Against the ninja's physical resistance (Corps 2 + combinaison 1 = 3): the Pied (1 + Corps
    3 = 4) beats the Multi-shurikens (3); the ninja's Katana (2 + Corps 2) against Romuald's
    (Corps 3 + costume 2 = 5) still beats its bare hands (Corps 2)."""
    state = Fight.start(RULES, {"fighters": [romuald(), ninja()]}, Seeded(1)).state  # type: ignore[arg-type]
    assert weapon_for(state, "Romuald", "Cyber-ninja") == "Pied"
    assert weapon_for(state, "Cyber-ninja", "Romuald") == "Katana"


def _at_romualds_attack() -> Fight:
    fight = play(
        RULES,  # type: ignore[arg-type]
        {"fighters": [romuald(), ninja()]},
        [
            {"action": "choose_marker", "actor": "Romuald", "marker": 2},
            {"action": "choose_marker", "actor": "Cyber-ninja", "marker": 0},
        ],
        GivenFaces([]),
    )
    assert fight.state["turn"]["name"] == "Romuald"
    return fight


def test_ps_5_settle_spends_the_least_passion_then_energy_when_it_makes_a_success() -> None:
    """2d6 showing 4 and 3: 1 positive; 1 + 6 (dodge) − 4 (kick) = 3 negatives: margin −2. With
    his Énergie and 2 Passion it is a success (2 − 1), and no less Passion does it."""
    fight = _at_romualds_attack()
    attack = {"action": "attack", "actor": "Romuald", "target": "Cyber-ninja", "dice": "2d6"}
    fight.act(attack | {"weapon": "Pied"}, GivenFaces([4, 3]))
    assert tactic(fight.state) == [
        {"action": "settle", "actor": "Romuald", "passion": 2, "energy": True}
    ]
    events = fight.act(tactic(fight.state)[0], GivenFaces([]))
    assert [e["outcome"] for e in events if e["type"] == "roll_settled"] == ["success"]


def test_ps_5_settle_spends_nothing_when_nothing_makes_a_success() -> None:
    fight = _at_romualds_attack()
    fight.act(
        {"action": "attack", "actor": "Romuald", "target": "Cyber-ninja", "dice": "4d6"},
        GivenFaces([1, 1, 1, 1]),  # 8 negatives + 6 − 4 = 10 > 5 Passion
    )
    assert tactic(fight.state) == [{"action": "settle", "actor": "Romuald"}]


def test_ps_7_an_npc_cancels_the_fewest_positives_that_stop_a_success() -> None:
    """Romuald with 1 Passion rolls 6 and 3: 2 positives, 3 negatives left. His best settle
    (Énergie, 1 Passion) would make 3 − 2: a success; the ninja's 1 Passion point stops it, so it
    spends 1 (of 2), and Romuald, unable to succeed, spends nothing."""
    fight = play(
        RULES,  # type: ignore[arg-type]
        {"fighters": [romuald(passion={"current": 1, "max": 5}), ninja()]},
        [
            {"action": "choose_marker", "actor": "Romuald", "marker": 2},
            {"action": "choose_marker", "actor": "Cyber-ninja", "marker": 0},
            {"action": "attack", "actor": "Romuald", "target": "Cyber-ninja", "dice": "2d6"},
        ],
        GivenFaces([6, 3]),
    )
    plain = {"action": "settle", "actor": "Romuald"}
    assert tactic(fight.state) == [
        {"action": "npc_passion", "actor": "Cyber-ninja", "points": 1},
        plain,
    ]
    fight.act(tactic(fight.state)[0], GivenFaces([]))
    assert tactic(fight.state) == [plain]


def test_ps_14_ps_15_damage_dice_every_die_allowed_as_d4s() -> None:
    fight = _at_romualds_attack()
    attack = {"action": "attack", "actor": "Romuald", "target": "Cyber-ninja", "dice": "2d6"}
    fight.act(attack | {"weapon": "Pied"}, GivenFaces([4, 6]))
    fight.act(tactic(fight.state)[0], GivenFaces([]))  # a success: nothing spent
    assert fight.state["waiting"]["for"] == "violence"
    # the Pied's Violence 2, cut by the ninja's Robustesse 1 (PS-16, `npc_cuts_violence`)
    assert tactic(fight.state) == [{"action": "violence", "actor": "Romuald", "dice": "1d4"}]


# --- simulated fights against the exact odds --------------------------------------------------


def kai() -> Json:
    """A player: Corps 4, Mobilité 3; Combat 2, no Esquive; Passion 1, Énergie 1; bare hands."""
    return {
        "name": "Kai",
        "side": "a",
        "potentials": {"Corps": 4, "Mobilité": 3},
        "talents": {"Combat": 2},
        "passion": {"current": 1, "max": 1},
        "energy": {"current": 1, "max": 1},
    }


def drone() -> Json:
    """An NPC that never acts (no combat score: its attacks are refused, it passes) and is down at
    its first wound: Esquive 4, Énergie 1 (spent against Kai's first attack), no Passion."""
    return {
        "name": "Drone",
        "side": "b",
        "npc": True,
        "potentials": {"Mobilité": 0},
        "talents": {"Esquive": 4},
        "passion": {"current": 0, "max": 0},
        "energy": {"current": 1, "max": 1},
    }


def test_ps_3_ps_5_ps_7_ps_10_round_one_ends_as_often_as_the_exact_odds_of_kais_attack() -> None:
    """The fight ends in round 1 exactly when Kai's first attack hits: bare hands deal Corps 4 on
    no resistance, the Drone is down at 1 wound, and it never acts. That attack is the advisor's
    dice against Esquive 4 + the Drone's Énergie point, Combat 2 cancelling, Kai's Énergie and
    Passion spent when they make the hit: exactly `jdr odds passion action` with `--energy
    --passion 1 --npc-energy 1`. Without the pools the odds are outside the interval: the test
    tells a tactic that spends them from one that does not."""
    setup = {"fighters": [kai(), drone()]}
    attack = first_command(setup, "attack")
    assert attack == {
        "action": "attack",
        "actor": "Kai",
        "target": "Drone",
        "dice": "10d4",
        "npc_energy": ["Drone"],
    }
    runs = 2000
    report = simulate(PASSION, setup, runs=runs, seed=21)
    assert report.wins["a"].hits == runs  # the Drone never hurts Kai
    low, high = Rate(report.rounds.get(1, 0), runs).interval
    exact = exact_action("10d4", talent=2, difficulty=4, energy=True, passion=1, npc_energy=1)
    assert low <= float(exact["success"]) <= high, (float(exact["success"]), low, high)
    bare = exact_action("10d4", talent=2, difficulty=4, npc_energy=1)
    assert not low <= float(bare["success"]) <= high


def test_ps_5_ps_7_ps_11_ps_15_first_dodge_succeeds_as_often_as_the_exact_odds() -> None:
    """The ninja (marker 10 + Mobilité 3) attacks first, spending its Énergie (+1 to Katana 3):
    Romuald (1 Passion) dodges with the advisor's dice, Esquive 3 cancelling; the ninja's 2
    Passion cancel positives when that stops the dodge; Romuald spends his Énergie, his Passion
    and the costume's Énergie point (+1 positive) when that makes it. So the dodge succeeds when
    the roll, every pool spent, has a margin ≥ 0 before the costume's point: P(success) +
    P(status quo) of `jdr odds passion action --energy --passion 1 --npc-energy 1
    --npc-passion 2`. Each run is the simulation's own (`play_fight`, `run_seed`)."""
    setup = {"fighters": [romuald(passion={"current": 1, "max": 5}), ninja()]}
    dodge = first_command(setup, "dodge")
    assert dodge == {"action": "dodge", "actor": "Romuald", "dice": "2d100"}
    runs, seed, dodged = 2000, 33, 0
    simulation = PASSION.simulation
    assert simulation is not None
    for index in range(runs):
        played = play_fight(simulation, RULES, setup, run_seed(seed, index), tactic)
        first = next(
            e for e in played.events if e["type"] == "roll_settled" and e["kind"] == "dodge"
        )
        assert first["roller"] == "Romuald" and first["dice"] == "2d100"
        dodged += first["outcome"] == "success"
    odds = exact_action(
        "2d100", talent=3, difficulty=3, energy=True, passion=1, npc_energy=1, npc_passion=2
    )
    exact = odds["success"] + odds["status_quo"]
    low, high = Rate(dodged, runs).interval
    assert low <= float(exact) <= high, (float(exact), low, high)
    assert not low <= float(odds["success"]) <= high  # without the costume's point: outside


# --- whole fights ------------------------------------------------------------------------------


def party() -> Json:
    """Romuald and a second hero against two cyber-ninjas."""
    return {
        "fighters": [
            romuald(),
            romuald(name="Rosalie", potentials={"Corps": 2, "Esprit": 3, "Mobilité": 3}),
            ninja(),
            ninja(name="Cyber-ninja 2"),
        ]
    }


def test_ps_9_ps_16_party_fight_ends_and_reports_every_fighter() -> None:
    report = simulate(PASSION, party(), runs=200, seed=4)
    assert set(report.knocked_out) == {"Romuald", "Rosalie", "Cyber-ninja", "Cyber-ninja 2"}
    assert report.wins["heroes"].hits + report.wins["ninjas"].hits + report.undecided.hits == 200
    assert report.undecided.hits == 0
    assert report.wins["heroes"].rate > 0.5
    dealt = sum(report.dealt.values())
    assert dealt == pytest.approx(sum(report.taken.values()))
    assert dealt > 0


def test_ps_9_same_seed_same_report_over_two_processes() -> None:
    alone = simulate(PASSION, party(), runs=120, seed=8)
    with ProcessPoolExecutor(2) as pool:
        two = simulate(PASSION, party(), runs=120, seed=8, executor=pool, workers=2)
    assert alone.to_json() == two.to_json()
