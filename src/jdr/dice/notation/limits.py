"""The budgets of the notation, charged before any rolling or odds work.

Every refusal is a `LimitError` naming the field, the value and what is allowed:

>>> from jdr.dice.notation import parse
>>> parse("1001d6")
Traceback (most recent call last):
...
jdr.errors.LimitError: dice: 1001 (too many dice; allowed: at most 1000 dice in all)
>>> parse("1d1!")
Traceback (most recent call last):
...
jdr.errors.LimitError: explode: '1d1!' (a d1 always shows its maximum: it could only explode; ...)
"""

from __future__ import annotations

from jdr.dice.notation.tree import Constant, DiceTerm, Expression, Scaled
from jdr.errors import LimitError
from jdr.i18n import _, ngettext

MAX_LENGTH = 200
"""Characters in an expression as typed, spaces included."""
MAX_DICE = 1000
"""Dice in all, summed over the terms (before explosions)."""
MAX_SIZE = 1_000_000
"""Faces on one die."""
MAX_EXPLOSIONS = 100
"""Explosions of one die: fixed, not a choice of the expression."""
MAX_CONSTANT = 1_000_000_000
"""Absolute value of a constant term."""
MAX_SUPPORT = 2_000_000
"""Possible values of one die's or one total's distribution that odds will lay out."""


def check_length(text: str) -> None:
    """Refuse an expression longer than `MAX_LENGTH` characters (before parsing it)."""
    if len(text) > MAX_LENGTH:
        raise LimitError(
            "length",
            len(text),
            _("at most {max} characters").format(max=MAX_LENGTH),
            _("the expression is too long"),
            label=_("length"),
        )


def check(expression: Expression) -> None:
    """Refuse an expression over any budget; cheap (it looks at each term once)."""
    _check_terms(expression)
    total = expression.dice_count
    if total > MAX_DICE:
        raise LimitError(
            "dice",
            total,
            _("at most {max} dice in all").format(max=MAX_DICE),
            _("too many dice"),
            label=_("dice"),
        )


def _check_terms(expression: Expression) -> None:
    for term in expression.terms:
        if isinstance(term, Constant):
            _check_constant(term)
        elif isinstance(term, Scaled):
            _check_terms(term.inner)
            for _operator, number in term.steps:
                _check_constant(Constant(number))
        else:
            _check_dice(term)


def _check_constant(term: Constant) -> None:
    if not 0 <= term.value <= MAX_CONSTANT:
        raise LimitError(
            "constant",
            term.value,
            _("at most {max}").format(max=MAX_CONSTANT),
            _("the number is too large"),
            label=_("number"),
        )


def _check_dice(term: DiceTerm) -> None:
    """A term's dice, faces, explosion and keep within the budgets; each refusal names the term
    as typed (`1d0`) and what it holds, in the reader's words (the JSON keeps `size`, `dice` …).

    >>> from jdr.dice.notation import parse
    >>> from jdr.i18n import language
    >>> with language("fr"):
    ...     try:
    ...         parse("1d0")
    ...     except LimitError as error:
    ...         print(error.message())
    faces de 1d0 : 0 — un dé a au moins une face (permis : 1..1000000)
    """
    faces = _("faces of {term}").format(term=term.text)
    if term.size < 1:
        raise LimitError(
            "size", term.size, f"1..{MAX_SIZE}", _("a die needs at least one face"), faces
        )
    if term.size > MAX_SIZE:
        raise LimitError("size", term.size, f"1..{MAX_SIZE}", _("too many faces on one die"), faces)
    if term.explode and term.size == 1:
        raise LimitError(
            "explode",
            term.text,
            _("an exploding die of 2 faces or more"),
            _("a d1 always shows its maximum: it could only explode"),
            label=_("exploding die"),
        )
    if (
        term.reroll is not None
        and all(term.reroll.matches(value) for value in (term.lowest, term.highest))
        and _rerolls_all(term)
    ):
        raise LimitError(
            "reroll",
            term.text,
            _("a reroll that leaves some faces, e.g. 3d6r1"),
            _("this die would reroll every face"),
        )
    if term.count < 1:
        raise LimitError(
            "dice",
            term.count,
            f"1..{MAX_DICE}",
            _("a term needs at least one die"),
            _("dice of {term}").format(term=term.text),
        )
    if term.keep is not None and not 0 <= term.keep.count <= term.count:
        raise LimitError(
            "keep",
            term.keep.count,
            f"0..{term.count}",
            ngettext(
                "{notation} has only {count} die to keep or drop",
                "{notation} has only {count} dice to keep or drop",
                term.count,
            ).format(notation=f"{term.count}d{term.size}", count=term.count),
            _("dice kept or dropped in {term}").format(term=term.text),
        )


def _rerolls_all(term: DiceTerm) -> bool:
    """Whether every face of the die matches its reroll (a comparison matches a segment of
    values: checking the ends and the values between the ends it leaves out is enough)."""
    assert term.reroll is not None
    if term.reroll.operator != "=":
        return True
    return term.lowest == term.highest


def too_large(expression: Expression, allowed: str) -> LimitError:
    """The refusal of odds whose exact computation would be too much work."""
    return LimitError(
        "expression",
        expression.text,
        allowed,
        _("too large to compute exactly"),
        label=_("expression"),
    )
