"""20 writer processes × 50 writes on one campaign at once: refused, lost, duplicated, p99.

    .venv/bin/python benchmarks/bench_writers.py [--processes N] [--writes N] [--pg URL]

Each process writes in turn a dice roll, a Passion action roll and a fight action on the one
fight they share, each through the campaign's journal (`tests/concurrent_writers.py`). Then the
journal is read back: every acknowledged write must be there once (lost, duplicated), the fight's
events decided each on the state before it, and the exported journal must verify.

On a SQLite file in a temporary folder and on PostgreSQL (`--pg` or `JDR_TEST_DATABASE_URL`, in a
throw-away schema). Targets: 0 refused, 0 lost, 0 duplicated, the chain verifies, p99 per write
under 300 ms. A first run with one writer alone gives the baseline: how long one write holds
the campaign's lock; 20 writers queued behind one another wait about 20 such turns. Each process
writes once of each kind to a campaign of its own before the start (its first write loads modules
and prepares statements: the slowest of those is shown apart), so the writes timed are a running
table's. Exit status 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from concurrent_writers import Outcome, run_writers
from timing import pg_url, sqlite_url

P99_TARGET_S = 0.300


def row(label: str, outcome: Outcome, baseline: bool = False) -> tuple[str, ...]:
    """One line of the table; a `baseline` (one writer alone: the time each write holds the
    campaign's lock) has no latency target: with N writers queued, a write waits for about N
    such turns."""
    p50, p99 = outcome.percentile(50), outcome.percentile(99)
    ok = (
        outcome.refused == 0
        and outcome.lost == 0
        and outcome.duplicated == 0
        and outcome.verified
        and p99 < P99_TARGET_S
    )
    return (
        label,
        f"{outcome.processes} × {outcome.writes}",
        str(outcome.acknowledged),
        str(outcome.refused),
        str(outcome.lost),
        str(outcome.duplicated),
        "yes" if outcome.verified else "NO",
        f"{p50 * 1000:.0f}",
        f"{p99 * 1000:.0f}",
        f"{outcome.percentile(100) * 1000:.0f}",
        f"{outcome.acknowledged / outcome.seconds:.0f}/s",
        f"{max(outcome.first, default=0) * 1000:.0f}",
        "baseline" if baseline else "ok" if ok else "MISSED",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=20, help="writer processes")
    parser.add_argument("--writes", type=int, default=50, help="writes per process")
    parser.add_argument("--pg", help="PostgreSQL URL (default: $JDR_TEST_DATABASE_URL)")
    args = parser.parse_args()
    pg = args.pg or os.environ.get("JDR_TEST_DATABASE_URL")

    rows = []
    refusals: list[str] = []
    with sqlite_url() as url:
        rows.append(row("SQLite (WAL file)", run_writers(url, 1, args.writes), baseline=True))
        outcome = run_writers(url, args.processes, args.writes)
        rows.append(row("SQLite (WAL file)", outcome))
        refusals += outcome.refusals
    notes = []
    if pg:
        with pg_url(pg) as url:
            rows.append(row("PostgreSQL", run_writers(url, 1, args.writes), baseline=True))
            outcome = run_writers(url, args.processes, args.writes)
            rows.append(row("PostgreSQL", outcome))
            refusals += outcome.refusals
    else:
        notes.append("PostgreSQL skipped: pass --pg URL or set JDR_TEST_DATABASE_URL")
    header = (
        "database",
        "writers × writes",
        "acknowledged",
        "refused",
        "lost",
        "duplicated",
        "verifies",
        "p50 ms",
        "p99 ms",
        "max ms",
        "throughput",
        "a process's 1st write ms",
        "target",
    )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for line in [header, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
    for refusal in sorted(set(refusals))[:5]:
        print("refused:", refusal)
    for note in notes:
        print(note)
    return 1 if any(r[-1] == "MISSED" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
