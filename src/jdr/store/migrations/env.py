"""Alembic environment: runs on the connection `jdr.store.schema` passes in (no alembic.ini).

Importing this module outside a migration (doctest collection, tools) does nothing.
"""

from __future__ import annotations

from alembic import context
from alembic.config import Config

from jdr.store.models import metadata


def run(config: Config) -> None:
    context.configure(
        connection=config.attributes["connection"],
        target_metadata=metadata,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


_config: Config | None = getattr(context, "config", None)
if _config is not None:
    run(_config)
