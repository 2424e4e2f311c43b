"""Exact distributions: pools, sums and the questions asked of them ("what are my odds?")."""

from jdr.prob.convolve import (
    convolve,
    die_distribution,
    pool_distribution,
    power,
    sum_distributions,
    unit,
)
from jdr.prob.distribution import Distribution, Probability

__all__ = [
    "Distribution",
    "Probability",
    "convolve",
    "die_distribution",
    "pool_distribution",
    "power",
    "sum_distributions",
    "unit",
]
