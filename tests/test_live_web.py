"""Issue 20 through HTTP: the web table served by uvicorn on 127.0.0.1 with its real database
(SQLite and PostgreSQL). A change made by one seat reaches another seat's live stream at once; a
stream that reconnects catches up from the last change it saw (or is told to refresh when too
far behind); a seat outside the campaign, a signed-out one and a revoked session are refused;
twenty clients acting on one fight at once leave one consistent story and a journal that
verifies; a form sent twice is played once; the table's clock plays a late turn by itself; each
entry has a permalink with its snippets; the feed is read at its secret link only.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any
from xml.etree import ElementTree

import pytest

from jdr.access import Viewer
from jdr.fights.fold import fold
from jdr.fights.service import effective_events, fight_events, state
from jdr.journal.replay import replayer_for
from jdr.journal.service import export
from jdr.journal.verify import verify
from jdr.systems import default_registry
from jdr.table import start_fight
from live_helpers import WAIT_S, Client, running, seq_of, signed_in
from web_helpers import plus_ultra_table

KAITO, CORBEAU = "Kaito Arashi", "Maître Corbeau"


@pytest.fixture
def live(database_url: str) -> Iterator[Any]:
    """The app (its hub's keep-alive short), its store, a Plus Ultra campaign and a fight."""
    app, store, campaign_id = plus_ultra_table(database_url, "Live")
    app.state.hub.keepalive_s = 0.5
    fight = start_fight(store, Viewer(campaign_id, "gm"), store.campaign_by_id(campaign_id),
                        [KAITO, CORBEAU])  # fmt: skip
    yield app, store, campaign_id, fight
    store.close()


def listen(
    client: Client, after: int, count: int, found: list[Any], **kwargs: Any
) -> threading.Thread:
    """Read `count` events of `client`'s stream into `found`, in a thread (started)."""

    def run() -> None:
        for event in client.stream(after, count, **kwargs):
            found.append((time.monotonic(), event))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_pu_4_an_action_reaches_every_open_page_at_once(live: Any) -> None:
    app, store, campaign_id, fight = live
    with running(app) as base:
        gm = signed_in(base, store, campaign_id, "gm")
        player = signed_in(base, store, campaign_id, "player", KAITO)
        spectator = signed_in(base, store, campaign_id, "spectator")
        at = seq_of(player.get(f"/c/{campaign_id}/fights/{fight}")[1])
        heard: dict[str, list[Any]] = {"player": [], "spectator": []}
        threads = [
            listen(c, at, 2, heard[n]) for n, c in (("player", player), ("spectator", spectator))
        ]
        time.sleep(0.5)  # both streams open
        sent = time.monotonic()
        assert gm.post(f"/c/{campaign_id}/fights/{fight}", actor=KAITO, command="defend")[0] == 303
        assert (
            gm.post(f"/c/{campaign_id}/fights/{fight}", actor=CORBEAU, command="defend")[0] == 303
        )
        for thread in threads:
            thread.join(WAIT_S)
        for events in heard.values():
            assert [e["data"]["kind"] for _t, e in events] == ["fight", "fight"]
            assert [int(e["id"]) for _t, e in events] == [at + 1, at + 2]
            assert all(e["data"]["fight"] == fight for _t, e in events)
            assert events[0][0] - sent < 1.0  # within a second (here: milliseconds)
        status, part = player.get(f"/c/{campaign_id}/fights/{fight}/parts/live")
        assert status == 200 and "defends" in part and 'id="fight-live"' in part


def test_a_dropped_stream_catches_up_from_the_last_change_it_saw(live: Any) -> None:
    app, store, campaign_id, fight = live
    with running(app) as base:
        gm = signed_in(base, store, campaign_id, "gm")
        player = signed_in(base, store, campaign_id, "player", KAITO)
        at = seq_of(player.get(f"/c/{campaign_id}")[1])
        assert gm.post(f"/c/{campaign_id}/fights/{fight}", actor=KAITO, command="defend")[0] == 303
        (first,) = player.events(at, 1, timeout=5)  # then the connection drops
        seen = int(first["id"])
        for actor in (CORBEAU, KAITO, CORBEAU):  # while the player's connection is down
            gm.post(f"/c/{campaign_id}/fights/{fight}", actor=actor, command="defend")
        again = player.events(0, 3, last_event_id=seen)  # the browser's Last-Event-ID wins
        assert [int(e["id"]) for e in again] == [seen + 1, seen + 2, seen + 3]


def test_a_stream_far_behind_is_told_to_refresh_everything(live: Any) -> None:
    app, store, campaign_id, _fight = live
    with running(app) as base:
        gm = signed_in(base, store, campaign_id, "gm")
        at = seq_of(gm.get(f"/c/{campaign_id}")[1])
        for _n in range(205):  # more than the stream's backlog (200)
            params = {"rank": "C", "energy": 5, "willpower": 5}
            gm.api(f"/api/c/{campaign_id}/roll", {"action": "rank", "params": params})
        head = store.change_heads([campaign_id])[campaign_id]
        (event,) = gm.events(at, 1)
        assert event["event"] == "reset" and event["data"] == {"seq": head}


def test_streams_are_refused_outside_the_campaign_and_end_with_the_session(live: Any) -> None:
    app, store, campaign_id, _fight = live
    other = store.create_campaign("plus-ultra", f"Other {campaign_id}")
    with running(app) as base:
        stranger = signed_in(base, store, other, "gm")
        status, _headers, text = stranger.request("GET", f"/c/{campaign_id}/live")
        assert status == 403 and "not your campaign" in text
        nobody = Client(base, campaign=campaign_id)
        status, _headers, text = nobody.request("GET", f"/c/{campaign_id}/live")
        assert status == 401
        player = signed_in(base, store, campaign_id, "player", KAITO)
        found: list[Any] = []
        thread = listen(player, -1, 1, found)
        time.sleep(0.3)
        assert player.post("/signout")[0] == 303  # the session ends: its stream says so
        thread.join(WAIT_S)
        assert [e["event"] for _t, e in found] == ["signedout"]


def test_pu_4_twenty_clients_acting_at_once_leave_one_story_that_verifies(live: Any) -> None:
    """Twenty GM clients post the fighter to play's command at the same moment, again and
    again: every 303 is one journal entry, every refusal a clear 409, never a 500; the fight
    folds to the same state from its log, and the journal verifies."""
    app, store, campaign_id, fight = live
    with running(app) as base:
        clients = [signed_in(base, store, campaign_id, "gm") for _ in range(20)]
        statuses: list[int] = []
        barrier = threading.Barrier(20)

        def act(client: Client) -> list[int]:
            done = []
            for _round in range(4):
                barrier.wait()
                page = client.get(f"/c/{campaign_id}/fights/{fight}")[1]
                actor = KAITO if "Kaito Arashi plays" in page else CORBEAU
                answer = client.post(
                    f"/c/{campaign_id}/fights/{fight}", actor=actor, command="defend"
                )
                done.append(answer[0])
            return done

        with ThreadPoolExecutor(20) as pool:
            for found in pool.map(act, clients):
                statuses += found
    assert set(statuses) <= {303, 409} and 303 in statuses, statuses
    played = statuses.count(303)
    entries = [r for r in store.journal(campaign_id) if r.action_id.startswith(f"#fight{fight}.")]
    assert len(entries) == played + 1  # and the opening
    rules = default_registry().get("plus-ultra").fight
    assert rules is not None
    assert fold(rules, effective_events(fight_events(store, fight))) == state(store, fight, rules)
    report = verify(export(store, store.campaign_by_id(campaign_id)), replayer_for)
    assert report.ok, [p.message() for p in report.problems]


def test_pu_5_a_form_sent_twice_is_played_once(live: Any) -> None:
    app, store, campaign_id, fight = live
    with running(app) as base:
        player = signed_in(base, store, campaign_id, "player", KAITO)
        page = player.get(f"/c/{campaign_id}/fights/{fight}")[1]
        version = store.fight(fight).version
        assert f'name="version" value="{version}"' in page
        form = {"actor": KAITO, "command": "defend", "version": str(version)}
        assert player.post(f"/c/{campaign_id}/fights/{fight}", **form)[0] == 303
        status, text = player.post(f"/c/{campaign_id}/fights/{fight}", **form)
        assert status == 409 and "already played since this page was loaded" in text
        status, answer = player.api(
            f"/api/c/{campaign_id}/fights/{fight}",
            {"actor": KAITO, "command": "defend", "version": version},
        )
        assert status == 409 and answer["error"]["code"] == "rules"
    defended = [
        r for r in store.journal(campaign_id) if r.entry["context"].get("action") == "defend"
    ]
    assert len(defended) == 1


def test_pu_5_the_servers_clock_plays_a_late_turn_and_every_page_hears_it(live: Any) -> None:
    app, store, campaign_id, fight = live
    store.set_pace(fight, 3600, "default")
    offset = [timedelta(0)]
    app.state.background.clock = lambda: datetime.now(UTC) + offset[0]
    app.state.background.tick_s = 0.1
    with running(app) as base:
        player = signed_in(base, store, campaign_id, "player", CORBEAU)
        page = player.get(f"/c/{campaign_id}/fights/{fight}")[1]
        assert "To play: Kaito Arashi — by" in page
        found: list[Any] = []
        thread = listen(player, seq_of(page), 1, found)
        time.sleep(0.5)  # a few ticks: not late yet
        assert store.journal(campaign_id)[-1].entry["context"]["action"] == "start"
        offset[0] = timedelta(hours=2)  # the deadline has passed
        thread.join(WAIT_S)
        offset[0] = timedelta(0)  # (the clock stays ahead: each next turn would be late too)
    assert found and found[0][1]["data"]["kind"] == "fight"
    late = [
        r.entry["context"] for r in store.journal(campaign_id) if r.entry["context"].get("late")
    ]
    assert late[0]["action"] == "defend" and late[0]["actor"] == KAITO


def test_each_entry_has_a_permalink_with_snippets_to_post(live: Any) -> None:
    app, store, campaign_id, fight = live
    with running(app) as base:
        gm = signed_in(base, store, campaign_id, "gm")
        gm.post(f"/c/{campaign_id}/fights/{fight}", actor=KAITO, command="attack", target=CORBEAU)
        seq = store.journal(campaign_id)[-1].seq
        player = signed_in(base, store, campaign_id, "player", CORBEAU)
        status, page = player.get(f"/c/{campaign_id}/journal/{seq}")
        assert status == 200 and "Kaito Arashi attacks Maître Corbeau" in page
        assert "[b]Fight" in page and "**Fight" in page and f"journal #{seq}" in page
        assert f"/c/{campaign_id}/journal/{seq}" in page
        journal = player.get(f"/c/{campaign_id}/journal")[1]
        assert f'href="/c/{campaign_id}/journal/{seq}"' in journal
        assert player.get(f"/c/{campaign_id}/journal/99999")[0] == 404
        assert player.get(f"/c/{campaign_id}/journal/export")[0] == 200  # not an entry


def test_the_feed_is_read_at_its_secret_link_only(live: Any) -> None:
    app, store, campaign_id, fight = live
    with running(app) as base:
        gm = signed_in(base, store, campaign_id, "gm")
        player = signed_in(base, store, campaign_id, "player", KAITO)
        assert player.post(f"/c/{campaign_id}/feeds", lang="fr")[0] == 403  # the GM's only
        status, page = gm.post(f"/c/{campaign_id}/feeds", lang="fr")
        assert status == 200
        link = page.split('id="feed-link" readonly size="60" value="')[1].split('"')[0]
        path = link.removeprefix(base)
        gm.post(f"/c/{campaign_id}/fights/{fight}", actor=KAITO, command="defend")
        reader = Client(base)  # no cookie, as a feed reader
        status, headers, xml = reader.request("GET", path)
        assert status == 200 and headers["content-type"].startswith("application/atom+xml")
        root = ElementTree.fromstring(xml)
        atom = "{http://www.w3.org/2005/Atom}"
        titles = [e.findtext(f"{atom}title") for e in root.iter(f"{atom}entry")]
        # in the feed's language; issue 29: the action by its number within its fight
        assert titles[0] == f"Combat {fight}, action 1 · {KAITO}"
        assert reader.request("GET", path + "x")[0] == 404
        feed_id = store.feeds(campaign_id)[0].id
        assert gm.post(f"/c/{campaign_id}/feeds/{feed_id}/revoke")[0] == 303
        assert reader.request("GET", path)[0] == 404


def test_the_gm_sets_the_webhook_and_a_player_may_not(live: Any) -> None:
    app, store, campaign_id, _fight = live
    with running(app) as base:
        gm = signed_in(base, store, campaign_id, "gm")
        player = signed_in(base, store, campaign_id, "player", KAITO)
        hook = "https://discord.com/api/webhooks/1/secret-token"
        assert player.post(f"/c/{campaign_id}/webhook", url=hook)[0] == 403
        assert player.get(f"/c/{campaign_id}/settings")[0] == 403
        status, text = gm.post(f"/c/{campaign_id}/webhook", url="http://10.0.0.1/x")
        assert status == 422 and "discord.com" in text
        assert gm.post(f"/c/{campaign_id}/webhook", url=hook, format="discord")[0] == 303
        page = gm.get(f"/c/{campaign_id}/settings")[1]
        assert "discord.com" in page and "secret-token" not in page  # the URL holds a secret
        assert gm.post(f"/c/{campaign_id}/webhook/remove")[0] == 303
        assert store.webhook(campaign_id) is None


def test_the_gm_sets_a_fights_pace_from_its_page(live: Any) -> None:
    app, store, campaign_id, fight = live
    with running(app) as base:
        gm = signed_in(base, store, campaign_id, "gm")
        player = signed_in(base, store, campaign_id, "player", KAITO)
        assert player.post(f"/c/{campaign_id}/fights/{fight}/pace", deadline="48h")[0] == 403
        assert gm.post(f"/c/{campaign_id}/fights/{fight}/pace", deadline="2 weeks")[0] == 422
        assert (
            gm.post(f"/c/{campaign_id}/fights/{fight}/pace", deadline="48h", on_late="gm")[0] == 303
        )
        record = store.fight(fight)
        assert (record.deadline, record.on_late) == (172800, "gm")
        campaign_page = player.get(f"/c/{campaign_id}")[1]
        assert "To play: Kaito Arashi — by" in campaign_page


def test_several_workers_need_postgresql(tmp_path: Any) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "jdr.cli.app", "serve", "--workers", "2", "--db",
         f"sqlite:///{tmp_path / 'x.db'}"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "--workers" in done.stderr and "PostgreSQL" in done.stderr
    assert "Traceback" not in done.stderr


def test_open_pages_are_bounded_per_session(live: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import jdr.web.live_pages

    app, store, campaign_id, _fight = live
    monkeypatch.setattr(jdr.web.live_pages, "MAX_STREAMS_PER_SESSION", 2)
    with running(app) as base:
        player = signed_in(base, store, campaign_id, "player", KAITO)
        opened: list[Any] = []
        threads = [listen(player, -1, 1, opened) for _ in range(2)]
        deadline = time.monotonic() + WAIT_S
        while sum(app.state.hub.streams.values()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        status, _headers, text = player.request("GET", f"/c/{campaign_id}/live")
        assert status == 429 and "too many open pages" in text
        other = signed_in(base, store, campaign_id, "spectator")  # another session may
        assert other.events(-1, 0) == []
        player.post("/signout")
        for thread in threads:
            thread.join(WAIT_S)
