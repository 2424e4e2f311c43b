"""What the benchmark scripts share: a median of timed runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_time(run: Callable[[], object], repeat: int) -> float:
    """The median, in seconds, of `repeat` timed calls of `run`."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
