"""The database's revision: create a new database at the latest one, migrate an old one, refuse
one written by a newer jdr. Alembic runs programmatically from the migrations inside the package.

Opening a database that is already at the latest revision does not import Alembic (a tenth of a
second of every command's start): its revision is read from `alembic_version` and compared with
`HEAD`, which a test keeps equal to the migrations' head. A new database is created from the
models and stamped `HEAD`, without Alembic either (a test keeps it equal to what the migrations
build); Alembic runs only to migrate an older one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

from jdr.store.engine import make_engine, resolve_url, safe_url, translated
from jdr.store.errors import StoreError
from jdr.store.models import metadata

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"
HEAD = "0009"
"""The latest revision of `migrations/versions` (`head()` reads it from Alembic)."""


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration without alembic.ini, on `connection` if given."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The latest revision this code knows."""
    from alembic.script import ScriptDirectory

    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current_revision(connection: Connection) -> str | None:
    """The database's revision, or None for a database alembic never touched."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    found = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return str(found[0]) if len(found) == 1 else None


def ensure_current(engine: Engine, url: str) -> None:
    """Create a new database at the latest revision; refuse an older or a newer one."""
    with translated(url), engine.begin() as connection:
        revision = current_revision(connection)
        if revision == HEAD:
            return
        if revision is None:
            if inspect(connection).get_table_names():
                raise StoreError("not_jdr", url=safe_url(url))
            create(connection)
            return
        _check_known(revision, url)
        latest = head()
        if revision != latest:
            raise StoreError("older_schema", url=safe_url(url), revision=revision, head=latest)


def create(connection: Connection) -> None:
    """A new database at the latest revision: the tables of `jdr.store.models`, stamped `HEAD`,
    without importing Alembic (a test keeps them equal to what the migrations build)."""
    metadata.create_all(connection)
    connection.execute(
        text(
            "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL,"
            " CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"
        )
    )
    connection.execute(text("INSERT INTO alembic_version (version_num) VALUES (:v)"), {"v": HEAD})


def upgrade(url: str | None = None) -> str:
    """Migrate the database at `url` (or the default) to the latest revision; return it."""
    url = resolve_url(url)
    engine = make_engine(url)
    try:
        with translated(url), engine.begin() as connection:
            from alembic import command

            revision = current_revision(connection)
            if revision is not None:
                _check_known(revision, url)
            command.upgrade(alembic_config(connection), "head")
    finally:
        engine.dispose()
    return head()


def _check_known(revision: str, url: str) -> None:
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    try:
        ScriptDirectory.from_config(alembic_config()).get_revision(revision)
    except CommandError:
        raise StoreError("newer_schema", url=safe_url(url), revision=revision) from None
