"""What only grows, read once and then extended: a fight's events and a campaign's public
journal (issue 32: the first page after a change is as quick as the next).

A fight's log is append-only (`Store.append`: an undo is one more event), and so is a journal:
an entry is never rewritten, only disclosed (a hidden roll, `DISCLOSE`) or made verifiable (the
seed revealed, `REVEAL`). So each server process keeps what it read, per store, and asks the
database only for what came after it: a page read after one new action parses one action's
events, not four thousand. Kept answers are extended, never trusted blindly:

- a fight's events: the events after the last one kept are read each time (one indexed query);
  a log shorter than what is kept (a restored backup) is read again whole;
- a campaign's public journal: the entries after the last one kept are read each time; the
  campaign's changes since the kept answer are looked at, and a disclosure, a reveal, or a
  campaign whose change counter went back (a restored backup) reads the journal again whole.
  A campaign that counts no change (`changes == 0`) is read whole each time.

Each answer is a new list: a caller may keep or change it without touching what is kept.

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi")
>>> fight = store.create_fight(campaign, ["Ana", "Bo"])
>>> version = store.append(fight, 0, [{"type": "started"}])
>>> [e.seq for e in fight_events(store, fight)]
[1]
>>> version = store.append(fight, version, [{"type": "hit"}, {"type": "ko"}])
>>> [(e.seq, e.action) for e in fight_events(store, fight)]
[(1, 1), (2, 2), (3, 2)]
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jdr.journal.entries import Entry
from jdr.store import Campaign, Store, StoredEvent
from jdr.store.changes import DISCLOSE, REVEAL

__all__ = ["fight_events", "public_journal", "verifiable_journal_rolls"]

KEPT_FIGHTS = 64
"""Fights whose events each store keeps (the most recently read)."""
KEPT_CAMPAIGNS = 64
"""Campaigns whose public journal each store keeps."""
CHANGES_LOOKED_AT = 500
"""More changes than this since a kept journal: it is read again whole."""
REREAD_KINDS = (DISCLOSE, REVEAL)
"""The changes that alter entries already written: a kept journal is read again whole."""

_LOCK = threading.Lock()
_FIGHTS: weakref.WeakKeyDictionary[Store, dict[int, list[StoredEvent]]] = (
    weakref.WeakKeyDictionary()
)
_JOURNALS: weakref.WeakKeyDictionary[Store, dict[int, _Journal]] = weakref.WeakKeyDictionary()


def fight_events(store: Store, fight_id: int) -> list[StoredEvent]:
    """The fight's whole log, as `Store.events` reads it, from what this process kept and the
    events after it."""
    with _LOCK:
        kept = _FIGHTS.setdefault(store, {}).get(fight_id)
    last = kept[-1].seq if kept else 0
    found = store.events(fight_id, last) if kept else store.events(fight_id)
    if kept and found and found[0].seq != last + 1:  # not the log kept: read it again
        kept, found = None, store.events(fight_id)
    if kept and not found and last > _version(store, fight_id):  # a shorter log: restored
        kept, found = None, store.events(fight_id)
    events = [*(kept or ()), *found]
    with _LOCK:
        fights = _FIGHTS.setdefault(store, {})
        fights.pop(fight_id, None)
        fights[fight_id] = events
        while len(fights) > KEPT_FIGHTS:
            fights.pop(next(iter(fights)))
    return list(events)


def _version(store: Store, fight_id: int) -> int:
    try:
        return int(store.fight(fight_id).version)
    except Exception:  # no such fight any more
        return -1


@dataclass(frozen=True)
class _Journal:
    changes: int
    """The campaign's change this answer is valid at."""
    entries: tuple[Entry, ...]
    rolls: tuple[tuple[Any, list[tuple[int, int]]], ...]
    """The entries' verifiable rolls (`jdr.journal.luck.verifiable_rolls`), in order."""


def _read(store: Store, campaign: Campaign) -> _Journal | None:
    """What is kept of the campaign's public journal, extended to now (None: read it whole)."""
    if campaign.changes <= 0:
        return None
    with _LOCK:
        kept = _JOURNALS.setdefault(store, {}).get(campaign.id)
    if kept is None or kept.changes > campaign.changes:
        return None
    if kept.changes < campaign.changes:
        since = store.changes_after(campaign.id, kept.changes, CHANGES_LOOKED_AT + 1)
        if len(since) > CHANGES_LOOKED_AT or any(c.kind in REREAD_KINDS for c in since):
            return None
    return kept


def _journal(store: Store, campaign: Campaign) -> _Journal:
    from jdr.journal.luck import verifiable_rolls
    from jdr.journal.service import public_entries

    kept = _read(store, campaign)
    last = kept.entries[-1].seq if kept is not None and kept.entries else 0
    rows = store.journal(campaign.id, last + 1) if kept is not None else store.journal(campaign.id)
    if kept is not None and rows and rows[0].seq <= last:  # never so: read it again whole
        kept, rows = None, store.journal(campaign.id)
    added = public_entries(store, campaign, rows)
    entries = (*(kept.entries if kept is not None else ()), *added)
    rolls = (*(kept.rolls if kept is not None else ()), *verifiable_rolls(added))
    found = _Journal(campaign.changes, entries, rolls)
    if campaign.changes > 0:
        with _LOCK:
            journals = _JOURNALS.setdefault(store, {})
            journals.pop(campaign.id, None)
            journals[campaign.id] = found
            while len(journals) > KEPT_CAMPAIGNS:
                journals.pop(next(iter(journals)))
    return found


def public_journal(store: Store, campaign: Campaign) -> list[Entry]:
    """The campaign's journal as everyone may read it (`jdr.journal.service.public_entries`),
    from what this process kept and the entries after it. `campaign` is read with its last
    change (`Campaign.changes`), as a web request reads it."""
    return list(_journal(store, campaign).entries)


def verifiable_journal_rolls(
    store: Store, campaign: Campaign
) -> list[tuple[Any, Sequence[tuple[int, int]]]]:
    """The rolls a luck audit of the public journal counts (`verifiable_rolls` of
    `public_journal`), kept and extended alike."""
    return list(_journal(store, campaign).rolls)
