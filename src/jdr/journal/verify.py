"""Checking an exported journal offline: seeds, chain, sequence, dice, and results.

`verify(journal)` reads the JSON `jdr journal export` writes and checks, in file order:

1. every revealed seed hashes to its epoch's commitment;
2. entries are numbered 1, 2, 3 … with no gap, repeat or swap;
3. each entry's `prev_hash` is the hash the entry before it shows (64 zeros for the first), and
   its content hashes to the `hash` it shows;
4. its commitment is one of the journal's epochs, and its context's `seq` is its own;
5. once its epoch's seed is revealed, every die re-derives (`jdr.dice.verifiable`) to the face
   the journal shows;
6. when the rule system is installed, the result re-computes from those faces by the rules: a
   roll by its action, a fight action by deciding its command on the fight so far.

Each discrepancy is a `Problem` naming the entry, what was expected and what was found; the first
one is the answer to "where was the journal changed?". Hidden entries not yet disclosed, epochs
not yet revealed and faces typed in by players are counted, not failed: they are not checkable
yet (or ever, for typed faces).

>>> report = verify({"format": "jdr-journal", "v": 1, "epochs": [], "entries": []})
>>> report.ok, report.entries
(True, 0)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jdr.dice.source import GivenFaces, RandomSource, Recording
from jdr.dice.verifiable import (
    LATEST,
    MAX_SIZE,
    SCHEMES,
    SEED_BYTES,
    Derived,
    commitment,
)
from jdr.errors import JdrError
from jdr.i18n import N_, _
from jdr.journal.entries import GENESIS, Entry, others, plain, short

Json = dict[str, Any]

FORMAT = "jdr-journal"
VERSION = 2
"""The export file's version: 2 holds entries of either format (each says which); 1 is read."""
VERSIONS = (1, 2)

MESSAGES = {
    "format": N_("not a jdr journal: {detail}"),
    "malformed": N_("entry at position {position} is malformed: {detail}"),
    "seed": N_("epoch {epoch}: the revealed seed hashes to {found}, its commitment is {expected}"),
    "seed_form": N_("epoch {epoch}: the revealed seed is not {n} bytes of hex: {found}"),
    "missing": N_(
        "entry {seq}: expected entry {expected} here — entries {expected} to {before} are missing"
    ),
    "missing_one": N_("entry {seq}: expected entry {expected} here — entry {expected} is missing"),
    "swap": N_("entries {seq} and {other} are out of order: {other} comes before {seq}"),
    "order": N_("entry {seq}: comes after entry {previous} — entries are out of order or repeated"),
    "link": N_(
        "entry {seq}: prev_hash is {found}, but the entry before it has hash {expected}"
        " — an entry before it was changed, removed or moved"
    ),
    "hash": N_(
        "entry {seq}: its content hashes to {expected}, the journal shows {found}"
        " — the entry was changed"
    ),
    "commitment": N_("entry {seq}: commitment {found} is not one of the journal's epochs"),
    "body_hash": N_(
        "entry {seq}: its body hashes to {expected}, the body_hash shown is {found}"
        " — the body is not the one committed to"
    ),
    "context_seq": N_("entry {seq}: its context says seq {found}"),
    "die": N_(
        "entry {seq}: die {die} (d{size}) derives to {expected}, the journal shows {found}"
        " — a face, the action or its parameters were changed"
    ),
    "dice_count": N_("entry {seq}: the result used {expected} dice, the journal lists {found}"),
    "result": N_(
        "entry {seq}: at {where}, the rules give {expected} from these dice, the journal shows"
        " {found}"
    ),
    "replay": N_("entry {seq}: the rules refuse this action from these dice: {detail}"),
    "roller": N_(
        "entry {seq}: die {die} is rolled for {expected} by the rules, the journal says {found}"
        " — the luck audit would count it for the wrong player"
    ),
    "events_hash": N_(
        "entry {seq}: its events hash to {expected}, its events_hash says {found} — the entry"
        " binds other events than it shows"
    ),
    "fight_changed": N_(
        "fight {fight}: event {event} is not the one entry {seq} recorded — the stored fight"
        " was changed"
    ),
    "fight_added": N_(
        "fight {fight}: event {event} is in no journal entry — it was added to the stored fight"
    ),
    "fight_removed": N_(
        "fight {fight}: entry {seq} recorded event {event}, which the stored fight no longer"
        " holds — it was removed"
    ),
    "fights": N_("the journal's fights are malformed: {detail}"),
    "sheet_changed": N_(
        "sheet {name}: revision {revision} is not the one entry {seq} recorded — the stored"
        " sheet was changed"
    ),
    "sheet_behind": N_(
        "sheet {name}: entry {seq} recorded its revision {recorded}, the stored sheet is at"
        " revision {revision} — the stored sheet was put back"
    ),
    "sheets": N_("the journal's sheets are malformed: {detail}"),
    "pin": N_("entry {seq}: its hash is {found}, the pinned hash is {expected}"),
    "pin_missing": N_("entry {seq} is pinned but not in the journal (last entry: {last})"),
    "witness": N_(
        "entry {seq}: {source} saw hash {expected}, the journal shows {found} — the journal was"
        " rewritten after it was seen"
    ),
    "witness_missing": N_(
        "entry {seq}: {source} saw it, but the journal ends at entry {last} — entries were removed"
    ),
}


@dataclass(frozen=True)
class Problem:
    """One discrepancy: `kind` (a key of `MESSAGES`), the entry's `seq`, and the data shown."""

    kind: str
    seq: int | None
    data: Mapping[str, Any] = field(default_factory=dict)

    def message(self) -> str:
        return _(MESSAGES[self.kind]).format(seq=self.seq, **self.data)

    def to_json(self) -> Json:
        return {
            "kind": self.kind,
            "seq": self.seq,
            **plain(dict(self.data)),
            "message": self.message(),
        }


@dataclass
class Report:
    """What `verify` found: counts of what was checked and every problem, first one first."""

    entries: int = 0
    dice_checked: int = 0
    results_checked: int = 0
    sealed: list[int] = field(default_factory=list)
    unrevealed: list[int] = field(default_factory=list)
    not_derived: list[int] = field(default_factory=list)
    not_replayed: list[int] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    last: tuple[int, str] | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def not_recomputed(self) -> list[int]:
        """Every entry whose result was not re-computed, whatever the reason."""
        return sorted({*self.sealed, *self.unrevealed, *self.not_replayed})

    def to_json(self) -> Json:
        return {
            "ok": self.ok,
            "entries": self.entries,
            "dice_checked": self.dice_checked,
            "results_checked": self.results_checked,
            "sealed": self.sealed,
            "unrevealed": self.unrevealed,
            "not_derived": self.not_derived,
            "not_replayed": self.not_replayed,
            "not_recomputed": self.not_recomputed,
            "last": None if self.last is None else {"seq": self.last[0], "hash": self.last[1]},
            "problems": [p.to_json() for p in self.problems],
        }


Replayer = Callable[[Entry, RandomSource | None], Any]
"""Re-computes an entry's result from its faces (a `GivenFaces`), or returns `SKIP` when it
cannot. It sees every disclosed entry in order; with None it only takes note (a fight's later
actions are decided on the events the journal shows)."""

SKIP = object()


def verify(
    journal: Mapping[str, Any],
    replayer: Callable[[str | None], Replayer | None] | None = None,
    pins: Mapping[int, str] | None = None,
    witnesses: Sequence[Witness] = (),
) -> Report:
    """Check an exported journal (see the module's docstring).

    `replayer(system_id)` gives the function that re-computes the results of the system an
    entry's context names (`None`: generic dice notation); without it, results are not
    re-computed. `pins` maps seqs to hashes (or their first digits) seen elsewhere, e.g. on a
    forum post, which the journal must still hold; `witnesses` are such heads read from saved
    texts (`witnesses_in`), each naming where it was seen.
    """
    report = Report()
    if journal.get("format") != FORMAT or journal.get("v") not in VERSIONS:
        detail = f"format {journal.get('format')!r}, v {journal.get('v')!r}"
        report.problems.append(Problem("format", None, {"detail": detail}))
        return report
    seeds = _seeds(journal.get("epochs"), report)
    raw = journal.get("entries")
    if not isinstance(raw, list):
        report.problems.append(Problem("format", None, {"detail": _("entries is not a list")}))
        return report
    replays = _Replayers(replayer, journal.get("system"))
    previous: Entry | None = None
    previous_hash = GENESIS
    expected = 1  # the seq the next entry should have: one more than the highest seen
    swapped = _swaps(raw)
    for position, item in enumerate(raw, start=1):
        try:
            _check_shape(item)
            entry = Entry.from_json(item)
            computed = entry.hash
        except (KeyError, TypeError, ValueError, JdrError) as error:
            report.problems.append(
                Problem("malformed", None, {"position": position, "detail": _detail(error)})
            )
            return report
        report.entries += 1
        if swapped.get(position):  # named once, at the pair's first entry
            report.problems.append(Problem("swap", entry.seq - 1, {"other": entry.seq}))
        if position not in swapped:
            _check_seq(entry, expected, report)
        _check_place(entry, previous_hash, report)
        expected = max(expected, entry.seq + 1)
        _check_body(entry, seeds, replays, report)
        if entry.disclosed and item.get("body_hash", entry.body_hash) != entry.body_hash:
            found = item.get("body_hash")
            report.problems.append(
                Problem("body_hash", entry.seq, {"expected": entry.body_hash, "found": found})
            )
        _check_events_hash(entry, report)
        if computed != item["hash"]:
            report.problems.append(
                Problem("hash", entry.seq, {"expected": computed, "found": item["hash"]})
            )
        previous, previous_hash = entry, item["hash"]  # one changed entry is one problem
    if previous is not None:
        report.last = (previous.seq, previous_hash)
    _check_fights(journal.get("fights"), raw, report)
    _check_sheets(journal.get("sheets"), raw, report)
    _check_pins(pins or {}, raw, report, witnesses)
    return report


def _check_events_hash(entry: Entry, report: Report) -> None:
    """A fight action's `events_hash` (issue 18) is the hash of the events it shows."""
    from jdr.fights.binding import EVENTS_HASH, events_hash

    result = entry.result or {}
    if not entry.disclosed or EVENTS_HASH not in result:
        return
    shown = result.get("events")
    try:
        computed = events_hash(shown if isinstance(shown, list) else [])
    except JdrError:
        computed = "-"
    if computed != result[EVENTS_HASH]:
        data = {"expected": computed, "found": result[EVENTS_HASH]}
        report.problems.append(Problem("events_hash", entry.seq, data))


def _check_sheets(sheets: Any, raw: list[Any], report: Report) -> None:
    """Each exported sheet against the entries that recorded it (issue 18): its last revision's
    entry must have recorded this very sheet (`sheet_hash`), and no disclosed entry may record
    a later revision of it. Entries without `sheet_hash` (written before it) are not checked."""
    from jdr.characters.binding import recorded_hash, sheet_hash

    if sheets is None:  # an export written before sheets were exported
        return
    if not isinstance(sheets, list):
        report.problems.append(Problem("sheets", None, {"detail": _("sheets is not a list")}))
        return
    by_seq = {item.get("seq"): item for item in raw if isinstance(item, Mapping)}
    for shown in sheets:
        if not _sheet_shape(shown):
            detail = _("a sheet is not an object with character, name, revision, seq and sheet")
            report.problems.append(Problem("sheets", None, {"detail": detail}))
            return
        character, revision, seq = shown["character"], shown["revision"], shown["seq"]
        name, sheet = shown["name"], shown["sheet"]
        data = {"name": name, "revision": revision}
        latest = _latest_revision(raw, character)
        if latest is not None and latest[0] > revision:
            behind = {**data, "recorded": latest[0]}
            report.problems.append(Problem("sheet_behind", latest[1], behind))
            continue
        entry = by_seq.get(seq)
        result = entry.get("result") if isinstance(entry, Mapping) else None
        expected = recorded_hash(result, character, revision)
        try:
            found = sheet_hash(name, sheet)
        except JdrError:
            found = "-"
        if expected is not None and expected != found:
            report.problems.append(Problem("sheet_changed", seq, data))


def _sheet_shape(shown: Any) -> bool:
    """Whether an exported sheet has whole `character`, `revision`, `seq`, a `name` and a
    `sheet` object."""

    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    return (
        isinstance(shown, Mapping)
        and all(whole(shown.get(key)) for key in ("character", "revision", "seq"))
        and isinstance(shown.get("name"), str)
        and isinstance(shown.get("sheet"), Mapping)
    )


def _latest_revision(raw: list[Any], character: int) -> tuple[int, int] | None:
    """The highest revision of `character` a disclosed entry records, with that entry's seq:
    a `sheet.…` entry of the character, or a roll whose `sheets` name it."""
    best: tuple[int, int] | None = None
    for item in raw:
        if not isinstance(item, Mapping):
            continue
        context, result = item.get("context"), item.get("result")
        if not isinstance(context, Mapping) or not isinstance(result, Mapping):
            continue
        found = []
        if (
            str(context.get("action", "")).startswith("sheet.")
            and context.get("character") == character
        ):
            found.append(result.get("revision"))
        for each in result.get("sheets") or []:
            if isinstance(each, Mapping) and each.get("character") == character:
                found.append(each.get("revision"))
        for revision in found:
            if isinstance(revision, int) and (best is None or revision > best[0]):
                best = (revision, int(item.get("seq", 0)))
    return best


def _check_fights(fights: Any, raw: list[Any], report: Report) -> None:
    """Each exported fight's log against the entries that recorded it (issue 18): the first
    event changed, added or removed, per fight, in the file's order."""
    from jdr.fights.binding import Recorded, check_log

    if fights is None:  # an export written before fights were exported
        return
    if not isinstance(fights, list):
        report.problems.append(Problem("fights", None, {"detail": _("fights is not a list")}))
        return
    logs = []
    for fight in fights:
        try:
            logs.append(_fight_log(fight))
        except (KeyError, TypeError, ValueError) as error:
            report.problems.append(Problem("fights", None, {"detail": _detail(error)}))
            return
    listed = {number for number, _stored in logs}
    for number in _fights_of(raw):  # a fight the entries record but the file leaves out
        if number not in listed:
            listed.add(number)
            logs.append((number, []))
    for number, stored in logs:
        recorded = {}
        prefix = f"#fight{number}."
        for item in raw:
            context = item.get("context") if isinstance(item, Mapping) else None
            if not isinstance(context, Mapping) or context.get("fight") != number:
                continue
            action_id = str(context.get("action_id", ""))
            result = item.get("result")
            if action_id.startswith(prefix) and action_id[len(prefix) :].isdigit():
                shown = dict(result) if isinstance(result, Mapping) else {}
                recorded[int(action_id[len(prefix) :])] = Recorded(int(item["seq"]), shown)
        try:
            found = check_log(number, stored, recorded)
        except JdrError as error:
            report.problems.append(Problem("fights", None, {"detail": _detail(error)}))
            return
        if found is not None:
            data = {"fight": number, "event": found.seq}
            report.problems.append(Problem(f"fight_{found.kind}", found.entry, data))


def _fights_of(raw: list[Any]) -> list[int]:
    """The fights whose actions disclosed entries record (`#fightF.N`), by first entry."""
    found: dict[int, None] = {}
    for item in raw:
        context = item.get("context") if isinstance(item, Mapping) else None
        if not isinstance(context, Mapping):
            continue
        number = context.get("fight")
        action_id = str(context.get("action_id", ""))
        if isinstance(number, int) and not isinstance(number, bool):
            tail = action_id.removeprefix(f"#fight{number}.")
            if tail != action_id and tail.isdigit():
                found.setdefault(number)
    return list(found)


@dataclass(frozen=True)
class _Stored:
    seq: int
    action: int
    event: Json


def _fight_log(fight: Any) -> tuple[int, list[_Stored]]:
    """An exported fight's number and log (a `ValueError` naming what is wrong)."""
    if not isinstance(fight, Mapping) or not isinstance(fight.get("events"), list):
        raise ValueError(_("a fight is not an object with a list of events"))
    number = fight["fight"]
    if not isinstance(number, int) or isinstance(number, bool):
        raise ValueError(_("{field} has the wrong type").format(field="fight"))
    stored = []
    for item in fight["events"]:
        if not isinstance(item, Mapping) or not isinstance(item.get("event"), Mapping):
            raise ValueError(_("a fight event is not an object"))
        seq, action = item.get("seq"), item.get("action")
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (seq, action)):
            raise ValueError(_("{field} has the wrong type").format(field="seq"))
        assert isinstance(seq, int) and isinstance(action, int)
        stored.append(_Stored(seq, action, dict(item["event"])))
    return number, stored


class _Replayers:
    """One replayer per system an entry's (hashed) context names, made when first needed."""

    def __init__(self, make: Callable[[str | None], Replayer | None] | None, default: Any):
        self.make = make
        self.default = default
        self.made: dict[str | None, Replayer | None] = {}

    def of(self, entry: Entry) -> Replayer | None:
        context = entry.context or {}
        found = context.get("system", self.default)
        system = None if found is None else str(found)  # None: generic dice notation
        if self.make is not None and system not in self.made:
            self.made[system] = self.make(system)
        return self.made.get(system)


def _check_body(
    entry: Entry, seeds: Mapping[str, bytes | None], replays: _Replayers, report: Report
) -> None:
    """The entry's epoch, its dice, and its result re-computed by the rules."""
    if entry.commitment not in seeds:
        report.problems.append(Problem("commitment", entry.seq, {"found": entry.commitment}))
        return
    if not entry.disclosed:
        report.sealed.append(entry.seq)
        return
    faces = _check_dice(entry, seeds[entry.commitment], report)
    replay = replays.of(entry)
    if replay is None:
        if faces is not None:
            report.not_replayed.append(entry.seq)
    elif faces is None:
        _note(entry, replay)
    else:
        _check_result(entry, faces, replay, report)


_FIELDS: dict[str, type | tuple[type, ...]] = {
    "seq": int,
    "prev_hash": str,
    "commitment": str,
    "hash": str,
    "hidden": bool,
}


def _check_shape(item: Any) -> None:
    """Refuse, with a `ValueError` naming the field, an entry the checks below cannot read."""
    if not isinstance(item, Mapping):
        raise ValueError(_("not an object"))
    for name, kind in _FIELDS.items():
        if name not in item:
            raise KeyError(name)
        value = item[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ValueError(_("{field} has the wrong type").format(field=name))
    version = item.get("v", 1)
    if isinstance(version, bool) or version not in SCHEMES:
        raise ValueError(_("{field} has the wrong type").format(field="v"))
    if version == LATEST and not isinstance(item.get("time"), str):
        raise ValueError(_("{field} has the wrong type").format(field="time"))
    if "context" not in item:
        if not isinstance(item.get("body_hash"), str):
            raise ValueError(_("{field} has the wrong type").format(field="body_hash"))
        return
    for name in ("context", "dice", "result"):
        if not isinstance(item.get(name), Mapping):
            raise ValueError(_("{field} has the wrong type").format(field=name))
    rolls = item["dice"].get("rolls")
    if not isinstance(rolls, list) or not all(_die(roll) for roll in rolls):
        raise ValueError(_("dice.rolls must list [size, face] pairs of whole numbers"))
    by = item["dice"].get("by", [None] * len(rolls))
    if not isinstance(by, list) or len(by) != len(rolls):
        raise ValueError(_("dice.by must name each die's roller (or null)"))
    if not all(owner is None or isinstance(owner, str) for owner in by):
        raise ValueError(_("dice.by must name each die's roller (or null)"))


def _die(roll: Any) -> bool:
    return (
        isinstance(roll, list)
        and len(roll) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in roll)
        and 1 <= roll[0] <= MAX_SIZE
    )


def _note(entry: Entry, replay: Replayer) -> None:
    """Let the replayer see an entry it cannot check (its later entries may depend on it)."""
    try:
        replay(entry, None)
    except Exception:  # the file is untrusted: its checkable entries still count
        return


def _detail(error: BaseException) -> str:
    if isinstance(error, JdrError):
        return error.message()
    if isinstance(error, KeyError):
        return _("missing field {field}").format(field=error.args[0])
    return str(error)


def _seeds(epochs: Any, report: Report) -> dict[str, bytes | None]:
    """Commitment → revealed seed (None while the epoch is open); bad seeds are problems."""
    seeds: dict[str, bytes | None] = {}
    if not isinstance(epochs, list):
        report.problems.append(Problem("format", None, {"detail": _("epochs is not a list")}))
        return seeds
    for epoch in epochs:
        if not isinstance(epoch, Mapping):
            report.problems.append(
                Problem("format", None, {"detail": _("an epoch is not an object")})
            )
            continue
        number, pledged, text = epoch.get("number"), epoch.get("commitment"), epoch.get("seed")
        seeds[str(pledged)] = None
        if text is None:
            continue
        try:
            seed = bytes.fromhex(str(text))
        except ValueError:
            seed = b""
        if len(seed) != SEED_BYTES:
            report.problems.append(
                Problem("seed_form", None, {"epoch": number, "n": SEED_BYTES, "found": text})
            )
            continue
        if commitment(seed) != pledged:
            report.problems.append(
                Problem(
                    "seed", None, {"epoch": number, "found": commitment(seed), "expected": pledged}
                )
            )
            continue
        seeds[str(pledged)] = seed
    return seeds


def _swaps(raw: list[Any]) -> dict[int, bool]:
    """Positions (1-based) of entries swapped with their neighbour (`… 4, 6, 5, 7 …`): True at
    the first of a pair, False at the second."""
    seqs = [item.get("seq") if isinstance(item, Mapping) else None for item in raw]
    found: dict[int, bool] = {}
    expected = 1
    for index, seq in enumerate(seqs):
        if not isinstance(seq, int):
            continue
        following = seqs[index + 1] if index + 1 < len(seqs) else None
        if index + 1 not in found and seq == expected + 1 and following == expected:
            found[index + 1], found[index + 2] = True, False
        expected = max(expected, seq + 1)
    return found


def _check_seq(entry: Entry, expected: int, report: Report) -> None:
    if entry.seq == expected + 1:
        report.problems.append(Problem("missing_one", entry.seq, {"expected": expected}))
    elif entry.seq > expected:
        report.problems.append(
            Problem("missing", entry.seq, {"expected": expected, "before": entry.seq - 1})
        )
    elif entry.seq < expected:
        report.problems.append(Problem("order", entry.seq, {"previous": expected - 1}))


def _check_place(entry: Entry, previous_hash: str, report: Report) -> None:
    if entry.prev_hash != previous_hash:
        report.problems.append(
            Problem("link", entry.seq, {"found": entry.prev_hash, "expected": previous_hash})
        )
    if entry.disclosed and (entry.context or {}).get("seq") != entry.seq:
        report.problems.append(
            Problem("context_seq", entry.seq, {"found": (entry.context or {}).get("seq")})
        )


def _check_dice(entry: Entry, seed: bytes | None, report: Report) -> list[int] | None:
    """Re-derive the entry's dice; return its faces (None if they cannot be checked)."""
    dice = entry.dice or {}
    rolls = [(int(size), int(face)) for size, face in dice.get("rolls", [])]
    faces = [face for _size, face in rolls]
    if dice.get("source") != "derived":
        report.not_derived.append(entry.seq)
        return faces
    if seed is None:
        report.unrevealed.append(entry.seq)
        return None
    try:
        source = Derived(seed, entry.context or {})
    except JdrError as refused:
        report.problems.append(Problem("replay", entry.seq, {"detail": refused.message()}))
        return None
    for number, (size, face) in enumerate(rolls, start=1):
        derived = source.faces(size, 1)[0]
        if derived != face:
            report.problems.append(
                Problem(
                    "die",
                    entry.seq,
                    {"die": number, "size": size, "expected": derived, "found": face},
                )
            )
            return None
        report.dice_checked += 1
    return faces


def _check_result(entry: Entry, faces: list[int], replay: Replayer, report: Report) -> None:
    given = GivenFaces(faces)
    recording = Recording(given)
    try:
        result = replay(entry, recording)
    except JdrError as refused:
        report.problems.append(Problem("replay", entry.seq, {"detail": refused.message()}))
        return
    except Exception as broken:  # a tampered command may break a decider anyhow
        detail = f"{type(broken).__name__}: {broken}"
        report.problems.append(Problem("replay", entry.seq, {"detail": detail}))
        return
    if result is SKIP:
        report.not_replayed.append(entry.seq)
        return
    if given.used != len(faces):
        report.problems.append(
            Problem("dice_count", entry.seq, {"expected": given.used, "found": len(faces)})
        )
        return
    shown_by = (entry.dice or {}).get("by") or [None] * len(faces)
    owners = others(recording.owners, entry.actor)
    for number, (expected, found) in enumerate(zip(owners, shown_by, strict=False), start=1):
        if expected != found:  # whose die it is counts for the luck audit: the rules say
            report.problems.append(
                Problem(
                    "roller",
                    entry.seq,
                    {"die": number, "expected": _who(expected), "found": _who(found)},
                )
            )
            return
    if plain(result, entry.v) != entry.result:
        where, expected, found = difference(plain(result, entry.v), entry.result)
        report.problems.append(
            Problem(
                "result",
                entry.seq,
                {"where": where, "expected": _brief(expected), "found": _brief(found)},
            )
        )
        return
    report.results_checked += 1


def _who(owner: str | None) -> str:
    return owner if owner is not None else _("the one who acts")


_ABSENT = object()


def difference(expected: Any, found: Any, where: str = "result") -> tuple[str, Any, Any]:
    """The first place two JSON values differ: its path and the value on each side (a key on
    one side only shows `null` on the other).

    >>> difference({"events": [{"damage": 4, "hit": True}]}, {"events": [{"damage": 5}]})
    ('result.events[0].damage', 4, 5)
    """
    if isinstance(expected, Mapping) and isinstance(found, Mapping):
        for key in [*expected, *(k for k in found if k not in expected)]:
            left, right = expected.get(key, _ABSENT), found.get(key, _ABSENT)
            if left != right:
                return difference(left, right, f"{where}.{key}")
    elif isinstance(expected, list) and isinstance(found, list):
        for index, (left, right) in enumerate(zip(expected, found, strict=False)):
            if left != right:
                return difference(left, right, f"{where}[{index}]")
        if len(expected) != len(found):
            shorter = min(len(expected), len(found))
            return (
                f"{where}[{shorter}]",
                expected[shorter] if len(expected) > shorter else _ABSENT,
                found[shorter] if len(found) > shorter else _ABSENT,
            )
    return where, expected, found


def _brief(value: Any, limit: int = 160) -> str:
    import json

    if value is _ABSENT:
        return _("nothing")
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Witness:
    """A journal head seen somewhere else: entry `seq` had a hash starting with `hash`."""

    seq: int
    hash: str
    source: str


_HEAD = re.compile(r"(?:#|n°)\s?(\d{1,12})\s(?:·\s)?([0-9a-f]{10,64})\b")


def witnesses_in(text: str, source: str) -> list[Witness]:
    """The journal heads a text shows: roll lines (`journal #12 · 3fa9c2d1e0`), recap footers
    (`journal #12 3fa9c2d1e0, #13 …`), in either language (`n°12`), from any saved text: a recap,
    a forum thread saved as text or HTML.

    >>> witnesses_in("[i]journal n°7 · 3fa9c2d1e0 · engagement …[/i]", "post.txt")
    [Witness(seq=7, hash='3fa9c2d1e0', source='post.txt')]
    """
    return [Witness(int(m[1]), m[2], source) for m in _HEAD.finditer(text)]


def _check_pins(
    pins: Mapping[int, str], raw: list[Any], report: Report, witnesses: Sequence[Witness] = ()
) -> None:
    hashes = {}
    for item in raw:
        try:
            hashes[int(item["seq"])] = Entry.from_json(item).hash
        except (KeyError, TypeError, ValueError, JdrError):
            continue
    last = max(hashes, default=0)
    for seq, pinned in sorted(pins.items()):
        found = hashes.get(seq)
        if found is None:
            report.problems.append(Problem("pin_missing", seq, {"last": last}))
        elif not found.startswith(pinned.lower()):
            report.problems.append(Problem("pin", seq, {"found": short(found), "expected": pinned}))
    for seen in witnesses:
        found = hashes.get(seen.seq)
        if found is None:
            problem = Problem("witness_missing", seen.seq, {"source": seen.source, "last": last})
            report.problems.append(problem)
        elif not found.startswith(seen.hash.lower()):
            data = {"source": seen.source, "expected": seen.hash, "found": short(found)}
            report.problems.append(Problem("witness", seen.seq, data))
