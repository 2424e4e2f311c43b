"""Stored Passion sheets → the fight's setup (`fight_setup` checks it):
`{"fighters": [{<sheet>, "side"}]}`.

Each fighter is named in the fight by its stored name.

>>> fight_setup([{"name": "Rom", "sheet": {"name": "Romuald"}, "side": "heroes"}], {})
{'fighters': [{'name': 'Rom', 'side': 'heroes'}]}
"""

from __future__ import annotations

from jdr.params import prepared
from jdr.systems.passion.fight_setup import Setup
from jdr.systems.protocol import Json

__all__ = ["fight_setup"]


def fight_setup(participants: list[Json], options: Json) -> Json:
    """One fighter per participant, on its side."""
    fighters = [{**p["sheet"], "name": p["name"], "side": p["side"]} for p in participants]
    # `jdr fight new --setting status_quo_ticks=true` (the setup's own checks refuse any other),
    # its keys and values in French or English (`jdr.labels`)
    settings = prepared(Setup, options.get("settings") or {}, keys=True)
    return {"fighters": fighters, **settings}
