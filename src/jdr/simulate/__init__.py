"""Whole-fight simulation: `simulate(system, setup, runs=…, seed=…, executor=…)` → `Report`."""

from jdr.simulate.core import DEFAULT_RUNS, Report, compare, run_seed, simulate, wilson

__all__ = ["DEFAULT_RUNS", "Report", "compare", "run_seed", "simulate", "wilson"]
