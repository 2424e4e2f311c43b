"""Whether a backup's rows can be trusted, before any is written: they agree with each other,
and its journal verifies.

`agreement(tables)` compares what the journal verifier does not read with what it does:

- each journal row with the entry it holds (its `seq`, action id, hidden flag, and the epoch
  its commitment names); a public entry is never marked undisclosed;
- each sheet with its revisions: numbered 1 to the sheet's version, each kept snapshot the fold
  of the revisions before it, each revision's fold the sheet its journal entry recorded
  (`sheet_hash`), and the last fold the stored sheet (what `jdr sheet show --at` reads);
- each fight's log numbered 1 to its version, its kept state the one its entry recorded
  (`state_hash`, what `jdr fight act` starts from).

`verified(document, name)` writes the rows into a throw-away in-memory store, asks it for the
document `jdr journal export` would write with nothing held back (`export(…, secrets=True)`:
the backup holds every seed and every hidden body) and runs `jdr.journal.verify.verify` on it
with the rules' replay: every seed against its commitment, the chain, every die re-derived,
every result, fight event and sheet re-decided.

>>> agreement({"journal": [], "characters": [], "sheet_revisions": [], "fights": [],
...            "fight_events": [], "fight_snapshots": [], "epochs": []})
[]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from jdr.errors import JdrError
from jdr.i18n import N_, _, ngettext

Json = dict[str, Any]
Rows = Mapping[str, Sequence[Mapping[str, Any]]]

MESSAGES = {
    "entry": N_("journal row {seq}: its entry cannot be read ({detail})"),
    "row_seq": N_("journal row {seq}: its entry says it is entry {found}"),
    "row_action": N_("entry {seq}: the row's action id is {found}, its context says {expected}"),
    "row_hidden": N_("entry {seq}: the row's hidden flag is not its entry's"),
    "row_epoch": N_("entry {seq}: the row says epoch {found}, its commitment is not that epoch's"),
    "row_disclosed": N_("entry {seq}: a public entry is marked not disclosed"),
    "revisions": N_("sheet {name}: its revisions are {found}, not 1 to its version {version}"),
    "revision": N_("sheet {name}: revision {revision} cannot be folded ({detail})"),
    "snapshot": N_(
        "sheet {name}: the whole sheet kept at revision {revision} is not the fold of its revisions"
    ),
    "revision_entry": N_(
        "sheet {name}: revision {revision} names journal entry {seq}, which the backup does"
        " not hold"
    ),
    "revision_hash": N_(
        "sheet {name}: revision {revision} is not the one journal entry {seq} recorded — the"
        " sheet's history was changed"
    ),
    "sheet": N_(
        "sheet {name}: the stored sheet is not the fold of its revisions — the sheet was changed"
    ),
    "events": N_("fight {fight}: its events are numbered {found}, not 1 to its version {version}"),
    "fight_state": N_(
        "fight {fight}: the state it keeps is not the one journal entry {seq} recorded — the"
        " stored state was changed"
    ),
    "journal": N_("the backup's journal cannot be checked: {detail}"),
}


class Shown(Protocol):
    """A problem as the refusal lists it (`Finding`, or `jdr.journal.verify.Problem`)."""

    def message(self) -> str: ...
    def to_json(self) -> Json: ...


@dataclass(frozen=True)
class Finding:
    """Rows of a backup that disagree: `kind` (a key of `MESSAGES`) and the data shown."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def message(self) -> str:
        return _(MESSAGES[self.kind]).format(**self.data)

    def to_json(self) -> Json:
        return {"kind": self.kind, **self.data, "message": self.message()}


class TamperedBackupError(JdrError):
    """A backup whose rows disagree or whose journal does not verify: nothing was imported."""

    code = "tampered"
    exit_status = 1

    def __init__(self, problems: Sequence[Shown]) -> None:
        self.found = list(problems)
        self.extra = {"problems": [p.to_json() for p in self.found]}
        super().__init__(self.message())

    def message(self) -> str:
        first = _("the backup does not verify: {problem}; nothing was imported").format(
            problem=one_line(self.found[0].message())
        )
        more = len(self.found) - 1
        if not more:
            return first
        rest = ngettext(
            "(and {count} more problem: --json lists it)",
            "(and {count} more problems: --json lists them all)",
            more,
        )
        return f"{first} {rest.format(count=more)}"


def one_line(text: str) -> str:
    """A message of several lines (a sheet's problems, one a line) as one.

    >>> one_line("2 problems\\n  name: required\\n  energy: required")
    '2 problems: name: required; energy: required'
    """
    head, *rest = [line.strip() for line in text.splitlines() if line.strip()] or [""]
    return head if not rest else f"{head}: " + "; ".join(rest)


def agreement(tables: Rows) -> list[Finding]:
    """What disagrees among the rows (see the module), in the tables' order."""
    by_seq = {int(row["seq"]): row for row in tables.get("journal", [])}
    found = _journal_rows(tables)
    if any(f.kind == "entry" for f in found):
        return found  # entries that cannot be read: nothing below could read them either
    found += _sheets(tables, by_seq)
    found += _fights(tables)
    return found


def _journal_rows(tables: Rows) -> list[Finding]:
    from jdr.journal.entries import Entry

    commitments = {int(e["number"]): e["commitment"] for e in tables.get("epochs", [])}
    found = []
    for row in tables.get("journal", []):
        seq, data = row["seq"], row["entry"]
        try:
            if not isinstance(data, Mapping) or not isinstance(data.get("context"), Mapping):
                raise ValueError(_("the backup holds no body for it"))
            entry = Entry.from_json(data)
            if not isinstance(entry.seq, int) or not isinstance(entry.commitment, str):
                raise ValueError(_("{field} has the wrong type").format(field="seq"))
        except KeyError as error:
            detail = _("missing field {field}").format(field=error.args[0])
            found.append(Finding("entry", {"seq": seq, "detail": detail}))
            continue
        except (TypeError, ValueError) as error:
            detail = str(error)
            found.append(Finding("entry", {"seq": seq, "detail": detail}))
            continue
        context = entry.context or {}
        if entry.seq != seq:
            found.append(Finding("row_seq", {"seq": seq, "found": entry.seq}))
        if context.get("action_id") != row["action_id"]:
            data = {"seq": seq, "found": row["action_id"], "expected": context.get("action_id")}
            found.append(Finding("row_action", data))
        if entry.hidden != row["hidden"]:
            found.append(Finding("row_hidden", {"seq": seq}))
        if commitments.get(int(row["epoch"])) != entry.commitment:
            found.append(Finding("row_epoch", {"seq": seq, "found": row["epoch"]}))
        if not row["hidden"] and not row["disclosed"]:
            found.append(Finding("row_disclosed", {"seq": seq}))
    return found


def _sheets(tables: Rows, by_seq: Mapping[int, Mapping[str, Any]]) -> list[Finding]:
    """Each character's revisions folded, against its snapshots, its entries and its sheet."""
    revisions: dict[int, list[Mapping[str, Any]]] = {}
    for row in tables.get("sheet_revisions", []):
        revisions.setdefault(int(row["character_id"]), []).append(row)
    found = []
    for character in tables.get("characters", []):
        mine = sorted(revisions.get(int(character["id"]), []), key=lambda r: int(r["revision"]))
        problem = _sheet(character, mine, by_seq)
        if problem is not None:
            found.append(problem)
    return found


def _sheet(
    character: Mapping[str, Any],
    revisions: Sequence[Mapping[str, Any]],
    by_seq: Mapping[int, Mapping[str, Any]],
) -> Finding | None:
    """The first thing wrong with one character's revisions, or None."""
    from jdr.characters.binding import recorded_hash, sheet_hash
    from jdr.store.sheet_fold import fold_onto

    shown, version = character["name"], int(character["version"])
    numbers = [int(r["revision"]) for r in revisions]
    if not numbers or numbers != list(range(1, version + 1)):
        data = {"name": shown, "found": _ranges(numbers) or "-", "version": version}
        return Finding("revisions", data)
    name, sheet, folded = "", dict[str, Any](), ""
    for revision in revisions:
        number = int(revision["revision"])
        try:
            name, sheet = fold_onto(name, sheet, [revision])
            folded = sheet_hash(name, sheet)
            kept = revision["snapshot"]
            if kept is not None and sheet_hash(kept["name"], kept["sheet"]) != folded:
                return Finding("snapshot", {"name": shown, "revision": number})
            if revision["journal_seq"] is None:
                continue
            seq = int(revision["journal_seq"])
            entry = by_seq.get(seq)
            data = {"name": shown, "revision": number, "seq": seq}
            if entry is None:
                return Finding("revision_entry", data)
            recorded = recorded_hash(entry["entry"].get("result"), int(character["id"]), number)
            if recorded is not None and recorded != folded:
                return Finding("revision_hash", data)
        except (KeyError, TypeError, ValueError, AttributeError, JdrError) as error:
            detail = error.message() if isinstance(error, JdrError) else repr(error)
            return Finding("revision", {"name": shown, "revision": number, "detail": detail})
    if folded != _hash_of(character):
        return Finding("sheet", {"name": shown})
    return None


def _hash_of(character: Mapping[str, Any]) -> str | None:
    from jdr.characters.binding import sheet_hash

    try:
        return sheet_hash(character["name"], character["sheet"])
    except JdrError:
        return None


def _fights(tables: Rows) -> list[Finding]:
    """Each fight's log against its version, its kept state against the entry that recorded
    it."""
    from jdr.fights.binding import Recorded, state_mismatch

    events: dict[int, dict[int, Mapping[str, Any]]] = {}
    for row in tables.get("fight_events", []):
        events.setdefault(int(row["fight_id"]), {})[int(row["seq"])] = row
    entries = {row["action_id"]: row for row in tables.get("journal", [])}
    snapshots = {int(row["fight_id"]): row for row in tables.get("fight_snapshots", [])}
    found = []
    for fight in tables.get("fights", []):
        number, version = int(fight["id"]), int(fight["version"])
        log = events.get(number, {})
        if sorted(log) != list(range(1, version + 1)):
            data = {"fight": number, "found": _ranges(sorted(log)) or "-", "version": version}
            found.append(Finding("events", data))
            continue
        kept = snapshots.get(number)
        if kept is None or int(kept["version"]) not in log:
            continue  # no state kept, or one the store ignores (the log is folded instead)
        action = int(log[int(kept["version"])]["action"])
        entry = entries.get(f"#fight{number}.{action}")
        if entry is None or not isinstance(kept["state"], Mapping):
            continue
        result = entry["entry"].get("result")
        recorded = Recorded(int(entry["seq"]), dict(result) if isinstance(result, Mapping) else {})
        try:
            differs = state_mismatch(number, dict(kept["state"]), recorded) is not None
        except JdrError:  # a state no hash can be taken of
            differs = True
        if differs:
            found.append(Finding("fight_state", {"fight": number, "seq": entry["seq"]}))
    return found


def _ranges(numbers: Sequence[int]) -> str:
    """`1-3, 5` for [1, 2, 3, 5].

    >>> _ranges([1, 2, 3, 5, 7, 8]), _ranges([])
    ('1-3, 5, 7-8', '')
    """
    parts: list[str] = []
    for number in numbers:
        if parts and number == int(parts[-1].split("-")[-1]) + 1:
            parts[-1] = f"{parts[-1].split('-')[0]}-{number}"
        else:
            parts.append(str(number))
    return ", ".join(parts)


def verified(document: Mapping[str, Any], name: str) -> tuple[Any, list[Shown]]:
    """The `jdr.journal.verify.Report` on the backup's journal (None if it could not be made)
    and its problems, the rows written into a throw-away in-memory store first (see the
    module); a journal the store cannot even export is a `Finding`."""
    from jdr.journal.replay import replayer_for
    from jdr.journal.service import export
    from jdr.journal.verify import verify
    from jdr.store import open_store

    scratch = open_store("sqlite://")
    try:
        campaign_id = scratch.load_campaign(document["campaign"], document["tables"], name)
        journal = export(scratch, scratch.campaign_by_id(campaign_id), secrets=True)
        report = verify(journal, replayer_for)
    except (KeyError, TypeError, ValueError, JdrError) as error:
        detail = error.message() if isinstance(error, JdrError) else repr(error)
        return None, [Finding("journal", {"detail": detail})]
    finally:
        scratch.close()
    return report, list(report.problems)
