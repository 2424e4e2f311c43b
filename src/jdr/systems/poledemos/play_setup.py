"""A Polédémos game's setup: the players in their seats with their warbands (PD-1, PD-3, PD-8).

Each player is a `warband.Warband` (its checks: VAL, unique names, followers of a leader) whose
`name` is the player's. `game_started(setup)` validates the setup and returns the game's first
event, or refuses it: a wrong shape or a bad VAL with `InputError` (naming the path), a rule broken
with `RulesError`.

>>> event = game_started({"players": [
...     {"name": "Alice", "figures": [{"name": "Perry", "val": "3+", "leader": True,
...                                    "followers": ["caporal"]}, {"name": "Caporal", "val": 4}]},
...     {"name": "Bob", "figures": [{"name": "Smith", "val": "4+"}]}]})
>>> event["players"][0]["figures"][0]
{'name': 'Perry', 'val': 3, 'leader': True, 'followers': ['Caporal']}
>>> event["direction"], event["first"], event["settings"]
('clockwise', None, {'voluntary_pass': False})
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from jdr.errors import RulesError
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.names import find
from jdr.names import fold as name_key
from jdr.params import validate_params
from jdr.systems.poledemos.warband import Warband
from jdr.systems.protocol import Json

MAX_PLAYERS = 12
"""Players around one table: a budget checked before anything else."""
MAX_NAME = 100
"""Characters in a player's name."""


class PlayerSetup(Warband):
    """A player at the table: its name and its warband's figures (`Warband`'s own checks)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str = Field(min_length=1, max_length=MAX_NAME, description=N_("the player's name"))


class PlaySettings(BaseModel):
    """Where a table may play the rules otherwise than the project's reading."""

    model_config = ConfigDict(extra="forbid")

    voluntary_pass: bool = Field(
        default=False,
        description=N_("a player may pass the hand with figures left to activate"),
        json_schema_extra=named("voluntary pass", "passe volontaire"),
    )


class GameSetup(BaseModel):
    """The players in their seats around the table (in clockwise order), who starts, which way."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    players: list[PlayerSetup] = Field(min_length=2, max_length=MAX_PLAYERS)
    first: str | None = None
    direction: Literal["clockwise", "counterclockwise"] = "clockwise"
    settings: PlaySettings = Field(default_factory=PlaySettings)


def game_started(setup: Any) -> Json:
    """The `game_started` event of a valid setup (`first` is checked, not yet applied)."""
    if not isinstance(setup, dict):
        raise RulesError(_("a game needs a table with its players"), "PD-3")
    game = validate_params(GameSetup, setup)
    names = [player.name for player in game.players]
    for index, name in enumerate(names):
        if name_key(name) in map(name_key, names[:index]):
            raise RulesError(_("two players are named {name}").format(name=name), "PD-3")
    first = game.first
    if first is not None:
        first = find_name(names, first)
        if first is None:
            raise RulesError(
                _("the first player {name} is not at the table (players: {known})").format(
                    name=game.first, known=", ".join(names)
                ),
                "PD-3",
            )
    players = [
        {
            "name": player.name,
            "figures": [
                {
                    "name": figure.name,
                    "val": figure.val,
                    "leader": figure.leader,
                    "followers": list(figure.followers),
                }
                for figure in player.figures
            ],
        }
        for player in game.players
    ]
    return {
        "type": "game_started",
        "players": players,
        "first": first,
        "direction": game.direction,
        "settings": game.settings.model_dump(),
    }


def find_name(names: list[str], name: Any) -> str | None:
    """The one of `names` that `name` means (named as people type them, `jdr.names`), or None.

    >>> find_name(["Sergent Perry", "Caporal"], " sergent  PERRY")
    'Sergent Perry'
    """
    if not isinstance(name, str):
        return None
    return find(name, names)
