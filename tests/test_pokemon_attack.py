"""`pokemon attack`: using a move (PK-10, PK-11), enduring (PK-12) and dodging (PK-13)."""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError, UnknownNameError
from jdr.params import validate_params
from jdr.systems import Registry
from jdr.systems.pokemon.actions import ACTIONS
from jdr.systems.pokemon.attack import (
    AttackParams,
    Defence,
    DefenceKind,
    odds,
    resolve_attack,
    roll,
)
from jdr.systems.pokemon.attack_odds import attack_odds

D10 = range(1, 11)


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main([*args, "--json"])
    out, _err = capsys.readouterr()
    return code, json.loads(out)


def attack(faces: list[int], **raw: Any) -> dict[str, Any]:
    """Roll the action from raw parameters on given faces; every face must be used."""
    source = GivenFaces(faces)
    record = roll(validate_params(AttackParams, raw), source)
    source.finish()
    return {"outcome": record.outcome, **record.totals}


# --- PK-10: the attack and damage rolls -------------------------------------------------------


def test_pk_10_attack_score_adds_dice_to_the_damage_pool() -> None:
    # attack 7✓ 8✓ 2 → 2; damage pool 2 + 2 = 4 dice: 6✓ 9✓ 1✗ 10✓ → 2
    result = attack([7, 8, 2, 6, 9, 1, 10], attack_dice=3, damage_dice=2)
    assert result["attack_score"] == 2
    assert result["damage_score"] == 2
    assert (result["damage"], result["vitality_lost"], result["outcome"]) == (2, 2, "hit")


def test_pk_10_range_penalty_is_difficulty_plus_two() -> None:
    # DD8: 7 2 fail, 8✓ → 1; damage pool 2 + 1 = 3 dice: 6✓ 9✓ 1✗ → 1
    result = attack([7, 8, 2, 6, 9, 1], attack_dice=3, damage_dice=2, range_penalty=True)
    assert (result["attack_score"], result["damage_score"], result["damage"]) == (1, 1, 1)


def test_pk_10_high_crit_damage_roll_is_at_dd5() -> None:
    assert attack([10, 5, 5], attack_dice=1, damage_dice=1, high_crit=True)["damage"] == 2
    assert attack([10, 5, 5], attack_dice=1, damage_dice=1)["damage"] == 0


@pytest.mark.parametrize("faces", [[2, 3, 4], [1, 1, 7]], ids=["failure", "critical_failure"])
def test_pk_10_failed_attack_deals_nothing_and_rolls_nothing_more(faces: list[int]) -> None:
    result = attack(faces, attack_dice=3, damage_dice=5, dodge_dice=4)  # only 3 faces used
    assert result["outcome"] == "miss"
    assert result["damage_score"] is None and result["defence_score"] is None
    assert (result["damage"], result["vitality_lost"]) == (0, 0)


def test_pk_10_negative_damage_score_is_zero_damage_and_no_defence_roll() -> None:
    # attack 6✓ → 1; damage 1 + 1 dice: 1✗ 1✗ → −2 → raw 0; nothing to endure: no endure roll
    result = attack([6, 1, 1], attack_dice=1, damage_dice=1, endure_dice=3)
    assert (result["damage_score"], result["raw_damage"], result["vitality_lost"]) == (-2, 0, 0)
    assert result["defence_score"] is None


# --- PK-11: the type multiplier (the rules file's five examples) -------------------------------

RAW_4 = [10, 6, 7, 8, 9]  # attack 10✓ → 1; damage 3 + 1 dice all ✓ → raw 4


@pytest.mark.parametrize(
    ("move", "user", "defender", "multiplier", "damage"),
    [
        ("Plante", None, "Insecte/Eau", 1, 4),
        ("Électrik", None, "Eau/Vol", 4, 16),
        ("Combat", "Combat", "Ténèbres/Glace", 6, 24),
        ("Feu", None, "Acier", 2, 8),
        ("Feu", None, "Eau", 0.5, 2),
    ],
)
def test_pk_11_rulebook_multipliers(
    move: str, user: str | None, defender: str, multiplier: float, damage: int
) -> None:
    raw: dict[str, Any] = {"move_type": move, "defender_types": defender}
    if user:
        raw["user_types"] = user
    result = attack(RAW_4, attack_dice=1, damage_dice=3, **raw)
    assert (result["raw_damage"], result["multiplier"], result["damage"]) == (4, multiplier, damage)
    assert result["vitality_lost"] == damage


def test_pk_11_final_damage_is_floored() -> None:
    # raw 3 (6✓ 7✓ 8✓ 2) × 0.5 = 1.5 → 1
    result = attack(
        [10, 6, 7, 8, 2], attack_dice=1, damage_dice=3, move_type="feu", defender_types="eau"
    )
    assert (result["raw_damage"], result["damage"]) == (3, 1)


def test_pk_11_stab_alone_and_reasons_in_the_record() -> None:
    record = roll(
        AttackParams(attack_dice=1, damage_dice=3, move_type="feu", user_types="Feu/Vol"),
        GivenFaces(RAW_4),
    )
    assert record.totals["damage"] == 6  # 4 × 1.5
    assert record.details["multiplier_reasons"] == [
        {"kind": "stab", "factor": 1.5, "against": None}
    ]
    assert "STAB ×1.5" in record.explain()


def test_pk_11_immunity_deals_nothing_and_skips_the_defence_roll() -> None:
    result = attack(
        RAW_4,
        attack_dice=1,
        damage_dice=3,
        move_type="normal",
        defender_types="spectre",
        dodge_dice=3,
    )
    assert (result["multiplier"], result["damage"], result["outcome"]) == (0, 0, "hit")


# --- PK-12, PK-13: the defence --------------------------------------------------------------


@pytest.mark.parametrize(
    ("endure_faces", "lost"),
    [([6, 2], 3), ([10, 10], 2), ([10] * 5, 0), ([1, 1], 6)],
    ids=["score-1", "score-2", "more-than-damage", "negative-score-adds"],
)
def test_pk_12_endure_subtracts_its_score(endure_faces: list[int], lost: int) -> None:
    result = attack(
        RAW_4 + endure_faces, attack_dice=1, damage_dice=3, endure_dice=len(endure_faces)
    )
    assert result["damage"] == 4
    assert result["defence"] == "endure"
    assert result["vitality_lost"] == lost


def test_pk_13_dodge_needs_strictly_greater_score() -> None:
    # attack 10✓ 7✓ → 2; damage 1 + 2 dice 6✓ 7✓ 8✓ → 3
    equal = attack([10, 7, 6, 7, 8, 6, 7, 2], attack_dice=2, damage_dice=1, dodge_dice=3)
    assert (equal["defence_score"], equal["outcome"], equal["vitality_lost"]) == (2, "hit", 3)
    greater = attack([10, 7, 6, 7, 8, 6, 7, 8], attack_dice=2, damage_dice=1, dodge_dice=3)
    assert (greater["defence_score"], greater["outcome"], greater["vitality_lost"]) == (
        3,
        "dodged",
        0,
    )


def test_pk_13_a_failed_dodge_loses_the_full_damage_even_with_a_negative_score() -> None:
    result = attack([10, 7, 6, 7, 8, 1, 1, 1], attack_dice=2, damage_dice=1, dodge_dice=3)
    assert (result["defence_score"], result["vitality_lost"]) == (-3, 3)


def test_resolve_attack_takes_plain_values_for_the_fight() -> None:
    result = resolve_attack(
        2, 1, GivenFaces([10, 7, 6, 7, 8, 6, 7, 8]), defence=Defence("dodge", 3, difficulty=4)
    )
    assert result.outcome == "dodged" and result.faces == [10, 7, 6, 7, 8, 6, 7, 8]


# --- bad input ----------------------------------------------------------------------------


def test_endure_and_dodge_together_are_refused() -> None:
    params = AttackParams(attack_dice=3, damage_dice=2, endure_dice=2, dodge_dice=2)
    with pytest.raises(InputError, match="either endures or dodges"):
        roll(params, Seeded(1))
    with pytest.raises(InputError, match="either endures or dodges"):
        odds(params, exact=False)


def test_defender_types_need_a_move_type() -> None:
    with pytest.raises(InputError, match="need --move-type"):
        roll(AttackParams(attack_dice=3, damage_dice=2, defender_types="eau"), Seeded(1))


def test_unknown_type_lists_the_known_ones() -> None:
    params = AttackParams(attack_dice=3, damage_dice=2, move_type="lave", defender_types="eau")
    with pytest.raises(UnknownNameError) as caught:
        roll(params, Seeded(1))
    assert "feu" in caught.value.message()


# --- odds: brute force over every face --------------------------------------------------------


def _score(faces: tuple[int, ...], difficulty: int) -> int:
    return sum(f >= max(1, difficulty) for f in faces) - sum(f == 1 for f in faces)


def _scores(dice: int, difficulty: int) -> dict[int, Fraction]:
    counts = Counter(_score(faces, difficulty) for faces in product(D10, repeat=dice))
    return {s: Fraction(c, 10**dice) for s, c in counts.items()}


def brute_attack(
    attack_dice: int,
    damage_dice: int,
    *,
    difficulty: int = 6,
    range_penalty: bool = False,
    high_crit: bool = False,
    multiplier: Fraction = Fraction(1),
    defence: Defence | None = None,
    defender_waiting: bool = False,
) -> tuple[dict[int, Fraction], dict[str, Fraction]]:
    """Vitalité lost and outcomes from every face of every roll, as PK-10 … PK-13 write them
    (and PK-15: a waiting defender rolls at difficulty 6 − 2)."""
    lost: defaultdict[int, Fraction] = defaultdict(Fraction)
    outcomes: defaultdict[str, Fraction] = defaultdict(Fraction)
    defence_scores = _scores(defence.dice, 4 if defender_waiting else 6) if defence else {}
    for faces in product(D10, repeat=attack_dice):
        p_attack = Fraction(1, 10**attack_dice)
        n = _score(faces, difficulty + 2 * range_penalty)
        if n <= 0:
            lost[0] += p_attack
            outcomes["miss"] += p_attack
            continue
        for score, p_damage in _scores(damage_dice + n, 5 if high_crit else 6).items():
            p = p_attack * p_damage
            damage = math.floor(max(0, score) * multiplier)
            if defence is None or damage == 0:
                lost[damage] += p
                outcomes["hit"] += p
                continue
            for defence_score, p_defence in defence_scores.items():
                if defence.kind == "endure":
                    lost[max(0, damage - defence_score)] += p * p_defence
                    outcomes["hit"] += p * p_defence
                elif defence_score > n:
                    lost[0] += p * p_defence
                    outcomes["dodged"] += p * p_defence
                else:
                    lost[damage] += p * p_defence
                    outcomes["hit"] += p * p_defence
    return dict(lost), dict(outcomes)


ODDS_CASES: list[dict[str, Any]] = [
    {"attack_dice": 2, "damage_dice": 1, "defence": Defence("endure", 1)},
    {"attack_dice": 2, "damage_dice": 1, "defence": Defence("dodge", 1)},
    {"attack_dice": 2, "damage_dice": 0, "defence": Defence("dodge", 2), "range_penalty": True},
    {
        "attack_dice": 1,
        "damage_dice": 2,
        "defence": Defence("endure", 2),
        "high_crit": True,
        "multiplier": Fraction(1, 2),
    },
    {"attack_dice": 2, "damage_dice": 1, "multiplier": Fraction(3, 2), "difficulty": 4},
    {"attack_dice": 1, "damage_dice": 1, "multiplier": Fraction(0), "defence": Defence("dodge", 1)},
]


@pytest.mark.parametrize("case", ODDS_CASES)
def test_pk_10_to_13_exact_odds_match_brute_force(case: dict[str, Any]) -> None:
    expected_lost, expected_outcomes = brute_attack(**case)
    exact = attack_odds(**case, exact=True)
    assert dict(exact.vitality_lost.to_list()) == {k: v for k, v in expected_lost.items() if v}
    assert {k: v for k, v in exact.outcomes.items() if v} == expected_outcomes
    assert exact.vitality_lost.mean() == sum(k * v for k, v in expected_lost.items())
    floats = attack_odds(**case, exact=False)
    for key, p in exact.outcomes.items():
        assert floats.outcomes[key] == pytest.approx(float(p), abs=1e-12)
    for (value, p), (float_value, q) in zip(
        exact.vitality_lost.to_list(), floats.vitality_lost.to_list(), strict=True
    ):
        assert value == float_value and q == pytest.approx(float(p), abs=1e-12)


@pytest.mark.parametrize("kind", ["endure", "dodge"])
def test_pk_15_a_waiting_defenders_exact_odds_match_brute_force(kind: DefenceKind) -> None:
    """« jusqu'à sa prochaine action, les jets de Constitution, Volonté et Dextérité du Pokémon
    se font à difficulté −2 » (PK-15), outside a fight too."""
    raw = {"attack_dice": 2, "damage_dice": 1, f"{kind}_dice": 2, "defender_waiting": True}
    expected_lost, expected_outcomes = brute_attack(
        2, 1, defence=Defence(kind, 2), defender_waiting=True
    )
    exact = odds(validate_params(AttackParams, raw), exact=True)
    assert dict(exact.distribution) == {k: v for k, v in expected_lost.items() if v}
    assert {k: v for k, v in exact.outcomes.items() if v} == expected_outcomes
    plain = odds(validate_params(AttackParams, raw | {"defender_waiting": False}), exact=True)
    assert exact.mean is not None and plain.mean is not None and exact.mean < plain.mean


def test_pk_15_a_waiting_defender_endures_and_dodges_at_dd4() -> None:
    # attack 10✓ 7✓ → 2; damage 1 + 2 dice 6✓ 7✓ 8✓ → 3; dodge 5 4 2: 2 at DD4, 0 at DD6
    dodge = {"attack_dice": 2, "damage_dice": 1, "dodge_dice": 3}
    waiting = attack([10, 7, 6, 7, 8, 5, 4, 2], **dodge, defender_waiting=True)
    assert (waiting["defence_score"], waiting["outcome"], waiting["vitality_lost"]) == (2, "hit", 3)
    faces = [10, 7, 6, 7, 8, 5, 4, 4]  # 3 > 2 at DD4: dodged; 0 at DD6: hit
    assert attack(faces, **dodge, defender_waiting=True)["outcome"] == "dodged"
    assert attack(faces, **dodge)["outcome"] == "hit"
    endure = attack([10, 7, 6, 7, 8, 4], attack_dice=2, damage_dice=1, endure_dice=1,
                    defender_waiting=True)  # fmt: skip
    assert (endure["defence_score"], endure["vitality_lost"]) == (1, 2)


def test_pk_15_waiting_without_a_defence_roll_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        roll(AttackParams(attack_dice=3, damage_dice=2, defender_waiting=True), Seeded(1))
    assert caught.value.field == "--defender-waiting"
    assert "endure or dodge roll: give one (PK-15)" in caught.value.message()


def test_odds_action_reports_the_vitality_lost_distribution() -> None:
    answer = odds(AttackParams(attack_dice=3, damage_dice=2, dodge_dice=2), exact=True)
    assert set(answer.outcomes) == {"miss", "hit", "dodged"}
    assert sum(answer.outcomes.values()) == 1
    assert sum(p for _v, p in answer.distribution) == 1
    assert answer.label == "vitality_lost"
    assert answer.mean == sum(v * p for v, p in answer.distribution)


def test_big_pools_answer_quickly_in_both_engines() -> None:
    params = AttackParams(attack_dice=60, damage_dice=40, endure_dice=30)
    exact, floats = odds(params, exact=True), odds(params, exact=False)
    assert sum(exact.outcomes.values()) == 1
    assert float(exact.mean or 0) == pytest.approx(float(floats.mean or 0), rel=1e-9)


# --- through the command line ---------------------------------------------------------------


def test_cli_roll_json_keys(pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = cli_json(
        capsys,
        *("roll", "pokemon", "attack", "--attack-dice", "1", "--damage-dice", "3"),
        *("--move-type", "Combat", "--user-types", "combat", "--defender-types", "tenebres/glace"),
        *("--endure-dice", "2", "--faces", "10,6,7,8,9,6,2"),
    )
    assert code == 0
    assert payload["faces"] == [10, 6, 7, 8, 9, 6, 2]
    assert payload["outcome"] == "hit"
    expected = {"attack_score": 1, "damage_score": 4, "multiplier": 6.0, "damage": 24}
    assert {key: payload[key] for key in expected} == expected
    assert payload["vitality_lost"] == 23


def test_cli_both_defences_is_exit_2(
    pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            *("roll", "pokemon", "attack", "--attack-dice", "3", "--damage-dice", "2"),
            *("--endure-dice", "1", "--dodge-dice", "1"),
        ]
    )
    _out, err = capsys.readouterr()
    assert code == 2
    assert "--endure-dice/--dodge-dice" in err


def test_cli_odds_exact_json(pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = cli_json(
        capsys, "odds", "pokemon", "attack", "--attack-dice", "2", "--damage-dice", "1", "--exact"
    )
    assert code == 0
    assert set(payload["outcomes"]) == {"miss", "hit"}
    assert payload["distribution_of"] == "vitality_lost"
    assert sum(Fraction(p) for p in payload["outcomes"].values()) == 1


def test_pk_15_cli_defender_waiting_roll_and_odds(
    pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("pokemon", "attack", "--attack-dice", "2", "--damage-dice", "1", "--dodge-dice", "3")
    code, payload = cli_json(
        capsys, "roll", *args, "--defender-waiting", "--faces", "10,7,6,7,8,5,4,4", "--lang", "fr"
    )
    assert code == 0 and payload["outcome"] == "dodged"
    assert payload["params"]["defender_waiting"] is True
    assert "3d10 DD4\u00a0: 5✓ 4✓ 4✓" in payload["explanation"]
    waiting = cli_json(capsys, "odds", *args, "--defender-waiting", "--exact")[1]
    plain = cli_json(capsys, "odds", *args, "--exact")[1]
    assert Fraction(waiting["outcomes"]["dodged"]) > Fraction(plain["outcomes"]["dodged"])
    code = main(["roll", "pokemon", "attack", "--attack-dice", "2", "--damage-dice", "1",
                 "--defender-waiting", "--lang", "fr"])  # fmt: skip
    _out, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "--defender-waiting" in err


def test_cli_explains_in_french(pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("roll", "pokemon", "attack", "--attack-dice", "3", "--damage-dice", "2")
    code, payload = cli_json(capsys, *args, "--faces", "7,8,2,6,9,1,10", "--lang", "fr")
    assert code == 0
    explanation = payload["explanation"]
    assert explanation.count(" · ") >= 3
    assert (
        "3d10 DD6\u00a0: 7✓ 8✓ 2" in explanation and "4d10 DD6\u00a0: 6✓ 9✓ 1✗ 10✓" in explanation
    )
    assert payload["vitality_lost"] == 2


def test_every_action_example_rolls_and_its_odds_add_up() -> None:
    for name, action in ACTIONS.items():
        params = validate_params(action.params, action.example)
        record = action.roll(params, Seeded(7))
        assert record.faces, name
        json.dumps(dict(record.totals))
        assert action.odds is not None
        exact = action.odds(params, True)
        assert sum(exact.outcomes.values()) == Fraction(1), name
        assert record.outcome in exact.outcomes, name
