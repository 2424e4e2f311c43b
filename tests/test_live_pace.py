"""Issue 20, play-by-post pace and announcements, as services on real databases (SQLite and
PostgreSQL) with an injected clock: a late turn plays each system's safe default once, journaled
as late, and the journal still verifies; where the system has none (or the table says so) the GM
decides, announced once; every change is numbered in commit order; the webhook posts each
action's recap and whose turn it is to a real local HTTP receiver, resumes after a failure, and
never announces a hidden roll; the Atom feed is well-formed."""

from __future__ import annotations

import json
import threading
import tomllib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from xml.etree import ElementTree

import pytest

from jdr.characters import service as sheets
from jdr.characters.fights import open_stored
from jdr.errors import InputError
from jdr.fights.service import play, state
from jdr.journal.replay import replayer_for
from jdr.journal.service import export
from jdr.journal.verify import verify
from jdr.live import pace
from jdr.live.announce import announcements
from jdr.live.feed import campaign_feed
from jdr.live.webhook import check_url, deliver
from jdr.sheet_check import systems_example
from jdr.store import Campaign, Store
from jdr.systems import default_registry

Json = dict[str, Any]
FIGHTERS: dict[str, list[tuple[str, str]]] = {
    "plus-ultra": [("hero", "Kaito Arashi"), ("villain", "Maître Corbeau")],
    "pokemon": [("pokemon", "Pika"), ("pokemon", "Chu")],
    "passion": [("romuald", "Romuald"), ("cyber-ninja", "Cyber-ninja")],
    "ilvermorny": [("wizard", "Ann"), ("wizard", "Bob")],
    "poledemos": [("warband", "Alice"), ("warband", "Bob")],
}
SIDES = {"passion": {"Romuald": "heroes", "Cyber-ninja": "ninjas"}}


def table(store: Store, system: str, deadline: str | None = "48h", on_late: str = "default",
          name: str = "Table") -> tuple[Campaign, int]:  # fmt: skip
    """A campaign of `system` with its two example fighters stored, and a fight between them."""
    import uuid

    campaign_id = store.create_campaign(system, f"{name} {uuid.uuid4().hex[:8]}")
    campaign = store.campaign_by_id(campaign_id)
    for kind, fighter in FIGHTERS[system]:
        sheet = tomllib.loads(systems_example(system, kind))
        sheet["name"] = fighter
        sheets.add(store, campaign, sheet)
    names = [fighter for _kind, fighter in FIGHTERS[system]]
    opened = open_stored(
        store, campaign, names, SIDES.get(system), deadline=deadline, on_late=on_late
    )
    return store.campaign_by_id(campaign_id), opened.started.fight_id


def later(store: Store, fight: int, hours: float) -> datetime:
    """`hours` after the fight's current turn began."""
    from jdr.store.rows import aware

    since = store.fight(fight).turn_since
    assert since is not None
    return aware(since) + timedelta(hours=hours)


def verified(store: Store, campaign: Campaign) -> None:
    report = verify(export(store, store.campaign_by_id(campaign.id)), replayer_for)
    assert report.ok, [p.message() for p in report.problems]


def test_deadlines_read_as_people_type_them() -> None:
    assert pace.parse_deadline("48h") == 172800
    assert pace.parse_deadline("2j") == pace.parse_deadline("2 d") == 172800
    assert pace.parse_deadline("none") is None
    for bad in ("0m", "100d", "soon", "-3h"):
        with pytest.raises(InputError):
            pace.parse_deadline(bad)
    assert pace.parse_on_late("MJ") == "gm" and pace.parse_on_late("défaut") == "default"
    with pytest.raises(InputError):
        pace.parse_on_late("later")


def test_pu_5_a_late_character_defends_once_journaled_as_late(store: Store) -> None:
    campaign, fight = table(store, "plus-ultra")
    system = default_registry().get("plus-ultra")
    assert system.fight is not None
    record = store.fight(fight)
    assert record.deadline == 172800 and record.on_late == "default"
    first = pace.pace_of(system, record, state(store, fight, system.fight))
    assert list(first.awaited) == ["Kaito Arashi"] and not first.late
    assert pace.resolve_late(store, later(store, fight, 47)) == []  # not yet
    done = pace.resolve_late(store, later(store, fight, 49))
    assert [(t.fight_id, t.played) for t in done] == [(fight, [("Kaito Arashi", "defend")])]
    now = state(store, fight, system.fight)
    assert now["characters"]["Kaito Arashi"]["defending"] is True
    entry = store.journal(campaign.id)[-1].entry
    assert entry["context"]["late"] is True and entry["context"]["action"] == "defend"
    assert pace.resolve_late(store, later(store, fight, 1)) == []  # Corbeau's turn began now
    verified(store, campaign)


def test_pk_12_pk_15_a_late_pokemon_endures_or_waits(store: Store) -> None:
    campaign, fight = table(store, "pokemon")
    system = default_registry().get("pokemon")
    assert system.fight is not None
    first = next(iter(pace.awaited(system, state(store, fight, system.fight), ["Pika", "Chu"])))
    other = "Chu" if first == "Pika" else "Pika"
    play(store, fight, system, first, "move", ["move=Éclair", f"target={other}"])
    waiting = pace.awaited(system, state(store, fight, system.fight), ["Pika", "Chu"])
    assert list(waiting) == [other] and waiting[other] == ["respond"]
    done = pace.resolve_late(store, later(store, fight, 49))
    assert done[0].played == [(other, "respond")]
    assert store.journal(campaign.id)[-1].entry["context"]["params"]["response"] == "endure"
    turn = pace.awaited(system, state(store, fight, system.fight), ["Pika", "Chu"])
    assert list(turn) == [other]  # its own turn now: when late, it waits (PK-15)
    done = pace.resolve_late(store, later(store, fight, 49))
    assert done[0].played == [(other, "wait")]
    verified(store, campaign)


def test_ps_9_every_late_fighter_picks_its_lowest_marker_sealed(store: Store) -> None:
    campaign, fight = table(store, "passion")
    done = pace.resolve_late(store, later(store, fight, 49))
    assert sorted(done[0].played) == [
        ("Cyber-ninja", "choose_marker"),
        ("Romuald", "choose_marker"),
    ]
    system = default_registry().get("passion")
    assert system.fight is not None
    now = state(store, fight, system.fight)
    assert now["phase"] != "markers"  # both chosen, revealed
    lowest = {n: min(f["available"] + [f["marker"]]) for n, f in now["fighters"].items()}
    assert all(now["fighters"][n]["marker"] == lowest[n] for n in lowest)
    verified(store, campaign)


def test_pd_4_a_late_player_ends_its_activation_and_may_not_pass_before_it_must(
    store: Store,
) -> None:
    from jdr.dice import GivenFaces

    campaign, fight = table(store, "poledemos")
    system = default_registry().get("poledemos")
    assert system.fight is not None
    before = state(store, fight, system.fight)
    late = next(iter(pace.awaited(system, before, ["Alice", "Bob"])))
    assert pace.awaited(system, before, ["Alice", "Bob"])[late] == ["activate"]
    done = pace.resolve_late(store, later(store, fight, 49))
    assert done[0].played == [] and done[0].for_gm == [late]  # PD-4: no pass before forced to
    from jdr.systems.poledemos.play_state import available_figures

    figure = f"figure={available_figures(before)[0]}"
    play(store, fight, system, late, "activate", [figure, "dice=2"], GivenFaces([5, 6]))
    done = pace.resolve_late(store, later(store, fight, 49))
    assert done[0].played == [(late, "end_activation")]
    verified(store, campaign)


def test_il_10_a_late_wizard_waits_for_the_gm_announced_once(store: Store) -> None:
    campaign, fight = table(store, "ilvermorny")
    head = store.change_heads([campaign.id])[campaign.id]
    done = pace.resolve_late(store, later(store, fight, 49))
    assert done[0].played == [] and sorted(done[0].for_gm) == ["Ann", "Bob"]
    assert pace.resolve_late(store, later(store, fight, 49)) == []  # dealt with: once
    changes = store.changes_after(campaign.id, head)
    assert [c.kind for c in changes] == ["late"]
    told = announcements(store, campaign, changes)
    assert "the GM decides" in told[0].text() and "Ann" in (told[0].awaited or "")
    system = default_registry().get("ilvermorny")
    assert system.fight is not None
    record = store.fight(fight)
    shown = pace.pace_of(system, record, state(store, fight, system.fight), later(store, fight, 49))
    assert shown.late and "the GM decides" in shown.line()


def test_pu_5_a_table_that_lets_the_gm_decide_plays_nothing(store: Store) -> None:
    _campaign, fight = table(store, "plus-ultra", on_late="gm")
    version = store.fight(fight).version
    done = pace.resolve_late(store, later(store, fight, 49))
    assert done[0].for_gm == ["Kaito Arashi"] and done[0].played == []
    assert store.fight(fight).version == version and store.fight(fight).late_version == version
    system = default_registry().get("plus-ultra")
    play(store, fight, system, "Kaito Arashi", "attack", ["target=Maître Corbeau"])
    assert pace.resolve_late(store, later(store, fight, 1)) == []  # a new turn, a new clock
    assert len(pace.resolve_late(store, later(store, fight, 49))) == 1


def test_a_fight_without_deadline_is_never_late(store: Store) -> None:
    _campaign, fight = table(store, "plus-ultra", deadline=None)
    assert store.fight(fight).deadline is None
    assert pace.resolve_late(store, datetime.now(UTC) + timedelta(days=400)) == []
    done = pace.set_pace(store, fight, "30m", "gm")
    assert done == {"fight": fight, "deadline": 1800, "on_late": "gm"}
    assert len(pace.resolve_late(store, later(store, fight, 1))) == 1


def test_changes_are_numbered_in_commit_order_without_a_gap(store: Store) -> None:
    """Eight threads rolling at once through the journal: every entry has exactly one change,
    numbered 1, 2, … with no gap, in the order the entries were written."""
    from concurrent.futures import ThreadPoolExecutor

    from jdr.journal.service import roll
    from jdr.params import validate_params

    campaign, _fight = table(store, "poledemos", deadline=None)
    system = default_registry().get("poledemos")
    action = system.actions["test"]
    params = validate_params(action.params, {"val": "3+", "dice": 2})

    def one(n: int) -> None:
        roll(store, campaign, system, action, params, actor="Ana", action_id=f"post-{n}")

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(one, range(40)))
    changes = store.changes_after(campaign.id, 0, 1000)
    assert [c.seq for c in changes] == list(range(1, len(changes) + 1))
    entries = [c.entry for c in changes if c.entry is not None]
    assert entries == sorted(entries) and len(set(entries)) == len(entries)
    assert len(entries) == len(store.journal(campaign.id))
    assert store.change_heads([campaign.id]) == {campaign.id: len(changes)}


# --- the webhook and the feed ----------------------------------------------------------------


class Receiver:
    """A real HTTP server on 127.0.0.1 that keeps every POST (and can refuse the first ones)."""

    def __init__(self, refuse: int = 0) -> None:
        self.posts: list[Json] = []
        self.refuse = refuse
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if owner.refuse > 0:
                    owner.refuse -= 1
                    self.send_response(500)
                    self.end_headers()
                    return
                owner.posts.append(json.loads(body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as found:
        yield found


def hooked(store: Store, campaign: Campaign, url: str, fmt: str = "discord") -> None:
    from jdr.access import Viewer
    from jdr.live import seat

    seat.set_webhook(store, Viewer(campaign.id, "gm"), campaign, url, fmt, "en", ("127.0.0.1",))


def test_pu_4_the_webhook_posts_each_action_and_whose_turn_it_is(
    store: Store, receiver: Receiver
) -> None:
    campaign, fight = table(store, "plus-ultra")
    hooked(store, campaign, receiver.url)
    system = default_registry().get("plus-ultra")
    play(store, fight, system, "Kaito Arashi", "attack", ["target=Maître Corbeau"])
    play(store, fight, system, "Maître Corbeau", "defend", [])
    done = deliver(store, datetime.now(UTC), "https://table.example", extra_hosts=["127.0.0.1"])
    assert [d.posted for d in done] == [2]
    first, second = (post["content"] for post in receiver.posts)
    assert "Kaito Arashi attacks Maître Corbeau" in first
    assert "journal #" in first and f"https://table.example/c/{campaign.id}/journal/" in first
    assert "Maître Corbeau defends" in second and "To play: Kaito Arashi" in second
    assert all(post["allowed_mentions"] == {"parse": []} for post in receiver.posts)
    assert deliver(store, datetime.now(UTC), extra_hosts=["127.0.0.1"]) == []  # all announced


def test_the_webhook_never_announces_a_hidden_roll_and_speaks_slack(
    store: Store, receiver: Receiver
) -> None:
    from jdr.journal.service import roll
    from jdr.params import validate_params

    campaign, _fight = table(store, "poledemos", deadline=None)
    hooked(store, campaign, receiver.url, "slack")
    system = default_registry().get("poledemos")
    action = system.actions["test"]
    params = validate_params(action.params, {"val": "3+", "dice": 3})
    secret = roll(store, campaign, system, action, params, actor="<!channel>", hidden=True)
    roll(store, campaign, system, action, params, actor="<!channel>")
    deliver(store, datetime.now(UTC), extra_hosts=["127.0.0.1"])
    texts = [post["text"] for post in receiver.posts]
    assert len(texts) == 2 and "hidden roll" in texts[0]
    faces = " ".join(f"d{s}:{f}" for s, f in (secret.entry.dice or {})["rolls"])
    assert faces not in texts[0]  # only that it was made
    assert "<!channel>" not in texts[1] and "&lt;!channel&gt;" in texts[1]
    assert texts[1].startswith("*Roll · &lt;!channel&gt;*")


def test_a_failing_webhook_waits_then_resumes_where_it_stopped(store: Store) -> None:
    with Receiver(refuse=1) as receiver:
        campaign, fight = table(store, "plus-ultra")
        hooked(store, campaign, receiver.url)
        system = default_registry().get("plus-ultra")
        play(store, fight, system, "Kaito Arashi", "defend", [])
        now = datetime.now(UTC)
        failed = deliver(store, now, extra_hosts=["127.0.0.1"])
        assert failed[0].error == "HTTP 500" and failed[0].posted == 0
        hook = store.webhook(campaign.id)
        assert hook is not None and hook.failures == 1 and hook.last_error == "HTTP 500"
        assert deliver(store, now + timedelta(seconds=1), extra_hosts=["127.0.0.1"]) == []
        again = deliver(store, now + timedelta(minutes=5), extra_hosts=["127.0.0.1"])
        assert again[0].posted == 1 and len(receiver.posts) == 1
        hook = store.webhook(campaign.id)
        assert hook is not None and hook.failures == 0


def test_webhooks_post_only_where_the_server_allows() -> None:
    assert check_url("https://hooks.slack.com/services/T/B/x").startswith("https://")
    for bad in (
        "http://discord.com/api/webhooks/1/x",  # not over HTTPS
        "https://user:pw@discord.com/api/webhooks/1/x",
        "https://169.254.169.254/latest/meta-data",
        "http://127.0.0.1:9/hook",  # a host the operator did not name
        "file:///etc/passwd",
        "https://discord.com.evil.example/x",
    ):
        with pytest.raises(InputError):
            check_url(bad)


def test_the_feed_is_atom_with_each_announcement(store: Store) -> None:
    campaign, fight = table(store, "plus-ultra")
    system = default_registry().get("plus-ultra")
    play(store, fight, system, "Kaito Arashi", "attack", ["target=Maître Corbeau"])
    xml = campaign_feed(store, campaign, "https://t.example/feeds/x", "https://t.example")
    atom = "{http://www.w3.org/2005/Atom}"
    root = ElementTree.fromstring(xml)
    assert root.tag == f"{atom}feed"
    titles = [e.findtext(f"{atom}title") for e in root.iter(f"{atom}entry")]
    # issue 29: an action is titled by its number within its fight
    assert titles[0] == f"Fight {fight}, action 1 · Kaito Arashi"
    assert "To play: Maître Corbeau" in (root.findtext(f"{atom}subtitle") or "")
    links = [e.find(f"{atom}link") for e in root.iter(f"{atom}entry")]
    assert all(link is not None and link.get("href", "").startswith("https://t.example/c/")
               for link in links)  # fmt: skip
