"""The JSON API's answers, typed: what /api/openapi.json documents for each route's 200, and
what the tests check every answer against (`jdr.answers` builds them, for the CLI's `--json`
too). A system's own keys come beside the contract's, so each answer allows more keys than it
names; probabilities are numbers (or `"a/b"` texts in exact mode).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

Json = dict[str, Any]
Probability = float | int | str


class Open(BaseModel):
    """An answer that may carry more keys than it names (a system's own)."""

    model_config = ConfigDict(extra="allow")


class CampaignInfo(Open):
    id: int
    name: str
    system: str
    settings: Json
    created: str


class CharacterInfo(Open):
    id: int
    name: str
    version: int


class FightInfo(Open):
    id: int
    participants: list[str]
    status: str
    version: int


class RevealedSeed(Open):
    number: int
    seed: str
    commitment: str


class SeedInfo(Open):
    epoch: int
    commitment: str
    revealed: list[RevealedSeed]


class You(Open):
    role: Literal["gm", "player", "spectator"]
    character: str | None


class CampaignAnswer(Open):
    """`GET /api/c/{campaign_id}`."""

    campaign: CampaignInfo
    characters: list[CharacterInfo]
    fights: list[FightInfo]
    seed: SeedInfo
    you: You


class JournalLine(Open):
    """Where a roll or a fight action landed in the journal."""

    campaign: str
    seq: int
    hash: str
    short: str
    commitment: str
    action_id: str | None
    source: str | None
    hidden: bool
    replayed: bool


class ActionAnswer(Open):
    system: str
    action: str
    params: Json


class RollAnswer(ActionAnswer):
    """`POST /api/c/{campaign_id}/roll`: the roll, its outcome and totals (the system's own
    top-level keys), its `details`, its journal line."""

    faces: list[int]
    outcome: str | None
    details: Json
    explanation: str
    journal: JournalLine


class OddsAnswer(ActionAnswer):
    """`POST /api/c/{campaign_id}/odds`."""

    outcomes: dict[str, Probability]
    distribution: list[list[Any]]
    mean: Probability | None = None
    distribution_of: str | None = None


class AdviceAnswer(ActionAnswer):
    """`POST /api/c/{campaign_id}/advise`."""

    choices: list[Json]
    summary: str | None = None


class JournalAnswer(Open):
    """`GET /api/c/{campaign_id}/journal`."""

    campaign: str
    commitment: str | None
    total: int
    first: int | None
    last: int | None
    entries: list[Json]
    summaries: dict[str, Any]


class FightView(Open):
    status: Any
    fighters: list[Any]


class FightAnswer(Open):
    """`GET /api/c/{campaign_id}/fights/{fight_id}`."""

    fight: int
    campaign: str
    system: str
    participants: list[str]
    version: int
    status: str
    view: FightView
    legal_commands: list[str]
    awaited: dict[str, list[str]]
    narration: list[str]
    ending: Json | None = None
    """How the fight ended (`{"how": "ko"|"rout"|"gm"|"draw", "winners": […]}`), or None."""
    stuck: bool = False


class ActAnswer(Open):
    """`POST /api/c/{campaign_id}/fights/{fight_id}`."""

    fight: int
    command: Json
    events: list[Json]
    version: int
    journal: JournalLine | None


class ExportHead(Open):
    seq: int
    hash: str


class ExportAnswer(Open):
    """`GET /api/c/{campaign_id}/journal/export`: docs/verifiable-rolls.md's file."""

    format: Literal["jdr-journal"]
    v: int
    campaign: str
    system: str
    exported: str
    head: ExportHead | None
    epochs: list[Json]
    entries: list[Json]
    fights: list[Json]
    sheets: list[Json]


class SimulateAnswer(Open):
    """`POST /api/c/{campaign_id}/simulate` (as `jdr simulate … --json`): each side's wins by
    the side's name, each fighter's starting gauges and measures, the gauges that start at 0."""

    system: str
    runs: int
    seed: int
    tactic: str
    as_is: bool
    wins: dict[str, Json]
    undecided: Json
    rounds: Json
    fighters: dict[str, Json]
    at_zero: list[Json]
    compare: list[Json]


def ok(model: type[BaseModel]) -> dict[int | str, dict[str, Any]]:
    """A route's documented 200 answer."""
    return {200: {"model": model}}
