"""One writer at a time per campaign, queued by the database, so that concurrent writers are
serialised instead of refused.

A roll reads the journal's tail, rolls on it and appends; two processes doing that at once used
to find, at append time, that the other had taken the seq, and after a few retries the player was
told to roll again. Now each read → decide → append cycle holds the campaign's writer lock:

- PostgreSQL: a session advisory lock keyed on the campaign (`pg_advisory_lock(NAMESPACE, id)`),
  held on a connection of its own for the cycle; the database queues the waiters, and a writer
  that dies releases it with its connection.
- SQLite: an exclusive `flock` on `FILE.lock` beside the database (created 0600), which the kernel
  queues likewise (the waiters sleep: no polling) and releases when the process ends; a holder
  is a jdr process inside one short transaction, itself bounded by SQLite's busy timeout.
  SQLite allows one writer per file anyway,
  so one lock per file loses nothing. (A lock on the database file itself would be unsafe: closing
  any descriptor of it drops SQLite's own POSIX locks in the process.)
- An in-memory SQLite database lives in one process: a thread lock is enough.

The lock is re-entrant within a thread (a fight action holds it while it reads the fight, then
the journal append takes it again); on PostgreSQL it waits at most `WAIT_S` seconds before a
`StoreError`.

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> with store.writing(1), store.writing(1):
...     "one writer"
'one writer'
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, text

from jdr.store.errors import StoreError

NAMESPACE = 0x6A6472  # "jdr": the first key of jdr's advisory locks
WAIT_S = 60.0
"""How long a writer waits for the campaign's lock on PostgreSQL before giving up (`StoreError`)."""
WAIT_MS = int(WAIT_S * 1000)


class Writers:
    """The writer locks of one store (see the module)."""

    def __init__(self, engine: Engine, sqlite_file: Path | None) -> None:
        self.engine = engine
        self.lock_file = None if sqlite_file is None else Path(f"{sqlite_file}.lock")
        self.local = threading.local()
        self.memory = threading.RLock()

    @contextmanager
    def writing(self, campaign_id: int) -> Iterator[None]:
        held: dict[int, int] = self.local.__dict__.setdefault("held", {})
        key = 0 if self.lock_file is not None else campaign_id  # SQLite: one lock per file
        if held.get(key):
            held[key] += 1
            try:
                yield
            finally:
                held[key] -= 1
            return
        with self._acquired(campaign_id):
            held[key] = 1
            try:
                yield
            finally:
                held[key] = 0

    @contextmanager
    def _acquired(self, campaign_id: int) -> Iterator[None]:
        if self.engine.dialect.name == "postgresql":
            with self._advisory(campaign_id):
                yield
        elif self.lock_file is not None:
            with self._flock(self.lock_file):
                yield
        else:
            with self.memory:
                yield

    @contextmanager
    def _advisory(self, campaign_id: int) -> Iterator[None]:
        keys = {"namespace": NAMESPACE, "campaign": campaign_id % 2**31, "wait": f"{WAIT_MS}ms"}
        conn = self.engine.connect()
        try:
            try:  # one round trip: the wait's bound (for this transaction only), then the lock
                conn.execute(
                    text(
                        "SELECT set_config('lock_timeout', :wait, true),"
                        " pg_advisory_lock(:namespace, :campaign)"
                    ),
                    keys,
                )
                conn.commit()  # the session's lock outlives the transaction that took it
            except Exception as error:
                raise StoreError("busy", campaign=campaign_id, seconds=int(WAIT_S)) from error
            try:
                yield
            finally:
                conn.rollback()
                conn.execute(text("SELECT pg_advisory_unlock(:namespace, :campaign)"), keys)
                conn.commit()
        finally:
            conn.close()

    @contextmanager
    def _flock(self, path: Path) -> Iterator[None]:
        try:
            import fcntl
        except ImportError:  # not a POSIX system: SQLite's own lock and the retries remain
            with self.memory:
                yield
            return
        try:
            handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:  # a read-only folder: SQLite's own lock still keeps the file sound
            yield
            return
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)  # the kernel queues the waiters, idle
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
        finally:
            os.close(handle)
