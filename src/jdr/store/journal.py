"""A campaign's journal in the store: its hash-chained entries, and `record`, which appends one
with what it decided (a fight's events, sheet revisions) in one transaction.

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi")
>>> head = store.journal_head(campaign)
>>> head.tail, head.epoch.number
(None, 1)
>>> entry = JournalRow(1, "#roll1", 1, False, False, "ab" * 32, {"v": 2})
>>> store.record(campaign, entry)
Recorded(version=None, sheets=())
>>> [(row.seq, row.action_id) for row in store.journal(campaign)], store.journal_length(campaign)
([(1, '#roll1')], 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from jdr.store.changes import DISCLOSE, FIGHT, JOURNAL, SHEET, changed, characters_of
from jdr.store.epochs import Epoch
from jdr.store.errors import JournalConflictError, StoreError
from jdr.store.fights import Fights
from jdr.store.head import EPOCH_COLUMNS, JOURNAL_COLUMNS, head_query
from jdr.store.models import changes, characters, epochs, journal, sheet_revisions
from jdr.store.pg_cycle import append_and_commit, entry_if_open, locked_read
from jdr.store.revisions import Revisions, SheetWrite
from jdr.store.rows import now as _now
from jdr.store.writers import WAIT_S

Json = dict[str, Any]


@dataclass(frozen=True)
class JournalRow:
    """One journal entry as stored: the entry's JSON (body always included) and its flags."""

    seq: int
    action_id: str
    epoch: int
    hidden: bool
    disclosed: bool
    hash: str
    entry: Json


@dataclass(frozen=True)
class JournalHead:
    """See `Store.journal_head`."""

    known: JournalRow | None
    tail: tuple[int, str] | None
    epoch: Epoch | None
    tail_epoch: int | None = None
    """The epoch number of the tail entry (None for an empty journal)."""
    tail_format: int = 1
    """The journal format (`"v"`) of the tail entry (1 when it has none)."""


@dataclass(frozen=True)
class FightAppend:
    """Events one journaled action appends to a fight decided on `expected_version`, and the
    fight's folded state after them (`snapshot`, kept with the events when given)."""

    fight_id: int
    expected_version: int
    events: Sequence[Json]
    snapshot: Json | None = None


@dataclass(frozen=True)
class Recorded:
    """What `Store.record` wrote besides the entry: the fight's new version (if a fight moved)
    and each sheet revision as (character id, revision)."""

    version: int | None = None
    sheets: tuple[tuple[int, int], ...] = ()


class Journal(Fights, Revisions):
    """The store's journal (a part of `Store`): an entry is recorded with the fight events and
    sheet revisions it decided."""

    def journal(
        self, campaign_id: int, first: int = 1, last: int | None = None
    ) -> list[JournalRow]:
        """The campaign's journal, in `seq` order (entries `first` to `last` only, if given)."""
        where = [journal.c.campaign_id == campaign_id]
        if first > 1:
            where.append(journal.c.seq >= first)
        if last is not None:
            where.append(journal.c.seq <= last)
        query = select(*JOURNAL_COLUMNS).where(*where).order_by(journal.c.seq)
        with self._translated(), self._reading() as conn:
            return [JournalRow(*row) for row in conn.execute(query)]

    def journal_page(
        self, campaign_id: int, count: int, before: int | None = None
    ) -> tuple[list[JournalRow], bool]:
        """The last `count` entries of the campaign's journal (those before seq `before`, if
        given), in `seq` order, and whether older ones remain: a page of a long journal, read
        without the rest."""
        where = [journal.c.campaign_id == campaign_id]
        if before is not None:
            where.append(journal.c.seq < before)
        query = (
            select(*JOURNAL_COLUMNS).where(*where).order_by(journal.c.seq.desc()).limit(count + 1)
        )
        with self._translated(), self._reading() as conn:
            found = [JournalRow(*row) for row in conn.execute(query)]
        return list(reversed(found[:count])), len(found) > count

    def hidden_left(self, campaign_id: int) -> bool:
        """Whether the campaign's journal holds a hidden entry not yet disclosed."""
        query = (
            select(journal.c.seq)
            .where(
                journal.c.campaign_id == campaign_id,
                journal.c.hidden.is_(True),
                journal.c.disclosed.is_(False),
            )
            .limit(1)
        )
        with self._translated(), self._reading() as conn:
            return conn.execute(query).first() is not None

    def revision_entry(self, character_id: int, revision: int) -> JournalRow | None:
        """The journal entry that recorded the character's `revision` (None: a revision written
        before the journal kept sheets)."""
        joined = sheet_revisions.join(
            characters, characters.c.id == sheet_revisions.c.character_id
        ).join(
            journal,
            (journal.c.campaign_id == characters.c.campaign_id)
            & (journal.c.seq == sheet_revisions.c.journal_seq),
        )
        query = (
            select(*JOURNAL_COLUMNS)
            .select_from(joined)
            .where(
                sheet_revisions.c.character_id == character_id,
                sheet_revisions.c.revision == revision,
            )
        )
        with self._translated(), self._reading() as conn:
            row = conn.execute(query).one_or_none()
        return None if row is None else JournalRow(*row)

    def journal_length(self, campaign_id: int) -> int:
        """The seq of the journal's last entry (0 when it is empty)."""
        query = select(func.max(journal.c.seq)).where(journal.c.campaign_id == campaign_id)
        with self._translated(), self._reading() as conn:
            return int(conn.execute(query).scalar() or 0)

    def fight_journal(
        self, campaign_id: int, fight_ids: Sequence[int], last: int
    ) -> list[JournalRow]:
        """The journal entries of the fights `fight_ids` up to entry `last`, in `seq` order
        (their action ids are `#fightN.…`)."""
        if not fight_ids:
            return []
        named = [journal.c.action_id.like(f"#fight{int(f)}.%") for f in sorted(set(fight_ids))]
        query = (
            select(*JOURNAL_COLUMNS)
            .where(journal.c.campaign_id == campaign_id, journal.c.seq <= last, or_(*named))
            .order_by(journal.c.seq)
        )
        with self._translated(), self._reading() as conn:
            return [JournalRow(*row) for row in conn.execute(query)]

    def journal_head(self, campaign_id: int, action_id: str | None = None) -> JournalHead:
        """What a roll needs before it rolls, in one read: the entry already recorded for
        `action_id` (if any), the journal's tail, and the open epoch (None if there is none)."""
        # the tail, the entry of `action_id` and the open epoch in one round trip (a writer
        # cycle holds the campaign's lock meanwhile: each round trip is one the queue waits for)
        query = head_query(action_id is not None)
        params = {"campaign": campaign_id, "action": action_id}
        known = tail_row = epoch = None
        width = len(EPOCH_COLUMNS)
        with self._translated():
            pending = self.writers.pending()
            if pending is not None:  # a writer cycle's first read: with its lock, one round trip
                conn, keys = pending
                found_rows = locked_read(conn, keys, query, params, int(WAIT_S))
                self.writers.granted()
            else:
                with self._reading() as conn:
                    found_rows = list(conn.execute(query, params))
            for found in found_rows:
                if found[0] is not None:
                    epoch = Epoch(found[0], bytes.fromhex(found[1]), found[2], found[3], found[4])
                if found[width] is None:
                    continue
                if found[width]:
                    tail_row = JournalRow(*found[width + 1 :])
                else:
                    known = JournalRow(*found[width + 1 :])
        return JournalHead(
            known,
            None if tail_row is None else (int(tail_row.seq), str(tail_row.hash)),
            epoch,
            None if tail_row is None else int(tail_row.epoch),
            1 if tail_row is None else int(dict(tail_row.entry).get("v", 1)),
        )

    def record(
        self,
        campaign_id: int,
        row: JournalRow,
        fight: FightAppend | None = None,
        sheets: Sequence[SheetWrite] = (),
        disclose: Sequence[int] = (),
    ) -> Recorded:
        """Append a journal entry, and the fight events or sheet revisions it decided, in one
        transaction; the hidden entries `disclose` names (the sealed choices it opens) become
        public in it too.

        Raises `JournalConflictError` if another entry took `row.seq` (or `row.action_id`)
        first or the epoch was revealed meanwhile, `ConflictError` if the fight moved on and
        `SheetConflictError` if a sheet did; nothing is written then.
        """
        values = {
            "campaign_id": campaign_id,
            "seq": row.seq,
            "action_id": row.action_id,
            "epoch": row.epoch,
            "hidden": row.hidden,
            "disclosed": row.disclosed,
            "hash": row.hash,
            "entry": row.entry,
            "created": _now(),
        }
        # a no-op update of the entry's epoch, only while it is open: it takes the epoch row's
        # lock, so a reveal and this entry are ordered (an entry never joins a revealed epoch)
        still_open = (
            update(epochs)
            .where(
                epochs.c.campaign_id == campaign_id,
                epochs.c.number == row.epoch,
                epochs.c.revealed.is_(None),
            )
            .values(number=row.epoch)
        )
        version = None
        written = []
        plain = fight is None and not sheets  # a roll: its entry and its change alone
        fast = not sheets and not disclose and (fight is None or bool(fight.events))
        cycle = self.writers.cycle() if fast else None
        if cycle is not None and self.writers.alone():  # PostgreSQL: all and commit at once
            with self._translated():
                done = append_and_commit(cycle, campaign_id, values, fight)
            if fight is None:
                return Recorded() if done else _refused(campaign_id, row.seq)
            if done:
                return Recorded(fight.expected_version + len(fight.events))
            if self.fight(fight.fight_id).version != fight.expected_version:
                raise self._conflict(fight.fight_id, fight.expected_version)
            _refused(campaign_id, row.seq)
        try:
            with self._translated(), self._writing(alone=True) as conn:
                kind = FIGHT if fight is not None else SHEET if sheets else JOURNAL
                touched = characters_of(sheets)
                fought = None if fight is None else fight.fight_id
                changed(conn, campaign_id, kind, fought, row.seq, touched)
                if plain and conn.dialect.name == "postgresql":  # epoch check and entry at once
                    if conn.execute(entry_if_open(still_open, values)).first() is None:
                        raise JournalConflictError(campaign_id, row.seq)
                    values = {}
                elif conn.execute(still_open).rowcount != 1:
                    raise JournalConflictError(campaign_id, row.seq)
                if fight is not None:
                    version = self._append(
                        conn, fight.fight_id, fight.expected_version, fight.events, fight.snapshot
                    )
                for write in sheets:
                    written.append(self.write_sheet(conn, write, row.seq))
                ids = sorted({character for character, _revision in written})
                if ids != sorted(set(touched)):  # a new character: its id is known now
                    conn.execute(
                        update(changes)
                        .where(changes.c.campaign_id == campaign_id, changes.c.entry == row.seq)
                        .values(characters=ids)
                    )
                if values:  # not written with the epoch's check above
                    conn.execute(insert(journal).values(values))
                if disclose:
                    conn.execute(
                        update(journal)
                        .where(journal.c.campaign_id == campaign_id, journal.c.seq.in_(disclose))
                        .values(disclosed=True)
                    )
        except IntegrityError:
            if fight is not None and self.fight(fight.fight_id).version != fight.expected_version:
                raise self._conflict(fight.fight_id, fight.expected_version) from None
            raise JournalConflictError(campaign_id, row.seq) from None
        return Recorded(version, tuple(written))

    def disclose(self, campaign_id: int, seqs: Sequence[int] | None = None) -> list[int]:
        """Make hidden entries public (all undisclosed ones if `seqs` is None); return their seqs.

        `StoreError` names a seq that is not a hidden entry of the campaign.
        """
        hidden = {r.seq: r.disclosed for r in self.journal(campaign_id) if r.hidden}
        wanted = sorted(s for s, done in hidden.items() if not done) if seqs is None else list(seqs)
        unknown = [s for s in wanted if s not in hidden]
        if unknown:
            raise StoreError(
                "not_hidden", seq=unknown[0], hidden=", ".join(map(str, hidden)) or "-"
            )
        query = (
            update(journal)
            .where(journal.c.campaign_id == campaign_id, journal.c.seq.in_(wanted))
            .values(disclosed=True)
        )
        with self._translated(), self.engine.begin() as conn:
            if wanted:
                changed(conn, campaign_id, DISCLOSE)
            conn.execute(query)
        return wanted

    def fight_entries(
        self, campaign_id: int, fight_id: int, from_action: int | None = None
    ) -> dict[int, JournalRow]:
        """The journal entries of the fight's actions by action number (`#fight3.7`: 7): all of
        them, or those from action `from_action`'s entry on (none if it has no entry)."""
        prefix = f"#fight{int(fight_id)}."
        where = [journal.c.campaign_id == campaign_id, journal.c.action_id.like(prefix + "%")]
        with self._translated(), self._reading() as conn:
            if from_action is not None:
                first = conn.execute(
                    select(journal.c.seq).where(
                        journal.c.campaign_id == campaign_id,
                        journal.c.action_id == f"{prefix}{int(from_action)}",
                    )
                ).scalar()
                if first is None:
                    return {}
                where.append(journal.c.seq >= first)
            rows = conn.execute(select(*JOURNAL_COLUMNS).where(*where).order_by(journal.c.seq))
            found = {}
            for row in rows:
                number = row.action_id[len(prefix) :]
                if number.isdigit():
                    found[int(number)] = JournalRow(*row)
            return found


def _refused(campaign_id: int, seq: int) -> NoReturn:
    raise JournalConflictError(campaign_id, seq)
