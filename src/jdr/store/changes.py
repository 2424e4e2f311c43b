"""The numbered changes of each campaign (issue 20), the live table's clock.

Every write that changes what a campaign's pages show calls `changed` inside its own transaction,
first: it bumps `campaigns.changes` (which holds the campaign row's lock until the transaction
ends, so two writers' changes are numbered in the order they commit, with no gap) and appends a
`changes` row saying what moved (a fight, journal entry, characters). On PostgreSQL it also sends
`NOTIFY jdr_changes, 'CAMPAIGN:SEQ'`, which the database delivers to every listening server
process at commit (and never for a transaction rolled back). A page asks
`changes_after(campaign, 41)` (`jdr.store.live`) and misses nothing, whichever process wrote.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, text, update

from jdr.store.models import campaigns, changes
from jdr.store.rows import now

Json = dict[str, Any]
CHANNEL = "jdr_changes"
"""The PostgreSQL channel every change is announced on (`CAMPAIGN:SEQ`)."""

JOURNAL = "journal"
"""A change kind: a journal entry was written (a roll, a fight action, a sheet revision)."""
FIGHT = "fight"
SHEET = "sheet"
DISCLOSE = "disclose"
REVEAL = "reveal"
LATE = "late"
"""A change kind: a fight's turn passed its deadline and waits for the GM."""
APPROVAL = "approval"
"""A change kind: a player sent a sheet for the GM's approval, or the GM decided on one (the
change names no sheet: only the GM's page and the sender's show it, asked for by each)."""


@dataclass(frozen=True)
class Change:
    """One change of a campaign: its `seq`, what kind, and what it touched (a fight, the
    journal entry it wrote, the characters whose sheets moved)."""

    seq: int
    kind: str
    fight: int | None
    entry: int | None
    characters: tuple[int, ...]
    created: datetime

    def to_json(self) -> Json:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "fight": self.fight,
            "entry": self.entry,
            "characters": list(self.characters),
        }


def changed(
    conn: Connection,
    campaign_id: int,
    kind: str,
    fight: int | None = None,
    entry: int | None = None,
    characters: Iterable[int] = (),
) -> int:
    """Number and record one change of the campaign in `conn`'s transaction; its seq. Call it
    first in the transaction: the campaign row's lock it takes orders writers from there on."""
    touched = sorted(set(characters))
    if conn.dialect.name == "postgresql":  # one round trip: bump, append, announce
        seq = conn.execute(
            _PG_CHANGE,
            {
                "campaign": campaign_id,
                "kind": kind,
                "fight": fight,
                "entry": entry,
                "characters": json.dumps(touched),
                "created": now(),
                "channel": CHANNEL,
            },
        ).scalar()
        return int(seq or 0)
    bump = (
        update(campaigns)
        .where(campaigns.c.id == campaign_id)
        .values(changes=campaigns.c.changes + 1)
        .returning(campaigns.c.changes)
    )
    seq = conn.execute(bump).scalar()
    if seq is None:  # no such campaign: the caller's own write will say so
        return 0
    row = {
        "campaign_id": campaign_id,
        "seq": int(seq),
        "kind": kind,
        "fight_id": fight,
        "entry": entry,
        "characters": touched,
        "created": now(),
    }
    conn.execute(insert(changes).values(row))
    return int(seq)


_PG_CHANGE = text(
    "WITH bumped AS (UPDATE campaigns SET changes = changes + 1 WHERE id = :campaign"
    " RETURNING changes),"
    " added AS (INSERT INTO changes (campaign_id, seq, kind, fight_id, entry, characters, created)"
    " SELECT :campaign, changes, CAST(:kind AS VARCHAR), CAST(:fight AS INTEGER),"
    " CAST(:entry AS INTEGER), CAST(:characters AS JSON), CAST(:created AS TIMESTAMPTZ)"
    " FROM bumped RETURNING seq)"
    " SELECT seq, pg_notify(:channel, CAST(:campaign AS TEXT) || ':' || CAST(seq AS TEXT))"
    " FROM added"
)
"""`changed` on PostgreSQL: the campaign's counter bumped, the change appended and announced
(delivered at commit), in one statement."""


def characters_of(writes: Sequence[Any]) -> list[int]:
    """The characters a list of `SheetWrite`s touches (a new one has no id yet)."""
    return [w.character_id for w in writes if w.character_id is not None]
