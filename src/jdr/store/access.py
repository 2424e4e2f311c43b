"""Invites, web sessions and their seats in the store: rows keyed by the SHA-256 of a random token.

The store never sees a token, only its hash; `jdr.access` makes the tokens and decides who may do
what. A session (a browser's cookie) holds one seat per campaign it joined. Redeeming an invite
marks it used and adds a seat (to the browser's live session, else to a new one) in one
transaction, on a condition (`used IS NULL`, not revoked, not expired) the database checks: two
browsers opening one link at once get one seat between them.

>>> from datetime import UTC, datetime, timedelta
>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi")
>>> soon = datetime.now(UTC) + timedelta(days=1)
>>> store.add_invite(campaign, "a" * 64, "spectator", None, soon)
1
>>> seat, started = store.redeem_invite("a" * 64, None, "b" * 64, soon)
>>> seat.role, started
('spectator', True)
>>> store.redeem_invite("a" * 64, "b" * 64, "c" * 64, soon) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, delete, false, select, update

from jdr.store.base import Database
from jdr.store.models import campaigns, characters, invites, web_seats, web_sessions
from jdr.store.rows import insert_row, now


@dataclass(frozen=True)
class Invite:
    id: int
    campaign_id: int
    role: str
    character_id: int | None
    created: datetime
    expires: datetime
    used: datetime | None
    revoked: datetime | None
    creates: bool = False
    """A player's invite that asks them to create their character (the GM approves it)."""


@dataclass(frozen=True)
class WebSession:
    """A browser's session (its cookie): live until it expires or signs out."""

    id: int
    expires: datetime


@dataclass(frozen=True)
class Seat:
    """A session's seat in one campaign: its role and (a player's) character."""

    session_id: int
    campaign_id: int
    role: str
    character_id: int | None


@dataclass(frozen=True)
class SeatSummary:
    """A seat as the home page lists it: the campaign's name and system, the character's name."""

    campaign_id: int
    campaign: str
    system: str
    role: str
    character: str | None


class Access(Database):
    """The store's invites and sessions (a part of `Store`)."""

    def add_invite(
        self,
        campaign_id: int,
        token_hash: str,
        role: str,
        character_id: int | None,
        expires: datetime,
        creates: bool = False,
    ) -> int:
        row = {
            "campaign_id": campaign_id,
            "token_hash": token_hash,
            "role": role,
            "character_id": character_id,
            "created": now(),
            "expires": expires,
            "creates": creates,
        }
        with self._translated(), self.engine.begin() as conn:
            return insert_row(conn, invites, row)

    def invites(self, campaign_id: int) -> list[Invite]:
        columns = [invites.c[name] for name in Invite.__dataclass_fields__]
        query = select(*columns).where(invites.c.campaign_id == campaign_id)
        with self._translated(), self.engine.connect() as conn:
            rows = conn.execute(query.order_by(invites.c.id)).all()
        return [Invite(**row._asdict()) for row in rows]

    def revoke_invite(self, campaign_id: int, invite_id: int) -> bool:
        """Revoke an unused invite of this campaign; False if there is none such."""
        query = (
            update(invites)
            .where(invites.c.id == invite_id, invites.c.campaign_id == campaign_id)
            .where(invites.c.used.is_(None), invites.c.revoked.is_(None))
            .values(revoked=now())
        )
        with self._translated(), self.engine.begin() as conn:
            return conn.execute(query).rowcount == 1

    def redeem_invite(
        self,
        token_hash: str,
        session_hash: str | None,
        fresh_hash: str,
        session_expires: datetime,
    ) -> tuple[Seat, bool] | None:
        """Use the invite `token_hash` names: a seat in its campaign for the live session
        `session_hash` names, else for a new session keyed `fresh_hash`; whether that new session
        was started. None if no such invite is usable (unknown, used, revoked or expired: the
        caller does not learn which)."""
        with self._translated(), self.engine.begin() as conn:
            invite = use_invite(conn, token_hash)
            if invite is None:
                return None
            return _seat_in(
                conn,
                session_hash,
                fresh_hash,
                session_expires,
                {
                    "campaign_id": invite.campaign_id,
                    "role": invite.role,
                    "character_id": invite.character_id,
                    "invite_id": invite.id,
                    "created": now(),
                },
            )

    def add_seat(
        self,
        session_hash: str | None,
        fresh_hash: str,
        campaign_id: int,
        role: str,
        character_id: int | None,
        expires: datetime,
    ) -> tuple[Seat, bool]:
        """A seat without an invite (the host who created the campaign): for the live session
        `session_hash` names, else for a new session keyed `fresh_hash` (whether it was started)."""
        row = {
            "campaign_id": campaign_id,
            "role": role,
            "character_id": character_id,
            "invite_id": None,
            "created": now(),
        }
        with self._translated(), self.engine.begin() as conn:
            return _seat_in(conn, session_hash, fresh_hash, expires, row)

    def add_session(
        self,
        campaign_id: int,
        session_hash: str,
        role: str,
        character_id: int | None,
        expires: datetime,
    ) -> Seat:
        """A new session with one seat (the host, a benchmark's players)."""
        return self.add_seat(None, session_hash, campaign_id, role, character_id, expires)[0]

    def web_session(self, session_hash: str) -> WebSession | None:
        """The live session `session_hash` names, or None (unknown, revoked or expired)."""
        query = select(web_sessions.c.id, web_sessions.c.expires).where(*_live(session_hash))
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else WebSession(**row._asdict())

    def signed_in(
        self, session_hash: str, campaign_id: int
    ) -> tuple[Seat | None, str | None, Any] | None:
        """What a signed-in request in a campaign needs, in one query: the live session
        `session_hash` names' seat in `campaign_id`, its player's character's name, and the
        campaign's row. None if no such live session; (None, None, None) if it has no seat
        there."""
        seat = and_(
            web_seats.c.session_id == web_sessions.c.id, web_seats.c.campaign_id == campaign_id
        )
        query = (
            select(
                web_sessions.c.id.label("session_id"),
                web_seats.c.campaign_id,
                web_seats.c.role,
                web_seats.c.character_id,
                characters.c.name.label("character_name"),
                *[c.label(f"c__{c.name}") for c in campaigns.c],
            )
            .select_from(
                web_sessions.outerjoin(web_seats, seat)
                .outerjoin(campaigns, campaigns.c.id == web_seats.c.campaign_id)
                .outerjoin(characters, characters.c.id == web_seats.c.character_id)
            )
            .where(*_live(session_hash))
        )
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
        if row is None:
            return None
        found = row._asdict()
        if found["campaign_id"] is None:
            return None, None, None
        taken = Seat(
            found["session_id"], found["campaign_id"], found["role"], found["character_id"]
        )
        campaign = {k.removeprefix("c__"): v for k, v in found.items() if k.startswith("c__")}
        return taken, found["character_name"], campaign

    def seats(self, session_hash: str) -> list[SeatSummary]:
        """The live session's seats, in the order they were taken (none if it is not live)."""
        query = (
            select(
                web_seats.c.campaign_id,
                campaigns.c.name.label("campaign"),
                campaigns.c.system,
                web_seats.c.role,
                characters.c.name.label("character"),
            )
            .select_from(
                web_sessions.join(web_seats, web_seats.c.session_id == web_sessions.c.id)
                .join(campaigns, campaigns.c.id == web_seats.c.campaign_id)
                .outerjoin(characters, characters.c.id == web_seats.c.character_id)
            )
            .where(*_live(session_hash))
            .order_by(web_seats.c.id)
        )
        with self._translated(), self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [SeatSummary(**row._asdict()) for row in rows]

    def end_session(self, session_hash: str) -> None:
        """Sign out: the session, and so every seat it holds, opens nothing any more."""
        query = (
            update(web_sessions)
            .where(web_sessions.c.token_hash == session_hash, web_sessions.c.revoked.is_(None))
            .values(revoked=now())
        )
        with self._translated(), self.engine.begin() as conn:
            conn.execute(query)


def use_invite(conn: Connection, token_hash: str, creates: bool = True) -> Any:
    """Mark the invite `token_hash` names used, in `conn`'s transaction, if it is usable (not
    used, revoked or expired; `creates`: one that asks the player to create their character
    may be); its row (id, campaign_id, role, character_id), else None."""
    at = now()
    usable = update(invites).where(invites.c.token_hash == token_hash, invites.c.used.is_(None))
    usable = usable.where(invites.c.revoked.is_(None), invites.c.expires > at)
    if not creates:
        usable = usable.where(invites.c.creates == false())
    if conn.execute(usable.values(used=at)).rowcount != 1:
        return None
    return conn.execute(
        select(invites.c.id, invites.c.campaign_id, invites.c.role, invites.c.character_id).where(
            invites.c.token_hash == token_hash
        )
    ).one()


def _live(session_hash: str) -> tuple[Any, ...]:
    """The conditions of the live session `session_hash` names."""
    return (
        web_sessions.c.token_hash == session_hash,
        web_sessions.c.revoked.is_(None),
        web_sessions.c.expires > now(),
    )


def _seat_in(
    conn: Connection,
    session_hash: str | None,
    fresh_hash: str,
    expires: datetime,
    row: dict[str, Any],
) -> tuple[Seat, bool]:
    """Seat `row` (its campaign, role, character, invite) in the live session `session_hash`
    names (it then lasts until `expires` at least), else in a new session keyed `fresh_hash`.
    A seat the session already had in that campaign gives way to the new one."""
    found = None
    if session_hash is not None:
        found = conn.execute(select(web_sessions.c.id).where(*_live(session_hash))).scalar()
    started = found is None
    if found is None:
        session_row = {"token_hash": fresh_hash, "created": row["created"], "expires": expires}
        found = insert_row(conn, web_sessions, session_row)
    else:
        conn.execute(
            update(web_sessions)
            .where(web_sessions.c.id == found, web_sessions.c.expires < expires)
            .values(expires=expires)
        )
        conn.execute(
            delete(web_seats).where(
                web_seats.c.session_id == found, web_seats.c.campaign_id == row["campaign_id"]
            )
        )
    insert_row(conn, web_seats, {"session_id": found, **row})
    seat = Seat(found, row["campaign_id"], row["role"], row["character_id"])
    return seat, started
