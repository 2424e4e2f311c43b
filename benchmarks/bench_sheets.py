"""How long a sheet with 10,000 revisions takes to show: now, at any revision, and its history.

    .venv/bin/python benchmarks/bench_sheets.py [--revisions N] [--repeat N] [--pg URL]

Builds one Pokémon sheet with `--revisions` revisions through the real service (each one a
journaled `award`, as a table would write them), on a SQLite file in a temporary folder and on
PostgreSQL (the URL from `--pg` or `JDR_TEST_DATABASE_URL`, in a throw-away schema; skipped with a
note if neither is set), then times, median of `--repeat` runs:

- `show`: the sheet now (`characters.sheet`, the fold kept up to date with each revision);
- `show --at`: the sheet at revisions 1, the middle one and the one before the last (the snapshot
  at or before it, then at most `SNAPSHOT_EVERY` − 1 revisions' changes);
- `history --last 50`, and an undo followed by a redo (two revisions written);
- for comparison, folding all the revisions from the creation (what `--at` would cost without
  snapshots);
- the whole command, `jdr sheet show NAME --campaign C --db URL --json` in a new process, beside
  `jdr campaign list` on the same database (a store command that reads no sheet: the cost of
  starting Python, the CLI and SQLAlchemy) and `jdr --help`, in the same run.

Exit status 1 if `show` or `show --at` is over the 0.2 s target. The processes are shown for
what they are: start-up (Python, the CLI, SQLAlchemy) is most of them, as `jdr campaign list`
shows; on a busy machine they vary by tenths of a second from run to run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from jdr.characters import service
from jdr.sheet_check import systems_example
from jdr.store import SNAPSHOT_EVERY, Store, open_store
from jdr.store.sheet_fold import fold_onto
from timing import median_time, pg_url, sqlite_url

TARGET = 0.2
JDR = Path(sys.executable).parent / "jdr"


def build(store: Store, revisions: int) -> tuple[Any, float]:
    """A campaign holding Pikachu at `revisions` revisions; the seconds it took."""
    import tomllib

    store.create_campaign("pokemon", "Bench")
    campaign = store.campaign("Bench")
    start = time.perf_counter()
    service.add(store, campaign, tomllib.loads(systems_example("pokemon", "pokemon")))
    for n in range(revisions - 1):
        service.progress(store, campaign, "Pikachu", "award", [f"session {n}"], {"xp": "1"})
    return campaign, time.perf_counter() - start


def measure(url: str, label: str, revisions: int, repeat: int) -> bool:
    store = open_store(url)
    campaign, built = build(store, revisions)
    character = store.character_named(campaign.id, "Pikachu")
    assert character.version == revisions
    print(
        f"\n{label}: {revisions} revisions built in {built:.1f} s "
        f"({revisions / built:.0f} journaled revisions/s)"
    )
    rows = [("show (now)", median_time(lambda: service.show(store, campaign, "Pikachu"), repeat))]
    for at in (1, revisions // 2 + SNAPSHOT_EVERY // 2, revisions - 1):

        def show_at(at: int = at) -> object:
            return service.show(store, campaign, "Pikachu", at)

        rows.append((f"show --at {at}", median_time(show_at, repeat)))
    rows.append(
        (
            "history --last 50",
            median_time(lambda: service.history(store, campaign, "Pikachu", 50), repeat),
        )
    )
    rows.append(
        (
            "undo + redo (2 revisions written)",
            median_time(lambda: _undo_redo(store, campaign), max(3, repeat // 3)),
        )
    )
    rows.append(
        (
            f"fold all {revisions} (no snapshot)",
            median_time(
                lambda: fold_onto("", {}, store.revisions(character.id)), max(3, repeat // 3)
            ),
        )
    )
    command = [str(JDR), "sheet", "show", "Pikachu", "--campaign", "Bench", "--db", url, "--json"]
    rows.append(
        ("jdr sheet show (process)", median_time(lambda: _run(command), max(3, repeat // 3)))
    )
    rows.append(
        (
            "jdr sheet show --at N/2 (process)",
            median_time(lambda: _run([*command, "--at", str(revisions // 2)]), max(3, repeat // 3)),
        )
    )
    listing = [str(JDR), "campaign", "list", "--db", url, "--json"]
    rows.append(
        ("jdr campaign list (process)", median_time(lambda: _run(listing), max(3, repeat // 3)))
    )
    rows.append(
        (
            "jdr --help (process)",
            median_time(lambda: _run([str(JDR), "--help"]), max(3, repeat // 3)),
        )
    )
    ok = True
    print(f"{'what':<36} | {'seconds':>8} | target")
    for what, seconds in rows:
        timed = what.startswith("show")
        over = timed and seconds > TARGET
        ok = ok and not over
        mark = ("OVER" if over else "ok") if timed else ""
        print(f"{what:<36} | {seconds:8.4f} | {mark}")
    print("(a process's target: what it takes over `jdr campaign list`, any store command's start)")
    store.close()
    return ok


def _undo_redo(store: Store, campaign: Any) -> None:
    service.undo(store, campaign, "Pikachu")
    service.redo(store, campaign, "Pikachu")


def _run(command: list[str]) -> None:
    subprocess.run(command, check=True, capture_output=True, env={**os.environ, "JDR_LANG": "en"})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--revisions", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--pg", default=os.environ.get("JDR_TEST_DATABASE_URL"))
    args = parser.parse_args()
    print(f"target: under {TARGET} s to show a sheet; a snapshot every {SNAPSHOT_EVERY} revisions")
    ok = True
    with sqlite_url() as url:
        ok = measure(url, "SQLite file (WAL)", args.revisions, args.repeat) and ok
    if args.pg:
        with pg_url(args.pg) as url:
            ok = measure(url, "PostgreSQL", args.revisions, args.repeat) and ok
    else:
        print("\nPostgreSQL: skipped (give --pg URL or set JDR_TEST_DATABASE_URL)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
