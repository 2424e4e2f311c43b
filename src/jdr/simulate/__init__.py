"""Whole-fight simulation: `simulate(system, setup, runs=…, seed=…, executor=…)` → `Report`;
`play_fight` plays one of its runs and keeps every event."""

from jdr.simulate.core import (
    DEFAULT_RUNS,
    Played,
    Report,
    compare,
    play_fight,
    run_seed,
    simulate,
    wilson,
)

__all__ = [
    "DEFAULT_RUNS",
    "Played",
    "Report",
    "compare",
    "play_fight",
    "run_seed",
    "simulate",
    "wilson",
]
