"""`Store`: campaigns, characters, fights and their append-only event logs in one database.

A service owns each use case; the store only reads and writes, one transaction per call.

>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Tuesday table")
>>> fight = store.create_fight(campaign, ["Ana", "Bo"])
>>> store.append(fight, 0, [{"type": "started"}])
1
>>> [e.event for e in store.events(fight)]
[{'type': 'started'}]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, Table, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from jdr.store.engine import make_engine, resolve_url, safe_url, translated
from jdr.store.errors import ConflictError, StoreError
from jdr.store.models import campaigns, characters, fight_events, fights
from jdr.store.schema import ensure_current

Json = dict[str, Any]


@dataclass(frozen=True)
class Campaign:
    id: int
    system: str
    name: str
    settings: Json
    created: datetime


@dataclass(frozen=True)
class Character:
    id: int
    campaign_id: int
    name: str
    sheet: Json
    version: int


@dataclass(frozen=True)
class FightRecord:
    """A fight's row; `version` is the `seq` of its last event (0 before any)."""

    id: int
    campaign_id: int
    participants: list[Any]
    status: str
    version: int


@dataclass(frozen=True)
class StoredEvent:
    """One event of a fight's log: its `seq`, the `action` it belongs to, and the event itself."""

    seq: int
    action: int
    event: Json


class Store:
    """The database behind one URL. Create with `open_store`."""

    def __init__(self, engine: Engine, url: str) -> None:
        self.engine = engine
        self.url = url

    def close(self) -> None:
        self.engine.dispose()

    # campaigns and characters

    def create_campaign(self, system: str, name: str, settings: Json | None = None) -> int:
        row = {"system": system, "name": name, "settings": settings or {}, "created": _now()}
        try:
            with self._translated(), self.engine.begin() as conn:
                return _insert(conn, campaigns, row)
        except IntegrityError:
            raise StoreError("duplicate_campaign", name=name) from None

    def campaign(self, name: str) -> Campaign:
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(select(campaigns).where(campaigns.c.name == name)).one_or_none()
        if row is None:
            raise StoreError("no_campaign", campaign=name)
        return Campaign(**row._asdict())

    def campaigns(self) -> list[Campaign]:
        with self._translated(), self.engine.connect() as conn:
            rows = conn.execute(select(campaigns).order_by(campaigns.c.name)).all()
        return [Campaign(**row._asdict()) for row in rows]

    def add_character(self, campaign_id: int, name: str, sheet: Json) -> int:
        row = {"campaign_id": campaign_id, "name": name, "sheet": sheet, "version": 1}
        try:
            with self._translated(), self.engine.begin() as conn:
                return _insert(conn, characters, row)
        except IntegrityError:
            raise StoreError("duplicate_character", campaign=campaign_id, name=name) from None

    def character(self, character_id: int) -> Character:
        with self._translated(), self.engine.connect() as conn:
            query = select(characters).where(characters.c.id == character_id)
            row = conn.execute(query).one_or_none()
        if row is None:
            raise StoreError("no_character", character=character_id)
        return Character(**row._asdict())

    def characters(self, campaign_id: int) -> list[Character]:
        """A campaign's characters, by name."""
        query = (
            select(characters)
            .where(characters.c.campaign_id == campaign_id)
            .order_by(characters.c.name)
        )
        with self._translated(), self.engine.connect() as conn:
            return [Character(**row._asdict()) for row in conn.execute(query)]

    def character_named(self, campaign_id: int, name: str) -> Character:
        query = select(characters).where(
            characters.c.campaign_id == campaign_id, characters.c.name == name
        )
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(query).one_or_none()
        if row is None:
            raise StoreError("no_character", character=name)
        return Character(**row._asdict())

    def character_counts(self) -> dict[int, int]:
        """How many characters each campaign holds, by campaign id."""
        query = select(characters.c.campaign_id, func.count()).group_by(characters.c.campaign_id)
        with self._translated(), self.engine.connect() as conn:
            return {int(campaign): int(count) for campaign, count in conn.execute(query)}

    # fights

    def fights(self, campaign_id: int) -> list[FightRecord]:
        """A campaign's fights, oldest first."""
        query = select(fights).where(fights.c.campaign_id == campaign_id).order_by(fights.c.id)
        with self._translated(), self.engine.connect() as conn:
            return [FightRecord(**row._asdict()) for row in conn.execute(query)]

    def create_fight(self, campaign_id: int, participants: Sequence[Any]) -> int:
        row = {
            "campaign_id": campaign_id,
            "participants": list(participants),
            "status": "open",
            "version": 0,
        }
        try:
            with self._translated(), self.engine.begin() as conn:
                return _insert(conn, fights, row)
        except IntegrityError:
            raise StoreError("no_campaign", campaign=campaign_id) from None

    def fight(self, fight_id: int) -> FightRecord:
        with self._translated(), self.engine.connect() as conn:
            row = conn.execute(select(fights).where(fights.c.id == fight_id)).one_or_none()
        if row is None:
            raise StoreError("no_fight", fight=fight_id)
        return FightRecord(**row._asdict())

    def set_fight_status(self, fight_id: int, status: str) -> None:
        """Set the fight's status (`open`, `ended` …); `StoreError` for an unknown fight."""
        query = update(fights).where(fights.c.id == fight_id).values(status=status)
        with self._translated(), self.engine.begin() as conn:
            found = conn.execute(query).rowcount
        if found != 1:
            raise StoreError("no_fight", fight=fight_id)

    def events(self, fight_id: int) -> list[StoredEvent]:
        """The fight's log in order (empty for a fight without events)."""
        query = (
            select(fight_events.c.seq, fight_events.c.action, fight_events.c.event)
            .where(fight_events.c.fight_id == fight_id)
            .order_by(fight_events.c.seq)
        )
        with self._translated(), self.engine.connect() as conn:
            return [StoredEvent(*row) for row in conn.execute(query)]

    def append(self, fight_id: int, expected_version: int, events: Sequence[Json]) -> int:
        """Append `events` as one action decided on `expected_version`; return the new version.

        In one transaction: bump `fights.version` only if it is still `expected_version` (the
        first statement, so SQLite takes its write lock before reading anything), then insert
        the events at seqs `expected_version + 1 …`, which the (fight, seq) key keeps unique.
        Raises `ConflictError` if another append landed first; nothing is written then.
        """
        if not events:
            return expected_version
        new_version = expected_version + len(events)
        created = _now()
        rows = [
            {
                "fight_id": fight_id,
                "seq": expected_version + i,
                "action": expected_version + 1,
                "event": event,
                "created": created,
            }
            for i, event in enumerate(events, start=1)
        ]
        bump = (
            update(fights)
            .where(fights.c.id == fight_id, fights.c.version == expected_version)
            .values(version=new_version)
        )
        try:
            with self._translated(), self.engine.begin() as conn:
                if conn.execute(bump).rowcount != 1:
                    raise self._conflict(fight_id, expected_version)
                conn.execute(insert(fight_events), rows)
        except IntegrityError:
            raise self._conflict(fight_id, expected_version) from None
        return new_version

    def _conflict(self, fight_id: int, expected: int) -> ConflictError:
        return ConflictError(fight_id, expected, self.fight(fight_id).version)

    def _translated(self) -> Any:
        return translated(self.url)


def open_store(url: str | None = None) -> Store:
    """The store at `url`, else `JDR_DATABASE_URL`, else the embedded SQLite file.

    A new database is created at the latest revision; an older one must be migrated with
    `jdr.store.upgrade` first, and one written by a newer jdr is refused (`StoreError`).
    """
    url = resolve_url(url)
    engine = make_engine(url)
    try:
        ensure_current(engine, url)
    except BaseException:
        engine.dispose()
        raise
    return Store(engine, safe_url(url))


def _insert(conn: Connection, table: Table, row: Json) -> int:
    """Insert `row` into `table`; return its new id."""
    key = conn.execute(insert(table).values(row)).inserted_primary_key
    assert key is not None
    return int(key[0])


def _now() -> datetime:
    return datetime.now(UTC)
