"""A rolled expression as one line of text, in the manner of d20:

`4d6kh3 (5, 3, ~~1~~, 6) = 14`, `4d10>=6f1 (7✓, 1✗, 2, 6✓) = 1`, `3d6! (6!+4, 2, 3) = 15`,
`1d20 (12) + 5 - 1d4 (3) = 14`.

A die is its chain of faces joined with `+`, each face that exploded marked `!`; a success is
followed by `✓`, a failure by `✗`; a dropped die is struck through with `~~`, without marks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jdr.dice.notation.tree import DiceTerm

if TYPE_CHECKING:
    from jdr.dice.notation.result import DiceRoll, DieResult, TermRoll


def explain(record: DiceRoll) -> str:
    """The record as one line: `term (dice) ± term … = total`."""
    parts = []
    for index, term in enumerate(record.terms):
        if term.term.sign < 0:
            parts.append("-" if index == 0 else " - ")
        elif index:
            parts.append(" + ")
        parts.append(term_text(term))
    return f"{''.join(parts)} = {record.total}"


def term_text(term: TermRoll) -> str:
    """`4d6kh3 (5, 3, ~~1~~, 6)` for dice, the number itself for a constant."""
    if not isinstance(term.term, DiceTerm):
        return term.term.text
    dice = ", ".join(die_text(die, term.term.size) for die in term.dice)
    return f"{term.term.text} ({dice})"


def die_text(die: DieResult, size: int) -> str:
    """`6!+4✓`: the faces (exploded ones marked `!`), the mark; struck through when dropped."""
    last = len(die.faces) - 1
    chain = "+".join(
        f"{face}!" if index < last and face == size else str(face)
        for index, face in enumerate(die.faces)
    )
    return chain + die.mark if die.kept else f"~~{chain}~~"
