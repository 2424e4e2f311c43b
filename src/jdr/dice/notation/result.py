"""What a roll of an expression keeps: every die, every face, what each counted for.

The explanation is rendered from this record (`explain.py`), never by rolling again.
"""

from __future__ import annotations

from dataclasses import dataclass

from jdr.dice.notation.explain import explain
from jdr.dice.notation.tree import Expression, Term


@dataclass(frozen=True)
class DieResult:
    """One die: its faces (the first face, then one per explosion) and whether it was kept.

    `counted` is what it added to its term (its value, or its successes − failures; 0 when
    dropped) and `mark` what it shows for that: `✓`, `✗`, both or nothing.
    """

    faces: tuple[int, ...]
    kept: bool = True
    counted: int = 0
    mark: str = ""

    @property
    def value(self) -> int:
        """The die's value: the sum of its chain of faces."""
        return sum(self.faces)


@dataclass(frozen=True)
class TermRoll:
    """One term, rolled: its dice (none for a constant) and its value, without its sign."""

    term: Term
    dice: tuple[DieResult, ...]
    value: int

    @property
    def signed(self) -> int:
        """What the term adds to the total: its value with its sign."""
        return self.term.sign * self.value


@dataclass(frozen=True)
class DiceRoll:
    """A rolled expression: per-term results, every face in the order drawn, and the total.

    >>> from jdr.dice import GivenFaces
    >>> from jdr.dice.notation import parse, roll
    >>> record = roll(parse("4d6kh3"), GivenFaces([5, 3, 1, 6]))
    >>> record.total, record.faces
    (14, [5, 3, 1, 6])
    """

    expression: Expression
    terms: tuple[TermRoll, ...]
    faces: list[int]
    total: int

    def explain(self) -> str:
        """One line: each term with its dice, then the total.

        >>> from jdr.dice import GivenFaces
        >>> from jdr.dice.notation import parse, roll
        >>> roll(parse("4d10>=6f1"), GivenFaces([7, 1, 2, 6])).explain()
        '4d10>=6f1 (7✓, 1✗, 2, 6✓) = 1'
        >>> roll(parse("3d6!+2"), GivenFaces([6, 2, 3, 4])).explain()
        '3d6! (6!+4, 2, 3) + 2 = 17'
        """
        return explain(self)
