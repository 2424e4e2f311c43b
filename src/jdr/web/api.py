"""The JSON API under /api/: the CLI's `--json` answers (`jdr.answers`), for the session's campaign.

Its OpenAPI document is /api/openapi.json. A state change carries the session's CSRF token in
`X-CSRF-Token` (the pages give it; the cookie alone never suffices).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from jdr import table
from jdr.answers import (
    advice_json,
    campaign_json,
    character_json,
    fights_json,
    journal_json,
    journal_show_json,
    odds_json,
    pace_json,
    record_json,
    seed_json,
)
from jdr.journal.service import export
from jdr.params import validate_params
from jdr.phases import phase
from jdr.web.deps import CampaignOf, StoreDep
from jdr.web.schemas import (
    ActAnswer,
    AdviceAnswer,
    CampaignAnswer,
    ExportAnswer,
    FightAnswer,
    JournalAnswer,
    OddsAnswer,
    RollAnswer,
    SimulateAnswer,
    ok,
)

router = APIRouter(prefix="/api")

Json = dict[str, Any]


class ErrorPublic(BaseModel):
    code: str
    message: str
    field: str | None = None
    value: Any = None
    allowed: str | None = None


class ErrorAnswer(BaseModel):
    error: ErrorPublic


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorAnswer} for status in (401, 403, 404, 409, 413, 422, 429, 503)
}


class RollCreate(BaseModel):
    """A roll through the campaign's journal, as `jdr roll SYSTEM ACTION --campaign NAME`."""

    action: str = Field(max_length=100)
    params: dict[str, str | int | float | bool | list[str | int]] = Field(
        default_factory=dict, max_length=40
    )
    actor: str | None = Field(default=None, max_length=200)
    hidden: bool = False
    action_id: str | None = Field(default=None, max_length=200)
    client_seed: str | None = Field(default=None, max_length=200)


class OddsAsk(BaseModel):
    action: str = Field(max_length=100)
    params: dict[str, str | int | float | bool | list[str | int]] = Field(
        default_factory=dict, max_length=40
    )


@router.get("/c/{campaign_id}", response_model=None, responses=ok(CampaignAnswer) | ERRORS)
def campaign(store: StoreDep, who: CampaignOf) -> Json:
    """The campaign, its characters and fights (as `jdr campaign show NAME --json`), and who
    you are at its table."""
    found = who.campaign
    return {
        "campaign": campaign_json(found),
        "characters": [character_json(c) for c in store.characters(found.id)],
        "fights": fights_json(store, found.id),
        "seed": seed_json(store.epochs(found.id)),
        "you": {"role": who.viewer.role, "character": who.viewer.character},
    }


@router.post("/c/{campaign_id}/roll", response_model=None, responses=ok(RollAnswer) | ERRORS)
def roll(store: StoreDep, who: CampaignOf, asked: RollCreate) -> Json:
    """Roll an action of the campaign's system (as `jdr roll … --campaign NAME --json`)."""
    asking = table.RollAsked(
        asked.action,
        asked.params,
        asked.actor,
        asked.hidden,
        asked.action_id,
        asked.client_seed,
    )
    with phase("route"):  # the service in the route's thread (`app` less this: the server's own)
        rolled = table.roll(store, who.viewer, who.campaign, asking)
    with phase("render"):
        system = table.system_of(who.campaign)
        action = table.action_of(system, asked.action)
        params = validate_params(action.params, asked.params)
        payload = record_json(system, action, params, rolled.record, rolled.record.explain())
        payload["journal"] = journal_json(rolled.campaign, rolled.entry, rolled.replayed)
    return payload


@router.post("/c/{campaign_id}/odds", response_model=None, responses=ok(OddsAnswer) | ERRORS)
def odds(who: CampaignOf, asked: OddsAsk) -> Json:
    """Exact odds of an action (as `jdr odds SYSTEM ACTION --json`)."""
    action, params, found = table.odds(who.campaign, asked.action, asked.params)
    return odds_json(table.system_of(who.campaign), action, params, found, False)


@router.post("/c/{campaign_id}/advise", response_model=None, responses=ok(AdviceAnswer) | ERRORS)
def advise(who: CampaignOf, asked: OddsAsk) -> Json:
    """An advisor's ranked choices (as `jdr advise SYSTEM ACTION --json`)."""
    action, params, found = table.advise(who.campaign, asked.action, asked.params)
    return advice_json(table.system_of(who.campaign), action, params, found, False)


class SimulateAsk(BaseModel):
    """A simulation, as `jdr simulate SYSTEM --campaign NAME --with … --against … --json`: the
    stored characters of each side, at most `table.WEB_MAX_RUNS` fights."""

    with_: list[str] = Field(alias="with", min_length=1, max_length=20)
    against: list[str] = Field(min_length=1, max_length=20)
    runs: int = Field(default=1000, ge=1, le=table.WEB_MAX_RUNS)
    seed: int = Field(default=0, ge=-(2**62), le=2**62)
    tactic: str | None = Field(default=None, max_length=100)
    as_is: bool = False
    """Start from the sheets' current gauges (else every gauge full, as a fresh fight)."""
    sides: dict[Literal["a", "b"], str] = Field(default_factory=dict)
    """The names of side a (`with`) and side b (`against`); else their fighters' names."""


@router.post(
    "/c/{campaign_id}/simulate", response_model=None, responses=ok(SimulateAnswer) | ERRORS
)
def simulate(store: StoreDep, who: CampaignOf, asked: SimulateAsk) -> Json:
    """Who wins, and how often (as `jdr simulate … --json`; it changes nothing)."""
    report = table.simulate(
        store,
        who.viewer,
        who.campaign,
        asked.with_,
        asked.against,
        asked.runs,
        asked.seed,
        asked.tactic,
        asked.as_is,
        {str(side): name for side, name in asked.sides.items()},
    )
    answer: Json = {"system": who.campaign.system, "campaign": who.campaign.name}
    answer |= report.to_json()
    return answer


@router.get("/c/{campaign_id}/journal", response_model=None, responses=ok(JournalAnswer) | ERRORS)
def journal(store: StoreDep, who: CampaignOf) -> Json:
    """The journal as this session may read it (as `jdr journal show NAME --json`; hidden rolls
    sealed for all but the GM)."""
    entries = table.journal(store, who.viewer, who.campaign)
    epochs = store.epochs(who.campaign.id)
    commitment = epochs[-1].commitment if epochs else None
    said = table.summaries(who.campaign, entries)
    return journal_show_json(who.campaign.name, commitment, entries, said)


class CommandCreate(BaseModel):
    """A fight command, as `jdr fight act FIGHT ACTOR COMMAND key=value …`."""

    actor: str = Field(max_length=200)
    command: str = Field(max_length=100)
    keys: dict[str, str | int | bool] = Field(default_factory=dict, max_length=20)
    version: int | None = Field(default=None, ge=0, le=2**62)
    """The fight's version the command was chosen on (`GET …/fights/ID`'s `version`): if the
    actor has played since, the command is a repeat and is refused (409), not played twice."""


@router.get(
    "/c/{campaign_id}/fights/{fight_id}", response_model=None, responses=ok(FightAnswer) | ERRORS
)
def fight(store: StoreDep, who: CampaignOf, fight_id: int) -> Json:
    """A fight (as `jdr fight show FIGHT --json`): its public state, in words, and who may
    play what now."""
    page = table.fight_page(store, who.viewer, who.campaign, fight_id, recaps=False)
    record = table.fight_in(store, who.viewer, who.campaign, fight_id)
    return {
        "fight": fight_id,
        "campaign": who.campaign.name,
        "system": who.campaign.system,
        "participants": page.participants,
        "version": record.version,
        "status": record.status,
        "view": {"status": page.view.status, "fighters": list(page.view.fighters)},
        "legal_commands": sorted({c for legal in page.awaited.values() for c in legal}),
        "awaited": page.awaited,
        "pace": pace_json(page.pace),
        "narration": [line for chapter in page.log for line in chapter.lines()],
        "ending": None if page.ending is None else page.ending.json(),
        "stuck": page.stuck,
    }


@router.post(
    "/c/{campaign_id}/fights/{fight_id}", response_model=None, responses=ok(ActAnswer) | ERRORS
)
def fight_act(store: StoreDep, who: CampaignOf, fight_id: int, asked: CommandCreate) -> Json:
    """Play a command (as `jdr fight act … --json`): what it did, told."""
    from jdr.fights.sealed import public

    with phase("route"):  # the service in the route's thread (as a roll's)
        played = table.play(
            store,
            who.viewer,
            who.campaign,
            fight_id,
            asked.actor,
            asked.command,
            asked.keys,
            asked.version,
        )
    acted = played.acted
    return {
        "fight": fight_id,
        "command": played.command,
        "events": public(acted.events),
        "version": acted.version,
        "journal": journal_json(who.campaign.name, acted.entry) if acted.entry else None,
    }


@router.get(
    "/c/{campaign_id}/journal/export", response_model=None, responses=ok(ExportAnswer) | ERRORS
)
def journal_export(store: StoreDep, who: CampaignOf) -> Json:
    """Everything a verifier needs (as `jdr journal export NAME`): hidden rolls sealed, seeds
    only once revealed."""
    return export(store, who.campaign)
