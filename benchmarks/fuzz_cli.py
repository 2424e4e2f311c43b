"""The command-line fuzz test (`tests/test_fuzz_cli.py`) with many more examples per property.

    .venv/bin/python benchmarks/fuzz_cli.py [--examples N]

The suite runs 20 examples per property to stay fast; this runs `--examples` (default 1,000)
of each, and prints pytest's summary: any input that ends in an unhandled exception, or an exit
code other than 0, 1 or 2, fails with the smallest such input hypothesis finds.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000, help="examples per property")
    args = parser.parse_args()
    environment = {**os.environ, "JDR_FUZZ_EXAMPLES": str(args.examples)}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_fuzz_cli.py"],
        cwd=ROOT,
        env=environment,
        check=False,
    )
    print(f"{args.examples} examples per property in {time.perf_counter() - start:.0f} s")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
