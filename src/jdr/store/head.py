"""The read a roll makes first (`Store.journal_head`): the journal's tail, the entry already
recorded for an action id, and the open epoch, in one query built once (its parameters
`campaign` and `action` bound at each read)."""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import bindparam, literal, select, true, union_all

from jdr.store.models import epochs, journal

JOURNAL_COLUMNS = (
    journal.c.seq,
    journal.c.action_id,
    journal.c.epoch,
    journal.c.hidden,
    journal.c.disclosed,
    journal.c.hash,
    journal.c.entry,
)
"""The columns of a `JournalRow`, in its order."""
EPOCH_COLUMNS = (
    epochs.c.number,
    epochs.c.seed,
    epochs.c.commitment,
    epochs.c.created,
    epochs.c.revealed,
)
"""The columns of an `Epoch`, in its order."""


@functools.cache
def head_query(named: bool) -> Any:
    """`Store.journal_head`'s query (`named`: with the entry of an action id), built once: the
    tail, the named entry, the open epoch beside them (none, or no rows: nulls)."""
    campaign, action = (
        bindparam("campaign", type_=journal.c.seq.type),
        bindparam("action", type_=journal.c.action_id.type),
    )
    tail = select(literal(1).label("tail"), *JOURNAL_COLUMNS).where(
        journal.c.campaign_id == campaign
    )
    rows: Any = select(tail.order_by(journal.c.seq.desc()).limit(1).subquery())
    if named:
        where = (journal.c.campaign_id == campaign, journal.c.action_id == action)
        named_row = select(literal(0).label("tail"), *JOURNAL_COLUMNS).where(*where)
        rows = union_all(rows, select(named_row.subquery()))
    opened = (
        select(*EPOCH_COLUMNS)
        .where(epochs.c.campaign_id == campaign, epochs.c.revealed.is_(None))
        .order_by(epochs.c.number.desc())
        .limit(1)
        .subquery("opened")
    )
    found = rows.subquery("rows")
    one = select(literal(1).label("one")).subquery("one")
    return select(*opened.c, *found.c).select_from(
        one.outerjoin(opened, true()).outerjoin(found, true())
    )
