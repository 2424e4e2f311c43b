"""Many writer processes on one campaign at once, and what came of it: shared by
`tests/test_concurrent_writers.py` (a few processes) and `benchmarks/bench_writers.py` (20 × 50).

Each process writes `writes` times, in turn a dice roll (`jdr dice 2d6 --campaign`), a rule
system's roll (Passion's `action`) and a fight action on the one fight they all share, each with
an action id of its own; it times each write and counts the writes refused. Then the journal is
read back: every acknowledged write must be there exactly once, the fight's events in one piece
per action, and the exported journal must verify.
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass, field
from typing import Any

from jdr.dice.source import RandomSource, Seeded
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
    seconds: float = 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return 0.0
        return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def _writer(url: str, campaign_name: str, fight: int, who: str, writes: int, go: Any) -> Any:
    from jdr.dice import notation
    from jdr.systems import default_registry

    system = default_registry().get(SYSTEM)
    action = system.actions["action"]
    params = action.params(dice="3d6")
    expression = notation.parse("2d6")
    store = open_store(url)
    campaign = store.campaign(campaign_name)
    action.roll(params, Seeded(0))  # the system's modules loaded: writes are timed, not imports
    go.wait()
    done: list[tuple[str, str]] = []
    refused: list[str] = []
    times: list[float] = []
    for n in range(writes):
        action_id = f"{who}-{n}"
        start = time.perf_counter()
        try:
            if n % 3 == 0:
                journal.roll_dice(store, campaign, expression, journal.Who(who, action_id))
                done.append(("dice", action_id))
            elif n % 3 == 1:
                journal.roll(store, campaign, system, action, params, who, action_id)
                done.append(("roll", action_id))
            else:
                fights.act(store, fight, Tally(), {"by": who, "n": n}, None)
                done.append(("fight", f"{who}:{n}"))
        except JdrError as error:
            refused.append(f"{type(error).__name__}: {error.message()}")
        times.append(time.perf_counter() - start)
    store.close()
    return done, refused, times


def run_writers(url: str, processes: int, writes: int) -> Outcome:
    """`processes` writers × `writes` writes on one new campaign of the database at `url`."""
    import uuid

    store = open_store(url)
    name = f"writers-{uuid.uuid4().hex[:10]}"
    campaign = store.campaign_by_id(store.create_campaign(SYSTEM, name))
    fight = fights.start(store, campaign.id, Tally(), {}, None)
    outcome = Outcome(processes, writes)
    context = multiprocessing.get_context("spawn")
    start = time.perf_counter()
    with context.Manager() as manager:
        go = manager.Event()
        with context.Pool(processes) as pool:
            jobs = [
                pool.apply_async(_writer, (url, name, fight, f"w{i}", writes, go))
                for i in range(processes)
            ]
            time.sleep(0.5)  # every process up and waiting: they start together
            go.set()
            results = [job.get(timeout=600) for job in jobs]
    outcome.seconds = time.perf_counter() - start
    acknowledged: list[tuple[str, str]] = []
    for done, refused, times in results:
        acknowledged += done
        outcome.refusals += refused
        outcome.latencies += times
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
