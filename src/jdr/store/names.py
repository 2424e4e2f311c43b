"""Names kept in the store, read for shell completion without any side effect.

Completion runs on every TAB: it never creates a database, a folder or a table, never migrates,
and a database that is missing, unreachable or not yet a jdr database simply has no names.

>>> campaign_names("sqlite:////no/such/folder/jdr.db")
[]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, create_engine, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from jdr.store.engine import default_file
from jdr.store.models import campaigns, characters, fight_events, fights

CONNECT_TIMEOUT_S = 2


def read_only_url(url: str | None, environ: Mapping[str, str] = os.environ) -> str | None:
    """The URL to read `url` (else `JDR_DATABASE_URL`, else the embedded file) without writing;
    None if there is nothing to read (a SQLite file that does not exist).

    >>> read_only_url("sqlite:////no/such.db") is None
    True
    >>> read_only_url("postgresql+psycopg://db/jdr")
    'postgresql+psycopg://db/jdr'
    """
    url = url or environ.get("JDR_DATABASE_URL") or f"sqlite:///{default_file()}"
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if not parsed.drivername.startswith("sqlite"):
        return url
    if not parsed.database or parsed.database == ":memory:" or not Path(parsed.database).is_file():
        return None
    return f"sqlite:///file:{Path(parsed.database).resolve()}?mode=ro&uri=true"


def _read(url: str | None, query: Callable[[Connection], list[str]]) -> list[str]:
    readable = read_only_url(url)
    if readable is None:
        return []
    sqlite = readable.startswith("sqlite")
    args: dict[str, Any] = {} if sqlite else {"connect_timeout": CONNECT_TIMEOUT_S}
    try:
        engine = create_engine(readable, connect_args=args)
    except (SQLAlchemyError, ImportError):
        return []
    try:
        with engine.connect() as conn:
            return query(conn)
    except SQLAlchemyError:
        return []
    finally:
        engine.dispose()


def campaign_names(url: str | None) -> list[str]:
    """Every campaign's name, sorted."""
    return _read(url, lambda conn: sorted(conn.scalars(select(campaigns.c.name)).all()))


def character_names(url: str | None, campaign: str | None = None) -> list[str]:
    """The characters of `campaign` (of every campaign if None), sorted, each name once."""

    def query(conn: Connection) -> list[str]:
        statement = select(characters.c.name)
        if campaign is not None:
            statement = statement.join(campaigns).where(campaigns.c.name == campaign)
        return sorted(set(conn.scalars(statement).all()))

    return _read(url, query)


def fighter_names(url: str | None, fight: int) -> list[str]:
    """The names of the fighters of fight number `fight`, in their order."""

    def query(conn: Connection) -> list[str]:
        found = conn.scalars(select(fights.c.participants).where(fights.c.id == fight)).first()
        return [str(name) for name in found or []]

    return _read(url, query)


def fight_story(url: str | None, fight: int) -> tuple[str | None, list[tuple[int, int, Any]]]:
    """The system of fight number `fight` and its stored events `(seq, action, event)`, in order
    (`(None, [])` when there is no such fight to read)."""
    found: list[Any] = []

    def query(conn: Connection) -> list[str]:
        system = conn.scalars(
            select(campaigns.c.system).join(fights).where(fights.c.id == fight)
        ).first()
        rows = conn.execute(
            select(fight_events.c.seq, fight_events.c.action, fight_events.c.event)
            .where(fight_events.c.fight_id == fight)
            .order_by(fight_events.c.seq)
        ).all()
        found.extend((int(r.seq), int(r.action), r.event) for r in rows)
        return [system] if system else []

    system = _read(url, query)
    return (system[0] if system else None), found
