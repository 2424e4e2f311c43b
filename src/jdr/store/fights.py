"""A fight in the store: its row, its append-only event log, its snapshot and the stored
characters it started from.

`append` writes one action's events decided on a version of the fight, and refuses
(`ConflictError`) when another action landed first: two players acting at once never lose
either's move, and neither overwrites the other's.

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi")
>>> fight = store.create_fight(campaign, ["Ana", "Bo"])
>>> store.append(fight, 0, [{"type": "started"}, {"type": "turn"}])
2
>>> store.append(fight, 0, [{"type": "started"}])
Traceback (most recent call last):
...
jdr.store.errors.ConflictError: ...
>>> [(e.seq, e.action) for e in store.fight_log(fight).events]
[(1, 1), (2, 1)]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Text, cast, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from jdr.i18n import _
from jdr.names import check_name, same
from jdr.store.base import Database
from jdr.store.changes import FIGHT, changed
from jdr.store.errors import ConflictError, StoreError
from jdr.store.models import changes, fight_characters, fight_events, fight_snapshots, fights
from jdr.store.rows import insert_row as _insert
from jdr.store.rows import now as _now
from jdr.store.rows import storable as _storable

Json = dict[str, Any]

OPEN = "open"


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
class Fighter:
    """A stored character in a fight: its id, its name in the fight, and the revision of its
    sheet the fight started from."""

    character_id: int
    fighter: str
    revision: int


class Fights(Database):
    """The store's fights, their event logs and fighters (a part of `Store`)."""

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

    def _events(self, conn: Connection, fight_id: int, after: int) -> list[StoredEvent]:
        """The events as their JSON text, parsed in one call: a long log loads about twice as
        fast as with a parse per row (issue 17)."""
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

    def event_time(self, fight_id: int, seq: int) -> datetime | None:
        """When a fight's event `seq` was written."""
        query = select(fight_events.c.created).where(
            fight_events.c.fight_id == fight_id, fight_events.c.seq == seq
        )
        with self._translated(), self.engine.connect() as conn:
            found: datetime | None = conn.execute(query).scalar()
        return found

    # the stored characters in a fight

    def record_fighters(self, fight_id: int, fighters: Sequence[Fighter]) -> None:
        """Note the revision each stored fighter starts `fight_id` from (a fighter noted
        already keeps its first revision)."""
        noted = {f.character_id for f in self.fighters(fight_id)}
        rows = [
            {
                "fight_id": fight_id,
                "character_id": f.character_id,
                "fighter": f.fighter,
                "revision": f.revision,
            }
            for f in fighters
            if f.character_id not in noted
        ]
        if rows:
            with self._translated(), self.engine.begin() as conn:
                conn.execute(insert(fight_characters), rows)

    def fighters(self, fight_id: int) -> list[Fighter]:
        """The stored fighters of `fight_id` and the revisions they started from."""
        query = (
            select(
                fight_characters.c.character_id,
                fight_characters.c.fighter,
                fight_characters.c.revision,
            )
            .where(fight_characters.c.fight_id == fight_id)
            .order_by(fight_characters.c.character_id)
        )
        with self._translated(), self.engine.connect() as conn:
            return [Fighter(*row) for row in conn.execute(query)]

    def running_fights(self, campaign_id: int, character_id: int, name: str) -> list[int]:
        """The fights of the campaign not ended that the character takes part in (recorded as a
        fighter, or named among a fight's participants)."""
        query = select(fights.c.id, fights.c.participants, fights.c.status).where(
            fights.c.campaign_id == campaign_id
        )
        noted = select(fight_characters.c.fight_id).where(
            fight_characters.c.character_id == character_id
        )
        with self._translated(), self.engine.connect() as conn:
            recorded = set(conn.execute(noted).scalars())
            rows = conn.execute(query.order_by(fights.c.id)).all()
        return [
            int(row.id)
            for row in rows
            if row.status == OPEN
            and (
                row.id in recorded
                or any(isinstance(p, str) and same(p, name) for p in row.participants or [])
            )
        ]
