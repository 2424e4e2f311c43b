"""Sheets players filled in the browser, waiting for the GM (issue 32).

A player whose invite asked them to create their character (`invites.creates`) sends a sheet;
it waits in `pending_sheets` (usable nowhere: no fight, no roll) until the GM approves it, which
stores it as a character and makes it the seat's character in one step, or refuses it.

>>> from datetime import UTC, datetime, timedelta
>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi")
>>> soon = datetime.now(UTC) + timedelta(days=1)
>>> _invite = store.add_invite(campaign, "a" * 64, "player", None, soon, creates=True)
>>> seat, _started = store.redeem_invite("a" * 64, None, "b" * 64, soon)
>>> found = store.creating_seat("b" * 64, campaign)
>>> found is not None and found.creates, found.pending
(True, None)
>>> pending = store.add_pending(campaign, found.seat_id, "Kai", {"name": "Kai"})
>>> [p.name for p in store.pending_sheets(campaign)]
['Kai']
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from jdr.store.base import Database
from jdr.store.changes import APPROVAL, changed
from jdr.store.models import invites, pending_sheets, web_seats, web_sessions
from jdr.store.rows import insert_row, now

__all__ = ["CreatingSeat", "Pending", "PendingSheet"]

PENDING = "pending"
APPROVED = "approved"
REFUSED = "refused"


@dataclass(frozen=True)
class PendingSheet:
    """A sheet a player sent for the GM's approval."""

    id: int
    campaign_id: int
    seat_id: int
    name: str
    sheet: dict[str, Any]
    state: str
    character_id: int | None
    created: datetime
    decided: datetime | None


@dataclass(frozen=True)
class CreatingSeat:
    """A session's seat in a campaign, as the character-creation pages need it: its id, whether
    its invite asks the player to create their character, its character (if any) and the
    sheet it sent last (if any)."""

    seat_id: int
    role: str
    creates: bool
    character_id: int | None
    pending: PendingSheet | None


class Pending(Database):
    """The store's pending sheets (a part of `Store`)."""

    def creating_seat(self, session_hash: str, campaign_id: int) -> CreatingSeat | None:
        """The live session's seat in `campaign_id` (None without one), with what it sent."""
        query = (
            select(
                web_seats.c.id,
                web_seats.c.role,
                web_seats.c.character_id,
                invites.c.creates,
            )
            .select_from(
                web_sessions.join(web_seats, web_seats.c.session_id == web_sessions.c.id).outerjoin(
                    invites, invites.c.id == web_seats.c.invite_id
                )
            )
            .where(
                web_sessions.c.token_hash == session_hash,
                web_sessions.c.revoked.is_(None),
                web_sessions.c.expires > now(),
                web_seats.c.campaign_id == campaign_id,
            )
        )
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
            if row is None:
                return None
            last = conn.execute(
                select(pending_sheets)
                .where(pending_sheets.c.seat_id == row.id)
                .order_by(pending_sheets.c.id.desc())
                .limit(1)
            ).one_or_none()
        return CreatingSeat(
            row.id,
            row.role,
            bool(row.creates),
            row.character_id,
            None if last is None else PendingSheet(**last._asdict()),
        )

    def add_pending(self, campaign_id: int, seat_id: int, name: str, sheet: dict[str, Any]) -> int:
        """A sheet sent for approval; the seat's earlier sheet still waiting is replaced."""
        row = {
            "campaign_id": campaign_id,
            "seat_id": seat_id,
            "name": name,
            "sheet": sheet,
            "state": PENDING,
            "character_id": None,
            "created": now(),
            "decided": None,
        }
        with self._translated(), self.engine.begin() as conn:
            changed(conn, campaign_id, APPROVAL)  # the GM's open page shows it at once
            conn.execute(
                update(pending_sheets)
                .where(pending_sheets.c.seat_id == seat_id, pending_sheets.c.state == PENDING)
                .values(state=REFUSED, decided=now())
            )
            return insert_row(conn, pending_sheets, row)

    def pending_sheets(self, campaign_id: int) -> list[PendingSheet]:
        """The campaign's sheets waiting for the GM, oldest first."""
        query = (
            select(pending_sheets)
            .where(pending_sheets.c.campaign_id == campaign_id)
            .where(pending_sheets.c.state == PENDING)
            .order_by(pending_sheets.c.id)
        )
        with self._translated(), self.engine.connect() as conn:
            return [PendingSheet(**row._asdict()) for row in conn.execute(query).all()]

    def pending_sheet(self, campaign_id: int, pending_id: int) -> PendingSheet | None:
        """The campaign's pending sheet `pending_id`, whatever its state (None: none such)."""
        query = select(pending_sheets).where(
            pending_sheets.c.id == pending_id, pending_sheets.c.campaign_id == campaign_id
        )
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else PendingSheet(**row._asdict())

    def decide_pending(self, campaign_id: int, pending_id: int, character_id: int | None) -> bool:
        """The GM's decision on a waiting sheet: approved as `character_id` (which becomes its
        seat's character), or refused (None). False if it was not waiting any more."""
        state = REFUSED if character_id is None else APPROVED
        with self._translated(), self.engine.begin() as conn:
            done = conn.execute(
                update(pending_sheets)
                .where(
                    pending_sheets.c.id == pending_id,
                    pending_sheets.c.campaign_id == campaign_id,
                    pending_sheets.c.state == PENDING,
                )
                .values(state=state, decided=now(), character_id=character_id)
            )
            if done.rowcount != 1:
                return False
            changed(conn, campaign_id, APPROVAL)  # the sender's open page learns it at once
            if character_id is not None:
                seat = select(pending_sheets.c.seat_id).where(pending_sheets.c.id == pending_id)
                conn.execute(
                    update(web_seats)
                    .where(web_seats.c.id == seat.scalar_subquery())
                    .values(character_id=character_id)
                )
        return True
