"""The exact engine on FLINT, and keep/drop by order statistics, against icepool, dyce and the
previous engine, in the same run, with each series' growth.

Run from the project root:

    .venv/bin/python benchmarks/bench_exact.py [--repeat 5] [--timeout 30] [--previous SRC]

For each case, the median of `--repeat` runs (one run when a run takes over a second) of:

- **jdr**: `pool_distribution(pool, exact=True)` on FLINT, or the notation's exact odds
  (`keep`: `odds(parse("4d6kh3"), exact=True)`), and the float engine for keep/drop;
- **built-in**: the same call with `jdr.prob.exact.using("python")`, the arithmetic jdr used before
  FLINT (and uses without it);
- **previous**: with `--previous SRC` (a checkout's `src`, e.g. `git worktree add /tmp/old
  6d03921`), the previous version's notation odds, in a child process (keep/drop only: its pools
  are the built-in column);
- **icepool** (`n @ die`, `pool(n).highest(k)`), **dyce** (`n @ H(s)`, `(n @ P(s)).at(…)`): a
  fresh die each run, so their caches do not answer, after both were warmed up on a small die;
  a run is stopped after `--timeout` seconds (shown `> N s`; icepool's `n @ die` also gives up
  past about 500 dice, recursing once per die).

Every jdr answer is compared with icepool's, Fraction for Fraction (exit status 1 if one
differs). The growth of each series is the least-squares log-log slope over its three largest
sizes timed (`> N s` leaves a size out). Each
exact case also prints `jdr.prob.cost`'s estimate beside its time.
"""

from __future__ import annotations

import argparse
import math
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from importlib import metadata
from typing import Any

import dyce
import icepool
from icepool.evaluator import SumEvaluator

from jdr.dice import Pool, ScoredDie
from jdr.dice.notation import odds, parse
from jdr.dice.notation.budget import estimate
from jdr.prob import Distribution, pool_distribution
from jdr.prob import exact as exact_engine
from jdr.prob.cost import pool_ns

Answer = dict[Any, Fraction]


# --- the cases ------------------------------------------------------------------------------------
def success(face: int) -> tuple[int, ...]:
    return (int(face >= 6),)


def success_failure(face: int) -> tuple[int, ...]:
    return (int(face >= 6), int(face == 1))


def plain(face: int) -> tuple[int, ...]:
    return (face,)


@dataclass(frozen=True)
class PoolCase:
    series: str
    size: int
    count: int
    score: Callable[[int], tuple[int, ...]]

    @property
    def name(self) -> str:
        return f"{self.count}d{self.size} {self.series}"

    def pool(self) -> Pool:
        return Pool.of((ScoredDie.from_function(self.size, self.score), self.count))

    def icepool(self) -> Any:
        faces = [self.score(face) for face in range(1, self.size + 1)]
        die = icepool.Die([icepool.Vector(f) if len(f) == 2 else f[0] for f in faces])
        return self.count @ die

    def dyce(self) -> Any:
        return self.count @ dyce.H(self.score(face)[0] for face in range(1, self.size + 1))


@dataclass(frozen=True)
class KeepCase:
    dice: int
    size: int
    kept: int

    @property
    def name(self) -> str:
        return f"{self.dice}d{self.size}kh{self.kept}"

    def icepool(self) -> Any:
        die = icepool.Die(list(range(1, self.size + 1)))
        return SumEvaluator().evaluate(die.pool(self.dice).highest(self.kept))

    def dyce(self) -> Any:
        return (self.dice @ dyce.P(dyce.H(self.size))).at(slice(-self.kept, None))


def pool_series() -> list[PoolCase]:
    cases = [PoolCase("sum", 6, n, plain) for n in (3, 5, 10)]
    cases += [PoolCase("sum", 10, n, plain) for n in (25, 50, 100, 200, 400)]
    cases += [PoolCase("sum", 100, n, plain) for n in (25, 50, 100, 200)]
    cases += [PoolCase("≥6", 10, n, success) for n in (50, 200, 1000)]
    cases += [PoolCase("(≥6, =1)", 10, n, success_failure) for n in (25, 50, 100, 200)]
    return cases


KEEPS = [KeepCase(4, 6, 3), KeepCase(10, 10, 3), KeepCase(20, 6, 5), KeepCase(40, 10, 10)]
KEEPS += [KeepCase(100, 6, 50), KeepCase(100, 20, 50)]


# --- timing ---------------------------------------------------------------------------------------
def median_ms(run: Callable[[], object], repeat: int) -> tuple[float, object]:
    """The median of `repeat` runs in ms (one run if it takes over a second), and the answer."""
    start = time.perf_counter()
    answer = run()
    first = time.perf_counter() - start
    if first > 1.0:
        return first * 1000, answer
    times = [first]
    for _ in range(repeat - 1):
        start = time.perf_counter()
        answer = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, answer


class _TooLongError(Exception):
    pass


def _stop(_signal: int, _frame: object) -> None:
    raise _TooLongError


def timed(run: Callable[[], object], timeout: float) -> tuple[float, object] | None:
    """One run in ms and its answer, or None when it is stopped after `timeout` seconds (the
    peers are pure Python: a timer signal interrupts them)."""
    previous = signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        start = time.perf_counter()
        answer = run()
        return (time.perf_counter() - start) * 1000, answer
    except (_TooLongError, RecursionError):  # icepool's `n @ die` recurses once per die
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def warm_up_peers() -> None:
    """Each peer's imports and module-level tables, once: the runs then time the computation
    alone (each on a fresh die, so that no cached answer is reused)."""
    die = icepool.Die([1, 2, 3])
    _ = (2 @ die, SumEvaluator().evaluate(die.pool(3).highest(2)), 2 @ icepool.Die([(0, 1)]))
    _ = (2 @ dyce.H(3), (3 @ dyce.P(3)).at(slice(-2, None)))


def peer(run: Callable[[], object], convert: Callable[[object], Answer], args: Any) -> Any:
    """A peer's median ms and answer (one run past a second), or None past the timeout."""
    first = timed(run, args.timeout)
    if first is None:
        return None
    times = [first[0]]
    if first[0] < 1000:
        more = [timed(run, args.timeout) for _ in range(args.repeat - 1)]
        times += [ms for ms, _ in filter(None, more)]
    return statistics.median(times), convert(first[1])


# --- answers as {outcome: Fraction} -------------------------------------------------------------
def ours(dist: Distribution) -> Answer:
    return {(v[0] if dist.width == 1 else v): Fraction(p) for v, p in dist.items()}


def from_icepool(die: Any) -> Answer:
    total = die.denominator()
    answer: Answer = {}
    for outcome, quantity in die.items():
        key = tuple(int(x) for x in outcome) if isinstance(outcome, icepool.Vector) else outcome
        answer[key] = Fraction(quantity, total)
    return answer


def from_dyce(histogram: Any) -> Answer:
    total = histogram.total
    return {int(outcome): Fraction(count, total) for outcome, count in histogram.items()}


def previous_ms(src: str, text: str, exact: bool, repeat: int, timeout: float) -> str:
    """The previous version's notation odds, timed in a child process with its own `src`."""
    code = (
        "import time, statistics\n"
        "from jdr.dice.notation import odds, parse\n"
        f"e = parse({text!r}); t = []\n"
        f"for _ in range({repeat}):\n"
        "    s = time.perf_counter()\n"
        "    try:\n"
        f"        odds(e, exact={exact})\n"
        "    except Exception as error:\n"
        "        print(type(error).__name__); raise SystemExit\n"
        "    t.append(time.perf_counter() - s)\n"
        "print(f'{statistics.median(t) * 1000:.3f}')\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f} s"
    text_out = done.stdout.strip() or done.stderr.strip().splitlines()[-1]
    return "refused" if text_out == "LimitError" else text_out


# --- the report -----------------------------------------------------------------------------------
def show(value: Any, timeout: float) -> str:
    if value is None:
        return f"> {timeout:.0f} s"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def slope(points: list[tuple[int, float | None]]) -> str:
    """The least-squares slope of log(time) over log(dice), on the three largest sizes timed."""
    known = [(math.log(n), math.log(ms)) for n, ms in points if ms is not None][-3:]
    if len(known) < 2:
        return "-"
    mean_x = statistics.fmean(x for x, _ in known)
    mean_y = statistics.fmean(y for _, y in known)
    covariance = sum((x - mean_x) * (y - mean_y) for x, y in known)
    return f"{covariance / sum((x - mean_x) ** 2 for x, _ in known):.2f}"


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing (median kept)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds allowed a run")
    parser.add_argument("--previous", metavar="SRC", help="the previous version's src folder")
    args = parser.parse_args(argv)
    versions = f"icepool {icepool.__version__}, dyce {metadata.version('dyce')}"
    print(f"{versions}, Python {sys.version.split()[0]}, exact engine: {exact_engine.engine()}")
    pool_distribution(Pool.of((ScoredDie.sum(6), 3)), exact=True)  # FLINT imported once
    warm_up_peers()
    ok = True
    rows: list[tuple[str, ...]] = []
    growth: dict[str, dict[str, list[tuple[int, float | None]]]] = {}
    for case in pool_series():
        pool = case.pool()

        def distribution(pool: Pool = pool) -> Distribution:
            return pool_distribution(pool, exact=True)

        jdr_ms, dist = median_ms(distribution, args.repeat)
        builtin: float | None = None
        if pool_ns(pool, "python") < args.timeout * 1e9:
            with exact_engine.using("python"):
                builtin = median_ms(distribution, args.repeat)[0]
        ice = peer(case.icepool, from_icepool, args)
        two = case.pool().width == 2  # dyce adds numbers: no two-component outcomes
        dy = None if two else peer(case.dyce, from_dyce, args)
        answer = ours(dist)  # type: ignore[arg-type]
        same = (ice is None or ice[1] == answer) and (dy is None or dy[1] == answer)
        ok = ok and same
        series = growth.setdefault(f"d{case.size} {case.series}", {})
        timings = [("jdr", jdr_ms), ("built-in", builtin), ("icepool", ice and ice[0])]
        if not two:
            timings.append(("dyce", dy and dy[0]))
        for label, ms in timings:
            series.setdefault(label, []).append((case.count, ms))
        rows.append(
            (
                case.name,
                f"{jdr_ms:.3f}",
                f"{pool_ns(pool) / 1e6:.3f}",
                show(builtin, args.timeout),
                show(ice and ice[0], args.timeout),
                "n/a" if two else show(dy and dy[0], args.timeout),
                "yes" if same else "NO",
            )
        )
    print("\nExact pools (ms; estimate: jdr.prob.cost)")
    header: tuple[str, ...] = ("case", "jdr", "estimate", "built-in", "icepool", "dyce", "= peers")
    table(header, rows)

    print("\nGrowth: log-log slope over the three largest sizes timed")
    slopes = [
        (name, *(slope(by.get(label, [])) for label in ("jdr", "built-in", "icepool", "dyce")))
        for name, by in growth.items()
        if len(by["jdr"]) > 2
    ]
    table(("series", "jdr", "built-in", "icepool", "dyce"), slopes)

    keep_rows: list[tuple[str, ...]] = []
    for keep in KEEPS:
        expression = parse(keep.name)

        def exact_odds(e: Any = expression) -> Distribution:
            return odds(e, exact=True)

        def float_odds(e: Any = expression) -> Distribution:
            return odds(e)

        exact_ms, dist = median_ms(exact_odds, args.repeat)
        float_ms, _ = median_ms(float_odds, args.repeat)
        ice = peer(keep.icepool, from_icepool, args)
        dy = peer(keep.dyce, from_dyce, args)
        answer = ours(dist)  # type: ignore[arg-type]
        same = (ice is None or ice[1] == answer) and (dy is None or dy[1] == answer)
        ok = ok and same
        previous = ("-", "-")
        if args.previous:
            previous = (
                previous_ms(args.previous, keep.name, True, args.repeat, args.timeout),
                previous_ms(args.previous, keep.name, False, args.repeat, args.timeout),
            )
        keep_rows.append(
            (
                keep.name,
                f"{exact_ms:.3f}",
                f"{estimate(expression, True) / 1e6:.3f}",
                f"{float_ms:.3f}",
                *previous,
                show(ice and ice[0], args.timeout),
                show(dy and dy[0], args.timeout),
                "yes" if same else "NO",
            )
        )
    print("\nKeep the highest (ms; estimate: jdr.dice.notation.budget)")
    header = (
        "case",
        "jdr exact",
        "estimate",
        "jdr float",
        "previous exact",
        "previous float",
        "icepool",
        "dyce",
        "= peers",
    )
    table(header, keep_rows)
    print("\nanswers Fraction-equal to icepool and dyce" if ok else "\nANSWERS DIFFER")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
