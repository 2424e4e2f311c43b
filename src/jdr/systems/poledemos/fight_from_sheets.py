"""Stored Polédémos warbands → the game's setup (see `play`): `{"players": [<warband>, …]}`.

Each player is a stored warband named by its stored name, seated in the order given (the same
warband file may be played by two players). The first player is rolled off, unless the scenario
says who starts: `--order B,C,A` (`jdr fight new`) is the order of play around the table, so its
first name starts and its sense (the seats' order, or the reverse) gives the direction (PD-3).
Commands name the `player`.

>>> sheet = {"name": "Section", "figures": []}
>>> fight_setup([{"name": "Alice", "sheet": sheet, "side": "a"}], {})
{'players': [{'name': 'Alice', 'figures': []}]}
>>> seats = [{"name": n, "sheet": sheet, "side": "a"} for n in ("Alice", "Bob", "Cy")]
>>> setup = fight_setup(seats, {"order": ["Bob", "Alice", "Cy"]})
>>> setup["first"], setup["direction"]
('Bob', 'counterclockwise')
>>> make_command("Alice", "activate", {"figure": "Perry", "dice": 2})
{'action': 'activate', 'player': 'Alice', 'figure': 'Perry', 'dice': 2}
"""

from __future__ import annotations

from jdr.errors import InputError
from jdr.i18n import _
from jdr.params import prepared
from jdr.systems.poledemos.play_setup import PlaySettings
from jdr.systems.protocol import Json

__all__ = ["fight_setup", "make_command"]


def fight_setup(participants: list[Json], options: Json) -> Json:
    """The players, in their seats; with an `order`, who starts and which way play goes."""
    setup: Json = {"players": [{**p["sheet"], "name": p["name"]} for p in participants]}
    order = options.get("order")
    if order:
        seats = [p["name"] for p in participants]
        setup["first"] = order[0]
        setup["direction"] = _direction(seats, list(order))
    if options.get("settings"):  # `jdr fight new --setting voluntary_pass=true`, or French
        setup["settings"] = prepared(PlaySettings, options["settings"], keys=True)
    return setup


def _direction(seats: list[str], order: list[str]) -> str:
    """`clockwise` if `order` goes round the seats as listed, `counterclockwise` if the other
    way; anything else is not an order of play around a table (PD-3)."""
    if sorted(order) == sorted(seats):
        start = seats.index(order[0])
        clockwise = seats[start:] + seats[:start]
        if order == clockwise:
            return "clockwise"
        if order == [clockwise[0], *reversed(clockwise[1:])]:
            return "counterclockwise"
    raise InputError(
        "--order",
        ",".join(order),
        _("the players around the table from the first, either way: {seats}").format(
            seats=",".join(seats)
        ),
        _("play goes around the table (PD-3)"),
    )


def make_command(actor: str, action: str, pairs: Json) -> Json:
    """Every command names its `player`."""
    return {"action": action, "player": actor, **pairs}
