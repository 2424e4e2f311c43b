"""A sheet is a fold over its revisions: each one's changes applied in order, from nothing.

A revision's `data` holds its `changes` (`jdr.characters.changes`), and for some kinds more:
`name` (created: the stored name), `rename` (`[before, after]`), `target` (undone and redone: the
revision taken back or put back), `reason`, `cause` (the journal entry of the roll, the fight),
`rules` (the rule ids that made the change).

>>> created = {"changes": [{"path": [], "after": {"xp": 4}}], "name": "Kai"}
>>> gained = {"changes": [{"path": ["xp"], "before": 4, "after": 7}]}
>>> renamed = {"changes": [], "rename": ["Kai", "Kaito"]}
>>> fold([("created", created), ("rolled", gained), ("renamed", renamed)])
('Kaito', {'xp': 7})

Undo and redo work like a fight's (`jdr.fights.timeline.Timeline`): undo takes back the last
revision not yet undone (never the creation), redo puts back the one undone last while no other
revision came since; each is a revision of its own, so the history never shrinks.

>>> undoable([(1, "created", {}), (2, "rolled", {}), (3, "undone", {"target": 2})])
>>> undoable([(1, "created", {}), (2, "rolled", {}), (3, "set", {})])
3
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from jdr.i18n import N_
from jdr.store.sheet_fold import fold_onto

if TYPE_CHECKING:
    from jdr.fights.timeline import Timeline
    from jdr.store import SheetRevision

Json = dict[str, Any]

SHEET_ACTION = "sheet."
"""The journal's `action` of a sheet revision: `sheet.` and its kind (`sheet.set` …)."""
CREATED = "created"
UNDONE = "undone"
REDONE = "redone"

KIND_NAMES = {
    CREATED: N_("creation"),
    "set": N_("field set"),
    "edited": N_("sheet edited"),
    "renamed": N_("new name"),
    "rolled": N_("changed by a roll"),
    "fight": N_("changed by a fight"),
    "buy": N_("purchase"),
    "award": N_("award"),
    "year": N_("school year"),
    "grant": N_("grant"),
    "rank": N_("rank raised"),
    UNDONE: N_("undo"),
    REDONE: N_("redo"),
    "removed": N_("removal"),
}
"""What a revision can be (its `kind`, stored and in JSON), and its name as a reader sees it
(`kind_name`): created, a field set, the sheet edited, renamed, changed by a roll made through it,
by a fight's outcome, by a progression step (a system's own: buy, award, year, grant, rank), an
earlier revision undone or redone, and the character removed."""

KINDS = tuple(KIND_NAMES)
"""The kinds a revision can be, as stored."""


def kind_name(kind: str) -> str:
    """A revision's kind in the reader's words (an unknown one, a plug-in's step, as it is
    spelt, its underscores as spaces).

    >>> kind_name("created"), kind_name("level_up")
    ('creation', 'level up')
    """
    from jdr.i18n import _

    found = KIND_NAMES.get(kind)
    return _(found) if found is not None else kind.replace("_", " ")


def fold(revisions: Iterable[tuple[str, Json]]) -> tuple[str, Json]:
    """The name and sheet after `(kind, data)` revisions, from nothing."""
    return fold_onto("", {}, ({"kind": kind, "data": data} for kind, data in revisions))


def timeline(revisions: Sequence[tuple[int, str, Json]]) -> Timeline:
    """The revisions `(number, kind, data)` read as a fight's actions are: which are undone,
    which can be redone."""
    from jdr.fights.timeline import REDONE as FIGHT_REDONE
    from jdr.fights.timeline import UNDONE as FIGHT_UNDONE
    from jdr.fights.timeline import Timeline
    from jdr.store import StoredEvent

    marks = {UNDONE: FIGHT_UNDONE, REDONE: FIGHT_REDONE}
    events = [
        StoredEvent(number, number, {"type": marks.get(kind, kind), "seq": data.get("target")})
        for number, kind, data in revisions
    ]
    return Timeline.of(events)


def undoable(revisions: Sequence[tuple[int, str, Json]]) -> int | None:
    """The revision `undo` takes back: the last one not yet undone, never the creation."""
    return timeline(revisions).last_undoable()


def stored(revisions: Iterable[SheetRevision]) -> list[tuple[int, str, Json]]:
    """Stored revisions as `(number, kind, data)`."""
    return [(r.revision, r.kind, r.data) for r in revisions]
