"""Issue 19, who may do what at the web table: every refusal, on SQLite and PostgreSQL.

Rules touched: PU-4 (the Plus Ultra attack the players roll and play), PU-2 (a sheet's points),
PS-1 (a Passion action roll, for the advisor).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from jdr.store import Store
from jdr.store.models import invites, web_sessions
from jdr.web.app import create_app
from web_helpers import HOST, csrf_of, join, unique

ATTACK = {"action": "attack", "params": {"willpower": "10", "target_energy": "20"}}


@pytest.fixture
def app(database_url: str) -> Iterator[Any]:
    made = create_app(database_url, host_token=HOST, invite_attempts=1000)
    yield made
    made.state.store.close()


@pytest.fixture
def table(app: Any) -> dict[str, Any]:
    """A Plus Ultra campaign with two characters, one of them named like an attack."""
    store: Store = app.state.store
    campaign = store.create_campaign("plus-ultra", unique("Mardi"))
    store.add_character(campaign, "Kaito", {})
    store.add_character(campaign, "<img src=x onerror=alert(1)>", {})
    return {"store": store, "id": campaign}


def error_of(answer: Any) -> dict[str, Any]:
    payload: dict[str, Any] = answer.json()["error"]
    assert {"code", "message"} <= set(payload)
    return payload


def test_the_host_link_creates_a_campaign_and_signs_its_gm_in(app: Any) -> None:
    client = TestClient(app)
    assert client.get("/host/" + "x" * 43).status_code == 403
    name = unique("Jeudi")
    answer = client.post(
        f"/host/{HOST}", data={"name": name, "system": "plus-ultra"}, follow_redirects=False
    )
    assert answer.status_code == 303
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    page = client.get(answer.headers["location"])
    assert page.status_code == 200 and name in page.text and 'id="invite-form"' in page.text


def test_behind_https_the_session_cookie_is_secure(app: Any) -> None:
    client = TestClient(app, base_url="https://table.example")
    answer = client.post(
        f"/host/{HOST}",
        data={"name": unique("Https"), "system": "plus-ultra"},
        headers={"origin": "https://table.example"},
        follow_redirects=False,
    )
    assert answer.status_code == 303 and "Secure" in answer.headers["set-cookie"]


def test_an_invite_is_single_use_and_stored_hashed(app: Any, table: dict[str, Any]) -> None:
    from jdr import access

    store: Store = table["store"]
    made = access.invite(store, table["id"], "spectator")
    with store.engine.connect() as conn:
        stored = conn.execute(select(invites.c.token_hash).where(invites.c.id == made.id)).one()
    assert stored[0] == hashlib.sha256(made.token.encode()).hexdigest() != made.token
    first, second = TestClient(app), TestClient(app)
    assert first.get(f"/invite/{made.token}").status_code == 200  # a link preview uses nothing
    answer = first.post(f"/invite/{made.token}", follow_redirects=False)
    assert answer.status_code == 303
    session = first.cookies.get("jdr_session")
    assert session is not None
    with store.engine.connect() as conn:
        hashes = set(conn.execute(select(web_sessions.c.token_hash)).scalars())
    assert session not in hashes and hashlib.sha256(session.encode()).hexdigest() in hashes
    again = second.post(f"/invite/{made.token}", follow_redirects=False)
    assert again.status_code == 403
    assert "invite" in again.text and "used, revoked, expired or unknown" in again.text


def test_expired_revoked_and_unknown_invites_are_refused(app: Any, table: dict[str, Any]) -> None:
    from jdr import access

    store: Store = table["store"]
    past = datetime.now(UTC) - timedelta(minutes=1)
    store.add_invite(table["id"], access.token_hash("e" * 43), "gm", None, past)
    revoked = access.invite(store, table["id"], "gm")
    assert store.revoke_invite(table["id"], revoked.id)
    assert not store.revoke_invite(table["id"], revoked.id)
    client = TestClient(app)
    for token in ("e" * 43, revoked.token, "u" * 43, "<script>"):
        answer = client.post(f"/invite/{token}", follow_redirects=False)
        assert answer.status_code in (403, 404), token
        assert "jdr_session" not in answer.headers.get("set-cookie", "")


def test_invite_redemption_is_rate_limited(database_url: str) -> None:
    app = create_app(database_url, host_token=HOST, invite_attempts=3)
    try:
        client = TestClient(app)
        codes = [client.post(f"/invite/{'z' * 43}").status_code for _ in range(5)]
        assert codes == [403, 403, 403, 429, 429]
        answer = client.post(f"/invite/{'y' * 43}")
        assert answer.status_code == 429 and "wait a minute" in answer.text
        assert client.get(f"/invite/{'z' * 43}").status_code == 200  # a page view counts nothing
    finally:
        app.state.store.close()


def test_every_state_change_needs_the_csrf_token_and_this_origin(
    app: Any, table: dict[str, Any]
) -> None:
    gm = join(app, table["store"], table["id"], "gm")
    path = f"/c/{table['id']}/invites"
    missing = gm.client.post(path, data={"role": "spectator"}, follow_redirects=False)
    wrong = gm.client.post(path, data={"role": "spectator", "csrf": "0" * 64})
    api = gm.client.post(f"/api/c/{table['id']}/roll", json=ATTACK)
    foreign = gm.post(path, data={"role": "spectator"}, headers={"origin": "https://evil.example"})
    assert [a.status_code for a in (missing, wrong, api, foreign)] == [403] * 4
    assert error_of(api)["field"] == "csrf"
    assert gm.post(path, data={"role": "spectator"}).status_code == 200


def test_pu_4_a_player_rolls_only_for_their_own_character(app: Any, table: dict[str, Any]) -> None:
    player = join(app, table["store"], table["id"], "player", "Kaito")
    refused = player.api(f"/api/c/{table['id']}/roll", {**ATTACK, "actor": "Aiko"})
    assert refused.status_code == 403 and error_of(refused)["field"] == "actor"
    hidden = player.api(f"/api/c/{table['id']}/roll", {**ATTACK, "hidden": True})
    assert hidden.status_code == 403 and error_of(hidden)["field"] == "hidden"
    rolled = player.api(f"/api/c/{table['id']}/roll", ATTACK)
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["journal"]["seq"] == 1
    entry = table["store"].journal(table["id"])[0].entry
    assert entry["context"]["actor"] == "Kaito"
    invite = player.post(f"/c/{table['id']}/invites", data={"role": "gm"})
    assert invite.status_code == 403


def test_a_spectator_reads_only(app: Any, table: dict[str, Any]) -> None:
    spectator = join(app, table["store"], table["id"], "spectator")
    assert spectator.client.get(f"/c/{table['id']}/journal").status_code == 200
    refused = spectator.api(f"/api/c/{table['id']}/roll", ATTACK)
    assert refused.status_code == 403 and "reads only" in error_of(refused)["message"]
    page = spectator.post(f"/c/{table['id']}/roll", data={"action": "attack", "willpower": "3"})
    assert page.status_code == 403
    assert table["store"].journal(table["id"]) == []


def test_one_campaigns_session_never_opens_another(app: Any, table: dict[str, Any]) -> None:
    store: Store = table["store"]
    other = store.create_campaign("plus-ultra", unique("Autre"))
    gm = join(app, store, table["id"], "gm")
    for path in (f"/c/{other}", f"/c/{other}/journal", f"/c/{other}/roll", f"/api/c/{other}"):
        assert gm.client.get(path).status_code == 403, path
    assert gm.api(f"/api/c/{other}/roll", ATTACK).status_code == 403
    assert gm.post(f"/c/{other}/invites", data={"role": "gm"}).status_code == 403
    assert store.journal(other) == [] and store.invites(other) == []


def test_not_signed_in_is_refused_with_the_error_shape(app: Any, table: dict[str, Any]) -> None:
    client = TestClient(app)
    answer = client.get(f"/api/c/{table['id']}/journal")
    assert answer.status_code == 401
    assert error_of(answer)["field"] == "session"
    assert client.get(f"/c/{table['id']}").status_code == 401


def test_pu_4_hidden_gm_rolls_reach_players_only_after_disclosure(
    app: Any, table: dict[str, Any]
) -> None:
    store: Store = table["store"]
    gm = join(app, store, table["id"], "gm")
    player = join(app, store, table["id"], "player", "Kaito")
    secret = gm.api(
        f"/api/c/{table['id']}/roll", {**ATTACK, "hidden": True, "action_id": "embuscade"}
    )
    assert secret.status_code == 200 and secret.json()["journal"]["hidden"] is True
    faces = secret.json()["faces"]
    for path in ("/api/c/{id}/journal", "/api/c/{id}/journal/export", "/c/{id}/journal"):
        shown = player.client.get(path.format(id=table["id"]))
        assert shown.status_code == 200
        assert "embuscade" not in shown.text and '"context"' not in shown.text
    replay = player.api(f"/api/c/{table['id']}/roll", {**ATTACK, "action_id": "embuscade"})
    assert replay.status_code in (403, 409) and str(faces) not in replay.text
    assert "hidden roll" in player.client.get(f"/c/{table['id']}").text
    same = {**ATTACK, "actor": "Kaito", "hidden": True, "action_id": "piège"}
    assert gm.api(f"/api/c/{table['id']}/roll", same).status_code == 200
    mine = {**ATTACK, "action_id": "piège"}  # the very roll the GM made for Kaito, hidden
    asked = player.api(f"/api/c/{table['id']}/roll", mine)
    assert asked.status_code == 403 and '"faces"' not in asked.text
    assert player.post(f"/c/{table['id']}/journal/disclose").status_code == 403
    assert 'id="disclose"' in gm.client.get(f"/c/{table['id']}/journal").text
    assert gm.post(f"/c/{table['id']}/journal/disclose").status_code == 303
    assert 'id="disclose"' not in gm.client.get(f"/c/{table['id']}/journal").text  # all public
    opened = player.client.get(f"/api/c/{table['id']}/journal").json()["entries"][0]
    assert opened["context"]["action_id"] == "embuscade"


def test_pu_4_the_open_seed_is_never_exported_before_the_gm_reveals_it(
    app: Any, table: dict[str, Any]
) -> None:
    gm = join(app, table["store"], table["id"], "gm")
    player = join(app, table["store"], table["id"], "player", "Kaito")
    export = gm.client.get(f"/c/{table['id']}/journal/export").json()
    assert export["epochs"][0]["seed"] is None and export["epochs"][0]["commitment"]
    assert gm.api(f"/api/c/{table['id']}/roll", {**ATTACK, "hidden": True}).status_code == 200
    assert player.post(f"/c/{table['id']}/journal/reveal").status_code == 403
    refused = gm.post(f"/c/{table['id']}/journal/reveal")
    assert refused.status_code == 409 and "hidden rolls not disclosed yet" in refused.text
    assert gm.client.get(f"/c/{table['id']}/journal/export").json()["epochs"][0]["seed"] is None
    assert gm.post(f"/c/{table['id']}/journal/disclose").status_code == 303
    assert gm.post(f"/c/{table['id']}/journal/reveal").status_code == 303
    epochs = player.client.get(f"/c/{table['id']}/journal/export").json()["epochs"]
    assert len(epochs[0]["seed"]) == 64 and epochs[1]["seed"] is None


def test_security_headers_on_every_answer(app: Any, table: dict[str, Any]) -> None:
    client = TestClient(app)
    for answer in (
        client.get("/"),
        client.get("/static/htmx.min.js"),
        client.get("/nowhere"),
        client.post("/signout"),
        client.get("/api/openapi.json"),
    ):
        csp = answer.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"


def test_pu_4_bad_input_is_the_cli_error_shape_never_a_500(app: Any, table: dict[str, Any]) -> None:
    gm = join(app, table["store"], table["id"], "gm")
    bad = gm.api(f"/api/c/{table['id']}/roll", {"action": "attack", "params": {"willpower": "x"}})
    assert bad.status_code == 422
    assert error_of(bad) | {} == {
        "code": "invalid_input",
        "message": "Volonté: x — not a whole number (allowed: whole number, 0..99)",
        "field": "willpower",  # the message names it for the reader, the key stays the identifier
        "value": "x",
        "allowed": "whole number, 0..99",
    }
    unknown = gm.api(f"/api/c/{table['id']}/roll", {"action": "atack", "params": {}})
    assert unknown.status_code == 404 and error_of(unknown)["suggestion"] == "attack"
    malformed = gm.client.post(
        f"/api/c/{table['id']}/roll",
        content=b"{not json",
        headers={"X-CSRF-Token": gm.csrf, "content-type": "application/json"},
    )
    assert malformed.status_code == 422 and "field" in error_of(malformed)
    big = gm.client.post(
        f"/api/c/{table['id']}/roll",
        content=b"x" * 300_000,
        headers={"X-CSRF-Token": gm.csrf, "content-type": "application/json"},
    )
    assert big.status_code == 413 and error_of(big)["field"] == "body"
    form = gm.post(f"/c/{table['id']}/roll", data={"action": "attack", "willpower": "200"})
    assert form.status_code == 422 and "0..99" in form.text and "Volonté" in form.text
    gone = gm.client.get("/api/nowhere")
    assert gone.status_code == 404 and error_of(gone)["field"] == "path"


def test_pu_4_names_typed_by_players_are_text_on_every_page(
    app: Any, table: dict[str, Any]
) -> None:
    gm = join(app, table["store"], table["id"], "gm")
    evil = "<img src=x onerror=alert(1)>"
    rolled = gm.api(f"/api/c/{table['id']}/roll", {**ATTACK, "actor": evil, "client_seed": evil})
    assert rolled.status_code == 200
    for path in ("/c/{id}", "/c/{id}/journal", "/c/{id}/roll"):
        page = gm.client.get(path.format(id=table["id"])).text
        assert evil not in page and "&lt;img src=x onerror=alert(1)&gt;" in page, path


def test_pages_speak_french_by_accept_language_and_by_the_switch(
    app: Any, table: dict[str, Any]
) -> None:
    gm = join(app, table["store"], table["id"], "gm")
    french = gm.client.get(f"/c/{table['id']}", headers={"accept-language": "fr-FR,fr;q=0.9"})
    assert '<html lang="fr">' in french.text and "Personnages" in french.text
    gm.client.get("/lang/fr?next=/")
    assert '<html lang="fr">' in gm.client.get(f"/c/{table['id']}").text
    for elsewhere in ("//evil.example", "/\\evil.example", "https://evil.example"):
        moved = gm.client.get(f"/lang/en?next={elsewhere}", follow_redirects=False)
        assert moved.headers["location"] == "/"
    assert "Characters" in gm.client.get(f"/c/{table['id']}").text
    assert gm.client.get("/lang/de").status_code == 422


def test_pu_4_roll_page_shows_exact_odds_beside_the_form(app: Any, table: dict[str, Any]) -> None:
    player = join(app, table["store"], table["id"], "player", "Kaito")
    form = player.client.get(f"/c/{table['id']}/roll?action=attack")
    assert 'name="willpower"' in form.text and 'hx-get="/c/' in form.text
    odds = player.client.get(
        f"/c/{table['id']}/odds",
        params={"action": "attack", "willpower": "10", "target_energy": "20"},
        headers={"hx-request": "true"},
    )
    assert odds.status_code == 200 and "15.00 %" in odds.text and "<svg" in odds.text
    unfinished = player.client.get(f"/c/{table['id']}/odds", params={"action": "attack"})
    assert unfinished.status_code == 200 and "Volonté: required" in unfinished.text
    result = player.post(
        f"/c/{table['id']}/roll",
        data={"action": "attack", "willpower": "10", "target_energy": "20"},
        headers={"hx-request": "true"},
    )
    assert result.status_code == 200 and "journal #1" in result.text
    assert "[b]" in result.text and "**" in result.text
    assert csrf_of(player.client.get(f"/c/{table['id']}").text) == player.csrf


def _hero_and_villain(store: Store, campaign: int) -> list[str]:
    import tomllib
    from pathlib import Path

    from jdr.characters import service

    examples = Path(__file__).parents[1] / "src" / "jdr" / "systems" / "plus_ultra" / "examples"
    names = []
    found = store.campaign_by_id(campaign)
    for name in ("hero", "villain"):
        sheet = tomllib.loads((examples / f"{name}.toml").read_text())
        added = service.add(store, found, sheet).character
        assert added is not None
        names.append(added.name)
    return names


def test_pu_4_a_player_plays_a_fight_turn_only_for_their_own_fighter(
    app: Any, table: dict[str, Any]
) -> None:
    store: Store = table["store"]
    hero, villain = _hero_and_villain(store, table["id"])
    gm = join(app, store, table["id"], "gm")
    player = join(app, store, table["id"], "player", hero)
    spectator = join(app, store, table["id"], "spectator")
    assert (
        player.post(f"/c/{table['id']}/fights", data={"with": [hero, villain]}).status_code == 403
    )
    started = gm.post(f"/c/{table['id']}/fights", data={"with": [hero, villain]})
    assert started.status_code == 303
    path = started.headers["location"]
    page = player.client.get(path).text
    assert f"{hero} plays" in page and 'data-command="attack"' in page
    assert f"{villain} plays" not in page
    assert 'data-command="attack"' not in spectator.client.get(path).text
    other = player.post(path, data={"actor": villain, "command": "defend"})
    watcher = spectator.post(path, data={"actor": hero, "command": "defend"})
    assert (other.status_code, watcher.status_code) == (403, 403)
    played = player.post(path, data={"actor": hero, "command": "attack", "target": villain})
    assert played.status_code == 303
    log = player.client.get(path).text
    assert f"{hero} attacks {villain}." in log and "[b]Round 1[/b]" in log
    again = player.post(path, data={"actor": hero, "command": "attack", "target": villain})
    assert again.status_code == 409 and "legal commands now" in again.text


def test_one_campaigns_fight_ids_never_open_in_another(app: Any, table: dict[str, Any]) -> None:
    store: Store = table["store"]
    hero, villain = _hero_and_villain(store, table["id"])
    gm = join(app, store, table["id"], "gm")
    path = gm.post(f"/c/{table['id']}/fights", data={"with": [hero, villain]}).headers["location"]
    fight = path.rsplit("/", 1)[1]
    other = store.create_campaign("plus-ultra", unique("Ailleurs"))
    intruder = join(app, store, other, "gm")
    assert intruder.client.get(f"/c/{other}/fights/{fight}").status_code == 404
    assert intruder.client.get(path).status_code == 403
    refused = intruder.post(f"/c/{other}/fights/{fight}", data={"actor": hero, "command": "defend"})
    assert refused.status_code == 404


def test_pu_2_a_sheet_is_edited_with_its_problems_in_place_by_its_player_only(
    app: Any, table: dict[str, Any]
) -> None:
    store: Store = table["store"]
    hero, villain = _hero_and_villain(store, table["id"])
    ids = {c.name: c.id for c in store.characters(table["id"])}
    player = join(app, store, table["id"], "player", hero)
    path = f"/c/{table['id']}/sheets/{ids[hero]}"
    page = player.client.get(path).text
    assert 'id="save-sheet"' in page and "rank = &#34;C&#34;" in page
    bad = 'name = "Kaito Arashi"\nrank = "Z"\nenergy = 8\nwillpower = 800\n'
    refused = player.post(path, data={"sheet": bad, "revision": "1"})
    assert refused.status_code == 422
    assert "unknown rank" in refused.text and "must be at most 99" in refused.text
    assert "willpower = 800" in refused.text  # what the player typed is kept
    broken = player.post(path, data={"sheet": "rank = ", "revision": "1"})
    assert broken.status_code == 422 and 'class="error"' in broken.text
    text = page.split('name="sheet"')[1].split(">", 1)[1].split("</textarea>")[0]
    edited = text.replace("&#34;", '"').replace("\nwillpower = 8\n", "\nwillpower = 9\n")
    edited = edited.replace("\nenergy = 8\n", "\nenergy = 7\n")  # PU-2: 16 points in all
    saved = player.post(path, data={"sheet": edited, "revision": "1"})
    assert saved.status_code == 303, saved.text
    assert store.character(ids[hero]).sheet["willpower"] == 9
    history = player.client.get(path).text
    assert "revision 2" in history and "edited" in history and hero in history
    other = player.post(
        f"/c/{table['id']}/sheets/{ids[villain]}", data={"sheet": edited, "revision": "1"}
    )
    assert (
        other.status_code == 403
        and 'id="save-sheet"'
        not in player.client.get(f"/c/{table['id']}/sheets/{ids[villain]}").text
    )


def test_pu_4_the_luck_audit_is_drawn_from_the_public_journal(
    app: Any, table: dict[str, Any]
) -> None:
    store: Store = table["store"]
    gm = join(app, store, table["id"], "gm")
    player = join(app, store, table["id"], "player", "Kaito")
    assert player.api(f"/api/c/{table['id']}/roll", ATTACK).status_code == 200
    assert gm.api(f"/api/c/{table['id']}/roll", {**ATTACK, "hidden": True}).status_code == 200
    page = player.client.get(f"/c/{table['id']}/luck").text
    assert "<svg" in page and "<title>Kaito:" in page
    assert page.count("<g><title>") == 1  # the GM's hidden roll is not counted before disclosure


def test_ps_1_a_passion_player_sees_the_advisors_ranking_beside_the_odds(app: Any) -> None:
    store: Store = app.state.store
    campaign = store.create_campaign("passion", unique("Passion"))
    store.add_character(campaign, "Aiko", {})
    player = join(app, store, campaign, "player", "Aiko")
    asked = {"action": "action", "dice": "2d10", "talent": "3", "difficulty": "8"}
    answer = player.client.get(f"/c/{campaign}/odds", params=asked)
    assert answer.status_code == 200
    assert "status quo" in answer.text and "status_quo" not in answer.text
    assert 'class="advice"' in answer.text and "Roll 10d4: 13.84 % chance of success" in answer.text
    french = player.client.get(
        f"/c/{campaign}/odds", params=asked, headers={"accept-language": "fr"}
    )
    assert "Chances exactes" in french.text and "réussite" in french.text
    assert "13,84 %" in french.text


def test_the_gm_revokes_an_invite_in_the_browser_and_it_opens_nothing(
    app: Any, table: dict[str, Any]
) -> None:
    from jdr import access

    store: Store = table["store"]
    gm = join(app, store, table["id"], "gm")
    made = access.invite(store, table["id"], "spectator")
    path = f"/c/{table['id']}/invites/{made.id}/revoke"
    assert gm.post(path).status_code == 303
    assert gm.post(path).status_code == 404  # already revoked
    assert TestClient(app).post(f"/invite/{made.token}").status_code == 403
    page = gm.client.get(f"/c/{table['id']}").text
    assert "revoked" in page


def test_jdr_campaign_invite_prints_a_link_that_opens_once(
    app: Any, table: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    from cli_run import answer, run_json

    store: Store = table["store"]
    name = store.campaign_by_id(table["id"]).name
    db = str(store.engine.url)
    made = answer(
        capsys,
        "campaign",
        "invite",
        name,
        "--role",
        "player",
        "--character",
        "kaito",
        "--expires",
        "2h",
        "--url",
        "https://table.example/",
        "--db",
        db,
    )["invite"]
    assert made["character"] == "Kaito" and made["role"] == "player"
    token = made["link"].removeprefix("https://table.example/invite/")
    assert TestClient(app).post(f"/invite/{token}", follow_redirects=False).status_code == 303
    code, refused = run_json(capsys, "campaign", "invite", name, "--role", "king", "--db", db)
    assert code == 2 and refused["error"]["field"] == "--role"
    assert refused["error"]["allowed"] == "gm, player, spectator"
    code, refused = run_json(
        capsys, "campaign", "invite", name, "--role", "gm", "--expires", "3y", "--db", db
    )
    assert code == 2 and refused["error"]["field"] == "--expires"
    code, refused = run_json(capsys, "campaign", "revoke", name, "99", "--db", db)
    assert code == 2 and refused["error"]["field"] == "ID"
    other = answer(capsys, "campaign", "invite", name, "--role", "spectator", "--db", db)
    revoked = answer(capsys, "campaign", "revoke", name, str(other["invite"]["id"]), "--db", db)
    assert revoked == {"revoked": other["invite"]["id"], "campaign": name}


def test_pu_4_a_player_rolls_from_their_own_sheet_with_its_odds(
    app: Any, table: dict[str, Any]
) -> None:
    store: Store = table["store"]
    hero, villain = _hero_and_villain(store, table["id"])
    player = join(app, store, table["id"], "player", hero)
    mine = {"action": "attack", "sheet": hero, "use_target": villain}
    odds = player.client.get(f"/c/{table['id']}/odds", params=mine)
    assert odds.status_code == 200 and 'class="outcomes"' in odds.text, odds.text
    form = player.client.get(f"/c/{table['id']}/roll?action=attack").text
    assert 'name="use_target"' in form and f'value="{hero}"' in form
    rolled = player.post(f"/c/{table['id']}/roll", data=mine, headers={"hx-request": "true"})
    assert rolled.status_code == 200 and "journal #" in rolled.text, rolled.text
    entry = store.journal(table["id"])[-1].entry
    assert entry["context"]["actor"] == hero and entry["context"]["params"]["willpower"] == 8
    theirs = {"action": "attack", "sheet": villain, "use_target": hero}
    assert player.post(f"/c/{table['id']}/roll", data=theirs).status_code == 403
    gm = join(app, store, table["id"], "gm")
    hidden = gm.post(f"/c/{table['id']}/roll", data={**theirs, "hidden": "on"})
    assert hidden.status_code == 422 and "changes sheets everyone reads" in hidden.text


def test_a_failing_database_is_a_503_in_the_error_shape_never_a_500(tmp_path: Any) -> None:
    from sqlalchemy import text

    app = create_app(f"sqlite:///{tmp_path / 'jdr.db'}", host_token=HOST)
    try:
        store: Store = app.state.store
        with store.engine.begin() as conn:
            conn.execute(text("DROP TABLE web_sessions"))
        client = TestClient(app)
        client.cookies.set("jdr_session", "s" * 43)
        answer = client.get("/api/c/1")
        assert answer.status_code == 503 and error_of(answer)["code"] == "store"
        assert "Traceback" not in answer.text
    finally:
        app.state.store.close()
