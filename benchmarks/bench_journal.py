"""How fast the campaign journal derives dice, hashes entries, verifies a journal and audits luck.

    .venv/bin/python benchmarks/bench_journal.py [--faces N] [--entries N] [--repeat N]

On this machine, each figure the median of `--repeat` runs unless said otherwise:

- **derivation**: faces per second of `Derived(seed, context).faces(size, n)` for a d20 and a d6
  (HMAC-SHA256 stream, rejection sampling), against two reference tools drawing the same faces:
  `random.Random().randint` (Mersenne Twister, not verifiable) and `secrets.randbelow` (the OS's
  generator, not verifiable); the ratio is each tool's speed / the derivation's speed (above
  1×: faster than `Derived`);
- **entry hashing**: entries per second of `make_entry(...)` then `.hash` on a realistic roll;
- **verify**: `verify(journal)` (no replayer: chain, hashes and every die re-derived) on a
  synthetic exported journal of `--entries` entries with 5 derived dice each; the report must be
  ok;
- **luck audit**: `audit` of 10,000 d20 + 5,000 d6 for one actor (float engine), and of 200 d20
  with `exact=True` (Fractions).

Exit status 1 if the verification report is not ok. About 15 s.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from typing import Any

from jdr.dice.verifiable import Derived, commitment
from jdr.journal.entries import GENESIS, Entry, dice, make_entry
from jdr.journal.luck import audit
from jdr.journal.verify import verify
from timing import median_time

SEED = bytes(range(32))
CAMPAIGN = "bench"
ACTORS = ["Ayla", "Bram", "Cyd", "Dora"]
SIZES = [20, 6, 6, 8, 100]  # the 5 dice of every synthetic journal entry

Row = tuple[str, str, str, str, str]


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s"


def context(seq: int) -> dict[str, Any]:
    return {
        "campaign": CAMPAIGN,
        "action_id": f"#{seq}",
        "seq": seq,
        "actor": ACTORS[seq % len(ACTORS)],
        "action": "test",
        "params": {"skill": "stealth", "bonus": seq % 5, "difficulty": 12},
    }


# --- derivation against the reference tools -------------------------------------------------------
TOOLS = ("Derived (HMAC-SHA256)", "random.Random().randint", "secrets.randbelow")


def derivation(size: int, n: int, repeat: int) -> list[float]:
    """Seconds for `n` faces: `Derived`, `random.Random().randint`, `secrets.randbelow`."""

    def derived() -> list[int]:
        return Derived(SEED, {"campaign": CAMPAIGN, "seq": 1, "action": "bench"}).faces(size, n)

    def mersenne() -> list[int]:
        rng = random.Random(1)
        return [rng.randint(1, size) for _ in range(n)]

    def system() -> list[int]:
        return [secrets.randbelow(size) + 1 for _ in range(n)]

    faces = derived()
    assert len(faces) == n and min(faces) == 1 and max(faces) == size
    return [median_time(run, repeat) for run in (derived, mersenne, system)]


# --- entries --------------------------------------------------------------------------------------
def hashing(count: int, repeat: int) -> float:
    """Seconds for `count` chained make_entry + .hash on a realistic roll."""
    c = commitment(SEED)
    rolled = dice([[20, 17], [6, 4], [6, 2], [8, 8], [100, 63]])
    result = {"total": 17, "success": True, "margin": 5, "faces": [17, 4, 2, 8, 63], "crit": False}

    def run() -> None:
        previous = GENESIS
        for seq in range(1, count + 1):
            previous = make_entry(seq, previous, c, context(seq), rolled, result).hash

    return median_time(run, repeat)


def synthetic_journal(count: int) -> dict[str, Any]:
    """An exported journal of `count` entries, 5 dice each derived from SEED, chained."""
    c = commitment(SEED)
    entries: list[Entry] = []
    previous = GENESIS
    for seq in range(1, count + 1):
        ctx = context(seq)
        source = Derived(SEED, ctx)
        rolls = [[size, source.faces(size, 1)[0]] for size in SIZES]
        faces = [face for _size, face in rolls]
        entry = make_entry(seq, previous, c, ctx, dice(rolls), {"total": sum(faces)})
        entries.append(entry)
        previous = entry.hash
    return {
        "format": "jdr-journal",
        "v": 1,
        "campaign": CAMPAIGN,
        "system": "none",
        "epochs": [{"number": 1, "commitment": c, "seed": SEED.hex()}],
        "entries": [e.to_json() for e in entries],
    }


# --- luck -----------------------------------------------------------------------------------------
def luck_rolls(d20: int, d6: int) -> list[tuple[str, list[tuple[int, int]]]]:
    """One actor's rolls: d20s alone, then d6s three at a time (seeded faces)."""
    rng = random.Random(1)
    rolls: list[tuple[str, list[tuple[int, int]]]] = [
        ("Ayla", [(20, rng.randint(1, 20))]) for _ in range(d20)
    ]
    for start in range(0, d6, 3):
        rolls.append(("Ayla", [(6, rng.randint(1, 6)) for _ in range(min(3, d6 - start))]))
    return rolls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--faces", type=int, default=100_000, help="faces per derivation run")
    parser.add_argument("--entries", type=int, default=10_000, help="entries in the journal")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (median kept)")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, median of {args.repeat} runs unless said otherwise")

    rows: list[Row] = []
    notes: list[str] = []
    for size in (20, 6):
        timings = derivation(size, args.faces, args.repeat)
        ours = timings[0]
        what = f"faces(d{size}, {args.faces:,})"
        for tool, seconds in zip(TOOLS, timings, strict=True):
            ratio = f"{ours / seconds:.2f}×"
            rows.append((what, tool, f"{seconds:.3f}", rate(args.faces, seconds), ratio))

    hashed = hashing(args.entries, args.repeat)
    rows.append(
        (
            f"{args.entries:,} entries",
            "make_entry + .hash (chained)",
            f"{hashed:.3f}",
            rate(args.entries, hashed),
            "",
        )
    )

    start = time.perf_counter()
    journal = synthetic_journal(args.entries)
    built = time.perf_counter() - start
    rows.append(
        (
            f"{args.entries:,} entries × {len(SIZES)} dice",
            "build journal (derive + make_entry, once)",
            f"{built:.3f}",
            rate(args.entries, built),
            "",
        )
    )
    reports = []

    def check() -> None:
        reports.append(verify(journal))

    verified = median_time(check, args.repeat)
    report = reports[-1]
    ok = (
        report.ok
        and report.entries == args.entries
        and report.dice_checked == args.entries * len(SIZES)
    )
    rows.append(
        (
            f"{args.entries:,} entries × {len(SIZES)} dice",
            "verify (no replayer)",
            f"{verified:.3f}",
            rate(args.entries, verified),
            "",
        )
    )
    notes.append(
        f"verify: ok={report.ok}, entries={report.entries}, dice_checked={report.dice_checked}, "
        f"not_replayed={len(report.not_replayed)}, problems={len(report.problems)}"
    )

    rolls = luck_rolls(10_000, 5_000)
    results: list[Any] = []
    floats = median_time(lambda: results.append(audit(rolls)), args.repeat)
    [ayla] = results[-1]
    rows.append(("10,000 d20 + 5,000 d6", "audit (float)", f"{floats:.3f}", "", ""))
    notes.append(
        f"audit float: {ayla.rolls:,} rolls, {ayla.dice:,} dice, observed {ayla.observed}, "
        f"mean {ayla.mean:.1f}, percentile {ayla.percentile:.4f}"
    )
    rng = random.Random(2)
    exact_rolls = [("Ayla", [(20, rng.randint(1, 20))]) for _ in range(200)]
    start = time.perf_counter()
    [exact] = audit(exact_rolls, exact=True)
    exact_time = time.perf_counter() - start
    rows.append(("200 d20", "audit (exact=True, 1 run)", f"{exact_time:.3f}", "", ""))
    notes.append(
        f"audit exact: percentile is a {type(exact.percentile).__name__}"
        f" ≈ {float(exact.percentile):.6f}"
    )

    header: Row = ("case", "what", "seconds", "rate", "speed vs Derived")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    for note in notes:
        print(note)
    print("verification ok" if ok else "VERIFICATION FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
