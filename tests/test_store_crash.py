"""A process killed (SIGKILL) in the middle of a stream of actions loses no committed event.

A child process plays the example Duel through `service.act`, with a raw `Store.append` of a
three-event batch every third action, and prints each version once its transaction committed.
The test kills it at random points (a fixed seed), several times on the same fight, and after
each kill reopens the database: it opens, holds every version the child reported, its seqs run
1, 2, … with no gap and no partial action, every event is whole JSON, and the fight folds.

Runs on SQLite (a WAL file) always and on PostgreSQL when `JDR_TEST_DATABASE_URL` is set.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text

import example_system
from jdr.dice import GivenFaces
from jdr.fights import service
from jdr.fights.service import fight_action_id
from jdr.store import Store, open_store

TESTS = Path(__file__).parent
KILLS = 5
SEED = 8
VITALITY = 10**9  # nobody is knocked out: the stream never ends by itself
RULES = example_system.Duel()

CHILD = """
import sys
import example_system
from jdr.dice.source import Seeded
from jdr.fights import service
from jdr.store import open_store

from jdr.fights.binding import bound
from jdr.journal.entries import dice, make_entry
from jdr.store import FightAppend, JournalRow

url, fight, run = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
store = open_store(url)


def note(notes):
    # a batch of notes journaled as one action (a stored event needs its entry)
    record = store.fight(fight)
    campaign = store.campaign_by_id(record.campaign_id)
    head = store.journal_head(campaign.id)
    epoch = head.epoch or store.epoch(campaign.id)
    seq, prev = head.tail[0] + 1, head.tail[1]
    action_id = f"#fight{fight}.{record.version + 1}"
    context = {"system": "example", "fight": fight, "actor": None, "action": "note",
               "params": {}, "campaign": campaign.name, "action_id": action_id, "seq": seq}
    entry = make_entry(seq, prev, epoch.commitment, context, dice([], "given"),
                       bound(notes, None))
    row = JournalRow(seq, action_id, epoch.number, False, True, entry.hash, entry.to_json())
    return store.record(campaign.id, row, FightAppend(fight, record.version, notes)).version


rules = example_system.Duel()
rng = Seeded(run)
turn = service.state(store, fight, rules)["turn"]
n = 0
while True:
    n += 1
    if n % 3:
        command = {"actor": turn, "action": "attack", "dice": 4}
        acted = service.act(store, fight, rules, command, rng, retries=0)
        turn = acted.events[0]["target"]
        version = acted.version
    else:
        notes = [
            {"type": "note", "run": run, "n": n, "part": part, "pad": "x" * 2000}
            for part in range(3)
        ]
        version = note(notes)
    print(version, flush=True)
"""


def run_and_kill(url: str, fight: int, run: int, delay: float) -> list[int]:
    """Start the child, let it commit for `delay` seconds after its first version, SIGKILL it;
    return the versions it reported (only whole lines: a line is printed after its commit)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    }
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, url, str(fight), str(run)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert child.stdout is not None and child.stderr is not None
    lines: list[str] = []
    first = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.append(line)
            first.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        started = first.wait(timeout=30)
        time.sleep(delay)
        alive = child.poll() is None
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        reader.join(timeout=10)
        errors = child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
        child.stderr.close()
    assert started and alive, f"the child stopped by itself:\n{errors}"
    assert child.returncode == -signal.SIGKILL
    return [int(line) for line in lines if line.endswith("\n")]


def check_log(store: Store, fight: int, reported: list[int]) -> list[dict[str, Any]]:
    """The invariants a crash must keep; returns the events."""
    stored = store.events(fight)
    seqs = [e.seq for e in stored]
    assert seqs == list(range(1, len(stored) + 1)), "seqs have a gap or a repeat"
    assert store.fight(fight).version == len(stored), "fights.version disagrees with the log"
    assert set(reported) <= set(seqs), "a version the child reported committed is missing"
    # every action is whole: its events run from seq == action to the next action's start
    for event in stored:
        assert event.action <= event.seq
        assert all(stored[s - 1].action == event.action for s in range(event.action, event.seq))
    ends = {
        e.seq
        for e, after in zip(stored, [*stored[1:], None], strict=True)
        if after is None or after.action != e.action
    }
    assert set(reported) <= ends, "a reported version is not the end of an action"
    notes: dict[tuple[int, int], list[int]] = {}
    for event in stored:
        if event.event["type"] == "note":
            notes.setdefault((event.event["run"], event.event["n"]), []).append(event.event["part"])
    assert all(parts == [0, 1, 2] for parts in notes.values()), "a batch was cut in two"
    # the stored text itself is whole JSON, down to the last event
    query = text("SELECT CAST(event AS TEXT) FROM fight_events WHERE fight_id = :f ORDER BY seq")
    with store.engine.connect() as conn:
        raw = [row[0] for row in conn.execute(query, {"f": fight})]
    events = [json.loads(item) for item in raw]
    assert events == [e.event for e in stored]
    return events


def check_fold(store: Store, fight: int, events: list[dict[str, Any]]) -> None:
    state = service.state(store, fight, RULES)
    attacks = [e for e in events if e["type"] == "attacked"]
    for name in ("Ana", "Bo"):
        taken = sum(e["damage"] for e in attacks if e["target"] == name)
        assert state["vitality"][name] == VITALITY - taken
    assert state["turn"] == (attacks[-1]["target"] if attacks else "Ana")
    assert not state["over"]


def check_journal(store: Store, campaign: int, fight: int) -> None:
    """Every action played through the service has its journal entry and no entry lacks its
    action: they were written in one transaction. The chain is unbroken. (The child's `note`
    batches are journaled by hand, one entry each, as the service journals an action.)"""
    from jdr.journal.service import export
    from jdr.journal.verify import verify

    actions = sorted({e.action for e in store.events(fight)})
    rows = store.journal(campaign)
    assert [r.action_id for r in rows] == [fight_action_id(fight, a) for a in actions]
    assert verify(export(store, store.campaign_by_id(campaign))).ok


def test_killed_mid_stream_loses_no_committed_event(database_url: str) -> None:
    store = open_store(database_url)
    campaign = store.create_campaign("example", "Crash table")
    setup = {"fighters": ["Ana", "Bo"], "vitality": VITALITY}
    fight = service.start(store, campaign, RULES, setup, GivenFaces([]))
    store.close()
    delays = random.Random(SEED)
    total_reported = 0
    for run in range(KILLS):
        reported = run_and_kill(database_url, fight, run, delays.uniform(0.0, 0.25))
        total_reported += len(reported)
        if database_url.startswith("sqlite"):
            path = database_url.removeprefix("sqlite:///")
            with sqlite3.connect(path) as raw:
                assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
                assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            raw.close()
        reopened = open_store(database_url)  # opens cleanly, at the latest revision
        try:
            events = check_log(reopened, fight, reported)
            check_fold(reopened, fight, events)
            check_journal(reopened, campaign, fight)
        finally:
            reopened.close()
    assert total_reported >= KILLS
