"""Names as people type them: one way to compare names, and what to say when none matches.

Every name a user types — a system, a campaign, a character, a fighter, a Pokémon type or move —
is compared through `fold`: no case, no accents, and spaces, `_` and `-` (any punctuation but
`+`, which tells a rank `C+` from `C`) left out. Stored names keep their own spelling; only
matching is loose.

>>> fold(" Pokémon "), fold("plus_ultra"), fold("Plus-Ultra"), fold("Plus Ultra")
('pokemon', 'plusultra', 'plusultra', 'plusultra')
>>> find("kaito arashi", ["Kaito Arashi", "Maître Corbeau"])
'Kaito Arashi'
>>> find("Maitre-Corbeau", ["Kaito Arashi", "Maître Corbeau"])
'Maître Corbeau'
>>> find("Corbeau", ["Kaito Arashi", "Maître Corbeau"]) is None
True

An unknown name gets the closest known one (difflib on the folded forms), if any is close:

>>> closest("pokemn", ["pokemon", "passion", "poledemos"])
'pokemon'
>>> closest("xyz", ["pokemon", "passion"]) is None
True

Two known names that fold alike make a loose match ambiguous; an exact spelling still wins:

>>> find("ana", ["Ana", "ANA"])
Traceback (most recent call last):
...
jdr.names.AmbiguousNameError: name: 'ana' (two names match; allowed: Ana, ANA)
>>> find("ANA", ["Ana", "ANA"])
'ANA'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

from jdr.errors import REORDERING, InputError, UnknownNameError
from jdr.i18n import N_, _
from jdr.spelling import Names, closest, fold, spellings

__all__ = [
    "MAX_NAME",
    "AmbiguousNameError",
    "check_name",
    "check_names",
    "closest",
    "duplicate",
    "find",
    "fold",
    "hint",
    "match",
    "same",
]


class AmbiguousNameError(InputError):
    """A name that matches two known names loosely: both are listed, the user picks one."""

    code = "ambiguous_name"

    def __init__(self, field: str, value: str, matches: list[str]) -> None:
        super().__init__(field, value, ", ".join(matches), N_("two names match"))
        self.matches = matches

    def message(self) -> str:
        return _("{field} {value} is ambiguous: it matches {matches}").format(
            field=self.field, value=self.value, matches=_(" and ").join(self.matches)
        )


MAX_NAME = 100
"""Characters in a name a user gives (a campaign, a character, an actor, a fighter), on every
backend: the database's columns hold 200."""


def check_name(field: str, value: str) -> str:
    """`value` stripped, if it can name something: not blank, at most `MAX_NAME` characters,
    no control character (an ANSI or OSC escape, a line break, a tab) and no direction override.
    Else an `InputError` naming `field`. Markup (`[red]`, `<b>`) is allowed: it is text, and
    every renderer escapes it (`jdr.markup`).

    >>> check_name("campaign", "  Tuesday table ")
    'Tuesday table'
    >>> check_name("campaign", "[/bold]")
    '[/bold]'
    >>> check_name("--actor", "Kai\x1b]8;;http://x\x07")
    Traceback (most recent call last):
    ...
    jdr.errors.InputError: --actor: ...(a control character (U+001B) at 4; allowed: ...)
    """
    allowed = _("1 to {n} characters, no control character").format(n=MAX_NAME)
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise InputError(field, value, allowed, _("empty or blank"))
    if len(text) > MAX_NAME:
        raise InputError(field, value, allowed, _("{n} characters").format(n=len(text)))
    for index, char in enumerate(text):
        if unicodedata.category(char) in ("Cc", "Cs") or char in REORDERING:
            reason = _("a control character (U+{code:04X}) at {at}").format(
                code=ord(char), at=index + 1
            )
            raise InputError(field, value, allowed, reason)
    return text


def check_names(data: object, path: str = "") -> list[InputError]:
    """The problem of each `name` in `data` (a sheet as JSON, at any depth: a character's, a
    Pokémon's, a move's) that `check_name` refuses, each naming its path; an empty `name` is
    left to the sheet's own model (a warband may have none).

    >>> [error.field for error in check_names({"name": "Kai", "team": [{"name": "x" * 101}]})]
    ['team[1].name']
    >>> check_names({"name": "", "moves": [{"name": "Éclair"}]})
    []
    """
    problems: list[InputError] = []
    if isinstance(data, Mapping):
        for key, value in data.items():
            where = f"{path}.{key}" if path else str(key)
            if key == "name" and isinstance(value, str) and value:
                try:
                    check_name(where, value)
                except InputError as error:
                    problems.append(error)
            else:
                problems += check_names(value, where)
    elif isinstance(data, list):
        for index, item in enumerate(data):
            problems += check_names(item, f"{path}[{index + 1}]")
    return problems


def collation_key(name: str) -> tuple[str, str, str]:
    """How names are sorted for a reader: as a French dictionary does, accents and case set aside
    first (`Évoli` among the E, not after `Z`), then accents, then the name as written.

    >>> sorted(["Pikachu", "Évoli", "léa", "Eve", "Zed"], key=collation_key)
    ['Eve', 'Évoli', 'léa', 'Pikachu', 'Zed']
    """
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    base = "".join(char for char in decomposed if not unicodedata.combining(char))
    return base, decomposed, name


def sorted_names(names: Iterable[str]) -> list[str]:
    """`names` in a reader's order (`collation_key`)."""
    return sorted(names, key=collation_key)


def same(a: str, b: str) -> bool:
    """Whether two names are the same name as people type them.

    >>> same("Maître Corbeau", "maitre-corbeau"), same("Ana", "Anna")
    (True, False)
    """
    return fold(a) == fold(b)


def find(value: str, names: Names, field: str = "name") -> str | None:
    """The known name `value` stands for: spelt exactly, else the one spelt the same in another
    case, else the one that folds like it; None if no name does; `AmbiguousNameError` if several
    do at the closest of these three levels.

    With a mapping, its keys are the spellings accepted and its values the names returned:

    >>> find("Fire", {"Feu": "feu", "fire": "feu", "Eau": "eau"})
    'feu'
    """
    spelt_as = spellings(names)
    if value in spelt_as:
        return spelt_as[value]
    for key, same_key in ((value.strip().casefold(), str.casefold), (fold(value), fold)):
        found = list(dict.fromkeys(n for spelt, n in spelt_as.items() if same_key(spelt) == key))
        if len(found) > 1:
            raise AmbiguousNameError(field, value, found)
        if found:
            return found[0]
    return None


def match(field: str, value: str, names: Names, shown: Iterable[str] | None = None) -> str:
    """`find`, or `UnknownNameError` listing `shown` (default: the names) with a suggestion.

    >>> match("system", "Plus Ultra", ["plus-ultra", "pokemon"])
    'plus-ultra'
    >>> match("system", "pokemn", ["plus-ultra", "pokemon"])
    Traceback (most recent call last):
    ...
    jdr.errors.UnknownNameError: system: 'pokemn' (not allowed; allowed: plus-ultra, pokemon)
    """
    found = find(value, names, field)
    if found is None:
        known = list(dict.fromkeys(spellings(names).values())) if shown is None else list(shown)
        raise UnknownNameError(field, value, known, closest(value, names))
    return found


def duplicate(name: str, names: Iterable[str]) -> str | None:
    """The name of `names` that `name` would be confused with (same folded form), if any.

    >>> duplicate("mardi soir", ["Mardi Soir", "Jeudi"]), duplicate("Lundi", ["Mardi Soir"])
    ('Mardi Soir', None)
    """
    key = fold(name)
    return next((known for known in names if fold(known) == key), None)


def hint(value: object, names: Names) -> str:
    """` — did you mean X?` for a sentence about an unknown name, in the current language; ``
    when no known name is close (or `value` is no text).

    >>> hint("Kaito", ["Kaito Arashi"]), hint("Zed", ["Kaito Arashi"]), hint(3, ["Kaito"])
    (' — did you mean Kaito Arashi?', '', '')
    """
    suggestion = closest(value, names) if isinstance(value, str) else None
    if suggestion is None:
        return ""
    return " — " + _("did you mean {name}?").format(name=suggestion)
