"""Backing a campaign up and bringing it back: the two use cases `jdr campaign export` and
`jdr campaign import` call (the file's format: `jdr.backup`).

>>> from jdr.store import open_store
>>> source = open_store("sqlite://")
>>> campaign = source.campaign_by_id(source.create_campaign("poledemos", "Mardi"))
>>> text = backup(source, campaign).text
>>> target = open_store("sqlite://")
>>> restored = restore(target, read_text(text))
>>> restored.campaign.name, restored.counts["journal"], restored.report.ok
('Mardi', 0, True)
>>> restore(target, read_text(text))
Traceback (most recent call last):
...
jdr.store.errors.StoreError: a campaign named Mardi already exists
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jdr.backup.checks import TamperedBackupError, agreement, verified
from jdr.backup.document import check, make, to_text
from jdr.errors import LimitError
from jdr.i18n import _

Json = dict[str, Any]


@dataclass(frozen=True)
class Written:
    """A campaign's backup: the document, its text and each table's row count."""

    document: Json
    text: str
    counts: dict[str, int]


def backup(store: Any, campaign: Any) -> Written:
    """`campaign`'s backup, refused (`LimitError`) when `jdr campaign import` could not read it
    back (over `jdr.bounded.MAX_BACKUP_BYTES`)."""
    from jdr.bounded import MAX_BACKUP_BYTES, size_text

    document = make(store, campaign)
    text = to_text(document)
    size = len(text.encode("utf-8"))
    if size > MAX_BACKUP_BYTES:
        raise LimitError(
            _("campaign"),
            campaign.name,
            _("a backup of at most {size}, what `jdr campaign import` reads").format(
                size=size_text(MAX_BACKUP_BYTES)
            ),
            _("its backup would be larger than {size}").format(size=size_text(MAX_BACKUP_BYTES)),
        )
    return Written(document, text, counts(document["tables"]))


def counts(tables: Mapping[str, Sequence[Any]]) -> dict[str, int]:
    """How many rows of each table a backup holds, in the tables' order."""
    from jdr.store.backup import PARTS

    return {part.name: len(tables.get(part.name, [])) for part in PARTS}


def read_text(text: str, label: str = "-") -> Json:
    """A backup from its text, checked as `jdr.backup.document.read` checks a file's (without
    its size bound: the text is already in memory)."""
    from jdr.bounded import loads_json

    return check(loads_json(text, "FILE", label), label)


@dataclass(frozen=True)
class Restored:
    """A campaign imported: as stored now, each table's row count, and the verifier's report
    on its journal."""

    campaign: Any
    counts: dict[str, int]
    report: Any


def restore(store: Any, document: Mapping[str, Any], name: str | None = None) -> Restored:
    """Import a backup `check`ed by `jdr.backup.document` into `store`, under `name` (default:
    the campaign's name in the file), and return it.

    Refused with nothing written: a system not installed (`UnknownNameError`), a name already
    taken (`StoreError` `duplicate_campaign`), a fight or character id the database uses
    (`backup_ids`), rows that disagree or a journal that does not verify
    (`TamperedBackupError`, every problem listed). The rows are written in one transaction.
    """
    from jdr.names import check_name
    from jdr.systems import default_registry

    header, tables = document["campaign"], document["tables"]
    chosen = check_name(*(("--as", name) if name is not None else (_("campaign"), header["name"])))
    default_registry().get(header["system"])  # refused by name, with the systems installed
    store.check_free(chosen, tables)  # before the verification's work, and again when writing
    problems: list[Any] = list(agreement(tables))
    report = None
    if not any(found.kind == "entry" for found in problems):  # entries it could read
        report, failed = verified(document, chosen)
        problems += failed
    if problems:
        raise TamperedBackupError(problems)
    campaign_id = store.load_campaign(header, tables, chosen, named_ids(tables))
    return Restored(store.campaign_by_id(campaign_id), counts(tables), report)


def named_ids(tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, int]:
    """The largest character and fight ids the journal's contexts name (a removed character's
    too), for the store to keep them from later rows.

    >>> named_ids({"journal": [{"entry": {"context": {"character": 7}}},
    ...                        {"entry": {"context": {"fight": 2, "character": True}}}]})
    {'characters': 7, 'fights': 2}
    """
    largest = {"characters": 0, "fights": 0}
    keys = {"character": "characters", "fight": "fights"}
    for row in tables.get("journal", []):
        entry = row.get("entry")
        context = entry.get("context") if isinstance(entry, Mapping) else None
        if not isinstance(context, Mapping):
            continue
        for key, table in keys.items():
            value = context.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                largest[table] = max(largest[table], min(value, 2**31 - 1))
    return largest
