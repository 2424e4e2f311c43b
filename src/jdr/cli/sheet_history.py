"""`jdr sheet history NAME --campaign C`: a sheet's revisions, what changed, when, who and why,
as a table in the system's words or as JSON.
"""

from typing import Any

from jdr.cli.render import console, emit_json
from jdr.cli.stored import opened
from jdr.i18n import _, joined


def show_history(name: str, campaign: str, last: int | None, db: str | None, json: bool) -> None:
    from rich.table import Table

    from jdr.characters.revisions import kind_name
    from jdr.characters.views import history  # reading only: no rules, no pydantic

    with opened(db) as store:
        found = store.campaign(campaign)
        character, lines = history(store, found, name, last)
    if json:
        emit_json(
            {
                "campaign": found.name,
                "character": {"id": character.id, "name": character.name},
                "version": character.version,
                "revisions": [
                    {
                        "revision": line.revision,
                        "kind": line.kind,
                        "created": line.created.isoformat(),
                        "actor": line.actor,
                        "journal": line.journal_seq,
                        "undone": line.undone,
                        **{k: v for k, v in line.data.items() if k != "changes"},
                        "changes": _history_changes(line.data, character.sheet),
                    }
                    for line in lines
                ],
            }
        )
        return
    from jdr.cli.sheet_render import campaign_words

    words = campaign_words(found)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("#", _("when"), _("what"), _("who"), _("changes"), _("why"), _("journal")):
        table.add_column(column, no_wrap=column in ("#", _("when"), _("journal")))
    for line in lines:
        kind = kind_name(line.kind) + (" " + _("(undone)") if line.undone else "")
        shown = (
            _("the whole sheet")
            if line.kind == "created"
            else joined(_history_texts(line.data, character.sheet, words))
        )
        table.add_row(
            str(line.revision),
            line.created.strftime("%m-%d %H:%M"),
            kind,
            line.actor or "-",
            shown or "-",
            _why(line.data, words) or "-",
            f"#{line.journal_seq}" if line.journal_seq is not None else "-",
        )
    out = console()
    out.print(
        _("{name} — {campaign}, revision {version}").format(
            name=character.name, campaign=found.name, version=character.version
        ),
        markup=False,
    )
    out.print(table)


def _history_changes(data: Any, sheet: Any = None) -> list[Any]:
    """A revision's changes for a reader (`sheet` names list items); the whole sheet of a
    creation is not listed."""
    from jdr.cli.sheet_render import changes_json

    changes = [c for c in data.get("changes", []) if c["path"]]
    shown = changes_json(changes, sheet)
    if data.get("rename"):
        before, after = data["rename"]
        shown.insert(0, {"field": _("name"), "before": before, "after": after})
    return shown


def _history_texts(data: Any, sheet: Any, words: Any) -> list[str]:
    """A revision's changes in the system's words (`Vitalité 14 → 7`); a rename as one."""
    from jdr.sheet_words import change_text

    texts = [change_text(c, sheet, words) for c in data.get("changes", []) if c["path"]]
    if data.get("rename"):
        before, after = data["rename"]
        texts.insert(0, f"{_('name')} {before} → {after}")
    return texts


def _why(data: Any, words: Any = None) -> str:
    parts = []
    if data.get("reason"):
        parts.append(str(data["reason"]))
    cause = data.get("cause") or {}
    if "fight" in cause:
        parts.append(_("fight {fight}").format(fight=cause["fight"]))
    elif "action" in cause:
        parts.append(_("roll: {action}").format(action=cause["action"]))
    if data.get("target"):
        parts.append(_("revision {revision}").format(revision=data["target"]))
    if data.get("cost"):
        from jdr.sheet_words import GENERIC

        named = words or GENERIC
        paid = {k: v for k, v in data["cost"].items() if isinstance(v, int | float) and v > 0}
        if paid:
            cost = ", ".join(f"{v} {named.key(str(k))}" for k, v in paid.items())
            parts.append(_("cost: {cost}").format(cost=cost))
    if data.get("rules"):
        parts.append(", ".join(data["rules"]))
    return " · ".join(parts)
