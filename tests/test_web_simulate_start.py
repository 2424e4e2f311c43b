"""Issue 29 part 5 on the web table: the simulation page and `POST /api/c/ID/simulate` start
from full gauges unless "as is" is ticked, show each fighter's starting gauges and warn of one at
0, name the sides as the GM typed them (or by their fighters), and label the system's columns —
the same report as `jdr simulate`."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from typing import Any

import pytest

from cli_run import answer
from jdr.characters import service
from jdr.sheet_check import systems_example
from jdr.store import Store
from web_helpers import example_table, join


@pytest.fixture
def pokemon_table(database_url: str) -> Iterator[tuple[Any, Store, int]]:
    """Pikachu, and Raichu left at Énergie 0 by a fight."""
    app, store, campaign_id = example_table(database_url, "SimStart", "pokemon", ("pokemon",))
    raichu = tomllib.loads(systems_example("pokemon", "pokemon")) | {"name": "Raichu"}
    raichu["energy"] = {"current": 0, "max": raichu["energy"]["max"]}
    service.add(store, store.campaign_by_id(campaign_id), raichu)
    yield app, store, campaign_id
    store.close()


BOTH: dict[str, str | int] = {"with": "Pikachu", "against": "Raichu", "runs": 60, "seed": 4}


def test_pk_10_the_page_starts_full_unless_as_is_and_warns_of_a_gauge_at_0(
    pokemon_table: tuple[Any, Store, int],
) -> None:
    app, store, campaign_id = pokemon_table
    gm = join(app, store, campaign_id, "gm")
    path = f"/c/{campaign_id}/simulate"
    form = gm.client.get(path)
    assert 'name="as_is"' in form.text and 'name="side_a"' in form.text
    fresh = gm.client.get(path, params=BOTH)
    assert fresh.status_code == 200, fresh.text
    assert "start: the sheets with every gauge full" in fresh.text
    assert "Vitalité 14/14, Énergie 10/10" in fresh.text
    assert 'class="warning"' not in fresh.text
    kept = gm.client.get(path, params=BOTH | {"as_is": "1"})
    assert kept.status_code == 200, kept.text
    assert 'name="as_is" value="1" checked' in kept.text
    assert "start: the sheets as they are, with their current gauges (--as-is)" in kept.text
    assert "Vitalité 14/14, Énergie 0/10" in kept.text
    assert "warning: Raichu starts at 0 Énergie (0/10)" in kept.text
    french = gm.client.get(path, params=BOTH | {"as_is": "1"}, headers={"Accept-Language": "fr"})
    assert "attention\u00a0: Raichu commence à 0 en Énergie (0/10)" in french.text
    assert "jauges de départ" in french.text and "Vitalité perdue" in french.text


def test_pk_10_the_page_names_the_sides_as_the_gm_typed_them(
    pokemon_table: tuple[Any, Store, int],
) -> None:
    app, store, campaign_id = pokemon_table
    gm = join(app, store, campaign_id, "gm")
    path = f"/c/{campaign_id}/simulate"
    plain = gm.client.get(path, params=BOTH)
    wins = plain.text.split('<table class="wins">', 1)[1].split("</table>", 1)[0]
    assert "<td>Pikachu</td>" in wins and "<td>Raichu</td>" in wins and "<td>a</td>" not in wins
    named = gm.client.get(path, params=BOTH | {"side_a": "héros", "side_b": "vilain"})
    wins = named.text.split('<table class="wins">', 1)[1].split("</table>", 1)[0]
    assert "<td>héros</td>" in wins and "<td>vilain</td>" in wins
    assert 'name="side_a" maxlength="100" value="héros"' in named.text
    alike = gm.client.get(path, params=BOTH | {"side_a": "x", "side_b": "x"})
    assert alike.status_code == 422 and "both sides named alike" in alike.text


def test_pk_10_the_api_answers_what_jdr_simulate_json_answers(
    pokemon_table: tuple[Any, Store, int], capsys: pytest.CaptureFixture[str]
) -> None:
    app, store, campaign_id = pokemon_table
    player = join(app, store, campaign_id, "player", "Pikachu")
    path = f"/api/c/{campaign_id}/simulate"
    body = {"with": ["Pikachu"], "against": ["Raichu"], "runs": 60, "seed": 4}
    got = player.api(path, body | {"as_is": True, "sides": {"a": "héros", "b": "vilain"}})
    assert got.status_code == 200, got.text
    api = got.json()
    assert api["as_is"] is True and set(api["wins"]) == {"héros", "vilain"}
    assert api["at_zero"] == [{"fighter": "Raichu", "name": "Énergie", "current": 0, "max": 10}]
    cli = answer(
        capsys, "simulate", "pokemon", "--campaign", store.campaign_by_id(campaign_id).name,
        "--with", "Pikachu", "--against", "Raichu", "--runs", "60", "--seed", "4",
        "--workers", "1", "--as-is", "--side", "Pikachu=héros", "--side", "Raichu=vilain",
        "--db", str(store.engine.url.render_as_string(hide_password=False)),
    )  # fmt: skip
    assert {k: v for k, v in api.items() if k != "variant"} == {
        k: v for k, v in cli.items() if k != "variant"
    }
    fresh = player.api(path, body).json()
    assert fresh["as_is"] is False and fresh["at_zero"] == []
    assert set(fresh["wins"]) == {"Pikachu", "Raichu"}
    too_many = player.api(path, body | {"runs": 2001})
    assert too_many.status_code == 422
    nobody = player.api(path, body | {"against": ["Nobody"]})
    assert nobody.status_code in (404, 422) and "error" in nobody.json()


def test_pd_5_the_page_labels_polemos_columns_pa_and_activations(database_url: str) -> None:
    app, store, campaign_id = example_table(database_url, "SimPD", "poledemos", ("warband",))
    try:
        other = tomllib.loads(systems_example("poledemos", "warband")) | {"name": "Bob"}
        service.add(store, store.campaign_by_id(campaign_id), other)
        names = [c.name for c in store.characters(campaign_id)]
        first = next(name for name in names if name != "Bob")
        gm = join(app, store, campaign_id, "gm")
        params: dict[str, str | int] = {"with": first, "against": "Bob", "runs": 30}
        page = gm.client.get(f"/c/{campaign_id}/simulate", params=params)
        assert page.status_code == 200, page.text
        fighters = page.text.split('<table class="fighters">', 1)[1].split("</table>", 1)[0]
        assert "<th>PA gained</th><th>activations</th>" in fighters
        assert "damage" not in fighters and "knocked out" not in fighters
        assert "<th>hands</th>" in page.text
        french = gm.client.get(
            f"/c/{campaign_id}/simulate", params=params, headers={"Accept-Language": "fr"}
        )
        fighters = french.text.split('<table class="fighters">', 1)[1].split("</table>", 1)[0]
        assert "<th>PA gagnés</th><th>activations</th>" in fighters
        assert "dégâts" not in fighters and "K.O." not in fighters
    finally:
        store.close()
