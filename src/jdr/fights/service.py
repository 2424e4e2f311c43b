"""Playing a stored fight: start it, act, undo and redo, each a transaction on the store.

An **action** is the group of events one call appended (`start`, one `act`, one `undo` or
`redo`); every stored event carries its action's number, the `seq` of the group's first event.
Undo appends `{"type": "undone", "seq": N}` and redo `{"type": "redone", "seq": N}`, where `N`
names an action: the log stays append-only, and `effective_events` drops what is undone, so a
fight's state is always `fold(rules, effective_events(store.events(fight)))`.

**Linear time** (issue 17): each action also keeps the fight's folded state and the version it
folds to (`Store.fight_log`'s snapshot), in the same transaction, so the next action reads that
state and the events after it only; only undo and redo fold the whole log again.

Every action is also a journal entry of the fight's campaign (`jdr.journal`), written in the same
transaction as its events: its dice derive from the campaign's committed seed unless faces or a
test seed are given.

Undo takes back the last action not yet undone (never the opening one); redo puts back the
action undone last, and only while no new action has been played since.

**An action's number** (`Timeline.numbers`) is its place in its fight as the table counts
them: the opening is action 0, then every action played is 1, 2, 3 … in order (the GM's end
too); an action undone keeps its number (the next one played takes a new one, so a number
never names two actions), and undo and redo have none: they name the action they take back or
put back. The `seq` (an action's first event) stays the key of the log and of the journal's
action id (`#fight3.7`).

**The GM's end** (`end`, `jdr fight end`) is an action too: one `fight_ended` event
(`jdr.fights.fold.ENDED`), journaled, folded by jdr whatever the system; a fight its rules
ended already (`"over"`) takes none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from functools import reduce
from typing import Any

from jdr.characters.binding import named as character_named
from jdr.characters.outcomes import apply_outcome, outcome, record_start
from jdr.dice.source import RandomSource
from jdr.errors import InputError, RulesError
from jdr.fights.binding import (
    STATE_HASH,
    Recorded,
    TamperedFightError,
    bound,
    check_log,
    state_mismatch,
)
from jdr.fights.commands import GM_SEAT, Seat, refuse_unowned
from jdr.fights.ending import ENDED_STATUS, ending_of, named_winners
from jdr.fights.fold import ENDED, evolver, fold
from jdr.fights.sealed import SALT, SEALED, new_salt, opened, sealing
from jdr.fights.setup import fighters_named, make_command, parse_pairs, setup_hook
from jdr.fights.timeline import (
    ACTION_NAMES,
    END,
    REDO,
    REDONE,
    START,
    UNDO,
    UNDONE,
    Timeline,
    command_name,
    effective_events,
    end_events,
    fight_action_id,
    redo_events,
    undo_events,
)
from jdr.i18n import _
from jdr.journal.entries import Entry
from jdr.journal.service import journaled
from jdr.names import same
from jdr.store import (
    Campaign,
    ConflictError,
    FightAppend,
    FightLog,
    FightRecord,
    JournalConflictError,
    Store,
    StoredEvent,
)
from jdr.systems import default_registry
from jdr.systems.protocol import FightRules, Json, RuleSystem

__all__ = [
    "ACTION_NAMES",
    "END",
    "REDO",
    "REDONE",
    "START",
    "UNDO",
    "UNDONE",
    "Acted",
    "Closed",
    "Current",
    "Opened",
    "Played",
    "RepeatedError",
    "Timeline",
    "act",
    "carried",
    "checked",
    "close",
    "command_name",
    "current",
    "effective_events",
    "end",
    "end_events",
    "fight_action_id",
    "fight_events",
    "legal_now",
    "open_fight",
    "play",
    "redo",
    "redo_events",
    "sealed_entries",
    "start",
    "state",
    "undo",
    "undo_events",
]


@dataclass(frozen=True)
class Acted:
    """What one call appended: the events, the fight's version after them, the journal
    entry that records them (with the dice they used), and the fight's state before and after
    them (None when the caller gave no rules to fold with)."""

    events: list[Json]
    version: int
    entry: Entry | None = None
    before: Json | None = None
    after: Json | None = None


@dataclass
class Current:
    """A stored fight as an action reads it: its row, its state (the snapshot carried forward
    over the events after it) and, read only when needed (undo, redo), its whole log."""

    store: Store
    record: FightRecord
    state: Json
    _log: list[StoredEvent] | None = None

    @property
    def version(self) -> int:
        return self.record.version

    def log(self) -> list[StoredEvent]:
        """The whole log, checked against the journal (`TamperedFightError`)."""
        if self._log is None:
            self._log = checked(self.store, self.record, self.store.events(self.record.id))
        return self._log


def carried(rules: FightRules, log: FightLog, everything: Callable[[], list[StoredEvent]]) -> Json:
    """The fight's state from what `Store.fight_log` read: its snapshot and the events after
    it folded on top, unless one of them undoes or redoes an action (then the whole log,
    `everything()`, is folded again, as it is without a snapshot).

    >>> from jdr.store import FightRecord, Snapshot
    >>> class Count:
    ...     def evolve(self, state, event):
    ...         return {"n": state.get("n", 0) + 1}
    >>> record = FightRecord(1, 1, [], "open", 3)
    >>> log = FightLog(record, Snapshot(2, {"n": 2}), [StoredEvent(3, 3, {"type": "hit"})])
    >>> carried(Count(), log, lambda: [])
    {'n': 3}
    """
    moves = [item.event for item in log.events]
    if log.snapshot is None:
        return fold(rules, effective_events(log.events))
    if any(event.get("type") in (UNDONE, REDONE) for event in moves):
        return fold(rules, effective_events(everything()))
    return reduce(evolver(rules), moves, log.snapshot.state)


def current(store: Store, fight_id: int, rules: FightRules | None) -> Current:
    """The fight as an action reads it (see `Current`), checked against its journal
    (`jdr.fights.binding`: `TamperedFightError` if they differ); without `rules`, its state
    is `{}` and only what it reads later (its log) is checked.

    With a snapshot whose entry recorded the state after it, only the snapshot and the events
    after it are read and checked; otherwise the whole log is."""
    log = store.fight_log(fight_id)
    found = Current(store, log.record, {})
    if rules is None:
        return found
    if log.snapshot is not None and not any(
        item.event.get("type") in (UNDONE, REDONE) for item in log.events
    ):
        assert log.snapshot_action is not None
        rows = store.fight_entries(log.record.campaign_id, fight_id, log.snapshot_action)
        recorded = {n: Recorded(r.seq, dict(r.entry.get("result") or {})) for n, r in rows.items()}
        kept = recorded.get(log.snapshot_action)
        if kept is not None and STATE_HASH in kept.result:
            mismatch = state_mismatch(fight_id, log.snapshot.state, kept)
            since, upto = log.snapshot.version, max(log.record.version, log.snapshot.version)
            mismatch = mismatch or check_log(fight_id, log.events, recorded, since, upto)
            if mismatch is not None:
                raise TamperedFightError(mismatch)
            moves = [e.event for e in log.events]
            found.state = reduce(evolver(rules), moves, log.snapshot.state)
            return found
    everything = log.events if log.snapshot is None else store.events(fight_id)
    found._log = checked(store, log.record, everything)
    found.state = fold(rules, effective_events(everything))
    return found


def checked(store: Store, record: FightRecord, stored: list[StoredEvent]) -> list[StoredEvent]:
    """`stored` (the fight's whole log) once checked against every entry of its journal
    (`TamperedFightError` names the first event that differs, was added or was removed)."""
    rows = store.fight_entries(record.campaign_id, record.id)  # read after `stored`
    recorded = {n: Recorded(r.seq, dict(r.entry.get("result") or {})) for n, r in rows.items()}
    mismatch = check_log(record.id, stored, recorded, upto=record.version)
    if mismatch is not None:
        raise TamperedFightError(mismatch)
    return stored


def fight_events(store: Store, fight_id: int) -> list[StoredEvent]:
    """The fight's whole log, checked against its journal (what `fight log`, the recaps and
    the stories read)."""
    return checked(store, store.fight(fight_id), store.events(fight_id))


@dataclass(frozen=True)
class Opened:
    """A fight just started: its id, its opening events and their journal entry."""

    fight_id: int
    events: list[Json]
    entry: Entry


def open_fight(
    store: Store,
    campaign_id: int,
    rules: FightRules,
    setup: Json,
    participants: Sequence[str] | None = None,
    rng: RandomSource | None = None,
) -> Opened:
    """Create a fight and store its opening events, journaled, as its first action.

    `participants` default to `setup["fighters"]`; `rng` None derives the dice from the
    campaign's seed. A refused setup (`rules.start` raises) stores nothing.
    """
    names = list(participants if participants is not None else setup.get("fighters", []))
    campaign = store.campaign_by_id(campaign_id)
    fight_id = store.create_fight(campaign_id, names)
    base = _context(campaign.system, fight_id, None, START, {"participants": names})

    def run(source: RandomSource) -> tuple[Json, Any, FightAppend]:
        events = rules.start(setup, source)
        after = fold(rules, events)
        return bound(events, after), events, FightAppend(fight_id, 0, events, after)

    try:
        done = journaled(
            store, campaign, base, run, rng, action_id=fight_action_id(fight_id, 1), retries=3
        )
    except BaseException:
        store.discard_fight(fight_id)
        raise
    return Opened(fight_id, done.value, done.entry)


def start(
    store: Store, campaign_id: int, rules: FightRules, setup: Json, rng: RandomSource | None = None
) -> int:
    """Create a fight from `setup` (its participants are `setup["fighters"]` if given) and store
    its opening events as the first action; return the fight's id."""
    return open_fight(store, campaign_id, rules, setup, None, rng).fight_id


def state(store: Store, fight_id: int, rules: FightRules) -> Json:
    """The fight's current state: the fold of its effective events (its snapshot carried over
    the events after it)."""
    return current(store, fight_id, rules).state


def act(
    store: Store,
    fight_id: int,
    rules: FightRules,
    command: Json,
    rng: RandomSource | None = None,
    retries: int = 3,
    client_seed: str | None = None,
    actor: str | None = None,
    late: bool = False,
    seen: int | None = None,
) -> Acted:
    """Decide `command` on the fight's current state and append its events, journaled.

    `seen` is the fight's version the player saw when they chose (a page's form): if `actor`
    has played since, the command is a repeat (a form sent twice) and is refused
    (`RepeatedError`) rather than played again on the new state.

    `late` says the table's clock played it: the fighter's turn passed its deadline
    (`jdr.live.pace`); the journal's entry says so (`"late": true` in its context).

    `actor` is who the journal says acts (default: the command's `actor`): the one whose luck
    the dice are, but for those the rules roll for someone else (`jdr.dice.rolled_for`).

    If another action lands between reading and appending, the command is decided again on the
    new state (new rolls; a `RulesError` if it is no longer legal), up to `retries` times, then
    refused with a `ConflictError`. `rng` None derives the dice from the campaign's seed (and
    the player's `client_seed`, if given).
    """

    def decide(now: Current, source: RandomSource) -> tuple[list[Json], Json]:
        events = rules.decide(now.state, command, source)
        return events, reduce(rules.evolve, events, now.state)

    action = command_name(command)
    who = actor if actor is not None else command.get("actor")
    return _journaled(
        store, fight_id, rules, who, action, command, decide, rng, retries, client_seed, late, seen
    )


@dataclass(frozen=True)
class Played:
    """A command played in a stored fight: the command as the decider took it (a sealed
    choice's value and salt left out), and what `act` appended."""

    command: Json
    acted: Acted


def play(
    store: Store,
    fight_id: int,
    system: RuleSystem,
    actor: str,
    name: str,
    pairs: Sequence[str] = (),
    rng: RandomSource | None = None,
    client_seed: str | None = None,
    salt: Callable[[], str] | None = None,
    late: bool = False,
    seen: int | None = None,
    seat: Seat = GM_SEAT,
) -> Played:
    """`jdr fight act FIGHT ACTOR NAME key=value …` for any front end: the command read by the
    system's command models (French or English names, did you mean; `InputError` naming the
    key), a sealed choice salted (`jdr.fights.sealed`), a stored character joining with the
    system's `join_command`, then `act` with the fighter's name as the journal's actor. A
    command the rules refuse says why and what `actor` may play now (`RulesError`).
    `salt` makes a sealed choice's salt (default: 16 random bytes; the demo fixes it so that
    its output is the same on every run).

    `seat` is who gives the command (default: the GM, who may give every decision): a command,
    or any key given, that the system's models declare someone else's decision (`key(owner=…)`,
    `jdr.fights.commands.Owner`) is refused before anything is read from the fight
    (`AccessError` naming it and whose choice it is), for every front end alike."""

    rules = system.fight
    assert rules is not None
    record = store.fight(fight_id)
    who = fighters_named("ACTOR", [actor], list(record.participants), keep_unknown=True)[0]
    commands = getattr(system, "fight_commands", None)
    if commands is not None:
        declared = commands.get(name)
        fighters = [str(n) for n in record.participants]
        if declared.owner.kind != "target":  # the command's own owner, before its keys are read
            refuse_unowned(declared, {}, seat, who)
        name, keys = commands.parse(declared.name, pairs)
        refuse_unowned(declared, keys, seat, who, fighters)
        sealed = declared.sealed
    else:
        keys, sealed = parse_pairs(pairs), False
        refuse_unowned(None, keys, seat, who)
    joiner = setup_hook(system, "join_command")
    if name == "join" and joiner is not None:  # a stored character enters the fight
        character = character_named(store, record.campaign_id, actor)
        who = character.name
        command = joiner(character.name, character.sheet, keys)
    else:
        command = make_command(system, who, name, keys)
    if sealed:
        command[SALT] = (salt or new_salt)()
    try:
        acted = act(
            store,
            fight_id,
            rules,
            command,
            rng,
            client_seed=client_seed,
            actor=who,
            late=late,
            seen=seen,
        )
    except RulesError as refused:
        legal = legal_now(system, state(store, fight_id, rules))
        shown = commands.shown_names(legal) if commands is not None else legal
        reason = _("{reason}; legal commands now: {commands}").format(
            reason=refused.reason, commands=", ".join(shown) or "-"
        )
        raise RulesError(reason, refused.rule) from None
    if name == "join" and joiner is not None:  # the revision its sheet enters from
        record_start(store, fight_id, [character])
    shown = {k: v for k, v in command.items() if not sealed or k in ("action", "actor", "wizard")}
    return Played(shown, acted)


def legal_now(system: RuleSystem, state: Json, actor: str | None = None) -> list[str]:
    """The commands `actor` (anyone, when None) may play now."""
    rules = system.fight
    assert rules is not None
    if state.get(ENDED) is not None:  # the GM ended it: nothing more is played
        return []
    commands = getattr(system, "fight_commands", None)
    if commands is None:
        return list(rules.legal_commands(state))
    found: list[str] = commands.legal_now(rules, state, actor)
    return found


def undo(store: Store, fight_id: int, retries: int = 3, rules: FightRules | None = None) -> Acted:
    """Take back the last action not yet undone (`RulesError` if there is none); with `rules`,
    the state after it is folded (from the whole log) and kept as the fight's snapshot."""
    return _journaled(
        store, fight_id, rules, None, UNDO, {}, _moved(rules, undo_events), None, retries
    )


def redo(store: Store, fight_id: int, retries: int = 3, rules: FightRules | None = None) -> Acted:
    """Put back the action undone last (`RulesError` if none, or if an action came since)."""
    return _journaled(
        store, fight_id, rules, None, REDO, {}, _moved(rules, redo_events), None, retries
    )


def end(
    store: Store,
    fight_id: int,
    rules: FightRules,
    winners: Sequence[str] = (),
    draw: bool = False,
    actor: str | None = None,
    retries: int = 3,
) -> Acted:
    """The GM ends a fight its rules have not ended (`end_events`), journaled as its last
    action; `actor` is who the journal says ended it. The fight's status is the caller's to
    set (`Store.set_fight_status`)."""
    params: Json = {"winners": list(winners), "draw": draw}

    def decide(now: Current, _rng: RandomSource) -> tuple[list[Json], Json]:
        events = end_events(now.state, params)
        return events, reduce(evolver(rules), events, now.state)

    return _journaled(store, fight_id, rules, actor, END, params, decide, None, retries)


@dataclass(frozen=True)
class Closed:
    """A fight the GM closed (`close`): how it ended (`jdr.fights.ending.Ending`; None for a
    system without fight rules), the journal entry of the GM's end (None when its rules ended
    it, or it had ended already), and what it left on its stored fighters' sheets
    (`jdr.characters.fights.FighterOutcome`s, written unless `apply` was False)."""

    ending: Any
    entry: Entry | None
    outcome: list[Any]
    applied: bool


def close(
    store: Store,
    fight_id: int,
    winners: Sequence[str] = (),
    draw: bool = False,
    actor: str | None = None,
    apply: bool = True,
) -> Closed:
    """`jdr fight end` for every front end: the GM's end journaled for a fight its rules have
    not ended (`end`, `winners` named as the fight spells them, or a `draw`), the outcome
    written on the stored fighters' sheets (unless `apply` is False), and the fight's status
    set to `ended`: no command can be played in it any more. A fight ended already keeps its
    ending; naming a winner or a draw for a fight whose rules (or the GM) ended it is refused
    (`RulesError`), as are a winner and a draw together (`InputError`)."""

    if winners and draw:
        raise InputError("--winner", ",".join(winners), "--winner NAME | --draw")
    record = store.fight(fight_id)
    rules = default_registry().get(store.campaign_of_fight(fight_id).system).fight
    ending, entry = None, None
    if rules is not None:
        now = state(store, fight_id, rules)
        ending = ending_of(now, record.status)
        if ending is not None and (winners or draw):
            raise RulesError(
                _("{option}: the fight has ended already ({said})").format(
                    option="--winner" if winners else "--draw", said=ending.sentence()
                )
            )
        if ending is None:
            named = named_winners(winners, now, [str(n) for n in record.participants])
            acted = end(store, fight_id, rules, named, draw, actor)
            assert acted.after is not None
            ending, entry = ending_of(acted.after), acted.entry
    found = apply_outcome(store, fight_id, actor)[1] if apply else outcome(store, fight_id)[1]
    store.set_fight_status(fight_id, ENDED_STATUS)
    return Closed(ending, entry, found, apply)


def _moved(
    rules: FightRules | None, events_of: Callable[[Sequence[StoredEvent]], list[Json]]
) -> Callable[[Current, RandomSource], tuple[list[Json], Json | None]]:
    """An undo or a redo as a decision: its event, and the whole log folded again after it."""

    def decide(now: Current, _rng: RandomSource) -> tuple[list[Json], Json | None]:
        stored = now.log()
        events = events_of(stored)
        if rules is None:
            return events, None
        after = [*stored, *(StoredEvent(now.version + 1, now.version + 1, e) for e in events)]
        return events, fold(rules, effective_events(after))

    return decide


class RepeatedError(RulesError):
    """A command sent again (a form posted twice): its player has played since the version the
    command was chosen on."""

    def __init__(self, actor: Any, seen: int, found: int) -> None:
        super().__init__(
            _("{actor} has already played since this page was loaded: reload it").format(
                actor=actor
            )
        )
        self.seen = seen
        self.found = found


def _played_since(store: Store, record: FightRecord, actor: Any, seen: int) -> bool:
    """Whether `actor` played an action of the fight after its version `seen` (read before the
    campaign's writer lock: two copies of one form both read the version seen, the second's
    append finds the fight moved on, reads it again and is refused here)."""

    if not isinstance(actor, str):
        return False
    rows = store.fight_entries(record.campaign_id, record.id, seen + 1)  # the actions since
    return any(
        number > seen and same(str((row.entry.get("context") or {}).get("actor") or ""), actor)
        for number, row in rows.items()
    )


def _context(system: str, fight_id: int, actor: Any, action: str, params: Json) -> Json:
    return {"system": system, "fight": fight_id, "actor": actor, "action": action, "params": params}


def sealed_entries(
    store: Store, campaign_id: int, fight_id: int, events: Sequence[Json]
) -> list[int]:
    """The hidden journal entries of the fight's sealed choices that `events` open (and of any
    choice sealed in the fight before, undone since): they become public with the opening."""
    if not opened(list(events)):
        return []
    prefix = fight_action_id(fight_id, 0)[:-1]
    found = []
    for row in store.journal(campaign_id):
        if not row.hidden or row.disclosed or not row.action_id.startswith(prefix):
            continue
        shown = (row.entry.get("result") or {}).get("events") or []
        if any(isinstance(e, dict) and e.get(SEALED) for e in shown):
            found.append(row.seq)
    return found


def _journaled(store: Store, fight_id: int, *args: Any, **kwargs: Any) -> Acted:
    """`_decided` for the fight's campaign. The fight is read before the campaign's writer lock
    (`jdr.store.writers`) is taken: the lock is held only for the journal's append (the head
    read, the dice rolled, the entry, the fight's events written, committed), which checks
    that the fight is still at the version read. If another action moved it meanwhile, the
    fight is read again and the command decided again holding the lock from the read on, as
    every attempt did before: concurrent actions are serialised, never refused, and the only
    refusal left is a real one (the turn was played meanwhile, a form sent twice)."""
    campaign = store.campaign_of_fight(fight_id)
    return _decided(store, campaign, fight_id, *args, **kwargs)


def _decided(
    store: Store,
    campaign: Campaign,
    fight_id: int,
    rules: FightRules | None,
    actor: Any,
    action: str,
    params: Json,
    decide: Callable[[Current, RandomSource], tuple[list[Json], Json | None]],
    rng: RandomSource | None,
    retries: int,
    client_seed: str | None = None,
    late: bool = False,
    seen: int | None = None,
) -> Acted:
    """Decide on the fight as stored and append the events, the state after them and the
    journal entry in one transaction."""
    base = _context(campaign.system, fight_id, actor, action, params)
    if client_seed is not None:
        base["client_seed"] = client_seed
    if late:
        base["late"] = True
    attempts = 0
    while True:
        attempts += 1
        # the first attempt reads the fight before the campaign's writer lock; one that lost
        # the race holds the lock from its read on (the lock is re-entrant): it cannot lose again
        with store.writing(campaign.id) if attempts > 1 else nullcontext():
            now = current(store, fight_id, rules)
            version = now.version
            since = seen is not None and version > seen
            if since and seen is not None and _played_since(store, now.record, actor, seen):
                raise RepeatedError(actor, seen, version)
            after: list[Json | None] = [None]

            def run(
                source: RandomSource, now: Current = now, after: list[Json | None] = after
            ) -> tuple[Json, Any, FightAppend]:
                events, after[0] = decide(now, source)
                return (
                    bound(events, after[0]),
                    events,
                    FightAppend(now.record.id, now.version, events, after[0]),
                )

            try:
                done = journaled(
                    store,
                    campaign,
                    base,
                    run,
                    rng,
                    action_id=fight_action_id(fight_id, version + 1),
                    hidden=sealing,  # a sealed choice: hidden until it is opened
                    retries=0,
                    same=lambda entry: True,  # another process played this action first
                    disclose=lambda events: sealed_entries(store, campaign.id, fight_id, events),
                )
            except (ConflictError, JournalConflictError) as conflict:
                if attempts > retries:
                    found = conflict.found if isinstance(conflict, ConflictError) else version
                    raise ConflictError(fight_id, version, found, attempts) from conflict
                continue
        if done.replayed:  # another process wrote this very action first: decide again
            if attempts > retries:
                raise ConflictError(fight_id, version, version + 1, attempts)
            continue
        assert done.version is not None
        before = now.state if rules is not None else None
        return Acted(done.value, done.version, done.entry, before, after[0])
