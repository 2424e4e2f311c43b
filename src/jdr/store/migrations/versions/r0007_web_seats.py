"""One browser session, many seats (issue 28): a session is the browser's cookie; its seats,
one per campaign it joined, hold the campaign, the role and (a player's) character.

Every session stored before this revision becomes a session with one seat (its campaign, role,
character and invite), so a browser signed in before the upgrade stays signed in.

The sessions' rows are read before their table is rebuilt and the seats written after: on
SQLite, rebuilding a table (batch mode) drops it, which would cascade to seats already there.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_MOVED = ("campaign_id", "role", "character_id", "invite_id")
_OLD_FOREIGN_KEYS = (
    "fk_web_sessions_campaign_id_campaigns",
    "fk_web_sessions_character_id_characters",
    "fk_web_sessions_invite_id_invites",
)


def _seats_table() -> sa.TableClause:
    return sa.table(
        "web_seats",
        sa.column("session_id", sa.Integer()),
        sa.column("campaign_id", sa.Integer()),
        sa.column("role", sa.String()),
        sa.column("character_id", sa.Integer()),
        sa.column("invite_id", sa.Integer()),
        sa.column("created", sa.DateTime(timezone=True)),
    )


def upgrade() -> None:
    conn = op.get_bind()
    old = sa.table(
        "web_sessions",
        sa.column("id", sa.Integer()),
        sa.column("created", sa.DateTime(timezone=True)),
        *[sa.column(name) for name in _MOVED],
    )
    rows = [
        {"session_id": row.id, **{name: getattr(row, name) for name in _MOVED}}
        | {"created": row.created}
        for row in conn.execute(sa.select(old)).all()
    ]
    op.drop_index("ix_web_sessions_campaign_id", table_name="web_sessions")
    with op.batch_alter_table("web_sessions") as batch:
        for name in _OLD_FOREIGN_KEYS:
            batch.drop_constraint(name, type_="foreignkey")
        for column in _MOVED:
            batch.drop_column(column)
    op.create_table(
        "web_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("invite_id", sa.Integer(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["web_sessions.id"],
            name="fk_web_seats_session_id_web_sessions",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.id"],
            name="fk_web_seats_campaign_id_campaigns",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
            name="fk_web_seats_character_id_characters",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["invite_id"],
            ["invites.id"],
            name="fk_web_seats_invite_id_invites",
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_web_seats"),
        sa.UniqueConstraint("session_id", "campaign_id", name="uq_web_seats_session_id"),
    )
    op.create_index("ix_web_seats_session_id", "web_seats", ["session_id"])
    op.create_index("ix_web_seats_campaign_id", "web_seats", ["campaign_id"])
    if rows:
        op.bulk_insert(_seats_table(), rows)


def downgrade() -> None:
    """Back to one campaign a session: each session keeps its first seat; a session without
    one is deleted."""
    conn = op.get_bind()
    seats = sa.table(
        "web_seats",
        sa.column("id", sa.Integer()),
        sa.column("session_id", sa.Integer()),
        *[sa.column(name) for name in _MOVED],
    )
    first: dict[int, dict[str, Any]] = {}
    for row in conn.execute(sa.select(seats).order_by(seats.c.id)).all():
        first.setdefault(row.session_id, {name: getattr(row, name) for name in _MOVED})
    op.drop_index("ix_web_seats_campaign_id", table_name="web_seats")
    op.drop_index("ix_web_seats_session_id", table_name="web_seats")
    op.drop_table("web_seats")
    sessions = sa.table(
        "web_sessions",
        sa.column("id", sa.Integer()),
        *[sa.column(name) for name in _MOVED],
    )
    ids = list(conn.execute(sa.select(sessions.c.id)).scalars())
    gone = [session for session in ids if session not in first]
    if gone:
        conn.execute(sa.delete(sessions).where(sessions.c.id.in_(gone)))
    with op.batch_alter_table("web_sessions") as batch:
        batch.add_column(sa.Column("campaign_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("role", sa.String(16), nullable=True))
        batch.add_column(sa.Column("character_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("invite_id", sa.Integer(), nullable=True))
    for session, values in first.items():
        conn.execute(sa.update(sessions).where(sessions.c.id == session).values(**values))
    with op.batch_alter_table("web_sessions") as batch:
        batch.alter_column("campaign_id", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("role", existing_type=sa.String(16), nullable=False)
        batch.create_foreign_key(
            "fk_web_sessions_campaign_id_campaigns",
            "campaigns",
            ["campaign_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch.create_foreign_key(
            "fk_web_sessions_character_id_characters",
            "characters",
            ["character_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch.create_foreign_key(
            "fk_web_sessions_invite_id_invites",
            "invites",
            ["invite_id"],
            ["id"],
            ondelete="SET NULL",
        )
    op.create_index("ix_web_sessions_campaign_id", "web_sessions", ["campaign_id"])
