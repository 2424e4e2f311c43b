"""What can go wrong with the store, as data: the edge renders the message in the reader's language.

>>> err = StoreError("read_only", url="sqlite:///jdr.db")
>>> err.problem, err.message()
('read_only', 'the database is read-only: sqlite:///jdr.db')
>>> ConflictError(fight=3, expected=4, found=5).message()
'fight 3 changed meanwhile: the action was decided on version 4, the fight is at version 5'
"""

from __future__ import annotations

from typing import Any

from jdr.errors import JdrError
from jdr.i18n import N_, _, labelled

MESSAGES = {
    "read_only": N_("the database is read-only: {url}"),
    "disk_full": N_("the disk holding the database is full: {url}"),
    "unreachable": N_("cannot reach the database {url}: {detail}"),
    "failed": N_("the database {url} failed: {detail}"),
    "newer_schema": N_(
        "the database {url} was written by a newer version of jdr (revision {revision});"
        " upgrade jdr to use it"
    ),
    "older_schema": N_(
        "the database {url} is at an older revision ({revision}, latest {head});"
        " run `jdr db upgrade` to migrate it"
    ),
    "not_jdr": N_("the database {url} holds tables that are not jdr's"),
    "duplicate_campaign": N_("a campaign named {name} already exists"),
    "duplicate_character": N_("campaign {campaign} already has a character named {name}"),
    "no_campaign": N_("no campaign {campaign}"),
    "no_character": N_("no character {character}"),
    "no_fight": N_("no fight {fight}"),
    "conflict": N_(
        "fight {fight} changed meanwhile: the action was decided on version {expected},"
        " the fight is at version {found}"
    ),
    "journal_conflict": N_(
        "campaign {campaign}'s journal changed meanwhile: entry {seq} was written by another roll"
    ),
    "journal_gave_up": N_(
        "campaign {campaign}'s journal kept changing while the roll was made ({attempts}"
        " attempts): try again"
    ),
    "busy": N_(
        "campaign {campaign}'s journal stayed locked by another writer for {seconds} s: is a"
        " jdr process stuck?"
    ),
    "hidden_rolls": N_(
        "hidden rolls not disclosed yet: {seqs}; disclose them first, since the seed would"
        " reveal them"
    ),
    "epoch_changed": N_("campaign {campaign}'s seed was revealed meanwhile: try again"),
    "not_hidden": N_("entry {seq} is not a hidden roll of this campaign (hidden rolls: {hidden})"),
    "gave_up": N_(
        "fight {fight} kept changing while the action was decided ({attempts} attempts): try again"
    ),
    "sheet_conflict": N_(
        "sheet {name} changed meanwhile: the change was decided on revision {expected}, the"
        " sheet is at revision {found}"
    ),
    "sheet_gave_up": N_(
        "sheet {name} kept changing while the change was decided ({attempts} attempts): try again"
    ),
    "no_revision": N_("sheet {name} has no revision {revision} (revisions: 1..{last})"),
    "backup_ids": N_(
        "the database already uses ids the backup keeps (fights: {fights}; characters:"
        " {characters}): its journal names them, so they cannot change; import it into a fresh"
        " database (--db URL), or where the campaign was removed"
    ),
}


class StoreError(JdrError):
    """The database refused or failed: `problem` (a key of `MESSAGES`) and the data it shows."""

    code = "store"

    hint: str | None = None
    """What to do about it, added by the front end that knows how (a command to run)."""

    def __init__(self, problem: str, **data: Any) -> None:
        self.problem = problem
        self.data = data
        super().__init__(MESSAGES[problem].format(**data))

    def message(self) -> str:
        text = _(MESSAGES[self.problem]).format(**self.data)
        return text if self.hint is None else labelled(text, self.hint)


class ConflictError(StoreError):
    """Another append landed on the fight first: the action was decided on a stale version.

    With `attempts`, the service re-decided that many times and gave up.
    """

    code = "conflict"

    def __init__(self, fight: int, expected: int, found: int, attempts: int | None = None) -> None:
        self.fight = fight
        self.expected = expected
        self.found = found
        self.attempts = attempts
        if attempts is None:
            super().__init__("conflict", fight=fight, expected=expected, found=found)
        else:
            super().__init__("gave_up", fight=fight, attempts=attempts)


class JournalConflictError(StoreError):
    """Another entry took this `seq` (or action id) in the campaign's journal first."""

    code = "conflict"

    def __init__(self, campaign: int, seq: int, attempts: int | None = None) -> None:
        self.campaign = campaign
        self.seq = seq
        if attempts is None:
            super().__init__("journal_conflict", campaign=campaign, seq=seq)
        else:
            super().__init__("journal_gave_up", campaign=campaign, attempts=attempts)


class SheetConflictError(StoreError):
    """Another revision landed on the sheet first: the change was decided on a stale revision.

    With `attempts`, the service decided it again that many times and gave up.
    """

    code = "conflict"

    def __init__(self, name: str, expected: int, found: int, attempts: int | None = None) -> None:
        self.name = name
        self.expected = expected
        self.found = found
        self.attempts = attempts
        if attempts is None:
            super().__init__("sheet_conflict", name=name, expected=expected, found=found)
        else:
            super().__init__("sheet_gave_up", name=name, attempts=attempts)
