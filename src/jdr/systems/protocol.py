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
from jdr.i18n import N_, Catalog
from jdr.sheet_words import SheetWords

if TYPE_CHECKING:
    from jdr.prob.distribution import Probability

Json = dict[str, Any]
P = TypeVar("P", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)
U = TypeVar("U", bound=BaseModel)


@dataclass(frozen=True)
class Record:
    """What one roll gives: the outcome, the system's totals, every face, and its explanation.

    `totals` become top-level JSON keys (`successes`, `failures`, `score` …); `explain()` renders
    one line in the current language from the same data, so nothing is ever re-rolled to explain.
    """

    outcome: str
    """The outcome's identifier (`success`, `partial_success`): a key of `Odds.outcomes`, shown
    through the catalogs (`_(outcome)`), so give it a French word (`System.messages`)."""
    totals: Mapping[str, Any]
    """The roll's numbers by name (`{"kept": 5, "sixes": 0}`), JSON values: top-level keys of
    `jdr roll --json` (so never `outcome`, `faces`, `details` or another key every roll's answer
    has: `jdr.answers.ROLL_KEYS`), and what the journal records."""
    faces: Sequence[int]
    """Every face rolled, in the order the random source gave them (the journal verifies them)."""
    explain: Callable[[], str]
    """The roll in one line of the current language, called when shown (never re-rolls)."""
    details: Mapping[str, Any] = field(default_factory=dict)
    """Anything else a front end may show (which dice were kept …), JSON values; `--json`
    gives it as `details`."""


@dataclass(frozen=True)
class Odds:
    """The exact answer to "what are my odds?" for one action.

    `outcomes` maps each outcome to its probability; `distribution` lists `(value, probability)` of
    the action's main number (`label` says which: `score`, `damage` …); `extra` carries any other
    JSON keys the system reports (e.g. `by_ball`).
    """

    outcomes: Mapping[str, Probability]
    """Each outcome `roll` can give → its probability (`Fraction` when exact, else `float`);
    they sum to 1."""
    distribution: Sequence[tuple[Any, Probability]] = ()
    """`(value, probability)` of the main number, lowest value first (`Distribution.to_list`)."""
    mean: Probability | None = None
    """The main number's mean (`Distribution.mean()`)."""
    label: str = ""
    """What the main number is (`score`, `kept`): the table's header, through the catalogs."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Other JSON keys of `jdr odds --json`."""


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
    """The action's name, as typed: `jdr roll SYSTEM NAME` (equal to its key in `actions`)."""
    params: type[P]
    """The pydantic model of its options: one `--kebab-case` option per field."""
    roll: Callable[[P, RandomSource], Record]
    """`roll(params, rng)`: the validated parameters and a random source → a `Record`; every
    die from `rng.faces(size, count)`."""
    odds: Callable[[P, bool], Odds] | None = None
    """`odds(params, exact)` → `Odds` (Fractions when `exact`), for `jdr odds`."""
    advise: Advisor[Any] | None = None
    """For `jdr advise SYSTEM NAME`."""
    help: str = ""
    """One line of help (an English message; its French in `System.messages`)."""
    example: Mapping[str, Any] = field(default_factory=dict)
    """Raw parameters of a typical roll, run by the meta-tests over every plug-in."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Its display names by language, `{"fr": "attaque", "en": "attack"}`: what a player reads
    and may type in place of `name` (`jdr.labels.action_label`)."""


@dataclass(frozen=True)
class Effect:
    """A stored sheet a roll, a purchase or a fight changes: its stored `name`, the whole `sheet`
    after (as JSON), and the `rules` that say so."""

    name: str
    sheet: Json
    rules: tuple[str, ...] = ()
    why: Callable[[], Sequence[str]] | None = None
    """The change in sentences of the current language, each with its reason and rule id
    ("Pikachu gains 3 XP: half of Carapuce's level 6 (PK-24)"), called when shown (None: the
    changes are listed with the rules)."""


Lookup = Callable[[str], tuple[str, Json]]
"""Another stored character of the campaign, named as people type it: `(stored name, sheet)`."""


@dataclass(frozen=True)
class Bound:
    """An action's parameters read from stored sheets (`SheetRoll.bind`).

    `values` are raw parameter values (as the command line would give them); `sources` says, for
    each, where it came from in the reader's words (`Dextérité 4 + 1 EV + Escalade 1`);
    `effects(params, record, sheets)` gives what the roll changes on the sheets, from their
    current JSON by stored name (the roller's and every name in `others`), or None when a roll
    changes nothing. Raise `RulesError` from `bind` (or `check`, once the parameters are known)
    for a roll the sheet cannot make (too little Énergie), and from `effects` when the sheets
    changed meanwhile so that it no longer can.
    """

    values: Mapping[str, Any]
    sources: Mapping[str, str] = field(default_factory=dict)
    effects: Callable[[Any, Record, Mapping[str, Json]], Sequence[Effect]] | None = None
    others: tuple[str, ...] = ()
    check: Callable[[Any], None] | None = None
    """`check(params)`: refuse (`RulesError`) parameters the sheet cannot pay for, before any
    die is rolled (`--passion 3` with 2 Passion left)."""


@dataclass(frozen=True)
class SheetRoll(Generic[U]):
    """How an action rolls from a stored sheet: `jdr roll|odds|advise SYSTEM ACTION --sheet NAME`.

    `uses` is a pydantic model of what to use (`--stat`, `--move`, `--target` …: one option per
    field, like the action's own); `bind(name, sheet, uses, lookup)` reads the parameters from
    the sheet (see `Bound`). Options given on the command line override what the sheet gives.
    """

    uses: type[U]
    bind: Callable[[str, Json, U, Lookup], Bound]


@dataclass(frozen=True)
class Progressed:
    """A sheet after a progression step: the new `sheet`, what it cost (`{"xp": 11}`), the rules,
    and the step in a sentence of the current language (called when shown)."""

    sheet: Json
    summary: Callable[[], str]
    rules: tuple[str, ...] = ()
    cost: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Progression(Generic[U]):
    """A progression command on a stored sheet: `jdr sheet NAME_OF_COMMAND CHARACTER [WORDS…]
    [key=value…]` (`buy`, `award`, `year`, `grant`, `rank`).

    `words` name the fields the command's bare words fill, in order (`("what", "which")`: `buy
    Pikachu ev dexterity`); `run(sheet, params)` is pure: the sheet as JSON in, `Progressed` out,
    or `RulesError` naming the rule (not enough XP).
    """

    name: str
    params: type[U]
    run: Callable[[Json, U], Progressed]
    words: tuple[str, ...] = ()
    help: str = ""


@dataclass(frozen=True)
class FightEnd:
    """A fight as it ends, for `System.fight_outcome`: each stored fighter's sheet as the fight
    started from it (`start`, by fighter name), the state after the opening events (`initial`)
    and the final state (`final`)."""

    start: Mapping[str, Json]
    initial: Json
    final: Json


Tactic = Callable[[Json], "Json | list[Json]"]
"""`tactic(state) -> command`: the command the fighter to play gives, read from the fight's state
(it never rolls; the decider does), or several commands best first: the first one the decider
accepts is played. Each system registers a default one (`Simulation.tactic`); a
plug-in or a user may pass their own to `jdr.simulate.simulate`."""


@dataclass(frozen=True)
class Ending:
    """How one simulated fight ended: the winning side (None: nobody, or the fight was cut),
    the rounds played, who was knocked out, and the damage each fighter dealt and took (in the
    system's main gauge: Énergie, PV …)."""

    winner: str | None
    rounds: int
    knocked_out: tuple[str, ...] = ()
    dealt: Mapping[str, int] = field(default_factory=dict)
    taken: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Gauge:
    """One of a fighter's gauges as a fight starts: its name (a game term, `N_`-marked and shown
    through the catalog: `Énergie`), what is left and its maximum."""

    name: str
    current: int
    max: int
    item: str | None = None
    """The item it belongs to (a weapon's Énergie), None for the fighter's own."""


@dataclass(frozen=True)
class Columns:
    """What a system's simulation report calls its measures, each an `N_`-marked label (None:
    the system has no such measure, the column is not shown), with the key a JSON answer gives
    it: `knocked_out` (a fighter's chance of ending the fight out), `dealt` and `taken` (the
    two numbers of `Ending.dealt` and `Ending.taken`, per fighter) and `rounds`."""

    knocked_out: str | None = N_("knocked out")
    dealt: str = N_("damage dealt")
    taken: str | None = N_("damage taken")
    rounds: str = N_("rounds")
    keys: tuple[str, str, str] = ("knocked_out", "dealt", "taken")


def full_gauges(sheet: Json) -> Json:
    """`sheet` with every gauge (a table holding `current` and `max`, anywhere in it: Énergie,
    Vitalité, an item's Énergie …) back at its maximum: the generic part of a fresh fight.

    >>> full_gauges({"energy": {"current": 0, "max": 5}, "items": [{"energy": {"current": 1,
    ...     "max": 2}}]})
    {'energy': {'current': 5, 'max': 5}, 'items': [{'energy': {'current': 2, 'max': 2}}]}
    """

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            if "current" in value and isinstance(value.get("max"), int):
                return {**{k: walk(v) for k, v in value.items()}, "current": value["max"]}
            return {key: walk(item) for key, item in value.items()}
        if isinstance(value, list):
            return [walk(item) for item in value]
        return value

    rested: Json = walk(sheet)
    return rested


@dataclass(frozen=True)
class Simulation:
    """What `jdr simulate` needs of a system: its default `tactic`, `sides(state)` (each fighter's
    side, by name, from the started fight), `over(state)` and `ending(events, state)` (read from
    a finished fight's events and final state); `tactics`, other tactics a user may choose by
    name (`jdr simulate --tactic NAME`), each a module-level function so that it pickles;
    `stalled(state)`, whether a fight that is not over can no longer end (nobody can hurt anybody
    any more): a simulation stops it there, with no winner, rather than play it to its cut.

    What a report says of it: `fresh(sheet)`, a stored sheet as it starts a fresh fight (gauges
    full, what lasts only a fight cleared; `jdr simulate` plays from it unless `--as-is`; the
    default is `full_gauges`); `gauges(state)`, each fighter's gauges in the started fight (by
    name; None: the system has none to show); `columns`, the names of its measures."""

    tactic: Tactic
    sides: Callable[[Json], Mapping[str, str]]
    over: Callable[[Json], bool]
    ending: Callable[[Sequence[Json], Json], Ending]
    tactics: Mapping[str, Tactic] = field(default_factory=dict)
    stalled: Callable[[Json], bool] | None = None
    fresh: Callable[[Json], Json] = full_gauges
    gauges: Callable[[Json], Mapping[str, Sequence[Gauge]]] | None = None
    columns: Columns = field(default_factory=Columns)


Late = Callable[[Json, str, Sequence[str]], "tuple[str, Mapping[str, Any]] | None"]
"""`late(state, actor, legal)`: the command (name, keys) a late fighter plays, or None."""


@runtime_checkable
class FightRules(Protocol):
    """A fight as a decider. State and events are JSON-serialisable dicts; events have a `type`.

    - `start(setup, rng)` → the opening events (the first one carries the setup);
    - `decide(state, command, rng)` → the events a command causes, or `RulesError` saying why not;
    - `evolve(state, event)` → the next state; the only way state changes. The state before the
      first event is `{}`, so a fight's state is always `fold(evolve, events, {})`.
    - `legal_commands(state)` → the command names the actor to play may use now.

    Optional: `decided(state, command, rng)` → `(events, state)`, the events of `decide` and the
    state they fold to, when the decider folded them as it wrote them: `jdr simulate` then does
    not fold them again.
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
    """What users type (`jdr roll ID …`): equal to the entry point's name."""
    names: Mapping[str, str]
    """Its display name by language: `{"fr": …, "en": …}`."""
    actions: Mapping[str, Action[Any]] = field(default_factory=dict)
    """Its actions by name."""
    sheet: type[BaseModel] | None = None
    """The pydantic model of a character sheet (its `name` field names a stored character);
    stored sheets are its `model_dump(mode="json")`."""
    fight: FightRules | None = None
    """The fight as a decider (`FightRules`)."""
    extra_commands: Callable[[], Any] | None = None
    """`() -> typer.Typer`: its own commands under `jdr ID …`, built when named; every one of
    them takes `--lang`."""
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
    sheet_rolls: Mapping[str, SheetRoll[Any]] = field(default_factory=dict)
    """By action name: how the action rolls from a stored sheet (`--sheet NAME`)."""
    progression: Mapping[str, Progression[Any]] = field(default_factory=dict)
    """By command name (`buy`, `award` …): the progression steps a stored sheet may take."""
    fight_outcome: Callable[[FightEnd], Mapping[str, Effect]] | None = None
    """What a fight changes on its stored fighters' sheets when it ends, by fighter name: each
    `Effect`'s sheet is computed from the fighter's sheet at the fight's start."""
    narration: Any = None
    """`jdr.fights.narration.Narration`: how each event type of the fight reads, in French and
    English (None: each event reads as its type and its values)."""
    fight_view: Callable[[Json, Any], Any] | None = None
    """`view(state, words) -> jdr.fights.view.View`: the fight's state in words (None: each
    participant's fields)."""
    fight_commands: Any = None
    """`jdr.fights.commands.Commands`: the fight's commands as models (None: `key=value` words
    read as they come, the decider's docstring says which)."""
    messages: Catalog | None = None
    """The system's own words in French (and English): `jdr.i18n.Messages` written in code, or
    `jdr.i18n.GettextCatalog` for `.mo` files shipped in the package. The registry adds it to
    `jdr.i18n` when it loads the system, so `_()` finds the outcome words, option help,
    narration and errors of the system in every front end."""
    fight_fighters: Callable[[Json], Mapping[str, Mapping[str, Any]]] | None = None
    """`fighters(state) -> {name: {field: value}}`: what `jdr fight show` lists on each fighter's
    line when the system gives no `fight_view` (None: read from the state, see
    `jdr.fights.view.fighters_of`)."""

    sheet_words: SheetWords | None = None
    """The sheet's words (`jdr.sheet_words.SheetWords`): each key's and value's name in French
    and English, and the sheet's sections, for `jdr sheet show`, the web's sheet page, the lines
    a revision prints and the paths `jdr sheet set` reads (None: keys through the catalogs)."""

    simulation: Simulation | None = None
    """What `jdr simulate` plays the fight with: the default tactic and how a fight ended."""
    late: Late | None = None
    """What a fighter whose turn passed the table's deadline plays (`jdr.live.pace`):
    `late(state, actor, legal)` → `(command, keys)`, the safe default (pass, defend, wait …),
    or None where the system has none (the GM decides then). None: the GM always decides."""

    def commands(self) -> Any | None:
        return self.extra_commands() if self.extra_commands else None


def display_name(system: RuleSystem, lang: str) -> str:
    """The system's name in `lang`, else English, else its id."""
    return system.names.get(lang) or system.names.get("en") or system.id
