"""How fast the command line starts: `jdr --help` and `jdr roll --help` must answer in under 0.3 s.

    .venv/bin/python benchmarks/bench_startup.py [--repeat N] [--previous SRC]

Runs each command N times as a fresh process (the way a user types it) and prints the median and
the worst wall-clock time, against the 0.3 s budget, and the bare interpreter start as a reference.
With `--previous SRC` (the `src` folder of another checkout, e.g. `git worktree add /tmp/old
HEAD~5`), the `--help` commands of that version run in the same loop, for a side-by-side figure.

Bytecode is written and reused, as on a user's machine: `PYTHONDONTWRITEBYTECODE` is dropped from
the commands' environment (with it, every module is compiled from source at each start).
"""

from __future__ import annotations

import argparse
import os
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


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], env: dict[str, str] = ENV) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def previous_commands(src: str) -> dict[str, tuple[list[str], dict[str, str]]]:
    """The `--help` commands of the version whose sources are in `src`."""
    env = {**ENV, "PYTHONPATH": src}
    run = [sys.executable, "-c", "import sys; from jdr.cli.app import main; sys.exit(main())"]
    return {
        "previous: jdr --help": ([*run, "--help"], env),
        "previous: jdr roll --help": ([*run, "roll", "--help"], env),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--previous", metavar="SRC", help="another version's src folder")
    args = parser.parse_args()
    print(f"{'command':<30} | median s | worst s | budget")
    print(f"{'-' * 30} | -------- | ------- | ------")
    over = False
    commands = {label: (command, ENV) for label, command in COMMANDS.items()}
    if args.previous:
        commands.update(previous_commands(args.previous))
    for label, (command, env) in commands.items():
        timed(command, env)  # warm the file cache and write the bytecode
        times = [timed(command, env) for _ in range(args.repeat)]
        median = statistics.median(times)
        budgeted = "--help" in label and not label.startswith("previous")
        verdict = ("ok" if median < BUDGET else "OVER") if budgeted else "-"
        over |= verdict == "OVER"
        print(f"{label:<30} | {median:8.3f} | {max(times):7.3f} | {verdict}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
