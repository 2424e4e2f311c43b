"""A Plus Ultra fight's setup: the characters from their sheets, and the first order of play.

A character in a setup is a sheet as a plain dict plus its `side`, checked by `sheets.Character`
(the maxima add up for the rank, PU-2; costs and cooldowns, PU-7). The order of play is the one
given (`order`), drawn (`draw_order: true`, PU-10), or else the order of the `characters` list
(the order of the posts).

>>> from jdr.dice import GivenFaces
>>> def sheet(name, side):
...     return {"name": name, "rank": "E", "energy": 2, "willpower": 2, "side": side}
>>> event = opening({"characters": [sheet("Izuku", "a"), sheet("Katsuki", "b")],
...                  "draw_order": True}, GivenFaces([12, 80]))
>>> event["order"], event["draws"]
(['Katsuki', 'Izuku'], {'Izuku': 12, 'Katsuki': 80})
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from jdr.dice.source import RandomSource
from jdr.errors import RulesError
from jdr.i18n import _
from jdr.labels import named
from jdr.names import fold
from jdr.systems.plus_ultra.sheets import Character, SheetError
from jdr.systems.protocol import Json
from jdr.validation import translate

ORDER_DIE = 100
"""PU-10: `draw_order` rolls one d100 per character, highest first; a tie keeps setup order."""


class Setup(BaseModel):
    """`{"characters": [{<sheet>, "side": S}, …], "order": [names]?, "draw_order": false}`."""

    model_config = ConfigDict(extra="forbid")

    characters: list[dict[str, Any]] = Field(json_schema_extra=named("characters", "personnages"))
    order: list[str] | None = Field(
        default=None, json_schema_extra=named("order of play", "ordre de jeu")
    )
    draw_order: bool = Field(
        default=False, json_schema_extra=named("order drawn", "ordre tiré au sort")
    )


def opening(setup: Json, rng: RandomSource) -> Json:
    """The `fight_started` event: each sheet checked (`SheetError`: PU-2, PU-7), the names unique,
    at least two sides, and the order given, drawn (one d100 each) or listed (`RulesError`)."""
    try:
        checked = Setup.model_validate(setup)
    except ValidationError as error:
        raise translate(error, Setup, _("setup")) from None
    fighters = [_fighter(i, each) for i, each in enumerate(checked.characters, start=1)]
    names = [each["name"] for each in fighters]
    if len(names) < 2:
        raise RulesError(_("a fight needs at least two characters"), "PU-10")
    for index, name in enumerate(names):
        if fold(name) in map(fold, names[:index]):
            raise RulesError(_("two characters are named {name}").format(name=name), "PU-10")
    if len({each["side"] for each in fighters}) < 2:
        raise RulesError(_("a fight needs characters on at least two sides"), "PU-10")
    draws: dict[str, int] | None = None
    if checked.order is not None and checked.draw_order:
        raise RulesError(_("give the order of play or draw it, not both"), "PU-10")
    if checked.order is not None:
        order = _given_order(checked.order, names)
    elif checked.draw_order:
        faces = rng.faces(ORDER_DIE, len(names))
        draws = dict(zip(names, faces, strict=True))
        order = sorted(names, key=lambda name: -faces[names.index(name)])  # stable: ties kept
    else:
        order = names
    return {"type": "fight_started", "characters": fighters, "order": order, "draws": draws}


def _fighter(position: int, data: dict[str, Any]) -> Json:
    """A sheet checked by `sheets.Character` (PU-2, PU-7), with its side."""
    sheet = {k: v for k, v in data.items() if k != "side"}
    side = data.get("side")
    if not isinstance(side, str) or not side.strip():
        raise RulesError(
            _("{name} needs a side (a, b or a team's name)").format(
                name=data.get("name", f"characters[{position}]")
            ),
            "PU-10",
        )
    try:
        character = Character.model_validate(sheet)
    except ValidationError as error:
        label = f"characters[{position}]"
        raise SheetError(translate(error, Character, label).problems, label) from None
    return character.model_dump(mode="json") | {"side": side.strip()}


def _given_order(given: list[Any], names: list[str]) -> list[str]:
    by_key = {fold(name): name for name in names}
    order = [by_key.get(fold(str(name)), str(name)) for name in given]
    if sorted(order) != sorted(names):
        raise RulesError(
            _("the order of play must name every character once: {names}").format(
                names=", ".join(names)
            ),
            "PU-10",
        )
    return order
