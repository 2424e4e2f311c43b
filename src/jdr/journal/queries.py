"""A campaign's journal read for a front end: a page of it as everyone may read it, each
player's luck, and a journal file verified. Each is one call; `jdr journal show|luck` and
`jdr verify` render what it returns.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jdr.answers import jsonable
from jdr.errors import InputError
from jdr.i18n import _
from jdr.journal.entries import Entry
from jdr.journal.luck import ActorLuck, Luck, audit, face_luck, verifiable_rolls
from jdr.journal.reading import open_input, pieces
from jdr.journal.replay import replayer_for
from jdr.journal.service import entry_of, public_entries
from jdr.journal.verify import FORMAT, VERSIONS, Report, Witness, verify_pieces
from jdr.journal.words import fight_sentences
from jdr.store import Campaign, Epoch, Store
from jdr.systems import default_registry
from jdr.systems.protocol import Json

__all__ = [
    "PAGE",
    "CampaignLuck",
    "Page",
    "campaign_luck",
    "journal_page",
    "luck_json",
    "verify_journal_file",
]

PAGE = 50
"""How many entries a page of the journal holds unless told (`jdr journal show --last N`)."""


@dataclass(frozen=True)
class Page:
    """A page of a campaign's journal: its entries as everyone may read them (from `first`,
    `size` at most, of `total`), which are sealed fight choices, what each fight action did in
    words (by seq) and the campaign's seed epochs."""

    campaign: Campaign
    total: int
    first: int
    size: int
    entries: list[Entry]
    sealed: set[int]
    said: dict[int, str]
    epochs: list[Epoch]

    @property
    def commitment(self) -> str | None:
        """The seed commitment of the open epoch (none yet: None)."""
        return self.epochs[-1].commitment if self.epochs else None


def journal_page(
    store: Store, name: str, last: int | None = None, start: int | None = None
) -> Page:
    """The page of the journal of campaign `name` starting at entry `start` (else the last
    page), `last` entries long (else `PAGE`): reading only the page's rows, and the earlier
    entries of the fights it shows, which its sentences need."""
    size = last if last is not None else PAGE
    campaign = store.campaign(name)
    total = store.journal_length(campaign.id)
    first = start if start is not None else max(1, total - size + 1)
    page = store.journal(campaign.id, first, first + size - 1)
    epochs = store.epochs(campaign.id)
    fights = [
        int(f)
        for f in {(entry_of(row).context or {}).get("fight") for row in page}
        if isinstance(f, int)
    ]
    earlier = store.fight_journal(campaign.id, fights, page[-1].seq) if page else []
    entries = public_entries(store, campaign, page)
    told = public_entries(store, campaign, earlier)
    sealed = {r.seq for r in page if r.action_id.startswith("#fight")}
    said = fight_sentences(campaign.system, told, {e.seq for e in entries}) if fights else {}
    return Page(campaign, total, first, size, entries, sealed, said, epochs)


@dataclass(frozen=True)
class CampaignLuck:
    """The rolls a campaign's luck audit counts (`jdr.journal.luck.verifiable_rolls`) and its
    system's luck score of a die."""

    campaign: Campaign
    rolls: list[tuple[Any, list[tuple[int, int]]]]
    luck: Luck

    def audit(self, actor: str | None = None, exact: bool = False) -> list[ActorLuck]:
        """Each player's luck (`actor`'s only, if given); `exact`: as fractions."""
        return audit(self.rolls, self.luck, actor, exact)


def campaign_luck(store: Store, name: str) -> CampaignLuck:
    """The luck audit's material for campaign `name`, from its journal as everyone reads it."""
    campaign = store.campaign(name)
    entries = public_entries(store, campaign)
    system = default_registry().get(campaign.system)
    luck = getattr(system, "luck", None) or face_luck
    return CampaignLuck(campaign, verifiable_rolls(entries), luck)


def luck_json(name: str, system: str, report: list[ActorLuck], exact: bool) -> Json:
    """`jdr journal luck --json`: each player's luck, over all their dice and by die size."""
    return {
        "campaign": name,
        "system": system,
        "actors": [
            {
                "actor": a.actor,
                "rolls": a.rolls,
                "dice": a.dice,
                "luck": a.observed,
                "mean": jsonable(a.mean, exact),
                "percentile": jsonable(a.percentile, exact),
                "at_most": jsonable(a.at_most, exact),
                "at_least": jsonable(a.at_least, exact),
                "by_size": {
                    str(size): {
                        "dice": s.dice,
                        "luck": s.observed,
                        "mean": jsonable(s.mean, exact),
                        "percentile": jsonable(s.percentile, exact),
                    }
                    for size, s in a.by_size.items()
                },
            }
            for a in report
        ],
    }


def verify_journal_file(
    file: str, pins: dict[int, str], witnesses: Sequence[Witness] = ()
) -> tuple[Json, Report]:
    """The header (every member but the streamed lists) of the journal file `file` (`-`:
    standard input) and what verifying it found, the entries `pins` name checked against their
    hashes and the journal heads `witnesses` saw. The file is read piece by piece
    (`jdr.journal.reading`): a journal of any length, in bounded memory; a file that is not a
    jdr journal is an `InputError`."""
    header: Json = {}

    def check_header(members: Any) -> None:
        header.update(members)
        found, version = members.get("format"), members.get("v")
        if found != FORMAT or isinstance(version, bool) or version not in VERSIONS:
            raise InputError(
                "FILE",
                file,
                _("the JSON of `jdr journal export`"),
                _("not a jdr journal (format {format}, v {v})").format(format=found, v=version),
            )

    handle = open_input(file, "FILE")
    try:
        report = verify_pieces(
            pieces(handle, "FILE", file), replayer_for, pins, witnesses, check_header
        )
    finally:
        if handle is not getattr(sys.stdin, "buffer", None):
            handle.close()
    return header, report
