"""The state of an Ilvermorny duel and `evolve`, the only way it changes (IL-6 … IL-11).

A duel's state is `fold(evolve, events, {})`: a JSON dict. `evolve` never rolls and never checks:
every face and every number is in the events (see `jdr.systems.ilvermorny.fight` for them).

>>> state = evolve({}, {"type": "duel_started", "wizards": [
...     {"name": "A", "magic": 7, "spells": [{"name": "Lumos", "element": "neutre",
...                                           "difficulty": 1, "level": 1, "xp": 8}]},
...     {"name": "B", "magic": 5, "spells": []}]})
>>> state = evolve(state, {"type": "spell_cast", "wizard": "A", "spell": "Lumos", "xp_gained": 3})
>>> state = evolve(state, {"type": "level_gained", "wizard": "A", "spell": "Lumos", "level": 2,
...                        "xp_spent": 10})
>>> state["spells"]["A"]["Lumos"]["level"], state["spells"]["A"]["Lumos"]["xp"]
(2, 1)
"""

from __future__ import annotations

from typing import Any

from jdr.names import find as find_name
from jdr.systems.protocol import Json


def evolve(state: Json, event: Json) -> Json:
    """The state after `event`; `state` itself is not changed."""
    kind = event["type"]
    if kind == "duel_started":
        return _start(event)
    new: Json = dict(state)
    if kind == "round_started":
        new.update(round=event["round"], chosen={}, seals={}, secret={})
    elif kind == "spell_chosen" and "secret" in event:  # sealed until both have chosen
        new["chosen"] = {**state["chosen"], event["wizard"]: None}
        new["seals"] = {**state["seals"], event["wizard"]: event["sealed"]}
        new["secret"] = {**state["secret"], event["wizard"]: dict(event["secret"])}
    elif kind == "spell_chosen":
        new["chosen"] = {**state["chosen"], event["wizard"]: event["spell"]}
    elif kind == "spells_opened":
        opened = {wizard: shown["spell"] for wizard, shown in event["choices"].items()}
        new.update(chosen={**state["chosen"], **opened}, secret={})
    elif kind == "spell_cast":
        new["spells"] = _spell(state, event, xp=+event["xp_gained"])
    elif kind == "level_gained":
        new["spells"] = _spell(state, event, xp=-event["xp_spent"], level=event["level"])
    elif kind == "spell_hit":
        hit = {key: event[key] for key in ("round", "caster", "spell", "target", "by")}
        new["hits"] = [*state["hits"], hit]
    elif kind == "duel_ended":
        new.update(over=True, winner=event["winner"])
    return new


def _start(event: Json) -> Json:
    return {
        "wizards": [wizard["name"] for wizard in event["wizards"]],
        "magic": {wizard["name"]: wizard["magic"] for wizard in event["wizards"]},
        "spells": {
            wizard["name"]: {
                spell["name"]: {key: spell[key] for key in ("element", "difficulty", "level", "xp")}
                for spell in wizard["spells"]
            }
            for wizard in event["wizards"]
        },
        "sealed": bool(event.get("sealed", False)),
        "round": 0,
        "chosen": {},
        "seals": {},
        "secret": {},
        "hits": [],
        "over": False,
        "winner": None,
    }


def _spell(state: Json, event: Json, xp: int, level: int | None = None) -> Json:
    """The `spells` table with one spell's XP moved by `xp` (and its level set)."""
    wizard, name = event["wizard"], event["spell"]
    spell = dict(state["spells"][wizard][name])
    spell["xp"] += xp
    if level is not None:
        spell["level"] = level
    return {**state["spells"], wizard: {**state["spells"][wizard], name: spell}}


def find(names: list[str], value: Any) -> str | None:
    """The one of `names` that `value` means (named as people type them, `jdr.names`), or None.

    >>> find(["Seraphina Quill", "Tom"], " seraphina  QUILL")
    'Seraphina Quill'
    """
    if not isinstance(value, str):
        return None
    return find_name(value, names)


def opponent(state: Json, wizard: str) -> str:
    """The other duelist."""
    first, second = state["wizards"]
    return str(second if wizard == first else first)
