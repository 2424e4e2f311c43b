"""The chain covers the sheets players see (issue 18, item 4): each revision's journal entry binds
the sheet it left, and a stored sheet is checked against it before it is shown or rolled from.

A revision's entry (`sheet.KIND`, or a roll made through a sheet, in each of its `sheets`) keeps,
in its hashed `result`, `sheet_hash`: SHA-256 of the RFC 8785 bytes of `{"name": NAME, "sheet":
SHEET}` after the revision, whole numbers as integers (`jdr.fights.binding.json_hash`). A removal
keeps none. Entries written before it are not checked.

>>> sheet_hash("Kai", {"xp": 2.0}) == sheet_hash("Kai", {"xp": 2})
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from jdr.errors import JdrError
from jdr.fights.binding import json_hash
from jdr.i18n import _

Json = dict[str, Any]

SHEET_HASH = "sheet_hash"


def sheet_hash(name: str, sheet: Json) -> str:
    """What a revision's entry keeps as `sheet_hash`."""
    return json_hash({"name": name, "sheet": sheet})


def recorded_hash(result: Json | None, character_id: int, revision: int) -> str | None:
    """The `sheet_hash` an entry's `result` recorded for the character's `revision`: its own
    (a `sheet.…` entry) or in its `sheets` (a roll through a sheet); None if it recorded none."""
    if not isinstance(result, dict):
        return None
    items: Iterable[Any] = result.get("sheets") or []
    if "sheets" not in result:
        items = [{**result, "character": character_id}]
    for item in items:
        if (
            isinstance(item, dict)
            and item.get("character") == character_id
            and item.get("revision") == revision
            and isinstance(item.get(SHEET_HASH), str)
        ):
            return str(item[SHEET_HASH])
    return None


class TamperedSheetError(JdrError):
    """A stored sheet that no longer matches its journal: nothing is shown or rolled from it."""

    code = "tampered"
    exit_status = 1

    def __init__(self, name: str, revision: int, entry: int) -> None:
        self.name, self.revision, self.entry = name, revision, entry
        super().__init__(self.message())

    def message(self) -> str:
        return _(
            "sheet {name}: revision {revision} is not the one journal entry {entry} recorded —"
            " the stored sheet was changed; nothing is shown or rolled from it (`jdr verify`"
            " names it)"
        ).format(name=self.name, revision=self.revision, entry=self.entry)

    def __reduce__(self) -> Any:
        return (TamperedSheetError, (self.name, self.revision, self.entry))


def check(store: Any, character_id: int, revision: int, name: str, sheet: Json) -> None:
    """Refuse (`TamperedSheetError`) a sheet the store holds for the character's `revision`
    that is not the one its journal entry recorded. A revision written before entries kept
    `sheet_hash`, or without an entry, is not checked."""
    row = store.revision_entry(character_id, revision)
    if row is None:
        return
    expected = recorded_hash(row.entry.get("result"), character_id, revision)
    if expected is not None and expected != sheet_hash(name, sheet):
        raise TamperedSheetError(name, revision, row.seq)


def check_character(store: Any, character: Any) -> Any:
    """`character` (a `jdr.store.Character`) once its current sheet is checked (`check`)."""
    check(store, character.id, character.version, character.name, character.sheet)
    return character


def named(store: Any, campaign_id: int, name: str) -> Any:
    """The campaign's character `name` (as people type it), its current sheet checked against
    the journal: what every front end shows, rolls from or sets a fight up with."""
    return check_character(store, store.character_named(campaign_id, name))
