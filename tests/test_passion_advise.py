"""The Passion dice advisor: rankings checked by brute force over every face, ties, sure choices,
the combat minimum (PS-10), exact against floats, and the command line."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.errors import InputError
from jdr.params import validate_params
from jdr.systems import Registry
from jdr.systems.passion.actions import ACTIONS
from jdr.systems.passion.advise import GOALS, Choice, pools, rank_pools
from jdr.systems.passion.odds import roll_odds
from jdr.systems.passion.params import AdviseParams, Conditions, Goal
from jdr.systems.passion.pool import SIZES, parse_dice, passion_die

KEYS = ["dice", "p_success", "p_status_quo", "p_failure", "mean_margin", "sure"]


def oracle(dice: str, c: Conditions) -> dict[str, Any]:
    """A pool's figures by brute force: every face of every die, PS-2 … PS-5 written plainly."""
    sizes = [die.size for die in parse_dice(dice).dice()]
    margins: Counter[int] = Counter()
    for faces in itertools.product(*(range(1, size + 1) for size in sizes)):
        positives = sum(2 if f == s else 1 for f, s in zip(faces, sizes, strict=True) if f % 2 == 0)
        negatives = sum(2 if f == 1 else 1 for f in faces if f % 2 == 1)
        left = max(0, negatives + c.difficulty - c.talent - c.passion)
        margins[positives + int(c.energy) - left] += 1
    total = sum(margins.values())
    return {
        "dice": dice,
        "count": len(sizes),
        "p_success": Fraction(sum(n for m, n in margins.items() if m > 0), total),
        "p_status_quo": Fraction(margins[0], total),
        "p_failure": Fraction(sum(n for m, n in margins.items() if m < 0), total),
        "mean_margin": Fraction(sum(m * n for m, n in margins.items()), total),
        "sure": all(m > 0 for m in margins),
    }


def oracle_ranking(c: Conditions, sizes: list[int], max_dice: int, goal: Goal) -> list[str]:
    """Brute-force figures, sorted by the advisor's documented order."""
    rows = [oracle("+".join(f"{n}d{s}" for n, s in pool), c) for pool in pools(sizes, max_dice)]

    def key(item: tuple[int, dict[str, Any]]) -> tuple[Any, ...]:
        position, r = item
        success, failure, margin = r["p_success"], r["p_failure"], r["mean_margin"]
        measures = {
            "success": (success, -failure, margin),
            "no-failure": (success + r["p_status_quo"], success, margin),
            "margin": (margin, success, -failure),
        }[goal]
        return (-measures[0], r["count"], -measures[1], -measures[2], position)

    return [r["dice"] for _position, r in sorted(enumerate(rows), key=key)]


def figures(choice: Choice) -> dict[str, Any]:
    return {key: getattr(choice, key) for key in ("dice", "count", *KEYS[1:])}


# --- rankings, hand-checked by brute force --------------------------------------------------------


def test_talent_2_difficulty_1_d4_d6_three_dice_ranked_for_success() -> None:
    ranked = rank_pools(Conditions(difficulty=1, talent=2), [4, 6], max_dice=3, exact=True)
    assert [choice.dice for choice in ranked] == [
        "2d6",  # 23/36
        "2d4",  # 5/8, a quarter of failures
        "1d4+1d6",  # 5/8 as well, and the same failures and margin: the smaller sizes first
        "3d6",  # 5/9, 5/18 of failures
        "1d4+2d6",  # 5/9, 7/24 of failures
        "2d4+1d6",  # 53/96
        "3d4",  # 35/64
        "1d6",  # 1/2, 1/6 of failures
        "1d4",  # 1/2, 1/4 of failures
    ]
    assert ranked[0].p_success == Fraction(23, 36)
    for choice in ranked:
        assert figures(choice) == oracle(choice.dice, Conditions(difficulty=1, talent=2))


@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize(
    "conditions",
    [
        Conditions(difficulty=1, talent=2),
        Conditions(difficulty=3, talent=1, energy=True),
        Conditions(difficulty=4, talent=2, passion=1),
    ],
    ids=["t2-k1", "t1-k3-energy", "t2-k4-passion"],
)
def test_ranking_matches_brute_force(goal: Goal, conditions: Conditions) -> None:
    ranked = rank_pools(conditions, [4, 6, 8], max_dice=3, goal=goal, exact=True)
    assert [c.dice for c in ranked] == oracle_ranking(conditions, [4, 6, 8], 3, goal)
    for choice in ranked:
        assert figures(choice) == oracle(choice.dice, conditions)


def test_every_pool_matches_the_odds_of_the_same_roll() -> None:
    conditions = Conditions(difficulty=3, talent=2, energy=True, passion=1)
    for choice in rank_pools(conditions, SIZES, max_dice=3, exact=True):
        odds = roll_odds(parse_dice(choice.dice), conditions, exact=True)
        assert (choice.p_success, choice.p_status_quo, choice.p_failure) == (
            odds.outcomes["success"],
            odds.outcomes["status_quo"],
            odds.outcomes["failure"],
        )
        assert (choice.mean_margin, choice.sure) == (odds.mean, odds.extra["sure"])


def test_ties_go_to_fewer_dice() -> None:
    """Talent 10 and Énergie: up to 5 dice every pool is sure; the fewer dice the better."""
    ranked = rank_pools(Conditions(talent=10, energy=True), [4, 6], max_dice=7)
    sure = [choice for choice in ranked if choice.sure]
    assert ranked[: len(sure)] == sure
    assert [choice.count for choice in sure] == sorted(choice.count for choice in sure)
    assert {choice.count for choice in sure} == {1, 2, 3, 4, 5}
    assert ranked[0].dice == "1d4"  # 1d4 and 1d6 are both sure: the larger mean margin first
    assert ranked[0].mean_margin < sure[-1].mean_margin  # five dice give more margin, yet rank last


# --- sure choices (the rules file's last row) -----------------------------------------------------


def test_ps_5_talent_4_difficulty_2_energy_any_single_die_is_marked_sure() -> None:
    ranked = rank_pools(Conditions(difficulty=2, talent=4, energy=True), SIZES, max_dice=4)
    sure = [choice.dice for choice in ranked if choice.sure]
    assert sorted(sure) == sorted(f"1d{size}" for size in SIZES)
    assert [choice.dice for choice in ranked[: len(SIZES)]] == sure  # sure first
    for choice in ranked[: len(SIZES)]:
        assert (choice.p_success, choice.p_status_quo, choice.p_failure) == (1, 0, 0)


def test_sure_matches_brute_force_on_every_pool() -> None:
    conditions = Conditions(difficulty=1, talent=6, energy=True)
    for choice in rank_pools(conditions, [4, 10], max_dice=4):
        assert choice.sure == oracle(choice.dice, conditions)["sure"]
        assert choice.sure == (choice.count <= 2)  # all 1s: 2n + 1 negatives, talent 6


# --- PS-10: the combat minimum --------------------------------------------------------------------


def test_ps_10_min_dice_keeps_pools_of_at_least_the_marker() -> None:
    ranked = rank_pools(Conditions(talent=3), [4, 6], max_dice=5, min_dice=3)
    assert {choice.count for choice in ranked} == {3, 4, 5}
    assert len(ranked) == len([p for p in pools([4, 6], 5) if sum(n for n, _s in p) >= 3])


def test_ps_10_with_energy_one_die_less_is_enough() -> None:
    action = ACTIONS["action"]
    assert action.advise is not None
    params = validate_params(
        AdviseParams, {"talent": 3, "difficulty": 1, "min_dice": 3, "energy": True}
    )
    advice = action.advise.advise(params, False)
    assert min(parse_dice(choice["dice"]).dice_count for choice in advice.choices) == 2


def test_min_dice_above_max_dice_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        validate_params(AdviseParams, {"talent": 1, "difficulty": 1, "min_dice": 6, "max_dice": 5})
    assert caught.value.field == "min_dice"


# --- floats, counts, sizes ------------------------------------------------------------------------


def test_exact_and_float_agree_and_rank_alike() -> None:
    conditions = Conditions(difficulty=4, talent=5, energy=True, passion=1)
    for goal in GOALS:
        exact = rank_pools(conditions, SIZES, max_dice=6, goal=goal, exact=True)
        floats = rank_pools(conditions, SIZES, max_dice=6, goal=goal, exact=False)
        assert [c.dice for c in exact] == [c.dice for c in floats]
        for e, f in zip(exact, floats, strict=True):
            assert e.sure is f.sure
            for key in KEYS[1:5]:
                assert abs(float(getattr(e, key)) - getattr(f, key)) < 1e-12


def test_ps_2_every_size_scores_the_same_four_vectors() -> None:
    """What lets the advisor decide `sure` from the number of dice alone."""
    assert {frozenset(passion_die(size).scores) for size in SIZES} == {
        frozenset({(2, 0), (1, 0), (0, 1), (0, 2)})
    }


def test_every_pool_of_one_or_two_sizes_is_listed_once() -> None:
    assert len(list(pools(SIZES, 20))) == 8 * 20 + 28 * 190
    ranked = rank_pools(Conditions(talent=1), SIZES, max_dice=5)
    listed = ["+".join(f"{n}d{s}" for n, s in pool) for pool in pools(SIZES, 5)]
    assert sorted(c.dice for c in ranked) == sorted(listed)
    assert all(parse_dice(c.dice).notation() == c.dice for c in ranked)


@pytest.mark.parametrize(("written", "normal"), [("d6,d4", "d4,d6"), ("4 6 d6", "d4,d6")])
def test_sizes_are_read_with_or_without_d(written: str, normal: str) -> None:
    params = validate_params(AdviseParams, {"talent": 1, "difficulty": 1, "sizes": written})
    assert params.sizes == normal
    assert params.size_list() == [4, 6]


# --- the command line -----------------------------------------------------------------------------

ADVISE = ("advise", "passion", "action", "--talent", "2", "--difficulty", "1", "--sizes", "d4,d6")


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main([*args, "--json"])
    out, _err = capsys.readouterr()
    return code, json.loads(out)


def test_cli_advise_json(passion_actions: Registry, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = cli_json(capsys, *ADVISE, "--max-dice", "3", "--exact", "--all")
    assert code == 0
    assert [list(choice) for choice in out["choices"]] == [KEYS] * 9
    assert out["choices"][0] == {
        "dice": "2d6",
        "p_success": "23/36",
        "p_status_quo": "1/9",
        "p_failure": "1/4",
        "mean_margin": "3/4",
        "sure": False,
    }
    assert out["goal"] == "success"


def test_cli_advise_top_and_goal(
    passion_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = cli_json(capsys, *ADVISE, "--goal", "margin", "--top", "2")
    assert code == 0
    assert len(out["choices"]) == 2
    assert out["choices"][0]["mean_margin"] >= out["choices"][1]["mean_margin"]


def test_cli_advise_sure_and_text(
    passion_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("advise", "passion", "action", "--talent", "4", "--difficulty", "2", "--energy")
    code, out = cli_json(capsys, *args, "--top", "8")
    assert code == 0
    assert all(choice["sure"] for choice in out["choices"])
    assert main([*args, "--top", "3"]) == 0
    text, _err = capsys.readouterr()
    assert "1d4" in text and "✓" in text


def test_cli_advise_french_keeps_the_structure(
    passion_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    _code, english = cli_json(capsys, *ADVISE)
    code, french = cli_json(capsys, *ADVISE, "--lang", "fr")
    assert code == 0
    assert french.pop("summary").startswith(
        "Lancez 2d6\u00a0: 63,89 % de chances de réussite\u202f; "
    )
    assert english.pop("summary").startswith("Roll 2d6: 63.89 % chance of success; ")
    assert french == english, "only the sentence is in the reader's language"
    assert main([*ADVISE, "--lang", "fr", "--top", "2"]) == 0
    text, _err = capsys.readouterr()
    assert "P(réussite)" in text


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--talent", "2", "--difficulty", "1", "--sizes", "d4,d7"), "--sizes: d7"),
        (("--talent", "2", "--difficulty", "1", "--sizes", "d4,x"), "--sizes: x"),
        (("--talent", "2", "--difficulty", "1", "--sizes", ","), "no die size"),
        (("--talent", "-1", "--difficulty", "1"), "--talent: -1"),
        (("--talent", "2", "--difficulty", "1", "--max-dice", "0"), "--max-dice: 0"),
        (("--talent", "2", "--difficulty", "1", "--max-dice", "31"), "--max-dice: 31"),
        (("--talent", "2", "--difficulty", "1", "--min-dice", "11"), "--min-dice: 11"),
        (("--talent", "2", "--difficulty", "1", "--goal", "win"), "--goal: win"),
        (("--difficulty", "1"), "--talent"),
    ],
)
def test_cli_advise_bad_input_is_one_clear_line_and_exit_2(
    passion_actions: Registry,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    words: str,
) -> None:
    code = main(["advise", "passion", "action", *args])
    _out, err = capsys.readouterr()
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert words in err


# --- the recommendation in words ------------------------------------------------------------------


def goal_figures(r: dict[str, Any], goal: Goal) -> tuple[Fraction, Fraction]:
    """A pool's figure for `goal` and its first tie-breaker, from brute-force figures."""
    if goal == "success":
        return r["p_success"], -r["p_failure"]
    if goal == "no-failure":
        return 1 - r["p_failure"], r["p_success"]
    return r["mean_margin"], r["p_success"]


def expected_clause(best: dict[str, Any], more: dict[str, Any] | None, goal: Goal) -> str:
    """What more dice bring, from brute-force figures, in the words the summary must use."""
    if more is None:
        return "the most dice considered: more might do better (--max-dice)"
    figure = goal_figures(more, goal)[0]
    if figure == goal_figures(best, goal)[0]:
        return {
            "success": "more dice do not raise the odds of success",
            "no-failure": "more dice do not lower the odds of failure",
            "margin": "more dice do not raise the mean margin",
        }[goal]
    assert figure < goal_figures(best, goal)[0], "the best is best for its goal"
    more_successes = more["p_success"] > best["p_success"]
    p = f"{float(more['p_success']) * 100:.2f} %"
    if goal == "no-failure" and more_successes:
        return f"more dice bring more successes ({p}), but more failures too"
    if goal == "margin" and more_successes:
        return f"more dice bring more successes ({p}), but a lower mean margin"
    if goal == "margin":
        return "more dice only lower the mean margin"
    status_quo = more["p_status_quo"] > best["p_status_quo"]
    failures = more["p_failure"] > best["p_failure"]
    words = {(True, True): "status quo and failures", (True, False): "status quo"}
    return "more dice only add " + words.get((status_quo, failures), "failures")


@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize(
    "conditions",
    [
        Conditions(difficulty=0, talent=0),
        Conditions(difficulty=1, talent=2),
        Conditions(difficulty=0, talent=1, energy=True),
        Conditions(difficulty=3, talent=1, energy=True),
        Conditions(difficulty=0, talent=3, energy=True),
        Conditions(difficulty=4, talent=2, passion=1),
    ],
    ids=["t0-k0", "t2-k1", "t1-k0-energy", "t1-k3-energy", "t3-k0-energy", "t2-k4-passion"],
)
def test_summary_follows_the_brute_force_figures(goal: Goal, conditions: Conditions) -> None:
    """The best pool (or "any size"), its figure and what more dice bring, checked against the
    pools' figures by enumerating every face."""
    from jdr.systems.passion.advise_summary import summary

    sizes, max_dice = [4, 6], 3
    rows = {
        r["dice"]: r
        for r in (oracle(d, conditions) for d in oracle_ranking(conditions, sizes, max_dice, goal))
    }
    order = list(rows)
    best = rows[order[0]]
    more = next((rows[d] for d in order if rows[d]["count"] > best["count"]), None)
    sentence = summary(rank_pools(conditions, sizes, max_dice, goal, exact=True), goal)
    choice, rest = sentence.split(": ", 1)
    figure, clause = rest.removesuffix(".").split("; ")
    assert clause == expected_clause(best, more, goal)
    same_count = [d for d in order if rows[d]["count"] == best["count"]]
    tied = [d for d in same_count if goal_figures(rows[d], goal) == goal_figures(best, goal)]
    if len(tied) == len(same_count) > 1:
        assert choice == (
            "Roll 1 die, any size"
            if best["count"] == 1
            else f"Roll {best['count']} dice, any sizes"
        )
    else:
        assert choice == "Roll " + " or ".join(tied)
    if goal == "success":
        p = best["p_success"]
        assert figure == (
            "a sure success" if p == 1 else f"{float(p) * 100:.2f} % chance of success"
        )
    elif goal == "no-failure":
        p = 1 - best["p_failure"]
        assert figure == (
            "never a failure" if p == 1 else f"{float(p) * 100:.2f} % chance of no failure"
        )
    else:
        assert figure == f"a mean margin of {float(best['mean_margin']):.3f}"


def test_summary_of_the_issue_in_french() -> None:
    """Talent 0, difficulty 0: one die of any size is 50 % success, more dice add status quo."""
    from jdr.i18n import language
    from jdr.systems.passion.advise_summary import summary

    ranked = rank_pools(Conditions(difficulty=0, talent=0), SIZES, max_dice=3, exact=True)
    with language("fr"):
        assert summary(ranked, "success") == (
            "Lancez 1 dé, n'importe lequel\u00a0: 50,00 % de chances de réussite\u202f;"
            " plus de dés n'ajoute que du statu quo."
        )
    ranked = rank_pools(Conditions(difficulty=0, talent=2), [4, 6], max_dice=2, goal="no-failure")
    with language("fr"):
        assert summary(ranked, "no-failure") == (
            "Lancez 1 dé, n'importe lequel\u00a0: jamais d'échec\u202f; plus de dés apporte plus de"
            " réussites (75,00 %), mais aussi plus d'échecs."
        )


def test_summary_names_several_tied_pools_or_counts_them() -> None:
    from jdr.systems.passion.advise_summary import summary

    ranked = rank_pools(
        Conditions(difficulty=0, talent=1), [4, 6], max_dice=3, goal="margin", exact=True
    )
    assert summary(ranked, "margin").startswith("Roll 3d6 or 1d4+2d6: a mean margin of 0.875; ")
    every_size = rank_pools(Conditions(difficulty=0, talent=0), SIZES, max_dice=2, exact=True)
    assert summary(every_size, "success").startswith("Roll 1 die, any size: 50.00 %")
    no_d4 = [c for c in every_size if c.dice != "1d4"]  # 7 single dice tie, yet not every pool of 1
    fake = [
        no_d4[0],
        *no_d4[1:],
        Choice("1d4", 1, Fraction(0), Fraction(0), Fraction(1), Fraction(-1), False),
    ]
    assert summary(fake, "success").startswith(
        "Roll 1d6, 1d8, 1d10 or 4 other pools as good: 50.00 % chance of success; "
    )


def test_summary_is_given_by_the_advisor_in_json_and_first_in_text(
    passion_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("advise", "passion", "action", "--talent", "0", "--difficulty", "0", "--max-dice", "3")
    code, out = cli_json(capsys, *args, "--top", "2")
    assert code == 0
    assert (
        out["summary"]
        == "Roll 1 die, any size: 50.00 % chance of success; more dice only add status quo."
    )
    assert len(out["choices"]) == 2, "the sentence is computed from every pool, --top or not"
    assert main([*args, "--lang", "fr", "--top", "2"]) == 0
    text, _err = capsys.readouterr()
    assert text.splitlines()[0] == (
        "Lancez 1 dé, n'importe lequel\u00a0: 50,00 % de chances de réussite\u202f;"
        " plus de dés n'ajoute que du statu quo."
    )
    assert "P(réussite)" in text.splitlines()[2]


def test_no_negative_zero_in_the_advice_table(
    passion_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    """Talent 0, difficulty 0: every mean margin is 0, some reached as a float sum a hair below."""
    args = ("advise", "passion", "action", "--talent", "0", "--difficulty", "0", "--max-dice", "3")
    for lang in ("en", "fr"):
        assert main([*args, "--lang", lang]) == 0
        text, _err = capsys.readouterr()
        assert "-0.000" not in text and "-0,000" not in text
        assert ("0,000" if lang == "fr" else "0.000") in text


def test_cli_advise_shows_the_sentence_and_the_best_five_by_default(
    passion_actions: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    """One sentence and five rows, not the 1,340 pools: `--top N` for more, `--all` for all."""
    args = ("advise", "passion", "action", "--talent", "4", "--difficulty", "3")
    code, out = cli_json(capsys, *args)
    assert code == 0
    assert len(out["choices"]) == 5
    assert out["choices_total"] == 1340
    code, every = cli_json(capsys, *args, "--all")
    assert len(every["choices"]) == every["choices_total"] == 1340
    assert every["choices"][:5] == out["choices"], "the five shown are the five best"
    assert main([*args, "--lang", "fr"]) == 0
    text, _err = capsys.readouterr()
    rows = [line for line in text.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    assert [row.split()[0] for row in rows] == ["1", "2", "3", "4", "5"]
    assert text.startswith("Lancez 2d100\u00a0: ")
    assert (
        "Les 5 meilleurs de 1340 choix\u00a0: --top N pour en voir plus, --all pour tous." in text
    )
    assert main([*args, "--top", "0"]) == 2
    assert "--top" in capsys.readouterr().err
