"""Damage and wounds (PS-14 … PS-16): resistance by type, every step of the wounds, the `damage`
action, and its exact odds checked against brute force."""

from __future__ import annotations

import itertools
import json
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
    wound_count,
    wounds,
)
from jdr.systems.passion.pool import score
from jdr.systems.passion.resolve import resolve


def params(**raw: object) -> DamageParams:
    return validate_params(DamageParams, raw)


def score_faces(faces: list[int], size: int) -> tuple[int, int]:
    """(positives, negatives) of faces of one size, by PS-2."""
    scored = [score(face, size) for face in faces]
    return sum(p for p, _ in scored), sum(n for _, n in scored)


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
    assert wounds(2, 5).base == -3 and wounds(2, 5).total == 0


def test_ps_16_violence_dice_add_to_a_negative_difference_as_it_is() -> None:
    """« La violence d'une arme permet de rajouter des dés de dégats en plus du résultat positif
    ou négatif des dégats »: damage 3, resistance 5, Violence 2d6 showing 4 and 6 (margin 3)."""
    hit = wounds(3, 5, violence=resolve(score_faces([4, 6], 6)))
    assert (hit.base, hit.violence_margin, hit.total) == (-2, 3, 1)
    assert wounds(2, 5, violence=resolve((3, 0))).total == 0  # −3 + 3
    hit = wounds(6, 3, violence=resolve((1, 3)), robustness=resolve((2, 0)))
    assert (hit.base, hit.violence_margin, hit.robustness_margin, hit.total) == (3, -2, 2, 0)


def test_ps_16_a_robustesse_roll_only_ever_reduces() -> None:
    """« Nombre de dés maximum que le joueur peut lancer pour réduire encore plus les dégats »:
    damage 10, resistance 4, Robustesse 1d6 showing 1 (margin −2) → 6 wounds, not 8."""
    hit = wounds(10, 4, robustness=resolve(score_faces([1], 6)))
    assert (hit.base, hit.robustness_margin, hit.soak, hit.total) == (6, -2, 0, 6)
    assert wounds(4, 3, robustness=resolve((0, 2))).total == 1
    assert wounds(5, 3, robustness=resolve((3, 1))).total == 0  # 2 − 2
    # the Robustesse comes off what the Violence left, never below 0
    assert wounds(3, 5, violence=resolve((2, 0)), robustness=resolve((1, 0))).total == 0


@pytest.mark.parametrize(
    ("base", "violence", "robustness", "expected"),
    [(-2, 3, 0, 1), (6, 0, -2, 6), (-2, 1, -5, 0), (4, -1, 2, 1), (0, 0, 0, 0), (-3, -1, 1, 0)],
)
def test_ps_16_wound_count_is_the_one_rule(
    base: int, violence: int, robustness: int, expected: int
) -> None:
    assert wound_count(base, violence, robustness) == expected
    assert wound_count(base, violence, robustness) == max(
        0, max(0, base + violence) - max(0, robustness)
    )


def test_ps_14_ps_15_an_energy_point_adds_one_damage_or_one_to_soak() -> None:
    assert wounds(4, 3, weapon_energy=True).base == 2
    assert wounds(4, 3, protection_energy=True).base == 0
    assert wounds(3, 3, protection_energy=True).base == -1
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
        "wounds": 5,
    }
    assert record.outcome == "wounded"
    assert record.explain() == (
        "damage 5 − resistance 3 (Corps 2 + physical protections 1) = 2"
        " · Violence 2d6: 6++ 4+ → margin 3"
        " · Robustesse 1d6: 1−− → margin −2: a negative margin reduces nothing"
        " · wounds: 2 + 3 − 0 → 5"
    )
    with language("fr"):
        assert record.explain() == (
            "dégâts 5 − résistance 3 (Corps 2 + protections physiques 1) = 2"
            " · Violence 2d6\u00a0: 6++ 4+ → marge 3"
            " · Robustesse 1d6\u00a0: 1−− → marge −2\u00a0: une marge négative ne réduit rien"
            " · blessures\u00a0: 2 + 3 − 0 → 5"
        )


@pytest.mark.parametrize(
    ("raw", "faces", "wounded", "explanation"),
    [
        (
            {"damage": 3, "resistance": 5, "violence_dice": "2d6"},
            [4, 6],
            1,
            "damage 3 − resistance 5 = −2 · Violence 2d6: 4+ 6++ → margin 3 · wounds: −2 + 3 → 1",
        ),
        (
            {"damage": 10, "resistance": 4, "robustness_dice": "1d6"},
            [1],
            6,
            "damage 10 − resistance 4 = 6"
            " · Robustesse 1d6: 1−− → margin −2: a negative margin reduces nothing"
            " · wounds: 6 − 0 → 6",
        ),
        (
            {"damage": 3, "resistance": 5},
            [],
            0,
            "damage 3 − resistance 5 = −2 · wounds: −2 → 0",
        ),
    ],
)
def test_ps_16_the_second_reading_worked_examples(
    raw: dict[str, object], faces: list[int], wounded: int, explanation: str
) -> None:
    """PS-16's second reading: « en plus du résultat positif ou négatif des dégats », and a
    Robustesse roll « pour réduire encore plus les dégats »."""
    source = GivenFaces(faces)
    record = damage_roll(params(**raw), source)
    source.finish()
    assert record.totals["wounds"] == wounded
    assert record.explain() == explanation


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
    """Every face of every die, one by one, and PS-16 written once more, plainly: max(0,
    damage − resistance + Violence margin) − the Robustesse margin when positive, never below 0."""
    difference = given.damage + given.weapon_energy - given.resistance_total()
    difference -= given.protection_energy
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
        value = max(0, max(0, difference + violence) - max(0, robustness))
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
        {"damage": 1, "resistance": 4, "violence_dice": "2d4", "robustness_dice": "1d4+1d6"},
        {"damage": 3, "resistance": 5, "violence_dice": "2d6", "weapon_energy": True},
        {"damage": 6, "resistance": 4, "robustness_dice": "2d4", "protection_energy": True},
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


# --- through the command line ----------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from jdr.cli.app import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_ps_16_cli_violence_adds_to_a_negative_difference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """« en plus du résultat positif ou négatif des dégats »: 3 − 5 = −2, + 3 → 1 wound."""
    args = ("passion", "damage", "--damage", "3", "--resistance", "5", "--violence-dice", "2d6")
    code, out, err = _cli(capsys, "roll", *args, "--faces", "4,6", "--json")
    assert code == 0, err
    payload = json.loads(out)
    assert (payload["base"], payload["violence_margin"], payload["wounds"]) == (-2, 3, 1)
    assert payload["outcome"] == "wounded"
    code, out, _ = _cli(capsys, "odds", *args, "--exact", "--json")
    # a wound needs a margin of 3 or more: two 6s (+4, 2 wounds), a 6 with a 2 or a 4 (+3)
    odds_payload = json.loads(out)
    assert code == 0
    assert odds_payload["outcomes"]["wounded"] == "5/36"
    assert odds_payload["distribution"] == [[0, "31/36"], [1, "1/9"], [2, "1/36"]]


def test_ps_16_cli_a_negative_robustesse_margin_reduces_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """« pour réduire encore plus les dégats »: 10 − 4 = 6, a Robustesse 1 (margin −2) → 6."""
    args = ("roll", "passion", "damage", "--damage", "10", "--resistance", "4")
    code, out, err = _cli(capsys, *args, "--robustness-dice", "1d6", "--faces", "1", "--lang", "fr")
    assert code == 0, err
    assert out.splitlines()[-1] == (
        "dégâts 10 − résistance 4 = 6 · Robustesse 1d6\u00a0: 1−− → marge −2\u00a0: une"
        " marge négative ne"
        " réduit rien · blessures\u00a0: 6 − 0 → 6"
    )
