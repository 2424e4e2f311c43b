"""A stored fight played from a front end: open one between a campaign's stored characters,
play a command, undo or redo, set its pace, play the late turns. Each is one call that does
the work through `jdr.fights.service` (and `jdr.characters.fights`, `jdr.live.pace`) and
returns what the answer shows: the events told, the state after them, what is legal now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jdr.characters.fights import FighterOutcome, open_stored, outcome
from jdr.dice.source import RandomSource
from jdr.errors import InputError
from jdr.fights import service
from jdr.fights.commands import GM_SEAT, Seat
from jdr.fights.narration import Told
from jdr.fights.queries import fight_state, fight_system, refuse_ended, system_named
from jdr.fights.story import chapters, told
from jdr.i18n import _
from jdr.journal.entries import Entry
from jdr.live.pace import LateTurn, resolve_late, set_pace
from jdr.store import Campaign, Store
from jdr.systems.protocol import Json, RuleSystem

__all__ = [
    "Begun",
    "Step",
    "Turn",
    "act_in",
    "begin",
    "ending",
    "late_turns",
    "outcome_now",
    "pace",
    "step",
]


@dataclass(frozen=True)
class Begun:
    """A fight just opened: its id, campaign and system, its fighters' names as stored, its
    opening events told, the state after them, the commands legal and the journal entry."""

    fight_id: int
    campaign: Campaign
    system: RuleSystem
    names: list[str]
    events: list[Json]
    told: list[Told]
    state: Json
    legal: list[str]
    entry: Entry


def begin(
    store: Store,
    campaign: Campaign,
    names: Sequence[str],
    sides: dict[str, str] | None = None,
    order: Sequence[str] | None = None,
    settings: Json | None = None,
    rng: RandomSource | None = None,
    deadline: str | None = None,
    on_late: str | None = None,
) -> Begun:
    """Open a fight in `campaign` between its stored characters `names`
    (`jdr.characters.fights.open_stored`, which says what each argument is)."""
    system = system_named(campaign.system)
    made = open_stored(
        store, campaign, names, sides, order, settings, rng, deadline=deadline, on_late=on_late
    )
    started = made.started
    fight_id, events = started.fight_id, started.events
    now = fight_state(store, fight_id, system)
    legal = service.legal_now(system, now)
    return Begun(
        fight_id,
        campaign,
        system,
        made.names,
        events,
        told(system, events, {}),
        now,
        legal,
        started.entry,
    )


@dataclass(frozen=True)
class Turn:
    """A command played: the fight's campaign name and system, the command as the decider
    took it, what was appended (`service.Acted`), its events told from the state before them,
    the state after them and the commands legal now."""

    campaign: str
    system: RuleSystem
    command: Json
    acted: service.Acted
    told: list[Told]
    state: Json
    legal: list[str]


def act_in(
    store: Store,
    fight_id: int,
    actor: str,
    command: str | None,
    pairs: Sequence[str] = (),
    rng: RandomSource | None = None,
    client_seed: str | None = None,
    seat: Seat | None = None,
) -> Turn:
    """`actor` plays `command` with `pairs` (`key=value`) in the stored fight `fight_id`
    (`service.play`, which says what each argument is); an ended fight refuses it
    (`RulesError`), no command given is an `InputError` listing what `actor` may play."""
    system = fight_system(store, fight_id)
    refuse_ended(store, fight_id)
    if command is None:
        legal = service.legal_now(system, fight_state(store, fight_id, system), actor)
        raise InputError("COMMAND", None, ", ".join(legal) or "-", _("no command given"))
    played = service.play(
        store,
        fight_id,
        system,
        actor,
        command,
        list(pairs),
        rng,
        client_seed,
        seat=seat or GM_SEAT,
    )
    acted = played.acted
    assert acted.before is not None and acted.after is not None
    campaign = store.campaign_of_fight(fight_id).name
    legal = service.legal_now(system, acted.after)
    said = told(system, acted.events, acted.before)
    return Turn(campaign, system, played.command, acted, said, acted.after, legal)


@dataclass(frozen=True)
class Step:
    """An undo or a redo: the fight's campaign name and system, what was appended, its
    sentence(s) and the commands legal now."""

    campaign: str
    system: RuleSystem
    acted: service.Acted
    said: list[str]
    legal: list[str]


def step(store: Store, fight_id: int, redo: bool = False) -> Step:
    """Take back the last action of the stored fight `fight_id` (`redo`: put back the action
    undone last); an ended fight refuses it (`RulesError`)."""
    system = fight_system(store, fight_id)
    refuse_ended(store, fight_id)
    move = service.redo if redo else service.undo
    acted = move(store, fight_id, rules=system.fight)
    assert acted.after is not None
    campaign = store.campaign_of_fight(fight_id).name
    stored = store.events(fight_id)
    legal = service.legal_now(system, acted.after)
    said = chapters(system, stored)[-1].lines()
    return Step(campaign, system, acted, said, legal)


def pace(store: Store, fight_id: int, deadline: str | None, on_late: str | None) -> Json:
    """Set the stored fight's turn deadline and what happens when it passes
    (`jdr.live.pace.set_pace`; an unknown fight is a `StoreError`)."""
    store.fight(fight_id)  # an unknown fight says so
    return set_pace(store, fight_id, deadline, on_late)


def late_turns(store: Store, campaign: str | None = None) -> list[LateTurn]:
    """Play every turn gone past its deadline (of the campaign named `campaign` only, if
    given), as each fight's pace says (`jdr.live.pace.resolve_late`)."""
    only = store.campaign(campaign).id if campaign is not None else None
    return resolve_late(store, campaign_id=only)


def outcome_now(store: Store, fight_id: int) -> tuple[str, Campaign, list[FighterOutcome]]:
    """The stored fight's status, its campaign, and what ending it would change on each stored
    fighter's sheet (`jdr.characters.fights.outcome`, not applied)."""
    status = store.fight(fight_id).status
    campaign, found = outcome(store, fight_id)
    return status, campaign, found


def ending(
    store: Store,
    fight_id: int,
    winners: Sequence[str] = (),
    draw: bool = False,
    actor: str | None = None,
    apply: bool = True,
) -> tuple[Campaign, service.Closed]:
    """End the stored fight `fight_id` (`service.close`, which says what each argument is);
    its campaign and what was done."""
    campaign = store.campaign_of_fight(fight_id)
    return campaign, service.close(store, fight_id, winners, draw, actor, apply)
