"""The state of a Polédémos game and `evolve`, the only way it changes (PD-3 … PD-10).

A game's state is `fold(evolve, events, {})`: a JSON dict. `evolve` never rolls and never checks:
every face and every number is in the events (see `jdr.systems.poledemos.play` for them).

>>> state = evolve({}, {"type": "game_started", "first": None, "direction": "counterclockwise",
...     "settings": {"voluntary_pass": False}, "players": [
...     {"name": "A", "figures": []}, {"name": "B", "figures": []}, {"name": "C", "figures": []}]})
>>> state["seats"], next_player(state, "A"), next_player(state, "C")
(['A', 'B', 'C'], 'C', 'B')
>>> state["hand"], state["activation"]
(None, None)
"""

from __future__ import annotations

from typing import Any

from jdr.systems.protocol import Json

KINDS = ("move", "shoot", "melee")
"""PD-6: the three kinds of action a PA buys."""


def evolve(state: Json, event: Json) -> Json:
    """The state after `event`; `state` itself is not changed."""
    kind = event["type"]
    if kind == "game_started":
        return _start(event)
    new: Json = dict(state)
    if kind == "first_player":
        new["first"] = event["player"]
    elif kind == "hand_started":
        new.update(hand=event["player"], hand_number=event["hand"], activated=[], activation=None)
    elif kind == "activation_rolled":
        members = event["members"]
        new["activated"] = [
            *state["activated"],
            event["figure"],
            *(member["figure"] for member in members),
        ]
        new["activation"] = {
            "player": event["player"],
            "figure": event["figure"],
            "action_points": event["action_points"],
            "left": event["action_points"],
            "pass_hand": event["pass_hand"],
            "kinds": [],
            "members": {
                member["figure"]: {
                    "action_points": member["action_points"],
                    "left": member["action_points"],
                }
                for member in members
            },
        }
    elif kind == "action_taken":
        new["activation"] = _spend(state["activation"], event)
    elif kind in ("activation_ended", "hand_passed"):
        new["activation"] = None
        if kind == "hand_passed":
            new["hand"] = None
    return new


def _start(event: Json) -> Json:
    return {
        "seats": [player["name"] for player in event["players"]],
        "direction": event["direction"],
        "settings": dict(event["settings"]),
        "figures": {
            player["name"]: [dict(figure) for figure in player["figures"]]
            for player in event["players"]
        },
        "first": None,
        "hand": None,
        "hand_number": 0,
        "activated": [],
        "activation": None,
    }


def _spend(activation: Json, event: Json) -> Json:
    members = {name: dict(member) for name, member in activation["members"].items()}
    for member in event["members"]:
        members[member["figure"]]["left"] -= member["pa"]
    return {
        **activation,
        "left": activation["left"] - event["pa"],
        "kinds": [*activation["kinds"], event["kind"]],
        "members": members,
    }


def next_player(state: Json, player: str) -> str:
    """PD-3: the next seat around the table in the game's direction (two players alternate)."""
    seats: list[str] = state["seats"]
    step = 1 if state["direction"] == "clockwise" else -1
    return seats[(seats.index(player) + step) % len(seats)]


def find_figure(state: Json, player: str, name: Any) -> Json | None:
    """`player`'s figure called `name`, or None."""
    for figure in state["figures"].get(player, []):
        if figure["name"] == name:
            result: Json = figure
            return result
    return None


def available_figures(state: Json) -> list[str]:
    """PD-4: the figures the player with the hand may still activate in this hand.

    >>> available_figures({"hand": "A", "activated": ["x"],
    ...                    "figures": {"A": [{"name": "x"}, {"name": "y"}]}})
    ['y']
    """
    if not state or state["hand"] is None:
        return []
    return [
        figure["name"]
        for figure in state["figures"][state["hand"]]
        if figure["name"] not in state["activated"]
    ]


def open_kinds(state: Json) -> list[str]:
    """PD-6: the kinds of action the activated figure may still take (none without PA left)."""
    activation = state.get("activation")
    if not activation or activation["left"] <= 0:
        return []
    return [kind for kind in KINDS if kind not in activation["kinds"]]
