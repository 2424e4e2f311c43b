"""Characters made in the browser (issue 32): an invite may ask the player to create their
character (`invites.creates`), and the sheet they fill waits for the GM in `pending_sheets`
until approved (it becomes the seat's character) or refused.

Invites stored before this revision do not ask for a character.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("invites") as batch:
        batch.add_column(
            sa.Column("creates", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "pending_sheets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("sheet", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name="fk_pending_sheets_campaign_id_campaigns",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["web_seats.id"],
            name="fk_pending_sheets_seat_id_web_seats",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
            name="fk_pending_sheets_character_id_characters",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_pending_sheets"),
    )
    op.create_index("ix_pending_sheets_campaign_id", "pending_sheets", ["campaign_id"])
    op.create_index("ix_pending_sheets_seat_id", "pending_sheets", ["seat_id"])


def downgrade() -> None:
    op.drop_index("ix_pending_sheets_seat_id", table_name="pending_sheets")
    op.drop_index("ix_pending_sheets_campaign_id", table_name="pending_sheets")
    op.drop_table("pending_sheets")
    with op.batch_alter_table("invites") as batch:
        batch.drop_column("creates")
