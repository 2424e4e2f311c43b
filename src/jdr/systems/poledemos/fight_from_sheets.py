"""Stored Polédémos warbands → the game's setup (see `play`): `{"players": [<warband>, …]}`.

Each player is a stored warband named by its stored name, seated in the order given (the same
warband file may be played by two players); the first player is rolled off. Commands name the
`player`.

>>> fight_setup([{"name": "Alice", "sheet": {"name": "Section", "figures": []}, "side": "a"}], {})
{'players': [{'name': 'Alice', 'figures': []}]}
>>> make_command("Alice", "activate", {"figure": "Perry", "dice": 2})
{'action': 'activate', 'player': 'Alice', 'figure': 'Perry', 'dice': 2}
"""

from __future__ import annotations

from jdr.systems.protocol import Json

__all__ = ["fight_setup", "make_command"]


def fight_setup(participants: list[Json], options: Json) -> Json:
    """The players, in their seats."""
    return {"players": [{**p["sheet"], "name": p["name"]} for p in participants]}


def make_command(actor: str, action: str, pairs: Json) -> Json:
    """Every command names its `player`."""
    return {"action": action, "player": actor, **pairs}
