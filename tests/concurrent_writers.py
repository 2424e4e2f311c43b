"""Many writer processes on one campaign at once, and what came of it: shared by
`tests/test_concurrent_writers.py` (a few processes) and `benchmarks/bench_writers.py` (20 × 50).

Each process writes `writes` times, in turn a dice roll (`jdr dice 2d6 --campaign`), a rule
system's roll (Passion's `action`) and a fight action on the one fight they all share, each with
an action id of its own; it times each write and counts the writes refused. Then the journal is
read back: every acknowledged write must be there exactly once, the fight's events in one piece
per action, and the exported journal must verify.

Before the start, each process writes once of each kind to a campaign of its own (not timed with
the others, kept as `Outcome.first`): the writes timed are those of a running table, not a
process's first, which loads modules and prepares its statements (30–40 ms alone). Without it,
the 20 first writes queued together made the whole p99.
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass, field
from typing import Any

from jdr.dice.source import RandomSource
from jdr.errors import JdrError
from jdr.fights import service as fights
from jdr.journal import service as journal
from jdr.store import open_store

SYSTEM = "passion"


class Tally:
    """Fight rules where every command is legal: each `add` records the total it was decided on,
    so an action decided on a stale state shows (`evolve` refuses it)."""

    def start(self, setup: dict[str, Any], rng: RandomSource) -> list[dict[str, Any]]:
        return [{"type": "started"}]

    def decide(
        self, state: dict[str, Any], command: dict[str, Any], rng: RandomSource
    ) -> list[dict[str, Any]]:
        return [{"type": "added", "by": command["by"], "n": command["n"], "seen": state["total"]}]

    def evolve(self, state: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
        if event["type"] == "started":
            return {"total": 0}
        assert event["seen"] == state["total"], "an event decided on a stale state"
        return {"total": state["total"] + 1}

    def legal_commands(self, state: dict[str, Any]) -> list[str]:
        return ["add"]


@dataclass
class Outcome:
    """What the writers did and what the database kept."""

    processes: int
    writes: int
    acknowledged: int = 0
    refused: int = 0
    refusals: list[str] = field(default_factory=list)
    lost: int = 0
    duplicated: int = 0
    verified: bool = False
    latencies: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    """Each process's first write (of its warm-up, alone): what a cold process costs."""
    seconds: float = 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return 0.0
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def _writer(
    url: str,
    campaign_name: str,
    fight: int,
    warm: tuple[str, int],
    who: str,
    writes: int,
    signals: tuple[Any, Any],
) -> Any:
    from jdr.dice import notation
    from jdr.systems import default_registry

    system = default_registry().get(SYSTEM)
    action = system.actions["action"]
    params = action.params(dice="3d6")
    expression = notation.parse("2d6")
    store = open_store(url)
    campaign = store.campaign(campaign_name)

    def write(on: Any, fight: int, n: int) -> tuple[str, str]:
        action_id = f"{who}-{n}"
        if n % 3 == 0:
            journal.roll_dice(store, on, expression, journal.Who(who, action_id))
            return ("dice", action_id)
        if n % 3 == 1:
            journal.roll(store, on, system, action, params, who, action_id)
            return ("roll", action_id)
        fights.act(store, fight, Tally(), {"by": who, "n": n}, None)
        return ("fight", f"{who}:{n}")

    warm_campaign = store.campaign(warm[0])  # modules loaded, statements prepared: not timed
    first = []
    for n in range(3):
        start = time.perf_counter()
        write(warm_campaign, warm[1], n)
        first.append(time.perf_counter() - start)
    ready, go = signals
    ready.put(who)
    go.wait()
    done: list[tuple[str, str]] = []
    refused: list[str] = []
    times: list[float] = []
    for n in range(writes):
        start = time.perf_counter()
        try:
            done.append(write(campaign, fight, n))
        except JdrError as error:
            refused.append(f"{type(error).__name__}: {error.message()}")
        times.append(time.perf_counter() - start)
    store.close()
    return done, refused, times, first[0]


def run_writers(url: str, processes: int, writes: int) -> Outcome:
    """`processes` writers × `writes` writes on one new campaign of the database at `url`."""
    import uuid

    store = open_store(url)
    name = f"writers-{uuid.uuid4().hex[:10]}"
    campaign = store.campaign_by_id(store.create_campaign(SYSTEM, name))
    fight = fights.start(store, campaign.id, Tally(), {}, None)
    warm = store.campaign_by_id(store.create_campaign(SYSTEM, f"{name}-warm-up"))
    warm_fight = fights.start(store, warm.id, Tally(), {}, None)
    outcome = Outcome(processes, writes)
    context = multiprocessing.get_context("spawn")
    start = time.perf_counter()
    with context.Manager() as manager:
        ready, go = manager.Queue(), manager.Event()
        with context.Pool(processes) as pool:
            jobs = [
                pool.apply_async(
                    _writer,
                    (url, name, fight, (warm.name, warm_fight), f"w{i}", writes, (ready, go)),
                )
                for i in range(processes)
            ]
            for _ in range(processes):  # every process up, warm and waiting: they start together
                ready.get(timeout=600)
            go.set()
            results = [job.get(timeout=600) for job in jobs]
    outcome.seconds = time.perf_counter() - start
    acknowledged: list[tuple[str, str]] = []
    for done, refused, times, first in results:
        acknowledged += done
        outcome.refusals += refused
        outcome.latencies += times
        outcome.first.append(first)
    outcome.acknowledged = len(acknowledged)
    outcome.refused = len(outcome.refusals)
    rows = store.journal(campaign.id)
    ids = [row.action_id for row in rows]
    added = [
        f"{e.event['by']}:{e.event['n']}" for e in store.events(fight) if e.event["type"] == "added"
    ]
    kept = {*ids, *added}
    outcome.lost = sum(1 for _kind, key in acknowledged if key not in kept)
    outcome.duplicated = (len(ids) - len(set(ids))) + (len(added) - len(set(added)))
    fights.state(store, fight, Tally())  # every event decided on the state before it
    exported = journal.export(store, campaign)
    outcome.verified = _verifies(exported)
    store.close()
    return outcome


def _verifies(exported: dict[str, Any]) -> bool:
    from jdr.journal.replay import replayer_for
    from jdr.journal.verify import verify

    return bool(verify(exported, replayer_for, {}, []).ok)
