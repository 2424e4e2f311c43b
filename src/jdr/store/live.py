"""The live table in the store (issue 20): each campaign's numbered changes read back, fights'
pace, secret feed links and the outgoing webhook.

Every write numbers the change it makes (`jdr.store.changes`, whose names this module also
gives: `CHANNEL`, the change kinds, `Change`). A page asks `changes_after(campaign, 41)` and
misses nothing, whichever process wrote.

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi")
>>> fight = store.create_fight(campaign, ["Ana", "Bo"])
>>> [(c.seq, c.kind, c.fight) for c in store.changes_after(campaign, 0)]
[(1, 'fight', 1)]
>>> store.set_fight_status(fight, "ended")
>>> [(c.seq, c.kind) for c in store.changes_after(campaign, 1)], store.change_heads([campaign])
([(2, 'fight')], {1: 2})
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update

from jdr.store.base import Database
from jdr.store.changes import (
    APPROVAL,
    CHANNEL,
    DISCLOSE,
    FIGHT,
    JOURNAL,
    LATE,
    REVEAL,
    SHEET,
    Change,
    changed,
)
from jdr.store.errors import StoreError
from jdr.store.fights import FightRecord
from jdr.store.models import campaigns, changes, feeds, fights, webhooks
from jdr.store.rows import insert_row, now

__all__ = [
    "APPROVAL",
    "CHANNEL",
    "DISCLOSE",
    "FIGHT",
    "JOURNAL",
    "LATE",
    "REVEAL",
    "SHEET",
    "Change",
    "Feed",
    "Live",
    "Webhook",
]

Json = dict[str, Any]


@dataclass(frozen=True)
class Feed:
    id: int
    campaign_id: int
    lang: str
    created: datetime
    revoked: datetime | None


@dataclass(frozen=True)
class Webhook:
    """A campaign's outgoing webhook: where, in which message format and language, the change
    seq announced up to, and how its last attempts went."""

    campaign_id: int
    url: str
    format: str
    lang: str
    delivered: int
    failures: int
    last_error: str | None
    retry_at: datetime | None
    created: datetime


class Live(Database):
    """The store's changes, fights' pace, feeds and webhooks (a part of `Store`)."""

    # changes

    def changes_after(self, campaign_id: int, after: int, limit: int = 500) -> list[Change]:
        """The campaign's changes after seq `after`, oldest first, at most `limit`."""
        query = (
            select(changes)
            .where(changes.c.campaign_id == campaign_id, changes.c.seq > after)
            .order_by(changes.c.seq)
            .limit(limit)
        )
        with self._translated(), self.engine.connect() as conn:
            return [_change(row) for row in conn.execute(query)]

    def change_heads(self, campaign_ids: Iterable[int]) -> dict[int, int]:
        """The seq of each campaign's last change (campaigns that no longer exist left out)."""
        wanted = sorted(set(campaign_ids))
        if not wanted:
            return {}
        query = select(campaigns.c.id, campaigns.c.changes).where(campaigns.c.id.in_(wanted))
        with self._translated(), self.engine.connect() as conn:
            return {int(i): int(n) for i, n in conn.execute(query)}

    # pace

    def set_pace(self, fight_id: int, deadline: int | None, on_late: str | None) -> None:
        """Set a fight's turn deadline (seconds; None: none) and what happens when it passes;
        the current turn's clock starts again now."""
        with self._translated(), self.engine.begin() as conn:
            campaign_id = conn.execute(
                select(fights.c.campaign_id).where(fights.c.id == fight_id)
            ).scalar()
            if campaign_id is None:
                raise StoreError("no_fight", fight=fight_id)
            changed(conn, int(campaign_id), FIGHT, fight=fight_id)
            conn.execute(
                update(fights)
                .where(fights.c.id == fight_id)
                .values(deadline=deadline, on_late=on_late, turn_since=now(), late_version=None)
            )

    def paced_fights(self) -> list[Any]:
        """Every open fight with a deadline (`FightRecord`s), for the clock to check."""
        query = (
            select(fights)
            .where(fights.c.status == "open", fights.c.deadline.is_not(None))
            .order_by(fights.c.id)
        )
        with self._translated(), self.engine.connect() as conn:
            return [FightRecord(**row._asdict()) for row in conn.execute(query)]

    def mark_late(self, fight_id: int, version: int) -> bool:
        """Note that the fight's turn at `version` went late and was dealt with (announced to
        the GM); False if it was noted already or the fight moved on."""
        try:
            with self._translated(), self.engine.begin() as conn:
                campaign_id = conn.execute(
                    select(fights.c.campaign_id).where(fights.c.id == fight_id)
                ).scalar()
                if campaign_id is None:
                    return False
                changed(conn, int(campaign_id), LATE, fight=fight_id)
                done = conn.execute(
                    update(fights)
                    .where(fights.c.id == fight_id, fights.c.version == version)
                    .where(fights.c.late_version.is_(None) | (fights.c.late_version != version))
                    .values(late_version=version)
                ).rowcount
                if done != 1:
                    raise _UnchangedError  # leaving the block by an error rolls the change back
        except _UnchangedError:
            return False
        return True

    # feeds

    def add_feed(self, campaign_id: int, token_hash: str, lang: str) -> int:
        row = {"campaign_id": campaign_id, "token_hash": token_hash, "lang": lang, "created": now()}
        with self._translated(), self.engine.begin() as conn:
            return insert_row(conn, feeds, row)

    def feed(self, token_hash: str) -> Feed | None:
        """The live (not revoked) feed `token_hash` names, or None."""
        query = select(*_FEED).where(feeds.c.token_hash == token_hash, feeds.c.revoked.is_(None))
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else Feed(*row)

    def feeds(self, campaign_id: int) -> list[Feed]:
        query = select(*_FEED).where(feeds.c.campaign_id == campaign_id).order_by(feeds.c.id)
        with self._translated(), self.engine.connect() as conn:
            return [Feed(*row) for row in conn.execute(query)]

    def revoke_feed(self, campaign_id: int, feed_id: int) -> bool:
        query = (
            update(feeds)
            .where(feeds.c.id == feed_id, feeds.c.campaign_id == campaign_id)
            .where(feeds.c.revoked.is_(None))
            .values(revoked=now())
        )
        with self._translated(), self.engine.begin() as conn:
            return conn.execute(query).rowcount == 1

    # webhooks

    def set_webhook(self, campaign_id: int, url: str, fmt: str, lang: str) -> None:
        """Set (or replace) the campaign's webhook; it announces the changes made from now on."""
        with self._translated(), self.engine.begin() as conn:
            head = conn.execute(
                select(campaigns.c.changes).where(campaigns.c.id == campaign_id)
            ).scalar()
            conn.execute(delete(webhooks).where(webhooks.c.campaign_id == campaign_id))
            conn.execute(
                insert(webhooks).values(
                    campaign_id=campaign_id,
                    url=url,
                    format=fmt,
                    lang=lang,
                    delivered=int(head or 0),
                    failures=0,
                    created=now(),
                )
            )

    def remove_webhook(self, campaign_id: int) -> bool:
        with self._translated(), self.engine.begin() as conn:
            query = delete(webhooks).where(webhooks.c.campaign_id == campaign_id)
            return conn.execute(query).rowcount == 1

    def webhook(self, campaign_id: int) -> Webhook | None:
        query = select(webhooks).where(webhooks.c.campaign_id == campaign_id)
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else Webhook(**row._asdict())

    def webhooks(self) -> list[Webhook]:
        """Every campaign's webhook, with how far each has announced."""
        with self._translated(), self.engine.connect() as conn:
            rows = conn.execute(select(webhooks).order_by(webhooks.c.campaign_id)).all()
        return [Webhook(**row._asdict()) for row in rows]

    def webhook_delivered(self, campaign_id: int, seq: int) -> None:
        """The webhook announced the campaign's changes up to `seq` (never goes back)."""
        query = (
            update(webhooks)
            .where(webhooks.c.campaign_id == campaign_id, webhooks.c.delivered < seq)
            .values(delivered=seq, failures=0, last_error=None, retry_at=None)
        )
        with self._translated(), self.engine.begin() as conn:
            conn.execute(query)

    def webhook_failed(self, campaign_id: int, error: str, retry_at: datetime) -> None:
        query = (
            update(webhooks)
            .where(webhooks.c.campaign_id == campaign_id)
            .values(failures=webhooks.c.failures + 1, last_error=error[:500], retry_at=retry_at)
        )
        with self._translated(), self.engine.begin() as conn:
            conn.execute(query)


class _UnchangedError(Exception):
    """Nothing to write after all: the transaction is rolled back."""


_FEED = (feeds.c.id, feeds.c.campaign_id, feeds.c.lang, feeds.c.created, feeds.c.revoked)


def _change(row: Any) -> Change:
    return Change(
        int(row.seq),
        str(row.kind),
        None if row.fight_id is None else int(row.fight_id),
        None if row.entry is None else int(row.entry),
        tuple(int(c) for c in row.characters or ()),
        row.created,
    )
