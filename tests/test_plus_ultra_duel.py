"""The Plus Ultra duel (PU-1, PU-3, PU-4): both sides only attack, in turn.

The exact odds are checked against three oracles: a brute-force enumeration of every d20 sequence
of the first rounds, an independent turn-by-turn chain solved as a linear system, and sampling.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.dice import GivenFaces, Seeded
from jdr.errors import InputError, LimitError
from jdr.params import validate_params
from jdr.systems import Registry
from jdr.systems.plus_ultra.duel import (
    MAX_SIMULATED_ROUNDS,
    DuelParams,
    Side,
    duel_odds,
    hits,
    odds,
    roll,
    simulate,
)
from jdr.systems.plus_ultra.rules import damage, defense
from jdr.systems.plus_ultra.sheets import Duelist

D20 = range(1, 21)
TINY = [
    Duelist.model_validate({"rank": "E", "energy": energy, "willpower": willpower})
    for energy, willpower in [(1, 0), (2, 2), (2, 0), (1, 2)]
]


def spec(text: str) -> Duelist:
    return validate_params(DuelParams, {"a": text, "b": "rank=E,energy=2,willpower=2"}).a


def problem(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        spec(text)
    return caught.value


# --- the sides ------------------------------------------------------------------------------


def test_a_spec_reads_rank_and_current_gauges() -> None:
    assert spec("rank=C,energy=7,willpower=5") == Duelist(rank="C", energy=7, willpower=5)
    assert spec("Rang=c+, Énergie=7, VOLONTE=0") == Duelist(rank="C+", energy=7, willpower=0)


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        ("rank=C,power=3,energy=7,willpower=5", "--a", "unknown key power"),
        ("rank=C,energy=7", "--a.willpower", "required"),
        ("rank=C,energy=x,willpower=5", "--a.energy", "not a whole number"),
        ("rank=C energy=7 willpower=5", "--a", "is not key=value"),
        ("rank C", "--a", "rank C is not key=value"),
        ("rank=C,rank=D,energy=7,willpower=5", "--a", "rank given twice"),
        ("rank=Z,energy=7,willpower=5", "--a.rank", "unknown rank"),
        ("rank=C,energy=0,willpower=5", "--a.energy", "at least 1"),
        ("rank=C,energy=7,willpower=-1", "--a.willpower", "at least 0"),
    ],
)
def test_a_bad_spec_names_the_field_and_the_reason(text: str, field: str, words: str) -> None:
    error = problem(text)
    assert f"--{error.field}" == field
    assert words in error.message()


def test_pu_2_current_gauges_stay_within_the_rank() -> None:
    error = problem("rank=C,energy=7,willpower=11")
    assert error.field == "a.willpower"
    assert "more than rank C allows: 6 + 4 free points = 10 (PU-2)" in error.message()
    both = problem("rank=C,energy=9,willpower=9")
    assert "need 6 free points, rank C gives 4 (PU-2)" in both.message()
    assert spec("rank=C,energy=10,willpower=6").energy == 10


# --- the exact odds, against oracles -----------------------------------------------------------


def brute_force(a: Duelist, b: Duelist, first: Side, rounds: int) -> dict[tuple[int, Side], Any]:
    """P(the duel ends in round n, won by side) for n ≤ `rounds`: every d20 sequence, one by one.

    A sequence stops at the KO; each one of length k has probability 1/20^k.
    """
    found: dict[tuple[int, Side], Any] = {}
    sides = {"a": a, "b": b}
    second: Side = "b" if first == "a" else "a"

    def play(energy: dict[str, int], attacks: int) -> None:
        if attacks == 2 * rounds:
            return
        side = first if attacks % 2 == 0 else second
        target = "b" if side == "a" else "a"
        for face in D20:
            left = dict(energy)
            if face + sides[side].willpower >= defense(energy[target]):
                left[target] -= damage(sides[side].rank)
            if left[target] <= 0:
                key = (attacks // 2 + 1, side)
                found[key] = found.get(key, 0) + Fraction(1, 20 ** (attacks + 1))
            else:
                play(left, attacks + 1)

    play({"a": a.energy, "b": b.energy}, 0)
    return found


def turn_chain(a: Duelist, b: Duelist, first: Side) -> tuple[Fraction, Fraction]:
    """P(a wins) and E[rounds], solved as one linear system over (Énergie a, Énergie b, turn)."""
    states = [
        (ea, eb, t) for ea in range(1, a.energy + 1) for eb in range(1, b.energy + 1) for t in "ab"
    ]
    index = {state: i for i, state in enumerate(states)}
    size = len(states)

    def system(gain: Callable[[str, bool], Fraction], own: Callable[[str], Fraction]) -> list[Any]:
        rows = []
        for ea, eb, turn in states:
            row = [Fraction(0)] * (size + 1)
            row[index[(ea, eb, turn)]] += 1
            row[size] = own(turn)
            attacker, target_energy = (a, eb) if turn == "a" else (b, ea)
            p = Fraction(hits(attacker, target_energy), 20)
            flip = "b" if turn == "a" else "a"
            left = target_energy - damage(attacker.rank)
            if left <= 0:
                row[size] += p * gain(turn, True)
            else:
                nxt = (ea, left, flip) if turn == "a" else (left, eb, flip)
                row[index[nxt]] -= p
            row[index[(ea, eb, flip)]] -= 1 - p
            rows.append(row)
        return solve(rows)

    wins = system(lambda turn, ko: Fraction(turn == "a"), lambda turn: Fraction(0))
    rounds = system(lambda turn, ko: Fraction(0), lambda turn: Fraction(turn == first))
    start = index[(a.energy, b.energy, first)]
    return wins[start], rounds[start]


def solve(rows: list[list[Fraction]]) -> list[Fraction]:
    """Gauss-Jordan elimination on an augmented matrix, exactly."""
    size = len(rows)
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = [x / rows[col][col] for x in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[size] for row in rows]


@pytest.mark.parametrize("first", ["a", "b"])
@pytest.mark.parametrize(("a", "b"), [(TINY[0], TINY[1]), (TINY[1], TINY[2]), (TINY[3], TINY[2])])
def test_pu_4_duel_first_rounds_match_every_d20_sequence(
    a: Duelist, b: Duelist, first: Side
) -> None:
    answer = duel_odds(a, b, first, exact=True)
    found = brute_force(a, b, first, rounds=2)
    rows = dict(answer.rounds)
    for n in (1, 2):
        assert rows.get(n, 0) == found.get((n, "a"), 0) + found.get((n, "b"), 0)
    for side in ("a", "b"):
        assert answer.outcomes[side] >= sum(p for (n, s), p in found.items() if s == side)


DUELS = [
    (TINY[0], TINY[1]),
    (TINY[1], TINY[2]),
    (TINY[3], TINY[2]),
    (Duelist(rank="D", energy=4, willpower=5), Duelist(rank="E+", energy=3, willpower=4)),
    (Duelist(rank="C", energy=7, willpower=5), Duelist(rank="D", energy=5, willpower=4)),
]


@pytest.mark.parametrize("first", ["a", "b"])
@pytest.mark.parametrize(("a", "b"), DUELS)
def test_pu_4_duel_odds_match_a_turn_by_turn_chain(a: Duelist, b: Duelist, first: Side) -> None:
    answer = duel_odds(a, b, first, exact=True)
    win_a, mean_rounds = turn_chain(a, b, first)
    assert answer.outcomes == {"a": win_a, "b": 1 - win_a, "draw": 0}
    assert answer.mean_rounds == mean_rounds
    assert sum(p for _n, p in answer.rounds) + answer.rounds_beyond == 1
    assert answer.rounds_beyond < 1e-6


@pytest.mark.parametrize(("a", "b"), DUELS)
def test_duel_floats_come_from_the_same_chain(a: Duelist, b: Duelist) -> None:
    exact, floats = duel_odds(a, b, exact=True), duel_odds(a, b, exact=False)
    for key, p in exact.outcomes.items():
        assert floats.outcomes[key] == pytest.approx(float(p), abs=1e-12)
    assert [n for n, _p in floats.rounds] == [n for n, _p in exact.rounds]
    for (_n, p), (_m, q) in zip(exact.rounds, floats.rounds, strict=True):
        assert q == pytest.approx(float(p), rel=1e-9)
    assert floats.mean_rounds == pytest.approx(float(exact.mean_rounds or 0), rel=1e-12)


def test_duel_first_side_is_a_relabelling() -> None:
    a, b = DUELS[-1]
    one, other = duel_odds(a, b, "b", exact=True), duel_odds(b, a, "a", exact=True)
    assert (one.outcomes["a"], one.outcomes["b"]) == (other.outcomes["b"], other.outcomes["a"])
    assert one.rounds == other.rounds


def test_pu_4_duel_odds_match_twenty_thousand_seeded_duels() -> None:
    a, b = Duelist(rank="C", energy=7, willpower=5), Duelist(rank="C", energy=8, willpower=6)
    answer = duel_odds(a, b, exact=False)
    source, runs = Seeded(2024), 20_000
    duels = [simulate(a, b, source) for _ in range(runs)]
    p = float(answer.outcomes["a"])
    won = sum(duel.winner == "a" for duel in duels) / runs
    assert abs(won - p) < 4 * math.sqrt(p * (1 - p) / runs)
    rounds = [duel.rounds for duel in duels]
    mean = sum(rounds) / runs
    spread = math.sqrt(sum((r - mean) ** 2 for r in rounds) / (runs - 1))
    assert abs(mean - float(answer.mean_rounds or 0)) < 4 * spread / math.sqrt(runs)
    for n, q in answer.rounds[:4]:
        seen = rounds.count(n) / runs
        assert abs(seen - float(q)) < 4 * math.sqrt(float(q) * (1 - float(q)) / runs)


def test_pu_4_nobody_can_hit_is_a_certain_draw() -> None:
    wall = Duelist(rank="S+", energy=24, willpower=0)
    odds_ = duel_odds(wall, wall, exact=True)
    assert odds_.outcomes == {"a": 0, "b": 0, "draw": 1}
    assert (odds_.rounds, odds_.rounds_beyond, odds_.mean_rounds) == ([], 0, None)
    duel = simulate(wall, wall, GivenFaces([]))
    assert (duel.winner, duel.outcome, duel.faces, duel.rounds) == (None, "draw", [], 0)
    assert "draw" in duel.explain()


def test_pu_4_a_side_that_can_never_hit_loses_for_sure() -> None:
    wall = Duelist(rank="S+", energy=24, willpower=0)  # hits a defense of 10 on 10+
    weak = Duelist(rank="E", energy=2, willpower=2)  # 2 + 20 < 8 + 24: never hits the wall
    assert duel_odds(wall, weak, exact=True).outcomes == {"a": 1, "b": 0, "draw": 0}
    assert duel_odds(weak, wall, "b", exact=True).outcomes == {"a": 0, "b": 1, "draw": 0}


# --- one duel, rolled ---------------------------------------------------------------------------


def test_pu_4_a_rolled_duel_plays_each_attack_in_turn() -> None:
    a, b = Duelist(rank="C", energy=7, willpower=5), Duelist(rank="E", energy=2, willpower=2)
    duel = simulate(a, b, GivenFaces([3, 20, 10]))
    assert (duel.winner, duel.rounds, duel.faces, duel.energy) == (
        "a",
        2,
        [3, 20, 10],
        {"a": 6, "b": 0},
    )
    assert [(x.round, x.attacker, x.roll.hit, x.energy_left) for x in duel.attacks] == [
        (1, "a", False, 2),
        (1, "b", True, 6),
        (2, "a", True, 0),
    ]


def test_pu_1_a_ko_mid_round_ends_the_duel_before_the_other_side_plays() -> None:
    a, b = Duelist(rank="C", energy=7, willpower=5), Duelist(rank="E", energy=2, willpower=2)
    duel = simulate(a, b, GivenFaces([20]))
    assert (duel.winner, duel.rounds, len(duel.attacks)) == ("a", 1, 1)
    later = simulate(a, b, GivenFaces([1, 20]), first="b")
    assert (later.winner, [x.attacker for x in later.attacks]) == ("a", ["b", "a"])


def test_a_duel_that_never_ends_stops_at_the_budget() -> None:
    class Ones:
        def faces(self, size: int, count: int) -> list[int]:
            return [1] * count

    side = Duelist(rank="E", energy=2, willpower=0)
    with pytest.raises(LimitError):
        simulate(side, side, Ones())
    assert MAX_SIMULATED_ROUNDS >= 1000


def test_the_duel_record_and_odds_keep_the_contract() -> None:
    params = validate_params(
        DuelParams, {"a": "rank=C,energy=7,willpower=5", "b": "rank=E,energy=2,willpower=2"}
    )
    record = roll(params, GivenFaces([3, 20, 10]))
    assert record.outcome == "a"
    assert set(record.totals) == {"winner", "rounds", "energy", "attacks"}
    assert set(record.totals["attacks"][0]) == {
        "round",
        "attacker",
        "roll",
        "attack",
        "defense",
        "hit",
        "damage",
        "energy_left",
    }
    json.dumps(dict(record.totals))
    answer = odds(params, True)
    assert answer.label == "rounds"
    assert sum(answer.outcomes.values()) == 1
    assert "rounds_beyond" in answer.extra


# --- through the command line ---------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err.strip()


def test_cli_duel_odds_json(
    plus_ultra_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = cli(
        capsys,
        "odds",
        "plus-ultra",
        "duel",
        "--a",
        "rank=C,energy=7,willpower=5",
        "--b",
        "rank=D,energy=5,willpower=4",
        "--first",
        "b",
        "--exact",
        "--json",
    )
    payload = json.loads(out)
    assert code == 0
    assert set(payload["outcomes"]) == {"a", "b", "draw"}
    assert sum(Fraction(p) for p in payload["outcomes"].values()) == 1
    assert payload["distribution_of"] == "rounds"
    assert {"mean", "rounds_beyond"} <= set(payload)
    assert payload["params"]["a"] == {"rank": "C", "energy": 7, "willpower": 5}
    assert payload["params"]["first"] == "b"


def test_cli_duel_roll_json(
    plus_ultra_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = cli(
        capsys,
        "roll",
        "plus-ultra",
        "duel",
        "--a",
        "rank=C,energy=7,willpower=5",
        "--b",
        "rank=E,energy=2,willpower=2",
        "--faces",
        "3,20,10",
        "--json",
    )
    payload = json.loads(out)
    assert code == 0
    assert (payload["outcome"], payload["winner"], payload["rounds"]) == ("a", "a", 2)
    assert payload["faces"] == [3, 20, 10]
    assert payload["energy"] == {"a": 6, "b": 0}
    assert [attack["hit"] for attack in payload["attacks"]] == [False, True, True]


def test_cli_duel_in_french_keeps_the_structure(
    plus_ultra_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    args = (
        "roll",
        "plus-ultra",
        "duel",
        "--a",
        "rank=C,energy=7,willpower=5",
        "--b",
        "rank=E,energy=2,willpower=2",
        "--seed",
        "5",
        "--json",
    )
    _code, english, _err = cli(capsys, *args)
    code, french, _err = cli(capsys, *args, "--lang", "fr")
    assert code == 0
    en, fr = json.loads(english), json.loads(french)
    assert en.pop("explanation").count(" · ") == fr.pop("explanation").count(" · ")
    assert en == fr


@pytest.mark.parametrize(
    ("a", "words"),
    [
        ("rank=Q,energy=7,willpower=5", "--a.rank: Q — unknown rank"),
        ("rank=C,energy=7,willpower=11", "--a.willpower: 11 — more than rank C allows"),
        ("rank:C,energy:7", "--a: rank:C,energy:7 — rank:C is not key=value"),
        ("rank=C,energy=7", "--a.willpower: required"),
    ],
)
def test_cli_duel_bad_spec_is_one_clear_line_and_exit_2(
    plus_ultra_actions: Registry, capsys: pytest.CaptureFixture[str], a: str, words: str
) -> None:
    code, _out, err = cli(
        capsys, "odds", "plus-ultra", "duel", "--a", a, "--b", "rank=E,energy=2,willpower=2"
    )
    assert code == 2
    assert len(err.splitlines()) == 1
    assert words in err
