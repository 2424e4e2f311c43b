"""What a campaign's backup holds and the shape its rows must have (`jdr.store.backup` moves
them out of the store and back in).

**What travels.** `PARTS` lists every campaign-scoped table a backup holds and how each is keyed:
the column that ties a row to the campaign (`campaign_id`, or `fight_id` / `character_id`
through the campaign's fights and characters), the columns that order its rows, and the columns
given anew on import. The campaign's own row travels without its id. `LEFT_OUT` names the
tables a backup leaves out on purpose: web invites, sessions and their seats (the GM invites
the table again; a session must never leave the database it was opened on). A test keeps every
table of `jdr.store.models` in one or the other, so a table added later is a line here.

**Values.** Each column is written as JSON by its type: whole numbers, text, booleans, JSON
values as stored (their keys in their stored order), times as ISO 8601 in UTC. `check_rows`
refuses, before anything is written, a row that lacks a column or has one this table does not,
a value of the wrong type or too long for its column, a key repeated, or a row tied to a fight
or a character the backup does not hold.

>>> check_rows({}, {})
Traceback (most recent call last):
...
jdr.store.backup_rows.Malformed: campaign.system: missing
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Integer,
    String,
    Table,
    UniqueConstraint,
)

from jdr.i18n import N_, _
from jdr.store.models import (
    campaigns,
    characters,
    epochs,
    fight_characters,
    fight_events,
    fight_snapshots,
    fights,
    journal,
    metadata,
    sheet_revisions,
)

CAMPAIGN = "campaign_id"


@dataclass(frozen=True)
class Part:
    """One campaign-scoped table of a backup (see the module)."""

    table: Table
    owner: str
    """The column tying a row to the campaign: `campaign_id`, or `fight_id` / `character_id`
    (a row of one of the campaign's fights or characters)."""
    order: tuple[str, ...]
    """The columns its rows are sorted by, in the file."""
    fresh: tuple[str, ...] = ()
    """Columns left out of the file and given anew on import (nothing else refers to them)."""
    kept_id: bool = False
    """Whether the rows keep their `id` (the journal names it): refused if the target uses it."""

    @property
    def name(self) -> str:
        return self.table.name

    @property
    def columns(self) -> list[Column[Any]]:
        """The columns a row of the file holds, in the table's order."""
        left = {CAMPAIGN, *self.fresh}
        return [column for column in self.table.columns if column.name not in left]


PARTS = (
    Part(epochs, CAMPAIGN, ("number",), fresh=("id",)),
    Part(characters, CAMPAIGN, ("id",), kept_id=True),
    Part(sheet_revisions, "character_id", ("character_id", "revision")),
    Part(fights, CAMPAIGN, ("id",), kept_id=True),
    Part(fight_characters, "fight_id", ("fight_id", "character_id")),
    Part(fight_events, "fight_id", ("fight_id", "seq")),
    Part(fight_snapshots, "fight_id", ("fight_id",)),
    Part(journal, CAMPAIGN, ("seq",)),
)
"""Every table a backup holds, in the order they are written (a row's parents first)."""

LEFT_OUT = {
    "invites": "web invites: the GM invites the table again (jdr campaign invite)",
    "web_sessions": "web sessions: a session never leaves the database it was opened on",
    "web_seats": "a browser session's seats: each is part of its session, which never travels",
    "pending_sheets": "sheets waiting for the GM: each belongs to a seat, which never travels",
    "changes": "the live table's change numbers: an imported campaign starts again at 0",
    "feeds": "feed links: secret, the GM makes new ones (jdr campaign feed)",
    "webhooks": "the webhook: its URL is a secret, the GM sets it again (jdr campaign webhook)",
    "discord_links": "Discord link codes: secret, the GM makes new ones (jdr discord link)",
    "discord_channels": "Discord channels: the GM links them again (/jdr campaign link)",
    "discord_seats": "Discord seats: the table joins again with new invites (/jdr join)",
}
"""The tables a backup leaves out on purpose, and why (`campaigns` is the file's own header)."""

OWNERS = {"fight_id": fights, "character_id": characters}
"""A part owned through another table: its rows belong to that table's rows of the campaign."""
KEPT_NOUNS = {"fights": N_("fight"), "characters": N_("character")}
"""What a refusal calls a row of a kept-id table."""

CAMPAIGN_COLUMNS = [column for column in campaigns.columns if column.name not in ("id", "changes")]
"""The campaign's header: every column but its id and its change counter (`changes` is left out:
an imported campaign's pages start afresh)."""

LARGEST = 2**31 - 1
"""The largest whole number both databases keep in an integer column (PostgreSQL's `integer`)."""


def time_text(value: datetime) -> str:
    """A stored time as the file keeps it: ISO 8601 in UTC (SQLite gives it back without its
    zone: UTC, as the store writes it).

    >>> time_text(datetime(2026, 12, 1, 10, 0, 0, 5))
    '2026-12-01T10:00:00.000005+00:00'
    """
    zoned = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return zoned.isoformat()


# --- the rows' shape -------------------------------------------------------------------------


class Malformed(Exception):  # noqa: N818 - a condition of the file, named as the message reads
    """A row the store cannot take: `where` (`tables.journal[3].seq`), the reason, what is
    allowed (each in the reader's language)."""

    def __init__(self, where: str, reason: str, allowed: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where, self.reason, self.allowed = where, reason, allowed


def check_rows(campaign: Any, tables: Any) -> None:
    """Refuse (`Malformed`) rows the store cannot take (see the module)."""
    if not isinstance(campaign, Mapping):
        raise Malformed("campaign", _("not an object"), _("an object"))
    _check_row("campaign", CAMPAIGN_COLUMNS, campaign)
    if not isinstance(tables, Mapping):
        raise Malformed("tables", _("not an object"), _("an object"))
    known = [p.name for p in PARTS]
    for name in tables:
        if name not in known:
            raise Malformed(f"tables.{name}", _("not a table of a backup"), ", ".join(known))
    ids: dict[str, set[Any]] = {}
    for each in PARTS:
        rows = tables.get(each.name, [])
        where = f"tables.{each.name}"
        if not isinstance(rows, list):
            raise Malformed(where, _("not a list"), _("a list of rows"))
        keys = _keys(each)
        seen: list[set[tuple[Any, ...]]] = [set() for _key in keys]
        for index, row in enumerate(rows):
            at = f"{where}[{index}]"
            _check_row(at, each.columns, row)
            _check_parents(at, each, row, ids)
            for key, found in zip(keys, seen, strict=True):
                value = tuple(row[name] for name in key)
                if value in found:
                    reason = _("repeats the key ({key}) of an earlier row")
                    raise Malformed(at, reason.format(key=", ".join(key)), _("one row per key"))
                found.add(value)
        if each.kept_id:
            ids[each.name] = {row["id"] for row in rows}


def _keys(each: Part) -> list[tuple[str, ...]]:
    """The keys that must be unique among the part's rows: its primary key and unique
    constraints, without `campaign_id` (one campaign) and without a fresh column."""
    found = [tuple(c.name for c in each.table.primary_key.columns)]
    found += [
        tuple(c.name for c in constraint.columns)
        for constraint in each.table.constraints
        if isinstance(constraint, UniqueConstraint)
    ]
    kept = []
    for key in found:
        names = tuple(name for name in key if name != CAMPAIGN)
        if names and not set(names) & set(each.fresh):
            kept.append(names)
    return kept


def _check_parents(at: str, each: Part, row: Mapping[str, Any], ids: dict[str, set[Any]]) -> None:
    """A column referring to a fight or a character names one of the backup's."""
    for column in each.columns:
        value = row[column.name]
        for key in column.foreign_keys:
            parent = key.column.table.name
            if parent in ids and value is not None and value not in ids[parent]:
                noun = _(KEPT_NOUNS.get(parent, parent))
                raise Malformed(
                    f"{at}.{column.name}",
                    _("{what} {id} is not in the backup").format(what=noun, id=value),
                    _("one of the backup's {what} ids").format(what=noun),
                )


def _check_row(at: str, columns: Sequence[Column[Any]], row: Any) -> None:
    if not isinstance(row, Mapping):
        raise Malformed(at, _("not an object"), _("an object"))
    names = [column.name for column in columns]
    for key in row:
        if key not in names:
            raise Malformed(f"{at}.{key}", _("not a column of this table"), ", ".join(names))
    for column in columns:
        if column.name not in row:
            raise Malformed(f"{at}.{column.name}", _("missing"), _(kind_of(column)))
        _check_value(f"{at}.{column.name}", column, row[column.name])


def kind_of(column: Column[Any]) -> str:
    """What a column holds, as a message names it (untranslated)."""
    kind = column.type
    if isinstance(kind, Boolean):
        return N_("true or false")
    if isinstance(kind, Integer):
        return N_("a whole number from 0 to 2147483647")
    if isinstance(kind, DateTime):
        return N_("a time in ISO 8601")
    if isinstance(kind, String):
        return N_("text")
    return N_("a JSON value")


def _check_value(at: str, column: Column[Any], value: Any) -> None:
    allowed = _(kind_of(column))
    if value is None:
        if column.nullable:
            return
        raise Malformed(at, _("null where a value is needed"), allowed)
    kind = column.type
    if isinstance(kind, Boolean):
        ok = isinstance(value, bool)
    elif isinstance(kind, Integer):
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= LARGEST
    elif isinstance(kind, DateTime):
        ok = isinstance(value, str) and parse_time(value) is not None
    elif isinstance(kind, String):
        ok = isinstance(value, str)
        if ok and kind.length is not None and len(value) > kind.length:
            reason = _("{n} characters").format(n=len(value))
            raise Malformed(at, reason, _("at most {n} characters").format(n=kind.length))
    else:  # JSON: any value the file could hold
        ok = True
    if not ok:
        raise Malformed(at, _("{field} has the wrong type").format(field=column.name), allowed)


def parse_time(value: str) -> datetime | None:
    """A time as the file keeps it, read back in UTC (None: not a time in ISO 8601)."""
    try:
        found = datetime.fromisoformat(value)
    except ValueError:
        return None
    return found.replace(tzinfo=UTC) if found.tzinfo is None else found.astimezone(UTC)


def backed_up_tables() -> dict[str, str]:
    """Every table of the schema and where a backup has it: `part`, `header` (the campaign's
    row) or `left out` (a test keeps the list whole)."""
    found = {}
    for name in metadata.tables:
        if name == campaigns.name:
            found[name] = "header"
        elif any(p.name == name for p in PARTS):
            found[name] = "part"
        elif name in LEFT_OUT:
            found[name] = "left out"
        else:
            found[name] = "unknown"
    return found
