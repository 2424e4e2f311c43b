"""Alembic migrations, one set for SQLite and PostgreSQL, run from `jdr.store.schema`."""
