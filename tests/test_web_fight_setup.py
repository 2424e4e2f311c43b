"""Issue 19: the GM sets a fight up in the browser as `jdr fight new` does — the fighters ticked,
each one's side, an order of play and the table's settings — through the one service both use
(`jdr.characters.fights.open_stored`); a player may not, and a bad setting is a clear refusal."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from jdr.store import Store
from web_helpers import join, plus_ultra_table

HERO, VILLAIN = "Kaito Arashi", "Maître Corbeau"


@pytest.fixture
def table(database_url: str) -> Iterator[tuple[Any, Store, int]]:
    made = plus_ultra_table(database_url, "Setup")
    yield made
    made[1].close()


def _form(store: Store, campaign_id: int, **sides: str) -> dict[str, Any]:
    ids = {c.name: c.id for c in store.characters(campaign_id)}
    data: dict[str, Any] = {"with": [HERO, VILLAIN]}
    for name, side in sides.items():
        data[f"side-{ids[name.replace('_', ' ')]}"] = side
    return data


def test_pu_4_the_gm_sets_sides_order_and_settings_in_the_browser(
    table: tuple[Any, Store, int],
) -> None:
    app, store, campaign_id = table
    gm = join(app, store, campaign_id, "gm")
    page = gm.client.get(f"/c/{campaign_id}").text
    assert 'name="order"' in page and 'name="settings"' in page and "side-" in page
    data = _form(store, campaign_id) | {
        f"side-{store.character_named(campaign_id, HERO).id}": "b",
        f"side-{store.character_named(campaign_id, VILLAIN).id}": "a",
        "order": f"{VILLAIN.lower()}, {HERO}",
    }
    answer = gm.post(f"/c/{campaign_id}/fights", data=data)
    assert answer.status_code == 303, answer.text
    fight = int(answer.headers["location"].rsplit("/", 1)[1])
    started = store.events(fight)[0].event
    sides = {f["name"]: f["side"] for f in started["characters"]}
    assert sides == {HERO: "b", VILLAIN: "a"}
    assert started["order"] == [VILLAIN, HERO] and started["draws"] is None
    assert {f.fighter for f in store.fighters(fight)} == {HERO, VILLAIN}  # start revisions noted
    drawn = gm.post(
        f"/c/{campaign_id}/fights", data=_form(store, campaign_id) | {"settings": "draw_order=true"}
    )  # PU-10: the order drawn, as `jdr fight new --setting draw_order=true`
    assert drawn.status_code == 303, drawn.text
    opening = store.events(int(drawn.headers["location"].rsplit("/", 1)[1]))[0].event
    assert set(opening["draws"]) == {HERO, VILLAIN}


def test_pu_4_a_bad_setting_or_a_player_is_refused_clearly(
    table: tuple[Any, Store, int],
) -> None:
    app, store, campaign_id = table
    gm = join(app, store, campaign_id, "gm")
    bad = gm.post(f"/c/{campaign_id}/fights", data=_form(store, campaign_id) | {"settings": "x"})
    assert bad.status_code == 422 and "key=value" in bad.text
    unknown = gm.post(
        f"/c/{campaign_id}/fights", data=_form(store, campaign_id) | {"order": "Nobody, Kaito"}
    )
    assert unknown.status_code in (409, 422) and "Traceback" not in unknown.text
    player = join(app, store, campaign_id, "player", HERO)
    refused = player.post(f"/c/{campaign_id}/fights", data=_form(store, campaign_id))
    assert refused.status_code == 403
    assert store.fights(campaign_id) == []
