"""One module per revision: r0001_initial … (alembic reads `revision` and `down_revision`)."""
