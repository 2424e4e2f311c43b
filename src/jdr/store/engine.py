"""Where the database is and how to connect: the embedded SQLite default, or a URL.

`JDR_DATABASE_URL` or an explicit URL selects another database (PostgreSQL:
`postgresql+psycopg://user@host/db`). SQLite connections get WAL mode, foreign keys and a busy
timeout, so several processes can share the file. Driver errors become `StoreError`s here.

>>> resolve_url("sqlite:///tmp.db", environ={})
'sqlite:///tmp.db'
>>> resolve_url(None, environ={"JDR_DATABASE_URL": "postgresql+psycopg://db/jdr"})
'postgresql+psycopg://db/jdr'
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import DBAPIError, IntegrityError

from jdr.store.errors import StoreError

BUSY_TIMEOUT_S = 30.0


def default_file() -> Path:
    """Where the embedded database lives: `jdr.db` in the user's data directory."""
    return Path(platformdirs.user_data_dir("jdr", appauthor=False)) / "jdr.db"


def default_url() -> str:
    """The embedded database: `jdr.db` in the user's data directory (created if missing)."""
    path = default_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def resolve_url(url: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """An explicit URL, else `JDR_DATABASE_URL`, else the embedded default."""
    return url or environ.get("JDR_DATABASE_URL") or default_url()


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite gets WAL mode, foreign keys on and a busy timeout."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=ON")
        if cursor.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            cursor.execute("PRAGMA journal_mode=WAL")
    finally:
        cursor.close()


@contextmanager
def translated(url: str) -> Iterator[None]:
    """Turn a driver's error into a `StoreError` that says what happened to which database."""
    try:
        yield
    except IntegrityError:  # a constraint: the caller says which
        raise
    except DBAPIError as error:
        raise describe(error, url) from error


def describe(error: DBAPIError, url: str) -> StoreError:
    """The `StoreError` for a driver error: read-only, disk full, unreachable, or failed."""
    text = str(error.orig).lower()
    shown = safe_url(url)
    if "readonly" in text or "read-only" in text or "read only" in text:
        return StoreError("read_only", url=shown)
    if "disk is full" in text or "no space left" in text or "disk full" in text:
        return StoreError("disk_full", url=shown)
    detail = str(error.orig).strip().splitlines()[0] if str(error.orig).strip() else type(error)
    if error.connection_invalidated or "connect" in text or "unable to open" in text:
        return StoreError("unreachable", url=shown, detail=detail)
    return StoreError("failed", url=shown, detail=detail)


def safe_url(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # an unparsable URL is shown as given
        return url
