"""Writing the journal: every roll and fight action of a campaign becomes one chained entry.

`journaled` is the one way in. Each attempt reads the journal's tail and the open epoch, builds
the roll's context (with its `seq`), derives the dice from the epoch's seed and that context
(unless the user gave faces or a test seed), runs the action, and appends the entry, plus the
fight events it decided, in one transaction. If another roll took the `seq` first, the attempt
is made again on the new tail (new context, so new dice), up to `retries` times.

A roll with an action id the journal already holds is not rolled again: the stored entry is
returned (`replayed`), so asking again cannot change a result. Auto ids start with `#`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jdr.dice.source import GivenFaces, RandomSource, Recording, Seeded
from jdr.dice.verifiable import LATEST, Derived
from jdr.errors import InputError, RulesError
from jdr.i18n import N_, _
from jdr.journal.entries import AUTO_PREFIX, GENESIS, Entry, dice, make_entry, others, plain
from jdr.params import display_fields, identity
from jdr.phases import phase
from jdr.store import (
    Campaign,
    ConflictError,
    FightAppend,
    JournalConflictError,
    JournalRow,
    SheetConflictError,
    SheetWrite,
    Store,
)
from jdr.systems.protocol import Action, RuleSystem

Json = dict[str, Any]

MAX_ACTION_ID = 200


@dataclass(frozen=True)
class Journaled:
    """One journaled action: its entry, what `run` returned, the fight's new version, and the
    sheet revisions written, as (character id, revision)."""

    entry: Entry
    value: Any = None
    version: int | None = None
    replayed: bool = False
    sheets: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Writes:
    """What a journaled action writes with its entry: fight events, sheet revisions."""

    fight: FightAppend | None = None
    sheets: tuple[SheetWrite, ...] = ()


Run = Callable[[RandomSource], tuple[Json, Any, FightAppend | Writes | None]]
Then = Callable[[Any], tuple[Json, Writes]]
"""What a roll changes besides its result, from its record: more keys of the entry's `result`
and what to write with it."""
"""Runs the action on a source; returns the entry's `result`, any value for the caller, and what
to write with the entry: fight events, sheet revisions (`Writes`), or None."""


def source_name(rng: RandomSource) -> str:
    """How a journal entry names faces that did not derive from the epoch's seed."""
    if isinstance(rng, GivenFaces):
        return "given"
    if isinstance(rng, Seeded):
        return "seeded"
    return "external"


def check_action_id(action_id: str) -> str:
    """A user's action id: 1..200 characters, not starting with `#` (kept for auto ids)."""
    text = action_id.strip()
    if not text or len(text) > MAX_ACTION_ID or text.startswith(AUTO_PREFIX):
        raise InputError(
            "--action-id",
            action_id,
            _("1 to {n} characters, not starting with #").format(n=MAX_ACTION_ID),
        )
    return text


def entry_of(row: JournalRow) -> Entry:
    return Entry.from_json(row.entry)


def journaled(
    store: Store,
    campaign: Campaign,
    base: Mapping[str, Any],
    run: Run,
    rng: RandomSource | None = None,
    action_id: str | None = None,
    hidden: bool | Callable[[Any], bool] = False,
    retries: int = 3,
    same: Callable[[Entry], bool] | None = None,
    disclose: Callable[[Any], Sequence[int]] | None = None,
) -> Journaled:
    """Run one action through the journal (see the module's docstring).

    `base` is the context without `campaign`, `action_id` and `seq`, which are added here.
    `action_id` None gets an auto id (`#seq`); a known one returns its entry if `same(entry)`
    (default: its context matches `base`), else a `RulesError`. `hidden` may be decided from
    what `run` returned (a sealed choice), and `disclose(value)` names hidden entries to make
    public in the same transaction (the choices an action opens).

    Faces given (`GivenFaces`) or seeded are the same on every attempt: each one rolls from a
    fresh copy of `rng`, never from what an attempt left of it. Given faces the action did not
    use are refused (`GivenFaces.finish`), as `jdr roll` refuses them: nothing is written.
    """
    attempts = 0
    while True:
        attempts += 1
        with store.writing(campaign.id, single=True):  # one writer at a time: no refusal
            done = _attempt(store, campaign, base, run, rng, action_id, hidden, same, disclose)
        if isinstance(done, Journaled):
            return done
        conflict, writes, seq = done
        if attempts > retries:
            if isinstance(conflict, ConflictError) and writes.fight is not None:
                raise ConflictError(
                    writes.fight.fight_id, writes.fight.expected_version, conflict.found, attempts
                ) from conflict
            if isinstance(conflict, SheetConflictError):
                raise SheetConflictError(
                    conflict.name, conflict.expected, conflict.found, attempts
                ) from conflict
            raise JournalConflictError(campaign.id, seq, attempts) from conflict


def _attempt(
    store: Store,
    campaign: Campaign,
    base: Mapping[str, Any],
    run: Run,
    rng: RandomSource | None,
    action_id: str | None,
    hidden: bool | Callable[[Any], bool],
    same: Callable[[Entry], bool] | None,
    disclose: Callable[[Any], Sequence[int]] | None,
) -> Journaled | tuple[JournalConflictError | ConflictError | SheetConflictError, Writes, int]:
    """One read → roll → append of `journaled`: its result, or the conflict that refused it
    (with what it tried to write and the seq it took)."""
    import copy

    with phase("head"):
        head = store.journal_head(campaign.id, action_id)
    if head.known is not None and action_id is not None:
        if (
            head.known.hidden and not head.known.disclosed and not action_id.startswith(AUTO_PREFIX)
        ):  # a user's re-ask: refused whatever was asked this time
            raise HiddenRollError(action_id, head.known.seq)
        return _replay(entry_of(head.known), base, action_id, same)
    epoch = head.epoch if head.epoch is not None else store.epoch(campaign.id)
    tail = head.tail
    seq, prev_hash = (tail[0] + 1, tail[1]) if tail else (1, GENESIS)
    chosen = action_id if action_id is not None else f"{AUTO_PREFIX}{seq}"
    version = entry_format(head.tail_epoch, head.tail_format, epoch.number)
    context = {**base, "campaign": campaign.name, "action_id": chosen, "seq": seq}
    if version == LATEST:  # the dice derive from the context exactly as the entry keeps it
        context = plain({**context, "v": LATEST}, LATEST)
    with phase("derive"):
        inner = copy.deepcopy(rng) if rng is not None else Derived(epoch.seed, context)
        recording = Recording(inner)
        result, value, fight = run(recording)
    if isinstance(inner, GivenFaces):  # a roll or a fight command: faces it never used refused
        inner.finish()
    rolls = list(zip(recording.sizes, recording.rolled, strict=True))
    source = "derived" if rng is None else source_name(rng)
    rolled = dice(rolls, source, others(recording.owners, context.get("actor")))
    hide = hidden(value) if callable(hidden) else hidden
    entry = make_entry(seq, prev_hash, epoch.commitment, context, rolled, result, hide, version)
    row = JournalRow(seq, chosen, epoch.number, hide, not hide, entry.hash, entry.to_json())
    public = list(disclose(value)) if disclose is not None else []
    writes = fight if isinstance(fight, Writes) else Writes(fight)
    try:
        with phase("append"):
            recorded = store.record(campaign.id, row, writes.fight, writes.sheets, public)
    except (JournalConflictError, ConflictError, SheetConflictError) as conflict:
        return conflict, writes, seq
    return Journaled(entry, value, recorded.version, sheets=recorded.sheets)


def entry_format(tail_epoch: int | None, tail_format: int, epoch: int) -> int:
    """The format a new entry of `epoch` is written in: the format of the epoch's entries so far
    (an epoch opened before format 2 keeps format 1 until it is revealed), else the latest.

    >>> entry_format(None, 1, 1), entry_format(1, 1, 1), entry_format(1, 1, 2)
    (2, 1, 2)
    """
    return tail_format if tail_epoch == epoch else LATEST


def _replay(
    entry: Entry, base: Mapping[str, Any], action_id: str, same: Callable[[Entry], bool] | None
) -> Journaled:
    context = entry.context or {}
    matches = (
        same(entry)
        if same is not None
        else all(context.get(key) == value for key, value in _plain(base).items())
    )
    if not matches:
        raise ActionIdTakenError(entry, action_id)
    return Journaled(entry, None, None, replayed=True)


class ActionIdTakenError(RulesError):
    """An action id asked again for another action or with other parameters: refused, and the
    roll it already names (`entry`) is what the front end shows."""

    def __init__(self, entry: Entry, action_id: str) -> None:
        self.entry = entry
        super().__init__(
            _(
                "action id {id} was already rolled (journal entry {seq}) for another action or"
                " with other parameters: one action id, one roll"
            ).format(id=action_id, seq=entry.seq)
        )


class HiddenRollError(RulesError):
    """An action id asked again that names a hidden roll not yet disclosed: refused the same way
    whether or not the parameters match it, so a re-ask neither shows the roll nor tells whether
    a guess was right; `jdr journal disclose` is the only way its faces come out."""

    def __init__(self, action_id: str, seq: int) -> None:
        self.seq = seq
        super().__init__(
            _(
                "action id {id} names a hidden roll (journal entry {seq}): it is shown only once"
                " disclosed (`jdr journal disclose`); a new roll needs a new action id"
            ).format(id=action_id, seq=seq)
        )


def _plain(value: Mapping[str, Any]) -> Json:
    from jdr.journal.entries import plain

    result: Json = plain(dict(value))
    return result


@dataclass(frozen=True)
class Rolled:
    """A roll made through a campaign: the record, its journal entry, whether the action id
    had been rolled before (then nothing was rolled: the stored roll is shown again), and the
    campaign's name as stored (however it was typed)."""

    record: Any
    entry: Entry
    replayed: bool = False
    campaign: str = ""
    sheets: tuple[tuple[int, int], ...] = ()


DICE = "dice"
"""The journal's `action` for generic dice notation (`jdr dice EXPR --campaign NAME`); its
context has `"system": null` and `"params": {"expression": …}`."""
DICE_NAME = N_("dice roll")
"""`DICE` in the reader's words (`_()` of it)."""


@dataclass(frozen=True)
class Who:
    """Who rolls, and the journal options of the roll."""

    actor: str | None = None
    action_id: str | None = None
    client_seed: str | None = None
    hidden: bool = False
    stored: bool = False
    """`actor` is a character's name as stored (a player's seat gives it): not looked up."""


def roll(
    store: Store,
    campaign: Campaign,
    system: RuleSystem,
    action: Action[Any],
    params: Any,
    actor: str | None = None,
    action_id: str | None = None,
    client_seed: str | None = None,
    hidden: bool = False,
    rng: RandomSource | None = None,
    context: Json | None = None,
    then: Then | None = None,
    actor_stored: bool = False,
) -> Rolled:
    """Roll `action` through `campaign`'s journal (its dice derive from the epoch's seed unless
    `rng` is given). The same `action_id` twice gives the same roll; with other parameters, a
    `RulesError`.

    `context` adds keys to the roll's context (a roll made through a sheet names it); `then`
    gives what the roll changes besides (the sheets' revisions), written with its entry.
    `actor_stored`: `actor` is a character's name as stored (`Who.stored`)."""
    from jdr.journal.replay import roll_result

    check_system(campaign, system)
    base: Json = {"system": system.id, "action": action.name, "params": identity(params)}
    shown_only = display_fields(type(params))
    return _roll_through(
        store,
        campaign,
        base,
        lambda source: action.roll(params, source),
        roll_result,
        Who(actor, action_id, client_seed, hidden, actor_stored),
        rng,
        lambda stored: {k: v for k, v in stored.items() if k not in shown_only},
        context,
        then,
    )


def check_system(campaign: Campaign, system: RuleSystem) -> None:
    """Refuse a roll of `system` through a campaign that plays another."""
    if campaign.system != system.id:
        raise InputError(
            "--campaign",
            campaign.name,
            _("a campaign played with {system}").format(system=system.id),
            _("this campaign plays {system}").format(system=campaign.system),
        )


def roll_dice(
    store: Store,
    campaign: Campaign,
    expression: Any,
    who: Who,
    rng: RandomSource | None = None,
) -> Rolled:
    """Roll a parsed dice `expression` (`jdr.dice.notation`) through `campaign`'s journal."""
    from jdr.dice import notation
    from jdr.journal.replay import dice_result

    base: Json = {"system": None, "action": DICE, "params": {"expression": expression.text}}
    return _roll_through(
        store,
        campaign,
        base,
        lambda source: notation.roll(expression, source),
        dice_result,
        who,
        rng,
    )


def actor_name(store: Store, campaign: Campaign, actor: str | None) -> str | None:
    """Who rolls, as the journal keeps it: the campaign's character the name stands for when it
    is one (`kaito arashi` is `Kaito Arashi`, `jdr.names`), else the name as typed."""
    from jdr.names import check_name, same

    if actor is None:
        return None
    actor = check_name("--actor", actor)
    found = [c.name for c in store.roster(campaign.id) if same(c.name, actor)]
    return found[0] if len(found) == 1 else actor


def _roll_through(
    store: Store,
    campaign: Campaign,
    base: Json,
    roll_with: Callable[[RandomSource], Any],
    result_of: Callable[[Any], Json],
    who: Who,
    rng: RandomSource | None,
    stored_params: Callable[[Json], Json] = dict,
    context: Json | None = None,
    then: Then | None = None,
) -> Rolled:
    """One roll through the journal; a known action id gives its stored roll again (the record
    rebuilt from the stored faces, shown with the display options asked now), or an
    `ActionIdTakenError` if it was for another roll.

    `stored_params` reads a stored context's parameters as the roll's identity (an entry written
    before a field was marked display-only still matches)."""
    actor = who.actor if who.stored else actor_name(store, campaign, who.actor)
    base = {**base, **(context or {}), "actor": actor}
    if who.client_seed is not None:
        base["client_seed"] = who.client_seed

    def run(source: RandomSource) -> tuple[Json, Any, Writes | None]:
        record = roll_with(source)
        if then is None:
            return result_of(record), record, None
        extra, writes = then(record)
        return {**result_of(record), **extra}, record, writes

    def same(entry: Entry) -> bool:
        context = dict(entry.context or {})
        context["params"] = stored_params(dict(context.get("params") or {}))
        return all(context.get(key) == value for key, value in _plain(base).items()) and (
            context.get("client_seed") == who.client_seed
        )

    chosen = check_action_id(who.action_id) if who.action_id is not None else None
    done = journaled(store, campaign, base, run, rng, chosen, who.hidden, same=same)
    if not done.replayed:
        return Rolled(done.value, done.entry, campaign=campaign.name, sheets=done.sheets)
    faces = [face for _size, face in (done.entry.dice or {}).get("rolls", [])]
    return Rolled(roll_with(GivenFaces(faces)), done.entry, replayed=True, campaign=campaign.name)


def export(store: Store, campaign: Campaign, secrets: bool = False) -> Json:
    """Everything a verifier needs, as the JSON `jdr journal export` writes.

    Each entry shows the hash recorded when it was written (so a row changed since shows as
    changed); a hidden entry not yet disclosed shows its header and body hash only; an epoch's
    seed shows once revealed. With `secrets`, nothing is held back: every seed, every hidden
    entry's body, every sealed action's events and every sheet — what checking a backup
    (`jdr.backup`) needs, which holds them all; never for publication.
    """
    from datetime import UTC, datetime

    from jdr.journal.verify import FORMAT, VERSION
    from jdr.store.rows import aware

    epochs = [
        {
            "number": epoch.number,
            "commitment": epoch.commitment,
            "seed": epoch.seed.hex() if epoch.revealed is not None or secrets else None,
            "revealed": aware(epoch.revealed).isoformat() if epoch.revealed is not None else None,
        }
        for epoch in store.epochs(campaign.id)
    ]
    rows = store.journal(campaign.id)
    shown = entry_of if secrets else _public
    entries = [shown(row).to_json(row.hash) for row in rows]
    fights = [exported_fight(store, campaign, f.id, secrets) for f in store.fights(campaign.id)]
    return {
        "format": FORMAT,
        "v": VERSION,
        "campaign": campaign.name,
        "system": campaign.system,
        "exported": datetime.now(UTC).isoformat(timespec="seconds"),
        "head": {"seq": rows[-1].seq, "hash": rows[-1].hash} if rows else None,
        "epochs": epochs,
        "entries": entries,
        "fights": [fight for fight in fights if fight["events"]],
        "sheets": exported_sheets(store, campaign, secrets),
        "snapshots": exported_snapshots(store, campaign, secrets),
    }


def exported_sheets(store: Store, campaign: Campaign, secrets: bool = False) -> list[Json]:
    """The campaign's stored sheets as `journal export` shows them, for `verify` to compare with
    the entries that recorded their last revisions: `{"character", "name", "revision", "seq",
    "sheet"}` each, whole numbers as integers. A sheet whose last revision's entry is hidden (a
    sealed roll made through it) is left out, as that entry's body is (unless `secrets`); one
    written before the journal kept sheets, too."""
    shown = []
    for character in store.characters(campaign.id):
        row = store.revision_entry(character.id, character.version)
        if row is None or (row.hidden and not row.disclosed and not secrets):
            continue
        shown.append(
            {
                "character": character.id,
                "name": character.name,
                "revision": character.version,
                "seq": row.seq,
                "sheet": plain(character.sheet, LATEST),
            }
        )
    return shown


def exported_snapshots(store: Store, campaign: Campaign, secrets: bool = False) -> list[Json]:
    """The whole sheets the campaign's revisions keep (`jdr.store.revisions.SNAPSHOT_EVERY`:
    what `jdr sheet show --at` folds from), as `journal export` shows them for `verify` to
    compare with the entries that recorded those revisions: `{"character", "name", "revision",
    "seq", "sheet"}` each, whole numbers as integers. One whose entry is hidden and not
    disclosed is left out (unless `secrets`), one written before the journal kept sheets too."""
    shown = []
    for character in store.characters(campaign.id):
        for revision, seq, name, sheet in store.snapshots(character.id):
            row = None if seq is None else store.revision_entry(character.id, revision)
            if row is None or (row.hidden and not row.disclosed and not secrets):
                continue
            shown.append(
                {
                    "character": character.id,
                    "name": name,
                    "revision": revision,
                    "seq": row.seq,
                    "sheet": plain(sheet, LATEST),
                }
            )
    return shown


def exported_fight(store: Store, campaign: Campaign, fight_id: int, secrets: bool = False) -> Json:
    """A stored fight's log as `journal export` shows it, for `verify` to compare with the
    entries that recorded it: `{"fight": N, "events": [{"seq", "action", "event"}, …]}`, whole
    numbers as integers. The events of an action whose entry is hidden (a sealed choice not yet
    opened) are left out, as its entry's body is (unless `secrets`); those of an action without
    entry are not."""
    sealed = {
        number
        for number, row in store.fight_entries(campaign.id, fight_id).items()
        if row.hidden and not row.disclosed and not secrets
    }
    events = [
        {"seq": item.seq, "action": item.action, "event": plain(item.event, LATEST)}
        for item in store.events(fight_id)
        if item.action not in sealed
    ]
    return {"fight": fight_id, "events": events}


def public_entries(
    store: Store, campaign: Campaign, rows: Sequence[JournalRow] | None = None
) -> list[Entry]:
    """The journal (or the `rows` of it given) as everyone may read it: hidden entries sealed
    until disclosed."""
    found = store.journal(campaign.id) if rows is None else rows
    return [_public(row) for row in found]


def _public(row: JournalRow) -> Entry:
    entry = entry_of(row)
    return entry.sealed() if row.hidden and not row.disclosed else entry
