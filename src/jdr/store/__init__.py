"""Persistence at the edge: campaigns, characters and fights' append-only event logs.

SQLAlchemy 2 and Alembic; an embedded SQLite file by default, PostgreSQL by URL.

>>> store = open_store("sqlite://")
>>> store.create_campaign("example", "Demo")
1
"""

from jdr.store.errors import (
    ConflictError,
    JournalConflictError,
    SheetConflictError,
    StoreError,
)
from jdr.store.revisions import SNAPSHOT_EVERY, Fighter, SheetRevision, SheetWrite
from jdr.store.schema import head, upgrade
from jdr.store.store import (
    Campaign,
    Character,
    Epoch,
    FightAppend,
    FightLog,
    FightRecord,
    JournalRow,
    Recorded,
    Snapshot,
    Store,
    StoredEvent,
    open_store,
)

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
