"""Issue 33 part 2 through HTTP: Discord's interactions answered at `/discord/interactions`.

Every request is signed with a test Ed25519 key pair as Discord signs them; anything unsigned,
badly signed, signed for another body, stale, replayed or too large is refused (401, 413), and the
endpoint is absent (404) from a server not given a public key. A GM binds a channel with a link
code, players and spectators take their seats with ordinary invites, with the same roles as on
the web; refusals answer the caller only, in their language; long replies go as follow-ups to
Discord's API (a fake on 127.0.0.1).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from discord_helpers import (
    APPLICATION_ID,
    CHANNEL_ID,
    GM_USER,
    INTERACTION_TOKEN,
    PLAYER_USER,
    SPECTATOR_USER,
    STRANGER_USER,
    DiscordClient,
    FakeDiscord,
    content,
    discord_table,
    ephemeral,
    fake_discord,
    interaction,
    key_pair,
    link_channel,
    ping,
    take_seat,
)
from jdr import access
from jdr.access import Viewer
from jdr.discord.identity import link_code, place
from jdr.discord.types import MESSAGE_LIMIT, Caller, Reply

KAITO = "Kaito Arashi"
KEYS = key_pair()


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    with fake_discord() as found:
        yield found


@pytest.fixture
def table(database_url: str, fake: FakeDiscord) -> Iterator[tuple[DiscordClient, Any, int]]:
    """Discord's client on a Plus Ultra campaign (its follow-ups go to `fake`)."""
    app, store, campaign_id = discord_table(database_url, KEYS, api_base=fake.base)
    with TestClient(app) as client:
        yield DiscordClient(client, KEYS), store, campaign_id
    store.close()


def caller(user_id: str, channel_id: str = CHANNEL_ID) -> Caller:
    return Caller(user_id, "someone", channel_id)


# --- the signature -----------------------------------------------------------------------------


def test_ping_is_answered_pong_without_any_cookie_or_csrf_token(table: Any) -> None:
    discord, _store, _campaign = table
    answer = discord.send(ping())
    assert answer.status_code == 200
    assert answer.json() == {"type": 1}


def test_an_unsigned_request_is_refused_401_in_the_error_shape(table: Any) -> None:
    discord, _store, _campaign = table
    body = json.dumps(ping()).encode()
    answer = discord.raw(body, {"Content-Type": "application/json"})
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "bad_signature"
    half = KEYS.sign(body)
    del half["X-Signature-Timestamp"]
    assert discord.raw(body, half).status_code == 401


def test_a_request_signed_by_another_key_or_with_garbage_is_refused(table: Any) -> None:
    discord, _store, _campaign = table
    body = json.dumps(ping()).encode()
    assert discord.raw(body, key_pair(seed=9).sign(body)).status_code == 401
    garbage = {**KEYS.sign(body), "X-Signature-Ed25519": "zz" * 64}
    assert discord.raw(body, garbage).status_code == 401
    short = {**KEYS.sign(body), "X-Signature-Ed25519": "ab"}
    assert discord.raw(body, short).status_code == 401


def test_a_body_replayed_with_another_bodys_signature_is_refused(table: Any) -> None:
    discord, store, campaign_id = table
    before = len(store.journal(campaign_id))
    seen = json.dumps(ping()).encode()
    headers = KEYS.sign(seen)
    other = json.dumps(interaction(("dice",), {"expression": "2d6"})).encode()
    answer = discord.raw(other, headers)
    assert answer.status_code == 401
    assert len(store.journal(campaign_id)) == before
    changed = seen.replace(b'"type": 1', b'"type": 2')
    assert discord.raw(changed, headers).status_code == 401


def test_the_same_signed_request_sent_twice_is_refused_the_second_time(table: Any) -> None:
    discord, _store, _campaign = table
    body = json.dumps(ping()).encode()
    headers = KEYS.sign(body)
    assert discord.raw(body, headers).status_code == 200
    assert discord.raw(body, headers).status_code == 401


def test_a_stale_or_future_timestamp_is_refused(table: Any) -> None:
    discord, _store, _campaign = table
    now = int(time.time())
    assert discord.send(ping(), timestamp=str(now - 301)).status_code == 401
    assert discord.send(ping(), timestamp=str(now + 301)).status_code == 401
    assert discord.send(ping(), timestamp=str(now - 200)).status_code == 200


def test_an_over_large_request_is_refused_413_before_any_check(table: Any) -> None:
    discord, _store, _campaign = table
    payload = {**ping(), "padding": "x" * (64 * 1024)}
    answer = discord.send(payload)
    assert answer.status_code == 413
    assert answer.json()["error"]["code"] == "limit_exceeded"


def test_a_malformed_signed_request_is_refused_without_a_500(table: Any) -> None:
    discord, _store, _campaign = table
    body = b"{not json"
    assert discord.raw(body, KEYS.sign(body)).status_code == 422
    assert discord.send({"type": 2, "data": {"name": "jdr"}}).status_code == 422
    assert discord.send({"type": 3}).status_code == 422
    assert discord.raw(b"[1, 2]", KEYS.sign(b"[1, 2]")).status_code == 422


def test_the_endpoint_is_absent_from_a_server_without_a_public_key(database_url: str) -> None:
    from jdr.web.app import create_app
    from web_helpers import HOST

    app = create_app(database_url, host_token=HOST)
    with TestClient(app) as client:
        body = json.dumps(ping()).encode()
        answer = client.post("/discord/interactions", content=body, headers=KEYS.sign(body))
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "not_found"
    app.state.store.close()


def test_a_malformed_public_key_is_refused_with_a_clear_message(database_url: str) -> None:
    from jdr.errors import InputError
    from jdr.web.app import create_app

    with pytest.raises(InputError, match="64 hexadecimal digits"):
        create_app(database_url, discord_public_key="abc")


# --- channels and seats ------------------------------------------------------------------------


def test_the_gm_links_a_channel_with_a_single_use_code(table: Any) -> None:
    discord, store, campaign_id = table
    campaign = store.campaign_by_id(campaign_id)
    made = link_code(store, campaign_id)
    answer = discord.command(("campaign", "link"), {"code": made.code})
    assert ephemeral(answer)
    assert campaign.name in content(answer)
    found, viewer = place(store, caller(GM_USER))
    assert found is not None and found.id == campaign_id
    assert viewer == Viewer(campaign_id, "gm", None, None)
    again = discord.command(("campaign", "link"), {"code": made.code}, channel_id="811")
    assert ephemeral(again) and "used, expired or unknown" in content(again)
    assert place(store, caller(GM_USER, "811")) == (None, None)


def test_the_stored_link_code_is_only_its_hash(table: Any) -> None:
    _discord, store, campaign_id = table
    from sqlalchemy import select

    from jdr.store.models import discord_links

    made = link_code(store, campaign_id, "30m")
    with store.engine.connect() as conn:
        stored = conn.execute(select(discord_links.c.code_hash)).scalars().all()
    assert made.code not in stored and access.token_hash(made.code) in stored


def test_a_player_takes_their_seat_with_an_invite_and_cannot_relink_the_channel(
    table: Any,
) -> None:
    discord, store, campaign_id = table
    link_channel(discord, store, campaign_id)
    answer = take_seat(discord, store, campaign_id, "player", KAITO, user_id=PLAYER_USER)
    assert ephemeral(answer) and KAITO in content(answer)
    _campaign, viewer = place(store, caller(PLAYER_USER))
    assert viewer is not None and viewer.role == "player" and viewer.character == KAITO
    assert viewer.may_act_for(KAITO) and not viewer.may_act_for("Maître Corbeau")
    other = store.create_campaign("passion", "Elsewhere")
    code = link_code(store, other)
    refused = discord.command(("campaign", "link"), {"code": code.code}, user_id=PLAYER_USER)
    assert ephemeral(refused) and "only its GM" in content(refused)
    assert place(store, caller(PLAYER_USER))[0].id == campaign_id  # type: ignore[union-attr]
    relinked = discord.command(("campaign", "link"), {"code": code.code})  # still unused
    assert ephemeral(relinked) and "Elsewhere" in content(relinked)
    assert place(store, caller(GM_USER))[0].id == other  # type: ignore[union-attr]


def test_a_spectator_joins_with_a_spectators_role_and_reads_only(table: Any) -> None:
    discord, store, campaign_id = table
    link_channel(discord, store, campaign_id)
    take_seat(discord, store, campaign_id, "spectator", user_id=SPECTATOR_USER)
    _campaign, viewer = place(store, caller(SPECTATOR_USER))
    assert viewer is not None and viewer.role == "spectator" and not viewer.may_write
    from jdr.errors import AccessError

    with pytest.raises(AccessError):
        viewer.require_actor(KAITO)


def test_a_used_revoked_or_unknown_invite_is_refused_to_the_caller_only(table: Any) -> None:
    discord, store, campaign_id = table
    made = access.invite(store, campaign_id, "spectator")
    assert not ephemeral(answer := discord.command(("join",), {"code": made.token})) or answer
    again = discord.command(("join",), {"code": made.token}, user_id=STRANGER_USER)
    assert ephemeral(again) and "used, revoked, expired or unknown" in content(again)
    revoked = access.invite(store, campaign_id, "spectator")
    store.revoke_invite(campaign_id, revoked.id)
    for code in (revoked.token, "nope", "x" * 500):
        refused = discord.command(("join",), {"code": code}, user_id=STRANGER_USER)
        assert ephemeral(refused)
    assert place(store, caller(STRANGER_USER))[1] is None


def test_an_invite_link_is_accepted_as_its_code(table: Any) -> None:
    discord, store, campaign_id = table
    made = access.invite(store, campaign_id, "player", KAITO)
    link = f"https://table.example/invite/{made.token}"
    answer = discord.command(("join",), {"code": link}, user_id=PLAYER_USER)
    assert KAITO in content(answer)
    seat = store.discord_seat(campaign_id, PLAYER_USER)
    assert seat is not None and seat[0].role == "player"


def test_an_invite_that_asks_to_create_a_character_is_left_for_the_browser(table: Any) -> None:
    discord, store, campaign_id = table
    made = access.invite(store, campaign_id, "player", creates=True)
    answer = discord.command(("join",), {"code": made.token}, user_id=PLAYER_USER)
    assert ephemeral(answer) and "browser" in content(answer)
    assert [i.used for i in store.invites(campaign_id)] == [None]  # still usable on the web


def test_joining_says_when_the_channel_does_not_play_that_campaign(table: Any) -> None:
    discord, store, campaign_id = table
    answer = take_seat(discord, store, campaign_id, "spectator", user_id=SPECTATOR_USER)
    assert "does not play it" in content(answer)


def test_refusals_speak_the_callers_language(table: Any) -> None:
    discord, _store, _campaign = table
    answer = discord.command(("join",), {"code": "nope"}, locale="fr")
    assert ephemeral(answer)
    assert "invitation" in content(answer).lower()


# --- what the game subcommands get, and how their replies are sent --------------------------------


def stub(calls: list[Any], reply: Reply | Exception) -> Any:
    """An answer for the game subcommands that records its arguments."""

    def answer(*args: Any) -> Reply:
        calls.append(args)
        if isinstance(reply, Exception):
            raise reply
        return reply

    return answer


def test_a_subcommand_gets_the_channels_campaign_the_callers_seat_and_its_options(
    table: Any,
) -> None:
    discord, store, campaign_id = table
    calls: list[Any] = []
    discord.client.app.state.discord.answer = stub(calls, Reply("ok"))
    link_channel(discord, store, campaign_id)
    take_seat(discord, store, campaign_id, "player", KAITO, user_id=PLAYER_USER)
    options = {"command": "attack", "target": "Maître Corbeau", "options": "power=2"}
    answer = discord.command(("fight", "act"), options, user_id=PLAYER_USER, locale="fr")
    assert content(answer) == "ok" and not ephemeral(answer)
    _store, campaign, viewer, who, path, given = calls[-1]
    assert campaign.id == campaign_id and viewer.character == KAITO
    assert who == Caller(PLAYER_USER, "Ana", CHANNEL_ID, "700000000000000001", "fr")
    assert path == ("fight", "act") and given == options
    discord.command(("recap",), {"fight": 2, "round": 1}, user_id=STRANGER_USER)
    _store, campaign, viewer, _who, path, given = calls[-1]
    assert campaign.id == campaign_id and viewer is None  # no seat: the answer refuses
    assert given == {"fight": 2, "round": 1}
    discord.command(("dice",), {"expression": "1d6"}, channel_id="999", guild_id=None)
    assert calls[-1][1] is None and calls[-1][2] is None  # a DM: no campaign


def test_a_refusal_is_ephemeral_and_worded_and_a_bug_is_never_a_500(table: Any) -> None:
    from jdr.errors import AccessError

    discord, store, campaign_id = table
    link_channel(discord, store, campaign_id)
    refusal = AccessError("actor", None, "-", "a spectator reads only")
    discord.client.app.state.discord.answer = stub([], refusal)
    answer = discord.command(("roll",), {"action": "attack"}, user_id=SPECTATOR_USER)
    assert ephemeral(answer) and "a spectator reads only" in content(answer)
    discord.client.app.state.discord.answer = stub([], RuntimeError("bug"))
    answer = discord.command(("roll",), {"action": "attack"})
    assert ephemeral(answer) and "failed" in content(answer)


def test_hidden_replies_are_ephemeral_and_long_ones_go_as_followups(
    table: Any, fake: FakeDiscord
) -> None:
    discord, _store, _campaign_id = table
    long = "\n".join(f"line {n} " + "x" * 90 for n in range(50))  # about 5000 characters
    reply = Reply(long, followups=("round 2", "round 3"), ephemeral=True)
    discord.client.app.state.discord.answer = stub([], reply)
    answer = discord.command(("recap",), {}, token=INTERACTION_TOKEN)
    assert ephemeral(answer) and len(content(answer)) <= MESSAGE_LIMIT
    posted = fake.wait_for(4)
    assert {r.path for r in posted} == {f"/api/v10/webhooks/{APPLICATION_ID}/{INTERACTION_TOKEN}"}
    assert all(r.method == "POST" and r.body["flags"] == 64 for r in posted)
    assert all(r.body["allowed_mentions"] == {"parse": []} for r in posted)
    texts = [content(answer)] + [r.body["content"] for r in posted]
    assert all(len(t) <= MESSAGE_LIMIT for t in texts)
    assert "\n".join(texts[:-2]) == long and texts[-2:] == ["round 2", "round 3"]


def test_a_roll_through_the_endpoint_lands_in_the_campaigns_journal(table: Any) -> None:
    discord, store, campaign_id = table
    link_channel(discord, store, campaign_id)
    before = len(store.journal(campaign_id))
    answer = discord.command(("dice",), {"expression": "2d6+3"})
    assert content(answer).strip()
    assert len(store.journal(campaign_id)) == before + 1


def test_a_real_server_on_127_0_0_1_answers_discord(database_url: str, fake: FakeDiscord) -> None:
    """uvicorn serving the app as `jdr serve` does: PING, a refused probe, a linked channel."""
    import urllib.error
    import urllib.request

    from live_helpers import running

    app, store, campaign_id = discord_table(database_url, KEYS, api_base=fake.base)

    def post(payload: Any, signed: bool = True) -> tuple[int, Any]:
        body = json.dumps(payload).encode()
        headers = KEYS.sign(body) if signed else {"Content-Type": "application/json"}
        request = urllib.request.Request(f"{base}/discord/interactions", body, headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())

    try:
        with running(app) as base:
            assert post(ping()) == (200, {"type": 1})
            assert post(ping(), signed=False)[0] == 401
            code = link_code(store, campaign_id).code
            status, found = post(interaction(("campaign", "link"), {"code": code}))
            assert status == 200 and ephemeral(found)
            assert place(store, caller(GM_USER))[1] == Viewer(campaign_id, "gm")
    finally:
        store.close()


def test_a_whole_table_sits_on_discord_with_its_roles(table: Any) -> None:
    from discord_helpers import seat_table

    discord, store, campaign_id = table
    users = seat_table(discord, store, campaign_id, [KAITO, "Maître Corbeau"])
    roles = {
        who: (viewer.role, viewer.character)
        for who, user in users.items()
        for viewer in [place(store, caller(user))[1]]
        if viewer is not None
    }
    assert roles == {
        "gm": ("gm", None),
        KAITO: ("player", KAITO),
        "Maître Corbeau": ("player", "Maître Corbeau"),
        "spectator": ("spectator", None),
    }
