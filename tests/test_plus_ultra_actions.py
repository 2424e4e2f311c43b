"""Plus Ultra actions: `attack` (PU-4, PU-5, PU-9), `protect` (PU-6), `rank` (PU-2, PU-3)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.dice import GivenFaces, Seeded
from jdr.errors import FacesError, InputError
from jdr.i18n import language
from jdr.params import validate_params
from jdr.systems import Registry
from jdr.systems.plus_ultra.actions import (
    ACTIONS,
    AttackParams,
    ProtectParams,
    RankParams,
    attack_odds,
    attack_roll,
    protect_odds,
    protect_roll,
    rank_roll,
)
from jdr.systems.plus_ultra.rules import RANKS

D20 = range(1, 21)
# PU-2 and PU-3, written out rank by rank: (rank, base maximum of each gauge, free points, damage).
RANK_TABLE = [
    ("E", 2, 0, 1),
    ("E+", 3, 1, 1),
    ("D", 4, 2, 1),
    ("D+", 5, 3, 2),
    ("C", 6, 4, 2),
    ("C+", 7, 5, 2),
    ("B", 8, 6, 3),
    ("B+", 9, 7, 3),
    ("A", 10, 8, 3),
    ("A+", 11, 9, 4),
    ("S", 12, 10, 4),
    ("S+", 13, 11, 4),
]


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main([*args, "--json"])
    out, _err = capsys.readouterr()
    return code, json.loads(out)


def cli_error(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    _out, err = capsys.readouterr()
    return code, err.strip()


def attack(faces: list[int], **raw: Any) -> dict[str, Any]:
    """Roll `attack` on given faces (every face must be used): the outcome and the JSON totals."""
    source = GivenFaces(faces)
    record = attack_roll(validate_params(AttackParams, raw), source)
    source.finish()
    return {"outcome": record.outcome, **record.totals}


def protect(faces: list[int], **raw: Any) -> dict[str, Any]:
    source = GivenFaces(faces)
    record = protect_roll(validate_params(ProtectParams, raw), source)
    source.finish()
    return {"outcome": record.outcome, "faces": list(record.faces), **record.totals}


def rank(**raw: Any) -> dict[str, Any]:
    record = rank_roll(validate_params(RankParams, raw), GivenFaces([]))
    return {"outcome": record.outcome, "faces": list(record.faces), **record.totals}


# --- PU-2, PU-3: the rank table ----------------------------------------------------------------


def test_pu_2_rank_table_examples_of_the_source() -> None:
    assert [
        (r["base_energy"], r["base_willpower"], r["free_points"])
        for r in (rank(rank="E"), rank(rank="D"), rank(rank="C"))
    ] == [(2, 2, 0), (4, 4, 2), (6, 6, 4)]


@pytest.mark.parametrize(("name", "base", "free", "hit"), RANK_TABLE)
def test_pu_2_rank_table_all_twelve_ranks(name: str, base: int, free: int, hit: int) -> None:
    answer = rank(rank=name.lower())
    assert (answer["base_energy"], answer["base_willpower"], answer["free_points"]) == (
        base,
        base,
        free,
    )
    assert answer["outcome"] == "rank"
    assert answer["valid"] is None
    assert answer["faces"] == []


@pytest.mark.parametrize(("name", "base", "free", "hit"), RANK_TABLE)
def test_pu_3_damage_all_twelve_ranks(name: str, base: int, free: int, hit: int) -> None:
    assert rank(rank=name)["damage"] == hit
    assert attack([20], willpower=0, target_energy=1, rank=name)["damage"] == hit


def test_pu_2_the_table_covers_every_rank_in_order() -> None:
    assert [row[0] for row in RANK_TABLE] == list(RANKS)


def test_pu_2_maxima_that_add_up_are_valid() -> None:
    answer = rank(rank="C", energy=8, willpower=8)
    assert (answer["outcome"], answer["valid"], answer["problems"]) == ("valid", True, [])
    assert rank(rank="E", energy=2, willpower=2)["valid"] is True
    assert rank(rank="C", energy=10, willpower=6)["valid"] is True


@pytest.mark.parametrize(
    ("energy", "willpower", "words"),
    [
        (9, 8, "5 points placed, rank C gives 4 to split"),
        (7, 8, "3 points placed, rank C gives 4 to split"),
        (5, 11, "Énergie 5 is below the base 6 of rank C"),
        (11, 5, "Volonté 5 is below the base 6 of rank C"),
    ],
)
def test_pu_2_maxima_that_do_not_add_up_say_why(energy: int, willpower: int, words: str) -> None:
    answer = rank(rank="C", energy=energy, willpower=willpower)
    assert (answer["outcome"], answer["valid"]) == ("invalid", False)
    assert answer["problems"] == [words]


def test_pu_2_rank_needs_both_maxima_or_neither() -> None:
    with pytest.raises(InputError) as caught:
        validate_params(RankParams, {"rank": "C", "energy": 8})
    assert caught.value.field == "willpower"
    with pytest.raises(InputError) as unknown:
        validate_params(RankParams, {"rank": "Z"})
    assert unknown.value.field == "rank"
    assert "S+" in unknown.value.message()


# --- PU-4, PU-5, PU-9: the attack ---------------------------------------------------------------


def test_pu_4_attack_equal_to_defense_hits() -> None:
    assert attack([9], willpower=5, target_energy=6, rank="C") == {
        "outcome": "hit",
        "roll": 9,
        "attack": 14,
        "defense": 14,
        "hit": True,
        "damage": 2,
    }


def test_pu_4_attack_below_defense_misses_and_does_nothing() -> None:
    answer = attack([8], willpower=5, target_energy=6, rank="C")
    assert (answer["outcome"], answer["attack"], answer["defense"]) == ("miss", 13, 14)
    assert (answer["hit"], answer["damage"]) == (False, 0)


def test_pu_4_rank_defaults_to_e() -> None:
    assert attack([20], willpower=0, target_energy=1)["damage"] == 1


def test_pu_4_bonus_adds_to_the_attack() -> None:
    answer = attack([7], willpower=5, target_energy=6, bonus=2)
    assert (answer["attack"], answer["hit"]) == (14, True)
    assert attack([9], willpower=5, target_energy=6, bonus=-1)["hit"] is False


def test_pu_5_defending_adds_five_to_defense() -> None:
    assert attack([14], willpower=5, target_energy=6, defending=True)["defense"] == 19
    assert attack([14], willpower=5, target_energy=6, defending=True)["hit"] is True
    assert attack([13], willpower=5, target_energy=6, defending=True)["hit"] is False


def test_pu_9_fleeing_adds_three_to_defense() -> None:
    assert attack([12], willpower=5, target_energy=6, fleeing=True)["defense"] == 17
    assert attack([12], willpower=5, target_energy=6, fleeing=True)["hit"] is True
    assert attack([11], willpower=5, target_energy=6, fleeing=True)["hit"] is False


def test_pu_5_pu_9_defending_and_fleeing_at_once_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        validate_params(
            AttackParams, {"willpower": 5, "target_energy": 6, "defending": True, "fleeing": True}
        )
    assert "not both" in caught.value.message()


@pytest.mark.parametrize("willpower", [0, 3, 12])
@pytest.mark.parametrize("energy", [1, 6, 14, 24])
@pytest.mark.parametrize(
    ("defending", "fleeing", "bonus"), [(False, False, 0), (True, False, 2), (False, True, -3)]
)
def test_pu_4_exact_hit_odds_match_brute_force_over_the_twenty_faces(
    willpower: int, energy: int, defending: bool, fleeing: bool, bonus: int
) -> None:
    raw = {
        "willpower": willpower,
        "target_energy": energy,
        "rank": "B",
        "defending": defending,
        "fleeing": fleeing,
        "bonus": bonus,
    }
    hits = sum(attack([face], **raw)["hit"] for face in D20)
    odds = attack_odds(validate_params(AttackParams, raw), exact=True)
    assert odds.outcomes == {"hit": Fraction(hits, 20), "miss": Fraction(20 - hits, 20)}
    assert odds.mean == Fraction(hits * 3, 20)
    assert sum(p for _value, p in odds.distribution) == 1
    floats = attack_odds(validate_params(AttackParams, raw), exact=False)
    assert floats.outcomes["hit"] == pytest.approx(hits / 20)


# --- PU-6: protecting another -------------------------------------------------------------------


def test_pu_6_protector_defense_equal_to_attack_blocks_for_one_energy() -> None:
    answer = protect([], protector_energy=6, attack=14, rank="B")
    assert answer == {
        "outcome": "blocks",
        "faces": [],
        "roll": None,
        "attack": 14,
        "defense": 14,
        "energy_lost": 1,
    }


def test_pu_6_protector_defense_below_attack_takes_the_full_hit() -> None:
    answer = protect([], protector_energy=6, attack=15, rank="B")
    assert (answer["outcome"], answer["energy_lost"]) == ("takes_hit", 3)


def test_pu_6_protector_raw_defense_can_roll_the_attack() -> None:
    answer = protect([10], protector_energy=6, willpower=5, rank="C")
    assert (answer["roll"], answer["attack"], answer["defense"]) == (10, 15, 14)
    assert (answer["outcome"], answer["energy_lost"], answer["faces"]) == ("takes_hit", 2, [10])
    assert protect([9], protector_energy=6, willpower=5, rank="C")["outcome"] == "blocks"


def test_pu_6_protect_without_a_die_refuses_given_faces() -> None:
    source = GivenFaces([12])
    protect_roll(
        validate_params(ProtectParams, {"protector_energy": 6, "attack": 12, "rank": "C"}), source
    )
    with pytest.raises(FacesError):
        source.finish()


@pytest.mark.parametrize("given", [{}, {"attack": 12, "willpower": 3}])
def test_pu_6_protect_needs_the_attack_or_the_willpower(given: dict[str, int]) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(ProtectParams, {"protector_energy": 6, "rank": "C", **given})
    assert caught.value.field == "attack"


def test_pu_6_odds_of_a_given_attack_are_certain() -> None:
    params = validate_params(ProtectParams, {"protector_energy": 6, "attack": 15, "rank": "C"})
    odds = protect_odds(params, exact=True)
    assert odds.outcomes == {"takes_hit": 1, "blocks": 0}
    assert list(odds.distribution) == [(2, 1)]


@pytest.mark.parametrize(("energy", "willpower", "bonus"), [(6, 5, 0), (1, 0, 0), (20, 2, 3)])
def test_pu_6_odds_of_a_rolled_attack_match_brute_force(
    energy: int, willpower: int, bonus: int
) -> None:
    raw = {"protector_energy": energy, "willpower": willpower, "bonus": bonus, "rank": "A+"}
    takes = sum(protect([face], **raw)["outcome"] == "takes_hit" for face in D20)
    odds = protect_odds(validate_params(ProtectParams, raw), exact=True)
    assert odds.outcomes == {"takes_hit": Fraction(takes, 20), "blocks": Fraction(20 - takes, 20)}
    assert odds.mean == Fraction(4 * takes + (20 - takes), 20)


# --- every action keeps the contract --------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_every_example_rolls_explains_and_its_odds_add_up(name: str) -> None:
    action = ACTIONS[name]
    assert action.help
    params = validate_params(action.params, action.example)
    record = action.roll(params, Seeded(7))
    assert record.faces or name == "rank"  # `rank` rolls no die
    json.dumps(dict(record.totals))
    for lang in ("en", "fr"):
        with language(lang):
            assert record.explain().strip()
    if action.odds is not None:
        exact = action.odds(params, True)
        assert sum(exact.outcomes.values()) == Fraction(1)
        assert record.outcome in exact.outcomes
        floats = action.odds(params, False)
        for key, p in exact.outcomes.items():
            assert abs(float(p) - float(floats.outcomes[key])) < 1e-12


# --- through the command line ---------------------------------------------------------------------


def test_cli_attack_json(plus_ultra_actions: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = cli_json(
        capsys,
        "roll",
        "plus-ultra",
        "attack",
        "--willpower",
        "5",
        "--target-energy",
        "6",
        "--rank",
        "c",
        "--faces",
        "9",
    )
    assert code == 0
    assert payload["faces"] == [9]
    assert payload["outcome"] == "hit"
    keys = {"roll": 9, "attack": 14, "defense": 14, "hit": True, "damage": 2}
    assert {key: payload[key] for key in keys} == keys
    assert payload["params"]["rank"] == "C"
    assert (
        payload["explanation"] == "attack: 9 + 5 = 14 · defense: 8 + 6 = 14 · hit: 2 Énergie lost"
    )


def test_cli_attack_odds_exact(
    plus_ultra_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, payload = cli_json(
        capsys,
        "odds",
        "plus-ultra",
        "attack",
        "--willpower",
        "5",
        "--target-energy",
        "6",
        "--defending",
        "--exact",
    )
    assert code == 0
    assert payload["outcomes"] == {"hit": "7/20", "miss": "13/20"}
    assert payload["distribution_of"] == "damage"


def test_cli_protect_json(plus_ultra_actions: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = cli_json(
        capsys,
        "roll",
        "plus-ultra",
        "protect",
        "--protector-energy",
        "6",
        "--attack",
        "15",
        "--rank",
        "C",
    )
    assert code == 0
    assert (payload["faces"], payload["outcome"]) == ([], "takes_hit")
    keys = {"roll": None, "attack": 15, "defense": 14, "energy_lost": 2}
    assert {key: payload[key] for key in keys} == keys


def test_cli_rank_json(plus_ultra_actions: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = cli_json(
        capsys, "roll", "plus-ultra", "rank", "--rank", "C", "--energy", "9", "--willpower", "8"
    )
    assert code == 0
    keys = {"base_energy": 6, "base_willpower": 6, "free_points": 4, "damage": 2, "valid": False}
    assert {key: payload[key] for key in keys} == keys
    assert payload["problems"] == ["5 points placed, rank C gives 4 to split"]
    assert (payload["outcome"], payload["faces"]) == ("invalid", [])


def test_cli_rank_has_no_odds(
    plus_ultra_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = cli_error(capsys, "odds", "plus-ultra", "rank", "--rank", "C")
    assert code == 2
    assert "attack, duel, protect" in err


def test_cli_french_keeps_the_structure(
    plus_ultra_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("roll", "plus-ultra", "attack", "--willpower", "5", "--target-energy", "6")
    _code, english = cli_json(capsys, *args, "--faces", "3")
    code, french = cli_json(capsys, *args, "--faces", "3", "--lang", "fr")
    assert code == 0
    assert set(french) == set(english)
    assert {k: v for k, v in french.items() if k != "explanation"} == {
        k: v for k, v in english.items() if k != "explanation"
    }
    assert french["explanation"].count(" · ") == 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("attack", "--willpower", "5", "--target-energy", "6", "--rank", "Z"), "--rank: Z"),
        (("attack", "--willpower", "-1", "--target-energy", "6"), "--willpower: -1"),
        (("protect", "--protector-energy", "6", "--rank", "C"), "--attack"),
        (("rank", "--rank", "F+"), "unknown rank"),
        (("attack", "--willpower", "5", "--target-energy", "6", "--faces", "9,9"), "faces"),
    ],
)
def test_cli_bad_input_is_one_clear_line_and_exit_2(
    plus_ultra_actions: Registry,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    words: str,
) -> None:
    code, err = cli_error(capsys, "roll", "plus-ultra", *args)
    assert code == 2
    assert len(err.splitlines()) == 1
    assert words in err
