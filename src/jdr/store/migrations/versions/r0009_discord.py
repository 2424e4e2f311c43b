"""Discord (issue 33): link codes that bind a channel to a campaign (`discord_links`, their
SHA-256 only), the channels bound (`discord_channels`) and Discord users' seats
(`discord_seats`: one per campaign and user, with a role and a player's character).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _campaign(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["campaign_id"],
        ["campaigns.id"],
        name=f"fk_{table}_campaign_id_campaigns",
        ondelete="CASCADE",
    )


def upgrade() -> None:
    op.create_table(
        "discord_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
        _campaign("discord_links"),
        sa.PrimaryKeyConstraint("id", name="pk_discord_links"),
        sa.UniqueConstraint("code_hash", name="uq_discord_links_code_hash"),
    )
    op.create_index("ix_discord_links_campaign_id", "discord_links", ["campaign_id"])
    op.create_table(
        "discord_channels",
        sa.Column("channel_id", sa.String(32), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.String(32), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        _campaign("discord_channels"),
        sa.PrimaryKeyConstraint("channel_id", name="pk_discord_channels"),
    )
    op.create_index("ix_discord_channels_campaign_id", "discord_channels", ["campaign_id"])
    op.create_table(
        "discord_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("invite_id", sa.Integer(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        _campaign("discord_seats"),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
            name="fk_discord_seats_character_id_characters",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["invite_id"],
            ["invites.id"],
            name="fk_discord_seats_invite_id_invites",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_discord_seats"),
        sa.UniqueConstraint("campaign_id", "user_id", name="uq_discord_seats_campaign_id"),
    )
    op.create_index("ix_discord_seats_campaign_id", "discord_seats", ["campaign_id"])


def downgrade() -> None:
    op.drop_index("ix_discord_seats_campaign_id", table_name="discord_seats")
    op.drop_table("discord_seats")
    op.drop_index("ix_discord_channels_campaign_id", table_name="discord_channels")
    op.drop_table("discord_channels")
    op.drop_index("ix_discord_links_campaign_id", table_name="discord_links")
    op.drop_table("discord_links")
