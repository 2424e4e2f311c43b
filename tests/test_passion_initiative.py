"""Initiative (PS-9), minimum dice (PS-10) and ticking markers (PS-12): the pure functions and the
`initiative` action."""

from __future__ import annotations

import pytest

from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError, RulesError
from jdr.i18n import language
from jdr.params import validate_params
from jdr.systems.passion.damage import DAMAGE_ACTIONS
from jdr.systems.passion.initiative import (
    MARKERS,
    ROLL_OFF_DIE,
    Entry,
    InitiativeParams,
    check_min_dice,
    initiative,
    initiative_roll,
    order,
    tick,
)


def test_ps_9_markers_run_from_0_to_10_and_initiative_is_marker_plus_mobility() -> None:
    assert tuple(range(11)) == MARKERS
    assert initiative(2, 3) == 5
    assert Entry("Romuald", 6, 2).initiative == 8


def test_ps_9_highest_first_ties_to_the_higher_mobility_without_dice() -> None:
    entries = [Entry("A", 2, 3), Entry("B", 4, 1), Entry("C", 1, 2), Entry("D", 0, 6)]
    # A 5 (mobility 3), B 5 (mobility 1), C 3, D 6.
    result = order(entries, GivenFaces([]))
    assert result.names == ("D", "A", "B", "C")
    assert result.roll_offs == {}


def test_ps_9_then_a_d6_roll_off_rerolled_among_those_still_tied() -> None:
    assert ROLL_OFF_DIE == 6
    entries = [Entry("A", 3, 2), Entry("B", 3, 2), Entry("C", 3, 2), Entry("D", 1, 2)]
    # A, B, C tied at 5: faces 4, 6, 4 → B first, then A and C roll again: 1, 3 → C, A.
    source = GivenFaces([4, 6, 4, 1, 3])
    result = order(entries, source)
    source.finish()
    assert result.names == ("B", "C", "A", "D")
    assert result.roll_offs == {"A": [4, 1], "B": [6], "C": [4, 3]}


def test_ps_10_the_marker_is_the_minimum_dice_an_energy_point_stands_in_for_one() -> None:
    check_min_dice(5, 5)
    check_min_dice(4, 5, energy_die=True)
    check_min_dice(1, 0)
    with pytest.raises(RulesError, match="marker 5 asks for at least 5") as refused:
        check_min_dice(3, 5, energy_die=True)
    assert refused.value.rule == "PS-10"


def test_ps_12_a_failed_action_ticks_the_marker_used() -> None:
    done = tick([0, 1, 2, 3], marker=1, mobility=3, failed=True)
    assert (done.ticked, done.reasons, done.available) == (True, ("failure",), (0, 2, 3))


def test_ps_12_a_marker_at_or_above_mobility_is_ticked_even_after_a_success() -> None:
    assert tick([0, 3, 4], marker=3, mobility=3, failed=False).reasons == ("mobility",)
    assert tick([0, 3, 4], marker=4, mobility=3, failed=True).reasons == ("failure", "mobility")
    kept = tick([0, 2, 4], marker=2, mobility=3, failed=False)
    assert (kept.ticked, kept.reasons, kept.available) == (False, (), (0, 2, 4))


def test_ps_12_the_last_available_marker_is_never_ticked() -> None:
    last = tick([7], marker=7, mobility=2, failed=True)
    assert (last.ticked, last.kept_last, last.available) == (False, True, (7,))
    assert tick([6, 7], marker=7, mobility=2, failed=True).available == (6,)


# --- the `initiative` action -----------------------------------------------------------------


def test_initiative_action_orders_the_markers_given_with_min_dice_and_ticking() -> None:
    params = validate_params(InitiativeParams, {"markers": "2,5", "mobility": "3"})
    record = initiative_roll(params, GivenFaces([]))
    assert record.outcome == "initiative"
    assert record.faces == []
    rows = record.totals["order"]
    assert [(r["name"], r["initiative"], r["min_dice"], r["ticked_after_use"]) for r in rows] == [
        ("#2", 8, 5, True),
        ("#1", 5, 2, False),
    ]
    with language("fr"):
        assert record.explain()


def test_initiative_action_one_mobility_each_and_a_roll_off_with_its_faces() -> None:
    params = validate_params(InitiativeParams, {"markers": "3,4,2", "mobility": "2,1,3"})
    record = initiative_roll(params, GivenFaces([5, 2]))
    # #1 5 (mobility 2), #2 5 (mobility 1), #3 5 (mobility 3): no roll-off needed.
    assert [r["name"] for r in record.totals["order"]] == ["#3", "#1", "#2"]
    params = validate_params(InitiativeParams, {"markers": "2,2", "mobility": "3"})
    record = initiative_roll(params, GivenFaces([2, 5]))
    assert [r["name"] for r in record.totals["order"]] == ["#2", "#1"]
    assert record.faces == [2, 5]
    assert "roll-off 5" in record.explain()


def test_initiative_action_refuses_a_marker_above_10_and_mobility_counts_that_do_not_fit() -> None:
    with pytest.raises(InputError, match=r"markers\[2\]: 11"):
        validate_params(InitiativeParams, {"markers": "2,11", "mobility": "3"})
    with pytest.raises(InputError, match="2 mobility potentials for 3 markers"):
        validate_params(InitiativeParams, {"markers": "1,2,3", "mobility": "3,4"})
    with pytest.raises(InputError, match="markers"):
        validate_params(InitiativeParams, {"markers": "-1", "mobility": "3"})


def test_initiative_is_registered_with_an_example_that_runs() -> None:
    action = DAMAGE_ACTIONS["initiative"]
    assert action.help and action.odds is None
    params = validate_params(action.params, action.example)
    record = action.roll(params, Seeded(7))
    assert record.totals["order"][0]["name"] == "#2"
