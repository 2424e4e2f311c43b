"""The checks that refuse a command before any die is rolled (PU-4 … PU-10).

Every refusal is a `RulesError` with a sentence in the current language and the rule's id (a
malformed command, an unknown key, is an `InputError`); nothing is rolled before a command is known
to be legal, so a refused command changes nothing.

>>> turns_between(["A", "C", "D", "B"], protected="C", protector="B")
['D']
"""

from __future__ import annotations

from typing import Any

from jdr.errors import RulesError
from jdr.i18n import _
from jdr.names import hint
from jdr.systems.plus_ultra.fight_actions import attacks
from jdr.systems.plus_ultra.fight_state import (
    cooldown_left,
    find,
    find_technique,
    in_fight,
    standing,
)
from jdr.systems.protocol import Json

TURN_ACTIONS = ("attack", "defend", "technique", "flee")
"""PU-4 … PU-9: what the character to play may do, one per turn."""
ANSWERS = ("interrupt", "no_interrupt")
"""PU-9: the answers to a flight, the only commands while a character flees."""


def legal_actions(state: Json) -> list[str]:
    """The actions the character to play may use now (the answers while one flees); nothing
    before the start or once the fight is over."""
    if not state or state["over"]:
        return []
    if state["fleeing"]:
        return list(ANSWERS)
    actor = state["turn"]
    techniques = state["characters"][actor]["techniques"]
    ready = any(usable(state, actor, t) is None for t in techniques)
    return [a for a in TURN_ACTIONS if a != "technique" or ready]


def character(state: Json, value: Any, rule: str = "PU-10") -> str:
    """The name of a character of the fight, or `RulesError`."""
    name = find(state, value)
    if name is None:
        raise RulesError(
            _("unknown character {name}").format(name=value)
            + hint(value, list(state["characters"])),
            rule,
        )
    return name


def turn_actor(state: Json, command: Json) -> str:
    """PU-10: only the character whose turn it is acts."""
    actor = character(state, command.get("actor"))
    if actor != state["turn"]:
        raise RulesError(
            _("it is not {name}'s turn: {to_play} to play").format(
                name=actor, to_play=state["turn"]
            ),
            "PU-10",
        )
    return actor


def target(state: Json, actor: str, value: Any, rule: str) -> str:
    """An attack's target: another character still in the fight."""
    if value is None:
        others = [n for n in in_fight(state) if n != actor]
        raise RulesError(
            _("{name} needs a target: one of {names}").format(name=actor, names=", ".join(others)),
            rule,
        )
    name = find(state, value)
    if name is None:
        raise RulesError(
            _("unknown target {name}").format(name=value) + hint(value, list(state["characters"])),
            rule,
        )
    if name == actor:
        raise RulesError(_("{name} cannot attack itself").format(name=actor), rule)
    _in_fight(state, name)
    return name


def protector(state: Json, actor: str, aimed: str, value: Any) -> str | None:
    """PU-6: an ally of the target, still in the fight, who has not played this round, protecting
    a target that has not played either; a protector that plays after the target swaps turns
    with it, which only turns that follow each other may do (« si ces derniers se suivent »)."""
    if value is None:
        return None
    name = character(state, value, "PU-6")
    if name == actor:
        raise RulesError(
            _("{name} cannot protect against its own attack").format(name=name), "PU-6"
        )
    if name == aimed:
        raise RulesError(_("{name} cannot protect itself").format(name=name), "PU-6")
    _in_fight(state, name)
    characters = state["characters"]
    if characters[name]["side"] != characters[aimed]["side"]:
        raise RulesError(
            _("{name} is not on {target}'s side: one protects an ally").format(
                name=name, target=aimed
            ),
            "PU-6",
        )
    if name in state["played"]:
        raise RulesError(
            _("{name} has already played this round and cannot protect").format(name=name),
            "PU-6",
        )
    if aimed in state["played"]:
        raise RulesError(
            _("{name} has already played this round and cannot be protected").format(name=aimed),
            "PU-6",
        )
    between = turns_between(in_fight(state), aimed, name)
    if between:
        raise RulesError(
            _(
                "{name} plays after {target} and cannot swap turns with it: their turns do not"
                " follow each other ({between} in between)"
            ).format(name=name, target=aimed, between=", ".join(between)),
            "PU-6",
        )
    return name


def turns_between(order: list[str], protected: str, protector: str) -> list[str]:
    """PU-6: who plays between `protected` and a `protector` that comes after it (nobody: their
    turns follow each other, or the protector already plays first and needs no swap).

    >>> turns_between(["A", "C", "D", "B"], protected="C", protector="B")
    ['D']
    >>> turns_between(["A", "C", "B", "D"], "C", "B"), turns_between(["A", "B", "D", "C"], "C", "B")
    ([], [])
    """
    first, second = order.index(protected), order.index(protector)
    return order[first + 1 : second]


def usable(state: Json, actor: str, technique: Json) -> RulesError | None:
    """PU-7: why `technique` cannot be used now (recharging, too little Volonté), else None."""
    user = state["characters"][actor]
    left = cooldown_left(user, technique["name"], state["round"])
    if left is not None:
        return RulesError(
            _(
                "{technique} is recharging ({left}/{cooldown}): usable again in round {round}"
            ).format(
                technique=technique["name"],
                left=left,
                cooldown=technique["cooldown"],
                round=state["round"] - left + technique["cooldown"] + 1,
            ),
            "PU-7",
        )
    if user["willpower"] < technique["cost"]:
        return RulesError(
            _("too little Volonté: {technique} costs {cost}, {name} has {willpower}").format(
                technique=technique["name"],
                cost=technique["cost"],
                name=actor,
                willpower=user["willpower"],
            ),
            "PU-7",
        )
    return None


def technique(state: Json, actor: str, command: Json) -> tuple[Json, str | None, str | None]:
    """PU-7: a usable technique of the actor's sheet, its target and protector (PU-6)."""
    user = state["characters"][actor]
    known = ", ".join(t["name"] for t in user["techniques"]) or "-"
    value = command.get("technique")
    if value is None:
        raise RulesError(
            _("{name} needs a technique: one of {known}").format(name=actor, known=known), "PU-7"
        )
    chosen = find_technique(user, value)
    if chosen is None:
        raise RulesError(
            _("{name} has no technique {technique} (known: {known})").format(
                name=actor, technique=value, known=known
            ),
            "PU-7",
        )
    refused = usable(state, actor, chosen)
    if refused is not None:
        raise refused
    if attacks(chosen):
        aimed = target(state, actor, command.get("target"), "PU-7")
        return chosen, aimed, protector(state, actor, aimed, command.get("protector"))
    if command.get("protector") is not None:
        raise RulesError(
            _("{technique} makes no attack: there is nothing to protect from").format(
                technique=chosen["name"]
            ),
            "PU-6",
        )
    if command.get("target") is None:
        return chosen, None, None
    recorded = character(state, command["target"], "PU-7")
    _in_fight(state, recorded)
    return chosen, recorded, None


def opponent(state: Json, value: Any) -> str:
    """PU-9: who answers a flight: a character of another side still in the fight."""
    fleeing = state["fleeing"]
    if value is None:
        raise RulesError(_("say who interrupts {name}'s flight").format(name=fleeing), "PU-9")
    name = character(state, value, "PU-9")
    _in_fight(state, name)
    if state["characters"][name]["side"] == state["characters"][fleeing]["side"]:
        raise RulesError(
            _("{name} is not an opponent of {target}").format(name=name, target=fleeing), "PU-9"
        )
    return name


def _in_fight(state: Json, name: str) -> None:
    """KO (PU-1) or escaped (PU-9): out of the fight, for every purpose."""
    if not standing(state, name):
        rule = "PU-9" if state["characters"][name]["escaped"] else "PU-1"
        raise RulesError(_("{name} is out of the fight").format(name=name), rule)
