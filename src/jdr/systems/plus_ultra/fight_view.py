"""A Plus Ultra fight's state in words (`jdr fight show`, the recaps): the round and whose turn
it is, or the flight that waits for an opponent's answer, then each character on one line with
its gauges (PU-1) and its techniques' cooldowns (PU-7).

>>> from jdr.fights.narration import Words
>>> kaito = {"name": "Kaito", "side": "a", "energy": 5, "energy_max": 7, "willpower": 3,
...          "willpower_max": 5, "techniques": [{"name": "Smash", "cooldown": 2}],
...          "used_round": {"Smash": 1}, "defending": True, "defense_bonus": 0,
...          "fleeing": False, "ko": False, "escaped": False}
>>> state = {"round": 2, "turn": "Kaito", "fleeing": None, "over": False, "winner": None,
...          "order": ["Kaito"], "characters": {"Kaito": kaito}}
>>> shown = view(state, Words())
>>> shown.status, shown.fighters[0]
('Round 2 — to play: Kaito', 'Kaito (a) — Énergie 5/7 · Volonté 3/5 · Smash 1/2 · defending')
"""

from __future__ import annotations

from jdr.fights.cards import CONDITION, COOLING, READY, Card, Part, gauge
from jdr.fights.narration import Words
from jdr.fights.view import View, card_line
from jdr.i18n import N_
from jdr.systems.plus_ultra.fight_models import COMMANDS
from jdr.systems.plus_ultra.fight_state import cooldown_left
from jdr.systems.protocol import Json


def view(state: Json, words: Words) -> View:
    """The state of a Plus Ultra fight in words."""
    number = state["round"]
    cards = [_card(state["characters"][name], number, words) for name in state["order"]]
    lines = [card_line(words, card) for card in cards]
    return View(_status(state, words), lines, cards, list(state["order"]))


def winners(state: Json) -> list[str]:
    """The characters of the side that won, still in the fight (none: nobody won)."""
    side = state.get("winner")
    return [
        name
        for name, c in state["characters"].items()
        if c["side"] == side and not c["ko"] and not c["escaped"]
    ]


def shown_command(command: str) -> str:
    """A command's display name in the reader's language (`fight_models.COMMANDS`)."""
    return COMMANDS.shown(command)


def _status(state: Json, words: Words) -> str:
    if state["over"]:
        return words.winners(winners(state))
    if state["fleeing"]:
        waiting = words.say(
            N_("waiting: an opponent's answer to {name}'s flight ({interrupt} or {let_go})"),
            name=words.name(state["fleeing"]),
            interrupt=shown_command("interrupt"),
            let_go=shown_command("no_interrupt"),
        )
    else:
        waiting = words.say(N_("to play: {names}"), names=words.name(state["turn"]))
    return words.say(N_("Round {round} — {waiting}"), round=state["round"], waiting=waiting)


def _card(character: Json, number: int, words: Words) -> Card:
    energy, willpower = character["energy"], character["willpower"]
    parts = [
        gauge(
            words.say(N_("Énergie {now}/{max}"), now=energy, max=character["energy_max"]),
            energy,
            character["energy_max"],
        ),
        gauge(
            words.say(N_("Volonté {now}/{max}"), now=willpower, max=character["willpower_max"]),
            willpower,
            character["willpower_max"],
        ),
    ]
    for technique in character["techniques"]:
        left = cooldown_left(character, technique["name"], number)
        status = words.say(N_("ready")) if left is None else f"{left}/{technique['cooldown']}"
        kind = READY if left is None else COOLING
        parts.append(Part(f"{words.name(technique['name'])} {status}", kind))
    if character["defending"]:
        parts.append(Part(words.say(N_("defending")), CONDITION))
    if character["defense_bonus"]:
        bonus = character["defense_bonus"]
        parts.append(Part(words.say(N_("defense +{bonus}"), bonus=bonus), CONDITION))
    if character["fleeing"]:
        parts.append(Part(words.say(N_("fleeing")), CONDITION))
    if character["ko"]:
        parts.append(Part(words.say(N_("KO")), CONDITION))
    if character["escaped"]:
        parts.append(Part(words.say(N_("fled the fight")), CONDITION))
    out = bool(character["ko"] or character["escaped"])
    return Card(character["name"], character["side"], tuple(parts), out)
