"""Light and quick pages for a long campaign (issue 32, part 6): the journal page shows its last
entries with a link to the older ones, a long fight's page tells its last actions and gives its
recaps at a button's press, the luck audit is computed once per change of the campaign, and a
server started with `JDR_PHASES=1` says where each request's time went (`Server-Timing`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from jdr import table
from jdr.access import Viewer
from jdr.web import contexts, live_pages, pages
from live_helpers import running, signed_in
from web_helpers import plus_ultra_table

KAITO, CORBEAU = "Kaito Arashi", "Maître Corbeau"
ATTACK = {"willpower": 5, "target_energy": 6, "rank": "C"}


@pytest.fixture
def campaign(database_url: str) -> Iterator[Any]:
    app, store, campaign_id = plus_ultra_table(database_url, "Light")
    yield app, store, campaign_id
    store.close()


def _rolls(store: Any, campaign_id: int, count: int) -> None:
    gm = Viewer(campaign_id, "gm")
    for _ in range(count):
        table.roll(store, gm, store.campaign_by_id(campaign_id), table.RollAsked("attack", ATTACK))


def _seqs(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<li value="\d+" data-seq="(\d+)"', page)]


def test_the_journal_page_shows_its_last_entries_and_links_to_the_older(
    campaign: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, store, campaign_id = campaign
    for module in (pages, live_pages):
        monkeypatch.setattr(module, "JOURNAL_SHOWN", 3)
    _rolls(store, campaign_id, 5)
    last = store.journal(campaign_id)[-1].seq  # the two characters' entries, then the rolls
    with running(app) as base:
        player = signed_in(base, store, campaign_id, "player", KAITO)
        status, page = player.get(f"/c/{campaign_id}/journal")
        assert status == 200 and _seqs(page) == [last - 2, last - 1, last]
        older = re.search(r'href="(/c/\d+/journal\?before=(\d+))" id="older-entries"', page)
        assert older is not None and int(older.group(2)) == last - 2
        status, earlier = player.get(older.group(1))
        assert status == 200 and _seqs(earlier) == [last - 5, last - 4, last - 3]
        assert f'hx-get="/c/{campaign_id}/parts/journal?before={last - 2}"' in earlier
        status, part = player.get(f"/c/{campaign_id}/parts/journal?before={last - 2}")
        assert _seqs(part) == [last - 5, last - 4, last - 3]  # its live part stays on its page
        status, first = player.get(f"/c/{campaign_id}/journal?before=2")
        assert _seqs(first) == [1] and 'id="older-entries"' not in first


def test_the_gm_may_disclose_a_hidden_roll_older_than_the_page(
    campaign: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, store, campaign_id = campaign
    monkeypatch.setattr(pages, "JOURNAL_SHOWN", 2)
    gm = Viewer(campaign_id, "gm")
    hidden = table.RollAsked("attack", ATTACK, hidden=True)
    table.roll(store, gm, store.campaign_by_id(campaign_id), hidden)
    _rolls(store, campaign_id, 3)
    with running(app) as base:
        client = signed_in(base, store, campaign_id, "gm")
        assert 'id="disclose"' in client.get(f"/c/{campaign_id}/journal")[1]
        store.disclose(campaign_id)
        assert 'id="disclose"' not in client.get(f"/c/{campaign_id}/journal")[1]


def test_a_long_fights_page_tells_its_last_actions_and_gives_its_recaps_on_demand(
    campaign: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, store, campaign_id = campaign
    monkeypatch.setattr(contexts, "FIGHT_LOG_SHOWN", 2)
    gm = Viewer(campaign_id, "gm")
    fight = table.start_fight(store, gm, store.campaign_by_id(campaign_id), [KAITO, CORBEAU])
    with running(app) as base:
        client = signed_in(base, store, campaign_id, "gm")
        path = f"/c/{campaign_id}/fights/{fight}"
        short = client.get(path)[1]  # the opening alone: told whole, recaps inline
        assert 'id="log-earlier"' not in short and 'id="recap-bbcode"' in short
        for actor in (KAITO, CORBEAU, KAITO):
            assert client.post(path, actor=actor, command="defend")[0] == 303
        page = client.get(path)[1]
        assert re.findall(r'data-action="(\d+)"', page) == ["2", "3"]
        assert "2 earlier actions are not shown here" in page
        assert 'id="recap-bbcode"' not in page and 'id="show-recaps"' in page
        status, recaps = client.get(f"{path}/parts/recaps")
        assert status == 200 and 'id="recap-bbcode"' in recaps and "[b]Round 1[/b]" in recaps
        assert "**Round 1**" in recaps
        # issue 33: each copy carries its journal line; Discord's comes in messages that fit
        assert "[i]journal #" in recaps and 'id="recap-discord-1"' in recaps
        assert "Copy for Discord" in recaps and "_journal #" in recaps
        assert re.findall(r'data-action="(\d+)"', client.get(f"{path}/parts/live")[1]) == [
            "2",
            "3",
        ]
        spectator = signed_in(base, store, campaign_id, "spectator")
        assert spectator.get(f"{path}/parts/recaps")[0] == 200
        other = store.create_campaign("plus-ultra", "Elsewhere")
        assert spectator.get(f"/c/{other}/fights/{fight}/parts/recaps")[0] == 403


def test_the_luck_page_follows_every_new_roll(campaign: Any) -> None:
    app, store, campaign_id = campaign
    _rolls(store, campaign_id, 2)
    with running(app) as base:
        player = signed_in(base, store, campaign_id, "player", KAITO)
        first = player.get(f"/c/{campaign_id}/luck")[1]
        assert player.get(f"/c/{campaign_id}/luck")[1] == first  # kept: the same answer
        _rolls(store, campaign_id, 3)
        assert player.get(f"/c/{campaign_id}/luck")[1] != first  # a change: computed again


def test_server_timing_says_where_a_rolls_time_went(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JDR_PHASES", "1")
    app, store, campaign_id = plus_ultra_table(database_url, "Phases")
    try:
        with running(app) as base:
            player = signed_in(base, store, campaign_id, "player", KAITO)
            payload = {"action": "attack", "params": ATTACK}
            status, headers, _text = player.request(
                "POST", f"/api/c/{campaign_id}/roll", json_body=payload
            )
            assert status == 200
            found = dict(
                (part.split(";dur=")[0].strip(), float(part.split(";dur=")[1]))
                for part in headers["server-timing"].split(",")
            )
            for name in ("app", "session", "lock", "held", "head", "derive", "append", "render"):
                assert name in found and found[name] >= 0
            assert found["app"] >= found["held"] >= found["append"]
    finally:
        store.close()
    monkeypatch.delenv("JDR_PHASES")
    app, store, campaign_id = plus_ultra_table(database_url, "Quiet")
    try:
        with running(app) as base:
            player = signed_in(base, store, campaign_id, "player", KAITO)
            status, headers, _text = player.request("GET", f"/c/{campaign_id}")
            assert status == 200 and "server-timing" not in headers
    finally:
        store.close()
