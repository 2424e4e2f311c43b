"""A campaign's backup file: its header, its text, and reading one back within limits.

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.campaign_by_id(store.create_campaign("example", "Mardi", seed=bytes(32)))
>>> document = make(store, campaign)
>>> document["format"], document["v"], sorted(document["tables"])[:3]
('jdr-campaign', 1, ['characters', 'epochs', 'fight_characters'])
>>> to_text(document) == to_text(make(store, campaign))
True
>>> check(json.loads(to_text(document)), "mardi.json")["campaign"]["name"]
'Mardi'
>>> check({"format": "jdr-campaign", "v": 2}, "new.json")
Traceback (most recent call last):
...
jdr.errors.InputError: FILE: 'new.json' (written by a newer jdr (backup format v 2); this jdr...)
>>> check({"format": "jdr-campaign", "v": 1, "schema": "9999"}, "odd.json")
Traceback (most recent call last):
...
jdr.errors.InputError: FILE: 'odd.json' (written by a newer jdr (database schema "9999"); ...)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jdr.errors import InputError
from jdr.i18n import _

Json = dict[str, Any]

FORMAT = "jdr-campaign"
VERSION = 1
"""The backup file's format. A later jdr keeps reading every earlier one (`VERSIONS`)."""
VERSIONS = (1,)
FIRST_SCHEMA = "0005"
"""The database revision (`schema`) of the first backups jdr wrote: it reads those from it to
its own (`jdr.store.schema.HEAD`)."""


def make(store: Any, campaign: Any) -> Json:
    """The backup document of `campaign` (see `jdr.backup`)."""
    from jdr.store.schema import HEAD

    rows = store.dump_campaign(campaign.id)
    return {
        "format": FORMAT,
        "v": VERSION,
        "schema": HEAD,
        "campaign": rows["campaign"],
        "tables": rows["tables"],
    }


def to_text(document: Json) -> str:
    """The file's text: the same bytes for the same campaign (keys in the order written, one
    space of indent a level, non-ASCII as itself)."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def allowed() -> str:
    """What a backup file is, as a refusal says it."""
    return _("a backup written by `jdr campaign export`")


def read(source: str | Path) -> Json:
    """The backup in file `source` (`-`: standard input), read within `MAX_BACKUP_BYTES` and
    `jdr.bounded`'s nesting and digits, then `check`ed (`InputError` naming what is wrong)."""
    from jdr.bounded import MAX_BACKUP_BYTES, loads_json, read_text

    label = str(source)
    text = read_text(source, MAX_BACKUP_BYTES, "FILE", _("a readable backup file"))
    try:
        data = loads_json(text, "FILE", label)
    except json.JSONDecodeError as error:
        reason = _("not JSON (line {line}, column {column})").format(
            line=error.lineno, column=error.colno
        )
        raise InputError("FILE", label, allowed(), reason) from None
    return check(data, label)


def check(data: Any, label: str) -> Json:
    """`data` if it is a backup this jdr can import: its header, then its rows
    (`jdr.store.backup.check_rows`); else an `InputError` on `FILE` saying what is wrong."""
    from jdr.store.backup import Malformed, check_rows

    if not isinstance(data, dict):
        raise InputError("FILE", label, allowed(), _("not an object"))
    found, version = data.get("format"), data.get("v")
    if found != FORMAT:
        reason = _("not a jdr campaign backup (format {format})").format(format=_shown(found))
        if found == "jdr-journal":
            reason = _("a journal export (`jdr verify` reads it), not a campaign backup")
        raise InputError("FILE", label, allowed(), reason)
    whole = isinstance(version, int) and not isinstance(version, bool)
    if isinstance(version, int) and whole and version > VERSION:
        reason = _(
            "written by a newer jdr (backup format v {v}); this jdr reads v {versions}:"
            " upgrade jdr to import it"
        ).format(v=version, versions=", ".join(map(str, VERSIONS)))
        raise InputError("FILE", label, allowed(), reason)
    if not whole or version not in VERSIONS:
        reason = _("backup format v {v} is not one jdr wrote (it reads v {versions})").format(
            v=_shown(version), versions=", ".join(map(str, VERSIONS))
        )
        raise InputError("FILE", label, allowed(), reason)
    _check_schema(data.get("schema"), label)
    try:
        check_rows(data.get("campaign"), data.get("tables"))
    except Malformed as problem:
        reason = _("{where}: {reason}").format(where=problem.where, reason=problem.reason)
        raise InputError("FILE", label, problem.allowed, reason) from None
    return data


def schemas() -> list[str]:
    """The database revisions a backup may say it was read at: from `FIRST_SCHEMA` to this
    jdr's own, each a migration it knows."""
    import re

    from jdr.store.schema import HEAD, MIGRATIONS

    known = {
        match[1]
        for path in (MIGRATIONS / "versions").glob("r*.py")
        if (match := re.fullmatch(r"r(\d{4})_\w+\.py", path.name))
    }
    return sorted(r for r in known | {HEAD} if FIRST_SCHEMA <= r <= HEAD)


def _check_schema(found: Any, label: str) -> None:
    """Refuse a backup whose `schema` is not a database revision this jdr reads backups of,
    saying what was found and what is allowed."""
    allowed = schemas()
    if isinstance(found, str) and found in allowed:
        return
    span = _("{first} to {last}").format(first=allowed[0], last=allowed[-1])
    if isinstance(found, str) and found.isdigit() and len(found) == 4 and found > allowed[-1]:
        reason = _(
            "written by a newer jdr (database schema {schema}); this jdr reads schema {allowed}:"
            " upgrade jdr to import it"
        ).format(schema=_shown(found), allowed=span)
    else:
        reason = _(
            "database schema {schema} is not one jdr wrote backups at (it reads schema {allowed})"
        ).format(schema=_shown(found), allowed=span)
    raise InputError("FILE", label, allowed_schemas(span), reason)


def allowed_schemas(span: str) -> str:
    return _("a backup written by `jdr campaign export` (database schema {allowed})").format(
        allowed=span
    )


def _shown(value: Any) -> str:
    """A header value as a refusal shows it (JSON's words: `null`, not `None`)."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"
