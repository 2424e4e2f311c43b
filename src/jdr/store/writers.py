"""One writer at a time per campaign, queued by the database, so that concurrent writers are
serialised instead of refused.

A roll reads the journal's tail, rolls on it and appends; two processes doing that at once used
to find, at append time, that the other had taken the seq, and after a few retries the player was
told to roll again. Now each read → decide → append cycle holds the campaign's writer lock:

- PostgreSQL: a transaction advisory lock keyed on the campaign
  (`pg_advisory_xact_lock(NAMESPACE, id)`), taken by the transaction that then reads the journal's
  head and writes the entry (`Writers.cycle`): its commit gives the lock back. The database
  queues the waiters first come, first served, and a writer that dies releases it with its
  connection. The lock is taken with the cycle's first statement: a roll sends the lock and the
  head's read together (`jdr.store.pg_cycle`: one round trip, two statements, so the head is read
  after the lock is granted), then the entry with its change and the commit together; the
  commit does not wait for the disk, the cycle does after giving the lock back (`durable`), so
  the queue never waits for an fsync and a roll is still answered only once it is on disk.
  Everything that does not depend on the journal's head is done before: the action and its
  parameters read, the actor named; a fight action reads the fight before the lock too, and its
  append checks the fight's version (one that lost the race reads it again holding the lock).
  Not optimistic appends: the dice derive from the head (the seq is in their context), so an
  append refused at the head would roll again, and a queue serves 50 rolls a second on one
  campaign without any.
- SQLite: a first-come, first-served queue of `flock`s beside the database (`jdr.store.writers`'s
  `Queue`): a writer takes the next ticket under a short lock on `FILE.lock`, locks a file of its
  own (`FILE.lock.d/TICKET`) and waits on its predecessor's; the kernel wakes exactly that one
  waiter when the predecessor ends (the waiters sleep: no polling, no herd) and releases a lock
  when its process dies. A plain `flock` woke every waiter and let chance pick the next writer,
  so with 20 writers a few waited 80 turns (p99 4× the median). A holder is a jdr process inside
  one short transaction, itself bounded by SQLite's busy timeout. SQLite allows one writer per
  file anyway, so one lock per file loses nothing. (A lock on the database file itself would be
  unsafe: closing any descriptor of it drops SQLite's own POSIX locks in the process.) Files
  and folder are created readable by their owner only. The cycle's write commits without
  waiting for the disk (`PRAGMA synchronous=NORMAL` for it) and the cycle syncs the write-ahead
  log after giving the lock back (`defer_sync`), before it returns.
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
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, text

from jdr.phases import add, phase
from jdr.store.errors import StoreError
from jdr.store.pg_cycle import durable

NAMESPACE = 0x6A6472  # "jdr": the first key of jdr's advisory locks
WAIT_S = 60.0
"""How long a writer waits for the campaign's lock on PostgreSQL before giving up (`StoreError`)."""
WAIT_MS = int(WAIT_S * 1000)


def lock_keys(campaign_id: int) -> dict[str, Any]:
    """The parameters of the campaign's advisory lock statement (its keys, its timeout)."""
    return {"namespace": NAMESPACE, "campaign": campaign_id % 2**31, "wait": f"{WAIT_MS}ms"}


class Writers:
    """The writer locks of one store (see the module)."""

    def __init__(self, engine: Engine, sqlite_file: Path | None) -> None:
        self.engine = engine
        self.lock_file = None if sqlite_file is None else Path(f"{sqlite_file}.lock")
        self.local = threading.local()
        self.memory = threading.RLock()

    @contextmanager
    def writing(self, campaign_id: int, single: bool = False) -> Iterator[None]:
        """Hold the campaign's lock (re-entrant). `single`: the cycle writes once, last (a
        roll's append): on PostgreSQL that write needs no savepoint, one round trip fewer
        under the lock; if it fails, the cycle's transaction is rolled back whole (`alone`)."""
        held: dict[int, int] = self.local.__dict__.setdefault("held", {})
        key = 0 if self.lock_file is not None else campaign_id  # SQLite: one lock per file
        if held.get(key):
            held[key] += 1
            self.local.single = False  # a nested cycle: every write keeps its savepoint
            try:
                yield
            finally:
                held[key] -= 1
            return
        with self._acquired(campaign_id):
            held[key] = 1
            self.local.single = single
            try:
                yield
            finally:
                held[key] = 0
                self.local.single = False

    def alone(self) -> bool:
        """Whether the write about to be made is the `single` write of this thread's cycle (at
        most once per cycle: the next write keeps its savepoint)."""
        found = bool(getattr(self.local, "single", False))
        self.local.single = False
        return found

    @contextmanager
    def _acquired(self, campaign_id: int) -> Iterator[None]:
        if self.engine.dialect.name == "postgresql":
            with self._advisory(campaign_id):
                yield
        elif self.lock_file is not None:
            with self._flock(self.lock_file):
                yield
        else:
            with phase("lock"):
                self.memory.acquire()
            try:
                with phase("held"):
                    yield
            finally:
                self.memory.release()

    def cycle(self) -> Connection | None:
        """The connection of the writer cycle this thread is in, on PostgreSQL (None elsewhere,
        or outside a cycle): the journal's head is read and the entry written in the very
        transaction that holds the campaign's lock. The lock is taken with the cycle's first
        statement (`locked_read` sends both at once); any other first use takes it here."""
        conn: Connection | None = getattr(self.local, "cycle", None)
        pending = getattr(self.local, "pending", None)
        if conn is not None and pending is not None:
            with phase("lock"):
                self._lock(conn, pending)
            self._granted()
        return conn

    def pending(self) -> tuple[Connection, dict[str, Any]] | None:
        """The cycle's connection and its lock's keys if the lock is still to be taken (the
        cycle has made no statement yet): `jdr.store.pg_cycle.locked_read` takes it with its
        first read. `granted()` once it did."""
        conn = getattr(self.local, "cycle", None)
        campaign_id = getattr(self.local, "pending", None)
        if conn is None or campaign_id is None:
            return None
        return conn, lock_keys(campaign_id)

    def granted(self) -> None:
        """The cycle's lock was taken by `locked_read`, which also told the cycle's commit not
        to wait for the disk: the cycle waits for it after giving the lock back."""
        self._granted()
        self.local.deferred = True

    def _durable(self, conn: Connection) -> None:
        if getattr(self.local, "deferred", False):
            self.local.deferred = False
            with phase("durable"):
                durable(conn)

    def _granted(self) -> None:
        self.local.pending = None
        self.local.since = time.perf_counter()

    @staticmethod
    def _lock(conn: Connection, campaign_id: int) -> None:
        try:
            conn.execute(
                text(
                    "SELECT set_config('lock_timeout', :wait, true),"
                    " pg_advisory_xact_lock(:namespace, :campaign)"
                ),
                lock_keys(campaign_id),
            )
        except Exception as error:
            raise StoreError("busy", campaign=campaign_id, seconds=int(WAIT_S)) from error

    @contextmanager
    def _advisory(self, campaign_id: int) -> Iterator[None]:
        # one transaction per cycle: it takes the lock (bounding the wait) with its first
        # statement, reads the head, writes the entry, and its commit gives the lock back —
        # every round trip held here is one the whole queue of writers waits for
        with phase("checkout"):
            conn = self.engine.connect()
        try:
            self.local.cycle = conn
            self.local.pending = campaign_id
            self.local.since = None
            self.local.deferred = False
            try:
                yield
            except BaseException:
                # what the transaction holds are writes that succeeded, each told to its
                # caller (a failed one went back to its savepoint, `Store._writing`): kept
                self._end(conn, quiet=True)
                with suppress(Exception):
                    self._durable(conn)
                raise
            self._end(conn)
            self._durable(conn)
        finally:
            self.local.cycle = self.local.pending = None
            conn.close()

    def _end(self, conn: Connection, quiet: bool = False) -> None:
        """Commit the cycle (the driver's transaction too, when only the driver spoke: a
        `jdr.store.pg_cycle` read) and note how long the lock was held; `quiet`, a commit
        that fails says nothing (the cycle is failing already)."""
        self.local.cycle = self.local.pending = None
        with suppress(Exception) if quiet else nullcontext(), phase("commit"):
            conn.commit()
            pg = conn.connection.driver_connection
            if pg is not None and pg.info.transaction_status != 0:  # not idle
                pg.commit()
        since = getattr(self.local, "since", None)
        if since is not None:
            add("held", time.perf_counter() - since)

    @contextmanager
    def _flock(self, path: Path) -> Iterator[None]:
        try:
            import fcntl  # noqa: F401 (not on every system)
        except ImportError:  # not a POSIX system: SQLite's own lock and the retries remain
            with self.memory:
                yield
            return
        queue = Queue(path)
        try:
            with phase("lock"):
                queue.__enter__()
        except OSError:  # a read-only folder: SQLite's own lock still keeps the file sound
            yield
            return
        self.local.flocked, self.local.unsynced = True, False
        try:
            with phase("held"):
                yield
        finally:
            self.local.flocked = False
            queue.__exit__()
            if self.local.unsynced:
                with phase("durable"):
                    self._sync_wal()

    def defer_sync(self) -> bool:
        """SQLite: whether the write about to be made, inside this thread's writer cycle, may
        commit without waiting for the disk (`PRAGMA synchronous=NORMAL`): the cycle then
        syncs the write-ahead log after giving its lock back (`_sync_wal`), before it returns,
        so the queue never waits for an fsync and nothing is answered before it is safe."""
        if not getattr(self.local, "flocked", False):
            return False
        self.local.unsynced = True
        return True

    def _sync_wal(self) -> None:
        """Flush SQLite's write-ahead log to disk (what the cycle's commits wrote to it). Its
        frames are there, or a checkpoint copied them to the database file and synced both
        (a checkpoint always syncs), or the log is gone, checkpointed and synced on close."""
        self.local.unsynced = False
        assert self.lock_file is not None
        try:
            handle = os.open(f"{str(self.lock_file)[: -len('.lock')]}-wal", os.O_RDONLY)
        except FileNotFoundError:
            return
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


class Queue:
    """A first-come, first-served lock between processes, made of `flock`s (see the module).

    `path` is the ticket file; the waiters' files live in the folder `PATH.d`. Taking the lock:
    under an exclusive lock on the ticket file, read and bump the ticket `t`, create and lock
    `t`'s own file, then (outside it) wait for the lock on `t - 1`'s file, which its holder
    keeps until it is done, and remove that file. Releasing: unlock `t`'s file, which wakes
    `t + 1` alone. A writer that dies releases its locks with its process, so its successor
    goes on.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with Queue(folder / "db.lock"):
    ...     sorted(p.name for p in (folder / "db.lock.d").iterdir())
    ['1']
    >>> with Queue(folder / "db.lock"):
    ...     sorted(p.name for p in (folder / "db.lock.d").iterdir())
    ['2']
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.folder = Path(f"{path}.d")
        self.mine: int | None = None

    def __enter__(self) -> Queue:
        import fcntl

        if not self.folder.is_dir():
            with suppress(FileExistsError):  # another writer made it first
                self.folder.mkdir(mode=0o700)
        ticket_file = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        mine = None
        try:
            fcntl.flock(ticket_file, fcntl.LOCK_EX)  # held for a read and a write: no queue
            text = os.pread(ticket_file, 32, 0).decode("ascii", "replace").strip()
            ticket = int(text) + 1 if text.isdigit() else 1
            os.pwrite(ticket_file, f"{ticket:<20}\n".encode("ascii"), 0)
            mine = os.open(self.folder / str(ticket), os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(mine, fcntl.LOCK_EX)  # a new file: nobody else holds it
            before = os.open(self.folder / str(ticket - 1), os.O_RDWR | os.O_CREAT, 0o600)
        except BaseException:
            if mine is not None:  # never leave a ticket held: the next writer would wait on it
                os.close(mine)
            raise
        finally:
            fcntl.flock(ticket_file, fcntl.LOCK_UN)
            os.close(ticket_file)
        try:
            fcntl.flock(before, fcntl.LOCK_EX)  # the predecessor is done (or died)
        finally:
            os.close(before)
        with suppress(OSError):
            os.unlink(self.folder / str(ticket - 1))
        self.mine = mine
        return self

    def __exit__(self, *exc: object) -> None:
        if self.mine is not None:
            os.close(self.mine)  # unlocks: the successor, alone, goes on
            self.mine = None
