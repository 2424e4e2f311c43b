"""A Passion fight's state in words (`jdr fight show`, the recaps): the round, the markers being
chosen, whose turn it is or what the fight waits for and from whom, then each fighter on one
line: pools, wounds, the marker (sealed until every fighter has chosen), items' Énergie.

>>> from jdr.fights.narration import Words
>>> romuald = {"name": "Romuald", "side": "heroes", "npc": False, "passion": 3,
...            "passion_max": 4, "energy": 5, "energy_max": 5, "wounds": 1, "down": False,
...            "marker": None, "initiative": None, "sealed": "ed8a5dd3a7533702d0f8",
...            "available": [0, 1, 2, 3, 4, 6, 7, 8, 9, 10], "weapons": [], "protections": []}
>>> state = {"round": 1, "phase": "markers", "over": False, "waiting": None, "turn": None,
...          "fighters": {"Romuald": romuald}}
>>> shown = view(state, Words())
>>> shown.status
'Round 1 — markers: Romuald has chosen'
>>> shown.fighters[0]
'Romuald (heroes) — Passion 3/4 · Énergie 5/5 · wounds 1/5 · marker chosen (sealed) · ticked off: 5'
"""

from __future__ import annotations

from jdr.fights.cards import CONDITION, Card, Part, gauge
from jdr.fights.narration import Words
from jdr.fights.view import View, card_line
from jdr.i18n import N_, ngettext
from jdr.systems.passion.initiative import MARKERS
from jdr.systems.protocol import Json

WAITS = {
    "settle": N_("waiting: {actor} settles the roll (Énergie, Passion, an item)"),
    "dodge": N_("waiting: {actor}'s dodge against {attacker} ({dodge} or {no_dodge})"),
    "violence": N_("waiting: {actor}'s Violence dice against {target} (up to {n})"),
    "soak": N_("waiting: {actor}'s Robustesse dice (up to {n})"),
}


def _shown(command: str) -> str:
    """A command's display name in the reader's language (`fight_models.COMMANDS`)."""
    from jdr.systems.passion.fight_models import COMMANDS

    return COMMANDS.shown(command)


def view(state: Json, words: Words) -> View:
    """The state of a Passion fight in words, each fighter's card (its line's parts) and the
    order of play left in the round (the one playing, then the slots to come)."""
    cards = [_card(f, words) for f in state["fighters"].values()]
    turn = state.get("turn")
    slots = [*([turn] if turn else []), *(state.get("slots") or [])]
    order = list(dict.fromkeys(str(s["name"]) for s in slots))
    lines = [card_line(words, card) for card in cards]
    return View(_status(state, words), lines, cards, order)


def winners(state: Json) -> list[str]:
    """The fighters of the side that won, still standing (none: nobody won)."""
    side = state.get("winner")
    return [n for n, f in state["fighters"].items() if f["side"] == side and not f["down"]]


def _status(state: Json, words: Words) -> str:
    if state["over"]:
        return words.winners(winners(state))
    return words.say(N_("Round {round} — {now}"), round=state["round"], now=_now(state, words))


def _now(state: Json, words: Words) -> str:
    waiting = state["waiting"]
    if waiting is not None:
        return words.say(
            WAITS[waiting["for"]],
            actor=words.name(waiting["actor"]),
            attacker=words.name(waiting.get("attacker", "")),
            target=words.name(waiting.get("target") or ""),
            n=waiting.get("max_dice"),
            dodge=_shown("dodge"),
            no_dodge=_shown("no_dodge"),
        )
    if state["phase"] == "markers":
        standing = [f for f in state["fighters"].values() if not f["down"]]
        chosen = [f["name"] for f in standing if f.get("sealed") or f["marker"] is not None]
        missing = [f["name"] for f in standing if f["name"] not in chosen]
        parts = []
        if chosen:
            parts.append(
                ngettext("{names} has chosen", "{names} have chosen", len(chosen)).format(
                    n=len(chosen), names=words.names(chosen)
                )
            )
        if missing:
            parts.append(words.say(N_("waiting for {names}"), names=words.names(missing)))
        return words.say(N_("markers: {parts}"), parts=words.series(parts))
    turn = state["turn"]
    if turn is None:
        return "-"
    if turn["part"] is not None:
        return words.say(
            N_("to play: {name}, its split attack on {target}"),
            name=words.name(turn["name"]),
            target=words.name(turn["part"]["target"]),
        )
    return words.say(N_("to play: {names}"), names=words.name(turn["name"]))


def _card(fighter: Json, words: Words) -> Card:
    passion, energy, most = fighter["passion"], fighter["energy"], fighter["energy_max"]
    parts = [
        gauge(
            words.say(N_("Passion {now}/{max}"), now=passion, max=fighter["passion_max"]),
            passion,
            fighter["passion_max"],
        ),
        gauge(words.say(N_("Énergie {now}/{max}"), now=energy, max=most), energy, most),
        gauge(
            words.say(N_("wounds {now}/{max}"), now=fighter["wounds"], max=most),
            fighter["wounds"],
            most,
        ),
    ]
    if fighter["marker"] is not None:
        marker = words.say(N_("marker {marker}"), marker=fighter["marker"])
        if fighter["initiative"] is not None:
            marker += " " + words.say(N_("(initiative {n})"), n=fighter["initiative"])
        parts.append(Part(marker))
    elif fighter.get("sealed"):
        parts.append(Part(words.say(N_("marker chosen (sealed)"))))
    ticked = [m for m in MARKERS if m not in fighter["available"]]
    if ticked:
        markers = ", ".join(map(str, ticked))
        parts.append(Part(words.say(N_("ticked off: {markers}"), markers=markers)))
    for item in [*fighter["weapons"], *fighter["protections"]]:
        if item.get("energy") is not None:
            text = words.say(
                N_("{item} Énergie {now}/{max}"),
                item=words.name(item["name"]),
                now=item["energy"],
                max=item["energy_max"],
            )
            parts.append(gauge(text, item["energy"], item["energy_max"]))
    if fighter["npc"]:
        parts.append(Part(words.say(N_("NPC"))))
    if fighter["down"]:
        parts.append(Part(words.say(N_("down")), CONDITION))
    return Card(fighter["name"], fighter["side"], tuple(parts), bool(fighter["down"]))
