"""`Database`: what every part of the store shares, one database behind one URL.

Each part of `Store` (campaigns, characters, fights, the journal …) is a class of its own module
built on this one: its engine, its writer locks (`jdr.store.writers`), and how a call reads
(`_reading`), writes (`_writing`) and turns a driver's error into a `StoreError`
(`_translated`). `Store` puts the parts together.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError

from jdr.phases import phase
from jdr.store.engine import translated
from jdr.store.writers import Writers


class Database:
    """The database behind one URL, as every part of the store reads and writes it."""

    def __init__(self, engine: Engine, url: str, file: Path | None = None) -> None:
        self.engine = engine
        self.url = url
        self.writers = Writers(engine, file)
        self.warnings: list[str] = []
        """What the front end should tell the user (a database others can read)."""

    def close(self) -> None:
        self.engine.dispose()

    def writing(self, campaign_id: int, single: bool = False) -> AbstractContextManager[None]:
        """Hold the campaign's writer lock (`jdr.store.writers`): a roll's read → decide →
        append cycle inside it is never interleaved with another writer's. `single`: the cycle
        ends with its one write (`Writers.writing`)."""
        return self.writers.writing(campaign_id, single)

    def _translated(self) -> Any:
        return translated(self.url)

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A connection to read on: the writer cycle's, inside one (`Writers.cycle`)."""
        cycle = self.writers.cycle()
        if cycle is not None:
            yield cycle
            return
        with phase("checkout"):
            conn = self.engine.connect()
        with conn:
            yield conn

    @contextmanager
    def _writing(self, alone: bool = False) -> Iterator[Connection]:
        """A transaction to write in: a savepoint of the writer cycle's transaction inside one
        (its commit comes at the cycle's end; an error undoes only this write — one round trip
        more, not two: a savepoint needs no release), else a transaction of its own.

        `alone`: the caller reads nothing in the cycle after a failed write that the lock
        should guard (a fight's version, to say it moved, needs none); if the cycle was opened
        for this single write (`Writers.alone`), no savepoint: a failure rolls the cycle's
        transaction back whole (it wrote nothing else; its lock goes with it)."""
        cycle = self.writers.cycle()
        if cycle is not None and alone and self.writers.alone():
            try:
                yield cycle
            except BaseException:
                with suppress(DBAPIError):
                    cycle.rollback()
                raise
            return
        if cycle is not None:
            cycle.exec_driver_sql("SAVEPOINT jdr_write")
            try:
                yield cycle
            except BaseException:
                with suppress(DBAPIError):  # a lost connection: the cycle rolls back whole
                    cycle.exec_driver_sql("ROLLBACK TO SAVEPOINT jdr_write")
                raise
            return
        with phase("checkout"):
            conn = self.engine.connect()
        with conn:
            driver: Any = conn.connection.driver_connection
            deferred = self.writers.defer_sync()  # SQLite: the cycle syncs after its lock
            if deferred:
                synchronous = driver.execute("PRAGMA synchronous").fetchone()[0]
                driver.execute("PRAGMA synchronous=NORMAL")
            try:
                transaction = conn.begin()
                try:
                    yield conn
                except BaseException:
                    transaction.rollback()
                    raise
                with phase("commit"):
                    transaction.commit()
            finally:
                if deferred:
                    driver.execute(f"PRAGMA synchronous={int(synchronous)}")
