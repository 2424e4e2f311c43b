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

from jdr.fights.narration import Words
from jdr.fights.view import View, fighter_text
from jdr.i18n import N_, ngettext
from jdr.systems.protocol import Json


def view(state: Json, words: Words) -> View:
    """The state of a Pokémon fight in words."""
    return View(_status(state, words), [_line(p, words) for p in state["pokemon"].values()])


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


def _line(pokemon: Json, words: Words) -> str:
    parts = [
        words.say(N_("Vitalité {now}/{max}"), now=pokemon["vitality"], max=pokemon["vitality_max"]),
        words.say(N_("Énergie {now}/{max}"), now=pokemon["energy"], max=pokemon["energy_max"]),
    ]
    if pokemon["condition"]:
        parts.append(words.word(pokemon["condition"]))
    for condition, details in pokemon.get("volatile", {}).items():
        if "turns_left" in details:
            parts.append(
                ngettext(
                    "{condition} ({n} turn)", "{condition} ({n} turns)", details["turns_left"]
                ).format(n=details["turns_left"], condition=words.word(condition))
            )
        else:
            parts.append(words.word(condition))
    if pokemon.get("accuracy_stage"):
        parts.append(
            words.say(N_("accuracy {stages}"), stages=words.signed(pokemon["accuracy_stage"]))
        )
    if pokemon.get("item"):
        parts.append(words.say(N_("holds {item}"), item=words.name(pokemon["item"])))
    if pokemon["initiative"] is not None:
        parts.append(words.say(N_("initiative {n}"), n=pokemon["initiative"]))
    if pokemon["waiting"]:
        parts.append(words.say(N_("waiting")))
    if pokemon["ko"]:
        parts.append(words.say(N_("KO")))
    elif not pokemon["in_fight"]:
        parts.append(words.say(N_("out of the fight")))
    return fighter_text(words, pokemon["name"], pokemon["side"], parts)
