"""A campaign as a whole, for every front end: create one, list them, gather what one holds,
count what removing it takes, and which rule system it plays.

Each function takes an open store and returns values; the command line and the web app render
them. Nothing here prints, prompts or reads a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jdr.errors import InputError
from jdr.i18n import _

if TYPE_CHECKING:  # the store (SQLAlchemy) loads only when a command runs
    from jdr.store import Campaign, Character, Epoch, Store
    from jdr.systems.protocol import RuleSystem

Json = dict[str, Any]


@dataclass(frozen=True)
class Created:
    """A new campaign and its seed's epochs (the first one committed to)."""

    campaign: Campaign
    epochs: list[Epoch]


def create(store: Store, system: RuleSystem, name: str) -> Created:
    """Create campaign `name` played with `system`."""
    store.create_campaign(system.id, name)
    campaign = store.campaign(name)
    return Created(campaign, store.epochs(campaign.id))


@dataclass(frozen=True)
class Listing:
    """Every campaign, and how many characters each holds (by campaign id)."""

    campaigns: list[Campaign]
    counts: dict[int, int]


def listing(store: Store) -> Listing:
    """The campaigns of the store, with their characters' counts."""
    return Listing(store.campaigns(), store.character_counts())


@dataclass(frozen=True)
class Overview:
    """What `campaign show` tells: the campaign, its characters, its fights, its seed's epochs."""

    campaign: Campaign
    characters: list[Character]
    fights: list[Json]
    epochs: list[Epoch]


def overview(store: Store, name: str) -> Overview:
    """Campaign `name` and what it holds; a campaign from before the journal gets its seed now."""
    from jdr.answers import fights_json

    campaign = store.campaign(name)
    characters = store.characters(campaign.id)
    fights = fights_json(store, campaign.id)
    store.epoch(campaign.id)
    return Overview(campaign, characters, fights, store.epochs(campaign.id))


@dataclass(frozen=True)
class Holdings:
    """How much removing a campaign takes away with it."""

    characters: int
    fights: int
    entries: int


def holdings(store: Store, campaign: Campaign) -> Holdings:
    """The number of characters, fights and journal entries `campaign` holds."""
    return Holdings(
        len(store.characters(campaign.id)),
        len(store.fights(campaign.id)),
        len(store.journal(campaign.id)),
    )


def system_played(store: Store, name: str, given: str | None = None) -> str:
    """The id of the rule system campaign `name` plays. A SYSTEM typed as well (`given`, named
    loosely as everywhere) must be that one: another is an `InputError` naming both."""
    campaign = store.campaign(name)
    if given is not None:
        from jdr.systems import default_registry

        if default_registry().get(given).id != campaign.system:
            raise InputError(
                "SYSTEM",
                given,
                _("{system}, or no SYSTEM with --campaign").format(system=campaign.system),
                _("campaign {name} plays {system}").format(
                    name=campaign.name, system=campaign.system
                ),
            )
    return campaign.system
