"""How fast the command line starts: `jdr --help` and `jdr roll --help` must answer in under 0.3 s.

    .venv/bin/python benchmarks/bench_startup.py [--repeat N]

Runs each command N times as a fresh process (the way a user types it) and prints the median and
the worst wall-clock time, against the 0.3 s budget, and the bare interpreter start as a reference.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

BUDGET = 0.3
JDR = str(Path(sys.executable).with_name("jdr"))
COMMANDS = {
    "python -c pass (reference)": [sys.executable, "-c", "pass"],
    "jdr --help": [JDR, "--help"],
    "jdr roll --help": [JDR, "roll", "--help"],
    "jdr dice 2d6 --seed 1": [JDR, "dice", "2d6", "--seed", "1"],
    "jdr dice --odds 4d10>=6f1": [JDR, "dice", "--odds", "4d10>=6f1"],
}


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    print(f"{'command':<30} | median s | worst s | budget")
    print(f"{'-' * 30} | -------- | ------- | ------")
    over = False
    for label, command in COMMANDS.items():
        timed(command)  # warm the file cache
        times = [timed(command) for _ in range(args.repeat)]
        median = statistics.median(times)
        budgeted = "--help" in label
        verdict = ("ok" if median < BUDGET else "OVER") if budgeted else "-"
        over |= verdict == "OVER"
        print(f"{label:<30} | {median:8.3f} | {max(times):7.3f} | {verdict}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
