"""A roll's writer cycle on PostgreSQL in two round trips once the campaign's lock is granted.

Every round trip made while a campaign's writer lock is held (`jdr.store.writers`) is one that
every writer queued behind waits for, and in a busy server each one also waits for its thread's
turn at the interpreter. A roll's cycle used to make five after the lock: the lock's own answer,
the journal's head, the change's numbering, the entry, the commit. Here, with psycopg's pipeline
mode (several statements sent at once, their answers read at once):

1. `locked_read`: the transaction's `BEGIN`, the lock (`pg_advisory_xact_lock`) and the read
   that must follow it (the journal's head) in one round trip. They stay two statements: in
   READ COMMITTED each statement reads from a snapshot taken when it starts, and the head must
   be read after the lock is granted, never from before the wait.
2. `append_and_commit`: the entry, its epoch's check, the change numbered and announced
   (`jdr.store.changes`) in one statement — a fight action's events, version bump and snapshot
   chained in it too — and the `COMMIT`, in one round trip. The commit does not wait for the
   disk (`synchronous_commit` off, set with the lock); `durable` does, after the lock went back.

Both speak to the driver's connection under SQLAlchemy's (the head's query is SQLAlchemy's,
compiled once; the appends are written here in SQL); the rest of the store keeps using
SQLAlchemy as before.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, insert, literal, select

from jdr.phases import add, phase
from jdr.store.changes import CHANNEL, FIGHT, JOURNAL
from jdr.store.errors import StoreError
from jdr.store.models import epochs, journal

LOCK_SQL = (
    "SELECT set_config('lock_timeout', %(wait)s, true),"
    " set_config('synchronous_commit', 'off', true),"
    " pg_advisory_xact_lock(%(namespace)s, %(campaign)s)"
)
"""The cycle's lock, its wait bounded, and its commit made without waiting for the disk: the
lock goes back as soon as the entry is committed, and `durable` waits for the disk after."""
DURABLE_SQL = "SELECT pg_current_xact_id()"
LOCK_TIMEOUT = "55P03"
"""PostgreSQL's SQLSTATE for `lock_timeout` (lock_not_available)."""

APPEND_SQL = (
    "WITH still_open AS (UPDATE epochs SET number = number WHERE campaign_id = %(campaign)s"
    " AND number = %(epoch)s AND revealed IS NULL RETURNING number),"
    " entry AS (INSERT INTO journal"
    " (campaign_id, seq, action_id, epoch, hidden, disclosed, hash, entry, created)"
    " SELECT %(campaign)s, %(seq)s, %(action_id)s, number, %(hidden)s, %(disclosed)s, %(hash)s,"
    " CAST(%(entry)s AS JSON), %(created)s FROM still_open RETURNING seq),"
    " bumped AS (UPDATE campaigns SET changes = changes + 1 WHERE id = %(campaign)s"
    " AND EXISTS (SELECT 1 FROM entry) RETURNING changes),"
    " added AS (INSERT INTO changes (campaign_id, seq, kind, fight_id, entry, characters, created)"
    " SELECT %(campaign)s, changes, %(kind)s, NULL, %(seq)s, CAST('[]' AS JSON), %(created)s"
    " FROM bumped RETURNING seq)"
    " SELECT seq, pg_notify(%(channel)s, CAST(%(campaign)s AS TEXT) || ':' || CAST(seq AS TEXT))"
    " FROM added"
)
"""A roll's entry written if its epoch is still open (the no-op update takes the epoch row's
lock: a reveal and the entry are ordered), then the campaign's change bumped, recorded and
announced (`jdr.store.changes.changed`), in one statement; one row (the change's seq) if the
entry was written, none if the epoch was revealed meanwhile."""


def driver(conn: Connection) -> Any:
    """The psycopg connection under SQLAlchemy's `conn`."""
    return conn.connection.driver_connection


def locked_read(
    conn: Connection,
    keys: Mapping[str, Any],
    query: Any,
    params: Mapping[str, Any],
    seconds: int,
) -> list[tuple[Any, ...]]:
    """Take the campaign's lock (`keys`: `jdr.store.writers.lock_keys`) and run `query` (a
    SQLAlchemy select of named parameters `params`, compiled once) after it, in `conn`'s
    transaction, in one round trip: its rows. `StoreError("busy")` if the lock was not granted
    within `seconds`."""
    import psycopg

    sql, names = _compiled(query, conn.dialect)
    pg = driver(conn)
    start = time.perf_counter()
    try:
        with phase("lock"), pg.pipeline():
            pg.execute(LOCK_SQL, keys)
            bound = {name: params.get(key, value) for name, (key, value) in names.items()}
            cursor = pg.execute(sql, bound)
        return list(cursor.fetchall())
    except psycopg.Error as error:
        with _quiet():
            pg.rollback()
        if error.sqlstate == LOCK_TIMEOUT:
            raise StoreError("busy", campaign=keys["campaign"], seconds=seconds) from error
        raise _wrapped(error, LOCK_SQL) from error
    finally:  # the read is timed with the wait for the lock: not as the head's (the caller's)
        add("head", start - time.perf_counter())


def append_and_commit(
    conn: Connection, campaign_id: int, values: Mapping[str, Any], fight: Any = None
) -> bool:
    """Write a journal row (`values`: its columns) with its change, and `fight`'s events and
    snapshot (a `jdr.store.journal.FightAppend` with events, or None: a roll), and commit, in
    one statement and one round trip. False if nothing was written (everything rolled back,
    the lock with it): its seq or action id was taken, its epoch revealed or the fight moved on
    meanwhile (the caller reads which)."""
    import psycopg

    params = {
        **values,
        "campaign": campaign_id,
        "entry": json.dumps(values["entry"]),
        "kind": JOURNAL if fight is None else FIGHT,
        "channel": CHANNEL,
        "fight": None,
    }
    statement = APPEND_SQL
    if fight is not None:
        statement = _fight_statement(fight, params)
    pg = driver(conn)
    try:
        with pg.pipeline():
            cursor = pg.execute(statement, params)
            pg.commit()
        return (cursor.fetchone() if cursor.pgresult is not None else None) is not None
    except psycopg.IntegrityError:
        with _quiet():
            pg.rollback()
        return False
    except psycopg.Error as error:
        with _quiet():
            pg.rollback()
        raise _wrapped(error, statement) from error


FIGHT_SQL = (
    "WITH still_open AS (UPDATE epochs SET number = number WHERE campaign_id = %(campaign)s"
    " AND number = %(epoch)s AND revealed IS NULL RETURNING number),"
    " bumped AS (UPDATE fights SET version = %(version)s, turn_since = %(created)s"
    " WHERE id = %(fight)s AND version = %(expected)s AND EXISTS (SELECT 1 FROM still_open)"
    " RETURNING id),"
    " events AS (INSERT INTO fight_events (fight_id, seq, action, event, created)"
    " SELECT bumped.id, given.seq, %(action)s, CAST(given.event AS JSON), %(created)s"
    " FROM bumped, (VALUES {rows}) AS given (seq, event) RETURNING seq),"
    "{snapshot}"
    " entry AS (INSERT INTO journal"
    " (campaign_id, seq, action_id, epoch, hidden, disclosed, hash, entry, created)"
    " SELECT %(campaign)s, %(seq)s, %(action_id)s, %(epoch)s, %(hidden)s, %(disclosed)s,"
    " %(hash)s, CAST(%(entry)s AS JSON), %(created)s FROM bumped RETURNING seq),"
    " counted AS (UPDATE campaigns SET changes = changes + 1 WHERE id = %(campaign)s"
    " AND EXISTS (SELECT 1 FROM entry) RETURNING changes),"
    " added AS (INSERT INTO changes (campaign_id, seq, kind, fight_id, entry, characters, created)"
    " SELECT %(campaign)s, changes, %(kind)s, %(fight)s, %(seq)s, CAST('[]' AS JSON), %(created)s"
    " FROM counted RETURNING seq)"
    " SELECT seq, pg_notify(%(channel)s, CAST(%(campaign)s AS TEXT) || ':' || CAST(seq AS TEXT))"
    " FROM added"
)
"""A fight action's writes chained in one statement (`Store._append`'s and `record`'s): the
epoch still open, then the fight bumped from the version the action was decided on, then its
events, its snapshot and the journal entry, then the change — each from the one before, so
either everything is written or nothing is (no row back)."""
SNAPSHOT_SQL = (
    " kept AS (INSERT INTO fight_snapshots (fight_id, version, state)"
    " SELECT id, %(version)s, CAST(%(snapshot)s AS JSON) FROM bumped ON CONFLICT (fight_id)"
    " DO UPDATE SET version = EXCLUDED.version, state = EXCLUDED.state RETURNING fight_id),"
)


def _fight_statement(fight: Any, params: dict[str, Any]) -> str:
    """`FIGHT_SQL` for `fight`'s events (their parameters added to `params`)."""
    expected = int(fight.expected_version)
    params.update(
        fight=int(fight.fight_id),
        expected=expected,
        version=expected + len(fight.events),
        action=expected + 1,
    )
    rows = []
    for number, event in enumerate(fight.events, start=1):
        params[f"seq_{number}"] = expected + number
        params[f"event_{number}"] = json.dumps(event)
        rows.append(f"(CAST(%(seq_{number})s AS INTEGER), %(event_{number})s)")
    snapshot = ""
    if fight.snapshot is not None:
        params["snapshot"] = json.dumps(fight.snapshot)
        snapshot = SNAPSHOT_SQL
    return FIGHT_SQL.replace("{rows}", ", ".join(rows)).replace("{snapshot}", snapshot)


Binds = dict[str, tuple[str, Any]]
_COMPILED: dict[tuple[int, str], tuple[Any, str, Binds]] = {}


def _compiled(query: Any, dialect: Any) -> tuple[str, Binds]:
    """`query` compiled for the driver (kept: a store's few queries are compiled once) and, for
    each of the driver's parameter names, the query's parameter it binds and its own value (a
    literal's)."""
    key = (id(query), dialect.name)
    kept = _COMPILED.get(key)
    if kept is None or kept[0] is not query:
        compiled = query.compile(dialect=dialect)
        names = {name: (bind.key, bind.value) for name, bind in compiled.binds.items()}
        kept = _COMPILED[key] = (query, str(compiled), names)
    return kept[1], kept[2]


def durable(conn: Connection) -> None:
    """Wait until what the cycle committed is on disk, after its lock went back: a transaction
    of its own that takes a transaction id commits with `synchronous_commit` on, which flushes
    the write-ahead log up to its commit, so up to the cycle's too (the log is written in
    order). Writers queued on the campaign no longer wait for the disk; the roll is answered
    only once it is safe, as before, and concurrent flushes are grouped by the database."""
    import psycopg

    pg = driver(conn)
    try:
        with pg.pipeline():
            pg.execute(DURABLE_SQL)
            pg.commit()
    except psycopg.Error as error:
        with _quiet():
            pg.rollback()
        raise _wrapped(error, DURABLE_SQL) from error


def _wrapped(error: Exception, statement: str) -> Exception:
    """The driver's `error` as SQLAlchemy would raise it (`jdr.store.engine.translated` says
    what happened to which database)."""
    import psycopg
    from sqlalchemy.exc import DBAPIError

    return DBAPIError.instance(statement, None, error, psycopg.Error)


def _quiet() -> Any:
    from contextlib import suppress

    import psycopg

    return suppress(psycopg.Error)


def entry_if_open(still_open: Any, values: dict[str, Any]) -> Any:
    """PostgreSQL: insert the journal row `values` if `still_open` (the update of its epoch
    while open) updates a row, in one statement; it returns the row's seq if it did."""
    opened = still_open.returning(epochs.c.number).cte("still_open")
    names = list(values)
    row = select(*(literal(values[n], journal.c[n].type) for n in names)).select_from(opened)
    return insert(journal).from_select(names, row).add_cte(opened).returning(journal.c.seq)
