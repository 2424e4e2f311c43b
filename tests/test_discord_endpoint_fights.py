"""A fight of each system played through Discord's signed endpoint, end to end: the GM links the
channel with a `jdr discord link` code, a player and a spectator join with invite codes, and every
command of the fight is a signed `/jdr fight act` interaction answered by the web application,
with the decision's owner typing it (the player their character's, the GM the NPC's). The
recap comes back cut into messages Discord takes, its later ones posted as follow-ups."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from discord_helpers import (
    DiscordClient,
    FakeDiscord,
    content,
    discord_app,
    ephemeral,
    fake_discord,
    key_pair,
    seat_table,
)
from discord_tables import SYSTEMS, Table, assert_fits, play_to_the_end, seeded_table
from jdr.discord.types import MESSAGE_LIMIT, Caller, Reply
from jdr.errors import RulesError
from jdr.table import fight_page

KEYS = key_pair(11)
JOURNAL = re.compile(r"journal #\d+ · [0-9a-f]{10} · ")  # a roll post's line


@dataclass
class SignedTable(Table):
    """A table whose every question goes to the endpoint as a signed interaction, typed by the
    Discord user who holds the seat."""

    discord: DiscordClient | None = None
    users: dict[str, str] = field(default_factory=dict)

    def ask(
        self, who: str, path: tuple[str, ...], caller: Caller | None = None, **options: Any
    ) -> Reply:
        assert self.discord is not None
        seat = {"player": self.names[0]}.get(who, who)
        typed = {key: value for key, value in options.items() if value is not None}
        locale = caller.locale if caller is not None else "en-US"
        response = self.discord.command(path, typed, user_id=self.users[seat], locale=locale)
        found = Reply(content(response), (), ephemeral(response))
        assert_fits(found)
        if found.ephemeral and path == ("fight", "act"):
            raise RulesError(found.content)  # a refusal: the driver tries the tactic's next
        return found


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    with fake_discord() as found:
        yield found


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_fight_of_each_system_is_played_through_the_signed_endpoint(
    database_url: str, fake: FakeDiscord, system: str
) -> None:
    app = discord_app(database_url, KEYS, api_base=fake.base)
    store = app.state.store
    made = seeded_table(store, system)
    with TestClient(app) as client:
        discord = DiscordClient(client, KEYS)
        users = seat_table(discord, store, made.campaign.id, [made.names[0]])
        table = SignedTable(store, made.campaign, made.names, made.fight_id, discord, users)
        replies, ended = play_to_the_end(table)
        assert ended and replies
        for reply in replies:
            assert not reply.ephemeral
            assert JOURNAL.search(reply.content), reply.content
        page = fight_page(store, made.gm, made.campaign, made.fight_id, recaps=False)
        if system != "poledemos":  # its rules never end a fight: the GM ends it, after a round
            assert page.ending is not None
            assert page.view.status in replies[-1].content
        # the spectator reads the fight, not plays it
        shown = table.ask("spectator", ("fight", "show"))
        assert page.view.status.split(" — ")[0] in shown.content
        refused = discord.command(
            ("fight", "act"), {"command": "attack"}, user_id=users["spectator"]
        )
        assert ephemeral(refused)
        # the recap: its first message answers, the others follow it as follow-ups
        before = len(fake.requests)
        recap = table.ask("gm", ("recap",))
        posted = fake.requests[before:]
        assert all(r.method == "POST" and "/webhooks/" in r.path for r in posted)
        messages = [recap.content, *(str(r.body["content"]) for r in posted)]
        assert all(len(m) <= MESSAGE_LIMIT for m in messages)
        if len(messages) > 1:
            assert re.search(rf"\(1/{len(messages)}\)", messages[0])
        assert re.search(r"journal #\d+ [0-9a-f]{10}", messages[-1])
