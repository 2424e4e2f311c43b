"""The rule-system plug-in contract, in one small module.

A rule system (the five built-ins, or a table's own homebrew package) is an object with an `id`,
display `names` in French and English, its `actions` (each a parameter model plus `roll`, `odds` and
optionally `advise`), an optional sheet model, optional extra commands under `jdr SYSTEM …`, and its
fight rules as a *decider*: `start`, `decide`, `evolve`. It registers under the entry-point group
`jdr.systems`:

```toml
[project.entry-points."jdr.systems"]
myhomebrew = "myhomebrew:SYSTEM"
```

Rules are pure: they take values (and a random source) and return values. Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from jdr.dice.source import RandomSource

if TYPE_CHECKING:
    from jdr.prob.distribution import Probability

Json = dict[str, Any]
P = TypeVar("P", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)


@dataclass(frozen=True)
class Record:
    """What one roll gives: the outcome, the system's totals, every face, and its explanation.

    `totals` become top-level JSON keys (`successes`, `failures`, `score` …); `explain()` renders
    one line in the current language from the same data, so nothing is ever re-rolled to explain.
    """

    outcome: str
    totals: Mapping[str, Any]
    faces: Sequence[int]
    explain: Callable[[], str]
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Odds:
    """The exact answer to "what are my odds?" for one action.

    `outcomes` maps each outcome to its probability; `distribution` lists `(value, probability)` of
    the action's main number (`label` says which: `score`, `damage` …); `extra` carries any other
    JSON keys the system reports (e.g. `by_ball`).
    """

    outcomes: Mapping[str, Probability]
    distribution: Sequence[tuple[Any, Probability]] = ()
    mean: Probability | None = None
    label: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Advice:
    """Ranked choices, best first (`choices` is the JSON list), with any extra keys.

    `summary()`, when given, words the recommendation in one sentence of the current language
    ("Roll 1 die, any size: 50.00 % chance of success; …"), computed from the advice; the CLI
    prints it above the table and the JSON carries it as `summary`. Called when shown, like
    `Record.explain`.
    """

    choices: Sequence[Mapping[str, Any]]
    extra: Mapping[str, Any] = field(default_factory=dict)
    summary: Callable[[], str] | None = None


@dataclass(frozen=True)
class Advisor(Generic[A]):
    """`advise(params) -> Advice`, with its own parameter model (it may ask other questions)."""

    params: type[A]
    advise: Callable[[A, bool], Advice]
    help: str = ""


@dataclass(frozen=True)
class Action(Generic[P]):
    """One action of a system: `jdr roll|odds|advise SYSTEM NAME [options]`.

    The options come from `params` (a pydantic model): one definition gives the CLI options, the
    JSON schema, web forms later, and the validation messages. `odds(params, exact)` answers in
    floats, or in Fractions when `exact` is true.
    """

    name: str
    params: type[P]
    roll: Callable[[P, RandomSource], Record]
    odds: Callable[[P, bool], Odds] | None = None
    advise: Advisor[Any] | None = None
    help: str = ""
    example: Mapping[str, Any] = field(default_factory=dict)
    """Raw parameters of a typical roll, run by the meta-tests over every plug-in."""


@runtime_checkable
class FightRules(Protocol):
    """A fight as a decider. State and events are JSON-serialisable dicts; events have a `type`.

    - `start(setup, rng)` → the opening events (the first one carries the setup);
    - `decide(state, command, rng)` → the events a command causes, or `RulesError` saying why not;
    - `evolve(state, event)` → the next state; the only way state changes. The state before the
      first event is `{}`, so a fight's state is always `fold(evolve, events, {})`.
    - `legal_commands(state)` → the command names the actor to play may use now.
    """

    def start(self, setup: Json, rng: RandomSource) -> list[Json]: ...

    def decide(self, state: Json, command: Json, rng: RandomSource) -> list[Json]: ...

    def evolve(self, state: Json, event: Json) -> Json: ...

    def legal_commands(self, state: Json) -> list[str]: ...


@runtime_checkable
class RuleSystem(Protocol):
    """What a plug-in provides. `System` below is a ready-made implementation."""

    @property
    def id(self) -> str: ...

    @property
    def names(self) -> Mapping[str, str]: ...

    @property
    def actions(self) -> Mapping[str, Action[Any]]: ...

    @property
    def sheet(self) -> type[BaseModel] | None: ...

    @property
    def fight(self) -> FightRules | None: ...

    def commands(self) -> Any | None:
        """Extra commands under `jdr SYSTEM …`: a `typer.Typer`, built only when asked for."""
        ...


@dataclass(frozen=True)
class System:
    """A rule system as plain data: what most plug-ins instantiate.

    >>> display_name(System("coin", {"fr": "Pile ou face", "en": "Heads or tails"}), "fr")
    'Pile ou face'
    """

    id: str
    names: Mapping[str, str]
    actions: Mapping[str, Action[Any]] = field(default_factory=dict)
    sheet: type[BaseModel] | None = None
    fight: FightRules | None = None
    extra_commands: Callable[[], Any] | None = None
    fight_setup: Callable[[list[Json], Json], Json] | None = None
    """Participants (`{"name", "sheet", "side"}`) and options (`order`) → the fight's setup."""
    sheet_of: Callable[[Json, str], BaseModel] | None = None
    """`sheet_of(table, label)`: validates a sheet's table (as TOML gives it, without the
    `system` key), for a system whose sheets come in several kinds (a Pokémon or a trainer);
    `label` names the file in messages. None: `sheet` is the one model."""
    examples: Mapping[str, Traversable] = field(default_factory=dict)
    """Example sheets by kind, the first the default: TOML files shipped in the package (see
    `jdr.sheets.shipped_examples`), printed by `jdr sheet example SYSTEM [KIND]`."""
    luck: Callable[[int, int], int] | None = None
    """`luck(size, face)`: how lucky a face is for its roller, higher luckier, for the journal's
    luck audit (None: the face itself)."""
    narration: Any = None
    """`jdr.fights.narration.Narration`: how each event type of the fight reads, in French and
    English (None: each event reads as its type and its values)."""
    fight_view: Callable[[Json, Any], Any] | None = None
    """`view(state, words) -> jdr.fights.view.View`: the fight's state in words (None: each
    participant's fields)."""
    fight_commands: Any = None
    """`jdr.fights.commands.Commands`: the fight's commands as models (None: `key=value` words
    read as they come, the decider's docstring says which)."""

    def commands(self) -> Any | None:
        return self.extra_commands() if self.extra_commands else None


def display_name(system: RuleSystem, lang: str) -> str:
    """The system's name in `lang`, else English, else its id."""
    return system.names.get(lang) or system.names.get("en") or system.id
