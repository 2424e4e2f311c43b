"""Dice: random sources, scored pools, the generic dice notation."""

from jdr.dice.pool import DieRoll, Pool, PoolRoll, ScoredDie, Vector, roll_pool
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
    "Pool",
    "PoolRoll",
    "RandomSource",
    "Recording",
    "ScoredDie",
    "Seeded",
    "SystemRandom",
    "Vector",
    "make_source",
    "parse_faces",
    "roll_pool",
    "rolled_for",
]
