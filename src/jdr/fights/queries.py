"""A stored fight read for a front end: its campaign, system and state, where it stands, its
story, who may play what now, and a command's odds before it is played. Each is one call over
the store; the CLI (`jdr fight show|log|commands|odds`) and the web render what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jdr.errors import InputError, RulesError
from jdr.fights.ending import ENDED_STATUS, Ending, ending_of, stuck
from jdr.fights.odds import CommandOdds, command_odds
from jdr.fights.sealed import public
from jdr.fights.service import fight_events, legal_now, state
from jdr.fights.setup import fighters_named
from jdr.fights.story import Chapter, chapters
from jdr.i18n import _
from jdr.live.pace import Pace, pace_of
from jdr.store import Campaign, FightRecord, Store, StoredEvent, StoreError
from jdr.systems import default_registry
from jdr.systems.protocol import Json, RuleSystem

__all__ = [
    "Log",
    "Playable",
    "Shown",
    "all_systems",
    "campaign_by_id",
    "command_schema",
    "fight_log",
    "fight_now",
    "fight_odds",
    "fight_state",
    "fight_system",
    "playable",
    "refuse_ended",
    "shown",
    "system_named",
]


def system_named(system_id: str) -> RuleSystem:
    """The installed rule system `system_id` (`InputError` listing them otherwise)."""
    return default_registry().get(system_id)


def all_systems() -> list[RuleSystem]:
    """Every installed rule system, in the registry's order."""
    registry = default_registry()
    return [registry.get(i) for i in registry.ids()]


def command_schema(system: RuleSystem) -> list[Json]:
    """The JSON schema of each fight command the system declares (none: `[]`)."""
    commands = getattr(system, "fight_commands", None)
    return commands.schema() if commands is not None else []


def campaign_by_id(store: Store, campaign_id: int) -> Campaign:
    """The campaign of id `campaign_id` (`StoreError` if there is none)."""
    for campaign in store.campaigns():
        if campaign.id == campaign_id:
            return campaign
    raise StoreError("no_campaign", campaign=campaign_id)


def fight_system(store: Store, fight_id: int) -> RuleSystem:
    """The system of the fight's campaign (`StoreError` for an unknown fight)."""
    system = system_named(campaign_by_id(store, store.fight(fight_id).campaign_id).system)
    if system.fight is None:
        raise InputError(_("fight"), str(fight_id), "-", _("this rule system has no fight rules"))
    return system


def fight_state(store: Store, fight_id: int, system: RuleSystem) -> Json:
    """The fight's state now, folded by `system`'s rules."""
    assert system.fight is not None
    return state(store, fight_id, system.fight)


def fight_now(store: Store, fight_id: int) -> tuple[RuleSystem, Json]:
    """The fight's system and its state now."""
    system = fight_system(store, fight_id)
    return system, fight_state(store, fight_id, system)


def refuse_ended(store: Store, fight_id: int) -> None:
    """A `RulesError` if the fight has ended."""
    if store.fight(fight_id).status == ENDED_STATUS:
        raise RulesError(
            _("fight {fight} has ended: no command can be played").format(fight=fight_id)
        )


# --- where a fight stands ---------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """A fight as `jdr fight show` and the web table show it: its row, campaign, system and
    state, how it ended (if it did), whether its rules are stuck (the GM's way out: end it),
    the commands legal now (none once ended) and its pace."""

    record: FightRecord
    campaign: Campaign
    system: RuleSystem
    state: Json
    ending: Ending | None
    stalled: bool
    legal: list[str]
    pace: Pace


def shown(store: Store, fight_id: int) -> Shown:
    """Where the stored fight `fight_id` stands."""
    record = store.fight(fight_id)
    campaign = campaign_by_id(store, record.campaign_id)
    system = fight_system(store, fight_id)
    now = fight_state(store, fight_id, system)
    ending = ending_of(now, record.status)
    stalled = stuck(system, now, record.status)
    legal = legal_now(system, now) if ending is None else []
    pace = pace_of(system, record, now)
    return Shown(record, campaign, system, now, ending, stalled, legal, pace)


# --- a fight's story --------------------------------------------------------------------------


@dataclass(frozen=True)
class Log:
    """A stored fight's whole log, told action by action, and whether the fight has ended."""

    system: RuleSystem
    stored: list[StoredEvent]
    story: list[Chapter]
    ended: bool

    def texts(self) -> list[str]:
        """One sentence per stored event, in order (an undo's or a redo's: what it did)."""
        texts: list[str] = []
        for chapter in self.story:
            texts += [told.text for told in chapter.told]
            if chapter.said is not None:
                texts.append(chapter.said)
        return texts

    def json(self, fight_id: int) -> Json:
        """`jdr fight log --json`: every event with its sentence, every action told."""
        texts = self.texts()
        return {
            "fight": fight_id,
            "events": [
                {"seq": e.seq, "action": e.action, "event": public(e.event), "text": texts[i]}
                for i, e in enumerate(self.stored)
            ],
            "actions": [
                {
                    "action": c.number,
                    "number": c.ordinal,
                    "undone": c.undone,
                    "narration": c.lines(),
                }
                for c in self.story
            ],
        }


def fight_log(store: Store, fight_id: int) -> Log:
    """The story of the stored fight `fight_id`."""
    system = fight_system(store, fight_id)
    stored = fight_events(store, fight_id)
    ended = store.fight(fight_id).status == ENDED_STATUS
    return Log(system, stored, chapters(system, stored), ended)


# --- who may play what ------------------------------------------------------------------------


@dataclass(frozen=True)
class Playable:
    """What may be played now in a fight: the commands legal (for `actor`, if given), and for
    each one who could play it in an example (`join`: a stored character not in the fight;
    nobody known: None)."""

    system: RuleSystem
    state: Json
    legal: list[str]
    participants: list[str]
    players: dict[str, str | None]


def playable(store: Store, fight_id: int, actor: str | None) -> Playable:
    """The commands legal now in the stored fight `fight_id` (by `actor`), each with its
    example's actor."""
    system, now = fight_now(store, fight_id)
    record = store.fight(fight_id)
    names = list(record.participants)
    stored = [c.name for c in store.characters(record.campaign_id) if c.name not in names]
    legal = legal_now(system, now, actor)
    player = actor or next((n for n in names if legal_now(system, now, n)), None)
    mine = legal_now(system, now, player) if player is not None else legal

    def who(command: str) -> str | None:
        if actor is not None or command in mine:
            return player
        return next((n for n in stored if command in legal_now(system, now, n)), None)

    return Playable(system, now, legal, names, {name: who(name) for name in legal})


# --- a command's odds -------------------------------------------------------------------------


def fight_odds(
    store: Store, fight_id: int, actor: str, command: str, pairs: Sequence[str], exact: bool
) -> tuple[str, CommandOdds | None]:
    """The fighter `actor` names (as people type it) and the odds of its `command` with
    `pairs` (`key=value`) as the fight would roll it now (`jdr.fights.odds`; None: it rolls
    nothing)."""

    record = store.fight(fight_id)
    system = system_named(campaign_by_id(store, record.campaign_id).system)
    assert system.fight is not None
    now = public(state(store, fight_id, system.fight))
    who = fighters_named("ACTOR", [actor], list(record.participants), keep_unknown=True)[0]
    commands: Any = getattr(system, "fight_commands", None)
    if commands is None:
        return who, None
    name, keys = commands.parse(command, list(pairs))
    return who, command_odds(system, now, who, name, keys, exact)
