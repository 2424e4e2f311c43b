"""A whole campaign's rows, out of the store and back in: what `jdr campaign export` writes and
`jdr campaign import` reads (the file's format, checks and verification: `jdr.backup`).

**What travels.** `PARTS` lists every campaign-scoped table a backup holds and how each is keyed:
the column that ties a row to the campaign (`campaign_id`, or `fight_id` / `character_id`
through the campaign's fights and characters), the columns that order its rows, and the columns
given anew on import. The campaign's own row travels without its id. `LEFT_OUT` names the
tables a backup leaves out on purpose: web invites, sessions and their seats (the GM invites
the table again; a session must never leave the database it was opened on). A test keeps every
table of `jdr.store.models` in one or the other, so a table added later is a line here.

**Ids.** A journal entry is hash-chained, and its hashed context names its fight
(`"fight": 3`, action ids `#fight3.7`) and its character (`"character": 2`); the store finds a
fight's entries by those action ids. Renumbering a fight or a character would break the chain,
so their ids travel with them (`Part.kept_id`) and an import is refused (`StoreError`
`backup_ids`) when the target database already uses one: import into a fresh database, or
where the campaign was removed. Ids nothing hashed names (the campaign's, its epochs') are given
anew. On PostgreSQL the id sequences are moved past every imported id (and past the ids the
journal names, a removed character's too) before the rows are written, so a later
`jdr sheet add` or `jdr fight new` never takes one; SQLite gives the next row the largest id
in the table plus one by itself (as in the database the backup came from).

**Values.** Each column is written as JSON by its type: whole numbers, text, booleans, JSON
values as stored (their keys in their stored order), times as ISO 8601 in UTC. `check_rows`
refuses, before anything is written, a row that lacks a column or has one this table does not,
a value of the wrong type or too long for its column, a key repeated, or a row tied to a fight
or a character the backup does not hold.

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi", seed=bytes(32))
>>> dumped = store.dump_campaign(campaign)
>>> dumped["campaign"]["name"], [row["number"] for row in dumped["tables"]["epochs"]]
('Mardi', [1])
>>> other = open_store("sqlite://")
>>> check_rows(dumped["campaign"], dumped["tables"])
>>> copied = other.load_campaign(dumped["campaign"], dumped["tables"], "Mardi")
>>> other.dump_campaign(copied) == dumped
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    Integer,
    String,
    Table,
    UniqueConstraint,
    insert,
    select,
    text,
)
from sqlalchemy.exc import IntegrityError

from jdr.i18n import N_, _
from jdr.names import check_name, duplicate
from jdr.store.errors import StoreError
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
from jdr.store.rows import insert_row

Json = dict[str, Any]

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


# --- out ---------------------------------------------------------------------------------------


class Backups:
    """The store's backup methods (mixed into `Store`): a campaign's rows out and in."""

    engine: Engine
    url: str

    def _translated(self) -> Any:  # pragma: no cover - `Store` provides it
        raise NotImplementedError

    def writing(self, campaign_id: int) -> AbstractContextManager[None]:  # pragma: no cover
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[Connection]:  # pragma: no cover
        raise NotImplementedError

    def dump_campaign(self, campaign_id: int) -> Json:
        """The campaign's row (`campaign`: its columns but the id) and every part's rows
        (`tables`: table name → rows in `Part.order`), as JSON values.

        Read holding the campaign's writer lock (`jdr.store.writers`), so no roll, fight
        action or sheet revision lands between two tables: a journal entry and the events or
        revision it wrote are both in the backup, or neither is."""
        with self.writing(campaign_id), self._translated(), self._reading() as conn:
            row = conn.execute(
                select(*CAMPAIGN_COLUMNS).where(campaigns.c.id == campaign_id)
            ).one_or_none()
            if row is None:
                raise StoreError("no_campaign", campaign=campaign_id)
            shown = {c.name: _out(c, v) for c, v in zip(CAMPAIGN_COLUMNS, row, strict=True)}
            tables = {}
            for each in PARTS:
                query = (
                    select(*each.columns)
                    .where(_scope(each, campaign_id))
                    .order_by(*(each.table.c[name] for name in each.order))
                )
                tables[each.name] = [
                    {c.name: _out(c, v) for c, v in zip(each.columns, found, strict=True)}
                    for found in conn.execute(query)
                ]
        return {"campaign": shown, "tables": tables}

    def check_free(self, name: str, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        """Refuse, as `load_campaign` would, a campaign name or a kept id already in use
        (`StoreError`), before any work is done on the backup."""
        with self._translated(), self.engine.connect() as conn:
            _refuse_duplicate(conn, name, None)
            _refuse_taken(conn, tables)

    def load_campaign(
        self,
        campaign: Mapping[str, Any],
        tables: Mapping[str, Sequence[Mapping[str, Any]]],
        name: str,
        reserve: Mapping[str, int] | None = None,
    ) -> int:
        """Write a campaign's rows checked by `check_rows` under `name`, in one transaction;
        return its new id.

        Refused, with nothing written: a campaign of that name as people type it (`StoreError`
        `duplicate_campaign`), a fight or character id the database already uses
        (`backup_ids`). `reserve` gives, per kept-id table, the largest id the backup names
        besides its rows (a removed character's, in the journal): PostgreSQL's sequences move
        past it too.
        """
        name = check_name(_("campaign"), name)
        header = {c.name: _in(c, campaign[c.name]) for c in CAMPAIGN_COLUMNS} | {"name": name}
        try:
            with self._translated(), self.engine.begin() as conn:
                postgresql = conn.dialect.name == "postgresql"
                if postgresql:  # one creation at a time sees the others (as `create_campaign`)
                    conn.execute(text("LOCK TABLE campaigns IN SHARE ROW EXCLUSIVE MODE"))
                campaign_id = insert_row(conn, campaigns, header)  # SQLite: the write lock
                _refuse_duplicate(conn, name, campaign_id)
                _refuse_taken(conn, tables)
                if postgresql:
                    _move_sequences(conn, tables, reserve or {})
                for each in PARTS:
                    rows = [_row_in(each, row, campaign_id) for row in tables.get(each.name, [])]
                    for chunk in _chunks(rows, 1000):
                        conn.execute(insert(each.table), chunk)
                return campaign_id
        except IntegrityError as error:  # another writer took the name or an id meanwhile
            self.check_free(name, tables)  # names which
            detail = str(error.orig).strip().splitlines()[0] if str(error.orig).strip() else ""
            raise StoreError("failed", url=self.url, detail=detail) from None


def _refuse_duplicate(conn: Connection, name: str, campaign_id: int | None) -> None:
    others = select(campaigns.c.name)
    if campaign_id is not None:
        others = others.where(campaigns.c.id != campaign_id)
    existing = duplicate(name, conn.execute(others).scalars())
    if existing is not None:  # leaving the block by an error rolls it back
        raise StoreError("duplicate_campaign", name=existing)


def _scope(each: Part, campaign_id: int) -> Any:
    if each.owner == CAMPAIGN:
        return each.table.c[CAMPAIGN] == campaign_id
    owner = OWNERS[each.owner]
    return each.table.c[each.owner].in_(select(owner.c.id).where(owner.c[CAMPAIGN] == campaign_id))


def _out(column: Column[Any], value: Any) -> Any:
    if value is not None and isinstance(column.type, DateTime):
        return time_text(value)
    return value


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
        ok = isinstance(value, str) and _time(value) is not None
    elif isinstance(kind, String):
        ok = isinstance(value, str)
        if ok and kind.length is not None and len(value) > kind.length:
            reason = _("{n} characters").format(n=len(value))
            raise Malformed(at, reason, _("at most {n} characters").format(n=kind.length))
    else:  # JSON: any value the file could hold
        ok = True
    if not ok:
        raise Malformed(at, _("{field} has the wrong type").format(field=column.name), allowed)


def _time(value: str) -> datetime | None:
    try:
        found = datetime.fromisoformat(value)
    except ValueError:
        return None
    return found.replace(tzinfo=UTC) if found.tzinfo is None else found.astimezone(UTC)


# --- in ----------------------------------------------------------------------------------------


def _row_in(each: Part, row: Mapping[str, Any], campaign_id: int) -> Json:
    values = {column.name: _in(column, row[column.name]) for column in each.columns}
    if CAMPAIGN in each.table.c:
        values[CAMPAIGN] = campaign_id
    return values


def _in(column: Column[Any], value: Any) -> Any:
    if value is not None and isinstance(column.type, DateTime):
        return _time(value)
    return value


def _chunks(rows: list[Json], size: int) -> Iterator[list[Json]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def _refuse_taken(conn: Connection, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """`StoreError` `backup_ids` naming the kept ids the database already uses."""
    taken: dict[str, list[int]] = {}
    for each in PARTS:
        if not each.kept_id:
            continue
        wanted = sorted({int(row["id"]) for row in tables.get(each.name, [])})
        found: list[int] = []
        for chunk in range(0, len(wanted), 500):
            query = select(each.table.c.id).where(each.table.c.id.in_(wanted[chunk : chunk + 500]))
            found += [int(n) for n in conn.execute(query).scalars()]
        if found:
            taken[each.name] = sorted(found)
    if taken:
        raise StoreError(
            "backup_ids",
            fights=_listed(taken.get("fights", [])),
            characters=_listed(taken.get("characters", [])),
        )


def _listed(ids: list[int], shown: int = 10) -> str:
    """`3, 4, 7` (`-` for none; the first `shown` and a count past them).

    >>> _listed([]), _listed([3, 4]), _listed(list(range(1, 14)))
    ('-', '3, 4', '1, 2, 3, 4, 5, 6, 7, 8, 9, 10 … (13)')
    """
    if not ids:
        return "-"
    text = ", ".join(map(str, ids[:shown]))
    return text if len(ids) <= shown else f"{text} … ({len(ids)})"


def _move_sequences(
    conn: Connection, tables: Mapping[str, Sequence[Mapping[str, Any]]], reserve: Mapping[str, int]
) -> None:
    """Move each kept-id table's PostgreSQL sequence past the ids the backup brings (never
    back): `setval(seq, greatest(largest, nextval(seq)))`. Done first and outside the
    transaction's undo (a sequence never rolls back): a writer inserting meanwhile gets an id
    past them, and a refused import leaves only a gap."""
    for each in PARTS:
        if not each.kept_id:
            continue
        largest = max(
            [int(row["id"]) for row in tables.get(each.name, [])] + [reserve.get(each.name, 0)]
        )
        if largest <= 0:
            continue
        conn.execute(
            text(
                "SELECT setval(CAST(pg_get_serial_sequence(:table, 'id') AS regclass),"
                " GREATEST(:largest, nextval(CAST(pg_get_serial_sequence(:table, 'id')"
                " AS regclass))))"
            ),
            {"table": each.name, "largest": largest},
        )


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
