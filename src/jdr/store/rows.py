"""Small helpers every store module shares: inserting a row, the time a row is written, what
an id can be."""

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


LARGEST_ID = 2**63 - 1
"""Ids are signed 64-bit integers in both databases."""


def storable(number: int) -> bool:
    """Whether `number` can be an id at all (a larger one would fail in the driver).

    >>> storable(12), storable(10**20), storable(-1)
    (True, False, False)
    """
    return 0 <= number <= LARGEST_ID
