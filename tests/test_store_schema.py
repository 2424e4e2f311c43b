"""A new database is created from the models, stamped at the latest revision, without Alembic
(issue 17: `jdr demo` and every first command start faster); it must be exactly what the
migrations build, and an older database still migrates."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

from sqlalchemy import create_engine, inspect, text

from jdr.store import open_store, upgrade
from jdr.store.models import metadata
from jdr.store.schema import HEAD, alembic_config, current_revision


def _differences(url: str) -> list[object]:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    engine = create_engine(url)
    with engine.connect() as conn:
        found = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    return list(found)


def test_a_new_database_is_the_models_at_head_and_what_the_migrations_build(
    database_url: str, tmp_path: Path
) -> None:
    open_store(database_url).close()  # created from the models
    engine = create_engine(database_url)
    with engine.connect() as conn:
        assert current_revision(conn) == HEAD
        created = {t: sorted(c["name"] for c in inspect(conn).get_columns(t))
                   for t in inspect(conn).get_table_names()}  # fmt: skip
    engine.dispose()
    assert _differences(database_url) == []
    migrated = f"sqlite:///{tmp_path / 'migrated.db'}"
    engine = create_engine(migrated)
    with engine.begin() as conn:
        from alembic import command

        command.upgrade(alembic_config(conn), "head")
    with engine.connect() as conn:
        built = {t: sorted(c["name"] for c in inspect(conn).get_columns(t))
                 for t in inspect(conn).get_table_names()}  # fmt: skip
    engine.dispose()
    assert _differences(migrated) == []
    assert created == built


def test_opening_a_new_database_does_not_import_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    code = (
        "import sys; from jdr.store import open_store; open_store(sys.argv[1]).close();"
        " print('alembic' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, url], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_a_database_at_0003_migrates_to_head_with_its_fights_kept(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        from alembic import command

        command.upgrade(alembic_config(conn), "0003")
        insert = "INSERT INTO campaigns (system, name, settings, created) VALUES"
        insert += " ('example', :n, '{}', '2026-12-01')"
        conn.execute(text(insert), {"n": uuid.uuid4().hex})
    engine.dispose()
    assert upgrade(url) == HEAD
    store = open_store(url)
    assert len(store.campaigns()) == 1
    store.close()
