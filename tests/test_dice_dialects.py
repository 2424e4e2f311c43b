"""The dice languages people already type (issue 33, part 3): each form of Roll20,
DiceParser/Rolisteam, Dice Maiden, Avrae and Foundry read with its tool's meaning.

Every form is checked three ways: its exact odds against a brute-force enumeration written here
from the tool's documentation (small cases, explosions and rerolls capped at `CAP`), the real
roller on seeded dice against those odds, and its journal text read back to the same roll.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_run import run
from jdr.dice import GivenFaces, Seeded
from jdr.dice.notation import notes, odds, parse, parse_rolls, roll
from jdr.dice.notation.probability import total_distribution
from jdr.errors import InputError
from jdr.i18n import language as use_language

CAP = 2
"""Explosions and rerolls a brute-force die may make (the odds take the same cap)."""

Outcomes = list[tuple[int, Fraction]]


def plain(size: int) -> Outcomes:
    return [(face, Fraction(1, size)) for face in range(1, size + 1)]


def fate() -> Outcomes:
    return [(value, Fraction(1, 3)) for value in (-1, 0, 1)]


def exploding(size: int, cap: int = CAP) -> Outcomes:
    """Roll; on the highest face roll again and add, at most `cap` times (every chain listed)."""
    found: Outcomes = []

    def chain(total: int, p: Fraction, depth: int) -> None:
        for face in range(1, size + 1):
            q = p / size
            if face == size and depth < cap:
                chain(total + face, q, depth + 1)
            else:
                found.append((total + face, q))

    chain(0, Fraction(1), 0)
    return found


def rerolling(size: int, again: Callable[[int], bool], times: int) -> Outcomes:
    """Roll; while the face matches, roll again (at most `times`); the last face counts."""
    found: Outcomes = []

    def draw(p: Fraction, depth: int) -> None:
        for face in range(1, size + 1):
            q = p / size
            if again(face) and depth < times:
                draw(q, depth + 1)
            else:
                found.append((face, q))

    draw(Fraction(1), 0)
    return found


def brute(dice: Sequence[Outcomes], total: Callable[[tuple[int, ...]], int]) -> dict[int, Fraction]:
    """Every combination of the dice's outcomes, its probability, its total."""
    out: dict[int, Fraction] = Counter()  # type: ignore[assignment]
    for combination in itertools.product(*dice):
        values = tuple(value for value, _p in combination)
        out[total(values)] += math.prod((p for _v, p in combination), start=Fraction(1))
    return dict(out)


def top(values: tuple[int, ...], n: int) -> int:
    return sum(sorted(values)[-n:])


# (form as typed, its source tool, how jdr writes it, the dice, the total by the tool's meaning)
FORMS: list[tuple[str, str, str, list[Outcomes], Callable[[tuple[int, ...]], int]]] = [
    ("4d6k2", "Roll20, DiceParser, Dice Maiden", "4d6kh2", [plain(6)] * 4, lambda v: top(v, 2)),
    ("3d4k1", "Roll20, DiceParser, Dice Maiden", "3d4kh1", [plain(4)] * 3, max),
    ("3d4e4", "DiceParser, Dice Maiden", "3d4!", [exploding(4)] * 3, sum),
    ("2d4e", "DiceParser", "2d4!", [exploding(4)] * 2, sum),
    ("3d4!!", "Roll20 (compounding)", "3d4!", [exploding(4)] * 3, sum),
    ("3D6c[>=5]", "DiceParser", "3d6>=5", [plain(6)] * 3, lambda v: sum(x >= 5 for x in v)),
    ("3d6cs>=5", "Foundry", "3d6>=5", [plain(6)] * 3, lambda v: sum(x >= 5 for x in v)),
    ("3d6t5", "Dice Maiden", "3d6>=5", [plain(6)] * 3, lambda v: sum(x >= 5 for x in v)),
    (
        "3d6 t5 f1",
        "Dice Maiden",
        "3d6>=5f1",
        [plain(6)] * 3,
        lambda v: sum(x >= 5 for x in v) - sum(x == 1 for x in v),
    ),
    ("1d6+2#Attaque", "DiceParser, Avrae", "1d6+2 #Attaque", [plain(6)], lambda v: v[0] + 2),
    ("1d6+2 Attaque", "Dice Maiden, Avrae", "1d6+2 #Attaque", [plain(6)], lambda v: v[0] + 2),
    ("/roll 1d6+2", "Roll20, Dice Maiden", "1d6+2", [plain(6)], lambda v: v[0] + 2),
    ("!r 1d6+2", "Avrae", "1d6+2", [plain(6)], lambda v: v[0] + 2),
    ("3d4r1", "Roll20", "3d4r1", [rerolling(4, lambda f: f == 1, CAP)] * 3, sum),
    ("3d4rr1", "Avrae", "3d4r1", [rerolling(4, lambda f: f == 1, CAP)] * 3, sum),
    ("2d6r<2", "Roll20", "2d6r<2", [rerolling(6, lambda f: f < 2, CAP)] * 2, sum),
    ("4d6ro1", "Roll20, Avrae", "4d6ro1", [rerolling(6, lambda f: f == 1, 1)] * 4, sum),
    ("4dF", "Roll20, DiceParser, Foundry", "4dF", [fate()] * 4, sum),
    ("1d20adv", "Avrae", "2d20kh1", [plain(20)] * 2, max),
    ("1d20 dis", "Avrae", "2d20kl1", [plain(20)] * 2, min),
    ("(1d6+2)*2", "Roll20, DiceParser, Avrae", "(1d6+2)*2", [plain(6)], lambda v: (v[0] + 2) * 2),
    ("1d20/2", "Roll20, DiceParser, Avrae", "1d20/2", [plain(20)], lambda v: v[0] // 2),
    ("(1d6-4)/3", "Roll20, DiceParser, Avrae", "(1d6-4)/3", [plain(6)], lambda v: (v[0] - 4) // 3),
    ("2*(1d4)", "Roll20, DiceParser, Avrae", "1d4*2", [plain(4)], lambda v: 2 * v[0]),
    ("1d8+1d6[feu]", "Avrae, Roll20", "1d8+1d6[feu]", [plain(8), plain(6)], sum),
    ("4d6>4", "jdr (Roll20: 4+)", "4d6>4", [plain(6)] * 4, lambda v: sum(x > 4 for x in v)),
    (
        "4d4r1k2",
        "Roll20",
        "4d4r1kh2",
        [rerolling(4, lambda f: f == 1, CAP)] * 4,
        lambda v: top(v, 2),
    ),
    ("3dFk2", "Roll20", "3dFkh2", [fate()] * 3, lambda v: top(v, 2)),
    ("2d4e t5", "Dice Maiden", "2d4!>=5", [exploding(4)] * 2, lambda v: sum(x >= 5 for x in v)),
]


Total = Callable[[tuple[int, ...]], int]
PARAMETERS = ("typed", "tool", "written", "dice", "total")


@pytest.mark.parametrize(PARAMETERS, FORMS, ids=[f[0] for f in FORMS])
def test_every_form_has_its_tools_meaning_by_brute_force(
    typed: str, tool: str, written: str, dice: list[Outcomes], total: Total
) -> None:
    expression = parse(typed)
    assert expression.text == written, tool
    exact = total_distribution(expression, exact=True, cap=CAP)
    found = {value[0]: p for value, p in exact.items() if p}
    assert found == {v: p for v, p in brute(dice, total).items() if p}


@pytest.mark.parametrize(PARAMETERS, FORMS, ids=[f[0] for f in FORMS])
def test_every_form_rolls_as_its_odds_say(
    typed: str, tool: str, written: str, dice: list[Outcomes], total: Total
) -> None:
    """The real roller on seeded dice: 1,500 rolls, each total possible, the mean within 5
    standard errors of the exact mean; each roll replays from its faces and its journal text."""
    expression = parse(typed)
    distribution = odds(expression, exact=True)
    possible = {value[0] for value, p in distribution.items() if p}
    mean = float(distribution.mean())
    spread = math.sqrt(float(distribution.mean(lambda v: (v[0] - mean) ** 2)))
    source = Seeded(7)
    totals = []
    for _ in range(1500):
        rolled = roll(expression, source)
        assert rolled.total in possible
        again = roll(parse(expression.text), GivenFaces(rolled.faces))  # as the journal replays
        assert again.total == rolled.total and again.explain() == rolled.explain()
        totals.append(rolled.total)
    assert abs(sum(totals) / len(totals) - mean) <= 5 * spread / math.sqrt(len(totals)) + 1e-9


def test_forms_from_the_issue_are_all_accepted() -> None:
    typed = [
        "8d10k3", "4d6k3", "4d10e10", "2d10e", "3d6!!", "3D10c[>=7]", "5d10cs>=8", "6d10t7",
        "1d20+5#Attaque", "1d20+5 Attaque", "/roll 1d20+5", "3d6r1", "4d6ro1", "4dF", "1d20adv",
        "(1d6+2)*2", "1d20/2", "2d6 ; 1d20", "1d8+1d6[feu]", "10d10>7",
    ]  # fmt: skip
    for text in typed:
        for expression in parse_rolls(text):
            assert odds(expression, exact=True).total() == 1


def test_explode_on_the_highest_face_only_when_written_with_e() -> None:
    assert parse("4d10e10") == parse("4d10!")
    with pytest.raises(InputError, match="highest face"):
        parse("4d10e8")


def test_several_rolls_each_with_its_own_result() -> None:
    rolls = parse_rolls("2d6 ; 1d20, 1d4#Soin")
    assert [r.text for r in rolls] == ["2d6", "1d20", "1d4 #Soin"]
    source = GivenFaces([3, 4, 17, 2])
    explained = [roll(r, source).explain() for r in rolls]
    assert explained == ["2d6 (3, 4) = 7", "1d20 (17) = 17", "Soin: 1d4 (2) = 2"]
    with pytest.raises(InputError, match="several rolls"):
        parse("2d6;1d20")


def test_labels_kept_in_the_result() -> None:
    rolled = roll(parse("1d20+5 Attaque du dragon"), GivenFaces([12]))
    assert rolled.label == "Attaque du dragon"
    assert rolled.explain() == "Attaque du dragon: 1d20 (12) + 5 = 17"
    fire = roll(parse("1d8+1d6[feu]+2d6[feu]"), GivenFaces([5, 3, 1, 2]))
    assert fire.labels() == {"feu": 6}
    assert fire.explain() == "1d8 (5) + 1d6[feu] (3) + 2d6[feu] (1, 2) = 11"
    word = roll(parse("1d8 dégâts"), GivenFaces([4]))  # a word starting with d is still a label
    assert word.explain() == "dégâts: 1d8 (4) = 4"


def test_explanations_of_the_new_pools() -> None:
    assert roll(parse("3d6r1"), GivenFaces([1, 5, 2, 1, 4])).explain() == (
        "3d6r1 (~~1~~→~~1~~→4, 5, 2) = 11"
    )
    assert roll(parse("4dF"), GivenFaces([3, 2, 1, 3])).explain() == "4dF (+, 0, -, +) = 1"
    assert roll(parse("(1d6+2)*2"), GivenFaces([4])).explain() == "(1d6 (4) + 2)*2 = 12"
    assert roll(parse("1d20/2"), GivenFaces([15])).explain() == "1d20 (15)/2 = 7"
    assert roll(parse("1d20adv"), GivenFaces([5, 19])).explain() == "2d20kh1 (~~5~~, 19) = 19"


def test_division_rounds_down() -> None:
    assert odds(parse("1d3/2"), exact=True).to_list() == [
        (0, Fraction(1, 3)),
        (1, Fraction(2, 3)),
    ]
    assert roll(parse("(1d4-4)/3"), GivenFaces([2])).total == -1  # -2 // 3, towards minus infinity
    assert parse("7/2+1d4").text == "3+1d4"


def test_roll20_comparison_note() -> None:
    """`10d10>7`: jdr counts 8–10 and says in one line that Roll20 counts 7–10."""
    expression = parse("10d10>7")
    assert odds(expression, exact=True).mean() == 3
    assert notes(expression) == [
        ">7: jdr counts the dice above 7 (8 and more); Roll20 counts 7 and more: write >=7 for that"
    ]
    assert notes(parse("10d10>=7")) == notes(parse("10d10t7")) == notes(parse("3D10c[>7]")) == []
    (foundry,) = notes(parse("5d10cs>=8"))  # Foundry counts; Roll20's cs only marks criticals
    assert "Foundry" in foundry and "Roll20" in foundry
    with use_language("fr"):
        (line,) = notes(expression)
    assert "Roll20" in line and "au-dessus de 7" in line


@pytest.mark.parametrize(
    ("typed", "english", "french"),
    [
        ("4d6d1", "write 4d6dl1", "écrivez 4d6dl1"),
        ("3d6!p", "write 3d6!", "écrivez 3d6!"),
        ("4d6ie", "write 4d6!", "écrivez 4d6!"),
        ("1d6x2", "write 1d6*2", "écrivez 1d6*2"),
        ("floor(1d20/2)", "/ already rounds down", "/ arrondit déjà vers le bas"),
        ("4d6mi2", "4d6r<2", "4d6r<2"),
        ("{4d6}kh1", "4d6kh3", "4d6kh3"),
        ("3d6ra1", "3d6r1", "3d6r1"),
        ("4d6k>3", "write 4d6>3", "écrivez 4d6>3"),
        ("1d20*1d6", "whole numbers only", "nombres entiers"),
        ("2d20adv", "2d20kh1", "2d20kh1"),
        ("4d10e8", "1d10!", "1d10!"),
        ("1d100cf<5", "count them with 1d100<=5", "comptez-les avec 1d100<=5"),
        ("1d20cs20", "count them with 1d20=20", "comptez-les avec 1d20=20"),
    ],
)
def test_foreign_forms_get_their_jdr_equivalent_in_both_languages(
    typed: str, english: str, french: str
) -> None:
    for language, expected in (("en", english), ("fr", french)):
        with use_language(language), pytest.raises(InputError) as refused:
            parse(typed)
        assert expected in refused.value.message(), (language, refused.value.message())


def test_limits_still_hold() -> None:
    with pytest.raises(InputError, match="too many dice"):
        parse_rolls("600d6 ; 600d6")
    with pytest.raises(InputError, match="every face"):
        parse("3d6r<7")
    with pytest.raises(InputError, match="too many dice"):
        parse("(1001d6)*2")
    with pytest.raises(InputError, match="division by zero"):
        parse("1d6/0")


# --- the command line --------------------------------------------------------------------------


def test_cli_json_keeps_labels_and_notes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "dice", "1d20+5 #Attaque", "--faces", "12", "--json")
    assert code == 0
    assert json.loads(out)["label"] == "Attaque"
    code, out, _err = run(capsys, "dice", "1d8+1d6[feu]", "--faces", "3,5", "--json")
    assert json.loads(out)["labels"] == {"feu": 5}
    code, out, _err = run(capsys, "dice", "10d10>7", "--faces", "1,2,3,4,5,6,7,8,9,10", "--json")
    payload = json.loads(out)
    assert payload["total"] == 3 and "Roll20" in payload["notes"][0]


def test_cli_several_rolls(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "dice", "/r 2d6 ; 1d20", "--faces", "3,4,17")
    assert code == 0
    assert out.splitlines() == ["2d6 (3, 4) = 7", "1d20 (17) = 17"]
    code, out, _err = run(capsys, "dice", "2d6 ; 1d20", "--faces", "3,4,17", "--json")
    assert [r["total"] for r in json.loads(out)["rolls"]] == [7, 17]
    code, out, _err = run(capsys, "dice", "1d4;1d2", "--odds", "--exact", "--json")
    rolls = json.loads(out)["rolls"]
    assert [len(r["distribution"]) for r in rolls] == [4, 2]


def test_explosions_kept_or_counted_say_how_roll20_reads_them() -> None:
    """jdr's `!` (and `e`) add an explosion to its die, as Roll20's `!!`; kept or counted, a
    note says that Roll20's `!` and Dice Maiden's `e` make each explosion a die of its own."""
    (line,) = notes(parse("6d10e10t8"))
    assert "Dice Maiden" in line and "!!" in line
    assert notes(parse("4d6!!kh3")) == notes(parse("3d6!")) == []
    assert roll(parse("2d10e t8"), GivenFaces([10, 3, 9])).explain() == "2d10!>=8 (10!+9✓, 3) = 1"


def test_cli_several_rolls_refuse_one_action_id(
    capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    assert run(capsys, "campaign", "new", "C", "--system", "pokemon", "--db", db)[0] == 0
    code, _out, err = run(
        capsys, "dice", "2d6 ; 1d20", "--campaign", "C", "--action-id", "x", "--db", db
    )
    assert code == 2 and "--action-id" in err


def test_cli_hint_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "dice", "4d6d1", "--lang", "fr")
    assert code == 2
    assert "écrivez 4d6dl1" in err and "Traceback" not in err


def test_cli_journaled_forms_verify(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """New forms through a campaign's journal: each roll its own entry, replayed by `verify`."""
    db = f"sqlite:///{tmp_path}/t.db"
    assert run(capsys, "campaign", "new", "C", "--system", "pokemon", "--db", db)[0] == 0
    for text in ("8d10k3 ; 4dF", "(1d6+2)*2 Attaque", "3d6r1", "1d8+1d6[feu]", "10d10>7"):
        code, out, err = run(capsys, "dice", text, "--campaign", "C", "--db", db)
        assert code == 0, out + err
    assert run(capsys, "campaign", "reveal", "C", "--db", db)[0] == 0
    path = tmp_path / "journal.json"
    assert run(capsys, "journal", "export", "C", "--output", str(path), "--db", db)[0] == 0
    code, out, err = run(capsys, "verify", str(path), "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"], report
    assert report["entries"] == 6


# --- the pools as public API (jdr.dice.notation.pools) -----------------------------------------


@pytest.mark.parametrize(
    ("text", "tally", "dice", "rule"),
    [
        ("4d6kh2", "=1", [plain(6)] * 4, lambda v: (top(v, 2), sum(x == 1 for x in v))),
        ("4d6kl2", ">=5", [plain(6)] * 4, lambda v: (sum(sorted(v)[:2]), sum(x >= 5 for x in v))),
        ("3d6", "<=2", [plain(6)] * 3, lambda v: (sum(v), sum(x <= 2 for x in v))),
        (
            "4d4ro1kh3",
            "=1",
            [rerolling(4, lambda f: f == 1, 1)] * 4,
            lambda v: (top(v, 3), sum(x == 1 for x in v)),
        ),
        ("3dF", "=-1", [fate()] * 3, lambda v: (sum(v), sum(x == -1 for x in v))),
        (
            "5d6>=5kh3",
            "=6",
            [plain(6)] * 5,
            lambda v: (sum(x >= 5 for x in sorted(v)[-3:]), sum(x == 6 for x in v)),
        ),
    ],
)
def test_pool_odds_with_a_tally_by_brute_force(
    text: str, tally: str, dice: list[Outcomes], rule: Callable[[tuple[int, ...]], Any]
) -> None:
    from jdr.dice.notation.pools import pool, pool_odds

    joint = pool_odds(pool(text), tally=tally, exact=True)
    found = {value: p for value, p in joint.items() if p}
    expected: dict[Any, Fraction] = Counter()  # type: ignore[assignment]
    for combination in itertools.product(*dice):
        values = tuple(value for value, _p in combination)
        expected[rule(values)] += math.prod((p for _v, p in combination), start=Fraction(1))
    assert found == {k: p for k, p in expected.items() if p}
    floats = pool_odds(pool(text), tally=tally)
    for value, p in found.items():
        assert floats.probability(value) == pytest.approx(float(p), abs=1e-12)


def test_the_homebrew_catastrophe_in_a_few_lines() -> None:
    """docs/api.md's plug-in: keep the two highest d10, a 10 explodes, half the dice showing 1
    is a catastrophe. The joint odds agree with the pool's own odds and with the roller."""
    from jdr.dice.notation.pools import pool, pool_odds, roll_pool, tallied

    five = pool("5d10!kh2")
    joint = pool_odds(five, tally="=1")
    catastrophe = sum(p for (_kept, ones), p in joint.items() if 2 * ones >= five.count)
    assert catastrophe == pytest.approx(0.00856, abs=1e-12)  # P(3 or more ones of 5)
    marginal = joint.marginal(0)
    alone = odds(parse("5d10!kh2"))
    assert marginal.offset == alone.offset
    assert marginal.weights[: alone.weights.shape[0]] == pytest.approx(alone.weights, abs=1e-15)
    source = Seeded(11)
    hits = sum(2 * tallied(roll_pool(five, source), "=1") >= 5 for _ in range(4000))
    assert abs(hits / 4000 - catastrophe) < 5 * math.sqrt(catastrophe / 4000)


def test_a_tally_in_the_middle_of_the_die_is_refused() -> None:
    from jdr.dice.notation.pools import pool, pool_odds

    with pytest.raises(InputError, match="one end"):
        pool_odds(pool("4d6kh2"), tally="=3")
    with pytest.raises(InputError, match="one dice term"):
        pool("2d6+1")


# --- property: any combination of the forms, as typed ------------------------------------------


@st.composite
def typed_terms(draw: st.DrawFn) -> str:
    """A dice term the way another tool's user types it: spellings and modifiers in any order."""
    fate = draw(st.booleans()) and draw(st.booleans())
    size = 3 if fate else draw(st.sampled_from([2, 4, 6]))
    count = draw(st.integers(1, 4))
    modifiers = []
    if not fate and draw(st.booleans()):
        modifiers.append(draw(st.sampled_from(["!", "!!", "e", f"e{size}"])))
    elif draw(st.booleans()):
        once = draw(st.booleans())
        low = -1 if fate else 1
        modifiers.append(("ro" if once else draw(st.sampled_from(["r", "rr"]))) + f"{low}")
    if count > 1 and draw(st.booleans()):
        modifiers.append(
            draw(st.sampled_from(["k", "kh", "kl", "dl"])) + str(draw(st.integers(1, count - 1)))
        )
    if draw(st.booleans()):
        target = draw(st.integers(0 if fate else 1, size))
        modifiers.append(
            draw(st.sampled_from([f">={target}", f"t{target}", f"cs>={target}", f"c[>={target}]"]))
        )
    order = draw(st.permutations(modifiers))
    return f"{count}d{'F' if fate else size}" + "".join(order)


@given(
    terms=st.lists(typed_terms(), min_size=1, max_size=2),
    constant=st.integers(0, 5),
    scale_by=st.sampled_from(["", "*2", "/2", "/3"]),
    label=st.sampled_from(["", " #Attaque", " Attaque"]),
    fire=st.booleans(),
    seed=st.integers(0, 10_000),
)
@settings(max_examples=60, deadline=None)
def test_any_combination_rolls_within_its_odds_and_replays(
    terms: list[str], constant: int, scale_by: str, label: str, fire: bool, seed: int
) -> None:
    body = "+".join([terms[0] + "[feu]" * fire, *terms[1:]]) + f"+{constant}"
    typed = (f"({body}){scale_by}" if scale_by else body) + label
    expression = parse(typed)
    again = parse(expression.text)
    assert again == expression
    distribution = odds(expression)
    rolled = roll(expression, Seeded(seed))
    assert distribution.probability(rolled.total) > 0
    replayed = roll(again, GivenFaces(rolled.faces))
    assert (replayed.total, replayed.explain()) == (rolled.total, rolled.explain())
    assert float(distribution.total()) == pytest.approx(1.0)
