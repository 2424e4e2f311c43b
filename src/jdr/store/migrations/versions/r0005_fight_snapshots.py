"""Fights folded in linear time: each fight keeps its folded state and the event version it
folds to, so an action reads that snapshot and the events after it only (issue 17).

Fights stored before this revision get no snapshot: the first action on one folds its log
once and writes it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fight_snapshots",
        sa.Column("fight_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["fight_id"],
            ["fights.id"],
            name="fk_fight_snapshots_fight_id_fights",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("fight_id", name="pk_fight_snapshots"),
    )


def downgrade() -> None:
    op.drop_table("fight_snapshots")
