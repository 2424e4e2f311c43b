"""The Polédémos warband's words: each key's name in French and English, its sections, and how a
figure reads (its VAL, a leader and its followers, PD-8, PD-9).

>>> from jdr.i18n import language
>>> perry = {"name": "Sergent Perry", "val": 3, "leader": True, "followers": ["Caporal"]}
>>> with language("fr"):
...     describe_figure(perry, SHEET_WORDS)
['VAL 3+', 'chef', 'suivants\\xa0: Caporal']
"""

from __future__ import annotations

from typing import Any

from jdr.i18n import _
from jdr.sheet_words import Section, SheetWords, Word

__all__ = ["SHEET_WORDS", "describe_figure"]


def describe_figure(figure: dict[str, Any], words: SheetWords) -> list[str]:
    """A figure in words: VAL n+, and for a leader the figures that may follow it."""
    parts = [_("VAL {n}+").format(n=figure.get("val"))]
    if figure.get("leader"):
        parts.append(_("leader"))
    followers = figure.get("followers") or []
    if followers:
        parts.append(_("followers: {names}").format(names=", ".join(followers)))
    return parts


SHEET_WORDS = SheetWords(
    keys={
        "shared_followers": Word(
            "Followers shared between leaders", "Suivants partagés entre chefs"
        ),
        "figures": Word("Figures", "Figurines"),
        "val": Word("VAL", "VAL"),
        "leader": Word("Leader", "Chef"),
        "followers": Word("Followers", "Suivants"),
    },
    sections=(
        Section(Word("Warband", "Bande"), ("shared_followers",)),
        Section(Word("Figures", "Figurines"), ("figures",)),
    ),
    items={"figures": describe_figure},
    aliases={"leader": ("meneur",)},
)
"""What a player reads of a warband's sheet (`System.sheet_words`)."""
