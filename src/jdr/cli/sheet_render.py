"""How a sheet's revisions read on the terminal and in JSON: what changed, why, and the journal
entry that records it. Nothing here decides anything: the sheet service did.

>>> changes_lines([{"path": ["xp"], "before": 4, "after": 7}, {"path": ["year"], "after": 3}])
['  Xp 4 → 7', '  Year — → 3']
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from jdr.cli.render import console, emit_json
from jdr.i18n import _
from jdr.sheet_words import GENERIC, SheetWords, change_text, words_of

if TYPE_CHECKING:
    from jdr.characters.service import Revised
    from jdr.store import Campaign

Json = dict[str, Any]

__all__ = [
    "changes_json",
    "changes_lines",
    "print_revised",
    "revised_json",
    "show_revised",
    "value_text",
]


def value_text(value: Any) -> str:
    """A sheet's value as a reader sees it: text as is, tables and lists as JSON, none as —."""
    if value is None:
        return "—"
    if isinstance(value, Mapping | list):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def changes_json(changes: Sequence[Mapping[str, Any]], sheet: Any = None) -> list[Json]:
    """Each change as `{"field", "before", "after"}` (`field` as messages show a path)."""
    from jdr.characters.changes import describe

    return [dict(describe(change, sheet)) for change in changes]


def changes_lines(
    changes: Sequence[Mapping[str, Any]], sheet: Any = None, words: SheetWords = GENERIC
) -> list[str]:
    """One line per change, in the system's words: `  Vitalité 14 → 7`."""
    return [f"  {change_text(change, sheet, words)}" for change in changes]


def campaign_words(campaign: Campaign) -> SheetWords:
    """The sheet words of the campaign's system (`GENERIC` if it is not installed)."""
    from jdr.errors import JdrError
    from jdr.systems import default_registry

    try:
        return words_of(default_registry().get(campaign.system))
    except JdrError:
        return GENERIC


def revised_json(campaign: Campaign, revised: Revised, summary: str | None = None) -> Json:
    """The JSON answer of a command that wrote a revision."""
    from jdr.cli.journal_commands import journal_json

    character = revised.character
    data = revised.data
    payload: Json = {
        "campaign": campaign.name,
        "character": None
        if character is None
        else {"id": character.id, "name": character.name, "version": character.version},
        "revision": revised.revision,
        "kind": revised.kind,
        "changes": changes_json(revised.changes, revised.before),
        "rules": list(data.get("rules", [])),
        "journal": journal_json(campaign.name, revised.entry),
    }
    for key in ("cost", "reason", "rename", "target", "conflicts"):
        if key in data:
            payload[key] = data[key]
    if summary is not None:
        payload["summary"] = summary
    return payload


def print_revised(
    name: str, revised: Revised, summary: str | None = None, words: SheetWords = GENERIC
) -> None:
    """`Pikachu: revision 3 (buy)`, the step in words, each change, the journal line."""
    from jdr.cli.journal_commands import journal_lines

    out = console()
    head = _("{name}: revision {revision} ({kind})").format(
        name=name, revision=revised.revision, kind=_(revised.kind)
    )
    out.print(head, markup=False)
    rules = revised.data.get("rules") or []
    if summary:
        reason = revised.data.get("reason")
        if reason and str(reason) not in summary:
            summary = _("{summary} — why: {reason}").format(summary=summary, reason=reason)
        out.print(f"  {summary}" + (f" ({', '.join(rules)})" if rules else ""), markup=False)
    for line in changes_lines(revised.changes, revised.before, words):
        out.print(line, markup=False)
    for line in journal_lines(revised.entry):
        out.print(line, markup=False, style="dim")


def show_revised(
    campaign: Campaign, name: str, revised: Revised, as_json: bool, summary: str | None = None
) -> None:
    """A command's answer once it wrote a revision: JSON, or the lines above."""
    if as_json:
        emit_json(revised_json(campaign, revised, summary))
        return
    print_revised(name, revised, summary, campaign_words(campaign))


def stored_name(revised: Any, fallback: str) -> str:
    """The name a revised character is stored under now (`fallback` once it is removed)."""
    return revised.character.name if revised.character is not None else fallback
