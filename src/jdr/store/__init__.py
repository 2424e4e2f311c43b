"""Persistence at the edge: campaigns, characters and fights' append-only event logs.

SQLAlchemy 2 and Alembic; an embedded SQLite file by default, PostgreSQL by URL.

>>> store = open_store("sqlite://")
>>> store.create_campaign("example", "Demo")
1
"""

from jdr.store.campaigns import Campaign
from jdr.store.characters import Character
from jdr.store.epochs import Epoch
from jdr.store.errors import (
    ConflictError,
    JournalConflictError,
    SheetConflictError,
    StoreError,
)
from jdr.store.fights import Fighter, FightLog, FightRecord, Snapshot, StoredEvent
from jdr.store.journal import FightAppend, JournalRow, Recorded
from jdr.store.revisions import SNAPSHOT_EVERY, SheetRevision, SheetWrite
from jdr.store.schema import head, upgrade
from jdr.store.store import Store, open_store

__all__ = [
    "SNAPSHOT_EVERY",
    "Campaign",
    "Character",
    "ConflictError",
    "Epoch",
    "FightAppend",
    "FightLog",
    "FightRecord",
    "Fighter",
    "JournalConflictError",
    "JournalRow",
    "Recorded",
    "SheetConflictError",
    "SheetRevision",
    "SheetWrite",
    "Snapshot",
    "Store",
    "StoreError",
    "StoredEvent",
    "head",
    "open_store",
    "upgrade",
]
