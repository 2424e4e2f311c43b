"""How typed names compare, with nothing above the standard library: `fold` and `closest`.

`jdr.errors` finds an unknown name's suggestion here and `jdr.names` builds its matching on
these two (it re-exports them, and is where the rest of the code reads them).

>>> fold(" Pokémon "), fold("plus_ultra"), fold("Plus-Ultra"), fold("Plus Ultra")
('pokemon', 'plusultra', 'plusultra', 'plusultra')
>>> closest("pokemn", ["pokemon", "passion", "poledemos"])
'pokemon'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache

__all__ = ["CUTOFF", "MIN_PART", "Names", "closest", "fold", "spellings"]

MIN_PART = 3
"""A typed part of a known name (`Corbeau` for `Maître Corbeau`) is suggested from this length."""

Names = Iterable[str] | Mapping[str, str]
"""Known names: a list, or a mapping from each accepted spelling to the name it stands for."""

CUTOFF = 0.6
"""How alike (difflib's ratio, on folded forms) a known name must be to be suggested."""


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """How names are compared: lower case, accents off, only letters, digits and `+` (the same
    few names are compared again and again in a fight: each is folded once).

    >>> fold("  Très_DIFFICILE "), fold("Roulés-boulés"), fold("Maître  Corbeau"), fold("c+")
    ('tresdifficile', 'roulesboules', 'maitrecorbeau', 'c+')
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if char.isalnum() or char == "+")


def closest(value: str, names: Names) -> str | None:
    """The known name most like `value` (difflib on the folded forms), if one is close enough.

    >>> closest("Kaito", ["Kaito Arashi", "Maître Corbeau"])
    'Kaito Arashi'
    >>> closest("corbeau", ["Kaito Arashi", "Maître Corbeau"])
    'Maître Corbeau'
    >>> closest("electrc", {"Électrik": "Électrik", "electric": "Électrik", "Eau": "Eau"})
    'Électrik'
    """
    import difflib

    by_key: dict[str, str] = {}
    for spelt, name in spellings(names).items():
        by_key.setdefault(fold(spelt), name)
    key = fold(value)
    if not key:
        return None
    best = difflib.get_close_matches(key, list(by_key), n=1, cutoff=CUTOFF)
    if best:
        return by_key[best[0]]
    containing = [k for k in by_key if len(key) >= MIN_PART and key in k]
    return by_key[containing[0]] if len(containing) == 1 else None


def spellings(names: Names) -> dict[str, str]:
    """Each accepted spelling of `names` and the name it stands for.

    >>> spellings(["Feu"]), spellings({"fire": "Feu"})
    ({'Feu': 'Feu'}, {'fire': 'Feu'})
    """
    if isinstance(names, Mapping):
        return {str(spelt): str(name) for spelt, name in names.items()}
    return {str(name): str(name) for name in names}
