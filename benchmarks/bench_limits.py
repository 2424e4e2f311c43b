"""Work is bounded before it starts: the time and memory of the inputs issue 14 found too costly.

    .venv/bin/python benchmarks/bench_limits.py [--entries N]

Each case runs the real command line in a process of its own; its wall time and peak memory
(maximum resident set, from `wait4`) are measured. A case is either answered or refused at
once with a clear message (exit 2); the targets are 5 s and 500 MB for anything, answered or
refused. The journals are real: `--entries` dice rolls through a campaign, exported (about
8 MB for the default), and one whose single entry is over `jdr.journal.reading.MAX_ENTRY_BYTES`
(a journal has no size limit since issue 28: `benchmarks/bench_verify.py` measures a long one).

Exit status 1 if a case is over a target or ends in a traceback.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

TIME_TARGET_S = 5.0
MEMORY_TARGET_MB = 500
JDR = [sys.executable, "-m", "jdr.cli.app"]


def measure(args: list[str], stdin: Path | None = None) -> tuple[float, float, int, str]:
    """(seconds, peak MB, exit code, the first line of stderr) of `jdr ARGS`, measured by GNU
    time (`/usr/bin/time -f "%e %M"`) so the peak is the command's own, not this script's."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        source = open(stdin, "rb") if stdin is not None else subprocess.DEVNULL  # noqa: SIM115
        try:
            done = subprocess.run(
                ["/usr/bin/time", "-o", report.name, "-f", "%e %M", *JDR, *args],
                stdin=source,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                check=False,
            )
        finally:
            if stdin is not None:
                source.close()  # type: ignore[union-attr]
        seconds, kilobytes = report.read().split()[-2:]
    err = done.stderr.decode("utf-8", errors="replace")
    first = next((line for line in err.splitlines() if line.strip()), "")
    if "Traceback" in err:
        first = "TRACEBACK: " + err.strip().splitlines()[-1]
    return float(seconds), int(kilobytes) / 1024, done.returncode, first


def journal_file(folder: Path, entries: int) -> Path:
    """A real exported journal of `entries` dice rolls (with actors and action ids)."""
    from jdr.dice import notation
    from jdr.journal import service
    from jdr.store import open_store

    store = open_store(f"sqlite:///{folder / 'bench.db'}")
    campaign = store.campaign_by_id(store.create_campaign("passion", "Bench"))
    expression = notation.parse("4d6kh3+2")
    for n in range(entries):
        service.roll_dice(store, campaign, expression, service.Who(f"player {n % 7}", f"p-{n}"))
    path = folder / "journal.json"
    path.write_text(json.dumps(service.export(store, campaign), ensure_ascii=False, indent=1))
    store.close()
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=8_500, help="entries of the real journal")
    args = parser.parse_args()
    rows: list[tuple[str, ...]] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        dotted = folder / "dotted.toml"
        dotted.write_text(".".join(["k"] * 20_000) + " = 1\n")  # 40 KB of one deep dotted key
        many = folder / "many.toml"
        many.write_text("".join(f"k{i} = {i}\n" for i in range(200_000)))
        fitting = folder / "fitting.toml"
        keys = "".join(f"k{i} = {i}\n" for i in range(18_000))
        fitting.write_text('system = "passion"\nname = "Kai"\n' + keys)
        journal = journal_file(folder, args.entries)
        data = json.loads(journal.read_text())
        data["entries"][0]["context"]["pad"] = "a" * 2_000_000
        huge = folder / "huge.json"
        huge.write_text(json.dumps(data))
        deep = folder / "deep.json"
        deep.write_text("[" * 100_000 + "]" * 100_000)
        cases: list[tuple[str, list[str], Path | None]] = [
            ("dice --odds 1d1000000", ["dice", "--odds", "1d1000000"], None),
            ("dice --odds 2d1000000", ["dice", "--odds", "2d1000000"], None),
            ("dice --odds 2d1000000 --json", ["dice", "--odds", "2d1000000", "--json"], None),
            ("dice 3d6 --faces (5,000 digits)", ["dice", "3d6", "--faces", "9" * 5000], None),
            (
                f"sheet validate ({dotted.stat().st_size // 1000} KB deep dotted key)",
                ["sheet", "validate", str(dotted)],
                None,
            ),
            (
                f"sheet validate (200,000 keys, {many.stat().st_size // 1000} KB)",
                ["sheet", "validate", str(many)],
                None,
            ),
            (
                f"sheet validate (18,000 keys, {fitting.stat().st_size // 1000} KB)",
                ["sheet", "validate", str(fitting)],
                None,
            ),
            (
                f"verify --json ({journal.stat().st_size / 1e6:.1f} MB, {args.entries} entries)",
                ["verify", str(journal), "--json"],
                None,
            ),
            (
                "verify --json (one entry of 2 MB)",
                ["verify", str(huge), "--json"],
                None,
            ),
            ("verify (100,000-deep JSON on stdin)", ["verify", "-"], deep),
            ("verify /dev/zero", ["verify", "/dev/zero"], None),
        ]
        for label, command, stdin in cases:
            seconds, megabytes, code, first = measure(command, stdin)
            answer = "answered" if code in (0, 1) else f"refused (exit {code})"
            ok = (
                seconds < TIME_TARGET_S
                and megabytes < MEMORY_TARGET_MB
                and not first.startswith("TRACEBACK")
            )
            rows.append(
                (
                    label,
                    answer,
                    f"{seconds:.2f}",
                    f"{megabytes:.0f}",
                    "ok" if ok else "OVER",
                    first[:90],
                )
            )
    header = ("case", "answer", "seconds", "peak MB", "target", "message")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for line in [header, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
    return 1 if any(r[4] != "ok" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
