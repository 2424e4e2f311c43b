"""How long a roll holds its campaign's writer lock, alone (issue 32, part 6): N journaled rolls
one after the other in this process, with the phase recorder on (`jdr.phases`), on SQLite and,
with `--pg` or `JDR_TEST_DATABASE_URL`, on PostgreSQL.

    .venv/bin/python benchmarks/bench_held.py [--rolls 300] [--pg URL]

No queue and no other thread: what `held` shows is the critical section itself (the statements
and round trips made under the lock), far less sensitive to a busy machine than `bench_live.py`'s
figures, which add every writer's wait for the CPU. Prints the median of each phase, in ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import pg_url, sqlite_url

WARM = 20
"""Rolls made first and not counted (modules loaded, statements prepared)."""


def measure(url: str, rolls: int) -> dict[str, float]:
    from jdr.journal import service
    from jdr.params import validate_params
    from jdr.phases import recording
    from jdr.store import open_store
    from jdr.table import action_of, system_of

    store = open_store(url)
    try:
        campaign_id = store.create_campaign("plus-ultra", f"Held {uuid.uuid4().hex[:8]}")
        campaign = store.campaign_by_id(campaign_id)
        system = system_of(campaign)
        action = action_of(system, "attack")
        params = validate_params(action.params, {"willpower": 5, "target_energy": 6, "rank": "C"})
        found: dict[str, list[float]] = {}
        for n in range(WARM + rolls):
            with recording() as times:
                service.roll(store, campaign, system, action, params, action_id=f"roll-{n}")
            if n >= WARM:
                for name, seconds in times.items():
                    found.setdefault(name, []).append(seconds * 1000)
        return {name: statistics.median(values) for name, values in found.items()}
    finally:
        store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=300)
    parser.add_argument("--pg", default=os.environ.get("JDR_TEST_DATABASE_URL"))
    args = parser.parse_args()
    order = ("checkout", "lock", "held", "head", "derive", "append", "commit", "durable")
    results = []
    with sqlite_url() as url:
        results.append(("SQLite", measure(url, args.rolls)))
    if args.pg:
        with pg_url(args.pg) as url:
            results.append(("PostgreSQL", measure(url, args.rolls)))
    print(f"a roll alone, median of {args.rolls} (ms):")
    for label, phases in results:
        shown = ", ".join(f"{name} {phases[name]:.2f}" for name in order if name in phases)
        print(f"  {label}: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
