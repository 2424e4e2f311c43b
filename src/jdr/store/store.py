"""`Store`: campaigns, characters, fights and their append-only event logs in one database.

A service owns each use case; the store only reads and writes, one transaction per call.
Campaigns and characters are found by name as people type them (`jdr.names`: no case, no accents,
no spaces); they keep the spelling they were created with, and a new name that matches an
existing one that way is refused as a duplicate.

>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Tuesday table")
>>> fight = store.create_fight(campaign, ["Ana", "Bo"])
>>> store.append(fight, 0, [{"type": "started"}])
1
>>> [e.event for e in store.events(fight)]
[{'type': 'started'}]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Text,
    cast,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    union_all,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError

from jdr.i18n import _
from jdr.names import check_name, collation_key, duplicate, match
from jdr.store.access import Access
from jdr.store.backup import Backups
from jdr.store.engine import (
    exposed,
    make_engine,
    resolve_url,
    safe_url,
    sqlite_file,
    translated,
)
from jdr.store.errors import ConflictError, JournalConflictError, StoreError
from jdr.store.live import DISCLOSE, FIGHT, JOURNAL, REVEAL, SHEET, Live, changed, characters_of
from jdr.store.models import (
    campaigns,
    changes,
    characters,
    epochs,
    fight_events,
    fight_snapshots,
    fights,
    journal,
    sheet_revisions,
)
from jdr.store.pending import Pending
from jdr.store.revisions import Revisions, SheetWrite
from jdr.store.rows import insert_row as _insert
from jdr.store.rows import now as _now
from jdr.store.schema import ensure_current
from jdr.store.writers import Writers

Json = dict[str, Any]


@dataclass(frozen=True)
class Campaign:
    id: int
    system: str
    name: str
    settings: Json
    created: datetime
    changes: int = 0
    """The seq of the campaign's last change (`Store.changes_after`)."""


@dataclass(frozen=True)
class Character:
    id: int
    campaign_id: int
    name: str
    sheet: Json
    version: int


@dataclass(frozen=True)
class CharacterRef:
    """A character as a list shows it: its id and name."""

    id: int
    name: str


@dataclass(frozen=True)
class FightRecord:
    """A fight's row; `version` is the `seq` of its last event (0 before any). Its pace
    (`jdr.pace`): `deadline` seconds a turn may last (None: no deadline), `on_late` what
    happens then, `turn_since` when the current turn began, `late_version` the version whose
    lateness was already dealt with."""

    id: int
    campaign_id: int
    participants: list[Any]
    status: str
    version: int
    deadline: int | None = None
    on_late: str | None = None
    turn_since: datetime | None = None
    late_version: int | None = None


@dataclass(frozen=True)
class StoredEvent:
    """One event of a fight's log: its `seq`, the `action` it belongs to, and the event itself."""

    seq: int
    action: int
    event: Json


@dataclass(frozen=True)
class Epoch:
    """One seed of a campaign: secret while `revealed` is None, its `commitment` public always."""

    number: int
    seed: bytes
    commitment: str
    created: datetime
    revealed: datetime | None


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
class Snapshot:
    """A fight's folded state and the `version` (event `seq`) it folds to."""

    version: int
    state: Json


@dataclass(frozen=True)
class FightLog:
    """What playing a fight reads, in one query each: the fight's row, its snapshot (None if it
    has none), and its events after the snapshot (all of them without one)."""

    record: FightRecord
    snapshot: Snapshot | None
    events: list[StoredEvent]
    snapshot_action: int | None = None
    """The action the snapshot's last event belongs to (whose journal entry recorded it)."""


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


class Store(Revisions, Access, Live, Backups, Pending):
    """The database behind one URL. Create with `open_store`."""

    def __init__(self, engine: Engine, url: str, file: Path | None = None) -> None:
        self.engine = engine
        self.url = url
        self.writers = Writers(engine, file)
        self.warnings: list[str] = []
        """What the front end should tell the user (a database others can read)."""

    def close(self) -> None:
        self.engine.dispose()

    def writing(self, campaign_id: int) -> AbstractContextManager[None]:
        """Hold the campaign's writer lock (`jdr.store.writers`): a roll's read → decide →
        append cycle inside it is never interleaved with another writer's."""
        return self.writers.writing(campaign_id)

    # campaigns and characters

    def create_campaign(
        self, system: str, name: str, settings: Json | None = None, seed: bytes | None = None
    ) -> int:
        """A new campaign, with its first seed epoch (so its commitment can be shown at once).

        `seed` fixes that first epoch's seed (the demo's and tests' reproducible campaigns);
        by default it is 32 fresh bytes from the OS.
        """
        name = check_name(_("campaign"), name)
        row = {"system": system, "name": name, "settings": settings or {}, "created": _now()}
        try:
            with self._translated(), self.engine.begin() as conn:
                if conn.dialect.name == "postgresql":  # one creation at a time sees the others
                    conn.execute(text("LOCK TABLE campaigns IN SHARE ROW EXCLUSIVE MODE"))
                campaign_id = _insert(conn, campaigns, row)  # SQLite: the database's write lock
                others = select(campaigns.c.name).where(campaigns.c.id != campaign_id)
                existing = duplicate(name, conn.execute(others).scalars())
                if existing is not None:  # leaving the block by an error rolls it back
                    raise StoreError("duplicate_campaign", name=existing)
                _insert(conn, epochs, _epoch_row(campaign_id, 1, seed))
                return campaign_id
        except IntegrityError:
            raise StoreError("duplicate_campaign", name=name) from None

    def campaign(self, name: str) -> Campaign:
        """The campaign `name` names (`jdr.names`); `UnknownNameError` with the closest name and
        the campaigns there are, `AmbiguousNameError` if two match loosely."""
        with self._translated(), self._reading() as conn:
            names = list(
                conn.execute(select(campaigns.c.name).order_by(campaigns.c.name)).scalars()
            )
            found = match(_("campaign"), name, names)
            row = conn.execute(select(campaigns).where(campaigns.c.name == found)).one()
        return Campaign(**row._asdict())

    def campaign_of_fight(self, fight_id: int) -> Campaign:
        """The campaign a fight belongs to (`StoreError` for an unknown fight)."""
        if not _storable(fight_id):
            raise StoreError("no_fight", fight=fight_id)
        query = select(campaigns).join(fights, fights.c.campaign_id == campaigns.c.id)
        with self._translated(), self._reading() as conn:
            row = conn.execute(query.where(fights.c.id == fight_id)).one_or_none()
        if row is None:
            raise StoreError("no_fight", fight=fight_id)
        return Campaign(**row._asdict())

    def campaign_by_id(self, campaign_id: int) -> Campaign:
        if not _storable(campaign_id):
            raise StoreError("no_campaign", campaign=campaign_id)
        with self._translated(), self._reading() as conn:
            row = conn.execute(select(campaigns).where(campaigns.c.id == campaign_id)).one_or_none()
        if row is None:
            raise StoreError("no_campaign", campaign=campaign_id)
        return Campaign(**row._asdict())

    def campaigns(self) -> list[Campaign]:
        with self._translated(), self._reading() as conn:
            rows = conn.execute(select(campaigns)).all()
        found = [Campaign(**row._asdict()) for row in rows]
        return sorted(found, key=lambda campaign: collation_key(campaign.name))

    def add_character(self, campaign_id: int, name: str, sheet: Json) -> int:
        """A new character, its revision 1 (`created`) not journaled; refused (`StoreError`)
        when the campaign has one of that name, as people type it (`Kaito` and `kaito` are one
        name). The sheet service (`jdr.characters.service.add`) journals it instead."""
        name = check_name(_("character"), name)
        data = {"changes": [{"path": [], "after": sheet}], "name": name}
        write = SheetWrite(campaign_id, None, 0, "created", data, name, sheet)
        try:
            with self._translated(), self.engine.begin() as conn:
                seq = changed(conn, campaign_id, SHEET)
                character_id = self.write_sheet(conn, write, seq=None)[0]
                conn.execute(
                    update(changes)
                    .where(changes.c.campaign_id == campaign_id, changes.c.seq == seq)
                    .values(characters=[character_id])
                )
                return character_id
        except IntegrityError:
            raise StoreError("duplicate_character", campaign=campaign_id, name=name) from None

    def character(self, character_id: int) -> Character:
        if not _storable(character_id):
            raise StoreError("no_character", character=character_id)
        with self._translated(), self._reading() as conn:
            query = select(characters).where(characters.c.id == character_id)
            row = conn.execute(query).one_or_none()
        if row is None:
            raise StoreError("no_character", character=character_id)
        return Character(**row._asdict())

    def characters(self, campaign_id: int) -> list[Character]:
        """A campaign's characters, by name (`jdr.names.collation_key`: `Évoli` among the E)."""
        query = select(characters).where(characters.c.campaign_id == campaign_id)
        with self._translated(), self._reading() as conn:
            found = [Character(**row._asdict()) for row in conn.execute(query)]
        return sorted(found, key=lambda character: collation_key(character.name))

    def roster(self, campaign_id: int) -> list[CharacterRef]:
        """A campaign's characters by name (`collation_key`), their ids and names only (no sheet
        read)."""
        query = select(characters.c.id, characters.c.name).where(
            characters.c.campaign_id == campaign_id
        )
        with self._translated(), self._reading() as conn:
            found = [CharacterRef(int(row.id), str(row.name)) for row in conn.execute(query)]
        return sorted(found, key=lambda ref: collation_key(ref.name))

    def character_named(self, campaign_id: int, name: str) -> Character:
        """The campaign's character `name` names (`jdr.names`); `UnknownNameError` with the
        closest name and the campaign's characters, `AmbiguousNameError` if two match loosely."""
        of_campaign = characters.c.campaign_id == campaign_id
        with self._translated(), self._reading() as conn:
            query = select(characters.c.name).where(of_campaign).order_by(characters.c.name)
            found = match(_("character"), name, list(conn.execute(query).scalars()))
            query = select(characters).where(of_campaign, characters.c.name == found)
            row = conn.execute(query).one()
        return Character(**row._asdict())

    def character_counts(self) -> dict[int, int]:
        """How many characters each campaign holds, by campaign id."""
        query = select(characters.c.campaign_id, func.count()).group_by(characters.c.campaign_id)
        with self._translated(), self._reading() as conn:
            return {int(campaign): int(count) for campaign, count in conn.execute(query)}

    # seed epochs and the journal

    def epochs(self, campaign_id: int) -> list[Epoch]:
        """The campaign's epochs, oldest first (the last one is open)."""
        query = select(epochs).where(epochs.c.campaign_id == campaign_id).order_by(epochs.c.number)
        with self._translated(), self._reading() as conn:
            return [_epoch(row) for row in conn.execute(query)]

    def epoch(self, campaign_id: int) -> Epoch:
        """The campaign's open epoch, created if it has none (a campaign from revision 0001)."""
        found = self.epochs(campaign_id)
        if found and found[-1].revealed is None:
            return found[-1]
        number = found[-1].number + 1 if found else 1
        try:
            with self._translated(), self.engine.begin() as conn:
                _insert(conn, epochs, _epoch_row(campaign_id, number))
        except IntegrityError:
            pass  # another process opened it first: read theirs
        return self.epochs(campaign_id)[-1]

    def reveal_epoch(self, campaign_id: int) -> tuple[Epoch, Epoch]:
        """End the open epoch (its seed becomes public) and open the next; return both.

        Refused (`StoreError`) while a hidden entry of the epoch is not disclosed, since the seed
        would let anyone re-derive its faces.
        """
        current = self.epoch(campaign_id)
        secret = (
            select(journal.c.seq)
            .where(
                journal.c.campaign_id == campaign_id,
                journal.c.epoch == current.number,
                journal.c.hidden.is_(True),
                journal.c.disclosed.is_(False),
            )
            .order_by(journal.c.seq)
        )
        close = (
            update(epochs)
            .where(
                epochs.c.campaign_id == campaign_id,
                epochs.c.number == current.number,
                epochs.c.revealed.is_(None),
            )
            .values(revealed=_now())
        )
        with self._translated(), self.engine.begin() as conn:
            changed(conn, campaign_id, REVEAL)
            if conn.execute(close).rowcount != 1:
                raise StoreError("epoch_changed", campaign=campaign_id)
            hidden = [int(seq) for seq in conn.execute(secret).scalars()]
            if hidden:  # leaving the block by an error rolls the whole transaction back
                raise StoreError("hidden_rolls", seqs=", ".join(map(str, hidden)))
            _insert(conn, epochs, _epoch_row(campaign_id, current.number + 1))
        revealed, opened = self.epochs(campaign_id)[-2:]
        return revealed, opened

    def journal(
        self, campaign_id: int, first: int = 1, last: int | None = None
    ) -> list[JournalRow]:
        """The campaign's journal, in `seq` order (entries `first` to `last` only, if given)."""
        where = [journal.c.campaign_id == campaign_id]
        if first > 1:
            where.append(journal.c.seq >= first)
        if last is not None:
            where.append(journal.c.seq <= last)
        query = select(*_JOURNAL).where(*where).order_by(journal.c.seq)
        with self._translated(), self._reading() as conn:
            return [JournalRow(*row) for row in conn.execute(query)]

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
            select(*_JOURNAL)
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
            select(*_JOURNAL)
            .where(journal.c.campaign_id == campaign_id, journal.c.seq <= last, or_(*named))
            .order_by(journal.c.seq)
        )
        with self._translated(), self._reading() as conn:
            return [JournalRow(*row) for row in conn.execute(query)]

    def journal_head(self, campaign_id: int, action_id: str | None = None) -> JournalHead:
        """What a roll needs before it rolls, in one read: the entry already recorded for
        `action_id` (if any), the journal's tail, and the open epoch (None if there is none)."""
        # the tail and the entry of `action_id` in one round trip (a writer cycle holds the
        # campaign's lock meanwhile: each round trip is one every queued writer waits for)
        tail = (
            select(literal(1).label("tail"), *_JOURNAL)
            .where(journal.c.campaign_id == campaign_id)
            .order_by(journal.c.seq.desc())
            .limit(1)
            .subquery()
        )
        rows_query: Any = select(tail)
        if action_id is not None:
            named = select(literal(0).label("tail"), *_JOURNAL).where(
                journal.c.campaign_id == campaign_id, journal.c.action_id == action_id
            )
            rows_query = union_all(rows_query, select(named.subquery()))
        epoch_query = (
            select(epochs)
            .where(epochs.c.campaign_id == campaign_id, epochs.c.revealed.is_(None))
            .order_by(epochs.c.number.desc())
            .limit(1)
        )
        known = tail_row = None
        with self._translated(), self._reading() as conn:
            for found in conn.execute(rows_query):
                if found[0]:
                    tail_row = JournalRow(*found[1:])
                else:
                    known = JournalRow(*found[1:])
            epoch = conn.execute(epoch_query).one_or_none()
        return JournalHead(
            known,
            None if tail_row is None else (int(tail_row.seq), str(tail_row.hash)),
            None if epoch is None else _epoch(epoch),
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
        try:
            with self._translated(), self._writing() as conn:
                kind = FIGHT if fight is not None else SHEET if sheets else JOURNAL
                touched = characters_of(sheets)
                fought = None if fight is None else fight.fight_id
                changed(conn, campaign_id, kind, fought, row.seq, touched)
                if conn.execute(still_open).rowcount != 1:
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

    # fights

    def fights(self, campaign_id: int) -> list[FightRecord]:
        """A campaign's fights, oldest first."""
        query = select(fights).where(fights.c.campaign_id == campaign_id).order_by(fights.c.id)
        with self._translated(), self._reading() as conn:
            return [FightRecord(**row._asdict()) for row in conn.execute(query)]

    def create_fight(self, campaign_id: int, participants: Sequence[Any]) -> int:
        for participant in participants:
            if isinstance(participant, str):
                check_name(_("fighter"), participant)
        row = {
            "campaign_id": campaign_id,
            "participants": list(participants),
            "status": "open",
            "version": 0,
        }
        try:
            with self._translated(), self.engine.begin() as conn:
                seq = changed(conn, campaign_id, FIGHT)
                fight_id = _insert(conn, fights, row)
                conn.execute(
                    update(changes)
                    .where(changes.c.campaign_id == campaign_id, changes.c.seq == seq)
                    .values(fight_id=fight_id)
                )
                return fight_id
        except IntegrityError:
            raise StoreError("no_campaign", campaign=campaign_id) from None

    def fight(self, fight_id: int) -> FightRecord:
        if not _storable(fight_id):  # `jdr fight show 99999999999999999999`: no such fight
            raise StoreError("no_fight", fight=fight_id)
        with self._translated(), self._reading() as conn:
            row = conn.execute(select(fights).where(fights.c.id == fight_id)).one_or_none()
        if row is None:
            raise StoreError("no_fight", fight=fight_id)
        return FightRecord(**row._asdict())

    def discard_fight(self, fight_id: int) -> None:
        """Delete a fight that has no event yet (its opening was refused); else do nothing."""
        query = delete(fights).where(fights.c.id == fight_id, fights.c.version == 0)
        with self._translated(), self.engine.begin() as conn:
            conn.execute(query)

    def set_fight_status(self, fight_id: int, status: str) -> None:
        """Set the fight's status (`open`, `ended` …); `StoreError` for an unknown fight."""
        if not _storable(fight_id):
            raise StoreError("no_fight", fight=fight_id)
        query = update(fights).where(fights.c.id == fight_id).values(status=status)
        owner = select(fights.c.campaign_id).where(fights.c.id == fight_id)
        with self._translated(), self.engine.begin() as conn:
            campaign_id = conn.execute(owner).scalar()
            if campaign_id is not None:
                changed(conn, int(campaign_id), FIGHT, fight=fight_id)
            found = conn.execute(query).rowcount
        if found != 1:
            raise StoreError("no_fight", fight=fight_id)

    def events(self, fight_id: int, after: int = 0) -> list[StoredEvent]:
        """The fight's log in order from seq `after + 1` (empty for a fight without events)."""
        if not _storable(fight_id):
            return []
        with self._translated(), self._reading() as conn:
            return self._events(conn, fight_id, after)

    def fight_log(self, fight_id: int) -> FightLog:
        """The fight, its snapshot and the events after it, in one read (`StoreError` for an
        unknown fight). A snapshot ahead of the log (never written so) is ignored."""
        if not _storable(fight_id):
            raise StoreError("no_fight", fight=fight_id)
        query = select(fight_snapshots.c.version, fight_snapshots.c.state).where(
            fight_snapshots.c.fight_id == fight_id
        )
        with self._translated(), self._reading() as conn:
            row = conn.execute(select(fights).where(fights.c.id == fight_id)).one_or_none()
            if row is None:
                raise StoreError("no_fight", fight=fight_id)
            record = FightRecord(**row._asdict())
            found = conn.execute(query).one_or_none()
            snapshot = None if found is None else Snapshot(int(found[0]), dict(found[1]))
            action = None
            if snapshot is not None:
                at = select(fight_events.c.action).where(
                    fight_events.c.fight_id == fight_id, fight_events.c.seq == snapshot.version
                )
                action = conn.execute(at).scalar()
            if snapshot is not None and (snapshot.version > record.version or action is None):
                snapshot, action = None, None
            after = 0 if snapshot is None else snapshot.version
            events = self._events(conn, fight_id, after)
            return FightLog(record, snapshot, events, None if action is None else int(action))

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
            rows = conn.execute(select(*_JOURNAL).where(*where).order_by(journal.c.seq))
            found = {}
            for row in rows:
                number = row.action_id[len(prefix) :]
                if number.isdigit():
                    found[int(number)] = JournalRow(*row)
            return found

    def _events(self, conn: Connection, fight_id: int, after: int) -> list[StoredEvent]:
        """The events as their JSON text, parsed in one call: a long log loads about twice as
        fast as with a parse per row (issue 17)."""
        import json

        query = (
            select(fight_events.c.seq, fight_events.c.action, cast(fight_events.c.event, Text))
            .where(fight_events.c.fight_id == fight_id, fight_events.c.seq > after)
            .order_by(fight_events.c.seq)
        )
        rows = conn.execute(query).all()
        events = json.loads("[" + ",".join(row[2] for row in rows) + "]")
        return [StoredEvent(row[0], row[1], event) for row, event in zip(rows, events, strict=True)]

    def append(
        self,
        fight_id: int,
        expected_version: int,
        events: Sequence[Json],
        snapshot: Json | None = None,
    ) -> int:
        """Append `events` as one action decided on `expected_version`; return the new version.

        In one transaction: bump `fights.version` only if it is still `expected_version` (the
        first statement, so SQLite takes its write lock before reading anything), then insert
        the events at seqs `expected_version + 1 …`, which the (fight, seq) key keeps unique.
        Raises `ConflictError` if another append landed first; nothing is written then.
        """
        if not events:
            return expected_version
        owner = select(fights.c.campaign_id).where(fights.c.id == fight_id)
        try:
            with self._translated(), self.engine.begin() as conn:
                campaign_id = conn.execute(owner).scalar()
                if campaign_id is not None:
                    changed(conn, int(campaign_id), FIGHT, fight=fight_id)
                return self._append(conn, fight_id, expected_version, events, snapshot)
        except IntegrityError:
            raise self._conflict(fight_id, expected_version) from None

    def _append(
        self,
        conn: Connection,
        fight_id: int,
        expected_version: int,
        events: Sequence[Json],
        snapshot: Json | None = None,
    ) -> int:
        if not events:
            return expected_version
        new_version = expected_version + len(events)
        created = _now()
        rows = [
            {
                "fight_id": fight_id,
                "seq": expected_version + i,
                "action": expected_version + 1,
                "event": event,
                "created": created,
            }
            for i, event in enumerate(events, start=1)
        ]
        bump = (
            update(fights)
            .where(fights.c.id == fight_id, fights.c.version == expected_version)
            .values(version=new_version, turn_since=created)
        )
        if conn.execute(bump).rowcount != 1:
            raise self._conflict(fight_id, expected_version)
        conn.execute(insert(fight_events), rows)
        if snapshot is not None:  # the fights row's lock (the bump above) orders this write
            kept = {"version": new_version, "state": snapshot}
            moved = update(fight_snapshots).where(fight_snapshots.c.fight_id == fight_id)
            if conn.execute(moved.values(**kept)).rowcount == 0:
                conn.execute(insert(fight_snapshots).values(fight_id=fight_id, **kept))
        return new_version

    def _conflict(self, fight_id: int, expected: int) -> ConflictError:
        return ConflictError(fight_id, expected, self.fight(fight_id).version)

    def _translated(self) -> Any:
        return translated(self.url)

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A connection to read on: the writer cycle's, inside one (`Writers.cycle`)."""
        cycle = self.writers.cycle()
        if cycle is not None:
            yield cycle
            return
        with self.engine.connect() as conn:
            yield conn

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A transaction to write in: a savepoint of the writer cycle's transaction inside one
        (its commit comes at the cycle's end; an error undoes only this write — one round trip
        more, not two: a savepoint needs no release), else a transaction of its own."""
        cycle = self.writers.cycle()
        if cycle is not None:
            cycle.exec_driver_sql("SAVEPOINT jdr_write")
            try:
                yield cycle
            except BaseException:
                with suppress(DBAPIError):  # a lost connection: the cycle rolls back whole
                    cycle.exec_driver_sql("ROLLBACK TO SAVEPOINT jdr_write")
                raise
            return
        with self.engine.begin() as conn:
            yield conn


def open_store(url: str | None = None) -> Store:
    """The store at `url`, else `JDR_DATABASE_URL`, else the embedded SQLite file.

    A new database is created at the latest revision; an older one must be migrated with
    `jdr.store.upgrade` first, and one written by a newer jdr is refused (`StoreError`).
    """
    url = resolve_url(url)
    engine = make_engine(url)
    path = sqlite_file(url)
    try:
        ensure_current(engine, url)
    except BaseException:
        engine.dispose()
        raise
    store = Store(engine, safe_url(url), path)
    if path is not None and exposed(path):
        store.warnings.append(exposed_warning(path))
    return store


def exposed_warning(path: Path) -> str:
    """The warning for a database file others can read, with the command that fixes it."""
    return _(
        "the database {path} can be read by other users of this machine (it holds the secret"
        " seed and the hidden rolls): run `chmod 600 {path}`"
    ).format(path=path)


_JOURNAL = (
    journal.c.seq,
    journal.c.action_id,
    journal.c.epoch,
    journal.c.hidden,
    journal.c.disclosed,
    journal.c.hash,
    journal.c.entry,
)


LARGEST_ID = 2**63 - 1
"""Ids are signed 64-bit integers in both databases."""


def _storable(number: int) -> bool:
    """Whether `number` can be an id at all (a larger one would fail in the driver).

    >>> _storable(12), _storable(10**20), _storable(-1)
    (True, False, False)
    """
    return 0 <= number <= LARGEST_ID


def _epoch_row(campaign_id: int, number: int, seed: bytes | None = None) -> Json:
    from jdr.dice.verifiable import SEED_BYTES, commitment, new_seed

    seed = new_seed() if seed is None else seed
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed is {SEED_BYTES} bytes")
    return {
        "campaign_id": campaign_id,
        "number": number,
        "seed": seed.hex(),
        "commitment": commitment(seed),
        "created": _now(),
        "revealed": None,
    }


def _epoch(row: Any) -> Epoch:
    return Epoch(row.number, bytes.fromhex(row.seed), row.commitment, row.created, row.revealed)
