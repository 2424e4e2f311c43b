"""Issue 28, joining as a table does: one browser session holds a seat in each campaign it joined
(a GM in each campaign they created), the join limit counts failed redemptions (per address and
per invite, never page views or successes), the live odds send their CSRF token in a header and
never answer a 500, and a 405 names the methods allowed. On SQLite and PostgreSQL.

Rules touched: PU-4 (the Plus Ultra attack whose odds the roll page shows), PU-2 (a rank: no
odds), PS-1 (a Passion action roll and its advisor).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select, text

from jdr import access
from jdr.store import Store
from jdr.store.models import web_seats, web_sessions
from jdr.web.app import create_app
from web_helpers import HOST, csrf_of, unique

ATTACK = {"action": "attack", "willpower": "10", "target_energy": "20"}


@pytest.fixture
def app(database_url: str) -> Iterator[Any]:
    made = create_app(database_url, host_token=HOST)  # the real join limit: 10 failures a minute
    yield made
    made.state.store.close()


def _campaign(app: Any, system: str = "plus-ultra", name: str = "Mardi") -> int:
    store: Store = app.state.store
    campaign = store.create_campaign(system, unique(name))
    store.add_character(campaign, "Kaito", {})
    return campaign


def _redeem(
    client: TestClient, store: Store, campaign: int, role: str, name: str | None = None
) -> Any:
    made = access.invite(store, campaign, role, name)
    answer = client.post(f"/invite/{made.token}", follow_redirects=False)
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == f"/c/{campaign}"
    return answer


def _who(client: TestClient, campaign: int) -> str:
    """The role (and character) the header of the campaign's page names."""
    page = client.get(f"/c/{campaign}")
    assert page.status_code == 200, page.text
    start = page.text.index('<span class="who">') + len('<span class="who">')
    return " ".join(page.text[start : page.text.index("<form", start)].split())


def test_one_browser_holds_a_seat_in_each_campaign_it_joined(app: Any) -> None:
    store: Store = app.state.store
    first, second, third = _campaign(app), _campaign(app, "passion", "Jeudi"), _campaign(app)
    browser = TestClient(app)
    _redeem(browser, store, first, "player", "Kaito")
    cookie = browser.cookies.get("jdr_session")
    shown = browser.get(f"/invite/{access.invite(store, second, 'gm').token}").text
    assert "keeps the campaigns it already joined" in shown and f'href="/c/{first}"' in shown
    _redeem(browser, store, second, "spectator")
    assert browser.cookies.get("jdr_session") == cookie  # the same session, one more seat
    assert _who(browser, first) == "player · Kaito"
    assert _who(browser, second) == "spectator"
    assert browser.get(f"/c/{third}").status_code == 403  # no seat there: not your campaign
    for beyond in (0, -1, 2**31, 10**30):
        assert browser.get(f"/c/{beyond}/roll").status_code == 403, beyond
    csrf = csrf_of(browser.get(f"/c/{first}").text)
    rolled = browser.post(f"/c/{first}/roll", data={**ATTACK, "csrf": csrf})
    assert rolled.status_code == 200 and len(store.journal(first)) == 1
    refused = browser.post(f"/c/{second}/roll", data={"action": "action", "csrf": csrf})
    assert refused.status_code == 403 and store.journal(second) == []  # a spectator there
    home = browser.get("/")
    assert home.status_code == 200
    for campaign in (first, second):
        assert f'href="/c/{campaign}"' in home.text
    assert f'href="/c/{third}"' not in home.text
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(web_sessions)).scalar() == 1
        assert conn.execute(select(func.count()).select_from(web_seats)).scalar() == 2


def test_a_gm_creating_a_second_campaign_keeps_the_first(app: Any) -> None:
    browser = TestClient(app)
    made = []
    for name, system in (("Lundi", "plus-ultra"), ("Mardi", "ilvermorny")):
        answer = browser.post(
            f"/host/{HOST}",
            data={"name": unique(name), "system": system},
            follow_redirects=False,
        )
        assert answer.status_code == 303
        made.append(int(answer.headers["location"].rsplit("/", 1)[1]))
    for campaign in made:
        page = browser.get(f"/c/{campaign}")
        assert page.status_code == 200 and 'id="invite-form"' in page.text  # the GM's page
    home = browser.get("/").text
    assert all(f'href="/c/{campaign}"' in home for campaign in made)


def test_a_second_invite_into_one_campaign_gives_its_seat_anew(app: Any) -> None:
    store: Store = app.state.store
    campaign = _campaign(app)
    browser = TestClient(app)
    _redeem(browser, store, campaign, "spectator")
    _redeem(browser, store, campaign, "player", "Kaito")
    assert _who(browser, campaign) == "player · Kaito"
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(web_seats)).scalar() == 1


def test_signing_out_leaves_every_campaign_of_the_session(app: Any) -> None:
    store: Store = app.state.store
    first, second = _campaign(app), _campaign(app)
    browser = TestClient(app)
    _redeem(browser, store, first, "gm")
    _redeem(browser, store, second, "spectator")
    cookie = browser.cookies.get("jdr_session")
    assert cookie is not None
    csrf = csrf_of(browser.get(f"/c/{first}").text)
    assert browser.post("/signout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    stale = TestClient(app, cookies={"jdr_session": cookie})  # a copy of the old cookie
    assert [stale.get(f"/c/{c}").status_code for c in (first, second)] == [401, 401]
    assert "/c/" not in stale.get("/").text
    _redeem(stale, store, second, "player", "Kaito")  # a new session, its own token
    assert _who(stale, second) == "player · Kaito"
    assert stale.get(f"/c/{first}").status_code == 403
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(web_sessions)).scalar() == 2


def test_a_table_of_ten_behind_one_address_joins_within_a_minute(app: Any) -> None:
    store: Store = app.state.store
    campaign = _campaign(app)
    for n in range(12):  # more friends than the limit's 10, each opening the page twice first
        made = access.invite(store, campaign, "spectator")
        friend = TestClient(app)
        for _ in range(2):
            assert friend.get(f"/invite/{made.token}").status_code == 200, n
        answer = friend.post(f"/invite/{made.token}", follow_redirects=False)
        assert answer.status_code == 303, (n, answer.text)


def test_failed_redemptions_are_limited_per_address_and_per_invite(database_url: str) -> None:
    app = create_app(database_url, host_token=HOST, invite_attempts=3)
    try:
        store: Store = app.state.store
        campaign = _campaign(app)
        used = access.invite(store, campaign, "spectator")
        TestClient(app, client=("10.0.0.1", 1)).post(f"/invite/{used.token}")
        codes = [
            TestClient(app, client=(f"10.0.1.{n}", 1)).post(f"/invite/{used.token}").status_code
            for n in range(5)
        ]
        assert codes == [403, 403, 403, 429, 429]  # one used invite, retried from anywhere
        guesser = TestClient(app, client=("10.0.2.1", 1))
        codes = [guesser.post(f"/invite/{'g' * 42}{n}").status_code for n in range(5)]
        assert codes == [403, 403, 403, 429, 429]  # many guesses from one address
        fresh = access.invite(store, campaign, "spectator")
        refused = guesser.post(f"/invite/{fresh.token}", follow_redirects=False)
        assert refused.status_code == 429 and "3 failed attempts a minute" in refused.text
        assert guesser.get(f"/invite/{fresh.token}").status_code == 200  # the page still shows
        other = TestClient(app, client=("10.0.3.1", 1))
        assert other.post(f"/invite/{fresh.token}", follow_redirects=False).status_code == 303
        assert TestClient(app, client=("10.0.2.1", 1)).get(f"/host/{'x' * 43}").status_code == 429
    finally:
        app.state.store.close()


def test_the_host_link_counts_only_wrong_tokens(database_url: str) -> None:
    app = create_app(database_url, host_token=HOST, invite_attempts=2)
    try:
        gm = TestClient(app)
        assert all(gm.get(f"/host/{HOST}").status_code == 200 for _ in range(5))
        assert [gm.get(f"/host/{'x' * 43}").status_code for _ in range(3)] == [403, 403, 429]
    finally:
        app.state.store.close()


def test_a_session_from_before_seats_keeps_its_campaign_after_the_upgrade(
    database_url: str,
) -> None:
    from alembic import command

    from jdr.store import upgrade
    from jdr.store.schema import HEAD, alembic_config

    engine = create_engine(database_url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0006")
        conn.execute(
            text(
                "INSERT INTO campaigns (system, name, settings, created, changes)"
                " VALUES ('plus-ultra', 'Ancienne', '{}', :at, 0)"
            ),
            {"at": datetime.now(UTC)},
        )
        campaign = conn.execute(text("SELECT id FROM campaigns")).scalar_one()
        token = access.new_token()
        conn.execute(
            text(
                "INSERT INTO web_sessions (campaign_id, token_hash, role, created, expires)"
                " VALUES (:c, :h, 'gm', :at, :until)"
            ),
            {
                "c": campaign,
                "h": access.token_hash(token),
                "at": datetime.now(UTC),
                "until": datetime.now(UTC) + timedelta(days=1),
            },
        )
    engine.dispose()
    assert upgrade(database_url) == HEAD
    app = create_app(database_url, host_token=HOST)
    try:
        browser = TestClient(app, cookies={"jdr_session": token})
        assert _who(browser, campaign) == "GM"
        other = _campaign(app)
        _redeem(browser, app.state.store, other, "spectator")  # and it takes a second seat
        assert _who(browser, campaign) == "GM" and _who(browser, other) == "spectator"
    finally:
        app.state.store.close()


def test_the_guard_takes_the_csrf_token_from_the_header(app: Any) -> None:
    store: Store = app.state.store
    campaign = _campaign(app)
    browser = TestClient(app)
    _redeem(browser, store, campaign, "gm")
    csrf = csrf_of(browser.get(f"/c/{campaign}").text)
    rolled = browser.post(f"/c/{campaign}/roll", data=ATTACK, headers={"X-CSRF-Token": csrf})
    assert rolled.status_code == 200
    wrong = browser.post(f"/c/{campaign}/roll", data=ATTACK, headers={"X-CSRF-Token": "0" * 64})
    assert wrong.status_code == 403


def test_pu_4_the_live_odds_ask_without_the_csrf_token_in_the_url(app: Any) -> None:
    store: Store = app.state.store
    campaign = _campaign(app)
    browser = TestClient(app)
    _redeem(browser, store, campaign, "player", "Kaito")
    page = browser.get(f"/c/{campaign}/roll", params={"action": "attack"}).text
    form = page[page.index('<form method="post"') : page.index(">", page.index('id="roll-form"'))]
    assert 'hx-get="/c/' in form and 'hx-params="not csrf"' in form
    assert 'hx-headers=\'{"X-CSRF-Token": "' in page  # the header every HTMX request sends


def test_pu_2_an_action_without_odds_says_so_and_never_asks(app: Any) -> None:
    store: Store = app.state.store
    campaign = _campaign(app)
    browser = TestClient(app)
    _redeem(browser, store, campaign, "gm")
    page = browser.get(f"/c/{campaign}/roll", params={"action": "rank"}).text
    assert "No odds for this action." in page and "hx-get" not in page.split('id="odds"')[0][-2000:]
    assert f'hx-get="/c/{campaign}/odds"' not in page
    french = browser.get(
        f"/c/{campaign}/roll", params={"action": "rank"}, headers={"accept-language": "fr"}
    )
    assert "Pas de chances calculées pour cette action." in french.text
    answer = browser.get(f"/c/{campaign}/odds", params={"action": "rank", "rank": "B"})
    assert answer.status_code == 200 and "No odds for this action." in answer.text


def _garbage(fields: Any) -> list[dict[str, str]]:
    names = list(fields)
    return [
        {},
        {name: "x" for name in names},
        {name: "-1" for name in names},
        {name: "1e309" for name in names},
        {name: "<script>" for name in names},
    ]


def test_the_odds_of_every_action_of_every_system_never_answer_a_500(app: Any) -> None:
    from jdr.systems import default_registry

    store: Store = app.state.store
    registry = default_registry()
    browser = TestClient(app)
    asked = 0
    for system_id in registry.ids():
        campaign = _campaign(app, system_id, system_id)
        _redeem(browser, store, campaign, "gm")
        csrf = csrf_of(browser.get(f"/c/{campaign}").text)
        for name, action in registry.get(system_id).actions.items():
            page = browser.get(f"/c/{campaign}/roll", params={"action": name})
            assert page.status_code == 200, (system_id, name)
            assert (f'hx-get="/c/{campaign}/odds"' in page.text) == (action.odds is not None)
            for given in _garbage(action.params.model_fields):
                html = browser.get(f"/c/{campaign}/odds", params={"action": name, **given})
                api = browser.post(
                    f"/api/c/{campaign}/odds",
                    json={"action": name, "params": given},
                    headers={"X-CSRF-Token": csrf},
                )
                asked += 2
                assert html.status_code < 500, (system_id, name, given, html.text)
                assert api.status_code < 500, (system_id, name, given, api.text)
                assert "Traceback" not in html.text + api.text
    assert asked > 100


def test_a_405_names_the_methods_allowed(app: Any) -> None:
    store: Store = app.state.store
    campaign = _campaign(app)
    browser = TestClient(app)
    _redeem(browser, store, campaign, "gm")
    csrf = csrf_of(browser.get(f"/c/{campaign}").text)
    get_on_post = browser.get("/signout")
    assert get_on_post.status_code == 405 and get_on_post.headers["allow"] == "POST"
    post_on_get = browser.post(f"/c/{campaign}/luck", data={"csrf": csrf})
    assert post_on_get.status_code == 405 and "GET" in post_on_get.headers["allow"]
    api = browser.get(f"/api/c/{campaign}/roll")
    assert api.status_code == 405 and api.headers["allow"] == "POST"
    assert api.json()["error"]["field"] == "request"
