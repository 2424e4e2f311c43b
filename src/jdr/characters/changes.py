"""What a sheet revision changes: a list of changes to the sheet's JSON, each a path, the value
before and the value after.

A change is JSON: `{"path": ["spells", 1, "xp"], "before": 31, "after": 34}`. A missing
`before` means the key was not there (it is added), a missing `after` that it is removed; the
empty path names the whole sheet (a sheet's creation). `diff` finds the changes from one sheet to
another, `apply` makes them, `invert` takes them back, and `rebase` moves changes decided on an
older sheet onto the current one (a fight's outcome, an edit made while someone else wrote):

>>> old = {"name": "Kai", "xp": 4, "spells": [{"name": "Lumos", "xp": 12}]}
>>> new = {"name": "Kai", "xp": 7, "spells": [{"name": "Lumos", "xp": 15}], "year": 2}
>>> changes = diff(old, new)
>>> [path_text(c["path"], new) for c in changes]
['xp', 'spells[Lumos].xp', 'year']
>>> apply(old, changes) == new, apply(new, invert(changes)) == old
(True, True)

Numbers decided on an older sheet move by the same amount on the current one; other values
only land where nobody changed them since:

>>> current = {"name": "Kai", "xp": 9, "spells": [{"name": "Lumos", "xp": 12}]}
>>> rebased, conflicts = rebase(changes, current)
>>> apply(current, rebased)["xp"], conflicts
(12, [])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jdr.bounded import MAX_NESTING
from jdr.errors import InputError, LimitError
from jdr.i18n import _
from jdr.sheet_paths import ABSENT, absent, apply, path_text, value_at

Json = dict[str, Any]
Change = dict[str, Any]
Path = list[str | int]

__all__ = [
    "Change",
    "absent",
    "apply",
    "diff",
    "invert",
    "parse_path",
    "path_text",
    "rebase",
    "split_path",
    "value_at",
]


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: `1`, `1.0` and `True` are three values."""
    if type(a) is not type(b) and not (_number(a) and _number(b)):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def diff(old: Any, new: Any, path: Sequence[str | int] = ()) -> list[Change]:
    """The changes that turn `old` into `new`: tables key by key, lists of the same length item by
    item, anything else as a whole.

    >>> diff({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3], "c": True})
    [{'path': ['b', 1], 'before': 2, 'after': 3}, {'path': ['c'], 'after': True}]
    >>> diff([1], [1, 2])
    [{'path': [], 'before': [1], 'after': [1, 2]}]
    """
    here = list(path)
    if isinstance(old, dict) and isinstance(new, dict):
        changes: list[Change] = []
        for key in [*old, *(k for k in new if k not in old)]:
            if key not in new:
                changes.append({"path": [*here, key], "before": old[key]})
            elif key not in old:
                changes.append({"path": [*here, key], "after": new[key]})
            else:
                changes += diff(old[key], new[key], [*here, key])
        return changes
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [
            c for i, (a, b) in enumerate(zip(old, new, strict=True)) for c in diff(a, b, [*here, i])
        ]
    if _same(old, new):
        return []
    return [{"path": here, "before": old, "after": new}]


def invert(changes: Sequence[Change]) -> list[Change]:
    """The changes that take `changes` back (last first).

    >>> invert([{"path": ["xp"], "before": 1, "after": 2}, {"path": ["year"], "after": 3}])
    [{'path': ['year'], 'before': 3}, {'path': ['xp'], 'before': 2, 'after': 1}]
    """
    inverted = []
    for change in reversed(changes):
        back: Change = {"path": list(change["path"])}
        if "after" in change:
            back["before"] = change["after"]
        if "before" in change:
            back["after"] = change["before"]
        inverted.append(back)
    return inverted


def rebase(
    changes: Sequence[Change], current: Any, numbers: bool = True
) -> tuple[list[Change], list[Change]]:
    """`changes` decided on an older sheet, moved onto `current`: `(rebased, conflicts)`.

    For each change: where `current` still shows the value before, the value after lands; where
    it already shows the value after, nothing is to do; with `numbers`, a number that moved since
    moves by the same amount again (XP gained in a fight adds to XP awarded meanwhile); anything
    else is a conflict, left out of `rebased` (an edit that typed a number meant that number).

    >>> rebase([{"path": ["condition"], "before": None, "after": "sleep"}],
    ...        {"condition": "burn"})[1]
    [{'path': ['condition'], 'before': None, 'after': 'sleep'}]
    """
    rebased: list[Change] = []
    conflicts: list[Change] = []
    doc = current
    for change in changes:
        now = value_at(doc, change["path"])
        before = change.get("before", ABSENT)
        after = change.get("after", ABSENT)
        moved: Any
        if _same_or_absent(now, before):
            moved = after
        elif _same_or_absent(now, after):
            continue
        elif numbers and _number(now) and _number(before) and _number(after):
            moved = now + (after - before)
        else:
            conflicts.append(change)
            continue
        landed: Change = {"path": list(change["path"])}
        if now is not ABSENT:
            landed["before"] = now
        if moved is not ABSENT:
            landed["after"] = moved
        try:
            doc = apply(doc, [landed])
        except InputError:  # the place it changed is gone (a list that got shorter)
            conflicts.append(change)
            continue
        rebased.append(landed)
    return rebased, conflicts


def _same_or_absent(a: Any, b: Any) -> bool:
    if a is ABSENT or b is ABSENT:
        return a is b
    return _same(a, b)


# --- paths as people read and type them ------------------------------------------------------


def parse_path(text: str, doc: Any, words: Any = None) -> Path:
    """A field path as typed (`stats.magic`, `moves[2].energy`, `spells[Lumos].xp`,
    `skills."Déplacements rapides"`) as a path into `doc`; list items by position (from 1) or by
    name (as people type it, `jdr.names`); keys by their id or, with the system's `words`
    (`jdr.sheet_words.SheetWords`), by their French or English name (`énergie.actuelle`).

    >>> doc = {"spells": [{"name": "Lumos", "xp": 1}], "skills": {"Vol": 1}}
    >>> parse_path("spells[lumos].xp", doc), parse_path('skills."Vol"', doc)
    (['spells', 0, 'xp'], ['skills', 'Vol'])
    >>> from jdr.sheet_words import SheetWords, Word
    >>> words = SheetWords(keys={"spells": Word("Spells", "Sorts"), "xp": Word("XP", "PX")})
    >>> parse_path("Sorts[Lumos].px", doc, words)
    ['spells', 0, 'xp']
    """
    from jdr.names import find
    from jdr.sheet_words import GENERIC, key_spellings

    parts = split_path(text)
    path: Path = []
    current = doc
    parent: str | None = None
    for part, bracketed in parts:
        if bracketed:
            if not isinstance(current, list):
                raise InputError(_("field"), text, _("a list's item: name[N]"), _("not a list"))
            index = _item_index(part, current, text, find)
            path.append(index)
            current = current[index]
            continue
        key = part
        if isinstance(current, dict) and part not in current:
            spellings = key_spellings(words or GENERIC, list(current), parent)
            key = find(part, spellings, _("field")) or _new_key(
                part, current, spellings, words, parent
            )
        path.append(key)
        parent = key
        current = current.get(key) if isinstance(current, dict) else None
    if not path:
        raise InputError(_("field"), text, _("a field path, e.g. stats.magic"), _("empty"))
    return path


def _new_key(
    part: str, table: dict[str, Any], spellings: dict[str, str], words: Any, parent: str | None
) -> str:
    """A key `table` does not hold yet (a new skill): refused with the closest known key, in the
    reader's words, when `table` is a sheet's own (its keys named by `words`) and one is close."""
    from jdr.errors import UnknownNameError
    from jdr.names import closest

    if words is None or not any(words.word(key, parent) for key in table):
        return part
    near = closest(part, spellings)
    if near is None:
        return part
    shown = [words.key(key, parent) for key in table if key not in words.hidden]
    raise UnknownNameError(_("field"), part, shown, words.key(near, parent))


def _item_index(part: str, items: list[Any], text: str, find: Any) -> int:
    if part.strip().isdigit():
        index = int(part) - 1
        if not 0 <= index < len(items):
            raise InputError(_("field"), text, f"1..{len(items)}", _("no such position"))
        return index
    names = [item.get("name") for item in items if isinstance(item, dict)]
    known = [name for name in names if isinstance(name, str)]
    found = find(part, known, _("field"))
    if found is None:
        from jdr.errors import UnknownNameError

        raise UnknownNameError(_("item"), part, known)
    return names.index(found)


def split_path(text: str) -> list[tuple[str, bool]]:
    """`a.b[2]."c d"` → `[("a", False), ("b", False), ("2", True), ("c d", False)]`; a path of
    more than `MAX_NESTING` parts is refused (`LimitError`: no sheet is nested that deep).

    >>> split_path('a.b[2]."c d"')
    [('a', False), ('b', False), ('2', True), ('c d', False)]
    """
    parts: list[tuple[str, bool]] = []
    word = ""
    i = 0
    while i < len(text):
        char = text[i]
        if char == '"':
            end = text.find('"', i + 1)
            if end < 0:
                raise InputError(_("field"), text, _("a field path"), _("a quote is not closed"))
            word += text[i + 1 : end]
            i = end + 1
            continue
        if char in ".[":
            if word.strip():
                parts.append((word.strip(), False))
            word = ""
            if char == "[":
                end = text.find("]", i)
                if end < 0:
                    raise InputError(_("field"), text, _("a field path"), _("a [ is not closed"))
                parts.append((text[i + 1 : end], True))
                i = end + 1
                continue
        else:
            word += char
        i += 1
    if word.strip():
        parts.append((word.strip(), False))
    if len(parts) > MAX_NESTING:
        raise LimitError(
            _("field"),
            text,
            _("at most {n} levels of nesting").format(n=MAX_NESTING),
            _("nested {n} deep").format(n=len(parts)),
        )
    return parts


def changed_fields(changes: Sequence[Change], doc: Any = None) -> list[str]:
    """The fields `changes` touch, as `path_text` shows them, each once."""
    return list(dict.fromkeys(path_text(c["path"], doc) for c in changes))


def describe(change: Mapping[str, Any], doc: Any = None) -> Mapping[str, Any]:
    """A change for a reader: `{"field", "before", "after"}` (None where absent)."""
    return {
        "field": path_text(change["path"], doc),
        "before": change.get("before"),
        "after": change.get("after"),
    }
