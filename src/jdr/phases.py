"""Where a request's time goes, phase by phase: an optional recorder, off by default.

A server started with `JDR_PHASES=1` in its environment records, for each request, the time
spent in each named phase (waiting for the campaign's writer lock, taking a connection from the
pool, deriving the dice, appending to the chain, committing…) and answers it in the standard
`Server-Timing` header (`benchmarks/bench_live.py` reads it). Off, `phase(name)` costs one
context-variable lookup and returns a shared do-nothing context manager.

>>> with recording() as times:
...     with phase("lock"):
...         pass
...     with phase("lock"):
...         pass
>>> sorted(times), times["lock"] >= 0
(['lock'], True)
>>> with phase("lock"):  # no record open: nothing is kept
...     "free"
'free'
>>> server_timing({"lock": 0.0123, "append": 0.001})
'lock;dur=12.3, append;dur=1.0'
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar

ENV = "JDR_PHASES"
"""The environment variable that turns the recorder on in `jdr serve` (`1`)."""

_RECORD: ContextVar[dict[str, float] | None] = ContextVar("jdr_phases", default=None)
_OFF: AbstractContextManager[None] = nullcontext()


def wanted() -> bool:
    """Whether the environment asks for phase timings (`JDR_PHASES=1`)."""
    return os.environ.get(ENV, "") not in ("", "0")


@contextmanager
def recording() -> Iterator[dict[str, float]]:
    """Record the phases of the block (a request): seconds per phase name, summed. Threads the
    block starts with a copy of its context (a web route's thread pool) record into it too."""
    times: dict[str, float] = {}
    token = _RECORD.set(times)
    try:
        yield times
    finally:
        _RECORD.reset(token)


def phase(name: str) -> AbstractContextManager[None]:
    """Time the block as `name` in the open record; nothing at all without one."""
    times = _RECORD.get()
    if times is None:
        return _OFF
    return _timed(times, name)


def add(name: str, seconds: float) -> None:
    """Add `seconds` to the phase `name` of the open record (a span that no block encloses:
    the writer lock held from the statement that took it to the commit)."""
    times = _RECORD.get()
    if times is not None:
        times[name] = times.get(name, 0.0) + seconds


@contextmanager
def _timed(times: dict[str, float], name: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        times[name] = times.get(name, 0.0) + time.perf_counter() - start


def server_timing(times: dict[str, float]) -> str:
    """The `Server-Timing` header value of a record (milliseconds, one decimal)."""
    return ", ".join(f"{name};dur={seconds * 1000:.1f}" for name, seconds in times.items())
