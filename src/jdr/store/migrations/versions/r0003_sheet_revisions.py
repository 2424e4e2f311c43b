"""Living sheets: each character's revisions, and the revision each fighter started a fight from.

Every character stored before this revision gets its revision 1 (`created`), holding its sheet as
it is now (not journaled: the journal did not record sheets then).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    revisions = op.create_table(
        "sheet_revisions",
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("actor", sa.String(200), nullable=True),
        sa.Column("journal_seq", sa.Integer(), nullable=True),
        sa.Column("snapshot", sa.JSON(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
            name="fk_sheet_revisions_character_id_characters",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("character_id", "revision", name="pk_sheet_revisions"),
    )
    op.create_table(
        "fight_characters",
        sa.Column("fight_id", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("fighter", sa.String(200), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["fight_id"],
            ["fights.id"],
            name="fk_fight_characters_fight_id_fights",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
            name="fk_fight_characters_character_id_characters",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("fight_id", "character_id", name="pk_fight_characters"),
    )
    characters = sa.table(
        "characters",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("sheet", sa.JSON()),
        sa.column("version", sa.Integer()),
    )
    rows = op.get_bind().execute(sa.select(characters.c.id, characters.c.name, characters.c.sheet))
    now = datetime.now(UTC)
    existing = [
        {
            "character_id": row.id,
            "revision": 1,
            "kind": "created",
            "data": {"changes": [{"path": [], "after": row.sheet}], "name": row.name},
            "actor": None,
            "journal_seq": None,
            "snapshot": {"name": row.name, "sheet": row.sheet},
            "created": now,
        }
        for row in rows
    ]
    if existing:
        op.bulk_insert(revisions, existing)
    op.execute(sa.update(characters).values(version=1))


def downgrade() -> None:
    op.drop_table("fight_characters")
    op.drop_table("sheet_revisions")
