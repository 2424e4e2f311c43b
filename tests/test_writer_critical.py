"""What a campaign's writer lock holds (issue 32, part 6): the chain's append only. A fight
action's writes go in one chained statement with the commit on PostgreSQL — all or nothing —
and neither database waits for the disk under the lock: the cycle waits after giving it back
(the `durable` phase), before it returns."""

from __future__ import annotations

import pytest

from jdr.phases import recording
from jdr.store import ConflictError, FightAppend, JournalRow, Store


def _row(seq: int, epoch: int, action_id: str) -> JournalRow:
    return JournalRow(seq, action_id, epoch, False, True, f"h{seq}", {"seq": seq, "v": 2})


def test_a_fight_append_at_a_stale_version_writes_nothing(store: Store) -> None:
    campaign = store.create_campaign("example", "Mardi")
    epoch = store.epoch(campaign).number
    fight = store.create_fight(campaign, ["Ana", "Bo"])
    stale = FightAppend(fight, 3, [{"type": "hit"}], {"n": 1})
    heads = store.change_heads([campaign])
    with store.writing(campaign, single=True):
        store.journal_head(campaign, "#fight1.4")
        with pytest.raises(ConflictError):
            store.record(campaign, _row(1, epoch, "#fight1.4"), stale)
    assert store.change_heads([campaign]) == heads
    assert store.journal(campaign) == [] and store.events(fight) == []
    assert store.fight(fight).version == 0
    moves = FightAppend(fight, 0, [{"type": "started"}, {"type": "hit"}], {"n": 2})
    with store.writing(campaign, single=True):
        store.journal_head(campaign, "#fight1.1")
        done = store.record(campaign, _row(1, epoch, "#fight1.1"), moves)
    assert done.version == 2 and store.fight(fight).version == 2
    assert [(e.seq, e.action, e.event) for e in store.events(fight)] == [
        (1, 1, {"type": "started"}),
        (2, 1, {"type": "hit"}),
    ]
    log = store.fight_log(fight)
    assert log.snapshot is not None and log.snapshot.state == {"n": 2}
    assert [r.action_id for r in store.journal(campaign)] == ["#fight1.1"]
    assert store.change_heads([campaign])[campaign] == heads[campaign] + 1


def test_the_lock_is_given_back_before_the_disk_is_waited_for(store: Store) -> None:
    campaign = store.create_campaign("example", "Jeudi")
    epoch = store.epoch(campaign).number
    with recording() as times, store.writing(campaign, single=True):
        store.journal_head(campaign, "a")
        store.record(campaign, _row(1, epoch, "a"))
    assert {"held", "durable"} <= set(times)
    assert [r.action_id for r in store.journal(campaign)] == ["a"]
    if store.engine.dialect.name == "sqlite":  # the connection's own setting is back
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2
