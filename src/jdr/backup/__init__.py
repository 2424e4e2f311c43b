"""A whole campaign as one file: `jdr campaign export NAME FILE` writes it, `jdr campaign import
FILE [--as NAME]` checks it and writes it back, verified, in one transaction.

**The file** (`document.py`) is one JSON object, written the same way for the same campaign (its
rows in key order, their JSON values as stored):

    {"format": "jdr-campaign", "v": 1, "schema": "0005",
     "campaign": {"system": …, "name": …, "settings": {…}, "created": "…+00:00"},
     "tables": {"epochs": [{…}, …], "characters": […], "sheet_revisions": […], "fights": […],
                "fight_characters": […], "fight_events": […], "fight_snapshots": […],
                "journal": […]}}

`v` is the file's format: a later jdr reads older files (a table absent from `tables` has no
rows), and this one refuses a newer `v` by name. `schema` says which database revision the
rows were read at. Each table's rows are its columns (`jdr.store.backup.PARTS`), the campaign's
id left out. Everything that makes the campaign travels — every epoch, **the open one's secret
seed included** (the table goes on rolling from it), every sheet revision and snapshot, every
fight event and kept state, every journal row with its flags and hash, hidden rolls' bodies
included — so the file is a secret: `jdr campaign export` writes it readable by its owner only
and never over an existing file without `--force`. Web invites and sessions are left out: the GM
invites the table again, and a session never leaves its database.

**Ids.** Journal entries are hash-chained and their hashed contexts name fight and character
ids, so those ids travel unchanged (`jdr.store.backup`); an import into a database that uses one
of them is refused, naming them (import into a fresh database, or where the campaign was
removed). The campaign's name is not bound the same way: each entry's context keeps the name
it was rolled under, `jdr verify` does not compare it with the export's `campaign`, and new
rolls name the new one, so `--as NEW_NAME` imports a campaign under another name and its
journal still verifies.

**Import checks before it writes** (`checks.py`): the file's shape (exit 2, one line: what is
wrong, what is allowed); then that its rows agree with each other (each journal row with its
entry, each sheet with the fold of its revisions and the hashes its entries recorded, each
fight's log with its version and its kept state with its entry); then the journal itself, by
`jdr.journal.verify` with the rules' replay, on the document `jdr journal export` would write
for it with nothing held back (every seed, every hidden body: the file holds them, so even the
open epoch's dice are re-derived). Any discrepancy refuses the import (exit 1), each one named,
and nothing is written.
"""

from jdr.backup.checks import TamperedBackupError
from jdr.backup.document import FORMAT, VERSION, VERSIONS, read, to_text
from jdr.backup.service import Restored, backup, restore

__all__ = [
    "FORMAT",
    "VERSION",
    "VERSIONS",
    "Restored",
    "TamperedBackupError",
    "backup",
    "read",
    "restore",
    "to_text",
]
