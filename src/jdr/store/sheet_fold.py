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

from collections.abc import Iterable
from typing import Any

from jdr.sheet_paths import apply

Json = dict[str, Any]
Change = dict[str, Any]

CREATED = "created"


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
