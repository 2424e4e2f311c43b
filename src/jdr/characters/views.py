"""Reading a stored sheet: as it is now or at any revision, and its history.

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.campaign_by_id(store.create_campaign("plus-ultra", "Mardi"))
>>> _id = store.add_character(campaign.id, "Kai", {"name": "Kai"})
>>> view = show(store, campaign, "kai")
>>> view.name, view.revision, view.last
('Kai', 1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from jdr.characters.binding import check, named
from jdr.characters.revisions import stored, timeline
from jdr.store import Campaign, Character, Store, StoreError
from jdr.systems.protocol import Json

__all__ = ["HistoryLine", "SheetView", "history", "show"]


@dataclass(frozen=True)
class SheetView:
    """A stored sheet as of a revision (the last one unless asked): the character now, the name
    and sheet at that revision, and which revision it is of how many."""

    character: Character
    name: str
    sheet: Json
    revision: int
    last: int


def show(store: Store, campaign: Campaign, name: str, at: int | None = None) -> SheetView:
    """The character `name` (as people type it), as of revision `at` (default: the last)."""
    character = named(store, campaign.id, name)
    if at is None or at == character.version:
        return SheetView(
            character, character.name, character.sheet, character.version, character.version
        )
    if not 1 <= at <= character.version:
        raise StoreError("no_revision", name=character.name, revision=at, last=character.version)
    shown_name, sheet = store.sheet_at(character.id, at)
    check(store, character.id, at, shown_name, sheet)
    return SheetView(character, shown_name, sheet, at, character.version)


@dataclass(frozen=True)
class HistoryLine:
    """One revision as `jdr sheet history` shows it; `undone` when a later revision took it
    back (and none put it back)."""

    revision: int
    kind: str
    created: datetime
    actor: str | None
    journal_seq: int | None
    data: Json
    undone: bool
    bound: bool = False
    """Whether `created` is the time the revision's journal entry hashes (format 2), so the
    chain binds it; else it is the time the database row says."""


def history(
    store: Store, campaign: Campaign, name: str, last: int | None = None
) -> tuple[Character, list[HistoryLine]]:
    """The character's revisions, oldest first (`last`: only the last that many)."""
    character = store.character_named(campaign.id, name)
    found = store.revisions(character.id, last=last)
    if last is None or last >= character.version:
        undone = timeline(stored(found)).undone
    else:  # the marks need every revision: their kinds, and the targets of undo and redo
        undone = timeline(store.revision_marks(character.id)).undone
    # the time shown is the one the chain binds: the revision's entry's (its hashed `time`);
    # the row's own time only for a revision without one (written before format 2)
    times = store.entry_times(campaign.id, [r.journal_seq for r in found if r.journal_seq])
    lines = [
        HistoryLine(
            r.revision,
            r.kind,
            times.get(r.journal_seq or 0, r.created),
            r.actor,
            r.journal_seq,
            r.data,
            r.revision in undone,
            (r.journal_seq or 0) in times,
        )
        for r in found
    ]
    return character, lines
