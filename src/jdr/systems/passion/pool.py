"""The Passion pool (PS-1, PS-2): any dice, even faces help, odd faces hurt.

Each die scores `(positives, negatives)`: its maximum face 2 positives, a 1 two negatives, any other
even face 1 positive, odd face 1 negative. A pool mixes sizes freely (`2d4+1d12`).

>>> from jdr.dice import GivenFaces, roll_pool
>>> pool = parse_dice("7d6")
>>> roll = roll_pool(pool, GivenFaces([2, 5, 4, 2, 3, 4, 4]))
>>> roll.total
(5, 2)
>>> roll.faces_text()
'2+ 5− 4+ 2+ 3− 4+ 4+'
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import NamedTuple

from jdr.dice.pool import Pool, ScoredDie, Vector
from jdr.dice.source import RandomSource
from jdr.errors import InputError
from jdr.i18n import _

SIZES = (4, 6, 8, 10, 12, 20, 30, 100)
"""PS-1: the sizes a player may roll (every one has an even maximum)."""
MAX_DICE = 200
_TERM = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*$", re.IGNORECASE)


def score(face: int, size: int) -> Vector:
    """PS-2: `(positives, negatives)` of one face."""
    if face == size:
        return (2, 0)
    if face == 1:
        return (0, 2)
    return (1, 0) if face % 2 == 0 else (0, 1)


def luck(size: int, face: int) -> int:
    """A face's luck for the journal's audit: its PS-2 positives minus its negatives."""
    positives, negatives = score(face, size)
    return positives - negatives


def _mark(face: int, size: int) -> str:
    positives, negatives = score(face, size)
    return "+" * positives + "−" * negatives


@cache
def passion_die(size: int) -> ScoredDie:
    """The scored die of `size` faces (PS-2); sizes outside PS-1 are refused."""
    if size not in SIZES:
        allowed = ", ".join(f"d{s}" for s in SIZES)
        raise InputError("dice", f"d{size}", allowed, _("not a Passion die size (PS-1)"))
    return ScoredDie.from_function(size, lambda f: score(f, size), lambda f: _mark(f, size))


@lru_cache(maxsize=1024)
def parse_dice(text: str) -> Pool:
    """`8d6`, `2d4+1d12` (PS-1; mixed sizes are the tool's reading) → a pool, sizes in order (a
    `Pool` is frozen: the last texts read are kept, a fight reads the same few again and again).

    >>> parse_dice("2d4 + 1d12").notation()
    '2d4+1d12'
    """
    counts: dict[int, int] = {}
    for term in text.split("+"):
        match = _TERM.match(term)
        if not match:
            raise InputError(
                "dice", text, _("NdX terms joined with +, e.g. 8d6 or 2d4+1d12"), _("not dice")
            )
        count = int(match.group(1) or 1)
        size = int(match.group(2))
        passion_die(size)  # refuses a size outside PS-1
        counts[size] = counts.get(size, 0) + count
    total = sum(counts.values())
    if total < 1:
        raise InputError("dice", text, f"1..{MAX_DICE}", _("a roll needs at least one die"))
    if total > MAX_DICE:
        raise InputError("dice", text, f"1..{MAX_DICE}", _("too many dice"))
    return Pool.of(*((passion_die(size), count) for size, count in counts.items()))


class Dice(NamedTuple):
    """Dice as a fight reads them: the pool, its notation (the canonical way) and its size."""

    pool: Pool
    notation: str
    number: int


@lru_cache(maxsize=1024)
def read_dice(text: str) -> Dice:
    """`parse_dice(text)` with its notation and its number of dice, kept the same way.

    >>> read_dice("2d6 + 1d4")[1:]
    ('2d6+1d4', 3)
    """
    pool = parse_dice(text)
    return Dice(pool, pool.notation(), pool.dice_count)


class Rolled(NamedTuple):
    """A rolled pool: the faces in roll order, each with its mark (`2+ 5− 6++`), and the summed
    `(positives, negatives)` (PS-2)."""

    faces: list[int]
    marks: str
    positives: int
    negatives: int


def roll_dice(pool: Pool, rng: RandomSource) -> Rolled:
    """What `roll_pool(pool, rng)` records of a pool of Passion dice (`parse_dice`): the same
    faces from `rng` (group by group), the same marks and totals, without a record per die (a
    fight rolls often).

    >>> from jdr.dice import GivenFaces
    >>> roll_dice(parse_dice("1d4+2d6"), GivenFaces([4, 1, 3]))
    Rolled(faces=[4, 1, 3], marks='4++ 1−− 3−', positives=2, negatives=3)
    """
    faces: list[int] = []
    marks: list[str] = []
    positives = negatives = 0
    for die, count in pool.groups:
        rolled = rng.faces(die.size, count)
        faces += rolled
        table = _faces(die.size)
        for face in rolled:
            plus, minus, mark = table[face - 1]
            positives += plus
            negatives += minus
            marks.append(mark)
    return Rolled(faces, " ".join(marks), positives, negatives)


@cache
def _faces(size: int) -> tuple[tuple[int, int, str], ...]:
    """Each face of a Passion die of `size` faces: its positives, its negatives and its mark
    (`4++`), as `roll_pool` shows it."""
    die = passion_die(size)
    table = []
    for face in range(1, size + 1):
        positives, negatives = die.score(face)
        table.append((positives, negatives, f"{face}{die.mark(face)}"))
    return tuple(table)
