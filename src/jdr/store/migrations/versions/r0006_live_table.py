"""The live table (issue 20): every change of a campaign numbered in commit order (so an open
page catches up after a dropped connection), a fight's play-by-post pace, secret Atom-feed links
and a campaign's outgoing webhook.

Campaigns stored before this revision start at change 0; their fights have no deadline.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("changes", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("fights") as batch:
        batch.add_column(sa.Column("deadline", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("on_late", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("turn_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("late_version", sa.Integer(), nullable=True))
    op.create_table(
        "changes",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("fight_id", sa.Integer(), nullable=True),
        sa.Column("entry", sa.Integer(), nullable=True),
        sa.Column("characters", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name="fk_changes_campaign_id_campaigns",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("campaign_id", "seq", name="pk_changes"),
    )
    op.create_table(
        "feeds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name="fk_feeds_campaign_id_campaigns",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_feeds"),
        sa.UniqueConstraint("token_hash", name="uq_feeds_token_hash"),
    )
    op.create_index("ix_feeds_campaign_id", "feeds", ["campaign_id"])
    op.create_table(
        "webhooks",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("delivered", sa.Integer(), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.Column("retry_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name="fk_webhooks_campaign_id_campaigns",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("campaign_id", name="pk_webhooks"),
    )


def downgrade() -> None:
    op.drop_table("webhooks")
    op.drop_index("ix_feeds_campaign_id", table_name="feeds")
    op.drop_table("feeds")
    op.drop_table("changes")
    with op.batch_alter_table("fights") as batch:
        for column in ("late_version", "turn_since", "on_late", "deadline"):
            batch.drop_column(column)
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_column("changes")
