"""Stored Plus Ultra sheets → the fight's setup (see `fight_setup`): `{"characters", "order"?}`.

Each character is named in the fight by its stored name; `order` (names) is the order of play.

>>> fight_setup([{"name": "Kaito", "sheet": {"name": "K", "rank": "C"}, "side": "a"}], {})
{'characters': [{'name': 'Kaito', 'rank': 'C', 'side': 'a'}]}
"""

from __future__ import annotations

from jdr.params import prepared
from jdr.systems.plus_ultra.fight_setup import Setup
from jdr.systems.protocol import Json

__all__ = ["fight_setup"]


def fight_setup(participants: list[Json], options: Json) -> Json:
    """One character per participant, on its side, in the given order of play if any."""
    characters = [{**p["sheet"], "name": p["name"], "side": p["side"]} for p in participants]
    setup: Json = {"characters": characters}
    if options.get("order"):
        setup["order"] = list(options["order"])
    setup |= prepared(
        Setup, options.get("settings") or {}, keys=True
    )  # `--setting draw_order=true`
    return setup
