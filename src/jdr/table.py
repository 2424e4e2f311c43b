"""A seat at a campaign's table: what a signed-in viewer may roll, ask and read.

The web table's use cases, over the same services as the CLI (`jdr.journal.service`, the
actions' own `roll`/`odds`/`advise`, `jdr.params.validate_params`); `jdr.access.Viewer` says who
asks. A player rolls only for their own character and never hidden; a spectator only reads; a
hidden roll reaches no one but the GM before it is disclosed, whatever action id is asked.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jdr.access import AccessError, Viewer
from jdr.errors import InputError
from jdr.fights.commands import GM_SEAT, Seat
from jdr.i18n import _, current_language
from jdr.journal.entries import Entry
from jdr.journal.service import Rolled
from jdr.params import validate_params
from jdr.store import Campaign, Store
from jdr.systems.protocol import Action, RuleSystem
from jdr.validation import worded


def system_of(campaign: Campaign) -> RuleSystem:
    from jdr.systems import default_registry

    return default_registry().get(campaign.system)


def action_of(system: RuleSystem, name: str | None, mode: str = "roll") -> Action[Any]:
    """The system's action `name` (as typed loosely), offering `mode`."""
    from jdr.errors import NotOfferedError, UnknownNameError
    from jdr.labels import action_label
    from jdr.names import closest, find, fold

    spellings = {n: n for n in system.actions}
    for n, each in system.actions.items():  # its display names, French or English
        for lang in ("en", "fr"):
            spellings.setdefault(action_label(each, lang), n)
    found = find(name or "", spellings, "action") if name else None
    if found is None:
        shown = {k: action_label(system.actions[v]) for k, v in spellings.items()}
        known = sorted(dict.fromkeys(shown.values()), key=fold)
        raise UnknownNameError("action", name or "", known, closest(name or "", shown))
    action = system.actions[found]
    if mode != "roll" and getattr(action, mode) is None:
        offering = sorted(
            (action_label(a) for a in system.actions.values() if getattr(a, mode) is not None),
            key=fold,
        )
        raise NotOfferedError(mode, system.id, action_label(action), offering)
    return action


@dataclass(frozen=True)
class RollAsked:
    """What a viewer asks to roll: the action, its raw parameters as typed, the journal options."""

    action: str
    params: Mapping[str, Any]
    actor: str | None = None
    hidden: bool = False
    action_id: str | None = None
    client_seed: str | None = None
    sheet: str | None = None
    """Roll from this character's sheet (`jdr roll … --sheet NAME`): it fills the parameters
    not typed, and the roll writes back what it changes."""
    uses: Mapping[str, Any] | None = None
    """What to use of the sheet (a stat, a target …), as the sheet binding's model says."""


def roll(store: Store, viewer: Viewer, campaign: Campaign, asked: RollAsked) -> Rolled:
    """Roll through the campaign's journal as `viewer` may (see the module's docstring)."""
    viewer.require_campaign(campaign.id)
    actor = viewer.require_actor(asked.actor)
    if asked.hidden and not viewer.is_gm:
        raise AccessError("hidden", True, _("the GM"), _("only the GM rolls hidden"))
    system = system_of(campaign)
    action = action_of(system, asked.action)
    if asked.client_seed is not None and len(asked.client_seed) > 200:
        raise InputError("client_seed", asked.client_seed[:20] + "…", _("1 to 200 characters"))
    if asked.sheet:
        rolled = _roll_from_sheet(store, viewer, campaign, system, action, asked, actor)
    else:
        stored = not viewer.is_gm and actor is not None  # a player's character, as stored
        rolled = _roll_typed(store, campaign, system, action, asked, actor, stored)
    if rolled.replayed and not viewer.is_gm and not readable(store, campaign, rolled.entry):
        raise AccessError(
            "action_id", asked.action_id, _("an action id of yours"), _("a hidden roll")
        )
    return rolled


def _roll_from_sheet(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    system: RuleSystem,
    action: Action[Any],
    asked: RollAsked,
    actor: str | None,
) -> Rolled:
    from jdr.characters.rolls import roll as roll_sheet
    from jdr.journal.service import Who

    assert asked.sheet is not None
    if asked.hidden:  # what it writes on the sheets would show it to every seat at once
        raise InputError(
            "hidden",
            True,
            _("a hidden roll without a sheet, or a public roll from a sheet"),
            _("a roll from a sheet changes sheets everyone reads"),
        )
    if not viewer.may_act_for(asked.sheet):
        raise AccessError(
            "sheet", asked.sheet, viewer.character or "-", _("a player rolls from their own sheet")
        )
    who = Who(actor, asked.action_id or None, asked.client_seed or None, asked.hidden)
    found = roll_sheet(
        store, campaign, system, action, asked.sheet, asked.params, asked.uses or {}, who
    )
    return found.rolled


def _roll_typed(
    store: Store,
    campaign: Campaign,
    system: RuleSystem,
    action: Action[Any],
    asked: RollAsked,
    actor: str | None,
    stored: bool = False,
) -> Rolled:
    from jdr.journal import service

    params = validate_params(action.params, asked.params)
    with worded(action.params):
        return service.roll(
            store,
            campaign,
            system,
            action,
            params,
            actor=actor,
            action_id=asked.action_id or None,
            client_seed=asked.client_seed or None,
            hidden=asked.hidden,
            actor_stored=stored,
        )


def readable(store: Store, campaign: Campaign, entry: Entry) -> bool:
    """Whether everyone may read `entry`'s body: not hidden, or disclosed."""
    if not entry.hidden:
        return True
    return any(row.seq == entry.seq and row.disclosed for row in store.journal(campaign.id))


def sheet_uses(system: RuleSystem, action: Action[Any]) -> Any:
    """The model of what an action may use of a sheet (None: it cannot roll from one)."""
    binding = (getattr(system, "sheet_rolls", {}) or {}).get(action.name)
    return binding.uses if binding is not None else None


def odds(
    campaign: Campaign,
    action_name: str,
    raw: Mapping[str, Any],
    store: Store | None = None,
    sheet: str | None = None,
    uses: Mapping[str, Any] | None = None,
) -> tuple[Any, Any, Any]:
    """The exact odds of an action with the parameters typed so far, and those read from
    `sheet` when given: (action, params, odds)."""
    system = system_of(campaign)
    action = action_of(system, action_name, "odds")
    params = _params(campaign, system, action, action.params, raw, store, sheet, uses)
    assert action.odds is not None
    with worded(action.params):
        return action, params, action.odds(params, False)


def advise(
    campaign: Campaign,
    action_name: str,
    raw: Mapping[str, Any],
    store: Store | None = None,
    sheet: str | None = None,
    uses: Mapping[str, Any] | None = None,
) -> tuple[Any, Any, Any]:
    """An advisor's ranking (Passion's `advise`): (action, params, advice), with the values read
    from `sheet` when given (its talent, as `jdr advise --sheet` and the roll read it)."""
    system = system_of(campaign)
    action = action_of(system, action_name, "advise")
    assert action.advise is not None
    params = _params(campaign, system, action, action.advise.params, raw, store, sheet, uses)
    with worded(action.advise.params):
        return action, params, action.advise.advise(params, False)


def _params(
    campaign: Campaign,
    system: RuleSystem,
    action: Action[Any],
    model: Any,
    raw: Mapping[str, Any],
    store: Store | None,
    sheet: str | None,
    uses: Mapping[str, Any] | None,
) -> Any:
    """`model`'s parameters as typed, or read from `sheet` when given (as the roll reads them)."""
    if sheet and store is not None:
        from jdr.characters.rolls import bind

        return bind(store, campaign, system, action.name, model, sheet, raw, uses or {}).params
    return validate_params(model, raw)


def summaries(campaign: Campaign, entries: list[Entry]) -> dict[int, str]:
    """What each (readable) fight action of the journal did, in words."""
    from jdr.fights.story import entry_summaries

    system = system_of(campaign)
    return entry_summaries(system, entries) if system.fight is not None else {}


def journal(store: Store, viewer: Viewer, campaign: Campaign) -> list[Entry]:
    """The journal as `viewer` may read it: the GM's whole, everyone else's with hidden rolls
    sealed until disclosed."""
    from jdr.journal.service import entry_of, public_entries

    viewer.require_campaign(campaign.id)
    if viewer.is_gm:
        return [entry_of(row) for row in store.journal(campaign.id)]
    return public_entries(store, campaign)


def journal_page(
    store: Store, viewer: Viewer, campaign: Campaign, count: int, before: int | None = None
) -> tuple[list[Entry], bool]:
    """The last `count` entries of the journal (before seq `before`, if given) as `viewer` may
    read them (`journal`), and whether older ones remain: a page of a long journal."""
    from jdr.journal.service import entry_of, public_entries

    viewer.require_campaign(campaign.id)
    rows, older = store.journal_page(campaign.id, count, before)
    if viewer.is_gm:
        return [entry_of(row) for row in rows], older
    return public_entries(store, campaign, rows), older


# --- fights ----------------------------------------------------------------------------------


RECAPS = ("bbcode", "markdown")


@dataclass(frozen=True)
class FightPage:
    """What a fight's page shows `viewer`: the state in words, who may act now and with what,
    the narrated log and the recap to copy. Sealed choices stay sealed (`jdr.fights.sealed`)."""

    id: int
    status: str
    view: Any
    awaited: dict[str, list[str]]
    mine: dict[str, list[str]]
    log: list[Any]
    recaps: dict[str, Any]
    """The whole fight's recaps to copy (`copies`): BBCode and Markdown texts, Discord's
    messages."""
    participants: list[str]
    pace: Any = None
    """`jdr.live.pace.Pace`: who is awaited, by when (its `line()`), the deadline."""
    version: int = 0
    ending: Any = None
    """`jdr.fights.ending.Ending`: how the fight ended (None while it goes on)."""
    stuck: bool = False
    """The fight can no longer end by its rules: the GM may end it (`end_fight`)."""
    rounds: list[Any] = field(default_factory=list)
    """The story in rounds, each sentence with its dice (`jdr.fights.cards.rounds`)."""
    undo: bool = False
    """The viewer may take back the last action and put it back (`undo_fight`): the GM, while
    the fight goes on."""
    examples: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    """For each fighter the viewer may play and each of its commands whose example reads the
    fight (`Command.example_keys`: a move it knows, an opponent), that example's keys, which a
    form shows filled in."""

    earlier: int = 0
    """Actions before the `log`'s, not told on the page (a long fight's)."""

    def cards(self) -> list[Any]:
        """Each fighter's card, as the system's fight view gives it (`jdr.fights.cards.Card`)."""
        found: list[Any] = self.view.shown_cards()
        return found

    def order(self) -> list[str]:
        """The fighters in their order of play (`jdr.fights.view.View.play_order`), then any
        awaited out of turn (a defender's answer)."""
        found: list[str] = self.view.play_order()
        return found + [name for name in self.awaited if name not in found]


def fight_in(store: Store, viewer: Viewer, campaign: Campaign, fight_id: int) -> Any:
    """The fight `fight_id`, if it is one of the session's campaign's."""
    from jdr.errors import NotFoundError
    from jdr.store import StoreError

    viewer.require_campaign(campaign.id)
    try:
        found = store.fight(fight_id)
    except StoreError:
        found = None
    if found is None or found.campaign_id != campaign.id:
        raise NotFoundError("fight", fight_id, _("a fight of this campaign"))
    return found


def start_fight(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    names: list[str],
    sides: dict[str, str] | None = None,
    order: list[str] | None = None,
    settings: dict[str, Any] | None = None,
    deadline: str | None = None,
    on_late: str | None = None,
) -> int:
    """The GM opens a fight between stored characters (`jdr.characters.fights.open_stored`:
    sides, order, the table's settings and the pace as `jdr fight new` takes them)."""
    from jdr.characters.fights import open_stored

    viewer.require_gm("fight")
    if len(names) < 2:
        raise InputError(_("fighters"), ", ".join(names), _("two fighters or more"))
    opened = open_stored(
        store, campaign, names, sides, order, settings, deadline=deadline, on_late=on_late
    )
    return int(opened.started.fight_id)


TOLD_KEPT = 32
"""Fights' pages' logs (their last actions) kept told per store, by version and language: every
seat's page and live part reread the same log after each action; a new action makes a new
version."""
_TOLD_LOCK = threading.Lock()
_TOLD: weakref.WeakKeyDictionary[Store, dict[tuple[Any, ...], Any]] = weakref.WeakKeyDictionary()
_FOLDED: weakref.WeakKeyDictionary[Store, dict[int, Any]] = weakref.WeakKeyDictionary()
"""Each fight's actions before the first its page tells, folded (`jdr.fights.story.Folded`):
the next version's page folds only the actions since."""


def fight_page(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    fight_id: int,
    recaps: bool = True,
    last: int | None = None,
) -> FightPage:
    """The fight as `viewer` sees it; `recaps` False leaves the whole fight's recaps out (the
    JSON API's read, which a player's client may ask for at every turn). `last` tells only the
    last actions in the log (`earlier` counts the others), and leaves the recaps out of a
    fight longer than that (`fight_recaps` gives them): a long fight's page stays light."""
    from jdr.fights.cards import rounds
    from jdr.fights.ending import ending_of, stuck
    from jdr.fights.narration import Words
    from jdr.fights.sealed import public
    from jdr.fights.service import legal_now, state
    from jdr.fights.view import view_of
    from jdr.live.pace import pace_of

    record = fight_in(store, viewer, campaign, fight_id)
    system = system_of(campaign)
    assert system.fight is not None
    now = state(store, fight_id, system.fight)
    names = [str(n) for n in record.participants]
    ending = ending_of(now, record.status)
    legal = {n: found for n in names if (found := legal_now(system, now, n))}
    mine = {n: c for n, c in legal.items() if viewer.may_act_for(n)} if viewer.may_write else {}
    if ending is not None:  # an ended fight offers no command
        mine = {}
    view = view_of(system, now, Words("text", now), record.status)
    key = (fight_id, record.version, record.status, recaps, last, current_language())
    with _TOLD_LOCK:
        kept = _TOLD.setdefault(store, {})
        kept_log = kept.get(key)
    if kept_log is None:  # read and told once per version of the fight (and language)
        from jdr.journal.growing import fight_events

        stored = fight_events(store, fight_id)  # the events kept, and the new action's
        actions = sorted({item.action for item in stored})
        shown = None if last is None or len(actions) <= last else set(actions[-last:])
        made = copies(store, fight_id) if recaps and shown is None else {}
        log = _last_chapters(store, system, fight_id, stored, shown)
        kept_log = (log, made, 0 if shown is None else len(actions) - len(shown))
        if last is not None:  # a page's few actions are kept; a whole log is not
            with _TOLD_LOCK:
                kept[key] = kept_log
                while len(kept) > TOLD_KEPT:
                    kept.pop(next(iter(kept)))
    log, made, earlier = kept_log
    pace = pace_of(system, record, now)
    commands = getattr(system, "fight_commands", None)
    seen = public(now)
    examples = {
        actor: {
            name: commands.get(name).example_keys(seen, actor)
            for name in offered
            if callable(commands.get(name).example)  # real names, not a made-up example
        }
        for actor, offered in mine.items()
        if commands is not None
    }
    return FightPage(
        fight_id,
        record.status,
        view,
        dict(pace.awaited),
        mine,
        log,
        made,
        names,
        pace,
        record.version,
        ending,
        stuck(system, now, record.status),
        rounds(log),
        viewer.is_gm and record.status != "ended",
        examples,
        earlier,
    )


def fight_recaps(store: Store, viewer: Viewer, campaign: Campaign, fight_id: int) -> dict[str, Any]:
    """The whole fight's recaps to copy, by format (what `fight_page` leaves out of a long
    fight's page, asked for apart)."""
    fight_in(store, viewer, campaign, fight_id)
    return copies(store, fight_id)


def copies(store: Store, fight_id: int) -> dict[str, Any]:
    """The whole fight's recaps to copy, each with its journal line (`jdr.fights.recaps.
    posted`): BBCode and Markdown whole (`RECAPS`), and `discord`, the list of messages of at
    most 2,000 characters each, to post one after the other."""
    from jdr.fights.recaps import posted_in

    made = posted_in(store, fight_id, [*RECAPS, "discord"], whole=True)
    found: dict[str, Any] = {fmt: made[fmt].text for fmt in RECAPS}
    found["discord"] = made["discord"].messages
    return found


def _last_chapters(
    store: Store, system: Any, fight_id: int, stored: list[Any], shown: set[int] | None
) -> list[Any]:
    """The chapters of the fight's actions `shown` (None: all): the actions before the first
    shown are folded from where this process's last read of the fight left them (`_FOLDED`),
    so a page read after one more action folds one action, not the whole fight."""
    from jdr.fights.story import Folded, chapters

    if shown is None:
        return chapters(system, stored)
    with _TOLD_LOCK:
        start = _FOLDED.setdefault(store, {}).get(fight_id)
    if start is not None and start.until > min(shown):
        start = None
    log = chapters(system, stored, only=shown, start=start)
    folded = Folded.before(log, min(shown), start)
    if folded is not None:
        with _TOLD_LOCK:
            kept = _FOLDED.setdefault(store, {})
            kept.pop(fight_id, None)
            kept[fight_id] = folded
            while len(kept) > TOLD_KEPT:
                kept.pop(next(iter(kept)))
    return [chapter for chapter in log if chapter.number in shown]


def end_fight(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    fight_id: int,
    winners: Sequence[str] = (),
    draw: bool = False,
) -> Any:
    """The GM ends a fight (`jdr fight end`: `jdr.fights.service.close`), naming the winners
    or a draw when its rules have not ended it; its outcome lands on the sheets."""
    from jdr.fights.service import close

    viewer.require_gm("fight")
    fight_in(store, viewer, campaign, fight_id)
    return close(store, fight_id, list(winners), draw, actor=None)


def play(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    fight_id: int,
    actor: str,
    command: str,
    keys: Mapping[str, Any],
    seen: int | None = None,
) -> Any:
    """Play a command in a fight as `viewer` may: the service refuses a command or a key that is
    someone else's decision (`seat_of`: a player decides for their own fighter only); `seen`,
    the fight's version the page showed (a repeated form is refused, `RepeatedError`)."""
    from jdr.fights import service

    record = fight_in(store, viewer, campaign, fight_id)
    if record.status == "ended":
        from jdr.errors import RulesError

        raise RulesError(_("this fight has ended"))
    viewer.require_writer("actor")
    system = system_of(campaign)
    pairs = [f"{key}={value}" for key, value in keys.items()]
    return service.play(
        store, fight_id, system, actor, command, pairs, seen=seen, seat=seat_of(viewer)
    )


def undo_fight(
    store: Store, viewer: Viewer, campaign: Campaign, fight_id: int, redo: bool = False
) -> Any:
    """The GM takes back the fight's last action, or puts back the one undone last (`redo`):
    `jdr fight undo|redo`, the same journaled service (`jdr.fights.service.undo`); refused to
    a player and a spectator, and in a fight that has ended."""
    from jdr.fights import service

    viewer.require_gm("undo")
    record = fight_in(store, viewer, campaign, fight_id)
    if record.status == "ended":
        from jdr.errors import RulesError

        raise RulesError(_("this fight has ended"))
    system = system_of(campaign)
    move = service.redo if redo else service.undo
    return move(store, fight_id, rules=system.fight)


def seat_of(viewer: Viewer) -> Seat:
    """Who a web session gives commands as (`jdr.fights.commands.Seat`): the GM, or a player
    controlling their one character (a spectator controls nobody)."""
    if viewer.is_gm:
        return GM_SEAT
    mine = (viewer.character,) if viewer.role == "player" and viewer.character else ()
    return Seat(fighters=mine)


def command_odds(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    fight_id: int,
    actor: str,
    command: str,
    keys: Mapping[str, Any],
) -> Any:
    """The odds of `command` for `actor` with the keys typed so far (`jdr.fights.odds`: the
    function its decider resolves with), read from the fight's state as anyone may see it (a
    sealed choice stays sealed); None when the command declares none or rolls nothing. Keys
    are read as `play` reads them (`InputError` for a key missing or wrong)."""
    from jdr.fights.odds import command_odds as odds_of
    from jdr.fights.sealed import public
    from jdr.fights.service import state
    from jdr.fights.setup import fighters_named

    record = fight_in(store, viewer, campaign, fight_id)
    system = system_of(campaign)
    commands = getattr(system, "fight_commands", None)
    if system.fight is None or commands is None:
        return None
    who = fighters_named("ACTOR", [actor], list(record.participants), keep_unknown=True)[0]
    pairs = [f"{key}={value}" for key, value in keys.items()]
    name, parsed = commands.parse(command, pairs)
    now = public(state(store, fight_id, system.fight))
    return odds_of(system, now, who, name, parsed)


# --- sheets ----------------------------------------------------------------------------------


def character_in(store: Store, viewer: Viewer, campaign: Campaign, character_id: int) -> Any:
    """The character `character_id`, if it is one of the session's campaign's."""
    from jdr.errors import NotFoundError
    from jdr.store import StoreError

    viewer.require_campaign(campaign.id)
    try:
        found = store.character(character_id)
    except StoreError:
        found = None
    if found is None or found.campaign_id != campaign.id:
        raise NotFoundError("character", character_id, _("a character of this campaign"))
    return found


def edit_sheet(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    character_id: int,
    text: str,
    base_revision: int | None,
) -> Any:
    """Replace a sheet by its edited TOML, as `jdr sheet edit` does (validated by the system,
    rebased onto changes made meanwhile): the GM edits any sheet, a player their own."""
    import tomllib

    from jdr.characters import service
    from jdr.toml_syntax import syntax_error

    character = character_in(store, viewer, campaign, character_id)
    if not viewer.may_act_for(character.name):
        viewer.require_writer("sheet")
        raise AccessError(
            "sheet", character.name, viewer.character or "-", _("a player edits only their sheet")
        )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise syntax_error(error, text, character.name) from None
    actor = viewer.character if not viewer.is_gm else None
    return service.replace(store, campaign, character.name, data, base_revision, actor)


def luck(store: Store, viewer: Viewer, campaign: Campaign) -> list[Any]:
    """The luck audit of the campaign's public journal (`jdr journal luck NAME`): each roller's
    dice against what was to be expected."""
    from jdr.journal.growing import verifiable_journal_rolls
    from jdr.journal.luck import audit, face_luck

    viewer.require_campaign(campaign.id)
    system = system_of(campaign)
    scoring = getattr(system, "luck", None) or face_luck
    return audit(verifiable_journal_rolls(store, campaign), scoring)  # the new entries read


WEB_MAX_RUNS = 2_000
"""The most fights one simulation page plays (about a second of one core for a Plus Ultra
duel, eight for a Passion or Pokémon one: benchmarks/bench_simulate.py; `jdr simulate` on the
command line goes to 10 million, over every core)."""


def simulate(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    with_: list[str],
    against: list[str],
    runs: int,
    seed: int,
    tactic: str | None = None,
    as_is: bool = False,
    sides: dict[str, str] | None = None,
) -> Any:
    """`jdr simulate` at the table: the campaign's stored characters, one side against the
    other, `runs` fights (at most `WEB_MAX_RUNS`) in this process, every fighter playing
    `tactic` (a name of the system's; None, its default), from full gauges unless `as_is`,
    `sides` naming side "a" and side "b" (else their fighters name them); any member may ask
    (it changes nothing and reads only sheets they can read)."""
    from jdr.simulate.service import MAX_SIDE_NAME, run, sides_checked, stored_fighter

    viewer.require_campaign(campaign.id)
    if not 1 <= runs <= WEB_MAX_RUNS:
        raise InputError("runs", runs, f"1 … {WEB_MAX_RUNS}")
    named = {key: name.strip() for key, name in (sides or {}).items() if name.strip()}
    for key, name in named.items():
        if len(name) > MAX_SIDE_NAME:
            raise InputError(f"side_{key}", name[:40], f"≤ {MAX_SIDE_NAME}")
    if len(named) == 2 and len(set(named.values())) == 1:
        raise InputError("side_b", named["b"], _("two names"), _("both sides named alike"))
    system = system_of(campaign)
    fighters = [
        stored_fighter(store, campaign.id, name, side)
        for names, side in ((with_, "a"), (against, "b"))
        for name in names
    ]
    return run(
        system,
        sides_checked(fighters),
        runs=runs,
        seed=seed,
        workers=1,
        tactic=tactic,
        as_is=as_is,
        sides=named,
    )


def simulation_tactics(campaign: Campaign) -> list[str]:
    """The tactics a simulation of the campaign's system may play (`default` first); none when
    its system has no simulation."""
    from jdr.simulate.core import tactic_names

    simulation = getattr(system_of(campaign), "simulation", None)
    return tactic_names(simulation) if simulation is not None else []


def disclose(store: Store, viewer: Viewer, campaign: Campaign) -> list[int]:
    """The GM makes every hidden roll public (`jdr journal disclose NAME`): their seqs."""
    viewer.require_campaign(campaign.id)
    viewer.require_gm("disclose")
    return store.disclose(campaign.id, None)


def reveal(store: Store, viewer: Viewer, campaign: Campaign) -> int:
    """The GM publishes the campaign's seed and commits to a new one (`jdr campaign reveal`);
    refused while a hidden roll of the epoch is not disclosed. The revealed epoch's number."""
    viewer.require_campaign(campaign.id)
    viewer.require_gm("reveal")
    revealed, _opened = store.reveal_epoch(campaign.id)
    return revealed.number
