"""`Store`: campaigns, characters, fights and their append-only event logs in one database.

A service owns each use case; the store only reads and writes, one transaction per call.
Campaigns and characters are found by name as people type them (`jdr.names`: no case, no accents,
no spaces); they keep the spelling they were created with, and a new name that matches an
existing one that way is refused as a duplicate.

`Store` is made of one part per thing it stores, each a class of its own module on
`jdr.store.base.Database`: `Campaigns`, `Characters` and their `Revisions`, `Epochs`, `Fights`,
the `Journal`, `Access` (invites and sessions), `Live` (changes, pace, feeds, webhooks),
`Backups`, `Pending` (sheets waiting for the GM) and `Discord` (link codes, channels, seats).

>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Tuesday table")
>>> fight = store.create_fight(campaign, ["Ana", "Bo"])
>>> store.append(fight, 0, [{"type": "started"}])
1
>>> [e.event for e in store.events(fight)]
[{'type': 'started'}]
"""

from __future__ import annotations

from pathlib import Path

from jdr.i18n import _
from jdr.store.access import Access
from jdr.store.backup import Backups
from jdr.store.campaigns import Campaigns
from jdr.store.characters import Characters
from jdr.store.discord import Discord
from jdr.store.engine import exposed, make_engine, resolve_url, safe_url, sqlite_file
from jdr.store.epochs import Epochs
from jdr.store.fights import Fights
from jdr.store.journal import Journal
from jdr.store.live import Live
from jdr.store.pending import Pending
from jdr.store.revisions import Revisions
from jdr.store.schema import ensure_current


class Store(
    Campaigns,
    Characters,
    Epochs,
    Journal,
    Fights,
    Revisions,
    Access,
    Live,
    Backups,
    Pending,
    Discord,
):
    """The database behind one URL. Create with `open_store`."""


def open_store(url: str | None = None) -> Store:
    """The store at `url`, else `JDR_DATABASE_URL`, else the embedded SQLite file.

    A new database is created at the latest revision; an older one must be migrated with
    `jdr.store.upgrade` first, and one written by a newer jdr is refused (`StoreError`).
    """
    url = resolve_url(url)
    engine = make_engine(url)
    path = sqlite_file(url)
    try:
        ensure_current(engine, url)
    except BaseException:
        engine.dispose()
        raise
    store = Store(engine, safe_url(url), path)
    if path is not None and exposed(path):
        store.warnings.append(exposed_warning(path))
    return store


def exposed_warning(path: Path) -> str:
    """The warning for a database file others can read, with the command that fixes it."""
    return _(
        "the database {path} can be read by other users of this machine (it holds the secret"
        " seed and the hidden rolls): run `chmod 600 {path}`"
    ).format(path=path)
