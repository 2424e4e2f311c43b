"""How fast the store appends actions, and how long a 10,000-event fight takes to load and fold.

    .venv/bin/python benchmarks/bench_store.py [--actions N] [--events N] [--repeat N] [--pg URL]

On a SQLite file in a temporary folder (WAL, the embedded default) and on PostgreSQL (the URL from
`--pg` or `JDR_TEST_DATABASE_URL`, in a throw-away schema; skipped with a note if neither is set):

- appended actions per second, one transaction per action: raw `Store.append` of one event, and
  `service.act` (read the log, fold, decide, append) on a fight of the example Duel;
- the time to load and fold a fight of `--events` events (`service.state`: read the log, drop undone
  actions, fold), median of `--repeat` runs, against the 0.5 s target.

Exit status 1 if a load-and-fold is over the target.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import example_system  # the tests' example system: a two-fighter Duel
from jdr.dice import GivenFaces, Seeded
from jdr.fights import service
from jdr.store import Store, open_store
from timing import median_time, pg_url, sqlite_url

TARGET = 0.5
RULES = example_system.Duel()
VITALITY = 10**9  # nobody is knocked out, however long the fight


def new_fight(store: Store, label: str) -> int:
    campaign = store.create_campaign("example", f"{label} {uuid.uuid4().hex[:6]}")
    setup = {"fighters": ["Ana", "Bo"], "vitality": VITALITY}
    return service.start(store, campaign, RULES, setup, GivenFaces([]))


def raw_appends(store: Store, actions: int) -> float:
    """Seconds for `actions` raw appends of one event each, one transaction each."""
    fight = new_fight(store, "raw")
    version = store.fight(fight).version
    start = time.perf_counter()
    for n in range(actions):
        version = store.append(fight, version, [{"type": "note", "n": n}])
    return time.perf_counter() - start


def acts(store: Store, actions: int) -> float:
    """Seconds for `actions` calls of `service.act` (each reads and folds the whole log)."""
    fight = new_fight(store, "act")
    rng = Seeded(1)
    turn = "Ana"
    start = time.perf_counter()
    for _ in range(actions):
        command = {"actor": turn, "action": "attack", "dice": 3}
        turn = service.act(store, fight, RULES, command, rng).events[0]["target"]
    return time.perf_counter() - start


def long_fight(store: Store, events: int) -> int:
    """A fight of `events` events: the opening one, then attacks in turn, in batches of 500."""
    fight = new_fight(store, "long")
    version = store.fight(fight).version
    rng = random.Random(1)
    names = ["Ana", "Bo"]
    batch: list[dict[str, Any]] = []
    for n in range(events - version):
        faces = [rng.randint(1, 6) for _ in range(3)]
        damage = max(0, sum(f >= 5 for f in faces) - faces.count(1))
        batch.append(
            {
                "type": "attacked",
                "actor": names[n % 2],
                "target": names[1 - n % 2],
                "faces": faces,
                "damage": damage,
            }
        )
        if len(batch) == 500:
            version = store.append(fight, version, batch)
            batch = []
    store.append(fight, version, batch)
    return fight


def bench(label: str, url: str, args: argparse.Namespace) -> list[tuple[str, ...]]:
    store = open_store(url)
    try:
        raw = raw_appends(store, args.actions)
        acted = acts(store, args.actions)
        fight = long_fight(store, args.events)
        assert len(store.events(fight)) == args.events
        load = median_time(lambda: store.events(fight), args.repeat)
        total = median_time(lambda: service.state(store, fight, RULES), args.repeat)
    finally:
        store.close()
    verdict = "ok" if total < TARGET else "OVER"
    n, events, med = f"{args.actions}", f"{args.events:,}", f"median of {args.repeat}"
    return [
        (label, "Store.append, 1 event per action", n, f"{raw:.3f}", per_s(args.actions, raw), ""),
        (
            label,
            "service.act (read, fold, decide, append)",
            n,
            f"{acted:.3f}",
            per_s(args.actions, acted),
            "",
        ),
        (label, f"load the log ({med})", events, f"{load:.3f}", "", ""),
        (label, f"load + fold ({med})", events, f"{total:.3f}", "", f"{verdict} (< {TARGET} s)"),
    ]


def per_s(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=500, help="actions appended per measure")
    parser.add_argument("--events", type=int, default=10_000, help="events in the long fight")
    parser.add_argument("--repeat", type=int, default=7, help="runs of load-and-fold (median)")
    parser.add_argument("--pg", help="PostgreSQL URL (default: $JDR_TEST_DATABASE_URL)")
    args = parser.parse_args()
    pg = args.pg or os.environ.get("JDR_TEST_DATABASE_URL")

    rows: list[tuple[str, ...]] = []
    with sqlite_url() as url:
        rows += bench("SQLite (WAL file)", url, args)
    notes = []
    if pg:
        with pg_url(pg) as url:
            rows += bench("PostgreSQL", url, args)
    else:
        notes.append("PostgreSQL skipped: pass --pg URL or set JDR_TEST_DATABASE_URL")

    header = ("database", "what", "actions or events", "seconds", "rate", "target")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    for note in notes:
        print(note)
    return 1 if any("OVER" in row[-1] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
