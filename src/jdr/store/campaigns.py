"""Campaigns in the store, found by name as people type them (`jdr.names`: no case, no
accents, no spaces); each keeps the spelling it was created with, and a new name that matches an
existing one that way is refused as a duplicate.

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> store.create_campaign("example", "Mardi soir")
1
>>> store.campaign("mardisoir").name
'Mardi soir'
>>> store.create_campaign("example", "MARDI SOIR")
Traceback (most recent call last):
...
jdr.store.errors.StoreError: ...
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, text
from sqlalchemy.exc import IntegrityError

from jdr.i18n import _
from jdr.names import check_name, collation_key, duplicate, match
from jdr.store.base import Database
from jdr.store.epochs import epoch_row
from jdr.store.errors import StoreError
from jdr.store.models import campaigns, epochs, fights
from jdr.store.rows import insert_row as _insert
from jdr.store.rows import now as _now
from jdr.store.rows import storable as _storable

Json = dict[str, Any]


@dataclass(frozen=True)
class Campaign:
    id: int
    system: str
    name: str
    settings: Json
    created: datetime
    changes: int = 0
    """The seq of the campaign's last change (`Store.changes_after`)."""


class Campaigns(Database):
    """The store's campaigns (a part of `Store`)."""

    def create_campaign(
        self, system: str, name: str, settings: Json | None = None, seed: bytes | None = None
    ) -> int:
        """A new campaign, with its first seed epoch (so its commitment can be shown at once).

        `seed` fixes that first epoch's seed (the demo's and tests' reproducible campaigns);
        by default it is 32 fresh bytes from the OS.
        """
        name = check_name(_("campaign"), name)
        row = {"system": system, "name": name, "settings": settings or {}, "created": _now()}
        try:
            with self._translated(), self.engine.begin() as conn:
                if conn.dialect.name == "postgresql":  # one creation at a time sees the others
                    conn.execute(text("LOCK TABLE campaigns IN SHARE ROW EXCLUSIVE MODE"))
                campaign_id = _insert(conn, campaigns, row)  # SQLite: the database's write lock
                others = select(campaigns.c.name).where(campaigns.c.id != campaign_id)
                existing = duplicate(name, conn.execute(others).scalars())
                if existing is not None:  # leaving the block by an error rolls it back
                    raise StoreError("duplicate_campaign", name=existing)
                _insert(conn, epochs, epoch_row(campaign_id, 1, seed))
                return campaign_id
        except IntegrityError:
            raise StoreError("duplicate_campaign", name=name) from None

    def campaign(self, name: str) -> Campaign:
        """The campaign `name` names (`jdr.names`); `UnknownNameError` with the closest name and
        the campaigns there are, `AmbiguousNameError` if two match loosely."""
        with self._translated(), self._reading() as conn:
            names = list(
                conn.execute(select(campaigns.c.name).order_by(campaigns.c.name)).scalars()
            )
            found = match(_("campaign"), name, names)
            row = conn.execute(select(campaigns).where(campaigns.c.name == found)).one()
        return Campaign(**row._asdict())

    def campaign_of_fight(self, fight_id: int) -> Campaign:
        """The campaign a fight belongs to (`StoreError` for an unknown fight)."""
        if not _storable(fight_id):
            raise StoreError("no_fight", fight=fight_id)
        query = select(campaigns).join(fights, fights.c.campaign_id == campaigns.c.id)
        with self._translated(), self._reading() as conn:
            row = conn.execute(query.where(fights.c.id == fight_id)).one_or_none()
        if row is None:
            raise StoreError("no_fight", fight=fight_id)
        return Campaign(**row._asdict())

    def campaign_by_id(self, campaign_id: int) -> Campaign:
        if not _storable(campaign_id):
            raise StoreError("no_campaign", campaign=campaign_id)
        with self._translated(), self._reading() as conn:
            row = conn.execute(select(campaigns).where(campaigns.c.id == campaign_id)).one_or_none()
        if row is None:
            raise StoreError("no_campaign", campaign=campaign_id)
        return Campaign(**row._asdict())

    def campaigns(self) -> list[Campaign]:
        with self._translated(), self._reading() as conn:
            rows = conn.execute(select(campaigns)).all()
        found = [Campaign(**row._asdict()) for row in rows]
        return sorted(found, key=lambda campaign: collation_key(campaign.name))

    def delete_campaign(self, campaign_id: int) -> None:
        """Remove a campaign and everything it holds: characters, fights, journal, seeds."""
        with self._translated(), self.engine.begin() as conn:
            found = conn.execute(delete(campaigns).where(campaigns.c.id == campaign_id)).rowcount
        if found != 1:
            raise StoreError("no_campaign", campaign=campaign_id)
