"""How fast is jdr's float engine next to icepool, on the same pools, with the same answers?

Run from the project root:

    .venv/bin/python benchmarks/bench_prob.py [--repeat 9] [--icepool-timeout 180]

Three pools, each computed by `jdr.prob.pool_distribution` (float engine) and by icepool:

1. 200 dice × 100 faces, Passion scoring (two components: positives, negatives);
2. 50 d10, two components (face ≥ 6, face = 1);
3. 20 d10, one component (successes: face ≥ 6).

jdr's figure is the median of `--repeat` runs. icepool's figure is for a *cold* computation: a
fresh `Die` and a fresh `SumEvaluator` every run, so that icepool's caches (which would otherwise
turn a repeated question into a dictionary look-up) do not count; the faster of
`die.pool(n).sum()` and `n @ die` is kept. Case 1 is too slow for icepool to repeat: it runs
once, in a child process that is stopped after `--icepool-timeout` seconds. Each case checks that
both libraries give the same probabilities (largest absolute difference below 1e-9); the script
exits with status 1 if they do not.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import queue as queue_module
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import icepool
from icepool.evaluator import SumEvaluator

from jdr.dice import Pool, ScoredDie, Vector
from jdr.prob import Distribution, pool_distribution

TOLERANCE = 1e-9
JDR_BUDGET_MS = 50.0  # case 1 must stay under this on the reference machine

Outcomes = dict[Vector, float]


# --- the three pools, written once as a face → score vector function -----------------------------
def passion_score(size: int) -> Callable[[int], Vector]:
    """Passion: the top face is 2 positives, a 1 is 2 negatives, else even → +1, odd → −1."""

    def score(face: int) -> Vector:
        if face == size:
            return (2, 0)
        if face == 1:
            return (0, 2)
        return (1, 0) if face % 2 == 0 else (0, 1)

    return score


def success_and_failure(face: int) -> Vector:
    return (int(face >= 6), int(face == 1))


def success(face: int) -> Vector:
    return (int(face >= 6),)


@dataclass(frozen=True)
class Case:
    name: str
    size: int
    count: int
    score: Callable[[int], Vector]
    icepool_once: bool = False  # too slow to repeat: one run in a child process, with a timeout

    def jdr_pool(self) -> Pool:
        return Pool.of((ScoredDie.from_function(self.size, self.score), self.count))

    def icepool_die(self) -> Any:
        """The same die for icepool: a pair becomes an `icepool.Vector`, summed slot by slot."""
        return icepool.d(self.size).map(
            lambda face: (
                icepool.Vector(self.score(face))
                if len(self.score(face)) == 2
                else self.score(face)[0]
            )
        )


CASES = [
    Case("200d100 Passion (2 comp.)", 100, 200, passion_score(100), icepool_once=True),
    Case("50d10 (≥6, =1) (2 comp.)", 10, 50, success_and_failure),
    Case("20d10 successes ≥6", 10, 20, success),
]


# --- timing ---------------------------------------------------------------------------------------
def time_jdr(case: Case, repeat: int) -> tuple[float, Distribution]:
    pool = case.jdr_pool()
    times = []
    dist = pool_distribution(pool)
    for _ in range(repeat):
        start = time.perf_counter()
        dist = pool_distribution(pool)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, dist


def icepool_cold(case: Case, method: str) -> tuple[float, Any]:
    """One cold icepool computation: a fresh die and a fresh evaluator (no cache carried over)."""
    die = case.icepool_die()
    start = time.perf_counter()
    result = SumEvaluator().evaluate(die.pool(case.count)) if method == "pool" else case.count @ die
    return (time.perf_counter() - start) * 1000, result


def time_icepool(case: Case, repeat: int) -> tuple[float, str, Any]:
    best: tuple[float, str, Any] | None = None
    for method in ("pool", "@"):
        icepool_cold(case, method)  # warm-up of icepool's own imports and module-level tables
        runs = [icepool_cold(case, method) for _ in range(repeat)]
        median = statistics.median(ms for ms, _ in runs)
        if best is None or median < best[0]:
            best = (median, method, runs[-1][1])
    assert best is not None
    return best


def time_icepool_warm(case: Case, repeat: int) -> float:
    """icepool asked the same question again, its shared evaluator's cache warm (for the notes)."""
    die = case.icepool_die()
    die.pool(case.count).sum()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        die.pool(case.count).sum()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _icepool_child(case: Case, queue: Any) -> None:
    ms, die = icepool_cold(case, "pool")
    queue.put((ms, to_outcomes(die)))


def time_icepool_once(case: Case, timeout: float) -> tuple[float, Outcomes] | None:
    """Case 1: one cold run in a child process, stopped after `timeout` seconds (None then)."""
    context = mp.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_icepool_child, args=(case, queue))
    child.start()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and (child.is_alive() or not queue.empty()):
        try:
            ms, outcomes = queue.get(timeout=0.5)
        except queue_module.Empty:
            continue
        child.join()
        return ms, outcomes
    child.terminate()
    child.join()
    return None


# --- comparing the answers ------------------------------------------------------------------------
def to_outcomes(die: Any) -> Outcomes:
    """icepool's outcome → probability, as `{(a, b): p}` floats (exact quantities, rounded once)."""
    denominator = die.denominator()
    outcomes: Outcomes = {}
    for outcome, quantity in die.items():
        parts = outcome if isinstance(outcome, icepool.Vector) else (outcome,)
        key = tuple(int(x) for x in parts)
        outcomes[key] = float(Fraction(quantity, denominator))
    return outcomes


def max_difference(dist: Distribution, outcomes: Outcomes) -> float:
    ours = {vector: float(p) for vector, p in dist.items()}
    keys = ours.keys() | outcomes.keys()
    return max(abs(ours.get(k, 0.0) - outcomes.get(k, 0.0)) for k in keys)


# --- the report -----------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=9, help="runs per timing (median kept)")
    parser.add_argument(
        "--icepool-timeout", type=float, default=180.0, help="seconds allowed to icepool in case 1"
    )
    args = parser.parse_args(argv)

    print(f"icepool {icepool.__version__}, Python {sys.version.split()[0]}")
    rows: list[tuple[str, str, str, str, str]] = []
    notes: list[str] = []
    ok = True
    for case in CASES:
        jdr_ms, dist = time_jdr(case, args.repeat)
        if case.icepool_once:
            once = time_icepool_once(case, args.icepool_timeout)
            if once is None:
                rows.append(
                    (case.name, f"{jdr_ms:.3f}", f"> {args.icepool_timeout:.0f} s", "-", "-")
                )
                notes.append(f"{case.name}: icepool stopped after {args.icepool_timeout:.0f} s.")
                continue
            ice_ms, outcomes = once
            method = "pool, 1 run"
        else:
            ice_ms, method, die = time_icepool(case, args.repeat)
            outcomes = to_outcomes(die)
            warm = time_icepool_warm(case, args.repeat)
            notes.append(
                f"{case.name}: icepool asked again with its caches warm: {warm:.3f} ms "
                f"({warm / jdr_ms:.1f}× jdr's uncached time)."
            )
        diff = max_difference(dist, outcomes)
        ok = ok and diff < TOLERANCE
        rows.append(
            (
                case.name,
                f"{jdr_ms:.3f}",
                f"{ice_ms:.3f} ({method})",
                f"{ice_ms / jdr_ms:.0f}×",
                f"{diff:.1e}",
            )
        )
        if case.icepool_once:
            verdict = "under" if jdr_ms < JDR_BUDGET_MS else "OVER"
            notes.append(
                f"{case.name}: jdr {jdr_ms:.1f} ms, {verdict} the {JDR_BUDGET_MS:.0f} ms budget."
            )

    header = ("case", "jdr ms", "icepool ms", "icepool/jdr", "max |diff|")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    for note in notes:
        print(note)
    print("results agree (max |diff| < 1e-9)" if ok else "RESULTS DIFFER")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
