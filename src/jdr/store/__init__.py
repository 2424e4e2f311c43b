"""Persistence at the edge: campaigns, characters and fights' append-only event logs.

SQLAlchemy 2 and Alembic; an embedded SQLite file by default, PostgreSQL by URL.

>>> store = open_store("sqlite://")
>>> store.create_campaign("example", "Demo")
1
"""

from jdr.store.errors import ConflictError, JournalConflictError, StoreError
from jdr.store.schema import head, upgrade
from jdr.store.store import (
    Campaign,
    Character,
    Epoch,
    FightAppend,
    FightRecord,
    JournalRow,
    Store,
    StoredEvent,
    open_store,
)

__all__ = [
    "Campaign",
    "Character",
    "ConflictError",
    "Epoch",
    "FightAppend",
    "FightRecord",
    "JournalConflictError",
    "JournalRow",
    "Store",
    "StoreError",
    "StoredEvent",
    "head",
    "open_store",
    "upgrade",
]
