"""A fight state's fighters, each one's fields by name: what a fighter's line shows
(`jdr.fights.view`) and the names the GM may pick winners from (`jdr.fights.ending`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["NAME_LISTS", "Fighters", "fighters_of"]

Json = dict[str, Any]

Fighters = Callable[[Json], Mapping[str, Mapping[str, Any]]]
"""`System.fight_fighters`: a state → each fighter's fields by name, as its line shows them."""

NAME_LISTS = ("order", "fighters", "participants")
"""Top-level lists of names a state may hold its fighters in, when it has no per-fighter dicts."""


def fighters_of(state: Json, fighters: Fighters | None = None) -> dict[str, Json]:
    """Each fighter's fields by name, for its line: the system's `fighters(state)` when it
    declares it; else the state's per-fighter dicts (`{"Ann": {"name": "Ann", …}}`) or its list
    of names (`order`, `fighters`, `participants`), with every top-level mapping keyed by
    fighters' names spread over their lines (`{"stress": {"Ann": 2, "Bob": 0}}`: Ann's line
    shows `stress 2`).

    >>> found = fighters_of({"order": ["Ann", "Bob"], "turn": "Ann",
    ...                      "stress": {"Ann": 2, "Bob": 1}, "armour": {"Bob": {"head": 1}}})
    >>> found["Ann"], found["Bob"]
    ({'name': 'Ann', 'stress': 2}, {'name': 'Bob', 'stress': 1, 'armour': {'head': 1}})
    """
    from jdr.fights.setup import per_participant

    if fighters is not None:
        return {str(name): {"name": name, **dict(data)} for name, data in fighters(state).items()}
    found = {name: dict(data) for name, data in (per_participant(state) or {}).items()}
    if not found:
        for key in NAME_LISTS:
            names = state.get(key)
            if isinstance(names, list) and names and all(isinstance(n, str) for n in names):
                found = {name: {"name": name} for name in names}
                break
    for key, value in state.items():
        if (
            isinstance(value, dict)
            and value
            and set(value) <= set(found)
            and not all(isinstance(v, dict) and "name" in v for v in value.values())
        ):
            for name, item in value.items():
                found[name].setdefault(key, item)
    return found
