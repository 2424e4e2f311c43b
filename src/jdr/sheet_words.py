"""A sheet's words: the display name of each key and value of a system's sheets, in French and
English, and how its sheet is laid out (headed sections). Declared once beside each system's
sheet model (`System.sheet_words`); `jdr sheet show`, the web's sheet page, the lines a revision
prints and the paths `jdr sheet set` reads all read this one declaration. JSON keeps the ids.

>>> words = SheetWords(
...     keys={"energy": Word("Énergie", "Énergie"), "current": Word("current", "actuelle"),
...           "condition": Word("condition", "statut")},
...     values={"condition": {"sleep": Word("Sleep", "Sommeil")}},
... )
>>> from jdr.i18n import language
>>> with language("fr"):
...     words.key("condition"), words.value("condition", "sleep"), path_label(["energy", "max"], {},
...     words)
('statut', 'Sommeil', 'Énergie max')
>>> path_label(["energy", "current"], {}, words)
'Énergie'

A key no declaration names reads as the catalogs say (a plug-in's own words), else as its id
made readable:

>>> SheetWords().key("stress_max")
'Stress max'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jdr.i18n import _, current_language

__all__ = [
    "GENERIC",
    "Section",
    "SheetWords",
    "Word",
    "change_text",
    "key_spellings",
    "path_label",
    "words_of",
]

Json = dict[str, Any]


@dataclass(frozen=True)
class Word:
    """A display name in English and French: `str(word)` is the one of the current language.

    >>> from jdr.i18n import language
    >>> with language("fr"):
    ...     str(Word("willpower", "Volonté"))
    'Volonté'
    """

    en: str
    fr: str

    def __str__(self) -> str:
        return self.fr if current_language() == "fr" else self.en


@dataclass(frozen=True)
class Section:
    """One headed part of a sheet: its title and the top-level keys it shows, in order."""

    title: Word
    keys: tuple[str, ...]


Describe = Callable[[Json, "SheetWords"], Sequence[str]]
"""How one item of a list reads (a move, a technique, a spell): its parts in words, each a short
phrase in the current language (`2 Énergie`, `3d10`, `Paralysie 30 %`)."""


@dataclass(frozen=True)
class SheetWords:
    """A system's sheet words.

    `keys` names each key, by its id (`energy`) or, where one id means two things, by its
    parent's and its own (`moves.energy`); `values` names each value a key may take (`condition`:
    `paralysis` → Paralysie); `sections` lays the sheet out (a key no section lists gets a
    section of its own, or goes under "Character" for a plain value); `items` words a list's
    items (by the list's key), where the generic "name value" reading would not do; `hidden`
    keys are never shown (the sheet's kind); `aliases` are more spellings accepted as input
    (`{"current": ("actuel",)}`).
    """

    keys: Mapping[str, Word] = field(default_factory=dict)
    values: Mapping[str, Mapping[str, Word]] = field(default_factory=dict)
    sections: Sequence[Section] = ()
    items: Mapping[str, Describe] = field(default_factory=dict)
    hidden: tuple[str, ...] = ("kind", "system")
    aliases: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def word(self, key: str, parent: str | None = None) -> Word | None:
        """The declared name of `key` (under `parent`), if any."""
        if parent is not None and f"{parent}.{key}" in self.keys:
            return self.keys[f"{parent}.{key}"]
        return self.keys.get(key) or _DEFAULT_KEYS.get(key)

    def key(self, key: str, parent: str | None = None) -> str:
        """The name of `key` in the current language (see the module's docstring)."""
        found = self.word(key, parent)
        if found is not None:
            return str(found)
        return readable(key)

    def value(self, key: str | None, value: Any) -> str:
        """A value as a reader reads it: a declared name, yes/no, a list's names, `c/m` for a
        gauge; a plain value as it is."""
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if value is None:
            return "—"
        if isinstance(value, str):
            named = self.values.get(key or "", {}).get(value)
            return str(named) if named is not None else value
        if isinstance(value, list):
            return ", ".join(self.value(key, item) for item in value) or "—"
        if isinstance(value, Mapping):
            if is_gauge(value):
                return f"{value['current']}/{value['max']}"
            return ", ".join(
                f"{self.key(str(k), key)} {self.value(str(k), v)}" for k, v in value.items()
            )
        return str(value)


def readable(key: str) -> str:
    """A key no one named: the catalogs' word for it, else the id made readable (`stress_max` →
    `Stress max`); free names (a skill, a talent) as they are."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", key):
        return key
    translated = _(key)
    if translated != key:
        return translated
    return key.replace("_", " ").capitalize()


def is_gauge(value: Any) -> bool:
    """Whether `value` is a gauge: `{"current": …, "max": …}` and nothing else."""
    return isinstance(value, Mapping) and set(value) == {"current", "max"}


_DEFAULT_KEYS = {
    "current": Word("current", "actuelle"),
    "max": Word("max", "max"),
    "name": Word("Name", "Nom"),
}
"""Keys every sheet may have, named the same in every system unless it says otherwise."""

GENERIC = SheetWords()
"""The words of a system that declares none: keys through the catalogs, else made readable."""

_COMMON = {
    "current": ("actuel", "actuelle", "courant", "now"),
    "max": ("maximum",),
}


def words_of(system: Any) -> SheetWords:
    """A system's declared sheet words, or `GENERIC`."""
    words = getattr(system, "sheet_words", None)
    return words if isinstance(words, SheetWords) else GENERIC


def key_spellings(words: SheetWords, keys: Sequence[str], parent: str | None) -> dict[str, str]:
    """Every spelling accepted for each of `keys` (under `parent`) → the key: the id, its
    English and French names and aliases (`énergie` → `energy`, `actuelle` → `current`)."""
    spellings: dict[str, str] = {}
    for key in keys:
        spellings.setdefault(key, key)
        found = words.word(key, parent)
        names = [found.en, found.fr] if found is not None else [readable(key)]
        names += list(words.aliases.get(key, ())) + list(_COMMON.get(key, ()))
        for name in names:
            spellings.setdefault(name, key)
    return spellings


def path_label(path: Sequence[str | int], doc: Any, words: SheetWords) -> str:
    """A path into a sheet as a reader names it: `Vitalité`, `Énergie max`, `Sorts › Lumos ›
    PX`; a gauge's `current` is the gauge itself."""
    parts: list[str] = []
    current = doc
    parent: str | None = None
    for index, part in enumerate(path):
        if isinstance(part, int):
            item = current[part] if isinstance(current, list) and 0 <= part < len(current) else None
            name = item.get("name") if isinstance(item, Mapping) else None
            parts.append(str(name) if isinstance(name, str) and name else f"{part + 1}")
            current = item
            continue
        last = index == len(path) - 1
        if last and parent is not None and part == "current" and parts:
            pass  # the gauge's value is the gauge
        elif last and parent is not None and part == "max" and parts:
            parts[-1] = f"{parts[-1]} {words.key('max', parent)}"
        else:
            parts.append(words.key(part, parent))
        current = current.get(part) if isinstance(current, Mapping) else None
        parent = part
    return " › ".join(parts) or _("(sheet)")


def change_text(change: Mapping[str, Any], doc: Any, words: SheetWords) -> str:
    """A change to a sheet as a reader reads it: `Vitalité 14 → 7`, `Altération — → Paralysie`
    (`doc`, the sheet before, names list items).

    >>> change_text({"path": ["xp"], "before": 3, "after": 6}, {}, SheetWords())
    'Xp 3 → 6'
    """
    path = list(change.get("path", []))
    keys = [part for part in path if isinstance(part, str)]
    last = keys[-1] if keys else None
    if last in ("current", "max") and len(keys) > 1:
        last = keys[-2]

    def shown(key: str) -> str:
        return words.value(last, change[key]) if key in change else "—"

    return f"{path_label(path, doc, words)} {shown('before')} → {shown('after')}"
