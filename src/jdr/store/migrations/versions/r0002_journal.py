"""Verifiable rolls: each campaign's seed epochs and its hash-chained journal.

Campaigns created before this revision get their first epoch when they next roll.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "epochs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revealed", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name="fk_epochs_campaign_id_campaigns",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_epochs"),
        sa.UniqueConstraint("campaign_id", "number", name="uq_epochs_campaign_id"),
    )
    op.create_index("ix_epochs_campaign_id", "epochs", ["campaign_id"])
    op.create_table(
        "journal",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("action_id", sa.String(200), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("disclosed", sa.Boolean(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("entry", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name="fk_journal_campaign_id_campaigns",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("campaign_id", "seq", name="pk_journal"),
        sa.UniqueConstraint("campaign_id", "action_id", name="uq_journal_campaign_id"),
    )


def downgrade() -> None:
    op.drop_table("journal")
    op.drop_index("ix_epochs_campaign_id", "epochs")
    op.drop_table("epochs")
