"""The tables, as SQLAlchemy Core: campaigns, characters, fights and each fight's event log.

The event log is append-only: a row is never updated or deleted. `seq` numbers a fight's events
1, 2, … and `fights.version` is the last `seq`; `action` is the `seq` of the first event of the
group one action appended (undo and redo work on whole actions).

The journal (issue 9) is append-only too: one row per roll or fight action of a campaign, `seq`
1, 2, … per campaign, each holding its hash-chained entry; only `disclosed` ever changes (a hidden
roll made public). `epochs` hold each campaign's secret seeds and their commitments, one open
(unrevealed) epoch at a time.

A character's sheet is a fold over its revisions (issue 16): `sheet_revisions` numbers them 1, 2,
… per character, each holding what it changed (`data`: the changes, why, what caused it) and the
journal entry that records it; `characters.sheet` is the fold kept up to date in the same
transaction, and `characters.version` its last revision. Every `SNAPSHOT_EVERY`-th revision also
keeps the whole sheet (`snapshot`), so a sheet at any revision folds from at most that many.
`fight_characters` says which revision of each stored fighter a fight started from.

The web table (issue 19): `invites` are single-use links into one campaign with a role (and, for a
player, a character); `web_sessions` are the browsers signed in (one cookie each), and
`web_seats` their seats: one per campaign a browser joined (by an invite, or by creating the
campaign), with its role and (a player's) character (issue 28: one session, many seats). Invites
and sessions keep only the SHA-256 of their random token, never the token itself.

`fight_snapshots` keeps each fight's folded state and the `version` (event `seq`) it folds to
(issue 17), written in the transaction of the action that moved the fight, so an action reads it
and the events after it only. It is a cache: the events stay the truth, and a fight without a
snapshot (or one behind its log) folds from the events.

The live table (issue 20): `changes` numbers every change of a campaign 1, 2, … (`seq`, gap-free
and in commit order: each change bumps `campaigns.changes` first, which holds the campaign row's
lock until the transaction ends), so an open page asks "what changed after 41?" and misses
nothing after a dropped connection. A fight's pace (play-by-post): `deadline` seconds per turn,
what happens when it passes (`on_late`: the system's safe default, or the GM decides), when the
turn began (`turn_since`) and the version whose lateness was already dealt with (`late_version`).
`feeds` are secret Atom-feed links (their token's SHA-256 only); `webhooks` hold a campaign's
outgoing webhook and how far it has announced (`delivered`: a change seq).

Discord (issue 33): `discord_links` are single-use codes (their SHA-256 only) that bind a Discord
channel to a campaign (`discord_channels`, one campaign per channel) and make whoever redeems one
the campaign's GM on Discord; `discord_seats` are Discord users' seats, one per campaign and user,
with a role and (a player's) character, taken by redeeming an invite (`/jdr join`) or a link code.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    false,
)

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

campaigns = Table(
    "campaigns",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("system", String(64), nullable=False),
    Column("name", String(200), nullable=False, unique=True),
    Column("settings", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("changes", Integer, nullable=False, server_default="0"),
)

characters = Table(
    "characters",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column("name", String(200), nullable=False),
    Column("sheet", JSON, nullable=False),
    Column("version", Integer, nullable=False),
    UniqueConstraint("campaign_id", "name"),
)

fights = Table(
    "fights",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column("participants", JSON, nullable=False),
    Column("status", String(32), nullable=False),
    Column("version", Integer, nullable=False),
    Column("deadline", Integer, nullable=True),
    Column("on_late", String(16), nullable=True),
    Column("turn_since", DateTime(timezone=True), nullable=True),
    Column("late_version", Integer, nullable=True),
)

fight_events = Table(
    "fight_events",
    metadata,
    Column("fight_id", ForeignKey("fights.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("action", Integer, nullable=False),
    Column("event", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

fight_snapshots = Table(
    "fight_snapshots",
    metadata,
    Column("fight_id", ForeignKey("fights.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("state", JSON, nullable=False),
)

epochs = Table(
    "epochs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column("number", Integer, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("revealed", DateTime(timezone=True), nullable=True),
    UniqueConstraint("campaign_id", "number"),
)

sheet_revisions = Table(
    "sheet_revisions",
    metadata,
    Column("character_id", ForeignKey("characters.id", ondelete="CASCADE"), primary_key=True),
    Column("revision", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(32), nullable=False),
    Column("data", JSON, nullable=False),
    Column("actor", String(200), nullable=True),
    Column("journal_seq", Integer, nullable=True),
    Column("snapshot", JSON(none_as_null=True), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

fight_characters = Table(
    "fight_characters",
    metadata,
    Column("fight_id", ForeignKey("fights.id", ondelete="CASCADE"), primary_key=True),
    Column("character_id", ForeignKey("characters.id", ondelete="CASCADE"), primary_key=True),
    Column("fighter", String(200), nullable=False),
    Column("revision", Integer, nullable=False),
)

journal = Table(
    "journal",
    metadata,
    Column("campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("action_id", String(200), nullable=False),
    Column("epoch", Integer, nullable=False),
    Column("hidden", Boolean, nullable=False),
    Column("disclosed", Boolean, nullable=False),
    Column("hash", String(64), nullable=False),
    Column("entry", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    UniqueConstraint("campaign_id", "action_id"),
)

invites = Table(
    "invites",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("role", String(16), nullable=False),
    Column("character_id", ForeignKey("characters.id", ondelete="CASCADE"), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
    Column("used", DateTime(timezone=True), nullable=True),
    Column("revoked", DateTime(timezone=True), nullable=True),
    Column("creates", Boolean, nullable=False, server_default=false()),
)

web_sessions = Table(
    "web_sessions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
    Column("revoked", DateTime(timezone=True), nullable=True),
)

web_seats = Table(
    "web_seats",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "session_id", ForeignKey("web_sessions.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column(
        "campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column("role", String(16), nullable=False),
    Column("character_id", ForeignKey("characters.id", ondelete="CASCADE"), nullable=True),
    Column("invite_id", ForeignKey("invites.id", ondelete="SET NULL"), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    UniqueConstraint("session_id", "campaign_id"),
)

pending_sheets = Table(
    "pending_sheets",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column("seat_id", ForeignKey("web_seats.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("name", String(200), nullable=False),
    Column("sheet", JSON, nullable=False),
    Column("state", String(16), nullable=False),
    Column("character_id", ForeignKey("characters.id", ondelete="SET NULL"), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("decided", DateTime(timezone=True), nullable=True),
)
"""A sheet a player filled in the browser, waiting for the GM (`state`: pending, approved,
refused); approved, it is the seat's `character_id`."""

changes = Table(
    "changes",
    metadata,
    Column("campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("fight_id", Integer, nullable=True),
    Column("entry", Integer, nullable=True),
    Column("characters", JSON, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

feeds = Table(
    "feeds",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("lang", String(8), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("revoked", DateTime(timezone=True), nullable=True),
)

webhooks = Table(
    "webhooks",
    metadata,
    Column("campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
    Column("url", String(2000), nullable=False),
    Column("format", String(16), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("delivered", Integer, nullable=False),
    Column("failures", Integer, nullable=False),
    Column("last_error", String(500), nullable=True),
    Column("retry_at", DateTime(timezone=True), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

discord_links = Table(
    "discord_links",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column("code_hash", String(64), nullable=False, unique=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
    Column("used", DateTime(timezone=True), nullable=True),
)

discord_channels = Table(
    "discord_channels",
    metadata,
    Column("channel_id", String(32), primary_key=True),
    Column(
        "campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column("guild_id", String(32), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

discord_seats = Table(
    "discord_seats",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "campaign_id", ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    Column("user_id", String(32), nullable=False),
    Column("role", String(16), nullable=False),
    Column("character_id", ForeignKey("characters.id", ondelete="CASCADE"), nullable=True),
    Column("invite_id", ForeignKey("invites.id", ondelete="SET NULL"), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    UniqueConstraint("campaign_id", "user_id"),
)
