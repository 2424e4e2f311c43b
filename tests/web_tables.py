"""A seeded web table per rule system, for the browser tests that walk every page (axe-core,
overflow at 360 px, screenshots): a campaign holding the system's example sheets (twice when it
ships one fighter), a fight begun between two of them with a turn played, journal lines, an
invite and a hidden roll — so every page shows what a player would see mid-campaign."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

from jdr.access import Viewer
from jdr.characters import service
from jdr.sheet_check import systems_example
from jdr.store import Store
from jdr.table import start_fight
from web_helpers import HOST, unique

SEEDS: dict[str, tuple[tuple[str, str | None], ...]] = {
    # system: (example kind, name given or None for the example's own)
    "plus-ultra": (("hero", None), ("villain", None)),
    "pokemon": (("pokemon", None), ("pokemon", "Évoli"), ("trainer", None)),
    "passion": (("romuald", None), ("cyber-ninja", None)),
    "ilvermorny": (("wizard", None), ("wizard", "Orion Vale")),
    "poledemos": (("warband", None), ("warband", "Section Harper")),
}
"""Each system that has fights, and the characters its seeded campaign holds (fighters first)."""


@dataclass
class Table:
    """A seeded campaign: the app serving it, its store and ids, its fighters and its fight."""

    app: Any
    store: Store
    campaign_id: int
    system: str
    names: list[str]
    fight_id: int
    character_ids: dict[str, int] = field(default_factory=dict)

    @property
    def player(self) -> str:
        """The character a player invite is for (the first fighter)."""
        return self.names[0]


def seeded_table(database_url: str, system: str) -> Table:
    """The web application on `database_url` and a seeded campaign of `system`."""
    from jdr.web.app import create_app

    app = create_app(database_url, host_token=HOST, invite_attempts=1000)
    store: Store = app.state.store
    campaign_id = store.create_campaign(system, unique("Table"))
    campaign = store.campaign_by_id(campaign_id)
    names = []
    for kind, name in SEEDS[system]:
        data = tomllib.loads(systems_example(system, kind))
        service.add(store, campaign, data, name=name)
        names.append(name or str(data["name"]))
    fighters = names[:2]
    fight_id = start_fight(store, Viewer(campaign_id, "gm"), campaign, fighters)
    ids = {c.name: c.id for c in store.characters(campaign_id)}
    return Table(app, store, campaign_id, system, names, fight_id, ids)
