"""A fight as a fold over its events: `state = reduce(evolve, events, {})`.

Commands become events through the system's `decide`; `evolve` is the only way state changes. Undo,
replay, persistence and audit all come from keeping the events.

>>> from jdr.dice import GivenFaces
>>> # see tests/test_fights.py for a two-turn fight with the example system
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial, reduce

from jdr.dice.source import RandomSource
from jdr.systems.protocol import FightRules, Json

ENDED = "fight_ended"
"""The GM's end of a stored fight (`jdr fight end`), an event jdr writes whatever the system:
`{"type": "fight_ended", "by": "gm", "winners": [names], "draw": bool}`. Folded, it leaves the
system's state as it was and adds one key, `"fight_ended"`, holding the event's fields."""


def step(rules: FightRules, state: Json, event: Json) -> Json:
    """`rules.evolve`, but for the GM's end (`ENDED`), which jdr folds itself.

    >>> class Count:
    ...     def evolve(self, state, event):
    ...         return {"n": state.get("n", 0) + 1}
    >>> step(Count(), {"n": 1}, {"type": "fight_ended", "by": "gm", "winners": [], "draw": True})
    {'n': 1, 'fight_ended': {'by': 'gm', 'winners': [], 'draw': True}}
    """
    if event.get("type") == ENDED:
        return {**state, ENDED: {k: v for k, v in event.items() if k != "type"}}
    return rules.evolve(state, event)


def evolver(rules: FightRules) -> Callable[[Json, Json], Json]:
    """`step` for `rules`: what every fold of a stored fight's events calls."""
    return partial(step, rules)


def fold(rules: FightRules, events: Iterable[Json]) -> Json:
    """The state after `events`, from the empty state `{}`."""
    return reduce(evolver(rules), events, {})


@dataclass
class Fight:
    """A fight in memory: its rules and its events; the state is always derived from them."""

    rules: FightRules
    events: list[Json] = field(default_factory=list)

    @classmethod
    def start(cls, rules: FightRules, setup: Json, rng: RandomSource) -> Fight:
        return cls(rules, list(rules.start(setup, rng)))

    @property
    def state(self) -> Json:
        return fold(self.rules, self.events)

    def act(self, command: Json, rng: RandomSource) -> list[Json]:
        """Decide `command` on the current state and append its events (RulesError if illegal)."""
        new = self.rules.decide(self.state, command, rng)
        self.events.extend(new)
        return new


def play(rules: FightRules, setup: Json, commands: Iterable[Json], rng: RandomSource) -> Fight:
    """Start a fight and play `commands` in order: the shape of a scripted test."""
    fight = Fight.start(rules, setup, rng)
    for command in commands:
        fight.act(command, rng)
    return fight
