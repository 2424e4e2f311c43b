"""Discord's link codes, bound channels and seats in the store (issue 33).

A link code (its SHA-256 only, single use, expiring) binds a channel to a campaign and seats
whoever redeems it as the campaign's GM; an invite (`jdr.store.access`) redeemed on Discord seats
a user with the invite's role and character. Both mark the code used and write the seat in one
transaction, on a condition the database checks (`used IS NULL`, not expired): two users sending
one code at once get one seat between them. `jdr.discord.identity` makes the codes and decides.

>>> from datetime import UTC, datetime, timedelta
>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi")
>>> soon = datetime.now(UTC) + timedelta(days=1)
>>> store.add_discord_link(campaign, "a" * 64, soon)
1
>>> store.redeem_discord_link("a" * 64, "100", "9", "42") == campaign
True
>>> store.redeem_discord_link("a" * 64, "100", "9", "43") is None
True
>>> found, seat, _name = store.discord_place("100", "42")
>>> found is not None and found.name, seat is not None and seat.role
('Mardi', 'gm')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, delete, select, update

from jdr.store.access import use_invite
from jdr.store.base import Database
from jdr.store.campaigns import Campaign
from jdr.store.models import (
    campaigns,
    characters,
    discord_channels,
    discord_links,
    discord_seats,
    invites,
)
from jdr.store.rows import insert_row, now

__all__ = ["Discord", "DiscordSeat"]


@dataclass(frozen=True)
class DiscordSeat:
    """A Discord user's seat in one campaign: its role and (a player's) character."""

    campaign_id: int
    user_id: str
    role: str
    character_id: int | None


class Discord(Database):
    """The store's Discord link codes, channels and seats (a part of `Store`)."""

    def add_discord_link(self, campaign_id: int, code_hash: str, expires: Any) -> int:
        row = {"campaign_id": campaign_id, "code_hash": code_hash, "created": now(),
               "expires": expires}  # fmt: skip
        with self._translated(), self.engine.begin() as conn:
            return insert_row(conn, discord_links, row)

    def redeem_discord_link(
        self, code_hash: str, channel_id: str, guild_id: str | None, user_id: str
    ) -> int | None:
        """Use the link code `code_hash` names: bind `channel_id` to its campaign (instead of
        any campaign it was bound to) and seat `user_id` there as GM. The campaign's id, or None
        if no such code is usable (unknown, used or expired: the caller does not learn which)."""
        at = now()
        with self._translated(), self.engine.begin() as conn:
            found = conn.execute(
                update(discord_links)
                .where(discord_links.c.code_hash == code_hash, discord_links.c.used.is_(None))
                .where(discord_links.c.expires > at)
                .values(used=at)
            )
            if found.rowcount != 1:
                return None
            campaign_id = int(
                conn.execute(
                    select(discord_links.c.campaign_id).where(
                        discord_links.c.code_hash == code_hash
                    )
                ).scalar_one()
            )
            conn.execute(
                delete(discord_channels).where(discord_channels.c.channel_id == channel_id)
            )
            channel = {"channel_id": channel_id, "campaign_id": campaign_id,
                       "guild_id": guild_id, "created": at}  # fmt: skip
            conn.execute(discord_channels.insert().values(channel))
            _seat(conn, DiscordSeat(campaign_id, user_id, "gm", None), None)
            return campaign_id

    def redeem_discord_invite(self, token_hash: str, user_id: str) -> DiscordSeat | None:
        """Use the invite `token_hash` names: seat `user_id` in its campaign with its role and
        character (instead of any seat the user had there). None if no such invite is usable
        (unknown, used, revoked, expired, or one that asks the player to create their character
        in the browser)."""
        with self._translated(), self.engine.begin() as conn:
            invite = use_invite(conn, token_hash, creates=False)
            if invite is None:
                return None
            seat = DiscordSeat(invite.campaign_id, user_id, invite.role, invite.character_id)
            _seat(conn, seat, invite.id)
            return seat

    def invite_creates(self, token_hash: str) -> bool:
        """Whether `token_hash` names a usable invite that asks the player to create their
        character (in the browser)."""
        query = select(invites.c.id).where(
            invites.c.token_hash == token_hash,
            invites.c.used.is_(None),
            invites.c.revoked.is_(None),
            invites.c.expires > now(),
            invites.c.creates.is_(True),
        )
        with self._translated(), self.engine.connect() as conn:
            return conn.execute(query).first() is not None

    def discord_place(
        self, channel_id: str, user_id: str
    ) -> tuple[Campaign | None, DiscordSeat | None, str | None]:
        """In one query: the campaign `channel_id` is bound to (None if none), `user_id`'s seat
        there (None without one) and its character's name."""
        seat = and_(
            discord_seats.c.campaign_id == discord_channels.c.campaign_id,
            discord_seats.c.user_id == user_id,
        )
        query = (
            select(
                discord_seats.c.role,
                discord_seats.c.character_id,
                characters.c.name.label("character_name"),
                *[c.label(f"c__{c.name}") for c in campaigns.c],
            )
            .select_from(
                discord_channels.join(campaigns, campaigns.c.id == discord_channels.c.campaign_id)
                .outerjoin(discord_seats, seat)
                .outerjoin(characters, characters.c.id == discord_seats.c.character_id)
            )
            .where(discord_channels.c.channel_id == channel_id)
        )
        with self._translated(), self._reading() as conn:
            row = conn.execute(query).one_or_none()
        if row is None:
            return None, None, None
        found = row._asdict()
        campaign = Campaign(
            **{k.removeprefix("c__"): v for k, v in found.items() if k.startswith("c__")}
        )
        if found["role"] is None:
            return campaign, None, None
        taken = DiscordSeat(campaign.id, user_id, found["role"], found["character_id"])
        return campaign, taken, found["character_name"]

    def discord_seat(self, campaign_id: int, user_id: str) -> tuple[DiscordSeat, str | None] | None:
        """`user_id`'s seat in `campaign_id` and its character's name, or None."""
        query = (
            select(discord_seats.c.role, discord_seats.c.character_id, characters.c.name)
            .select_from(
                discord_seats.outerjoin(characters, characters.c.id == discord_seats.c.character_id)
            )
            .where(discord_seats.c.campaign_id == campaign_id, discord_seats.c.user_id == user_id)
        )
        with self._translated(), self._reading() as conn:
            row = conn.execute(query).one_or_none()
        if row is None:
            return None
        return DiscordSeat(campaign_id, user_id, row.role, row.character_id), row.name


def _seat(conn: Connection, seat: DiscordSeat, invite_id: int | None) -> None:
    """Seat `seat`'s user in its campaign; a seat they had there gives way to the new one."""
    conn.execute(
        delete(discord_seats).where(
            discord_seats.c.campaign_id == seat.campaign_id,
            discord_seats.c.user_id == seat.user_id,
        )
    )
    row = {"campaign_id": seat.campaign_id, "user_id": seat.user_id, "role": seat.role,
           "character_id": seat.character_id, "invite_id": invite_id, "created": now()}  # fmt: skip
    insert_row(conn, discord_seats, row)
