"""`jdr demo --serve`: a ready campaign for the web table, in a throw-away database.

A Plus Ultra campaign with the two example characters, a fight between them already open and a
first roll in its journal, then one invite link per seat (the GM, the hero's player, a
spectator): what a GM would set up by hand before inviting a table, done so that a newcomer
sees the web table working in one command. Front ends only print the links and serve.

>>> from jdr.store import open_store
>>> table = prepare(open_store("sqlite://"))
>>> [seat.role for seat in table.seats], table.fighters
(['gm', 'player', 'spectator'], ['Kaito Arashi', 'Maître Corbeau'])
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

from jdr.access import Invited, Viewer, invite
from jdr.characters import service as sheets
from jdr.dice import notation
from jdr.i18n import _
from jdr.journal import service as journal
from jdr.sheet_check import systems_example
from jdr.store import Store
from jdr.table import start_fight

SYSTEM = "plus-ultra"
KINDS = ("hero", "villain")


@dataclass(frozen=True)
class DemoTable:
    """The campaign made, its fighters and fight, and one invite per seat."""

    campaign: str
    campaign_id: int
    fighters: list[str]
    fight: int
    seats: list[Invited]


def prepare(store: Store) -> DemoTable:
    """Make the demo campaign in `store` (see the module)."""
    name = _("Demo table")
    campaign_id = store.create_campaign(SYSTEM, name)
    campaign = store.campaign_by_id(campaign_id)
    for kind in KINDS:
        sheets.add(store, campaign, tomllib.loads(systems_example(SYSTEM, kind)), actor="MJ")
    fighters = [c.name for c in store.characters(campaign_id)]
    fight = start_fight(store, Viewer(campaign_id, "gm"), campaign, fighters)
    journal.roll_dice(store, campaign, notation.parse("2d6"), journal.Who(fighters[0]))
    seats = [
        invite(store, campaign_id, "gm"),
        invite(store, campaign_id, "player", fighters[0]),
        invite(store, campaign_id, "spectator"),
    ]
    return DemoTable(campaign.name, campaign_id, fighters, fight, seats)
