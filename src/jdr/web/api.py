"""The JSON API under /api/: the CLI's `--json` answers (`jdr.answers`), for the session's campaign.

Its OpenAPI document is /api/openapi.json. A state change carries the session's CSRF token in
`X-CSRF-Token` (the pages give it; the cookie alone never suffices).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from jdr import table
from jdr.answers import advice_json, journal_json, odds_json, record_json
from jdr.journal.service import export
from jdr.params import validate_params
from jdr.web.deps import CampaignOf, StoreDep

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


class CampaignPublic(BaseModel):
    campaign: Json
    characters: list[Json]
    fights: list[Json]
    you: Json


@router.get("/c/{campaign_id}", responses=ERRORS)
def campaign(store: StoreDep, who: CampaignOf) -> CampaignPublic:
    """The campaign, its characters and fights (as `jdr campaign show NAME --json`)."""
    found = who.campaign
    return CampaignPublic(
        campaign={
            "id": found.id,
            "name": found.name,
            "system": found.system,
            "created": found.created.isoformat(),
        },
        characters=[{"id": c.id, "name": c.name} for c in store.characters(found.id)],
        fights=[{"id": f.id, "status": f.status} for f in store.fights(found.id)],
        you={"role": who.viewer.role, "character": who.viewer.character},
    )


@router.post("/c/{campaign_id}/roll", responses=ERRORS)
def roll(store: StoreDep, who: CampaignOf, asked: RollCreate) -> Json:
    """Roll an action of the campaign's system (as `jdr roll … --campaign NAME --json`)."""
    rolled = table.roll(
        store,
        who.viewer,
        who.campaign,
        table.RollAsked(
            asked.action,
            asked.params,
            asked.actor,
            asked.hidden,
            asked.action_id,
            asked.client_seed,
        ),
    )
    system = table.system_of(who.campaign)
    action = table.action_of(system, asked.action)
    params = validate_params(action.params, asked.params)
    payload = record_json(system, action, params, rolled.record, rolled.record.explain())
    payload["journal"] = journal_json(rolled.campaign, rolled.entry, rolled.replayed)
    return payload


@router.post("/c/{campaign_id}/odds", responses=ERRORS)
def odds(who: CampaignOf, asked: OddsAsk) -> Json:
    """Exact odds of an action (as `jdr odds SYSTEM ACTION --json`)."""
    action, params, found = table.odds(who.campaign, asked.action, asked.params)
    return odds_json(table.system_of(who.campaign), action, params, found, False)


@router.post("/c/{campaign_id}/advise", responses=ERRORS)
def advise(who: CampaignOf, asked: OddsAsk) -> Json:
    """An advisor's ranked choices (as `jdr advise SYSTEM ACTION --json`)."""
    action, params, found = table.advise(who.campaign, asked.action, asked.params)
    return advice_json(table.system_of(who.campaign), action, params, found, False)


@router.get("/c/{campaign_id}/journal", responses=ERRORS)
def journal(store: StoreDep, who: CampaignOf) -> Json:
    """The journal as this session may read it (hidden rolls sealed for all but the GM)."""
    entries = table.journal(store, who.viewer, who.campaign)
    return {"campaign": who.campaign.name, "entries": [e.to_json() for e in entries]}


@router.get("/c/{campaign_id}/journal/export", responses=ERRORS)
def journal_export(store: StoreDep, who: CampaignOf) -> Json:
    """Everything a verifier needs (as `jdr journal export NAME`): hidden rolls sealed, seeds
    only once revealed."""
    return export(store, who.campaign)
