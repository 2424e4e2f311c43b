"""What a roll of an expression keeps: every die, every face, what each counted for.

The explanation is rendered from this record (`explain.py`), never by rolling again.
"""

from __future__ import annotations

from dataclasses import dataclass

from jdr.dice.notation.explain import explain
from jdr.dice.notation.tree import DiceTerm, Expression, Term


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
    rerolled: tuple[int, ...] = ()
    """The faces rolled before and rolled again (`r1`), first first; they count for nothing."""
    shift: int = 0
    """What the faces add to become the value: −2 for a Fate die (faces 1..3 read −1..+1)."""

    @property
    def value(self) -> int:
        """The die's value: the sum of its chain of faces (a Fate die's face read −1..+1)."""
        return sum(self.faces) + self.shift


@dataclass(frozen=True)
class TermRoll:
    """One term, rolled: its dice (none for a constant) and its value, without its sign."""

    term: Term
    dice: tuple[DieResult, ...]
    value: int
    inner: DiceRoll | None = None
    """A term in parentheses (`(1d6+2)*2`): the roll of what is inside."""

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

    @property
    def label(self) -> str:
        """The roll's label (`#Attaque`), empty without one."""
        return self.expression.label

    def labels(self) -> dict[str, int]:
        """What each labelled term added to the total, by its label (`1d8+1d6[feu]`: feu)."""
        found: dict[str, int] = {}
        for term in self.terms:
            if isinstance(term.term, DiceTerm) and term.term.label:
                found[term.term.label] = found.get(term.term.label, 0) + term.signed
            elif term.inner is not None:
                for label, value in term.inner.labels().items():
                    found[label] = found.get(label, 0) + value
        return found

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
