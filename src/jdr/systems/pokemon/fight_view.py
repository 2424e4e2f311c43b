"""A Pokémon fight's state in words (`jdr fight show`, the recaps): the round and the slot to play,
or the defender whose answer it waits for, then each Pokémon on one line.

>>> from jdr.fights.narration import Words
>>> state = {"round": 2, "over": False, "winner": None, "to_play": ["Pika"], "reaction": None,
...          "pokemon": {"Pika": {"name": "Pika", "side": "a", "vitality": 9,
...              "vitality_max": 14, "energy": 8, "energy_max": 10, "condition": "paralysis",
...              "volatile": {"confusion": {"turns_left": 2}}, "accuracy_stage": 0,
...              "initiative": None, "waiting": False, "ko": False, "in_fight": True,
...              "item": None}}}
>>> shown = view(state, Words())
>>> shown.status
'Round 2 — to play: Pika'
>>> shown.fighters[0]
'Pika (a) — Vitalité 9/14 · Énergie 8/10 · paralysis · confusion (2 turns)'
"""

from __future__ import annotations

from jdr.fights.cards import CONDITION, Card, Part, gauge
from jdr.fights.narration import Words
from jdr.fights.view import View, card_line
from jdr.i18n import N_, ngettext
from jdr.systems.protocol import Json


def view(state: Json, words: Words) -> View:
    """The state of a Pokémon fight in words, each Pokémon's card (its line's parts) and the
    order of play (by initiative, highest first, once rolled)."""
    cards = [_card(p, words) for p in state["pokemon"].values()]
    rolled = [p for p in state["pokemon"].values() if p.get("initiative") is not None]
    order = [p["name"] for p in sorted(rolled, key=lambda p: -p["initiative"])]
    return View(_status(state, words), [card_line(words, c) for c in cards], cards, order)


def winners(state: Json) -> list[str]:
    """The Pokémon of the side that won, still in the fight (none: nobody won)."""
    side = state.get("winner")
    return [n for n, p in state["pokemon"].items() if p["side"] == side and p["in_fight"]]


def _status(state: Json, words: Words) -> str:
    if state["over"]:
        return words.winners(winners(state))
    reaction = state.get("reaction")
    if reaction is not None:
        waiting = words.say(
            N_("waiting: {name}'s answer to {attacker}'s {move} ({responses})"),
            name=words.name(reaction["pokemon"]),
            attacker=words.name(reaction["attacker"]),
            move=words.name(reaction["move"]),
            responses=", ".join(words.word(r) for r in reaction["responses"]),
        )
    else:
        waiting = words.say(N_("to play: {names}"), names=words.names(state["to_play"]))
    return words.say(N_("Round {round} — {waiting}"), round=state["round"], waiting=waiting)


def _card(pokemon: Json, words: Words) -> Card:
    parts = [
        _gauge(N_("Vitalité {now}/{max}"), pokemon["vitality"], pokemon["vitality_max"], words),
        _gauge(N_("Énergie {now}/{max}"), pokemon["energy"], pokemon["energy_max"], words),
    ]
    if pokemon["condition"]:
        parts.append(Part(words.word(pokemon["condition"]), CONDITION))
    for condition, details in pokemon.get("volatile", {}).items():
        if "turns_left" in details:
            text = ngettext(
                "{condition} ({n} turn)", "{condition} ({n} turns)", details["turns_left"]
            ).format(n=details["turns_left"], condition=words.word(condition))
            parts.append(Part(text, CONDITION))
        else:
            parts.append(Part(words.word(condition), CONDITION))
    if pokemon.get("accuracy_stage"):
        stages = words.signed(pokemon["accuracy_stage"])
        parts.append(Part(words.say(N_("accuracy {stages}"), stages=stages), CONDITION))
    if pokemon.get("item"):
        parts.append(Part(words.say(N_("holds {item}"), item=words.name(pokemon["item"]))))
    if pokemon["initiative"] is not None:
        parts.append(Part(words.say(N_("initiative {n}"), n=pokemon["initiative"])))
    if pokemon["waiting"]:
        parts.append(Part(words.say(N_("waiting")), CONDITION))
    if pokemon["ko"]:
        parts.append(Part(words.say(N_("KO")), CONDITION))
    elif not pokemon["in_fight"]:
        parts.append(Part(words.say(N_("out of the fight")), CONDITION))
    out = bool(pokemon["ko"]) or not pokemon["in_fight"]
    return Card(pokemon["name"], pokemon["side"], tuple(parts), out)


def _gauge(message: str, now: int, most: int, words: Words) -> Part:
    return gauge(words.say(message, now=now, max=most), now, most)
