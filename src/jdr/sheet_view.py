"""A sheet laid out as its game's sheet: headed sections of named values, gauges as
current/max, lists (moves, techniques, spells) as items with their costs and effects in words.
One pure function, `layout`, builds it from a sheet's JSON and its system's words
(`jdr.sheet_words`); the terminal (Rich) and the web (Jinja) each render it.

>>> from jdr.sheet_words import Section, SheetWords, Word
>>> words = SheetWords(
...     keys={"vitality": Word("Vitalité", "Vitalité"), "moves": Word("Moves", "Capacités")},
...     sections=[Section(Word("Gauges", "Jauges"), ("vitality",))],
... )
>>> shown = layout({"name": "Pika", "vitality": {"current": 9, "max": 14},
...                 "moves": [{"name": "Éclair", "energy": 1}]}, words)
>>> shown.title, [s.title for s in shown.sections]
('Pika', ['Gauges', 'Moves'])
>>> entry = shown.sections[0].entries[0]
>>> entry.label, entry.text, entry.current, entry.max
('Vitalité', '9/14', 9, 14)
>>> shown.sections[1].items[0]
Item(title='Éclair', details=('Energy 1',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jdr.i18n import _
from jdr.sheet_words import GENERIC, SheetWords, Word, is_gauge

__all__ = ["Entry", "Item", "Layout", "Part", "layout"]

Json = dict[str, Any]


@dataclass(frozen=True)
class Entry:
    """A named value: `Force 2`; a gauge has its `current` and `max` (`Vitalité 9/14`)."""

    label: str
    text: str
    current: int | None = None
    max: int | None = None

    @property
    def gauge(self) -> bool:
        return self.max is not None


@dataclass(frozen=True)
class Item:
    """One item of a list (a move, a technique, a spell): its name and its parts in words."""

    title: str
    details: tuple[str, ...] = ()


@dataclass(frozen=True)
class Part:
    """One headed section: named values, then items."""

    title: str
    entries: tuple[Entry, ...] = ()
    items: tuple[Item, ...] = ()


@dataclass(frozen=True)
class Layout:
    """A whole sheet: its name and its sections, in the reader's language."""

    title: str
    sections: tuple[Part, ...]


def layout(sheet: Mapping[str, Any], words: SheetWords = GENERIC) -> Layout:
    """`sheet` laid out by `words`' sections; every key no section lists gets one of its own
    (a table or a list) or goes under "Character" (a plain value), so nothing is left out."""
    shown = [k for k in sheet if k not in words.hidden and k != "name"]
    listed = {key for section in words.sections for key in section.keys}
    sections: list[Part] = []
    plain = [k for k in shown if k not in listed and not _nested(sheet[k])]
    if plain:
        sections.append(_part(Word("Character", "Personnage"), plain, sheet, words))
    for section in words.sections:
        keys = [k for k in section.keys if k in sheet and not _empty(sheet[k])]
        if keys:
            sections.append(_part(section.title, keys, sheet, words))
    for key in shown:
        if key not in listed and _nested(sheet[key]) and not _empty(sheet[key]):
            sections.append(_part(words.key(key), [key], sheet, words))
    name = sheet.get("name")
    return Layout(str(name) if name else _("(no name)"), tuple(sections))


def _nested(value: Any) -> bool:
    return (isinstance(value, Mapping) and not is_gauge(value)) or (
        isinstance(value, list) and any(isinstance(item, Mapping) for item in value)
    )


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, Mapping | list) and not value)


def _part(
    title: Word | str, keys: Sequence[str], sheet: Mapping[str, Any], words: SheetWords
) -> Part:
    entries: list[Entry] = []
    items: list[Item] = []
    for key in keys:
        value = sheet[key]
        if isinstance(value, list) and any(isinstance(item, Mapping) for item in value):
            items += [_item(key, item, words) for item in value if isinstance(item, Mapping)]
        elif isinstance(value, Mapping) and not is_gauge(value):
            entries += [_entry(str(k), v, words, key) for k, v in value.items() if v is not None]
        else:
            entries.append(_entry(key, value, words))
    return Part(str(title), tuple(entries), tuple(items))


def _entry(key: str, value: Any, words: SheetWords, parent: str | None = None) -> Entry:
    label = words.key(key, parent)
    if is_gauge(value):
        return Entry(label, f"{value['current']}/{value['max']}", value["current"], value["max"])
    return Entry(label, words.value(key, value))


def _item(key: str, item: Mapping[str, Any], words: SheetWords) -> Item:
    title = str(item.get("name") or words.key(key))
    describe = words.items.get(key)
    if describe is not None:
        return Item(title, tuple(describe(dict(item), words)))
    details = []
    for sub, value in item.items():
        if sub == "name" or value is None or value is False or _empty(value):
            continue
        label = words.key(sub, key)
        details.append(label if value is True else f"{label} {words.value(sub, value)}")
    return Item(title, tuple(details))
