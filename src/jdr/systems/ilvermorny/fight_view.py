"""An Ilvermorny duel's state in words (`jdr fight show`, the recaps): the round and the spell it
waits for, then each wizard on one line: Magie, this round's spell (sealed until both have
chosen), the spells it knows with their level and XP, the hits it took.

>>> from jdr.fights.narration import Words
>>> state = {"wizards": ["Ann", "Bob"], "magic": {"Ann": 7, "Bob": 6}, "round": 1,
...          "chosen": {"Ann": None}, "seals": {"Ann": "20ef384f70"}, "over": False,
...          "winner": None, "hits": [], "spells": {"Ann": {"Lumos": {"level": 1, "xp": 9}},
...                                                  "Bob": {}}}
>>> shown = view(state, Words())
>>> shown.status
'Round 1 — waiting: the spell of Bob'
>>> shown.fighters[0]
'Ann — Magie 7 · spell chosen (sealed) · Lumos level 1 (9 XP)'
"""

from __future__ import annotations

from jdr.fights.cards import CONDITION, Card, Part
from jdr.fights.narration import Words
from jdr.fights.view import View, card_line
from jdr.i18n import N_, ngettext
from jdr.systems.protocol import Json


def view(state: Json, words: Words) -> View:
    """The state of an Ilvermorny duel in words."""
    cards = [_card(state, w, words) for w in state["wizards"]]
    lines = [card_line(words, card) for card in cards]
    return View(_status(state, words), lines, cards, list(state["wizards"]))


def _status(state: Json, words: Words) -> str:
    if state["over"]:
        if state["winner"] is None:
            return words.say(N_("The duel is over, with no winner."))
        return words.winners([state["winner"]])
    missing = [w for w in state["wizards"] if w not in state["chosen"]]
    return words.say(
        N_("Round {round} — waiting: the spell of {names}"),
        round=state["round"],
        names=words.names(missing),
    )


def _card(state: Json, wizard: str, words: Words) -> Card:
    parts = [Part(words.say(N_("Magie {n}"), n=state["magic"][wizard]))]
    if wizard in state["chosen"]:
        spell = state["chosen"][wizard]
        parts.append(
            Part(words.say(N_("spell chosen (sealed)")), CONDITION)
            if spell is None
            else Part(words.say(N_("spell {spell}"), spell=words.name(spell)), CONDITION)
        )
    for name, spell in state["spells"][wizard].items():
        text = words.say(
            N_("{spell} level {level} ({xp} XP)"),
            spell=words.name(name),
            level=spell["level"],
            xp=spell["xp"],
        )
        parts.append(Part(text))
    hits = [h for h in state["hits"] if h["target"] == wizard]
    if hits:
        text = ngettext("hit {n} time", "hit {n} times", len(hits)).format(n=len(hits))
        parts.append(Part(text, CONDITION))
    return Card(wizard, None, tuple(parts))
