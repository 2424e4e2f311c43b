"""A Passion fight's setup: the fighters from their sheets, their sides, and the table's settings.

A fighter in a setup is a sheet as a plain dict (what `sheets.Sheet` reads) plus its `side`; the
opening event carries each checked sheet, so the fight never reads a file again.

>>> from jdr.systems.passion.sheet_files import example_path
>>> import tomllib
>>> def sheet(name, side):
...     return tomllib.loads(example_path(name).read_text("utf-8")) | {"side": side}
>>> event = opening({"fighters": [sheet("romuald", "heroes"), sheet("cyber-ninja", "ninjas")]})
>>> [f["name"] for f in event["fighters"]], event["settings"]
(['Romuald', 'Cyber-ninja'], {'status_quo_ticks': False, 'npc_cuts_violence': True})
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from jdr import json_keys
from jdr.errors import InputError, RulesError
from jdr.i18n import _
from jdr.labels import named
from jdr.names import fold as fold_name
from jdr.systems.passion.sheet_files import SheetError, sheet_of
from jdr.systems.protocol import Json
from jdr.validation import translate


class Setup(BaseModel):
    """`{"fighters": [{<sheet>, "side": S}, …], "status_quo_ticks": false,
    "npc_cuts_violence": true}`."""

    model_config = ConfigDict(extra="forbid")

    fighters: list[dict[str, Any]] = Field(json_schema_extra=named("fighters", "combattants"))
    status_quo_ticks: bool = Field(
        default=False,
        json_schema_extra=named("a status quo ticks the marker", "le statu quo coche le marqueur"),
    )
    """PS-12 setting: a status quo ticks the marker off as a failure does."""
    npc_cuts_violence: bool = Field(
        default=True,
        json_schema_extra=named("an NPC cuts the Violence", "le PNJ réduit la Violence"),
    )
    """PS-16 setting: an NPC target cuts the attacker's Violence dice by its Robustesse."""


def opening(setup: Json) -> Json:
    """The `fight_started` event: each sheet checked (`SheetError`), names unique, two sides at
    least, every fighter with its mobility potential (`RulesError`, PS-9).

    A setup of plain data (dicts, lists, text, numbers …) is checked once per process, under its
    key (`jdr.json_keys`: a simulation starts thousands of fights from one setup); a key keeps
    every type (1, 1.0 and True differ, a tuple is no list) and every order, and other data has
    none, so a setup reads back exactly as it was given; each fight gets an event of its own,
    read back from the first one's key."""
    image = json_keys.key(setup)
    if image is None:  # not plain data: checked each time
        return _opening(setup)
    event: Json = json_keys.data(_opening_image(image))
    return event


@lru_cache(maxsize=64)
def _opening_image(image: bytes) -> bytes:
    """The key (`jdr.json_keys`) of `_opening` of the setup whose key is `image` (never written
    anywhere: it lives as long as the process)."""
    opened = json_keys.key(_opening(json_keys.data(image)))
    assert opened is not None  # the event is plain JSON data
    return opened


def _opening(setup: Json) -> Json:
    try:
        checked = Setup.model_validate(setup)
    except ValidationError as error:
        raise translate(error, Setup, _("setup")) from None
    fighters = [_fighter(i, data) for i, data in enumerate(checked.fighters, start=1)]
    names = [f["name"] for f in fighters]
    if len(names) < 2:
        raise RulesError(_("a fight needs at least two fighters"), "PS-9")
    for index, name in enumerate(names):
        if fold_name(name) in map(fold_name, names[:index]):
            raise RulesError(_("two fighters are named {name}").format(name=name), "PS-9")
    if len({f["side"] for f in fighters}) < 2:
        raise RulesError(_("a fight needs fighters on at least two sides"), "PS-9")
    settings = {
        "status_quo_ticks": checked.status_quo_ticks,
        "npc_cuts_violence": checked.npc_cuts_violence,
    }
    # `sealed`: markers are committed, then opened together (a fight started before they were
    # has no such key, and its journal replays as it was)
    return {"type": "fight_started", "fighters": fighters, "settings": settings, "sealed": True}


def _fighter(position: int, data: dict[str, Any]) -> Json:
    label = f"fighters[{position}]"
    side = data.get("side")
    if not isinstance(side, str) or not side.strip():
        raise RulesError(
            _("{name} needs a side (heroes, ninjas …)").format(name=data.get("name", label)),
            "PS-9",
        )
    sheet = sheet_of({k: v for k, v in data.items() if k != "side"}, label)
    mobility = sheet.potential_key(sheet.uses.mobility)
    if mobility is None:
        missing = InputError(
            f"{label}.uses.mobility",
            sheet.uses.mobility,
            ", ".join(sheet.potentials) or "-",
            _("no mobility potential {name}: initiative needs one (PS-9)").format(
                name=sheet.uses.mobility
            ),
        )
        raise SheetError([missing], label)
    dumped: Json = sheet.model_dump(mode="json")
    dumped["uses"]["mobility"] = mobility
    return dumped | {"side": side.strip()}
