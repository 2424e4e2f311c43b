"""A roll's writer cycle (`store.writing(id, single=True)`) appends its entry with fewer round
trips under the campaign's lock (issue 32, part 6): on PostgreSQL, no savepoint and the epoch's
check in the insert. A refused append still writes nothing — no entry, no change — and the next
roll goes on."""

from __future__ import annotations

import pytest

from jdr.store import JournalConflictError, JournalRow, Store


def _row(seq: int, epoch: int, action_id: str) -> JournalRow:
    return JournalRow(seq, action_id, epoch, False, True, f"h{seq}", {"seq": seq, "v": 2})


def test_a_refused_single_append_writes_nothing_and_the_next_goes_on(store: Store) -> None:
    campaign = store.create_campaign("example", "Mardi")
    epoch = store.epoch(campaign).number
    with store.writing(campaign, single=True):
        store.record(campaign, _row(1, epoch, "a"))
    heads = store.change_heads([campaign])
    with store.writing(campaign, single=True), pytest.raises(JournalConflictError):
        store.record(campaign, _row(1, epoch, "b"))  # seq 1 taken
    assert store.change_heads([campaign]) == heads
    assert [r.action_id for r in store.journal(campaign)] == ["a"]
    with store.writing(campaign, single=True):
        store.record(campaign, _row(2, epoch, "c"))
    assert [r.action_id for r in store.journal(campaign)] == ["a", "c"]
    assert store.journal_head(campaign).tail == (2, "h2")


def test_an_append_to_a_revealed_epoch_is_refused_without_a_trace(store: Store) -> None:
    campaign = store.create_campaign("example", "Jeudi")
    first = store.epoch(campaign).number
    store.reveal_epoch(campaign)
    heads = store.change_heads([campaign])
    with store.writing(campaign, single=True), pytest.raises(JournalConflictError):
        store.record(campaign, _row(1, first, "late"))
    assert store.change_heads([campaign]) == heads and store.journal(campaign) == []
    head = store.journal_head(campaign, "late")
    assert head.known is None and head.tail is None
    assert head.epoch is not None and head.epoch.number == first + 1


def test_a_nested_cycle_keeps_a_savepoint_per_write(store: Store) -> None:
    """A fight action holds the lock and the append nests in it: a refused write goes back to
    its savepoint, and the cycle may read and write again."""
    campaign = store.create_campaign("example", "Vendredi")
    epoch = store.epoch(campaign).number
    with store.writing(campaign):
        with store.writing(campaign, single=True):
            store.record(campaign, _row(1, epoch, "a"))
        with store.writing(campaign, single=True), pytest.raises(JournalConflictError):
            store.record(campaign, _row(1, epoch, "b"))
        assert store.journal_head(campaign).tail == (1, "h1")  # the cycle still reads
        with store.writing(campaign, single=True):
            store.record(campaign, _row(2, epoch, "c"))
    assert [r.action_id for r in store.journal(campaign)] == ["a", "c"]
