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
from collections.abc import Callable, Iterable, Mapping, Sequence
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
    "sheet_entry": N_(
        "sheet {name}: entry {seq} recorded no revision {revision} of it — the sheet names"
        " another entry than the one that recorded it"
    ),
    "snapshot_changed": N_(
        "sheet {name}: the whole sheet kept at revision {revision} is not the one entry {seq}"
        " recorded — a past revision was changed"
    ),
    "field": N_("entry {seq}: its field {field} is bound by no hash — it was added to the entry"),
    "sealed_revealed": N_(
        "entry {seq}: a hidden entry shown sealed in a revealed epoch — its epoch was revealed"
        " only once it was disclosed, so its body was taken out"
    ),
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

BROWSER_DETAILS = {
    "json_nested": N_("not JSON: nested too deeply at character {at}"),
    "json_key": N_("not JSON: a key expected at character {at}"),
    "json_colon": N_("not JSON: ':' expected at character {at}"),
    "json_object": N_("not JSON: ',' or '}}' expected at character {at}"),
    "json_array": N_("not JSON: ',' or ']' expected at character {at}"),
    "json_value": N_("not JSON: a value expected at character {at}"),
    "json_string": N_("not JSON: a string not closed at character {at}"),
    "json_control": N_("not JSON: a control character in a string at character {at}"),
    "json_end": N_("not JSON: more text after the value at character {at}"),
    "not_finite": N_("not a finite number"),
    "too_large": N_("{number} is too large to be exact in JSON"),
    "scheme": N_("unknown scheme version {version}"),
    "not_object": N_("not an object"),
    "missing_field": N_("missing field {field}"),
    "wrong_type": N_("{field} has the wrong type"),
    "dice_rolls": N_("dice.rolls must list [size, face] pairs of whole numbers"),
    "format_version": N_("format {format}, v {v}"),
    "not_list": N_("{field} is not a list"),
    "epoch": N_("an epoch is not an object"),
    "fight": N_("a fight is not an object with a list of events"),
    "sheet_item": N_(
        "an item of {field} is not an object with character, name, revision, seq and sheet"
    ),
}
"""The browser verifier's details (`DETAILS` of src/jdr/web/static/verify.js, held equal by the
tests): why a part of a journal is malformed, by key; the journal page hands their translation
to the page's verifier (`browser_messages`). A `}}` is a `}` (the templates are `str.format`'s)."""


def browser_messages() -> dict[str, dict[str, str]]:
    """The browser verifier's words in the current language: `{"kinds": MESSAGES, "details":
    BROWSER_DETAILS}` translated, the templates as verify.js fills them (`{name}`, a `}` as is)."""
    return {
        "kinds": {kind: _(text) for kind, text in MESSAGES.items()},
        "details": {key: _(text).replace("}}", "}") for key, text in BROWSER_DETAILS.items()},
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
    from jdr.journal.reading import pieces_of

    return verify_pieces(pieces_of(journal), replayer, pins, witnesses)


def verify_pieces(
    pieces: Iterable[tuple[str, Any]],
    replayer: Callable[[str | None], Replayer | None] | None = None,
    pins: Mapping[int, str] | None = None,
    witnesses: Sequence[Witness] = (),
    header: Callable[[Mapping[str, Any]], None] | None = None,
) -> Report:
    """`verify` on a journal read piece by piece (`jdr.journal.reading.pieces`): entries are
    checked as they come and dropped, keeping only what later checks need (`jdr.journal.kept`).
    `header(members)` sees the members read before the first entry (`format`, `v` …) and may
    refuse the file by raising."""
    check = _Verification(replayer, pins or {}, witnesses)
    for key, value in pieces:
        if check.take(key, value, header):
            break
    return check.finish(header)


class _Verification:
    """One run of `verify_pieces`: the state kept between pieces."""

    def __init__(
        self,
        replayer: Callable[[str | None], Replayer | None] | None,
        pins: Mapping[int, str],
        witnesses: Sequence[Witness],
    ) -> None:
        from jdr.journal.kept import Kept

        self.report = Report()
        self.replayer, self.pins, self.witnesses = replayer, pins, witnesses
        self.kept = Kept({*pins, *(seen.seq for seen in witnesses)})
        self.members: dict[str, Any] = {}
        self.waiting: dict[str, list[Any]] = {}  # items read before they can be checked
        self.started = False  # the header is read: entries are checked as they come
        self.stopped = False  # the file cannot be checked further (a malformed entry …)
        self.entries_seen = self.entries_done = False
        self.seeds: dict[str, bytes | None] = {}
        self.revealed: set[str] = set()
        self.replays: _Replayers | None = None
        self.previous_hash = GENESIS
        self.expected = 1  # the seq the next entry should have: one more than the highest seen
        self.position = 0
        self.pending: Any = (
            _NOTHING  # the entry read last, checked once the next one's seq is known
        )
        self.swap_expected = 1
        self.swapped: dict[int, bool] = {}
        self.fight_logs: list[tuple[int, list[Any]]] | None = None
        self.fight_error: str | None = None
        self.later: dict[str, list[Problem]] = {"fights": [], "sheets": [], "snapshots": []}
        self.sheet_stopped = {"sheets": False, "snapshots": False}
        self.listed: set[str] = set()  # the lists read item by item

    # reading

    def take(
        self, key: str, value: Any, header: Callable[[Mapping[str, Any]], None] | None
    ) -> bool:
        """Use one piece; True when nothing after it needs reading."""
        from jdr.journal.reading import BEGIN, END

        if key == "entries":
            if value is BEGIN:
                self.entries_seen = True
                if not self.started and "epochs" in self.members and "format" in self.members:
                    self._start(header)
                return self.stopped
            if value is END:
                self._end_entries()
                return self.stopped
            if not self.entries_seen:  # not a list
                self.members["entries"] = value
                return False
            if self.started:
                self._entry(value)
            else:
                self.waiting.setdefault("entries", []).append(value)
            return self.stopped
        if key in ("fights", "sheets", "snapshots"):
            if value is BEGIN:
                self.listed.add(key)
                self.members[key] = []
            elif key in self.listed:
                if value is not END:
                    self._later(key, value)
            else:
                self.members[key] = value
            return self.stopped
        self.members[key] = value
        return False

    def _later(self, key: str, item: Any) -> None:
        if key == "fights":
            self._fight(item)
        elif self.entries_done and not self.stopped:
            self._sheet(key, item)
        else:
            self.waiting.setdefault(key, []).append(item)

    def finish(self, header: Callable[[Mapping[str, Any]], None] | None) -> Report:
        if not self.started and not self.stopped:
            self._start(header)
            if not self.stopped:
                entries = self.members.get("entries", self.waiting.get("entries"))
                if not isinstance(entries, list) and not self.entries_seen:
                    detail = _("entries is not a list")
                    self.report.problems.append(Problem("format", None, {"detail": detail}))
                    return self.report
        if not self.entries_done and not self.stopped:
            self._end_entries()
        if self.stopped:
            return self.report
        self._check_fights()
        for key in ("sheets", "snapshots"):
            shown = self.members.get(key)
            if shown is not None and key not in self.listed:
                detail = _("{field} is not a list").format(field=key)
                self.later[key].append(Problem("sheets", None, {"detail": detail}))
        for key in ("fights", "sheets", "snapshots"):
            self.report.problems.extend(self.later[key])
        self._check_pins()
        return self.report

    # the header and the entries

    def _start(self, header: Callable[[Mapping[str, Any]], None] | None) -> None:
        self.started = True
        if header is not None:
            header(self.members)
        found, version = self.members.get("format"), self.members.get("v")
        if found != FORMAT or isinstance(version, bool) or version not in VERSIONS:
            detail = f"format {found!r}, v {version!r}"
            self.report.problems.append(Problem("format", None, {"detail": detail}))
            self.stopped = True
            return
        self.seeds, self.revealed = _seeds(self.members.get("epochs"), self.report)
        self.replays = _Replayers(self.replayer, self.members.get("system"))
        for item in self.waiting.pop("entries", []):
            if self.stopped:
                break
            self._entry(item)

    def _entry(self, item: Any) -> None:
        """Note the entry's seq for swaps, and check the one before it."""
        self.position += 1
        seq = item.get("seq") if isinstance(item, Mapping) else None
        if self.pending is not _NOTHING:
            self._swap(self.pending, seq)
            self._check(self.pending)
        self.pending = (self.position, item)

    def _swap(self, pending: tuple[int, Any], following: Any) -> None:
        """Mark a pair of entries swapped with each other (`… 4, 6, 5, 7 …`): True at the first
        of the pair, False at the second."""
        position, item = pending
        seq = item.get("seq") if isinstance(item, Mapping) else None
        if not isinstance(seq, int):
            return
        new = position not in self.swapped and seq == self.swap_expected + 1
        if new and following == self.swap_expected:
            self.swapped[position], self.swapped[position + 1] = True, False
        self.swap_expected = max(self.swap_expected, seq + 1)

    def _end_entries(self) -> None:
        if not self.started:
            return
        if self.pending is not _NOTHING and not self.stopped:
            self._swap(self.pending, None)
            self._check(self.pending)
            self.pending = _NOTHING
        self.entries_done = True
        for key in ("sheets", "snapshots"):
            for item in self.waiting.pop(key, []):
                self._sheet(key, item)

    def _check(self, pending: tuple[int, Any]) -> None:
        """Steps 2 to 6 on one entry, in file order."""
        if self.stopped:
            return
        position, item = pending
        report = self.report
        try:
            _check_shape(item)
            entry = Entry.from_json(item)
            computed = entry.hash
        except (KeyError, TypeError, ValueError, JdrError) as error:
            report.problems.append(
                Problem("malformed", None, {"position": position, "detail": _detail(error)})
            )
            self.stopped = True
            return
        report.entries += 1
        if self.swapped.get(position):  # named once, at the pair's first entry
            report.problems.append(Problem("swap", entry.seq - 1, {"other": entry.seq}))
        if position not in self.swapped:
            _check_seq(entry, self.expected, report)
        _check_place(entry, self.previous_hash, report)
        self.expected = max(self.expected, entry.seq + 1)
        assert self.replays is not None
        _check_body(entry, self.seeds, self.revealed, self.replays, report)
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
        _check_fields(entry, item, report)
        self.previous_hash = item["hash"]  # one changed entry is one problem
        report.last = (entry.seq, item["hash"])
        self.kept.entry(item, computed)

    # fights, sheets, pins

    def _fight(self, fight: Any) -> None:
        """Keep a fight of `fights` as its events' hashes, grouped by action."""
        from jdr.journal.kept import fight_log

        if self.fight_error is not None:
            return
        try:
            found = fight_log(fight)
        except (KeyError, TypeError, ValueError) as error:
            self.fight_error = _detail(error)
            return
        if self.fight_logs is None:
            self.fight_logs = []
        self.fight_logs.append(found)

    def _check_fights(self) -> None:
        """Step 8: each fight's log against the entries that recorded it: the first event
        changed, added or removed, per fight, in the file's order."""
        from jdr.journal.kept import fight_problem

        shown = self.members.get("fights")
        if shown is None:  # an export written before fights were exported
            return
        problems = self.later["fights"]
        if not isinstance(shown, list):
            problems.append(Problem("fights", None, {"detail": _("fights is not a list")}))
            return
        if self.fight_error is not None:
            problems.append(Problem("fights", None, {"detail": self.fight_error}))
            return
        logs = list(self.fight_logs or [])
        listed = {number for number, _groups in logs}
        logs += [(number, []) for number in self.kept.fights if number not in listed]
        for number, groups in logs:
            try:
                found = fight_problem(number, groups, self.kept.actions.get(number, {}))
            except JdrError as error:
                problems.append(Problem("fights", None, {"detail": _detail(error)}))
                return
            if found is not None:
                kind, event, seq = found
                data = {"fight": number, "event": event}
                problems.append(Problem(f"fight_{kind}", seq, data))

    def _sheet(self, key: str, shown: Any) -> None:
        """Step 9: one sheet of `sheets` (or one kept snapshot of `snapshots`) against the
        entries that recorded it."""
        from jdr.characters.binding import sheet_hash
        from jdr.journal.kept import sheet_shape

        problems = self.later[key]
        if self.sheet_stopped[key]:
            return
        if not sheet_shape(shown):
            detail = (
                _("a sheet is not an object with character, name, revision, seq and sheet")
                if key == "sheets"
                else _("a snapshot is not an object with character, name, revision, seq and sheet")
            )
            problems.append(Problem("sheets", None, {"detail": detail}))
            self.sheet_stopped[key] = True
            return
        character, revision, seq = shown["character"], shown["revision"], shown["seq"]
        data = {"name": shown["name"], "revision": revision}
        latest = self.kept.latest.get(character)
        if key == "sheets" and latest is not None and latest[0] > revision:
            problems.append(Problem("sheet_behind", latest[1], {**data, "recorded": latest[0]}))
            return
        records = [r for r in self.kept.sheets.get(seq, []) if r.names(character, revision)]
        if not records:
            problems.append(Problem("sheet_entry", seq, data))
            return
        expected = records[0].sheet_hash
        try:
            found = sheet_hash(shown["name"], dict(shown["sheet"]))
        except JdrError:
            found = "-"
        if expected is not None and expected != found:
            kind = "sheet_changed" if key == "sheets" else "snapshot_changed"
            problems.append(Problem(kind, seq, data))

    def _check_pins(self) -> None:
        hashes, last, report = self.kept.hashes, self.kept.last, self.report
        for seq, pinned in sorted(self.pins.items()):
            found = hashes.get(seq)
            if found is None:
                report.problems.append(Problem("pin_missing", seq, {"last": last}))
            elif not found.startswith(pinned.lower()):
                data = {"found": short(found), "expected": pinned}
                report.problems.append(Problem("pin", seq, data))
        for seen in self.witnesses:
            found = hashes.get(seen.seq)
            if found is None:
                missing: dict[str, Any] = {"source": seen.source, "last": last}
                report.problems.append(Problem("witness_missing", seen.seq, missing))
            elif not found.startswith(seen.hash.lower()):
                data = {"source": seen.source, "expected": seen.hash, "found": short(found)}
                report.problems.append(Problem("witness", seen.seq, data))


_NOTHING = object()


_BOUND = frozenset({"seq", "prev_hash", "commitment", "hidden", "body_hash", "hash", "v"})
"""The fields of an entry its hash covers (with `time` in format 2, the body once disclosed)."""


def _check_fields(entry: Entry, item: Mapping[str, Any], report: Report) -> None:
    """An entry may hold no field that no hash binds: each field added to it is named."""
    bound = set(_BOUND)
    if entry.v == LATEST:
        bound.add("time")
    if entry.disclosed:
        bound |= {"context", "dice", "result"} | ({"salt"} if entry.hidden else set())
    for name in item:
        if name not in bound:
            report.problems.append(Problem("field", entry.seq, {"field": name}))
            return


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
    entry: Entry,
    seeds: Mapping[str, bytes | None],
    revealed: set[str],
    replays: _Replayers,
    report: Report,
) -> None:
    """The entry's epoch, its dice, and its result re-computed by the rules. A sealed entry in
    a revealed epoch is a problem: an epoch is revealed only once its hidden rolls are
    disclosed, so its body was taken out."""
    if entry.commitment not in seeds:
        report.problems.append(Problem("commitment", entry.seq, {"found": entry.commitment}))
        return
    if not entry.disclosed:
        if entry.commitment in revealed:
            report.problems.append(Problem("sealed_revealed", entry.seq))
        else:
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


def _seeds(epochs: Any, report: Report) -> tuple[dict[str, bytes | None], set[str]]:
    """Commitment → revealed seed (None while the epoch is open; bad seeds are problems), and
    the commitments of the epochs shown revealed (a seed, even a bad one)."""
    seeds: dict[str, bytes | None] = {}
    revealed: set[str] = set()
    if not isinstance(epochs, list):
        report.problems.append(Problem("format", None, {"detail": _("epochs is not a list")}))
        return seeds, revealed
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
        revealed.add(str(pledged))
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
    return seeds, revealed


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
    (today's compact `journal #12 3fa9c2d1e0 … #41 77ab01c2d3`, the first and the last entry a
    recap tells; older posts' `journal #12 3fa9c2d1e0, #13 …`, every entry), in either language
    (`n°12`), from any saved text: a recap or each of its messages, a forum thread saved as text
    or HTML.

    A compact line witnesses its two heads, and through them every entry between: each entry's
    hash covers the one before it (`prev_hash`), so a journal rewritten at or before the last
    head seen (an entry changed, re-rolled, removed) shows that head with another hash, or not
    at all, and contradicts the witness; only the two heads are read, the chain does the rest.

    >>> witnesses_in("[i]journal n°7 · 3fa9c2d1e0 · engagement …[/i]", "post.txt")
    [Witness(seq=7, hash='3fa9c2d1e0', source='post.txt')]
    >>> [w.seq for w in witnesses_in("_journal #12 3fa9c2d1e0 … #41 77ab01c2d3 · seed …_", "d")]
    [12, 41]
    """
    return [Witness(int(m[1]), m[2], source) for m in _HEAD.finditer(text)]
