"""A whole campaign's rows, out of the store and back in: what `jdr campaign export` writes and
`jdr campaign import` reads (the file's format, checks and verification: `jdr.backup`).

What travels and the shape of its rows: `jdr.store.backup_rows`.

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
from typing import Any

from sqlalchemy import Column, Connection, DateTime, insert, select, text
from sqlalchemy.exc import IntegrityError

from jdr.i18n import _
from jdr.names import check_name, duplicate
from jdr.store.backup_rows import (
    CAMPAIGN,
    CAMPAIGN_COLUMNS,
    LEFT_OUT,
    OWNERS,
    PARTS,
    Malformed,
    Part,
    backed_up_tables,
    check_rows,
    parse_time,
    time_text,
)
from jdr.store.base import Database
from jdr.store.errors import StoreError
from jdr.store.models import campaigns
from jdr.store.rows import insert_row

__all__ = [
    "LEFT_OUT",
    "PARTS",
    "Backups",
    "Malformed",
    "backed_up_tables",
    "check_rows",
    "time_text",
]

Json = dict[str, Any]


# --- out ---------------------------------------------------------------------------------------


class Backups(Database):
    """The store's backup methods (a part of `Store`): a campaign's rows out and in."""

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


# --- in ----------------------------------------------------------------------------------------


def _row_in(each: Part, row: Mapping[str, Any], campaign_id: int) -> Json:
    values = {column.name: _in(column, row[column.name]) for column in each.columns}
    if CAMPAIGN in each.table.c:
        values[CAMPAIGN] = campaign_id
    return values


def _in(column: Column[Any], value: Any) -> Any:
    if value is not None and isinstance(column.type, DateTime):
        return parse_time(value)
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
