"""jdr on Discord in a test: a test key pair that signs interactions as Discord does, the JSON of
a `/jdr …` command, the web application with its Discord endpoint open, and a fake of Discord's
API on 127.0.0.1 that records what jdr sends it (follow-ups, registered commands).

    keys = key_pair()
    app = discord_app(database_url, keys, api_base=fake.base)
    discord = DiscordClient(TestClient(app), keys)
    discord.send(ping()).json() == {"type": 1}
    answer = discord.command(("fight", "act"), {"command": "attack", "target": "Bo"},
                             user_id=GM_USER)
    content(answer), ephemeral(answer)
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient

from web_helpers import HOST

APPLICATION_ID = "900000000000000001"
GUILD_ID = "700000000000000001"
CHANNEL_ID = "800000000000000001"
GM_USER = "600000000000000001"
PLAYER_USER = "600000000000000002"
SPECTATOR_USER = "600000000000000003"
STRANGER_USER = "600000000000000004"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb24.dG9rZW4-test_token"
PATH = "/discord/interactions"

Value = str | int | float | bool


@dataclass(frozen=True)
class KeyPair:
    """An Ed25519 key pair standing for the Discord application's."""

    private: Ed25519PrivateKey

    @property
    def public_hex(self) -> str:
        """The public key as the developer portal shows it (what `jdr serve` is given)."""
        return self.private.public_key().public_bytes_raw().hex()

    def sign(self, body: bytes, timestamp: str | None = None) -> dict[str, str]:
        """The headers Discord sends with `body`: its signature over `timestamp` (now by
        default) + `body`."""
        stamp = timestamp if timestamp is not None else str(int(time.time()))
        signature = self.private.sign(stamp.encode() + body).hex()
        return {
            "X-Signature-Ed25519": signature,
            "X-Signature-Timestamp": stamp,
            "Content-Type": "application/json",
        }


def key_pair(seed: int = 7) -> KeyPair:
    """A fixed test key pair (`seed` picks another one)."""
    return KeyPair(Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32))


def ping() -> dict[str, Any]:
    """Discord's PING (it sends one when the endpoint URL is saved)."""
    return {"id": "1", "application_id": APPLICATION_ID, "type": 1, "token": INTERACTION_TOKEN,
            "version": 1}  # fmt: skip


def _kind(value: Value) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    return 3


_counter = iter(range(10**6, 10**9))


def interaction(
    path: Sequence[str],
    options: Mapping[str, Value] | None = None,
    *,
    user_id: str = GM_USER,
    user_name: str = "Ana",
    channel_id: str = CHANNEL_ID,
    guild_id: str | None = GUILD_ID,
    locale: str = "en-US",
    token: str = INTERACTION_TOKEN,
    application_id: str = APPLICATION_ID,
) -> dict[str, Any]:
    """The APPLICATION_COMMAND interaction Discord sends for `/jdr PATH OPTIONS` typed by
    `user_id` in `channel_id` (in a guild, or in a DM when `guild_id` is None)."""
    leaves = [{"name": k, "type": _kind(v), "value": v} for k, v in (options or {}).items()]
    inner: list[dict[str, Any]] = leaves
    for depth, name in reversed(list(enumerate(path))):
        kind = 1 if depth == len(path) - 1 else 2
        inner = [{"name": name, "type": kind, "options": inner}]
    user = {"id": user_id, "username": user_name.lower(), "global_name": user_name}
    found: dict[str, Any] = {
        "id": str(next(_counter)),
        "application_id": application_id,
        "type": 2,
        "token": token,
        "version": 1,
        "channel_id": channel_id,
        "channel": {"id": channel_id},
        "locale": locale,
        "data": {"id": "5", "name": "jdr", "type": 1, "options": inner},
    }
    if guild_id is None:
        found["user"] = user
    else:
        found["guild_id"] = guild_id
        found["guild_locale"] = "en-US"
        found["member"] = {"user": user, "permissions": "0", "roles": []}
    return found


def discord_app(database_url: str, keys: KeyPair, api_base: str | None = None) -> Any:
    """The web application on `database_url` with its Discord endpoint open to `keys`
    (follow-ups posted to `api_base`)."""
    from jdr.web.app import create_app

    return create_app(
        database_url,
        host_token=HOST,
        discord_public_key=keys.public_hex,
        discord_api=api_base,
    )


@dataclass
class DiscordClient:
    """Discord, as seen from jdr: it sends signed interactions to the endpoint."""

    client: TestClient
    keys: KeyPair

    def raw(self, body: bytes, headers: Mapping[str, str]) -> Any:
        """POST `body` with `headers` as they are (unsigned, badly signed …)."""
        return self.client.post(PATH, content=body, headers=dict(headers))

    def send(self, payload: Mapping[str, Any], timestamp: str | None = None) -> Any:
        """POST `payload`, signed with the test key (now, or at `timestamp`)."""
        body = json.dumps(payload).encode()
        return self.raw(body, self.keys.sign(body, timestamp))

    def command(
        self, path: Sequence[str], options: Mapping[str, Value] | None = None, **who: Any
    ) -> dict[str, Any]:
        """`/jdr PATH OPTIONS` (`who`: `interaction`'s keywords); the response, which must be
        a 200 channel message."""
        answer = self.send(interaction(path, options, **who))
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        assert found["type"] == 4, found
        assert found["data"]["allowed_mentions"] == {"parse": []}
        return found


def content(response: Mapping[str, Any]) -> str:
    """The message a response shows."""
    return str(response["data"]["content"])


def ephemeral(response: Mapping[str, Any]) -> bool:
    """Whether only the caller sees the response."""
    return bool(response["data"].get("flags", 0) & 64)


def link_channel(
    discord: DiscordClient, store: Any, campaign_id: int, **who: Any
) -> dict[str, Any]:
    """The GM binds a channel to the campaign: a fresh link code (`jdr discord link`), redeemed
    with `/jdr campaign link` (by `who`, GM_USER in CHANNEL_ID by default); the response."""
    from jdr.discord.identity import link_code

    made = link_code(store, campaign_id)
    return discord.command(("campaign", "link"), {"code": made.code}, **who)


def take_seat(
    discord: DiscordClient,
    store: Any,
    campaign_id: int,
    role: str,
    character: str | None = None,
    **who: Any,
) -> dict[str, Any]:
    """A Discord user redeems a fresh invite of `role` (`jdr campaign invite`) with
    `/jdr join`; the response."""
    from jdr import access

    made = access.invite(store, campaign_id, role, character)
    return discord.command(("join",), {"code": made.token}, **who)


@dataclass
class Recorded:
    """A request the fake Discord API received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class FakeDiscord:
    """Discord's API on 127.0.0.1: records every request; answers `status` and `answer`
    (200 and `[]` for a PUT, `{"id": …}` for a POST unless told otherwise)."""

    base: str = ""
    requests: list[Recorded] = field(default_factory=list)
    status: int = 200
    answer: Any = None

    def wait_for(self, count: int, timeout_s: float = 10.0) -> list[Recorded]:
        """The requests once `count` have arrived (an AssertionError after `timeout_s`)."""
        deadline = time.monotonic() + timeout_s
        while len(self.requests) < count:
            assert time.monotonic() < deadline, f"{len(self.requests)} requests, not {count}"
            time.sleep(0.02)
        return list(self.requests)


@contextmanager
def fake_discord() -> Iterator[FakeDiscord]:
    """A `FakeDiscord` serving until the block ends; its `base` is the `api_base` to give jdr."""
    fake = FakeDiscord()

    class Handler(BaseHTTPRequestHandler):
        def _handle(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(size) if size else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode("utf-8", "replace")
            headers = {k.lower(): v for k, v in self.headers.items()}
            fake.requests.append(Recorded(self.command, self.path, headers, body))
            answer = fake.answer
            if answer is None:
                answer = body if self.command == "PUT" else {"id": str(len(fake.requests))}
            data = json.dumps(answer).encode()
            self.send_response(fake.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_PUT(self) -> None:
            self._handle()

        def do_POST(self) -> None:
            self._handle()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    fake.base = f"http://127.0.0.1:{server.server_address[1]}/api/v10"
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def discord_table(
    database_url: str,
    keys: KeyPair,
    system: str = "plus-ultra",
    examples: tuple[str, ...] = ("hero", "villain"),
    api_base: str | None = None,
) -> tuple[Any, Any, int]:
    """`discord_app` and a new campaign of `system` holding its shipped example sheets
    `examples` (Plus Ultra's: Kaito Arashi, Maître Corbeau): the app, its store, the campaign's
    id."""
    import tomllib

    from jdr.characters import service
    from jdr.sheet_check import systems_example
    from web_helpers import unique

    app = discord_app(database_url, keys, api_base)
    store = app.state.store
    campaign_id = store.create_campaign(system, unique("Discord"))
    campaign = store.campaign_by_id(campaign_id)
    for kind in examples:
        service.add(store, campaign, tomllib.loads(systems_example(system, kind)))
    return app, store, campaign_id


def caller_of(user_id: str, channel_id: str = CHANNEL_ID, locale: str = "en-US") -> Any:
    """A `jdr.discord.types.Caller`: `user_id` in `channel_id` (for the services directly)."""
    from jdr.discord.types import Caller

    return Caller(user_id, "someone", channel_id, GUILD_ID, locale)


def seat_table(
    discord: DiscordClient,
    store: Any,
    campaign_id: int,
    characters: Sequence[str],
    spectator: bool = True,
) -> dict[str, str]:
    """A whole table on Discord: GM_USER links CHANNEL_ID to the campaign, one user per
    character in `characters` joins as its player (user ids PLAYER_USER, then …0005, …0006 …),
    and SPECTATOR_USER as spectator (unless told not to). The user id of each seat: `"gm"`,
    each character's name, `"spectator"`."""
    users = {"gm": GM_USER}
    link_channel(discord, store, campaign_id)
    for index, name in enumerate(characters):
        user = PLAYER_USER if index == 0 else str(600000000000000004 + index)
        take_seat(discord, store, campaign_id, "player", name, user_id=user)
        users[name] = user
    if spectator:
        take_seat(discord, store, campaign_id, "spectator", user_id=SPECTATOR_USER)
        users["spectator"] = SPECTATOR_USER
    return users
