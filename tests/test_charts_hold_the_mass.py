"""Issue 29, part 7: charts and JSON that hold the mass.

Every value holding at least 0.1 % of the chances is drawn, in value order, wherever it sits
(the homebrew strike's 90 % bar at 0 beside a hundred and fifty damage values); what is not
drawn is said in words, in French and English. `jdr roll --json` gives a record's `details`
under `details`, as docs/plugins.md and docs/api.md say, and never drops `outcome`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conftest import write_plugin
from homebrew_strike import StrikeParams, odds
from jdr.cli.app import main
from jdr.i18n import set_language
from jdr.prob.shown import FLOOR, shown_rows, tails_text
from jdr.systems import Action, Record, Registry, System, set_default_registry
from jdr.web.views import chart
from web_helpers import HOST, join, unique

STRIKE = odds(StrikeParams(accuracy=10, dice=30), exact=True).distribution


@pytest.fixture
def brawl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Registry:
    """The homebrew strike installed as a plug-in, found through its entry point."""
    site = write_plugin(tmp_path / "site", "brawl = homebrew_strike:SYSTEM")
    monkeypatch.syspath_prepend(str(site))
    registry = Registry.from_entry_points()
    assert "brawl" in registry.ids()
    set_default_registry(registry)
    return registry


def test_every_value_holding_a_tenth_of_a_percent_is_shown_in_value_order() -> None:
    held = shown_rows(STRIKE)
    kept = {value for value, p in STRIKE if p >= FLOOR}
    assert [value for value, _p in held.rows] == sorted(kept)
    assert held.rows[0] == (0, Fraction(9, 10))  # the likeliest value, first of all
    assert held.missing + sum(p for _v, p in held.rows) == 1  # nothing lost
    assert held.left_out == len(STRIKE) - len(kept)


def test_a_value_under_a_tenth_of_a_percent_is_not_shown_but_counted_in_its_tail() -> None:
    rows = [(1, Fraction(5, 10000)), (2, Fraction(6, 10)), (3, Fraction(3995, 10000))]
    rows += [(4, Fraction(1, 10000)), (5, Fraction(9, 10000))]
    held = shown_rows(rows)
    assert [value for value, _p in held.rows] == [2, 3]
    assert (held.below, held.above, held.gaps) == (Fraction(5, 10000), Fraction(1, 1000), [])
    # exactly 0.1 % is shown; just under it is not
    assert [v for v, _p in shown_rows([(0, FLOOR), (1, 1 - FLOOR)]).rows] == [0, 1]
    assert [v for v, _p in shown_rows([(0, FLOOR * 0.99), (1, 1 - FLOOR * 0.99)]).rows] == [1]


def test_the_tails_are_said_in_english_and_in_french() -> None:
    rows = [(1, Fraction(3, 1000)), (2, Fraction(6, 10)), (3, Fraction(5, 10000))]
    rows += [(4, Fraction(3955, 10000)), (40, Fraction(1, 1000)), (41, Fraction(1, 2000))]
    held = shown_rows(rows)
    assert tails_text(held) == "0.05 % of the chances between 2 and 4, 0.05 % above 40"
    set_language("fr")
    assert tails_text(held) == "0,05 % des chances entre 2 et 4, 0,05 % au-dessus de 40"
    below = shown_rows([(1, Fraction(3, 10000)), (2, Fraction(9997, 10000))])
    assert tails_text(below) == "0,03 % des chances en dessous de 2"
    none = shown_rows([(v, Fraction(1, 2000)) for v in range(2000)])
    assert not none.rows
    assert tails_text(none) == (
        "aucune valeur ne tient à elle seule 0,10 % des chances\u00a0: 2000 valeurs de 0 à 1999"
    )
    set_language("en")
    assert tails_text(shown_rows([(1, 1.0)])) == ""


def test_a_table_with_a_row_budget_keeps_its_likeliest_rows_and_says_the_rest() -> None:
    held = shown_rows(STRIKE, floor=0, limit=60)
    assert len(held.rows) == 60 and held.rows[0] == (0, Fraction(9, 10))
    assert held.missing + sum(p for _v, p in held.rows) == 1
    said = tails_text(held)
    assert re.fullmatch(r"\S+ % of the chances between 0 and 76, \S+ % above 134", said)


def test_the_web_chart_draws_the_90_percent_bar_at_0_and_every_likely_damage() -> None:
    drawn = chart(STRIKE)
    labels = [bar.label for bar in drawn.bars]
    assert labels[0] == "0" and drawn.bars[0].percent == "90.00 %"
    assert labels == [str(value) for value, p in STRIKE if p >= FLOOR]
    # the 90 % bar is broken (over ten times any other) so the damage stays readable
    zero, *damage = drawn.bars
    assert zero.broken and zero.tallest and zero.height == 120
    assert not any(bar.broken for bar in damage) and min(bar.height for bar in damage) >= 20
    assert damage[0].after_gap and not any(bar.after_gap for bar in damage[1:])
    # a bar not ten times taller than the next is drawn to scale
    assert [(b.height, b.broken) for b in chart([(0, 0.85), (1, 0.15)]).bars] == [
        (120, False),
        (21, False),
    ]
    assert drawn.tails == "0.49 % of the chances between 0 and 90, 0.49 % above 120"


@pytest.fixture
def app(database_url: str, brawl: Registry) -> Iterator[Any]:
    from jdr.web.app import create_app

    made = create_app(database_url, host_token=HOST, invite_attempts=1000)
    yield made
    made.state.store.close()


def test_the_roll_pages_odds_chart_holds_the_mass_with_its_table_in_both_languages(
    app: Any,
) -> None:
    store = app.state.store
    campaign = store.create_campaign("brawl", unique("Bagarre"))
    store.add_character(campaign, "Kira", {})
    player = join(app, store, campaign, "player", "Kira")
    asked = {"action": "strike", "accuracy": "10", "dice": "30"}
    page = player.client.get(f"/c/{campaign}/odds", params=asked).text
    bars = re.findall(r"<title>(\d+): ([\d.]+ %)</title>", page)
    assert bars[0] == ("0", "90.00 %") and len(bars) == 32
    assert [int(value) for value, _p in bars] == [0, *range(90, 121)]
    assert "0.49 % of the chances between 0 and 90, 0.49 % above 120" in page
    assert '<svg role="img" aria-labelledby="chart-says"' in page
    assert "A broken bar is taller than drawn." in page
    assert '<td>0</td><td class="p">90.00 %</td>' in page  # the chart as a table
    french = player.client.get(
        f"/c/{campaign}/odds", params=asked, headers={"accept-language": "fr"}
    ).text
    assert "0,49 % des chances entre 0 et 90, 0,49 % au-dessus de 120" in french
    titles = re.findall(r"<title>(\d+)\s: ([\d,]+ %)</title>", french)
    assert titles[0] == ("0", "90,00 %")
    assert titles == [(v, p.replace(".", ",")) for v, p in bars]


def test_roll_json_gives_details_under_details_and_keeps_the_outcome(
    brawl: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    code = main(["roll", "brawl", "strike", "--dice", "2", "--faces", "7,3,4", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["outcome"] == "hit" and (out["damage"], out["hit"]) == (7, True)
    assert out["details"] == {"outcome": "the strike's own word", "aim": 7}
    assert "aim" not in out


def test_roll_json_refuses_a_total_named_like_a_key_of_every_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def roll(params: StrikeParams, rng: Any) -> Record:
        return Record("hit", {"outcome": 3}, rng.faces(6, 1), lambda: "3")

    clumsy = System(
        "clumsy", {"fr": "Maladroit", "en": "Clumsy"}, {"hit": Action("hit", StrikeParams, roll)}
    )
    set_default_registry(Registry({"clumsy": clumsy}))
    code = main(["roll", "clumsy", "hit", "--faces", "3", "--json"])
    captured = capsys.readouterr()
    assert code == 2
    error = __import__("json").loads(captured.out)["error"]
    assert error["code"] == "plugin" and "outcome" in error["message"]
    assert "rename" in error["message"]


def test_the_web_apis_roll_answers_the_same_shape(app: Any) -> None:
    store = app.state.store
    campaign = store.create_campaign("brawl", unique("Bagarre"))
    store.add_character(campaign, "Kira", {})
    player = join(app, store, campaign, "player", "Kira")
    rolled = player.api(
        f"/api/c/{campaign}/roll", {"action": "strike", "params": {"accuracy": 10, "dice": 2}}
    )
    assert rolled.status_code == 200, rolled.text
    answer = rolled.json()
    assert answer["outcome"] in ("hit", "miss") and {"damage", "hit", "journal"} <= set(answer)
    assert answer["details"]["outcome"] == "the strike's own word"
    assert answer["details"]["aim"] == answer["faces"][0] and "aim" not in answer


def test_the_cli_odds_table_keeps_the_90_percent_row_and_says_the_rest_in_both_languages(
    brawl: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odds", "brawl", "strike"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\s+0\s+90\.00 %\s+100 %", out, re.MULTILINE)
    assert re.search(
        r"… 92 more rows, too unlikely to show: \S+ % of the chances between 0 and 76, "
        r"\S+ % above 134 \(--json lists every row\)",
        out,
    )
    assert (
        main(["odds", "brawl", "strike", "--accuracy", "100", "--dice", "40", "--lang", "fr"]) == 0
    )
    french = capsys.readouterr().out
    assert (
        "… 142 lignes de plus, trop improbables pour être affichées\u00a0: 0,22 % des chances en "
        "dessous de 110, 0,30 % au-dessus de 169 (--json donne toutes les lignes)"
    ) in french
