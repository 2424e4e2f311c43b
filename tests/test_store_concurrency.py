"""Two processes acting on the same fight at once: every event lands exactly once, seqs contiguous.

Runs on SQLite always and on PostgreSQL when `JDR_TEST_DATABASE_URL` is set.
"""

from __future__ import annotations

import multiprocessing
from typing import Any

from jdr.dice.source import RandomSource, Seeded
from jdr.fights import service
from jdr.store import ConflictError, open_store

ROUNDS = 40


class Tally:
    """Rules where every command is legal: each `add` records the total it was decided on."""

    def start(self, setup: dict[str, Any], rng: RandomSource) -> list[dict[str, Any]]:
        return [{"type": "started"}]

    def decide(
        self, state: dict[str, Any], command: dict[str, Any], rng: RandomSource
    ) -> list[dict[str, Any]]:
        seen = state["total"]
        return [
            {"type": "added", "by": command["by"], "n": command["n"], "seen": seen},
            {"type": "checked", "by": command["by"], "n": command["n"], "seen": seen + 1},
        ]

    def evolve(self, state: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
        if event["type"] == "started":
            return {"total": 0}
        assert event["seen"] == state["total"], "an event decided on a stale state"
        return {"total": state["total"] + 1}

    def legal_commands(self, state: dict[str, Any]) -> list[str]:
        return ["add"]


def raw_appender(url: str, fight: int, who: str, go: Any) -> int:
    """Append ROUNDS single events, re-reading the version after each conflict; count conflicts."""
    store = open_store(url)
    go.wait()
    conflicts = 0
    for n in range(ROUNDS):
        while True:
            version = store.fight(fight).version
            try:
                store.append(fight, version, [{"type": "note", "by": who, "n": n}])
                break
            except ConflictError:
                conflicts += 1
    store.close()
    return conflicts


def actor(url: str, fight: int, who: str, go: Any) -> int:
    """Act ROUNDS times through the service; a refusal after its retries is simply tried again."""
    store = open_store(url)
    go.wait()
    refusals = 0
    for n in range(ROUNDS):
        while True:
            try:
                service.act(store, fight, Tally(), {"by": who, "n": n}, Seeded(n), retries=3)
                break
            except ConflictError:
                refusals += 1
    store.close()
    return refusals


def run_two(worker: Any, url: str, fight: int) -> list[int]:
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        go = manager.Event()
        with context.Pool(2) as pool:
            results = [pool.apply_async(worker, (url, fight, who, go)) for who in ("A", "B")]
            go.set()
            return [result.get(timeout=60) for result in results]


def test_two_processes_appending_lose_and_duplicate_nothing(database_url: str) -> None:
    store = open_store(database_url)
    fight = store.create_fight(store.create_campaign("example", "T"), ["A", "B"])
    run_two(raw_appender, database_url, fight)
    stored = store.events(fight)
    assert [e.seq for e in stored] == list(range(1, 2 * ROUNDS + 1))
    for who in "AB":
        assert [e.event["n"] for e in stored if e.event["by"] == who] == list(range(ROUNDS))
    assert store.fight(fight).version == 2 * ROUNDS
    store.close()


def test_two_processes_acting_are_each_decided_on_the_latest_state(database_url: str) -> None:
    store = open_store(database_url)
    campaign = store.create_campaign("example", "T")
    fight = service.start(store, campaign, Tally(), {}, Seeded(0))
    run_two(actor, database_url, fight)
    stored = store.events(fight)
    assert [e.seq for e in stored] == list(range(1, 4 * ROUNDS + 2))
    added = [(e.event["by"], e.event["n"]) for e in stored if e.event["type"] == "added"]
    assert sorted(added) == sorted((who, n) for who in "AB" for n in range(ROUNDS))
    for first in stored[1::2]:  # each action's two events are adjacent: never interleaved
        second = stored[first.seq]
        assert first.action == second.action == first.seq
        assert first.event["by"] == second.event["by"]
    assert service.state(store, fight, Tally()) == {"total": 4 * ROUNDS}
    store.close()
