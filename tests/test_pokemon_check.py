"""Pokémon action rolls (PK-1 … PK-4) and the type chart (PK-11), through the rules and the CLI."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from jdr.cli.app import main
from jdr.dice import GivenFaces
from jdr.errors import InputError, UnknownNameError
from jdr.i18n import language
from jdr.systems.pokemon import SYSTEM, CheckParams, check_odds
from jdr.systems.pokemon.check import (
    check_pool,
    d10,
    effective_difficulty,
    outcome,
    roll_check,
    score_distribution,
)
from jdr.systems.pokemon.types import TypeChart, apply, default_chart


# --- PK-1 … PK-4 -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dice", "difficulty", "faces", "successes", "failures", "score", "result"),
    [
        (4, 6, [7, 1, 2, 6], 2, 1, 1, "success"),
        (4, 8, [10, 3, 1, 1], 1, 2, -1, "critical_failure"),
    ],
)
def test_pk_2_pk_3_worked_examples(
    dice: int,
    difficulty: int,
    faces: list[int],
    successes: int,
    failures: int,
    score: int,
    result: str,
) -> None:
    rolled = roll_check(dice, difficulty, GivenFaces(faces))
    assert (rolled.successes, rolled.failures, rolled.score) == (successes, failures, score)
    assert rolled.outcome == result


def test_pk_1_one_d10_per_point_of_stat_and_skill() -> None:
    pool = check_pool(3 + 2)
    assert pool.dice_count == 5
    assert {die.size for die, _ in pool.groups} == {10}


def test_pk_2_success_at_or_above_difficulty_failure_on_one() -> None:
    die = d10(6)
    assert [die.score(f) for f in (1, 5, 6, 10)] == [(0, 1), (0, 0), (1, 0), (1, 0)]


def test_pk_3_zero_score_is_a_failure() -> None:
    assert (outcome(1), outcome(0), outcome(-1)) == ("success", "failure", "critical_failure")
    assert roll_check(2, 6, GivenFaces([6, 1])).outcome == "failure"


def test_pk_4_difficulty_never_below_one_and_may_exceed_ten() -> None:
    assert effective_difficulty(-3) == 1
    assert roll_check(3, 11, GivenFaces([10, 10, 1])).score == -1  # nothing can succeed
    at_one = roll_check(2, 1, GivenFaces([1, 5]))
    assert (at_one.successes, at_one.failures, at_one.score) == (2, 1, 1)  # a 1 is both


def test_pk_2_explanation_in_french_and_english() -> None:
    rolled = roll_check(4, 6, GivenFaces([7, 1, 2, 6]))
    assert rolled.explain() == "4d10 DD6: 7✓ 1✗ 2 6✓ → 2 successes − 1 failure = 1 → success"
    with language("fr"):
        assert rolled.explain() == "4d10 DD6\u00a0: 7✓ 1✗ 2 6✓ → 2 succès − 1 échec = 1 → réussite"


@pytest.mark.parametrize(("dice", "difficulty"), [(1, 6), (2, 1), (3, 8), (4, 11), (3, 10)])
def test_pk_3_exact_odds_match_brute_force(dice: int, difficulty: int) -> None:
    counts: dict[str, int] = {}
    for faces in itertools.product(range(1, 11), repeat=dice):
        result = roll_check(dice, difficulty, GivenFaces(faces)).outcome
        counts[result] = counts.get(result, 0) + 1
    odds = check_odds(CheckParams(dice=dice, difficulty=difficulty), exact=True)
    for key, count in counts.items():
        assert odds.outcomes[key] == Fraction(count, 10**dice)
    assert sum(odds.outcomes.values()) == 1


def test_pk_3_float_and_exact_odds_agree_on_large_pools() -> None:
    exact = score_distribution(40, 7, exact=True)
    floats = score_distribution(40, 7)
    for value, p in exact.items():
        assert abs(float(p) - floats.probability(value)) < 1e-12


def test_pk_3_odds_list_every_outcome_even_impossible_ones() -> None:
    odds = check_odds(CheckParams(dice=2, difficulty=11), exact=True)
    assert odds.outcomes["success"] == 0
    assert set(odds.outcomes) == {"success", "failure", "critical_failure"}


# --- PK-11 -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("move", "defender", "user", "expected"),
    [
        ("plante", ["insecte", "eau"], [], Fraction(1)),
        ("electrik", ["eau", "vol"], [], Fraction(4)),
        ("combat", ["tenebres", "glace"], ["combat"], Fraction(6)),
        ("feu", ["acier"], [], Fraction(2)),
        ("feu", ["eau"], [], Fraction(1, 2)),
        ("normal", ["spectre"], [], Fraction(0)),
        ("sol", ["vol"], ["sol"], Fraction(0)),
    ],
)
def test_pk_11_rulebook_examples_and_immunities(
    move: str, defender: list[str], user: list[str], expected: Fraction
) -> None:
    assert default_chart().multiplier(move, defender, user).value == expected


def test_pk_11_names_accents_case_and_source_abbreviations() -> None:
    chart = default_chart()
    for name, type_id in [
        ("Électrik", "electrik"),
        ("electr", "electrik"),
        ("TÉNÈBRES", "tenebres"),
        ("tenebr", "tenebres"),
        ("spectr", "spectre"),
        ("insect", "insecte"),
        ("Fée", "fee"),
    ]:
        assert chart.normalize(name) == type_id
    with pytest.raises(UnknownNameError) as caught:
        chart.normalize("lumière")
    assert "acier" in caught.value.message()


def test_pk_11_final_damage_is_floored() -> None:
    assert apply(5, Fraction(1, 2)) == 2
    assert apply(3, Fraction(3, 2)) == 4
    assert apply(7, Fraction(0)) == 0


def test_pk_11_the_chart_holds_18_types_with_standard_factors() -> None:
    chart = default_chart()
    assert len(chart.names) == 18
    assert all(f in {0, Fraction(1, 2), 2} for row in chart.factors.values() for f in row.values())


def test_pk_11_another_chart_can_be_loaded(tmp_path: Path) -> None:
    path = tmp_path / "chart.toml"
    path.write_text('[names]\nlumiere = "Lumière"\nombre = "Ombre"\n[chart.lumiere]\nombre = 3\n')
    chart = TypeChart.from_file(path)
    assert chart.multiplier("Lumière", ["ombre"]).value == 3
    with pytest.raises(InputError):
        TypeChart.from_toml("[chart.x]\ny = 2\n")


# --- the command line ------------------------------------------------------------------------
def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_pk_2_check_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "roll", "pokemon", "check", "--dice", "4", "--faces", "7,1,2,6", "--json"
    )
    payload = json.loads(out)
    assert code == 0
    assert (payload["successes"], payload["failures"], payload["score"]) == (2, 1, 1)
    assert payload["outcome"] == "success"
    assert payload["faces"] == [7, 1, 2, 6]


def test_pk_3_odds_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "odds", "pokemon", "check", "--dice", "4", "--exact", "--json")
    payload = json.loads(out)
    assert code == 0
    assert payload["outcomes"]["success"] == "1601/2000"
    assert payload["distribution_of"] == "score"


def test_pk_11_types_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "pokemon", "types", "combat", "Ténèbres/Glace", "--user", "combat")
    assert code == 0
    assert out.strip() == "Combat → Ténèbres/Glace: STAB ×1.5, Ténèbres ×2, Glace ×2 → ×6"
    code, out, _ = _run(capsys, "pokemon", "types", "electr", "eau/vol", "--json")
    assert json.loads(out)["multiplier"] == 4
    code, _out, err = _run(capsys, "pokemon", "types", "bois", "eau")
    assert code == 2 and "unknown type bois" in err


def test_pk_4_bad_input_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(capsys, "roll", "pokemon", "check", "--dice", "-1")
    assert code == 2 and "--dice" in err
    code, _out, err = _run(
        capsys, "roll", "pokemon", "check", "--dice", "2", "--faces", "11,3", "--lang", "fr"
    )
    assert code == 2 and "la face n° 1 vaut 11, ce n'est pas une face d'un d10" in err
    assert "1..10, ou 0 pour 10" in err


def test_pk_2_a_d10s_0_counts_10_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """« parfois, un 0 remplace le 10, mais il compte toujours pour 10 »."""
    code, out, err = _run(capsys, "roll", "pokemon", "check", "--dice", "1", "--faces", "0")
    assert code == 0, err
    assert out.splitlines()[-1] == "1d10 DD6: 10✓ → 1 success − 0 failures = 1 → success"
    code, out, _ = _run(
        capsys, "roll", "pokemon", "check", "--dice", "2", "--faces", "0, 1", "--json"
    )
    payload = json.loads(out)
    assert payload["faces"] == [10, 1]
    assert (payload["score"], payload["outcome"]) == (0, "failure")
    code, out, _ = _run(
        capsys, "roll", "pokemon", "initiative", "--dexterity", "3", "--faces", "0", "--json"
    )
    assert code == 0 and payload["faces"] == [10, 1]
    assert json.loads(out)["faces"] == [10]


def test_the_system_is_registered_through_its_entry_point() -> None:
    from jdr.systems import Registry

    assert Registry.from_entry_points().get("pokemon") is SYSTEM
