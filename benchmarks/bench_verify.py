"""A long campaign verifies (issue 28): `jdr verify` on a journal of 100,000 entries.

    .venv/bin/python benchmarks/bench_verify.py [--entries 100000]

Writes the export of `--entries` generic dice rolls (`tests/big_journal.py`: about 670 bytes
each, 67 MB for 100,000) and a tenth of it, runs `jdr verify FILE --json` on each in a process
of its own, and prints the wall time, processor time and peak memory (maximum resident set,
GNU time) of each, and the ratio of their times (linear: about 10). Targets: every entry
verifies, peak memory under 500 MB, and the ratio under 15. Exit status 1 if one is missed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from big_journal import write_journal

MEMORY_TARGET_MB = 500
RATIO_TARGET = 15
JDR = [sys.executable, "-m", "jdr.cli.app"]


def measure(path: Path) -> tuple[float, float, float, Any]:
    """(wall s, processor s, peak MB, report) of `jdr verify PATH --json`."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        done = subprocess.run(
            [
                "/usr/bin/time",
                "-o",
                report.name,
                "-f",
                "%e %U %M",
                *JDR,
                "verify",
                str(path),
                "--json",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        wall, user, kilobytes = report.read().split()[-3:]
    return float(wall), float(user), int(kilobytes) / 1024, json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=100_000)
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as name:
        rows = []
        for entries in (args.entries // 10, args.entries):
            path = write_journal(Path(name) / f"journal-{entries}.json", entries)
            wall, user, peak, report = measure(path)
            size = path.stat().st_size / 1e6
            rows.append((entries, size, wall, user, peak, report))
            good = report["ok"] and report["entries"] == entries and peak < MEMORY_TARGET_MB
            ok = ok and good
            print(
                f"{entries:>7} entries, {size:5.1f} MB: {wall:6.1f} s wall, {user:6.1f} s"
                f" processor, {peak:5.0f} MB peak, {report['entries']} entries,"
                f" {report['results_checked']} results re-computed: {'ok' if good else 'OVER'}"
            )
        ratio = rows[1][3] / max(rows[0][3], 1e-9)
        ok = ok and ratio < RATIO_TARGET
        print(f"processor time ratio for 10 times the entries: {ratio:.1f} (linear: 10)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
