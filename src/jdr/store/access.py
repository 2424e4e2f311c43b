"""Invites and web sessions in the store: rows keyed by the SHA-256 of a random token.

The store never sees a token, only its hash; `jdr.access` makes the tokens and decides who may do
what. Redeeming an invite marks it used and starts a session in one transaction, on a condition
(`used IS NULL`, not revoked, not expired) the database checks: two browsers opening one link at
once get one session between them.

>>> from datetime import UTC, datetime, timedelta
>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi")
>>> soon = datetime.now(UTC) + timedelta(days=1)
>>> store.add_invite(campaign, "a" * 64, "spectator", None, soon)
1
>>> store.redeem_invite("a" * 64, "b" * 64, soon).role
'spectator'
>>> store.redeem_invite("a" * 64, "c" * 64, soon) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, select, update

from jdr.store.models import invites, web_sessions
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


@dataclass(frozen=True)
class WebSession:
    id: int
    campaign_id: int
    role: str
    character_id: int | None
    expires: datetime


class Access:
    """The store's invites and sessions (mixed into `Store`)."""

    engine: Engine

    def _translated(self) -> Any:  # `Store`'s: a driver's error becomes a `StoreError`
        raise NotImplementedError

    def add_invite(
        self,
        campaign_id: int,
        token_hash: str,
        role: str,
        character_id: int | None,
        expires: datetime,
    ) -> int:
        row = {
            "campaign_id": campaign_id,
            "token_hash": token_hash,
            "role": role,
            "character_id": character_id,
            "created": now(),
            "expires": expires,
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
        self, token_hash: str, session_hash: str, session_expires: datetime
    ) -> WebSession | None:
        """Use the invite `token_hash` names and start a session; None if no such invite is
        usable (unknown, used, revoked or expired: the caller does not learn which)."""
        at = now()
        with self._translated(), self.engine.begin() as conn:
            found = conn.execute(
                update(invites)
                .where(invites.c.token_hash == token_hash, invites.c.used.is_(None))
                .where(invites.c.revoked.is_(None), invites.c.expires > at)
                .values(used=at)
            )
            if found.rowcount != 1:
                return None
            invite = conn.execute(
                select(
                    invites.c.id, invites.c.campaign_id, invites.c.role, invites.c.character_id
                ).where(invites.c.token_hash == token_hash)
            ).one()
            row = {
                "campaign_id": invite.campaign_id,
                "token_hash": session_hash,
                "role": invite.role,
                "character_id": invite.character_id,
                "invite_id": invite.id,
                "created": at,
                "expires": session_expires,
            }
            session_id = insert_row(conn, web_sessions, row)
        return WebSession(
            session_id, invite.campaign_id, invite.role, invite.character_id, session_expires
        )

    def add_session(
        self,
        campaign_id: int,
        session_hash: str,
        role: str,
        character_id: int | None,
        expires: datetime,
    ) -> WebSession:
        """A session started without an invite (the host who created the campaign)."""
        row = {
            "campaign_id": campaign_id,
            "token_hash": session_hash,
            "role": role,
            "character_id": character_id,
            "created": now(),
            "expires": expires,
        }
        with self._translated(), self.engine.begin() as conn:
            session_id = insert_row(conn, web_sessions, row)
        return WebSession(session_id, campaign_id, role, character_id, expires)

    def web_session(self, session_hash: str) -> WebSession | None:
        """The live session `session_hash` names, or None (unknown, revoked or expired)."""
        query = select(
            web_sessions.c.id,
            web_sessions.c.campaign_id,
            web_sessions.c.role,
            web_sessions.c.character_id,
            web_sessions.c.expires,
        ).where(
            web_sessions.c.token_hash == session_hash,
            web_sessions.c.revoked.is_(None),
            web_sessions.c.expires > now(),
        )
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else WebSession(**row._asdict())

    def signed_in(self, session_hash: str) -> tuple[WebSession, str | None, Any] | None:
        """What a signed-in request needs, in one query: the live session `session_hash`
        names, its player's character's name, and its campaign's row (None if no such live
        session)."""
        from jdr.store.models import campaigns, characters

        query = (
            select(
                web_sessions.c.id,
                web_sessions.c.campaign_id,
                web_sessions.c.role,
                web_sessions.c.character_id,
                web_sessions.c.expires,
                characters.c.name.label("character_name"),
                *[c.label(f"c__{c.name}") for c in campaigns.c],
            )
            .select_from(
                web_sessions.join(
                    campaigns, campaigns.c.id == web_sessions.c.campaign_id
                ).outerjoin(characters, characters.c.id == web_sessions.c.character_id)
            )
            .where(
                web_sessions.c.token_hash == session_hash,
                web_sessions.c.revoked.is_(None),
                web_sessions.c.expires > now(),
            )
        )
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
        if row is None:
            return None
        found = row._asdict()
        session = WebSession(
            found["id"],
            found["campaign_id"],
            found["role"],
            found["character_id"],
            found["expires"],
        )
        campaign = {k.removeprefix("c__"): v for k, v in found.items() if k.startswith("c__")}
        return session, found["character_name"], campaign

    def end_session(self, session_hash: str) -> None:
        query = (
            update(web_sessions)
            .where(web_sessions.c.token_hash == session_hash, web_sessions.c.revoked.is_(None))
            .values(revoked=now())
        )
        with self._translated(), self.engine.begin() as conn:
            conn.execute(query)
