"""How each event of a Polédémos game reads (PD-3 … PD-10), in French and English.

One `Line` per event type of `jdr.systems.poledemos.play`; PA and VAL keep their names.

>>> from jdr.fights.narration import Words
>>> NARRATION.sentence({"type": "activation_rolled", "player": "Alice", "figure": "Perry",
...     "val": 3, "dice": 3, "faces": [2, 5, 2], "action_points": 1, "failures": 2,
...     "pass_hand": True, "members": []}, Words())
'Alice activates Perry (VAL 3+) with 3d6: 2, 5, 2 → 1 PA, 2 failures; the hand passes after it.'
"""

from __future__ import annotations

from typing import Any

from jdr.fights.narration import Line, Narration, Words
from jdr.fights.odds import Chance
from jdr.i18n import N_, ngettext
from jdr.systems.poledemos.fight_odds import activation_chance
from jdr.systems.protocol import Json

KINDS = {"move": N_("moves"), "shoot": N_("shoots"), "melee": N_("fights in melee")}
PASSED = {
    "failures": N_("{player} passes the hand: its leader failed twice or more."),
    "no_figure_left": N_("{player} passes the hand: no figure left to activate."),
    "voluntary": N_("{player} passes the hand."),
}
ENDED = {
    "not_activated": N_("{figure} does not activate (no PA)."),
    "spent": N_("{figure} has spent its PA."),
    "ended": N_("{player} ends {figure}'s activation."),
}


def _started(event: Json, words: Words) -> str:
    players = [
        ngettext("{player} ({n} figure)", "{player} ({n} figures)", len(player["figures"])).format(
            n=len(player["figures"]), player=words.name(player["name"])
        )
        for player in event["players"]
    ]
    direction = (
        N_("play goes clockwise")
        if event["direction"] == "clockwise"
        else N_("play goes counterclockwise")
    )
    return words.say(
        N_("Polédémos game: {players}; {direction}."),
        players=words.names(players),
        direction=words.say(direction),
    )


def _roll_off(event: Json, words: Words) -> str:
    faces = ", ".join(f"{words.name(f['player'])} {f['face']}" for f in event["faces"])
    return words.say(N_("Roll-off {round}: {faces}."), round=event["round"], faces=faces)


def _first(event: Json, words: Words) -> str:
    message = (
        N_("{player} starts, as the scenario says.")
        if event["by"] == "scenario"
        else N_("{player} wins the roll-off and starts.")
    )
    return words.say(message, player=words.name(event["player"]))


def _activation(event: Json, words: Words) -> str:
    message = (
        N_(
            "{player} activates {figure} (VAL {val}+) with {dice}d6: {faces} → {pa} PA,"
            " {failures}; the hand passes after it."
        )
        if event["pass_hand"]
        else N_(
            "{player} activates {figure} (VAL {val}+) with {dice}d6: {faces} → {pa} PA, {failures}."
        )
    )
    said = words.say(
        message,
        player=words.name(event["player"]),
        figure=words.name(event["figure"]),
        val=event["val"],
        dice=event["dice"],
        faces=words.faces(event["faces"]),
        pa=event["action_points"],
        failures=ngettext("{n} failure", "{n} failures", event["failures"]).format(
            n=event["failures"]
        ),
    )
    members = [
        words.say(
            N_("{figure} (VAL {val}+) {pa} PA"),
            figure=words.name(m["figure"]),
            val=m["val"],
            pa=m["action_points"],
        )
        for m in event["members"]
    ]
    if members:
        said += " " + words.say(N_("With it: {members}."), members=", ".join(members))
    return said


def _activation_odds(event: Json, _state: Any) -> Chance:
    """PD-5: the chance the figure activates, at least one die ≥ its VAL, asked of the command's
    odds (`fight_odds`)."""
    return activation_chance(int(event["val"]), int(event["dice"]))


def _spent(data: Json, words: Words) -> str:
    """`1 PA`, `2 PA, +1`, `3 PA, distance ×2` (PD-6)."""
    pa = words.say(N_("{pa} PA"), pa=data["pa"])
    if data.get("distance_factor", 1) != 1:
        factor = words.number(data["distance_factor"])
        return words.say(N_("{pa}, distance ×{factor}"), pa=pa, factor=factor)
    if data.get("bonus"):
        return words.say(N_("{pa}, +{bonus}"), pa=pa, bonus=data["bonus"])
    return pa


def _action(event: Json, words: Words) -> str:
    said = words.say(
        N_("{figure} {kind} ({spent})."),
        figure=words.name(event["figure"]),
        kind=words.word(KINDS[event["kind"]]),
        spent=_spent(event, words),
    )
    members = [
        words.say(N_("{figure} ({spent})"), figure=words.name(m["figure"]), spent=_spent(m, words))
        for m in event["members"]
    ]
    if members:
        said += " " + words.say(N_("With it: {members}."), members=", ".join(members))
    if event["staying"]:
        said += " " + words.say(
            N_("No PA left, staying: {names}."), names=words.names(event["staying"])
        )
    if event.get("note"):
        said += " " + words.say(N_("Table note: {note}"), note=words.name(event["note"]))
    return said


def _keyed(table: dict[str, str]) -> Any:
    def say(event: Json, words: Words) -> str:
        return words.say(
            table[event["reason"]],
            player=words.name(event["player"]),
            figure=words.name(event.get("figure", "")),
        )

    return say


def _hand(event: Json, words: Words) -> str:
    return words.say(
        N_("{player} has the hand (hand {hand})."),
        player=words.name(event["player"]),
        hand=event["hand"],
    )


NARRATION = Narration(
    {
        "game_started": Line(_started),
        "roll_off": Line(_roll_off),
        "first_player": Line(_first),
        "hand_started": Line(_hand),
        "activation_rolled": Line(_activation, odds=_activation_odds),
        "action_taken": Line(_action),
        "activation_ended": Line(_keyed(ENDED), quiet=True),
        "hand_passed": Line(_keyed(PASSED)),
    }
)
"""The sentences of a Polédémos game's events (`System(narration=…)`)."""
