"""The odds property test's harness: a fight command's declared odds (`jdr.fights.odds`) against
the real decider, played thousands of times on seeded dice from the same state.

`check_odds(system, state, actor, name, keys)` plays `decide` `trials` times (seeds 0, 1, …),
classifies each decision with the command's `outcome`, and checks that every outcome's frequency
lies in its 99.9 % Wilson interval around the probability `odds` gives (an outcome the odds call
impossible must never happen, and a sure one always). Seeds are fixed, so a run is reproducible:
a pass stays a pass. `Case` names one such check, for `pytest.mark.parametrize`.

How a test knows a command rolls: `rolls(…)` decides it once on a counting source
(`jdr.fights.odds.Counting`) and sees whether faces were drawn.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jdr.dice.source import Seeded
from jdr.fights.odds import CommandOdds, Counting
from jdr.fights.setup import make_command
from jdr.systems.protocol import Json

Z_999 = 3.2905
"""The normal quantile of a two-sided 99.9 % interval."""


@dataclass(frozen=True)
class Case:
    """One command to check: a label, how to build the started fight's state, who plays what
    with which keys (as `Commands.parse` gives them), and how many decisions to play."""

    label: str
    system: str
    state: Callable[[], Json]
    actor: str
    name: str
    keys: Mapping[str, Any] = field(default_factory=dict)
    trials: int = 2000

    def __str__(self) -> str:
        return self.label


def wilson(p: float, n: int, z: float = Z_999) -> tuple[float, float]:
    """The frequencies `k/n` whose 99.9 % Wilson interval holds `p`: the score test the Wilson
    interval inverts, |k/n − p| ≤ z·√(p(1 − p)/n), with half a count of continuity correction.

    >>> low, high = wilson(0.5, 2000)
    >>> 0.46 < low < 0.5 < high < 0.54
    True
    """
    half = z * math.sqrt(p * (1 - p) / n) + 0.5 / n
    return max(0.0, p - half), min(1.0, p + half)


def decide_many(
    system: Any, state: Json, actor: str, name: str, keys: Mapping[str, Any], trials: int
) -> Counter[str | None]:
    """How many of `trials` decisions (seeds 0 … trials − 1) showed each outcome."""
    rules = system.fight
    command = system.fight_commands.commands[name]
    assert command.outcome is not None, f"{system.id} {name}: no outcome declared"
    found: Counter[str | None] = Counter()
    for seed in range(trials):
        decided = make_command(system, actor, name, dict(keys))
        events = rules.decide(state, decided, Seeded(seed))
        found[command.outcome(events)] += 1
    return found


def mismatches(odds: CommandOdds, seen: Counter[str | None], trials: int) -> list[str]:
    """Each outcome whose frequency lies outside its 99.9 % interval around the odds, in words
    (empty: the odds hold)."""
    problems = []
    total = sum(float(p) for p in odds.outcomes.values())
    if abs(total - 1) > 1e-9:
        problems.append(f"the odds sum to {total}, not 1")
    for outcome in sorted(set(odds.outcomes) | set(seen), key=str):
        p = float(odds.outcomes.get(outcome, 0)) if outcome is not None else 0.0
        k = seen.get(outcome, 0)
        if p == 0 or p == 1:
            if k != (trials if p == 1 else 0):
                problems.append(f"{outcome}: {k}/{trials} where the odds say {p}")
            continue
        low, high = wilson(p, trials)
        if not low <= k / trials <= high:
            problems.append(
                f"{outcome}: {k}/{trials} = {k / trials:.4f} outside [{low:.4f}, {high:.4f}]"
                f" around {p:.4f}"
            )
    return problems


def check_odds(
    system: Any,
    state: Json,
    actor: str,
    name: str,
    keys: Mapping[str, Any] | None = None,
    trials: int = 2000,
    odds: CommandOdds | None = None,
) -> list[str]:
    """The problems found (empty: the declared odds match the decider): `odds` defaults to the
    command's own, asked in floats and exactly (they must agree)."""
    keys = dict(keys or {})
    declared = system.fight_commands.commands[name].odds
    assert declared is not None, f"{system.id} {name}: no odds declared"
    if odds is None:
        odds = declared(state, actor, keys, False)
        assert odds is not None, f"{system.id} {name} {keys}: the odds say it rolls nothing"
        assert odds.exact, f"{system.id} {name} {keys}: odds not exact"
        exact = declared(state, actor, keys, True)
        assert exact is not None
        for outcome, p in exact.outcomes.items():
            assert abs(float(p) - float(odds.outcomes.get(outcome, 0))) < 1e-9, outcome
    seen = decide_many(system, state, actor, name, keys, trials)
    return mismatches(odds, seen, trials)


def rolls(system: Any, state: Json, actor: str, name: str, keys: Mapping[str, Any]) -> bool:
    """Whether deciding the command draws any face (one seed is enough for most commands;
    three are tried)."""
    for seed in range(3):
        source = Counting(Seeded(seed))
        system.fight.decide(state, make_command(system, actor, name, dict(keys)), source)
        if source.drawn:
            return True
    return False


def shifted(odds: CommandOdds, by: float = 0.05) -> CommandOdds:
    """The same odds with `by` moved from the likeliest outcome to the next: a deliberately
    wrong odds function the harness must catch."""
    ranked = sorted(odds.outcomes, key=lambda o: -float(odds.outcomes[o]))
    moved = {o: float(p) for o, p in odds.outcomes.items()}
    moved[ranked[0]] -= by
    moved[ranked[1]] += by
    return CommandOdds(moved, odds.wanted, odds.measure, odds.names)
