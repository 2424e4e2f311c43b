"""Issue 21 item 3: "the web table shows the same report" — `/c/ID/simulate` plays the fight of the
characters ticked on each side through the same service as `jdr simulate`, with the same numbers
for the same seed; bounded work, clear refusals, every member may read it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from cli_run import answer
from jdr.store import Store
from web_helpers import example_table, join, plus_ultra_table, unique

HERO, VILLAIN = "Kaito Arashi", "Maître Corbeau"


@pytest.fixture
def table(database_url: str) -> Iterator[tuple[Any, Store, int]]:
    made = plus_ultra_table(database_url, "Sim")
    yield made
    made[1].close()


def _percents(html: str) -> list[str]:
    wins = html.split('<table class="wins">', 1)[1].split("</table>", 1)[0]
    return re.findall(r"<td>(\d+\.\d %)</td>", wins)


def test_pu_4_the_page_reports_what_jdr_simulate_reports(
    table: tuple[Any, Store, int], capsys: pytest.CaptureFixture[str]
) -> None:
    app, store, campaign_id = table
    player = join(app, store, campaign_id, "player", HERO)
    page = player.client.get(
        f"/c/{campaign_id}/simulate", params={"with": HERO, "against": VILLAIN, "runs": 300,
                                               "seed": 7},
    )  # fmt: skip
    assert page.status_code == 200, page.text
    assert "300 fights, seed 7" in page.text and HERO in page.text
    cli = answer(
        capsys, "simulate", "plus-ultra", "--campaign", store.campaign_by_id(campaign_id).name,
        "--with", HERO, "--against", VILLAIN, "--runs", "300", "--seed", "7", "--workers", "1",
        "--db", str(store.engine.url.render_as_string(hide_password=False)),
    )  # fmt: skip
    expected = [f"{100 * cli['wins'][side]['rate']:.1f} %" for side in (HERO, VILLAIN)]
    assert _percents(page.text)[:2] == expected
    spectator = join(app, store, campaign_id, "spectator")
    assert spectator.client.get(f"/c/{campaign_id}/simulate").status_code == 200  # the form


def test_pu_4_bounded_work_and_clear_refusals(table: tuple[Any, Store, int]) -> None:
    app, store, campaign_id = table
    gm = join(app, store, campaign_id, "gm")
    path = f"/c/{campaign_id}/simulate"
    both = {"with": HERO, "against": VILLAIN}
    too_many = gm.client.get(path, params=both | {"runs": 2_001})
    assert too_many.status_code == 422 and "1 … 2000" in too_many.text
    assert gm.client.get(path, params=both | {"runs": "many"}).status_code == 422
    one_side = gm.client.get(path, params={"with": HERO})
    assert one_side.status_code == 422 and "a side has nobody" in one_side.text
    nobody = gm.client.get(path, params={"with": HERO, "against": "Nobody"})
    assert nobody.status_code in (404, 422) and "Traceback" not in nobody.text
    other = store.create_campaign("plus-ultra", unique("Other"))
    assert gm.client.get(f"/c/{other}/simulate", params=both).status_code in (403, 404)


def test_pu_4_a_malformed_number_is_a_clear_refusal(table: tuple[Any, Store, int]) -> None:
    app, store, campaign_id = table
    gm = join(app, store, campaign_id, "gm")
    for bad in ("--5", "1e3", "9" * 20, "½"):
        answer = gm.client.get(
            f"/c/{campaign_id}/simulate", params={"with": HERO, "against": VILLAIN, "runs": bad}
        )
        assert answer.status_code == 422 and "a whole number" in answer.text, bad


def test_ps_9_a_passion_fight_is_simulated_on_the_page_as_jdr_simulate_does(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Passion's default tactic (issue 21) behind the same page: Romuald against the ninja."""
    app, store, campaign_id = example_table(
        database_url, "SimPassion", "passion", ("romuald", "cyber-ninja")
    )
    try:
        gm = join(app, store, campaign_id, "gm")
        both: dict[str, str | int] = {"with": "Romuald", "against": "Cyber-ninja"}
        both |= {"runs": 100, "seed": 3}
        page = gm.client.get(f"/c/{campaign_id}/simulate", params=both)
        assert page.status_code == 200, page.text
        assert "100 fights, seed 3" in page.text and "Cyber-ninja" in page.text
        cli = answer(
            capsys, "simulate", "passion", "--campaign", store.campaign_by_id(campaign_id).name,
            "--with", "Romuald", "--against", "Cyber-ninja", "--runs", "100", "--seed", "3",
            "--workers", "1",
            "--db", str(store.engine.url.render_as_string(hide_password=False)),
        )  # fmt: skip
        sides = ("Romuald", "Cyber-ninja")
        expected = [f"{100 * cli['wins'][side]['rate']:.1f} %" for side in sides]
        assert _percents(page.text)[:2] == expected
    finally:
        store.close()


def test_pk_14_the_page_offers_the_systems_tactics_and_plays_the_one_chosen(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pokémon names a second tactic (countering): the page offers it, in the reader's
    language, plays it, and says so above the report, as `jdr simulate --tactic` does."""
    import tomllib

    from jdr.characters import service
    from jdr.sheet_check import systems_example

    app, store, campaign_id = example_table(database_url, "SimPokemon", "pokemon", ("pokemon",))
    try:
        other = tomllib.loads(systems_example("pokemon", "pokemon")) | {"name": "Raichu"}
        service.add(store, store.campaign_by_id(campaign_id), other)
        gm = join(app, store, campaign_id, "gm")
        path = f"/c/{campaign_id}/simulate"
        form = gm.client.get(path)
        assert '<option value="countering">countering</option>' in form.text
        params: dict[str, str | int] = {"with": "Pikachu", "against": "Raichu", "runs": 40}
        params |= {"seed": 2, "tactic": "countering"}
        page = gm.client.get(path, params=params)
        assert page.status_code == 200, page.text
        assert "40 fights, seed 2, tactic countering" in page.text
        assert '<option value="countering" selected>' in page.text
        cli = answer(
            capsys, "simulate", "pokemon", "--campaign", store.campaign_by_id(campaign_id).name,
            "--with", "Pikachu", "--against", "Raichu", "--runs", "40", "--seed", "2",
            "--workers", "1", "--tactic", "countering",
            "--db", str(store.engine.url.render_as_string(hide_password=False)),
        )  # fmt: skip
        assert cli["tactic"] == "countering"
        wrong = gm.client.get(path, params=params | {"tactic": "nope"})
        assert wrong.status_code == 404 and "countering" in wrong.text  # an unknown name
        french = gm.client.get(path, params=params, headers={"Accept-Language": "fr"})
        assert "contre-attaque" in french.text
        # two Pikachu dodging each other until their Énergie is spent: mostly stalemates, said so
        assert "no winner: a draw, a fight that could no longer end" in page.text
    finally:
        store.close()
