"""Damage and wounds (PS-14 … PS-16): resistance by type, every step of the wounds, the `damage`
action, and its exact odds checked against brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError
from jdr.i18n import language
from jdr.params import validate_params
from jdr.systems.passion.damage import (
    DAMAGE_ACTIONS,
    DamageParams,
    cut_violence,
    damage_odds,
    damage_roll,
    damage_type,
    object_breaks,
    parse_protections,
    resistance,
    wounds,
)
from jdr.systems.passion.pool import score
from jdr.systems.passion.resolve import resolve


def params(**raw: object) -> DamageParams:
    return validate_params(DamageParams, raw)


# --- PS-14, PS-15: types and protections -----------------------------------------------------


def test_ps_14_damage_types_in_french_or_english_accents_optional() -> None:
    assert damage_type("physique") == damage_type("Physical") == "physique"
    assert damage_type("énergétique") == damage_type("ENERGETIQUE") == damage_type("energy")
    assert damage_type("mental") == "mental"
    with pytest.raises(InputError, match="unknown damage type"):
        damage_type("feu")


def test_ps_15_protections_by_type_add_up() -> None:
    assert parse_protections("physique:3,énergétique:2") == {"physique": 3, "energetique": 2}
    assert parse_protections("physical:1, physique:2") == {"physique": 3}
    assert parse_protections("") == {}
    with pytest.raises(InputError, match="not type:score"):
        parse_protections("physique=3")


# --- PS-16: resistance by type ---------------------------------------------------------------


def test_ps_16_physical_damage_physical_protections_plus_the_body() -> None:
    found = resistance("physique", body=3, mind=5, protections={"physique": 2, "mental": 4})
    assert (found.potential, found.protections, found.total) == (3, 2, 5)
    assert found.terms() == "Corps 3 + physical protections 2"


def test_ps_16_mental_damage_mental_protections_plus_the_mind() -> None:
    found = resistance("mental", body=3, mind=2, protections={"physique": 2, "mental": 1})
    assert found.total == 3
    assert found.terms() == "Esprit 2 + mental protections 1"


def test_ps_16_energy_damage_energy_protections_and_half_physical_plus_half_body() -> None:
    only_physical = resistance("energetique", body=5, mind=0, protections={"physique": 3})
    assert (only_physical.potential, only_physical.protections) == (2, 1)  # ⌊5/2⌋, ⌊3/2⌋
    both = resistance("energetique", body=5, mind=0, protections={"physique": 3, "energetique": 2})
    assert both.total == 2 + 2 + 1  # both kinds count: energy + half the physical
    assert both.terms() == "Corps 5 ÷ 2 = 2 + energy protections 2 + physical 3 ÷ 2 = 1"
    assert resistance("energetique", body=1, mind=0, protections={}).total == 0


# --- PS-16: wounds ---------------------------------------------------------------------------


def test_ps_16_wounds_are_damage_minus_resistance_never_below_zero() -> None:
    assert wounds(7, 3).total == 4
    assert wounds(2, 5).base == 0 and wounds(2, 5).total == 0


def test_ps_16_violence_margin_adds_and_robustesse_margin_subtracts_after_the_floor() -> None:
    # 2 − 5 → 0 first, then + 3: the Violence dice still wound.
    assert wounds(2, 5, violence=resolve((3, 0))).total == 3
    hit = wounds(6, 3, violence=resolve((1, 3)), robustness=resolve((2, 0)))
    assert (hit.base, hit.violence_margin, hit.robustness_margin, hit.total) == (3, -2, 2, 0)
    # A bad Robustesse roll (negative margin) adds wounds.
    assert wounds(4, 3, robustness=resolve((0, 2))).total == 3


def test_ps_14_ps_15_an_energy_point_adds_one_damage_or_one_to_soak() -> None:
    assert wounds(4, 3, weapon_energy=True).base == 2
    assert wounds(4, 3, protection_energy=True).base == 0
    steps = wounds(4, 3, weapon_energy=True, protection_energy=True).steps()
    assert steps == {
        "damage": 4,
        "weapon_energy": True,
        "resistance": 3,
        "protection_energy": True,
        "base": 1,
        "violence_margin": None,
        "robustness_margin": None,
        "wounds": 1,
    }


def test_ps_16_the_gm_cuts_violence_dice_by_robustesse_and_objects_break() -> None:
    assert cut_violence(3, 1) == 2 and cut_violence(2, 5) == 0
    assert object_breaks(wounds(6, 4), energy=2)
    assert not object_breaks(wounds(6, 4), energy=3)
    assert not object_breaks(wounds(4, 4, violence=resolve((5, 0))), energy=2)  # not passed


# --- the `damage` action ---------------------------------------------------------------------


def test_damage_action_every_step_violence_faces_then_robustesse_faces() -> None:
    given = params(
        damage=5,
        type="physical",
        body=2,
        protections="physique:1",
        violence_dice="2d6",
        robustness_dice="1d6",
    )
    source = GivenFaces([6, 4, 1])
    record = damage_roll(given, source)
    source.finish()
    assert record.faces == [6, 4, 1]
    assert dict(record.totals) == {
        "damage": 5,
        "weapon_energy": False,
        "resistance": 3,
        "protection_energy": False,
        "base": 2,
        "violence_margin": 3,
        "robustness_margin": -2,
        "wounds": 7,
    }
    assert record.outcome == "wounded"
    assert record.explain() == (
        "damage 5 − resistance 3 (Corps 2 + physical protections 1) = 2"
        " · Violence 2d6: 6++ 4+ → margin 3 · Robustesse 1d6: 1−− → margin −2"
        " · wounds: 2 + 3 + 2 → 7"
    )
    with language("fr"):
        assert record.explain()


def test_damage_action_with_a_given_resistance_passion_and_energy_points() -> None:
    given = params(damage=3, resistance=4, violence_dice="2d4", passion=1, weapon_energy=True)
    record = damage_roll(given, GivenFaces([1, 2]))
    # 3 + 1 − 4 = 0; Violence 1 and 2: 1 positive, 2 negatives, 1 cancelled by Passion: 0.
    assert (record.totals["base"], record.totals["violence_margin"]) == (0, 0)
    assert record.outcome == "unharmed"
    assert "Passion −1" in record.explain()
    assert record.totals["robustness_margin"] is None


def test_damage_action_refuses_what_does_not_fit() -> None:
    with pytest.raises(InputError, match="give the resistance, or the type"):
        params(damage=3, resistance=4, body=2)
    with pytest.raises(InputError, match="Passion cancels negatives of the Violence dice"):
        params(damage=3, resistance=4, passion=1)
    with pytest.raises(InputError, match="unknown damage type"):
        params(damage=3, type="feu")
    with pytest.raises(InputError, match="not a Passion die size"):
        params(damage=3, resistance=1, violence_dice="2d7")
    with pytest.raises(InputError, match="not type:score"):
        params(damage=3, protections="physique")
    with pytest.raises(InputError, match="damage"):
        params(damage=-1, resistance=0)


def _brute_force(given: DamageParams) -> dict[int, Fraction]:
    """Every face of every die, one by one."""
    base = wounds(given.damage, given.resistance_total()).base
    sizes: list[int] = []
    split = 0
    for dice in (given.violence_dice, given.robustness_dice):
        for term in (dice or "").split("+") if dice else []:
            count, size = term.split("d")
            sizes += [int(size)] * int(count)
        if dice is given.violence_dice:
            split = len(sizes)
    counts: dict[int, int] = {}
    total = 0
    for faces in itertools.product(*(range(1, s + 1) for s in sizes)):
        scored = [score(f, s) for f, s in zip(faces, sizes, strict=True)]
        v = (sum(p for p, _ in scored[:split]), sum(n for _, n in scored[:split]))
        r = (sum(p for p, _ in scored[split:]), sum(n for _, n in scored[split:]))
        violence = resolve(v, passion=given.passion).margin if given.violence_dice else 0
        robustness = resolve(r).margin if given.robustness_dice else 0
        value = max(0, base + violence - robustness)
        counts[value] = counts.get(value, 0) + 1
        total += 1
    return {value: Fraction(count, total) for value, count in sorted(counts.items())}


@pytest.mark.parametrize(
    "raw",
    [
        {"damage": 4, "resistance": 3, "violence_dice": "2d4", "robustness_dice": "1d6"},
        {"damage": 1, "resistance": 3, "violence_dice": "1d4+1d8", "passion": 1},
        {"damage": 5, "resistance": 2, "robustness_dice": "2d6"},
        {"damage": 2, "resistance": 2},
    ],
)
def test_damage_odds_match_brute_force(raw: dict[str, object]) -> None:
    given = params(**raw)
    exact = damage_odds(given, exact=True)
    truth = _brute_force(given)
    assert dict(exact.distribution) == truth
    assert exact.outcomes["unharmed"] == truth.get(0, 0)
    assert sum(exact.outcomes.values()) == 1
    assert exact.mean == sum(v * p for v, p in truth.items())
    floats = damage_odds(given, exact=False)
    assert abs(float(floats.outcomes["wounded"]) - float(exact.outcomes["wounded"])) < 1e-12


def test_damage_is_registered_with_an_example_that_rolls() -> None:
    action = DAMAGE_ACTIONS["damage"]
    assert action.help and action.odds is not None
    given = validate_params(action.params, action.example)
    record = action.roll(given, Seeded(7))
    assert len(record.faces) == 3
    assert record.outcome in action.odds(given, True).outcomes
