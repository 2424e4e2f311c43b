"""`Script`: the events one decision writes, each folded into the state as soon as it is written,
so the rest of the decision reads the state it has made.

A decider subclasses it with its own `evolve`:

>>> class Counting(Script):
...     def evolve(self, state, event):
...         return {"count": state.get("count", 0) + 1}
>>> script = Counting({}, rng=None)
>>> script.emit({"type": "hit"})
>>> script.state, len(script.events)
({'count': 1}, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jdr.systems.protocol import Json


@dataclass
class Script:
    state: Json
    rng: Any
    events: list[Json] = field(default_factory=list)

    def evolve(self, state: Json, event: Json) -> Json:
        raise NotImplementedError  # each decider gives its own fold step

    def emit(self, event: Json) -> None:
        """Write `event` and fold it into the state."""
        self.events.append(event)
        self.state = self.evolve(self.state, event)
