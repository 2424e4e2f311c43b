"""Dice: random sources, scored pools, the generic dice notation."""

from jdr.dice.keep import KeepPool, KeepRoll, roll_keep
from jdr.dice.pool import DieRoll, Pool, PoolRoll, ScoredDie, Vector, count_pool, roll_pool
from jdr.dice.source import (
    GivenFaces,
    RandomSource,
    Recording,
    Seeded,
    SystemRandom,
    make_source,
    parse_faces,
    rolled_for,
)

__all__ = [
    "DieRoll",
    "GivenFaces",
    "KeepPool",
    "KeepRoll",
    "Pool",
    "PoolRoll",
    "RandomSource",
    "Recording",
    "ScoredDie",
    "Seeded",
    "SystemRandom",
    "Vector",
    "count_pool",
    "make_source",
    "parse_faces",
    "roll_keep",
    "roll_pool",
    "rolled_for",
]
