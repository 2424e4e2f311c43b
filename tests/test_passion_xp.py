"""Experience (PS-17, PS-18) and buying increases (PS-19): pure functions, change records."""

from __future__ import annotations

import pytest

from jdr.errors import RulesError, UnknownNameError
from jdr.systems.passion.sheet_files import load_example
from jdr.systems.passion.sheets import Sheet
from jdr.systems.passion.xp import (
    PURCHASES,
    Costs,
    apply_xp,
    buy,
    gain,
    record_roll,
    threshold,
    xp_delta,
)


def romuald(**changes: object) -> Sheet:
    """Romuald: Crochetage 7 (2 XP), Blast 7, Corps 3 …; `changes` replace whole fields."""
    sheet = load_example("romuald")
    return Sheet.model_validate(sheet.model_dump() | changes)


# --- PS-17 ------------------------------------------------------------------------------------


def test_ps_17_a_success_against_more_negatives_than_the_score_gains_1_xp() -> None:
    # The seed: Crochetage 7 against Lionel's Serrurier 4: 4 negatives before rolling, not more
    # than 7: no XP even on a success.
    assert xp_delta(score=7, difficulty=4, npc_energy=0, outcome="success") == 0
    assert xp_delta(score=4, difficulty=6, npc_energy=0, outcome="success") == 1
    # The opponent's Énergie counts among the negatives before rolling (PS-7).
    assert xp_delta(score=4, difficulty=4, npc_energy=1, outcome="success") == 1
    assert xp_delta(score=4, difficulty=4, npc_energy=0, outcome="success") == 0


def test_ps_17_a_failure_where_the_score_was_greater_loses_1_xp_status_quo_nothing() -> None:
    assert xp_delta(score=4, difficulty=2, npc_energy=0, outcome="failure") == -1
    assert xp_delta(score=4, difficulty=4, npc_energy=0, outcome="failure") == 0
    assert xp_delta(score=4, difficulty=6, npc_energy=0, outcome="failure") == 0
    assert xp_delta(score=4, difficulty=6, npc_energy=0, outcome="status_quo") == 0
    assert xp_delta(score=4, difficulty=1, npc_energy=0, outcome="status_quo") == 0


def test_ps_17_record_roll_on_a_sheet_returns_the_new_sheet_and_the_changes() -> None:
    before = romuald()
    after, changes = record_roll(before, "crochetage", "success", difficulty=8)
    assert after.xp["Crochetage"] == 3 and before.xp["Crochetage"] == 2
    assert changes == [{"type": "xp_changed", "name": "Crochetage", "delta": 1, "xp": 3}]
    same, none = record_roll(before, "Crochetage", "status_quo", difficulty=8)
    assert same is before and none == []
    with pytest.raises(UnknownNameError):
        record_roll(before, "Natation", "success")


# --- PS-18 ------------------------------------------------------------------------------------


def test_ps_18_thresholds_a_talent_its_level_a_potential_twice_its_level() -> None:
    assert threshold(4, potential=False) == 4
    assert threshold(4, potential=True) == 8


def test_ps_18_a_talent_gains_a_level_when_its_xp_exceeds_it_and_restarts_at_0() -> None:
    changes = apply_xp("Combat", level=2, xp=2, delta=1, potential=False)
    assert changes == [
        {"type": "xp_changed", "name": "Combat", "delta": 1, "xp": 3},
        {"type": "level_changed", "name": "Combat", "delta": 1, "level": 3, "xp": 0},
    ]
    assert apply_xp("Combat", level=2, xp=1, delta=1, potential=False)[-1]["type"] == "xp_changed"


def test_ps_18_a_talent_loses_a_level_when_its_xp_reaches_minus_its_level() -> None:
    changes = apply_xp("Combat", level=2, xp=-1, delta=-1, potential=False)
    assert changes[-1] == {"type": "level_changed", "name": "Combat", "delta": -1, "level": 1} | {
        "xp": 0
    }


def test_ps_18_a_potential_needs_twice_its_level() -> None:
    assert len(apply_xp("Corps", level=3, xp=5, delta=1, potential=True)) == 1  # 6 = 2 × 3
    assert apply_xp("Corps", level=3, xp=6, delta=1, potential=True)[-1]["level"] == 4
    assert apply_xp("Corps", level=3, xp=-5, delta=-1, potential=True)[-1]["level"] == 2


def test_ps_18_never_below_level_0_and_level_0_gains_on_its_first_hard_success() -> None:
    assert apply_xp("Natation", level=0, xp=0, delta=-1, potential=False) == [
        {"type": "xp_changed", "name": "Natation", "delta": -1, "xp": 0}
    ]
    assert apply_xp("Natation", level=0, xp=0, delta=1, potential=False)[-1]["level"] == 1
    assert apply_xp("Natation", level=0, xp=0, delta=0, potential=False) == []


def test_ps_18_gain_on_a_sheet_changes_the_level_and_keeps_the_sheet_valid() -> None:
    after, changes = gain(romuald(), "Crochetage", 6)  # 2 + 6 = 8 > 7
    assert (after.talents["Crochetage"], after.xp["Crochetage"]) == (8, 0)
    assert [c["type"] for c in changes] == ["xp_changed", "level_changed"]
    after, _ = gain(romuald(xp={}), "corps", -6)  # potential 3: −6 = −2 × 3
    assert (after.potentials["Corps"], after.xp["Corps"]) == (2, 0)


# --- PS-19 ------------------------------------------------------------------------------------


def test_ps_19_two_points_buy_one_passion_point() -> None:
    assert PURCHASES == ("passion", "energy", "talent", "potential")
    after, changes = buy(romuald(scenario_points=5), "passion")
    assert (after.passion.current, after.passion.max, after.scenario_points) == (6, 6, 3)
    assert changes == [
        {"type": "points_spent", "amount": 2, "left": 3},
        {"type": "pool_raised", "pool": "passion", "current": 6, "max": 6},
    ]
    with pytest.raises(RulesError, match="costs 2 scenario points, Romuald has 1") as refused:
        buy(romuald(scenario_points=1), "passion")
    assert refused.value.rule == "PS-19"


def test_ps_19_other_costs_are_the_tables_parameter() -> None:
    with pytest.raises(RulesError, match="the table sets what a point of Énergie costs"):
        buy(romuald(scenario_points=9), "energy")
    costs = Costs(energy=3, talent=4, potential=6)
    after, _ = buy(romuald(scenario_points=9), "energy", costs=costs)
    assert (after.energy.max, after.scenario_points) == (7, 6)
    after, changes = buy(romuald(scenario_points=9), "talent", "crochetage", costs)
    assert after.talents["Crochetage"] == 8 and changes[-1]["level"] == 8
    after, _ = buy(romuald(scenario_points=9), "talent", "Natation", costs)  # a new talent
    assert after.talents["Natation"] == 1
    after, _ = buy(romuald(scenario_points=9), "potential", "Esprit", costs)
    assert (after.potentials["Esprit"], after.scenario_points) == (3, 3)
    with pytest.raises(UnknownNameError):
        buy(romuald(scenario_points=9), "potential", "Chance", costs)
    with pytest.raises(UnknownNameError):
        buy(romuald(scenario_points=9), "talent", "Corps", costs)  # a potential
    with pytest.raises(UnknownNameError):
        buy(romuald(scenario_points=9), "power", "Vol", costs)
