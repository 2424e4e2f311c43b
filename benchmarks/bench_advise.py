"""How fast does the Passion dice advisor answer? Every pool of one or two of the eight sizes.

Run from the project root:

    .venv/bin/python benchmarks/bench_advise.py [--repeat 5]

The question: talent 5, difficulty 3, all eight sizes (d4 … d100), pools of 1 … N dice, ranked for
`success`. Each figure is the median of `--repeat` runs in one process (imports done, nothing
cached between runs: `rank_pools` builds every distribution again):

1. `rank_pools`, float engine, N = 10, 20, 30 (1,340, 5,480 and 12,420 pools);
2. `rank_pools`, exact engine (Fractions), N = 10 and 16 (N = 20 with all eight sizes is over
   the exact budget: `jdr advise … --exact` refuses it at once);
3. the whole command `jdr advise passion action --talent 5 --difficulty 3 --max-dice 20 --json`
   run in process through `jdr.cli.app.main` (options, validation, ranking, JSON of 5,480
   choices), its output discarded. Python's own start-up and imports are not counted.

The budget is 1 s for N = 20 in floats, both for `rank_pools` and for the whole command; the script
exits with status 1 if either is over. It also checks that floats and Fractions agree (largest
difference of any figure below 1e-12, same ranking) at N = 10, and prints a Markdown table ready
for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from jdr.systems.passion.advise import Choice, rank_pools
from jdr.systems.passion.params import Conditions
from jdr.systems.passion.pool import SIZES

BUDGET_S = 1.0
TOLERANCE = 1e-12
CONDITIONS = Conditions(difficulty=3, talent=5)
CLI = ["advise", "passion", "action", "--talent", "5", "--difficulty", "3", "--max-dice", "20"]


def median_seconds(work: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median time of `repeat` runs of `work`, and the last run's result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def use_passion_registry() -> None:
    """The installed `passion` system if there is one, else its actions registered directly."""
    from jdr.systems import Registry, System, set_default_registry
    from jdr.systems.passion.actions import ACTIONS

    registry = Registry.from_entry_points()
    if "passion" not in registry.ids():
        names = {"fr": "Passion", "en": "Passion"}
        registry = Registry({"passion": System("passion", names, actions=ACTIONS)})
    set_default_registry(registry)


def run_cli() -> int:
    from jdr.cli.app import main

    with contextlib.redirect_stdout(io.StringIO()):
        return main([*CLI, "--json"])


def largest_difference(exact: list[Choice], floats: list[Choice]) -> float:
    keys = ("p_success", "p_status_quo", "p_failure", "mean_margin")
    return max(
        abs(float(getattr(e, key)) - float(getattr(f, key)))
        for e, f in zip(exact, floats, strict=True)
        for key in keys
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing (median kept)")
    args = parser.parse_args(argv)

    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPU, {platform.system()};"
        f" talent {CONDITIONS.talent}, difficulty {CONDITIONS.difficulty}, sizes"
        f" {', '.join(f'd{size}' for size in SIZES)}"
    )
    rows: list[tuple[str, str, str, str]] = []
    ok = True
    for max_dice, in_fractions in ((10, False), (20, False), (30, False), (10, True), (16, True)):
        slow = in_fractions and max_dice > 10
        work = functools.partial(
            rank_pools, CONDITIONS, SIZES, max_dice=max_dice, exact=in_fractions
        )
        seconds, ranked = median_seconds(work, max(1, args.repeat // 2) if slow else args.repeat)
        engine = "exact (Fractions)" if in_fractions else "float64"
        shown = f"{seconds * 1000:.0f}"
        if max_dice == 20 and not in_fractions:
            ok = ok and seconds < BUDGET_S
            shown += " (under 1 s)" if seconds < BUDGET_S else " (OVER 1 s)"
        rows.append((f"`rank_pools`, N = {max_dice}", engine, f"{len(ranked):,}", shown))

    use_passion_registry()
    seconds, code = median_seconds(run_cli, args.repeat)
    ok = ok and code == 0 and seconds < BUDGET_S
    verdict = "under 1 s" if seconds < BUDGET_S and code == 0 else "OVER 1 s or failed"
    rows.append(
        (
            "`jdr advise … --max-dice 20 --json`",
            "float64",
            "5,480",
            f"{seconds * 1000:.0f} ({verdict})",
        )
    )

    exact = rank_pools(CONDITIONS, SIZES, max_dice=10, exact=True)
    floats = rank_pools(CONDITIONS, SIZES, max_dice=10, exact=False)
    difference = largest_difference(exact, floats)
    same_order = [c.dice for c in exact] == [c.dice for c in floats]
    ok = ok and difference < TOLERANCE and same_order

    header = ("what", "engine", "pools", "ms (median)")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) + " |")
    print(
        f"N = 10: floats and Fractions differ by at most {difference:.1e};"
        f" {'the same' if same_order else 'a DIFFERENT'} ranking."
    )
    print("all within budget" if ok else "BUDGET OR AGREEMENT FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
