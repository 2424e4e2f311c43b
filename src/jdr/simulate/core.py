"""Whole-fight simulation (issue 21): play a fight many times through the system's own decider,
each fighter playing a tactic, and report who wins and how often.

Pure and seeded: run `i` of a simulation seeded `s` draws its dice from `Seeded(run_seed(s, i))`,
so a report depends only on the setup, the tactic, the number of runs and the seed — never on the
executor or the number of workers. Runs are cut into chunks handed to a `concurrent.futures`
executor (a process pool, a thread pool, Dask's client executor …) and gathered in run order.

Without a number of runs, a simulation plays until its answer is as precise as asked: it stops at
the first of the fixed `checkpoints` (500, 1,000, 2,000 … 9,604 runs) where every side's 95 %
interval is within ±1 point (`DEFAULT_PRECISION`). A walkover is answered in 500 fights, a close
fight takes the 9,604 that ±1 point needs at worst; the checkpoints do not depend on the workers,
so the seeded answer does not either.

>>> from jdr.systems.plus_ultra import SYSTEM
>>> setup = {"characters": [
...     {"name": "Izuku", "rank": "D", "energy": 5, "willpower": 5, "side": "a"},
...     {"name": "Ochaco", "rank": "E", "energy": 2, "willpower": 2, "side": "b"}]}
>>> report = simulate(SYSTEM, setup, runs=200, seed=1)
>>> report.runs, sorted(report.wins), report.wins["a"].rate > report.wins["b"].rate
(200, ['a', 'b'], True)
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from typing import Any

from jdr.dice.source import Seeded
from jdr.errors import JdrError, RulesError
from jdr.i18n import _
from jdr.systems.protocol import Columns, Ending, Gauge, Json, RuleSystem, Simulation, Tactic
from jdr.systems.registry import default_registry

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the normal law."""
DEFAULT_RUNS = 9604
"""Runs for a 95 % interval of ±1 % on a win rate in the worst case (p = ½): 1.96² / (4 × 0.01²)."""
DEFAULT_PRECISION = 0.01
"""The half-width of every side's 95 % interval a simulation without a number of runs plays to."""
FIRST_CHECKPOINT = 500
"""Runs before a simulation looks at its precision (fewer would say little of rare knock-outs)."""
MAX_ACTIONS = 2000
"""A fight still going after this many commands is cut (no winner): a bound on every loop."""


def run_seed(seed: int, index: int) -> int:
    """The seed of run `index` of a simulation seeded `seed` (independent of how runs are split)."""
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True)
class Rate:
    """A proportion `hits / runs` with its 95 % Wilson interval."""

    hits: int
    runs: int

    @property
    def rate(self) -> float:
        return self.hits / self.runs if self.runs else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.hits, self.runs)

    def to_json(self) -> Json:
        low, high = self.interval
        return {"count": self.hits, "rate": self.rate, "low": low, "high": high}


def wilson(hits: int, runs: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of `hits / runs`.

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    if runs == 0:
        return (0.0, 1.0)
    p = hits / runs
    denominator = 1 + z * z / runs
    centre = (p + z * z / (2 * runs)) / denominator
    half = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Difference:
    """A variant's win rate minus the base's, for one side, with its 95 % (Newcombe) interval."""

    side: str
    base: Rate
    variant: Rate

    @property
    def delta(self) -> float:
        return self.variant.rate - self.base.rate

    @property
    def interval(self) -> tuple[float, float]:
        """Newcombe's hybrid score interval from the two Wilson intervals."""
        p1, p2 = self.variant.rate, self.base.rate
        l1, u1 = self.variant.interval
        l2, u2 = self.base.interval
        d = p1 - p2
        return (
            d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2),
        )

    def to_json(self) -> Json:
        low, high = self.interval
        return {"side": self.side, "difference": self.delta, "low": low, "high": high}


@dataclass(frozen=True)
class Report:
    """What `jdr simulate` reports: each side's wins (and fights with no winner), the rounds
    distribution, each fighter's chance of being knocked out and mean damage dealt and taken
    (as the system's `columns` name them: Polédémos's are PA gained and activations), and each
    fighter's gauges as the fights start (`start`; `as_is`: from the sheets' current gauges
    rather than full ones, `jdr simulate --as-is`)."""

    runs: int
    seed: int
    sides: dict[str, str]
    wins: dict[str, Rate]
    undecided: Rate
    rounds: dict[int, int]
    knocked_out: dict[str, Rate]
    dealt: dict[str, float]
    taken: dict[str, float]
    compare: list[Difference] = field(default_factory=list)
    precision: float | None = None
    """The precision it played to (`DEFAULT_PRECISION`), None when its number of runs was given."""
    tactic: str = "default"
    start: dict[str, list[Gauge]] = field(default_factory=dict)
    """Each fighter's gauges as the fights start (none for a system without gauges)."""
    as_is: bool = False
    """Whether the fighters started from their sheets' current gauges (else: full ones)."""
    columns: Columns = field(default_factory=Columns)

    @property
    def mean_rounds(self) -> float:
        return sum(r * n for r, n in self.rounds.items()) / self.runs if self.runs else 0.0

    @property
    def at_zero(self) -> list[tuple[str, Gauge]]:
        """The gauges that start the fights empty (a maximum of 0 is no gauge to fill), by
        fighter."""
        return [
            (name, gauge)
            for name, gauges in self.start.items()
            for gauge in gauges
            if gauge.current == 0 and gauge.max > 0
        ]

    def to_json(self) -> Json:
        ko_key, dealt_key, taken_key = self.columns.keys
        fighters: Json = {}
        for name, side in self.sides.items():
            fighter: Json = {"side": side}
            if self.columns.knocked_out is not None:
                fighter[ko_key] = self.knocked_out[name].to_json()
            fighter[dealt_key] = self.dealt[name]
            if self.columns.taken is not None:
                fighter[taken_key] = self.taken[name]
            fighter["start"] = [_gauge_json(gauge) for gauge in self.start.get(name, [])]
            fighters[name] = fighter
        return {
            "runs": self.runs,
            "seed": self.seed,
            "precision": self.precision,
            "tactic": self.tactic,
            "as_is": self.as_is,
            "wins": {side: rate.to_json() for side, rate in self.wins.items()},
            "undecided": self.undecided.to_json(),
            "rounds": {
                "mean": self.mean_rounds,
                "distribution": [[r, n / self.runs] for r, n in sorted(self.rounds.items())],
            },
            "fighters": fighters,
            "at_zero": [{"fighter": name, **_gauge_json(gauge)} for name, gauge in self.at_zero],
            "compare": [d.to_json() for d in self.compare],
        }


def _gauge_json(gauge: Gauge) -> Json:
    shown: Json = {"name": gauge.name, "current": gauge.current, "max": gauge.max}
    if gauge.item is not None:
        shown["item"] = gauge.item
    return shown


def with_sides(report: Report, names: dict[str, str]) -> Report:
    """`report` with its sides renamed (`names`: a side as the system names it → its name for
    the reader), in its wins, its fighters' sides and its differences."""
    return replace(
        report,
        sides={fighter: names.get(side, side) for fighter, side in report.sides.items()},
        wins={names.get(side, side): rate for side, rate in report.wins.items()},
        compare=[replace(d, side=names.get(d.side, d.side)) for d in report.compare],
    )


@dataclass(frozen=True)
class Played:
    """One simulated fight as it was played: every event, the final state, and whether it ended
    (False: stalled — `Simulation.stalled` — or cut after `MAX_ACTIONS` commands)."""

    events: list[Json]
    state: Json
    ended: bool


def play_fight(
    simulation: Simulation, rules: Any, setup: Json, seed: int, tactic: Tactic
) -> Played:
    """One fight from `setup`, every fighter playing `tactic`, dice from `Seeded(seed)`: what run
    `i` of a simulation seeded `s` plays with `seed = run_seed(s, i)`.

    The state is folded event by event as the decider writes them, never folded again: a
    decider with `decided(state, command, rng) -> (events, state)` hands back the state its
    decision folded (the five built-in ones do); another one's events are folded here."""
    rng = Seeded(seed)
    events = list(rules.start(setup, rng))
    state: Json = {}
    for event in events:
        state = rules.evolve(state, event)
    decided = _deciding(rules)
    stalled = simulation.stalled
    over = simulation.over
    for _step in range(MAX_ACTIONS):
        if over(state):
            return Played(events, state, True)
        if stalled is not None and stalled(state):
            return Played(events, state, False)
        new, state = _first_legal(decided, state, tactic(state), rng)
        events += new
    return Played(events, state, False)


Decided = Callable[[Json, Json, Any], "tuple[list[Json], Json]"]
"""`decided(state, command, rng) -> (events, state)`: a decision and the state it folds to."""


def _deciding(rules: Any) -> Decided:
    """`rules.decided`, or `rules.decide` with its events folded by `rules.evolve`."""
    decided: Decided | None = getattr(rules, "decided", None)
    if decided is not None:
        return decided

    def folding(state: Json, command: Json, rng: Any) -> tuple[list[Json], Json]:
        new = list(rules.decide(state, command, rng))
        for event in new:
            state = rules.evolve(state, event)
        return new, state

    return folding


def play_one(simulation: Simulation, rules: Any, setup: Json, seed: int, tactic: Tactic) -> Ending:
    """How one fight (`play_fight`) ended; a fight cut short has no winner."""
    played = play_fight(simulation, rules, setup, seed, tactic)
    ending = simulation.ending(played.events, played.state)
    if played.ended:
        return ending
    return Ending(None, ending.rounds, ending.knocked_out, ending.dealt, ending.taken)


def _first_legal(
    decided: Decided, state: Json, chosen: Json | list[Json], rng: Any
) -> tuple[list[Json], Json]:
    """The events (and state) of the first command the decider accepts (a tactic gives one, or
    several best first); a refusal rolls nothing, so trying the next one changes no die."""
    if not isinstance(chosen, list):
        return decided(state, chosen, rng)
    last = len(chosen) - 1
    for index, command in enumerate(chosen):
        if index == last:
            break
        try:
            return decided(state, command, rng)
        except JdrError:
            continue
    return decided(state, chosen[last], rng)


DEFAULT_TACTIC = "default"
"""The name of a system's default tactic (`Simulation.tactic`)."""


def tactic_of(simulation: Simulation, tactic: Tactic | str | None) -> Tactic:
    """The tactic `tactic` stands for: a function as it is; a name among the system's
    (`tactic_names`, as people type names); None, the default."""
    if tactic is None:
        return simulation.tactic
    if not isinstance(tactic, str):
        return tactic
    return {DEFAULT_TACTIC: simulation.tactic, **simulation.tactics}[
        tactic_named(simulation, tactic)
    ]


def tactic_names(simulation: Simulation) -> list[str]:
    """The tactics a user may choose by name: `default`, then the system's others."""
    return [DEFAULT_TACTIC, *simulation.tactics]


def tactic_named(simulation: Simulation, typed: str) -> str:
    """The name of the tactic `typed` stands for (its name, or its name in the reader's
    language: `contre-attaque` in French), or `UnknownNameError` listing them."""
    from jdr.names import match

    names = tactic_names(simulation)
    spellings = {name: name for name in names} | {_(name): name for name in names}
    return match("--tactic", typed, spellings, names)


def play_chunk(
    system: RuleSystem | str,
    setup: Json,
    seed: int,
    start: int,
    stop: int,
    tactic: Tactic | str | None,
) -> list[Ending]:
    """Runs `start … stop - 1` (a picklable unit of work for any executor): `system` is an
    installed system's id (looked up in the worker) or the system itself."""
    if isinstance(system, str):
        system = default_registry().get(system)
    simulation = simulation_of(system)
    chosen = tactic_of(simulation, tactic)
    return [
        play_one(simulation, system.fight, setup, run_seed(seed, index), chosen)
        for index in range(start, stop)
    ]


def chunks(runs: int, workers: int, start: int = 0) -> list[tuple[int, int]]:
    """`(start, stop)` slices of the runs `start … runs - 1`, a few per worker so that they
    balance."""
    size = max(1, math.ceil((runs - start) / (max(1, workers) * 4)))
    return [(first, min(runs, first + size)) for first in range(start, runs, size)]


def checkpoints(most: int = DEFAULT_RUNS) -> list[int]:
    """Where a simulation without a number of runs looks at its precision: 500, 1,000, then
    every 1,000 runs, and `most` last.

    >>> checkpoints()
    [500, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 9604]
    """
    marks = [FIRST_CHECKPOINT, *range(1000, most, 1000)]
    return [mark for mark in marks if mark < most] + [most]


def precise(endings: Sequence[Ending], sides: Iterable[str], precision: float) -> bool:
    """Whether every side's 95 % interval on its win rate (and on the fights nobody won) is
    within ±`precision` of it.

    >>> from jdr.systems.protocol import Ending
    >>> precise([Ending("a", 1)] * 500, ["a", "b"], 0.01)
    True
    >>> precise([Ending("a", 1), Ending("b", 1)] * 250, ["a", "b"], 0.01)
    False
    """
    winners = Counter(e.winner for e in endings)
    for side in [*sides, None]:
        rate = Rate(winners[side], len(endings))
        low, high = rate.interval
        if max(rate.rate - low, high - rate.rate) > precision + 1e-12:
            return False
    return True


def simulate(
    system: RuleSystem,
    setup: Json,
    *,
    runs: int | None = None,
    seed: int = 0,
    executor: Executor | None = None,
    workers: int = 1,
    tactic: Tactic | str | None = None,
    progress: Callable[[int], None] | None = None,
    precision: float = DEFAULT_PRECISION,
) -> Report:
    """Play `runs` fights from `setup` and report (see `Report`); `executor` None plays them here.

    `runs` None plays until every side's win rate is known within ±`precision` (the module), at
    most `DEFAULT_RUNS` fights. `tactic` is a function, a name of the system's tactics, or None
    (the default). `progress(done)` is called as chunks finish, with the number of runs done."""
    if runs is not None and runs < 1:
        raise RulesError(_("the number of runs must be at least 1"), "")
    simulation = simulation_of(system)
    chosen = tactic_of(simulation, tactic)
    probe = system.fight.start(setup, Seeded(0))  # type: ignore[union-attr]
    state: Json = {}
    for event in probe:
        state = system.fight.evolve(state, event)  # type: ignore[union-attr]
    sides = dict(simulation.sides(state))
    starting = (
        {name: list(gauges) for name, gauges in simulation.gauges(state).items()}
        if simulation.gauges is not None
        else {}
    )
    marks = [runs] if runs is not None else checkpoints()
    shipped = _by_id(system) if executor is not None else system
    sent = tactic if isinstance(tactic, str) or tactic is None else chosen
    endings: list[Ending] = []
    for mark in marks:
        slices = chunks(mark, workers, start=len(endings))
        if executor is None:
            for start, stop in slices:
                endings.extend(play_chunk(system, setup, seed, start, stop, chosen))
                if progress:
                    progress(len(endings))
        else:
            futures = [
                executor.submit(play_chunk, shipped, setup, seed, start, stop, sent)
                for start, stop in slices
            ]
            for future in futures:
                endings.extend(future.result())
                if progress:
                    progress(len(endings))
        if runs is None and precise(endings, dict.fromkeys(sides.values()), precision):
            break
    report = summarise(endings, sides, seed)
    if isinstance(tactic, str):
        name = tactic_named(simulation, tactic)
    else:
        name = DEFAULT_TACTIC if tactic is None else getattr(tactic, "__name__", "?")
    return replace(
        report,
        precision=precision if runs is None else None,
        tactic=name,
        start=starting,
        columns=simulation.columns,
    )


def summarise(endings: Sequence[Ending], sides: dict[str, str], seed: int) -> Report:
    """The report of these fights' endings."""
    runs = len(endings)
    winners = Counter(e.winner for e in endings)
    knocked = Counter(name for e in endings for name in e.knocked_out)
    return Report(
        runs=runs,
        seed=seed,
        sides=sides,
        wins={side: Rate(winners[side], runs) for side in dict.fromkeys(sides.values())},
        undecided=Rate(winners[None], runs),
        rounds=dict(sorted(Counter(e.rounds for e in endings).items())),
        knocked_out={name: Rate(knocked[name], runs) for name in sides},
        dealt={name: sum(e.dealt.get(name, 0) for e in endings) / runs for name in sides},
        taken={name: sum(e.taken.get(name, 0) for e in endings) / runs for name in sides},
    )


def compare(base: Report, variant: Report) -> Report:
    """`base` with, for each side, the difference of `variant`'s win rate from its own."""
    differences = [
        Difference(side, base.wins.get(side, Rate(0, base.runs)), rate)
        for side, rate in variant.wins.items()
    ]
    return Report(**{**base.__dict__, "compare": differences})


def _by_id(system: RuleSystem) -> RuleSystem | str:
    """The system's id when the registry gives this very system (a worker finds it by its id:
    systems hold functions that need not pickle), else the system itself."""
    try:
        if default_registry().get(system.id) is system:
            return system.id
    except JdrError:
        pass
    return system


def simulation_of(system: RuleSystem) -> Simulation:
    """What `system` simulates with, or `RulesError` saying it has none (no fight rules or no
    default tactic)."""
    simulation = getattr(system, "simulation", None)
    if simulation is None or system.fight is None:
        raise RulesError(
            _("{system} has no simulation (no fight rules or no tactic)").format(system=system.id),
            "",
        )
    return simulation  # type: ignore[no-any-return]
