"""How jdr writes a form of another dice tool that its notation does not take.

A refused expression is looked at once more: when it holds a form jdr knows from Roll20,
DiceParser/Rolisteam, Dice Maiden, Avrae or Foundry, the error says what to write instead.

>>> hint_for("4d6d1")
'Roll20 reads 4d6d1 as "drop the lowest 1": in jdr, write 4d6dl1'
>>> hint_for("2d6+3") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jdr.i18n import _

__all__ = ["hint_for"]


def _drop(match: re.Match[str]) -> str:
    count, size, drop = match.group(1) or "1", match.group(2), match.group(3)
    return _('Roll20 reads {form} as "drop the lowest {n}": in jdr, write {jdr}').format(
        form=match.group(0), n=drop, jdr=f"{count}d{size}dl{drop}"
    )


def _explode_on(match: re.Match[str]) -> str:
    return _(
        "jdr explodes a die on its highest face only ({form}): write {jdr}; for more, count"
        " successes (>=N) or roll again"
    ).format(form=match.group(0), jdr=f"{match.group(1) or 1}d{match.group(2)}!")


def _penetrate(match: re.Match[str]) -> str:
    return _("jdr has no penetrating or conditional explosion ({form}): write {jdr}").format(
        form=match.group(0), jdr=f"{match.group(1) or 1}d{match.group(2)}!"
    )


def _indefinite(match: re.Match[str]) -> str:
    letter = match.group(4).lower()
    form = "!" if letter == "e" else "r"
    return _("Dice Maiden's i{letter} is jdr's {form}: write {jdr}").format(
        letter=letter, form=form, jdr=f"{match.group(1) or 1}d{match.group(2)}{form}"
    )


def _minimum(match: re.Match[str]) -> str:
    return _(
        "jdr has no minimum or maximum per die ({form}): reroll low faces instead, e.g. {jdr}"
    ).format(form=match.group(0), jdr=f"{match.group(1) or 1}d{match.group(2)}r<2")


def _rounding(match: re.Match[str]) -> str:
    return _("no {name}() in jdr: / already rounds down, e.g. 1d20/2").format(name=match.group(1))


def _times_x(match: re.Match[str]) -> str:
    return _("jdr multiplies with *: write {jdr}").format(jdr=f"{match.group(1)}*{match.group(2)}")


def _dice_times_dice(_match: re.Match[str]) -> str:
    return _("jdr multiplies and divides by whole numbers only, not by dice: e.g. (1d6+2)*2")


def _sort(match: re.Match[str]) -> str:
    return _("jdr shows the dice in the order rolled: drop {form}").format(form=match.group(3))


def _reroll_add(match: re.Match[str]) -> str:
    return _(
        "Avrae's {form} (reroll and add) has no jdr form: r rerolls a die ({jdr}), ! explodes"
    ).format(form=match.group(0), jdr=f"{match.group(1) or 1}d{match.group(2)}r1")


def _group(_match: re.Match[str]) -> str:
    return _("no {…} groups in jdr: keep inside the term, e.g. 4d6kh3, or roll each with ;")


def _keep_comparison(match: re.Match[str]) -> str:
    message = _("jdr keeps the highest or lowest N ({form}): to count dice {cmp}N, write {jdr}")
    jdr = f"{match.group(1) or 1}d{match.group(2)}{match.group(4)}{match.group(5)}"
    return message.format(form=match.group(0), cmp=match.group(4), jdr=jdr)


def _count_bracket(match: re.Match[str]) -> str:
    return _("jdr counts with one comparison: write {jdr}").format(
        jdr=f"{match.group(1) or 1}d{match.group(2)}>={match.group(3)}"
    )


def _critical(match: re.Match[str]) -> str:
    form = match.group(3)
    operator = "<=" if "<" in form else ">=" if ">" in form else "="
    jdr = f"{match.group(1) or 1}d{match.group(2)}{operator}{match.group(4)}"
    message = _("Roll20's {form} only marks critical dice: drop it, or count them with {jdr}")
    return message.format(form=form, jdr=jdr)


_DICE = r"(\d*)d(\d+)"
_HINTS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), build)
    for pattern, build in (
        (r"\{", _group),
        (r"\b(floor|ceil|round|abs)\s*\(", _rounding),
        (_DICE + r"(i)(e|r)", _indefinite),
        (_DICE + r"(ra|rr>|rr<)\d*", _reroll_add),
        (_DICE + r"(?:!p|!!?[<>=]|e[<>=\[]|!{1,2}\d)[^+\-*/;]*", _penetrate),
        (_DICE + r"e(\d+)", _explode_on),
        (_DICE + r"(mi|ma|min|max)\d+", _minimum),
        (_DICE + r"[^;]*?(c[sf][<>=]*(\d+))", _critical),
        (_DICE + r"(?:[^d]*?)(s|sa|sd)(?![a-z])", _sort),
        (_DICE + r"(k[hl]?)([<>]=?)(\d+)", _keep_comparison),
        (_DICE + r"c\[?(?:>=)?(\d+)[^\]]*\]", _count_bracket),
        (_DICE + r"d(\d+)", _drop),
        (r"(\d+d\d+|\))\s*x\s*(\d+)", _times_x),
        (r"(?:\d*d\d+|\))\s*[*/]\s*\(?\s*\d*d\d+", _dice_times_dice),
        (r"(\d+|\))\s*/\s*\(?\s*\d*d\d+", _dice_times_dice),
    )
)


def hint_for(text: str) -> str | None:
    """How jdr writes a foreign form found in `text`, in one sentence; None when none applies."""
    for pattern, build in _HINTS:
        match = pattern.search(text)
        if match is not None:
            return build(match)
    return None
