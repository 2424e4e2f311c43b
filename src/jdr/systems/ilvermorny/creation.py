"""Creating a wizard (IL-4): 1d6 per stat, the questionnaire's points, 5 free points, the GM's
rebalancing; no stat above 10, a total of 30 … 40.

Points are written `stat=n` separated by commas, with the stats' French or English names
(`magie=2,force physique=1`, `magic=+2,charisma=-1`). The faces are the seven d6 in the order of
IL-1: Résolution, Compréhension, Magie, Charisme, Force physique, Habileté, Intuition.

Where the rules are silent, creation reads them so:

- Each step is given at once; what the dice decide is never refused: a stat above 10 or a total
  outside 30 … 40 makes the outcome `to_rebalance`, with every problem listed, so the GM can give
  `--rebalance` with the same faces. So do free points not all split yet.
- What the user gives is checked at once (`InputError`): an unknown stat, a questionnaire or free
  point below 0, more than 5 free points in all.

>>> from jdr.dice import GivenFaces
>>> made = create(GivenFaces([3, 4, 5, 2, 3, 4, 3]), {"magic": 2}, {"magic": 3, "intuition": 2})
>>> made.stats["magic"], made.total, made.outcome
(10, 31, 'valid')
>>> made = create(GivenFaces([1, 1, 1, 1, 1, 1, 1]), {}, {})
>>> [problem.kind for problem in made.problems]
['free_points_left', 'total_low']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, Field, model_validator

from jdr.dice.source import RandomSource
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.systems.ilvermorny.rules import MAX_STAT, MIN_STAT, STAT_LABELS, STATS, stat_id
from jdr.systems.protocol import Record
from jdr.validation import fail

CREATION_DIE = 6  # IL-4: 1d6 per stat
FREE_POINTS = 5  # IL-4: the player splits 5 points
MIN_TOTAL, MAX_TOTAL = 30, 40  # IL-4, after the GM's rebalancing
YEARLY_POINTS = 2  # IL-4: each school year adds 2 points to split
MAX_POINTS = 20
"""The most points one step may move in or out of a stat (a stat is 0 … 10)."""
CREATE_OUTCOMES = (N_("valid"), N_("to_rebalance"))
POINTS_ALLOWED = N_("stat=n separated by commas, e.g. magic=2,charisma=1")


def parse_points(value: Any) -> dict[str, int]:
    """`"magie=2, Force physique=+1"` (or a table) → `{"magic": 2, "strength": 1}`.

    A stat given twice adds up. Names are French or English, any case, accents optional.

    >>> parse_points("magie=2, Force physique=+1, magic=1")
    {'magic': 3, 'strength': 1}
    """
    pairs: list[tuple[Any, Any]]
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, str):
        pairs = [_pair(part) for part in value.split(",") if part.strip()]
    elif isinstance(value, list | tuple):  # a repeated option
        return _add(parse_points(item) for item in value)
    else:
        raise fail("points", N_("not a list of points"), POINTS_ALLOWED, value=str(value))
    points: dict[str, int] = {}
    for name, number in pairs:
        stat = stat_id(str(name)) if isinstance(name, str) else None
        if stat is None:
            known = ", ".join(_(STAT_LABELS[each]) for each in STATS)  # the reader's words
            raise fail("unknown_stat", N_("unknown stat {name}"), known, value=name, name=name)
        amount = _whole(number)
        if amount is None or abs(amount) > MAX_POINTS:
            shown = f"{name}={'' if number is None else number}"
            raise fail(
                "points", N_("{shown} is not stat=n"), POINTS_ALLOWED, value=shown, shown=shown
            )
        points[stat] = points.get(stat, 0) + amount
    return points


def _pair(part: str) -> tuple[str, str | None]:
    name, equals, number = part.partition("=")
    return name, number if equals else None


def _whole(number: Any) -> int | None:
    if isinstance(number, int) and not isinstance(number, bool):
        return number
    text = str(number).strip() if isinstance(number, str) else ""
    digits = text.removeprefix("+").removeprefix("-")
    return int(text) if digits.isascii() and digits.isdigit() else None


def _add(parts: Any) -> dict[str, int]:
    total: dict[str, int] = {}
    for points in parts:
        for stat, amount in points.items():
            total[stat] = total.get(stat, 0) + amount
    return total


def _non_negative(value: Any) -> dict[str, int]:
    points = parse_points(value)
    for stat, amount in points.items():
        if amount < 0:
            raise fail(
                "negative_points",
                N_("points given are never negative; the GM takes points away with --rebalance"),
                "0..",
                value=amount,
                at=stat,
            )
    return points


Points = Annotated[dict[str, int], BeforeValidator(parse_points)]
"""Points per stat, signed (the GM's rebalancing)."""
GivenPoints = Annotated[dict[str, int], BeforeValidator(_non_negative)]
"""Points per stat, each at least 0 (the questionnaire's, the free points, a year's)."""


@dataclass(frozen=True)
class Problem:
    """A bound a creation does not meet yet: `kind`, and the stat and value concerned."""

    kind: str
    value: int
    stat: str = ""

    def text(self) -> str:
        stat = _(STAT_LABELS[self.stat]) if self.stat else ""
        messages = {
            "above_max": _("{stat} is {value}: no stat above 10 (IL-4)"),
            "below_min": _("{stat} is {value}: no stat below 0 (IL-1)"),
            "free_points_left": _("{value} of the 5 free points still to split (IL-4)"),
            "total_low": _("total {value}: below 30, the GM rebalances to 30..40 (IL-4)"),
            "total_high": _("total {value}: above 40, the GM rebalances to 30..40 (IL-4)"),
        }
        return messages[self.kind].format(stat=stat, value=self.value)

    def to_json(self) -> dict[str, Any]:
        return {"problem": self.kind, "value": self.value} | (
            {"stat": self.stat} if self.stat else {}
        )


@dataclass(frozen=True)
class Creation:
    """A wizard's creation: the d6 per stat, then each step's points."""

    rolled: dict[str, int]
    questionnaire: dict[str, int] = field(default_factory=dict)
    free: dict[str, int] = field(default_factory=dict)
    rebalance: dict[str, int] = field(default_factory=dict)

    @property
    def stats(self) -> dict[str, int]:
        steps = (self.rolled, self.questionnaire, self.free, self.rebalance)
        return {stat: sum(step.get(stat, 0) for step in steps) for stat in STATS}

    @property
    def total(self) -> int:
        return sum(self.stats.values())

    @property
    def free_points_left(self) -> int:
        return FREE_POINTS - sum(self.free.values())

    @property
    def problems(self) -> list[Problem]:
        found = [Problem("above_max", v, s) for s, v in self.stats.items() if v > MAX_STAT]
        found += [Problem("below_min", v, s) for s, v in self.stats.items() if v < MIN_STAT]
        if self.free_points_left:
            found.append(Problem("free_points_left", self.free_points_left))
        if self.total < MIN_TOTAL:
            found.append(Problem("total_low", self.total))
        elif self.total > MAX_TOTAL:
            found.append(Problem("total_high", self.total))
        return found

    @property
    def outcome(self) -> str:
        return "to_rebalance" if self.problems else "valid"

    def explain(self) -> str:
        """`d6: 3 4 5 2 3 4 3 · Resolution 3, … · total 31 → valid`, then every problem."""
        faces = " ".join(str(self.rolled[stat]) for stat in STATS)
        stats = ", ".join(f"{_(STAT_LABELS[stat])} {value}" for stat, value in self.stats.items())
        parts = [
            _("d6 per stat: {faces}").format(faces=faces),
            stats,
            _("total {total} → {outcome}").format(total=self.total, outcome=_(self.outcome)),
        ]
        return " · ".join(parts + [problem.text() for problem in self.problems])


def create(
    rng: RandomSource,
    questionnaire: Mapping[str, int],
    free: Mapping[str, int],
    rebalance: Mapping[str, int] | None = None,
) -> Creation:
    """IL-4: roll 1d6 per stat (in IL-1's order), then add each step's points."""
    rolled: dict[str, int] = dict(zip(STATS, rng.faces(CREATION_DIE, len(STATS)), strict=True))
    return Creation(rolled, dict(questionnaire), dict(free), dict(rebalance or {}))


# --- create (IL-4) ------------------------------------------------------------------------------


class CreateParams(BaseModel):
    """`create [--questionnaire P] [--free P] [--rebalance P]`, P = `stat=n,…` (IL-4)."""

    questionnaire: GivenPoints = Field(
        default_factory=dict,
        description=N_("the questionnaire's points, entered by the GM: magic=2,intuition=1"),
        json_schema_extra=named("questionnaire", "questionnaire"),
    )
    free: GivenPoints = Field(
        default_factory=dict,
        description=N_("the player's 5 free points: resolution=2,magic=3"),
        json_schema_extra=named("free points", "points libres"),
    )
    rebalance: Points = Field(
        default_factory=dict,
        description=N_("the GM's rebalancing, points added or taken: strength=-2,magic=+1"),
        json_schema_extra=named("rebalance", "rééquilibrage"),
    )

    @model_validator(mode="after")
    def _five_free_points(self) -> CreateParams:
        given = sum(self.free.values())
        if given > FREE_POINTS:
            raise fail(
                "too_many_free_points",
                N_("{given} free points given: the player splits 5 (IL-4)"),
                N_("5 points in all"),
                value=given,
                given=given,
                at="free",
            )
        return self


def roll_create(params: CreateParams, rng: RandomSource) -> Record:
    """The `create` action: JSON `rolled` and `stats` (per stat), `total`, `free_points_left`,
    `problems` (each `problem`, `value`, and `stat` when one is concerned)."""
    made = create(rng, params.questionnaire, params.free, params.rebalance)
    return Record(
        outcome=made.outcome,
        totals={
            "rolled": made.rolled,
            "stats": made.stats,
            "total": made.total,
            "free_points_left": made.free_points_left,
            "problems": [problem.to_json() for problem in made.problems],
        },
        faces=list(made.rolled.values()),
        explain=made.explain,
    )
