"""The state of a Plus Ultra fight and `evolve`, the only way it changes (PU-1, PU-5 … PU-10).

A fight's state is `fold(evolve, events, {})`, a JSON dict; `evolve` never rolls: every face and
every number is in the events (the vocabulary is in `jdr.systems.plus_ultra.fight`).

>>> sheet = {"name": "Izuku", "rank": "E", "energy": 2, "willpower": 2, "side": "a",
...          "techniques": [{"name": "Smash", "cost": 1, "cooldown": 2, "effects": {}}]}
>>> state = evolve({}, {"type": "fight_started", "characters": [sheet], "order": ["Izuku"]})
>>> state = evolve(state, {"type": "energy_lost", "name": "Izuku", "amount": 5, "by": None})
>>> state["characters"]["Izuku"]["energy"], state["characters"]["Izuku"]["energy_max"]
(0, 2)
>>> cooldown_left(state["characters"]["Izuku"], "Smash", 1), standing(state, "Izuku")
(None, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jdr import json_keys
from jdr.i18n import _
from jdr.names import find as find_name
from jdr.names import fold
from jdr.systems.protocol import Json

ACTIONS = ("attacked", "technique_used", "defended", "fled", "protected")
"""Events that spend a character's action for the round (PU-4 … PU-9)."""


def standing(state: Json, name: str) -> bool:
    """Still in the fight: not KO (PU-1) and not escaped (PU-9)."""
    character = state["characters"].get(name)
    return bool(character and not character["ko"] and not character["escaped"])


def in_fight(state: Json) -> list[str]:
    """The standing characters, in the order of play."""
    return [name for name in state["order"] if standing(state, name)]


def sides_left(state: Json) -> list[str]:
    """The sides that still have a standing character, in the order of play."""
    sides: list[str] = []
    for name in in_fight(state):
        side = state["characters"][name]["side"]
        if side not in sides:
            sides.append(side)
    return sides


def next_to_play(state: Json) -> str | None:
    """PU-10: the first standing character in the order who has not played this round."""
    return next((n for n in in_fight(state) if n not in state["played"]), None)


def find(state: Json, name: Any) -> str | None:
    """The character's name as the fight knows it (named as people type them, `jdr.names`),
    else None."""
    if not isinstance(name, str):
        return None
    if name in state["characters"]:  # as the fight spells it: the common case, no lookup
        return name
    return find_name(name, list(state["characters"]), _("character"))


def find_technique(character: Json, name: Any) -> Json | None:
    """The technique `name` of a character (no case, no accents), else None."""
    if not isinstance(name, str):
        return None
    wanted = fold(name)
    return next((t for t in character["techniques"] if fold(t["name"]) == wanted), None)


def cooldown_left(character: Json, technique: str, round_number: int) -> int | None:
    """PU-7: the cooldown counter `n` shown as `n/X` in `round_number`, or None when ready.

    Used in round t with cooldown X: 0 in round t, t+1 → 1 … t+X → X, ready in round t+X+1.

    >>> smash = {"techniques": [{"name": "Smash", "cooldown": 2}], "used_round": {"Smash": 1}}
    >>> [cooldown_left(smash, "Smash", r) for r in (1, 2, 3, 4)]
    [0, 1, 2, None]
    """
    used = character["used_round"].get(technique)
    if used is None:
        return None
    cooldown = next(t["cooldown"] for t in character["techniques"] if t["name"] == technique)
    elapsed = int(round_number - used)
    return elapsed if elapsed <= cooldown else None


def _character(sheet: Json) -> Json:
    return {
        "name": sheet["name"],
        "side": sheet["side"],
        "rank": sheet["rank"],
        "energy": sheet["energy"],
        "energy_max": sheet["energy"],
        "willpower": sheet["willpower"],
        "willpower_max": sheet["willpower"],
        "techniques": json_keys.copy(sheet.get("techniques", [])),
        "used_round": {},
        "defending": False,
        "defense_bonus": 0,
        "fleeing": False,
        "ko": False,
        "escaped": False,
    }


def _start(event: Json) -> Json:
    """PU-1: every gauge at its maximum; round 0 until `round_started`."""
    return {
        "round": 0,
        "order": list(event["order"]),
        "draws": event.get("draws"),
        "played": [],
        "turn": None,
        "fleeing": None,
        "over": False,
        "winner": None,
        "characters": {c["name"]: _character(c) for c in event["characters"]},
    }


def _clamp(value: int, top: int) -> int:
    """PU-1: a gauge never goes below 0 nor above its maximum."""
    return max(0, min(top, value))


def evolve(state: Json, event: Json) -> Json:
    """The state after `event`; `state` itself is not changed, and the new state shares with it
    every part the event leaves alone (a fold copies the characters it touches, not the whole
    fight: issue 21). Records (`attack_rolled`, `rolls_ignored`, `interrupted`,
    `not_interrupted`) change nothing."""
    kind = event["type"]
    if kind == "fight_started":
        return _start(event)
    new: Json = dict(state)
    new["characters"] = dict(state["characters"])
    touched: set[str] = set()

    def character(name: str) -> Json:
        """`name`'s character in the new state, a copy of its own (its `used_round` too)."""
        if name not in touched:
            own = dict(new["characters"][name])
            own["used_round"] = dict(own["used_round"])
            new["characters"][name] = own
            touched.add(name)
        found: Json = new["characters"][name]
        return found

    if kind in ACTIONS:
        new["played"] = [*state["played"], event["actor"]]
        _end_bonuses(character(event["actor"]))
    if kind == "round_started":
        new.update(round=event["round"], played=[])
    elif kind == "turn_started":
        new["turn"] = event["name"]
        _end_bonuses(character(event["name"]))
    elif kind == "protected":
        new["order"] = list(event["order"])
    elif kind == "fled":
        new["fleeing"] = event["actor"]
        character(event["actor"])["fleeing"] = True
    elif kind in ("flight_failed", "escaped"):
        new["fleeing"] = None
        character(event["name"])["fleeing"] = False
        character(event["name"])["escaped"] = kind == "escaped"
    elif kind == "fight_over":
        new.update(over=True, winner=event["winner"], turn=None, fleeing=None)
    else:
        _change(new, event, character)
    return new


def _end_bonuses(character: Json) -> None:
    """PU-5, PU-7: the defense bonuses last until the start of the character's next turn."""
    character["defending"] = False
    character["defense_bonus"] = 0


def _change(state: Json, event: Json, characters: Callable[[str], Json]) -> None:
    """What an event does to one character (`characters(name)`: its own copy in `state`)."""
    kind = event["type"]
    if kind == "technique_used":
        characters(event["actor"])["used_round"][event["technique"]] = state["round"]
    elif kind == "defended":
        characters(event["actor"])["defending"] = True
    elif kind == "defense_raised":
        characters(event["name"])["defense_bonus"] += event["bonus"]
    elif kind == "energy_lost":
        character = characters(event["name"])
        character["energy"] = _clamp(character["energy"] - event["amount"], character["energy_max"])
    elif kind in ("willpower_lost", "willpower_spent"):
        character = characters(event["name"])
        top = character["willpower_max"]
        character["willpower"] = _clamp(character["willpower"] - event["amount"], top)
    elif kind == "knocked_out":
        characters(event["name"])["ko"] = True
