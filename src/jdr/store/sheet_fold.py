"""A sheet folded from its stored revisions: each one's changes applied in order, beside the
revisions it folds (`Store.sheet_at` reads a sheet at any revision this way).

A revision's `data` holds its `changes`, each a path into the sheet's JSON and the value after
(`jdr.characters.changes` says more: how changes are found, taken back and moved onto a newer
sheet), and for some kinds a new name: `name` (created), `rename` (`[before, after]`).

>>> created = {"kind": "created", "data": {"changes": [{"path": [], "after": {"xp": 4}}],
...            "name": "Kai"}}
>>> gained = {"kind": "rolled", "data": {"changes": [{"path": ["xp"], "before": 4, "after": 7}]}}
>>> renamed = {"kind": "renamed", "data": {"changes": [], "rename": ["Kai", "Kaito"]}}
>>> fold_onto("", {}, [created, gained, renamed])
('Kaito', {'xp': 7})
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from jdr.errors import InputError
from jdr.i18n import _

Json = dict[str, Any]
Change = dict[str, Any]

CREATED = "created"

_ABSENT = object()


def fold_onto(name: str, sheet: Json, revisions: Iterable[Any]) -> tuple[str, Json]:
    """The name and sheet after `revisions` (stored ones, or `{"kind", "data"}` dicts), starting
    from `name` and `sheet`."""
    for revision in revisions:
        kind, data = _parts(revision)
        sheet = apply(sheet, data.get("changes", []))
        if kind == CREATED and "name" in data:
            name = data["name"]
        rename = data.get("rename")
        if rename:
            name = rename[1]
    return name, sheet


def _parts(revision: Any) -> tuple[str, Json]:
    if isinstance(revision, dict):
        return revision["kind"], revision["data"]
    return revision.kind, revision.data


def apply(doc: Any, changes: Sequence[Change]) -> Any:
    """`doc` with `changes` made, as a new value (`doc` is not changed); the parts of `doc` no
    change touches are shared with it, so applying a few changes to a large sheet is cheap.

    >>> apply({"a": {"b": 1}, "c": 2}, [{"path": ["a", "b"], "after": 5}, {"path": ["c"]}])
    {'a': {'b': 5}}
    """
    for change in changes:
        doc = _set(doc, list(change["path"]), change.get("after", _ABSENT))
    return doc


def _set(doc: Any, path: list[str | int], value: Any) -> Any:
    if not path:
        return copy.deepcopy(value)
    head, rest = path[0], path[1:]
    if isinstance(doc, dict) and isinstance(head, str):
        new = dict(doc)
        if not rest and value is _ABSENT:
            new.pop(head, None)
        else:
            new[head] = _set(doc.get(head, {}), rest, value)
        return new
    if isinstance(doc, list) and isinstance(head, int) and 0 <= head < len(doc):
        items = list(doc)
        items[head] = _set(doc[head], rest, value)
        return items
    raise InputError(_("field"), _path_text(path), _("a field of the sheet"), _("no such field"))


def _path_text(path: Sequence[str | int]) -> str:
    """A path as messages show it: `moves[2].energy` (positions count from 1).

    >>> _path_text(["moves", 1, "energy"]), _path_text([])
    ('moves[2].energy', '(sheet)')
    """
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part + 1}]"
        else:
            text += f".{part}" if text else part
    return text or _("(sheet)")
