"""A rolled expression as one line of text, in the manner of d20:

`4d6kh3 (5, 3, ~~1~~, 6) = 14`, `4d10>=6f1 (7✓, 1✗, 2, 6✓) = 1`, `3d6! (6!+4, 2, 3) = 15`,
`1d20 (12) + 5 - 1d4 (3) = 14`, `3d6r1 (~~1~~→4, 2, 5) = 11`, `4dF (+, 0, -, +) = 1`,
`(1d6 (4) + 2)*2 = 12`, `Attaque: 1d20 (12) + 5 = 17`.

A die is its chain of faces joined with `+`, each face that exploded marked `!`; a success is
followed by `✓`, a failure by `✗`; a dropped die is struck through with `~~`, without marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from jdr.dice.notation.tree import DiceTerm, Scaled, Term


class DieRecord(Protocol):
    """What the line reads of a die (`jdr.dice.notation.result.DieResult`)."""

    @property
    def faces(self) -> tuple[int, ...]: ...
    @property
    def kept(self) -> bool: ...
    @property
    def mark(self) -> str: ...
    @property
    def rerolled(self) -> tuple[int, ...]: ...


class TermRecord(Protocol):
    """What the line reads of a rolled term (`jdr.dice.notation.result.TermRoll`)."""

    @property
    def term(self) -> Term: ...
    @property
    def dice(self) -> Sequence[DieRecord]: ...
    @property
    def inner(self) -> RollRecord | None: ...


class RollRecord(Protocol):
    """What the line reads of a rolled expression (`jdr.dice.notation.result.DiceRoll`, which
    renders itself through `explain`)."""

    @property
    def label(self) -> str: ...
    @property
    def terms(self) -> Sequence[TermRecord]: ...
    @property
    def total(self) -> int: ...


def explain(record: RollRecord) -> str:
    """The record as one line: `label: term (dice) ± term … = total`."""
    head = f"{record.label}: " if record.label else ""
    return f"{head}{terms_text(record)} = {record.total}"


def terms_text(record: RollRecord) -> str:
    """`term (dice) ± term …`, without the total."""
    parts = []
    for index, term in enumerate(record.terms):
        if term.term.sign < 0:
            parts.append("-" if index == 0 else " - ")
        elif index:
            parts.append(" + ")
        parts.append(term_text(term))
    return "".join(parts)


def term_text(term: TermRecord) -> str:
    """`4d6kh3 (5, 3, ~~1~~, 6)` for dice, the number itself for a constant."""
    if isinstance(term.term, Scaled) and term.inner is not None:
        steps = "".join(f"{operator}{number}" for operator, number in term.term.steps)
        inner = terms_text(term.inner)
        bare = len(term.inner.terms) == 1 and term.inner.terms[0].term.sign > 0
        return (inner if bare else f"({inner})") + steps
    if not isinstance(term.term, DiceTerm):
        return term.term.text
    dice = ", ".join(die_text(die, term.term.size, term.term.fate) for die in term.dice)
    return f"{term.term.text} ({dice})"


def die_text(die: DieRecord, size: int, fate: bool = False) -> str:
    """`6!+4✓`: the faces (exploded ones marked `!`), the mark; struck through when dropped.
    A rerolled face comes first, struck through, then `→` (`~~1~~→4`); a Fate die shows
    `+`, `0` or `-`."""
    last = len(die.faces) - 1
    if fate:
        chain = _fate(die.faces[0])
    else:
        chain = "+".join(
            f"{face}!" if index < last and face == size else str(face)
            for index, face in enumerate(die.faces)
        )
    shown = chain + die.mark if die.kept else f"~~{chain}~~"
    if die.rerolled:
        before = [_fate(face) if fate else str(face) for face in die.rerolled]
        shown = "".join(f"~~{face}~~→" for face in before) + shown
    return shown


def _fate(face: int) -> str:
    return {1: "-", 2: "0", 3: "+"}[face]
