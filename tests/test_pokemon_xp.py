"""Pokémon experience: costs (PK-21), EV limits on purchases (PK-22), awards (PK-23, PK-24)."""

from __future__ import annotations

import pytest

from jdr.errors import InputError, RulesError, UnknownNameError
from jdr.systems.pokemon.sheet_files import load_example
from jdr.systems.pokemon.sheets import Pokemon, Trainer, effective_stats, total_evs
from jdr.systems.pokemon.xp import (
    add_xp,
    buy,
    buy_ev,
    buy_level,
    buy_skill,
    ev_cost,
    fight_award,
    level_cost,
    price,
    scenario_award,
    skill_cost,
)


def pikachu(xp: int = 1000, **changes: object) -> Pokemon:
    sheet = load_example("pokemon")
    assert isinstance(sheet, Pokemon)
    return sheet.model_copy(update={"xp": xp, **changes})


def lea(xp: int = 1000) -> Trainer:
    sheet = load_example("trainer")
    assert isinstance(sheet, Trainer)
    return sheet.model_copy(update={"xp": xp})


# PK-21: costs


def test_pk_21_skill_costs_7_then_5_times_points_already_bought() -> None:
    assert [skill_cost(n) for n in range(5)] == [7, 5, 10, 15, 20]


def test_pk_21_ev_costs_10_plus_evs_already_spent() -> None:
    assert [ev_cost(n) for n in (0, 1, 17)] == [10, 11, 27]


def test_pk_21_level_costs_current_level_plus_1() -> None:
    assert [level_cost(n) for n in (1, 5, 20)] == [2, 6, 21]


def test_pk_21_ev_cost_counts_evs_in_every_stat() -> None:
    sheet = pikachu(evs={"dexterity": 2, "strength": 1})
    assert price(sheet, "ev", "willpower") == 13
    assert buy_ev(sheet, "willpower").xp == 1000 - 13


def test_pk_21_buying_a_skill_point() -> None:
    before = lea(xp=12)
    new = buy_skill(before, "Natation")
    assert (new.skills["Natation"], new.xp) == (1, 5)
    again = buy_skill(new, "natation")
    assert (again.skills["Natation"], again.xp) == (2, 0)
    assert "Natation" not in before.skills
    assert before.xp == 12


def test_pk_21_an_existing_skill_matches_whatever_its_case_and_accents() -> None:
    new = buy_skill(lea(), "ATHLETISME")
    assert new.skills["Athlétisme"] == 3
    assert new.xp == 1000 - 10
    assert set(new.skills) == set(lea().skills)


def test_pk_21_buying_a_level() -> None:
    new = buy_level(pikachu(xp=6))
    assert (new.level, new.xp) == (6, 0)


def test_pk_21_not_enough_xp_is_refused_and_the_sheet_is_unchanged() -> None:
    sheet = pikachu(xp=5)
    with pytest.raises(RulesError) as caught:
        buy_level(sheet)
    assert caught.value.rule == "PK-21"
    assert "6 needed, 5 left" in caught.value.message()
    assert (sheet.level, sheet.xp) == (5, 5)


def test_pk_21_the_whole_18_evs_cost_10_to_27() -> None:
    sheet = pikachu(xp=10_000, evs={})
    for stat in ("strength", "concentration", "constitution") * 6:
        sheet = buy_ev(sheet, stat)
    assert total_evs(sheet) == 18
    assert sheet.xp == 10_000 - sum(range(10, 28))


# PK-22: EV limits on purchases


def test_pk_22_a_bought_ev_raises_its_stat_by_1() -> None:
    before = pikachu()
    after = buy_ev(before, "Force")
    assert after.evs["strength"] == 1
    assert effective_stats(after).strength == effective_stats(before).strength + 1
    assert after.stats == before.stats


def test_pk_22_a_7th_ev_in_one_stat_is_refused() -> None:
    sheet = pikachu(evs={"dexterity": 6})
    with pytest.raises(RulesError) as caught:
        buy_ev(sheet, "dexterity")
    assert caught.value.rule == "PK-22"
    assert "Dextérité already has 6 EVs" in caught.value.message()


def test_pk_22_a_19th_ev_is_refused() -> None:
    sheet = lea()
    sheet = sheet.model_copy(update={"evs": {"strength": 6, "concentration": 6, "willpower": 6}})
    with pytest.raises(RulesError) as caught:
        buy_ev(sheet, "dexterity")
    assert caught.value.rule == "PK-22"


def test_pk_22_limits_come_before_the_xp_check() -> None:
    with pytest.raises(RulesError) as caught:
        buy_ev(pikachu(xp=0, evs={"strength": 6}), "strength")
    assert caught.value.rule == "PK-22"


# The buy operation


def test_buy_dispatches_and_prices_match() -> None:
    sheet = pikachu()
    for what, name in (("skill", "Vol"), ("ev", "Volonté"), ("level", ""), ("EV", "force")):
        assert sheet.xp - buy(sheet, what, name).xp == price(sheet, what, name)


def test_unknown_stat_or_purchase_is_an_input_error() -> None:
    with pytest.raises(UnknownNameError):
        buy_ev(pikachu(), "vitesse")
    with pytest.raises(UnknownNameError):
        buy(pikachu(), "move", "Tonnerre")
    with pytest.raises(InputError):
        buy_skill(pikachu(), " ")


def test_a_trainer_has_no_level_to_buy() -> None:
    with pytest.raises(InputError):
        buy(lea(), "level")
    with pytest.raises(InputError):
        price(lea(), "level")


# PK-23, PK-24: awards


@pytest.mark.parametrize(
    ("vital_info", "role_play", "heroic", "had_failure", "xp"),
    [
        (False, False, False, False, 1),
        (True, False, False, False, 2),
        (False, True, False, True, 3),
        (True, True, True, False, 4),
        (True, True, True, True, 5),
    ],
)
def test_pk_23_scenario_award(
    vital_info: bool, role_play: bool, heroic: bool, had_failure: bool, xp: int
) -> None:
    assert scenario_award(vital_info, role_play, heroic, had_failure) == xp


@pytest.mark.parametrize(
    ("level", "won", "xp"),
    [
        (10, True, 5),
        (7, True, 3),
        (1, True, 1),
        (10, False, 2),
        (3, False, 1),
        (1, False, 1),
    ],
)
def test_pk_24_fight_award_half_the_level_a_quarter_for_the_loser(
    level: int, won: bool, xp: int
) -> None:
    assert fight_award(level, won) == xp


def test_pk_24_a_level_below_1_is_refused() -> None:
    with pytest.raises(InputError):
        fight_award(0, won=True)


def test_awards_add_xp_to_a_new_sheet() -> None:
    before = pikachu(xp=2)
    after = add_xp(before, fight_award(8, won=True))
    assert (before.xp, after.xp) == (2, 6)
    with pytest.raises(InputError):
        add_xp(before, -1)
