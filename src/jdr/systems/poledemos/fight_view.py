"""A Polédémos game's state in words (`jdr fight show`, the recaps): who has the hand and the
activation in progress (its PA left, the actions taken), then each player's figures with what
is activated in this hand.

>>> from jdr.fights.narration import Words
>>> state = {"seats": ["Alice", "Bob"], "hand": "Alice", "hand_number": 1, "activated": ["Perry"],
...          "activation": {"player": "Alice", "figure": "Perry", "left": 2, "kinds": ["move"],
...                         "members": {}},
...          "figures": {"Alice": [{"name": "Perry", "val": 3}, {"name": "Max", "val": 4}],
...                      "Bob": [{"name": "Smith", "val": 4}]}}
>>> shown = view(state, Words())
>>> shown.status
'Hand 1 — Alice plays: Perry has 2 PA left (done: move)'
>>> shown.fighters[0]
'Alice — Perry (VAL 3+, activated), Max (VAL 4+)'
"""

from __future__ import annotations

from jdr.fights.cards import CONDITION, STATE, Card, Part
from jdr.fights.narration import Words
from jdr.fights.view import View
from jdr.i18n import N_
from jdr.systems.protocol import Json

KINDS = {"move": N_("move"), "shoot": N_("shoot"), "melee": N_("melee")}
"""PD-6: the kinds of action, as a reader sees them."""


def view(state: Json, words: Words) -> View:
    """The state of a Polédémos game in words."""
    cards = [_card(state, p, words) for p in state["seats"]]
    lines = [
        words.say(N_("{name} — {parts}"), name=words.name(c.name), parts=", ".join(c.texts()))
        for c in cards
    ]
    return View(_status(state, words), lines, cards, list(state["seats"]))


def _status(state: Json, words: Words) -> str:
    if state["hand"] is None:
        return "-"
    activation = state["activation"]
    if activation is None:
        now = words.say(N_("{player} plays: activate a figure"), player=words.name(state["hand"]))
    else:
        done = ", ".join(words.word(KINDS[kind]) for kind in activation["kinds"]) or "-"
        now = words.say(
            N_("{player} plays: {figure} has {left} PA left (done: {done})"),
            player=words.name(state["hand"]),
            figure=words.name(activation["figure"]),
            left=activation["left"],
            done=done,
        )
    return words.say(N_("Hand {hand} — {now}"), hand=state["hand_number"], now=now)


def _card(state: Json, player: str, words: Words) -> Card:
    figures = []
    for figure in state["figures"][player]:
        fields = {"figure": words.name(figure["name"]), "val": figure["val"]}
        if player == state["hand"] and figure["name"] in state["activated"]:
            text = words.say(N_("{figure} (VAL {val}+, activated)"), **fields)
            figures.append(Part(text, CONDITION))
        else:
            figures.append(Part(words.say(N_("{figure} (VAL {val}+)"), **fields), STATE))
    return Card(player, None, tuple(figures))
