"""A fight command's odds: one exact distribution per command, the one its decider resolves with.

DESIGN: "a number shown is the number that happens". Each fight command that rolls declares, beside
its model (`jdr.fights.commands.Command`):

- `odds(state, actor, keys, exact) -> CommandOdds | None`: the distribution of the command's
  outcome as the decider will resolve it from `state` (accuracy, the defender's declared or
  default answer, sheet values, bonuses, every modifier of the state), with `keys` as the decider
  takes them (`Commands.parse`); None when the command, with these keys, rolls nothing. Fractions
  when `exact`, floats otherwise. It never rolls and never refuses: a command the decider would
  refuse may answer None.
- `outcome(events) -> str | None`: the outcome id the decided events of one such command show
  (None: the command did not roll, or stopped before its outcome, e.g. waiting for an answer).

Every odds view asks `odds`: the web's odds beside a fight command, the recaps' chances, and the
property test (`tests/command_odds_check.py`) which plays the real decider thousands of times on
seeded dice and checks each outcome's frequency against `odds` with `outcome`.

>>> from fractions import Fraction
>>> from jdr.i18n import N_
>>> odds = CommandOdds(
...     {"hit": Fraction(13, 25), "miss": Fraction(12, 25)},
...     wanted="hit",
...     measure=N_("chance to hit"),
...     names={"hit": N_("hit"), "miss": N_("miss")},
...     formula=("accuracy 70 % × attack roll 74.29 % = 52 %",),
... )
>>> odds.chance().said(), odds.shown()
('chance to hit 52.00 %', ['hit 52.00 %', 'miss 48.00 %'])
>>> CommandOdds({}, "hit", N_("chance to hit"), {}, exact=False).said()
'chance to hit: not computed exactly'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jdr.i18n import N_, _

Json = dict[str, Any]

__all__ = [
    "Chance",
    "CommandOdds",
    "CommandOddsFn",
    "OutcomeOf",
    "command_odds",
    "odds_json",
]


@dataclass(frozen=True)
class Chance:
    """A probability and what it measures (`N_("chance to hit")`): "chance to hit 52 %",
    "chance de toucher 52 %". What a narration's `Line.odds` gives for a roll, and what the
    recaps print beside it."""

    probability: Any
    measure: str
    """An `N_` message naming what the probability measures: `chance to hit`, `chance to
    dodge`, `chance to thaw`."""

    def said(self) -> str:
        """`chance to hit 52.00 %` in the reader's language."""
        from jdr.numbers import percent

        return _("{measure} {percent}").format(
            measure=_(self.measure), percent=percent(self.probability)
        )


@dataclass(frozen=True)
class CommandOdds:
    """The exact distribution of one fight command's outcome (see the module).

    `formula` lines are already in the reader's language (the odds function is called when
    shown, like `Record.explain`): the rule's arithmetic in words, e.g. `Précision 70 % × jet
    d'attaque 74,29 % = 52,00 %`.
    """

    outcomes: Mapping[str, Any]
    """Outcome id → probability (Fraction when exact, else float), summing to 1; empty when
    `exact` is False."""
    wanted: str | tuple[str, ...]
    """The outcome the actor wants (`hit`, `dodged`), or several (`("success", "critical")`):
    `chance()` is their probability."""
    measure: str
    """An `N_` message naming what P(wanted) measures: `chance to hit`, `chance to dodge`."""
    names: Mapping[str, str]
    """Outcome id → its `N_` display name (`hit` → `touché` in French)."""
    formula: Sequence[str] = ()
    """How the rules compute it, in the reader's language, one line each."""
    exact: bool = True
    """False: the odds cannot be computed exactly here (views say so and show no number)."""
    distribution: Mapping[Any, Any] | None = None
    """Another number's distribution when the command has one (value → probability), e.g. the
    Vitalité lost; `label` names it."""
    label: str = ""
    """An `N_` message naming `distribution`'s values (`Vitalité lost`)."""

    def chance(self) -> Chance | None:
        """The chance of `wanted`, named (None when the odds are not exact)."""
        if not self.exact:
            return None
        wanted = (self.wanted,) if isinstance(self.wanted, str) else self.wanted
        found: Any = sum(
            (self.outcomes.get(w, 0) for w in wanted[1:]), self.outcomes.get(wanted[0], 0)
        )
        return Chance(found, self.measure)

    def said(self) -> str:
        """`chance to hit 52.00 %`, or that it is not computed exactly."""
        chance = self.chance()
        if chance is None:
            return _("{measure}: not computed exactly").format(measure=_(self.measure))
        return chance.said()

    def shown(self) -> list[str]:
        """Each outcome with its probability, most likely first: `hit 52.00 %`."""
        from jdr.numbers import percent

        if not self.exact:
            return []
        ranked = sorted(self.outcomes.items(), key=lambda item: -float(item[1]))
        return [
            _("{outcome} {percent}").format(
                outcome=_(self.names.get(name, name)), percent=percent(p)
            )
            for name, p in ranked
        ]


CommandOddsFn = Callable[[Json, str, Mapping[str, Any], bool], "CommandOdds | None"]
"""`odds(state, actor, keys, exact)`: a command's odds (see the module)."""

OutcomeOf = Callable[[Sequence[Json]], "str | None"]
"""`outcome(events)`: the outcome id one command's decided events show, None if it rolled none."""


def command_odds(
    system: Any, state: Json, actor: str, name: str, keys: Mapping[str, Any], exact: bool = False
) -> CommandOdds | None:
    """The odds of command `name` (as `Commands.parse` names it) played by `actor` with `keys`,
    from the system's declaration; None when the command declares none or rolls nothing."""
    commands = getattr(system, "fight_commands", None)
    if commands is None or name not in commands.commands:
        return None
    odds: CommandOddsFn | None = commands.commands[name].odds
    return odds(state, actor, keys, exact) if odds is not None else None


def odds_json(odds: CommandOdds) -> Json:
    """The odds as JSON (`--json`, the web's API): probabilities as floats, words translated."""
    chance = odds.chance()
    found: Json = {
        "exact": odds.exact,
        "wanted": odds.wanted,
        "measure": _(odds.measure),
        "chance": float(chance.probability) if chance is not None else None,
        "said": odds.said(),
        "outcomes": {k: float(v) for k, v in odds.outcomes.items()} if odds.exact else {},
        "names": {k: _(v) for k, v in odds.names.items()},
        "formula": list(odds.formula),
    }
    if odds.distribution is not None:
        found["distribution"] = [[value, float(p)] for value, p in odds.distribution.items()]
        found["label"] = _(odds.label) if odds.label else ""
    return found


NOT_EXACT = N_("not computed exactly")
"""What a view shows in place of a number a command's odds cannot give exactly."""


@dataclass
class Counting:
    """A random source that counts the faces drawn from the one it wraps: how a test (or a
    view) tells whether a command rolled."""

    source: Any
    drawn: int = 0
    sizes: list[int] = field(default_factory=list)

    def faces(self, size: int, count: int) -> list[int]:
        self.drawn += count
        self.sizes += [size] * count
        found: list[int] = self.source.faces(size, count)
        return found
