"""The generic dice notation: `2d6+3`, `4d10>=6f1`, `4d6kh3`, `3d6!`, `d%`, `1d20+5-1d4`.

Parse → tree → evaluate → explain, one module each, and exact odds over the same tree:

>>> from jdr.dice import GivenFaces
>>> expression = parse("4d6kh3")
>>> roll(expression, GivenFaces([5, 3, 1, 6])).explain()
'4d6kh3 (5, 3, ~~1~~, 6) = 14'
>>> odds(expression, exact=True).at_least(15)
Fraction(25, 108)

A dice term is `NdX`, then in this order: `!` (a die showing its maximum face rolls another die
and adds it, chained, at most 100 times), `khN` / `klN` / `dhN` / `dlN` (keep or drop the N
highest / lowest), a success target (`>=6`: the term counts dice whose value passes instead of
summing them) and a failure (`f1`, `f<=2`: each die that matches removes one success). Comparisons
mean what they mean in mathematics: `>` is strict, `=` is equality, `f1` is `f=1`. `N` defaults to
1 and `d%` is `d100`. Limits (see `limits.py`) are checked before any roll or odds work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jdr.dice.notation.evaluate import roll
from jdr.dice.notation.parse import parse
from jdr.dice.notation.result import DiceRoll
from jdr.dice.notation.tree import Expression

if TYPE_CHECKING:
    from jdr.prob import Distribution

__all__ = ["DiceRoll", "Expression", "odds", "parse", "roll"]


def odds(expression: Expression, exact: bool = False) -> Distribution:
    """The exact distribution of the expression's total (NumPy is imported only here)."""
    from jdr.dice.notation.probability import odds as distribution

    return distribution(expression, exact)
