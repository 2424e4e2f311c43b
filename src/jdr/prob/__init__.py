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
from jdr.prob.keep import keep_pool_distribution

__all__ = [
    "Distribution",
    "Probability",
    "convolve",
    "die_distribution",
    "keep_pool_distribution",
    "pool_distribution",
    "power",
    "sum_distributions",
    "unit",
]
