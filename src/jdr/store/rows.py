"""Small helpers every store module shares: inserting a row, the time a row is written."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Table, insert


def insert_row(conn: Connection, table: Table, row: dict[str, Any]) -> int:
    """Insert `row` into `table`; return its new id."""
    key = conn.execute(insert(table).values(row)).inserted_primary_key
    assert key is not None
    return int(key[0])


def now() -> datetime:
    """The time a row is written, in UTC."""
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A time read back from the database, in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
