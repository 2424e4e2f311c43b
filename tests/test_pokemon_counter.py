"""`pokemon counter` (PK-14) and `pokemon initiative` (PK-5): the combat round's own rolls."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.dice import GivenFaces, Seeded
from jdr.errors import LimitError
from jdr.params import validate_params
from jdr.systems import Registry
from jdr.systems.pokemon import counter, initiative
from jdr.systems.pokemon.counter import (
    MAX_EXCHANGES,
    CounterParams,
    counter_odds,
    resolve_counter,
    successes_distribution,
)
from jdr.systems.pokemon.initiative import initiative_slots, roll_initiative

D10 = range(1, 11)


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main([*args, "--json"]) == 0
    payload: dict[str, Any] = json.loads(capsys.readouterr().out)
    return payload


# --- PK-14: counter -------------------------------------------------------------------------


def test_pk_14_adds_successes_not_the_score() -> None:
    # attacker 6✓ 1✗: score 0 but 1 success → total 1; defender 2 3 → 0; attacker 9✓ 1✗ → 2
    result = resolve_counter(2, 2, 2, 5, GivenFaces([6, 1, 2, 3, 9, 1]))
    assert result.winner == "attacker"
    assert [e.attacker.total for e in result.exchanges] == [1, 2]


def test_pk_14_attacker_first_and_the_defender_does_not_roll_after_a_win() -> None:
    source = GivenFaces([7, 8])
    result = resolve_counter(2, 2, 3, 1, source)
    source.finish()
    assert result.winner == "attacker"
    assert result.exchanges[0].defender is None


def test_pk_14_defender_reaches_its_threshold() -> None:
    result = resolve_counter(1, 3, 2, 2, GivenFaces([6, 9, 10]))
    assert result.winner == "defender"
    assert result.exchanges[0].defender is not None
    assert result.exchanges[0].defender.total == 2


def test_pk_14_no_winner_after_50_exchanges() -> None:
    source = GivenFaces([10] * (MAX_EXCHANGES * 3))
    result = resolve_counter(1, 1, 2, 1, source, attacker_difficulty=11, defender_difficulty=11)
    source.finish()
    assert result.winner == "none"
    assert len(result.exchanges) == MAX_EXCHANGES
    assert "50" in result.explain()


def test_pk_14_roll_json_lists_every_exchange() -> None:
    params = validate_params(
        CounterParams,
        {"attacker_dice": 2, "attacker_threshold": 3, "defender_dice": 1, "defender_threshold": 2},
    )
    record = counter.roll(params, GivenFaces([7, 1, 2, 9, 6]))
    assert record.outcome == record.totals["winner"] == "attacker"
    assert record.totals["exchanges"] == [
        {
            "attacker": {"faces": [7, 1], "successes": 1, "total": 1},
            "defender": {"faces": [2], "successes": 0, "total": 0},
        },
        {
            "attacker": {"faces": [9, 6], "successes": 2, "total": 3},
            "defender": None,
        },
    ]
    assert list(record.faces) == [7, 1, 2, 9, 6]


def test_pk_14_successes_per_roll_is_the_pools_first_component() -> None:
    dist = successes_distribution(2, 6, exact=True)
    assert dist.to_list() == [(0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4))]


# --- PK-14 odds: oracles ------------------------------------------------------------------


def _successes(dice: int, difficulty: int) -> dict[int, Fraction]:
    """Every face of one roll, counted: faces ≥ DD (at least 1)."""
    counts = Counter(
        sum(f >= max(1, difficulty) for f in faces) for faces in product(D10, repeat=dice)
    )
    return {s: Fraction(c, 10**dice) for s, c in counts.items()}


def recursive_counter(
    a_dice: int, a_needs: int, d_dice: int, d_needs: int, difficulty: int, cap: int
) -> dict[str, Fraction]:
    """PK-14 as a recursion over every branch of every roll, exchange by exchange."""
    attacker, defender = _successes(a_dice, difficulty), _successes(d_dice, difficulty)

    @cache
    def win(a: int, d: int, left: int) -> tuple[Fraction, Fraction, Fraction]:
        if left == 0:
            return Fraction(0), Fraction(0), Fraction(1)
        out = [Fraction(0)] * 3
        for s, p in attacker.items():
            if a + s >= a_needs:
                out[0] += p
                continue
            for t, q in defender.items():
                if d + t >= d_needs:
                    out[1] += p * q
                    continue
                for i, rest in enumerate(win(a + s, d + t, left - 1)):
                    out[i] += p * q * rest
        return out[0], out[1], out[2]

    return dict(zip(("attacker", "defender", "none"), win(0, 0, cap), strict=True))


def exhaustive_counter(
    a_needs: int, d_needs: int, difficulty: int, cap: int
) -> dict[str, Fraction]:
    """One die a side: every sequence of faces, none skipped, played out with `resolve_counter`."""
    counts: Counter[str] = Counter()
    for faces in product(D10, repeat=2 * cap):
        source = GivenFaces(faces)
        result = resolve_counter(
            1,
            a_needs,
            1,
            d_needs,
            source,
            attacker_difficulty=difficulty,
            defender_difficulty=difficulty,
            max_exchanges=cap,
        )
        counts[result.winner] += 1  # each full sequence is equally likely; the tail is unused
    return {k: Fraction(counts[k], 10 ** (2 * cap)) for k in ("attacker", "defender", "none")}


@pytest.mark.parametrize(
    ("a_dice", "a_needs", "d_dice", "d_needs", "difficulty"),
    [
        (1, 1, 1, 1, 6),
        (1, 2, 1, 3, 6),
        (2, 3, 1, 2, 6),
        (2, 2, 2, 3, 8),
        (1, 3, 2, 1, 3),
        (2, 3, 2, 3, 10),
        (0, 1, 1, 2, 6),
    ],
)
def test_pk_14_exact_odds_match_the_recursion(
    a_dice: int, a_needs: int, d_dice: int, d_needs: int, difficulty: int
) -> None:
    expected = recursive_counter(a_dice, a_needs, d_dice, d_needs, difficulty, MAX_EXCHANGES)
    kwargs: dict[str, Any] = {"attacker_difficulty": difficulty, "defender_difficulty": difficulty}
    exact = counter_odds(a_dice, a_needs, d_dice, d_needs, exact=True, **kwargs)
    assert exact == expected
    assert sum(exact.values()) == 1
    floats = counter_odds(a_dice, a_needs, d_dice, d_needs, exact=False, **kwargs)
    for key, p in exact.items():
        assert floats[key] == pytest.approx(float(p), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize(("a_needs", "d_needs", "difficulty"), [(1, 1, 6), (2, 1, 7), (2, 2, 4)])
def test_pk_14_exact_odds_match_every_face_sequence(
    a_needs: int, d_needs: int, difficulty: int
) -> None:
    expected = exhaustive_counter(a_needs, d_needs, difficulty, cap=2)
    got = counter_odds(
        1,
        a_needs,
        1,
        d_needs,
        attacker_difficulty=difficulty,
        defender_difficulty=difficulty,
        max_exchanges=2,
        exact=True,
    )
    assert got == expected


def test_pk_14_sampling_agrees_with_the_exact_odds() -> None:
    runs = 20_000
    rng = Seeded(2024)
    seen = Counter(resolve_counter(2, 3, 2, 2, rng).winner for _ in range(runs))
    expected = counter_odds(2, 3, 2, 2, exact=True)
    assert seen["none"] == 0 and expected["none"] < Fraction(1, 10**20)
    chi_square = sum(
        (seen[k] - runs * float(expected[k])) ** 2 / (runs * float(expected[k]))
        for k in ("attacker", "defender")
    )
    assert chi_square < 10.83  # one degree of freedom, p = 0.001


def test_pk_14_exact_odds_over_budget_are_refused_before_the_work() -> None:
    with pytest.raises(LimitError, match="too large"):
        counter_odds(200, 100, 200, 100, exact=True)
    floats = counter_odds(200, 100, 200, 100, exact=False)
    assert sum(floats.values()) == pytest.approx(1)


# --- PK-5: initiative -----------------------------------------------------------------------


def test_pk_5_initiative_is_a_d10_plus_dexterity() -> None:
    record = initiative.roll(initiative.InitiativeParams(dexterity=3), GivenFaces([7]))
    assert dict(record.totals) == {"roll": 7, "dexterity": 3, "initiative": 10}
    assert record.faces == [7]
    assert record.explain() == "initiative: 1d10 (7) + Dextérité 3 = 10"


def test_pk_5_descending_order_and_equal_totals_act_together() -> None:
    totals = {"Pikachu": 12, "Salamèche": 9, "Bulbizarre": 12, "Carapuce": 14}
    assert initiative_slots(totals) == [["Carapuce"], ["Pikachu", "Bulbizarre"], ["Salamèche"]]


def test_pk_5_initiative_odds_are_uniform() -> None:
    exact = initiative.odds(initiative.InitiativeParams(dexterity=4), True)
    expected = Counter(roll_initiative(4, GivenFaces([face])).total for face in D10)
    assert dict(exact.distribution) == {total: Fraction(n, 10) for total, n in expected.items()}
    assert exact.mean == Fraction(19, 2)
    floats = initiative.odds(initiative.InitiativeParams(dexterity=4), False)
    assert floats.mean == pytest.approx(9.5)


# --- through the command line ---------------------------------------------------------------


def test_cli_counter_json(pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    payload = cli_json(
        capsys,
        *("roll", "pokemon", "counter", "--attacker-dice", "1", "--attacker-threshold", "1"),
        *("--defender-dice", "1", "--defender-threshold", "1", "--faces", "2,6"),
    )
    assert payload["winner"] == payload["outcome"] == "defender"
    assert payload["exchanges"] == [
        {
            "attacker": {"faces": [2], "successes": 0, "total": 0},
            "defender": {"faces": [6], "successes": 1, "total": 1},
        }
    ]


def test_cli_counter_odds_exact(pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    payload = cli_json(
        capsys,
        *("odds", "pokemon", "counter", "--attacker-dice", "2", "--attacker-threshold", "3"),
        *("--defender-dice", "2", "--defender-threshold", "2", "--exact"),
    )
    assert set(payload["outcomes"]) == {"attacker", "defender", "none"}
    assert sum(Fraction(p) for p in payload["outcomes"].values()) == 1


def test_cli_initiative_json_and_french(
    pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("roll", "pokemon", "initiative", "--dexterity", "5", "--faces", "9")
    payload = cli_json(capsys, *args)
    assert (payload["roll"], payload["dexterity"], payload["initiative"]) == (9, 5, 14)
    french = cli_json(capsys, *args, "--lang", "fr")
    assert "(9)" in french["explanation"] and french["explanation"].endswith("14")


def test_cli_counter_explains_in_french(
    pokemon_cli: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = cli_json(
        capsys,
        *("roll", "pokemon", "counter", "--attacker-dice", "2", "--attacker-threshold", "3"),
        *("--defender-dice", "1", "--defender-threshold", "2", "--faces", "7,1,2,9,6"),
        *("--lang", "fr"),
    )
    explanation = payload["explanation"]
    assert explanation.startswith("1. ") and " · 2. " in explanation
    assert "(1/3)" in explanation and "(0/2)" in explanation and "(3/3)" in explanation
