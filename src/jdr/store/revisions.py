"""A character's revisions in the store: written with a journal entry, read back, folded.

`Store.record` writes each `SheetWrite` in the same transaction as the journal entry that records
it: it bumps `characters.version` only if it is still the revision the change was decided on (the
first statement, as fights do), stores the sheet and name after the change (the fold, kept up to
date), and appends the revision. `SheetConflictError` says another revision landed first.

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi")
>>> created = SheetWrite(campaign, None, 0, "created", {"changes": []}, "Kai", {"xp": 1})
>>> with store.engine.begin() as conn:
...     store.write_sheet(conn, created, seq=None)
(1, 1)
>>> raised = SheetWrite(campaign, 1, 1, "set", {"changes": [{"path": ["xp"], "before": 1,
...                     "after": 2}]}, "Kai", {"xp": 2})
>>> with store.engine.begin() as conn:
...     store.write_sheet(conn, raised, seq=None)
(1, 2)
>>> store.sheet_at(1, 1), store.character(1).sheet
(('Kai', {'xp': 1}), {'xp': 2})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from jdr.i18n import _
from jdr.names import check_name, duplicate
from jdr.store.base import Database
from jdr.store.errors import SheetConflictError, StoreError
from jdr.store.models import campaigns, characters, journal, sheet_revisions
from jdr.store.rows import insert_row, now
from jdr.store.sheet_fold import fold_onto

Json = dict[str, Any]

SNAPSHOT_EVERY = 100
"""Every this many revisions, the revision keeps the whole sheet: a sheet at any revision folds
from the snapshot before it, so `--at` costs at most this many changes."""

REMOVED = "removed"
UNDONE = "undone"
REDONE = "redone"


@dataclass(frozen=True)
class SheetWrite:
    """One revision an action writes: on `character_id` (None: a new character of
    `campaign_id`, then `expected_version` is 0) decided on `expected_version`, of `kind`, with
    its `data` (`changes` and what caused them), and the `name` and `sheet` after it."""

    campaign_id: int
    character_id: int | None
    expected_version: int
    kind: str
    data: Json
    name: str
    sheet: Json
    actor: str | None = None


@dataclass(frozen=True)
class SheetRevision:
    """One stored revision of a character's sheet."""

    character_id: int
    revision: int
    kind: str
    data: Json
    actor: str | None
    journal_seq: int | None
    created: datetime


_REVISION = (
    sheet_revisions.c.character_id,
    sheet_revisions.c.revision,
    sheet_revisions.c.kind,
    sheet_revisions.c.data,
    sheet_revisions.c.actor,
    sheet_revisions.c.journal_seq,
    sheet_revisions.c.created,
)


class Revisions(Database):
    """The store's revision methods (a part of `Store`)."""

    # writing

    def write_sheet(self, conn: Connection, write: SheetWrite, seq: int | None) -> tuple[int, int]:
        """Write one revision inside `conn`'s transaction; return (character id, revision)."""
        if write.character_id is None or write.data.get("rename"):
            check_name(_("character"), write.name)
        if write.character_id is None:
            return self._create(conn, write, seq)
        revision = write.expected_version + 1
        if write.kind == REMOVED:  # the last revision: the character goes, its journal stays
            gone = delete(characters).where(
                characters.c.id == write.character_id,
                characters.c.version == write.expected_version,
            )
            if conn.execute(gone).rowcount != 1:
                raise self._sheet_conflict(conn, write)
            return write.character_id, revision
        if write.data.get("rename"):  # before the update: an exact name is the key's to refuse
            _refuse_duplicate(conn, write.campaign_id, write.character_id, write.name)
        bump = (
            update(characters)
            .where(
                characters.c.id == write.character_id,
                characters.c.version == write.expected_version,
            )
            .values(version=revision, sheet=write.sheet, name=write.name)
        )
        if conn.execute(bump).rowcount != 1:
            raise self._sheet_conflict(conn, write)
        conn.execute(insert(sheet_revisions).values(_row(write, write.character_id, revision, seq)))
        return write.character_id, revision

    def _sheet_conflict(self, conn: Connection, write: SheetWrite) -> StoreError:
        found = conn.execute(
            select(characters.c.version).where(characters.c.id == write.character_id)
        ).scalar()
        if found is None:
            return StoreError("no_character", character=write.name)
        return SheetConflictError(write.name, write.expected_version, int(found))

    def _create(self, conn: Connection, write: SheetWrite, seq: int | None) -> tuple[int, int]:
        # a no-op update of the campaign's row: one addition per campaign at a time (SQLite: the
        # database's write lock; PostgreSQL: the row's lock), so the names read below stay true
        lock = (
            update(campaigns)
            .where(campaigns.c.id == write.campaign_id)
            .values(id=write.campaign_id)
        )
        conn.execute(lock)
        _refuse_duplicate(conn, write.campaign_id, None, write.name)
        row = {
            "campaign_id": write.campaign_id,
            "name": write.name,
            "sheet": write.sheet,
            "version": 1,
        }
        character_id = insert_row(conn, characters, row)
        conn.execute(insert(sheet_revisions).values(_row(write, character_id, 1, seq)))
        return character_id, 1

    # reading

    def revisions(
        self, character_id: int, after: int = 0, upto: int | None = None, last: int | None = None
    ) -> list[SheetRevision]:
        """The character's revisions after `after` up to `upto`, oldest first; `last`: only the
        last that many of them."""
        query = select(*_REVISION).where(
            sheet_revisions.c.character_id == character_id, sheet_revisions.c.revision > after
        )
        if upto is not None:
            query = query.where(sheet_revisions.c.revision <= upto)
        if last is not None:
            query = query.order_by(sheet_revisions.c.revision.desc()).limit(last)
        else:
            query = query.order_by(sheet_revisions.c.revision)
        with self._translated(), self.engine.connect() as conn:
            found = [SheetRevision(*row) for row in conn.execute(query)]
        return sorted(found, key=lambda r: r.revision)

    def revision_marks(self, character_id: int) -> list[tuple[int, str, Json]]:
        """Every revision as `(number, kind, {"target": …})`: what undo and redo need, without
        reading each revision's changes (only those of undo and redo, for their targets)."""
        marks = (UNDONE, REDONE)
        kinds = (
            select(sheet_revisions.c.revision, sheet_revisions.c.kind)
            .where(sheet_revisions.c.character_id == character_id)
            .order_by(sheet_revisions.c.revision)
        )
        targets = select(sheet_revisions.c.revision, sheet_revisions.c.data).where(
            sheet_revisions.c.character_id == character_id, sheet_revisions.c.kind.in_(marks)
        )
        with self._translated(), self.engine.connect() as conn:
            found = {int(n): data.get("target") for n, data in conn.execute(targets)}
            rows = conn.execute(kinds).all()
        return [(int(n), str(kind), {"target": found.get(int(n))}) for n, kind in rows]

    def sheet_at(self, character_id: int, revision: int) -> tuple[str, Json]:
        """The character's name and sheet as they were at `revision`: the snapshot at or before
        it, then the changes of the revisions after that snapshot."""
        snapshot_query = (
            select(sheet_revisions.c.revision, sheet_revisions.c.snapshot)
            .where(
                sheet_revisions.c.character_id == character_id,
                sheet_revisions.c.revision <= revision,
                sheet_revisions.c.snapshot.is_not(None),
            )
            .order_by(sheet_revisions.c.revision.desc())
            .limit(1)
        )
        with self._translated(), self.engine.connect() as conn:
            found = conn.execute(snapshot_query).one_or_none()
        start, name, sheet = 0, "", {}
        if found is not None:
            start, name, sheet = found[0], found[1]["name"], found[1]["sheet"]
        return fold_onto(name, sheet, self.revisions(character_id, start, revision))

    def snapshots(self, character_id: int) -> list[tuple[int, int | None, str, Any]]:
        """The whole sheets the character's revisions keep (`SNAPSHOT_EVERY`), oldest first:
        `(revision, journal seq, name, sheet)` each — what `sheet_at` folds from."""
        query = (
            select(
                sheet_revisions.c.revision,
                sheet_revisions.c.journal_seq,
                sheet_revisions.c.snapshot,
            )
            .where(
                sheet_revisions.c.character_id == character_id,
                sheet_revisions.c.snapshot.is_not(None),
            )
            .order_by(sheet_revisions.c.revision)
        )
        with self._translated(), self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            (int(revision), seq, str(kept.get("name")), kept.get("sheet"))
            for revision, seq, kept in rows
            if isinstance(kept, dict)
        ]

    def entry_times(self, campaign_id: int, seqs: Sequence[int]) -> dict[int, datetime]:
        """When the campaign's entries `seqs` were written, as their hashed headers say
        (format 2: `time`, UTC); an entry without one (format 1) is left out."""
        wanted = sorted(set(seqs))
        if not wanted:
            return {}
        query = select(journal.c.seq, journal.c.entry).where(
            journal.c.campaign_id == campaign_id, journal.c.seq.in_(wanted)
        )
        with self._translated(), self.engine.connect() as conn:
            rows = conn.execute(query).all()
        found = {}
        for seq, entry in rows:
            text = entry.get("time") if isinstance(entry, dict) else None
            if isinstance(text, str):
                try:
                    moment = datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
                except ValueError:
                    continue
                found[int(seq)] = moment.replace(tzinfo=UTC)
        return found

    def revision_at(self, character_id: int, when: datetime) -> int:
        """The character's last revision written at or before `when` (1 at least)."""
        query = select(func.max(sheet_revisions.c.revision)).where(
            sheet_revisions.c.character_id == character_id, sheet_revisions.c.created <= when
        )
        with self._translated(), self.engine.connect() as conn:
            return int(conn.execute(query).scalar() or 1)

    def revision_count(self, character_id: int) -> int:
        query = select(func.max(sheet_revisions.c.revision)).where(
            sheet_revisions.c.character_id == character_id
        )
        with self._translated(), self.engine.connect() as conn:
            return int(conn.execute(query).scalar() or 0)


def _row(write: SheetWrite, character_id: int, revision: int, seq: int | None) -> Json:
    snapshot = None
    if revision == 1 or revision % SNAPSHOT_EVERY == 0:
        snapshot = {"name": write.name, "sheet": write.sheet}
    return {
        "character_id": character_id,
        "revision": revision,
        "kind": write.kind,
        "data": write.data,
        "actor": write.actor,
        "journal_seq": seq,
        "snapshot": snapshot,
        "created": now(),
    }


def _refuse_duplicate(
    conn: Connection, campaign_id: int, character_id: int | None, name: str
) -> None:
    others = select(characters.c.name).where(characters.c.campaign_id == campaign_id)
    if character_id is not None:
        others = others.where(characters.c.id != character_id)
    existing = duplicate(name, conn.execute(others).scalars())
    if existing is not None:  # leaving the block by an error rolls it back
        raise StoreError("duplicate_character", campaign=campaign_id, name=existing)
