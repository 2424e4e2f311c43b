"""One-line notes on forms jdr reads otherwise than the tool they come from.

jdr's comparisons mean what they mean in mathematics: `>7` is strictly greater than 7. Roll20
reads a success target `>7` as "7 or more" (and a failure `f<2` as "2 or less"): a roll typed the
Roll20 way keeps jdr's meaning, and says in one line how Roll20 reads it and how to write that.

>>> from jdr.dice.notation import parse
>>> notes(parse("10d10>7"))
['>7: jdr counts the dice above 7 (8 and more); Roll20 counts 7 and more: write >=7 for that']
>>> notes(parse("10d10>=7"))
[]
"""

from __future__ import annotations

from jdr.dice.notation.tree import Expression
from jdr.i18n import _

__all__ = ["notes"]


def notes(expression: Expression) -> list[str]:
    """The notes on the expression's comparisons typed the Roll20 way, one line each."""
    lines = []
    for form in expression.notes:
        if form.startswith("!"):
            lines.append(
                _(
                    "{form}: jdr adds each explosion to the die that exploded, one die kept or"
                    " counted (Roll20's !!); Roll20's ! and Dice Maiden's e make each explosion"
                    " a die of its own"
                ).format(form=form[1:])
            )
            continue
        if form.startswith("cs"):
            lines.append(
                _(
                    "{form}: jdr counts the dice that pass, as Foundry does; Roll20's cs only"
                    " marks critical dice and adds them up: drop {form} for that"
                ).format(form=form)
            )
            continue
        failure = form.startswith("f")
        operator = form.lstrip("f")[0]
        value = int(form.lstrip("f<>"))
        if operator == ">":
            line = _(
                "{form}: jdr counts the dice above {value} ({next} and more);"
                " Roll20 counts {value} and more: write {fix} for that"
            )
            shown = value + 1
        else:
            line = _(
                "{form}: jdr counts the dice below {value} ({next} and less);"
                " Roll20 counts {value} and less: write {fix} for that"
            )
            shown = value - 1
        fix = ("f" if failure else "") + f"{operator}={value}"
        lines.append(line.format(form=form, value=value, next=shown, fix=fix))
    return lines
