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

from jdr.errors import InputError, LimitError
from jdr.i18n import _
from jdr.store.errors import StoreError

BUSY_TIMEOUT_S = 30.0


def default_file() -> Path:
    """Where the embedded database lives: `jdr.db` in the user's data directory."""
    return Path(platformdirs.user_data_dir("jdr", appauthor=False)) / "jdr.db"


def default_url() -> str:
    """The embedded database: `jdr.db` in the user's data directory (created if missing,
    readable by its owner only: the folder 0700, whatever the umask)."""
    path = default_file()
    if not path.parent.is_dir():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(path.parent, 0o700)
    return f"sqlite:///{path}"


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names (None for another database or an in-memory one).

    >>> sqlite_file("sqlite:////var/jdr.db"), sqlite_file("sqlite://"), sqlite_file("postgresql+psycopg://db/x")
    (PosixPath('/var/jdr.db'), None, None)
    """
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return None
    name = parsed.database
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name)


def create_private(path: Path) -> None:
    """Create the SQLite file `path` readable and writable by its owner only (0600, whatever
    the umask) before SQLite opens it; its `-wal` and `-shm` files take the same permissions.
    An existing file is left as it is (`exposed` says whether others can read it)."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError:  # a missing folder, a read-only one: SQLite says so when it opens
        return
    os.close(handle)
    os.chmod(path, 0o600)


def exposed(path: Path) -> bool:
    """Whether users other than the owner may read the database file `path`."""
    try:
        return bool(path.stat().st_mode & 0o044)
    except OSError:
        return False


def resolve_url(url: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """An explicit URL, else `JDR_DATABASE_URL`, else the embedded default."""
    if url:
        return check_url(url, "--db")
    from_environment = environ.get("JDR_DATABASE_URL")
    if from_environment:
        return check_url(from_environment, "JDR_DATABASE_URL")
    return default_url()


DRIVERS = ("sqlite", "sqlite+pysqlite", "postgresql+psycopg")
"""The database drivers jdr ships with (`pip install jdr` brings SQLite and psycopg 3)."""
URLS_ALLOWED = "sqlite:///FILE, postgresql+psycopg://USER@HOST/DATABASE"


def check_url(url: str, field: str) -> str:
    """`url` if jdr can open it, else an `InputError` naming `field` (`--db`,
    `JDR_DATABASE_URL`) — never SQLAlchemy's own traceback.

    >>> check_url("sqlite:///jdr.db", "--db")
    'sqlite:///jdr.db'
    >>> check_url("mysql://me@db/jdr", "--db")
    Traceback (most recent call last):
    ...
    jdr.errors.InputError: --db: 'mysql://me@db/jdr' (not a database URL jdr can use; allowed: ...)
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        driver = make_url(url).drivername
    except (ArgumentError, ValueError):
        driver = None
    if driver not in DRIVERS:
        reason = _("not a database URL jdr can use")
        raise InputError(field, safe_url(url), URLS_ALLOWED, reason)
    return url


POOL_SIZE = 10
POOL_OVERFLOW = 10
"""PostgreSQL connections a process keeps (and may open beyond, when busy): a web worker's
requests run in up to 40 threads, and a writer waiting for its campaign's lock holds one; 4
workers stay under PostgreSQL's default 100 connections (each adds one that listens)."""


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite gets WAL mode, foreign keys on and a busy timeout."""
    if url.startswith("sqlite"):
        path = sqlite_file(url)
        if path is not None:
            create_private(path)
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW)


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
    except OverflowError:  # a number past the database's 64-bit integers (SQLite's driver)
        allowed = _("a whole number from 0 to {n}").format(n=2**63 - 1)
        raise LimitError(_("number"), None, allowed, _("too large for the database")) from None


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
