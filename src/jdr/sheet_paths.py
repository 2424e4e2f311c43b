"""A sheet's JSON by paths: the value at a path, changes applied as a new value, a path named
for a reader. The primitives under every change of a sheet (`jdr.characters.changes` finds,
inverts and moves changes; `jdr.store.sheet_fold` folds a sheet from its revisions).

A change is `{"path": [...], "before": …, "after": …}`; a missing `after` removes the key.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from jdr.errors import InputError
from jdr.i18n import _

Change = dict[str, Any]
Path = list[str | int]

ABSENT = object()


def value_at(doc: Any, path: Sequence[str | int]) -> Any:
    """The value at `path` in `doc`, or a sentinel that is not a JSON value when there is none.

    >>> value_at({"a": [5, 6]}, ["a", 1]), value_at({"a": 1}, ["b"]) is value_at({}, ["x"])
    (6, True)
    """
    current = doc
    for part in path:
        in_list = isinstance(part, int) and isinstance(current, list) and 0 <= part < len(current)
        in_table = isinstance(part, str) and isinstance(current, dict) and part in current
        if not (in_list or in_table):
            return ABSENT
        current = current[part]
    return current


def absent(value: Any) -> bool:
    """Whether `value_at` found nothing."""
    return value is ABSENT


def apply(doc: Any, changes: Sequence[Change]) -> Any:
    """`doc` with `changes` made, as a new value (`doc` is not changed); the parts of `doc` no
    change touches are shared with it, so applying a few changes to a large sheet is cheap.

    >>> apply({"a": {"b": 1}, "c": 2}, [{"path": ["a", "b"], "after": 5}, {"path": ["c"]}])
    {'a': {'b': 5}}
    """
    for change in changes:
        doc = _set(doc, list(change["path"]), change.get("after", ABSENT))
    return doc


def _set(doc: Any, path: Path, value: Any) -> Any:
    if not path:
        return copy.deepcopy(value)
    head, rest = path[0], path[1:]
    if isinstance(doc, dict) and isinstance(head, str):
        new = dict(doc)
        if not rest and value is ABSENT:
            new.pop(head, None)
        else:
            new[head] = _set(doc.get(head, {}), rest, value)
        return new
    if isinstance(doc, list) and isinstance(head, int) and 0 <= head < len(doc):
        items = list(doc)
        items[head] = _set(doc[head], rest, value)
        return items
    raise InputError(_("field"), path_text(path), _("a field of the sheet"), _("no such field"))


def path_text(path: Sequence[str | int], doc: Any = None) -> str:
    """A path as messages show it: `stats.magic`, `moves[2].energy` (positions count from 1),
    or `spells[Lumos].xp` when `doc` names the list's items.

    >>> path_text(["moves", 1, "energy"]), path_text([])
    ('moves[2].energy', '(sheet)')
    """
    text = ""
    current = doc
    for part in path:
        if isinstance(part, int):
            item = value_at(current, [part]) if current is not None else ABSENT
            name = item.get("name") if isinstance(item, dict) else None
            text += f"[{name}]" if isinstance(name, str) and name else f"[{part + 1}]"
        else:
            text += f".{part}" if text else part
        current = value_at(current, [part]) if current is not None else None
        if current is ABSENT:
            current = None
    return text or _("(sheet)")
