"""How fast the command line starts: `jdr --help` and `jdr roll --help` must answer in under 0.3 s,
`jdr demo` run in under 1 s, and the commands that open a campaign (a journaled roll, a fight
action) start within 2x of a roll without one.

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
import shutil
import statistics
import subprocess
import sys
import tempfile
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
    "jdr roll poledemos test": [JDR, "roll", "poledemos", "test", "--val", "3", "--dice", "2"],
    "jdr demo": [JDR, "demo"],
}
CAMPAIGN_COMMANDS = {
    "… --campaign C (a journaled roll)": [
        *COMMANDS["jdr roll poledemos test"][1:],
        "--campaign",
        "C",
        "--action-id",
        "{n}",
    ],
    "jdr campaign list": ["campaign", "list"],
    "jdr fight act (a journaled action)": ["fight", "act", "1", "{actor}", "defend"],
}
"""Commands that open the database (a fresh SQLite file with campaign C, and campaign F holding
a Plus Ultra fight): every run journals a new roll (`{n}` is the run's number), as a player's
posts do, or a new fight action (`{actor}`: the fighter whose turn it is, Kaito and Corbeau in
turn; defending is always legal)."""

FIGHTERS = ("Kaito", "Corbeau")
REFERENCE = "jdr roll poledemos test"
"""The command without a database that campaign commands are compared with (issue 18: within
2x)."""
DEMO_BUDGET = 1.0


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


_turns: dict[tuple[str, ...], int] = {}


def timed(command: list[str], env: dict[str, str] = ENV, run: int = 0) -> float:
    turn = _turns[tuple(command)] = _turns.get(tuple(command), -1) + 1
    actor = FIGHTERS[turn % 2]
    command = [word.replace("{n}", f"run-{run}").replace("{actor}", actor) for word in command]
    before = _children_cpu()
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env)
    wall = time.perf_counter() - start
    _cpu.append(_children_cpu() - before)
    return wall


_cpu: list[float] = []
"""The CPU time (user + system) of each timed run, in order: a figure a loaded machine (other
processes on the same cores) changes less than the wall-clock one."""


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def campaign_commands(folder: str) -> dict[str, tuple[list[str], dict[str, str]]]:
    """The commands that open a store, on a new database in `folder` holding campaign C."""
    env = {**ENV, "JDR_DATABASE_URL": f"sqlite:///{folder}/bench.db"}
    examples = Path(__file__).resolve().parent.parent / "src/jdr/systems/plus_ultra/examples"
    for words in (
        ["campaign", "new", "C", "--system", "poledemos"],
        ["campaign", "new", "F", "--system", "plus-ultra"],
        ["sheet", "add", str(examples / "hero.toml"), "--campaign", "F", "--name", "Kaito"],
        ["sheet", "add", str(examples / "villain.toml"), "--campaign", "F", "--name", "Corbeau"],
        ["fight", "new", "--campaign", "F", "--with", "Kaito,Corbeau", "--seed", "1"],
    ):
        subprocess.run([JDR, *words], check=True, capture_output=True, env=env)
    return {label: ([JDR, *words], env) for label, words in CAMPAIGN_COMMANDS.items()}


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
    print(f"{'command':<34} | median s | worst s | CPU s | budget")
    print(f"{'-' * 34} | -------- | ------- | ----- | ------")
    over = False
    commands = {label: (command, ENV) for label, command in COMMANDS.items()}
    folder = tempfile.mkdtemp(prefix="jdr-bench-")
    commands.update(campaign_commands(folder))
    if args.previous:
        commands.update(previous_commands(args.previous))
    medians = {}
    for label, (command, env) in commands.items():
        timed(command, env, -1)  # warm the file cache and write the bytecode
        times = [timed(command, env, n) for n in range(args.repeat)]
        median = medians[label] = statistics.median(times)
        cpu = statistics.median(_cpu[-args.repeat :])
        budget = DEMO_BUDGET if label == "jdr demo" else BUDGET
        budgeted = ("--help" in label or label == "jdr demo") and not label.startswith("previous")
        verdict = ("ok" if median < budget else "OVER") if budgeted else "-"
        over |= verdict == "OVER"
        print(f"{label:<34} | {median:8.3f} | {max(times):7.3f} | {cpu:5.2f} | {verdict}")
    for label in CAMPAIGN_COMMANDS:
        ratio = medians[label] / medians[REFERENCE]
        verdict = "ok" if ratio <= 2 else "OVER"
        over |= verdict == "OVER"
        print(f"{label} / {REFERENCE}: {ratio:.2f}x (budget 2x) {verdict}")
    shutil.rmtree(folder, ignore_errors=True)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
