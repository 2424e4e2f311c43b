"""The generic dice notation: `2d6+3`, `4d10>=6f1`, `4d6kh3`, `3d6!`, `d%`, `1d20+5-1d4`, and
the forms of Roll20, DiceParser/Rolisteam, Dice Maiden, Avrae and Foundry (`8d10k3`, `4d10e10`,
`3d6!!`, `3D10c[>=7]`, `6d10t7`, `3d6r1`, `4dF`, `1d20adv`, `(1d6+2)*2`, `2d6 ; 1d20` …: the
README's table of forms).

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

Other tools' forms are read into the same terms (`8d10k3` is `8d10kh3`, `6d10t7` is
`6d10>=7`, `1d20adv` is `2d20kh1`), so they roll, explain and get their exact odds alike;
`parse_rolls` reads several rolls separated by `;` or `,`, `notes` says where a form means
something else in Roll20, and a form jdr cannot take is refused with its jdr equivalent
(`hints.py`). The pools themselves, for a plug-in's own rules: `jdr.dice.notation.pools`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jdr.dice.notation.evaluate import roll
from jdr.dice.notation.notes import notes
from jdr.dice.notation.parse import parse, parse_rolls
from jdr.dice.notation.result import DiceRoll
from jdr.dice.notation.tree import Expression

if TYPE_CHECKING:
    from jdr.prob import Distribution

__all__ = ["DiceRoll", "Expression", "notes", "odds", "parse", "parse_rolls", "roll"]


def odds(expression: Expression, exact: bool = False) -> Distribution:
    """The exact distribution of the expression's total (NumPy is imported only here)."""
    from jdr.dice.notation.probability import odds as distribution

    return distribution(expression, exact)
