"""The Ilvermorny actions: `test` (IL-2, IL-3), `cast` (IL-5 … IL-8), `study` (IL-9), `duel`
(IL-10, IL-11) and `create` (IL-4). Every `example` is a roll the meta-tests run. The `duel` and
`create` actions live with their rules, in `duel.py` and `creation.py`.

Each roll function is the rule once; its odds run that very function over every face it asks for
(`exact.every_roll`), so a roll and its odds can never disagree. `study`'s odds walk the same
schedule of tests with each test's law (a study may ask for 22 dice).

Where the rules or the issue are silent, these actions read them so:

- `--modifier` (a bonus or malus) is added to the die like the difficulty: negative helps.
- `cast --difficulty-of-spell D --xp X` go together: the spell's XP before the cast, and its
  difficulty for the level costs (IL-8); the answer then has the new `xp`, `level` and `level_ups`.
- `duel` is the meeting of two spells (IL-11). A cast not given (`--cast-a`, `--cast-b`) counts as
  cast, so without them the duel rolls the two Magie tests: a's d12, then b's. With a cast given
  as failed, no test is rolled: the other spell lands, or neither (`neither_cast`, only then).
- `create` takes the seven d6 from the source (`--faces` for dice already rolled, in IL-1's order)
  and reports the bounds the result does not meet yet (outcome `to_rebalance`) rather than
  refusing them: see `creation.py`.
- `create` has no odds: its only chance is the dice, and the GM rebalances whatever they give.

>>> sorted(ACTIONS)
['cast', 'create', 'duel', 'study', 'test']
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import Any

from pydantic import BaseModel, Field, field_validator, model_validator

from jdr.dice.source import RandomSource
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.systems.ilvermorny import study as studying
from jdr.systems.ilvermorny.creation import CreateParams, roll_create
from jdr.systems.ilvermorny.duel import DuelParams, duel_odds, roll_duel
from jdr.systems.ilvermorny.exact import as_probability, every_roll, exact_law, outcome_law
from jdr.systems.ilvermorny.rules import (
    MAX_MODIFIER,
    Difficulty,
    StatValue,
    difficulty_label,
    stat_test,
)
from jdr.systems.ilvermorny.sheets import MAX_XP
from jdr.systems.ilvermorny.spells import (
    CAST_OUTCOMES,
    MAX_LEVEL,
    MAX_SPELL_DIFFICULTY,
    MIN_SPELL_DIFFICULTY,
    NOT_LEARNT,
    advance,
    advancement_text,
    cast_spell,
)
from jdr.systems.protocol import Action, Odds, Record
from jdr.validation import fail

TEST_OUTCOMES = ("success", "failure", "critical_failure")
KEYS = (
    N_("natural"),
    N_("result"),
    N_("xp_gained"),
    N_("xp"),
    N_("level"),
    N_("level_ups"),
    N_("hours_completed"),
    N_("expected_xp"),
    N_("p_complete"),
    N_("by_hours"),
    N_("best_hours"),
    N_("p_level_up"),
    N_("winner"),
    N_("dominant"),
)
"""JSON keys a reader sees as column titles."""

_DIFFICULTY_HELP = N_(
    "a name, very easy … very hard (the game's French names too), or a number (IL-3)"
)


# --- test (IL-2, IL-3) --------------------------------------------------------------------------


class StatTestParams(BaseModel):
    """`test --stat S [--difficulty NAME|N] [--modifier M]` (IL-2, IL-3)."""

    stat: StatValue = Field(
        description=N_("the stat's value (IL-1)"),
        json_schema_extra=named("stat", "caractéristique"),
    )
    difficulty: Difficulty = Field(
        default=0, description=_DIFFICULTY_HELP, json_schema_extra=named("difficulty", "difficulté")
    )
    modifier: int = Field(
        default=0,
        ge=-MAX_MODIFIER,
        le=MAX_MODIFIER,
        description=N_("a bonus or malus added to the die: negative helps (IL-2)"),
        json_schema_extra=named("modifier", "modificateur"),
    )


def roll_stat_test(params: StatTestParams, rng: RandomSource) -> Record:
    """The `test` action: JSON `natural`, `result`."""
    test = stat_test(params.stat, params.difficulty + params.modifier, rng)

    def explain() -> str:
        head = _("difficulty {name} ({value:+d})").format(
            name=difficulty_label(params.difficulty), value=params.difficulty
        )
        if params.modifier:
            head += ", " + _("modifier {value:+d}").format(value=params.modifier)
        return f"{head} · {test.explain()}"

    return Record(
        outcome=test.outcome,
        totals={"natural": test.natural, "result": test.result},
        faces=[test.natural],
        explain=explain,
    )


def stat_test_odds(params: StatTestParams, exact: bool) -> Odds:
    """`success` / `failure` / `critical_failure`, and the distribution of the result.

    >>> odds = stat_test_odds(StatTestParams(stat=7, difficulty="malaisée"), exact=True)
    >>> odds.outcomes["success"], odds.outcomes["critical_failure"]
    (Fraction(1, 2), Fraction(1, 12))
    """
    leaves = list(every_roll(partial(roll_stat_test, params)))
    results = outcome_law(((p, r.totals["result"]) for p, r in leaves), exact)
    return Odds(
        outcomes=outcome_law(((p, r.outcome) for p, r in leaves), exact, TEST_OUTCOMES),
        distribution=sorted(results.items()),
        label="result",
    )


# --- cast (IL-5 … IL-8) -------------------------------------------------------------------------


class CastParams(BaseModel):
    """`cast --magic M --level L [--difficulty-of-spell D --xp X]` (IL-5 … IL-8)."""

    magic: StatValue = Field(
        description=N_("the caster's Magic"), json_schema_extra=named("Magie", "Magie")
    )
    level: int = Field(
        ge=1,
        le=MAX_LEVEL,
        description=N_("the spell's level (IL-5; level 0 is not learnt yet)"),
        json_schema_extra=named("spell level", "apprentissage du sort"),
    )
    difficulty_of_spell: int | None = Field(
        default=None,
        ge=MIN_SPELL_DIFFICULTY,
        le=MAX_SPELL_DIFFICULTY,
        description=N_("the spell's difficulty, for the level costs (IL-8)"),
        json_schema_extra=named("spell's difficulty", "difficulté du sort"),
    )
    xp: int | None = Field(
        default=None,
        ge=0,
        le=MAX_XP,
        description=N_("the spell's XP before the cast (IL-7)"),
        json_schema_extra=named("XP", "PX"),
    )

    @field_validator("level", mode="before")
    @classmethod
    def _learnt(cls, value: Any) -> Any:
        """IL-5: level 0 is refused with its reason, not just a bound."""
        if str(value).strip() in ("0", "+0", "-0"):
            raise fail("not_learnt", NOT_LEARNT, "1..5", value=value)
        return value

    @model_validator(mode="after")
    def _xp_with_difficulty(self) -> CastParams:
        if (self.difficulty_of_spell is None) != (self.xp is None):
            raise fail(
                "xp_and_difficulty",
                N_("the new XP and level need both the spell's XP and its difficulty"),
                N_("--difficulty-of-spell and --xp together, or neither"),
                value=self.xp if self.difficulty_of_spell is None else self.difficulty_of_spell,
                at="xp" if self.difficulty_of_spell is None else "difficulty_of_spell",
            )
        return self


def roll_cast(params: CastParams, rng: RandomSource) -> Record:
    """The `cast` action: JSON `natural`, `result`, `xp_gained`; with the spell's XP and
    difficulty, `xp`, `level` and `level_ups` (each `level`, `xp_spent`) after IL-8."""
    cast = cast_spell(params.magic, params.level, rng)
    totals: dict[str, Any] = {
        "natural": cast.natural,
        "result": cast.result,
        "xp_gained": cast.xp_gained,
    }
    lines = [cast.explain]
    if params.xp is not None and params.difficulty_of_spell is not None:
        before = params.xp
        after = advance(params.level, before + cast.xp_gained, params.difficulty_of_spell)
        totals["xp"], totals["level"] = after.xp, after.level
        totals["level_ups"] = [
            {"level": up.level, "xp_spent": up.xp_spent} for up in after.level_ups
        ]
        lines.append(lambda: advancement_text(before, cast.xp_gained, after))
    return Record(
        outcome=cast.outcome,
        totals=totals,
        faces=[cast.natural],
        explain=lambda: " · ".join(line() for line in lines),
    )


def cast_odds(params: CastParams, exact: bool) -> Odds:
    """Each outcome of IL-6, the distribution and mean of the XP gained (IL-7), and with the
    spell's XP and difficulty the extra key `p_level_up`.

    >>> odds = cast_odds(CastParams(magic=7, level=2), exact=True)
    >>> odds.outcomes["perfect"], odds.mean
    (Fraction(1, 12), Fraction(7, 3))
    """
    leaves = list(every_roll(partial(roll_cast, params)))
    gained = exact_law((p, r.totals["xp_gained"]) for p, r in leaves)
    extra: dict[str, Any] = {}
    if params.xp is not None:
        up = ((p, r.totals["level"] > params.level) for p, r in leaves)
        extra["p_level_up"] = outcome_law(up, exact, keys=(True, False))[True]
    return Odds(
        outcomes=outcome_law(((p, r.outcome) for p, r in leaves), exact, CAST_OUTCOMES),
        distribution=[(xp, as_probability(p, exact)) for xp, p in sorted(gained.items())],
        mean=as_probability(sum((xp * p for xp, p in gained.items()), Fraction(0)), exact),
        label="xp_gained",
        extra=extra,
    )


# --- study (IL-9) -------------------------------------------------------------------------------


class StudyParams(BaseModel):
    """`study --comprehension C --resolution R --hours H [--difficulty NAME|N]` (IL-9)."""

    comprehension: StatValue = Field(
        description=N_("the wizard's Comprehension"),
        json_schema_extra=named("Compréhension", "Compréhension"),
    )
    resolution: StatValue = Field(
        description=N_("the wizard's Resolution"),
        json_schema_extra=named("Résolution", "Résolution"),
    )
    hours: int = Field(
        ge=studying.MIN_HOURS,
        le=studying.MAX_HOURS,
        description=N_("hours of study in a row (IL-9)"),
        json_schema_extra=named("hours", "heures"),
    )
    difficulty: Difficulty = Field(
        default=0, description=_DIFFICULTY_HELP, json_schema_extra=named("difficulty", "difficulté")
    )


def roll_study(params: StudyParams, rng: RandomSource) -> Record:
    """The `study` action: JSON `tests` (each `hour`, `stat`, `natural`, `result`, `outcome`),
    `hours_completed`, `xp`."""
    done = studying.study(
        params.comprehension, params.resolution, params.hours, params.difficulty, rng
    )
    tests = [
        {
            "hour": step.hour,
            "stat": step.stat,
            "natural": step.test.natural,
            "result": step.test.result,
            "outcome": step.test.outcome,
        }
        for step in done.tests
    ]
    return Record(
        outcome=done.outcome,
        totals={"tests": tests, "hours_completed": done.hours_completed, "xp": done.xp},
        faces=[step.test.natural for step in done.tests],
        explain=done.explain,
    )


def study_odds(params: StudyParams, exact: bool) -> Odds:
    """`success` (every hour completed) / `failure`, the exact XP law and its `mean`, and the
    extra keys `by_hours` (each plan's `expected_xp`, `p_complete`) and `best_hours`.

    >>> odds = study_odds(StudyParams(comprehension=6, resolution=7, hours=4), exact=True)
    >>> plans = odds.extra["by_hours"]
    >>> odds.extra["best_hours"], odds.outcomes["success"] == plans[4]["p_complete"]
    (2, True)
    """
    laws = studying.plans(params.comprehension, params.resolution, params.difficulty)
    law = laws[params.hours]
    return Odds(
        outcomes={
            "success": as_probability(law.complete, exact),
            "failure": as_probability(1 - law.complete, exact),
        },
        distribution=[(xp, as_probability(p, exact)) for xp, p in law.xp.items()],
        mean=as_probability(law.mean, exact),
        label="xp",
        extra={
            "by_hours": studying.by_hours(laws, exact),
            "best_hours": studying.best_hours(laws),
        },
    )


# --- the actions --------------------------------------------------------------------------------

ACTIONS: dict[str, Action[Any]] = {
    "test": Action(
        "test",
        StatTestParams,
        roll_stat_test,
        stat_test_odds,
        help=N_(
            "A stat test: 1d12 plus the difficulty and any modifier, a success at or under the"
            " stat, a natural 12 a critical failure (IL-2, IL-3)."
        ),
        example={"stat": 7, "difficulty": "malaisée"},
        names={"en": "test", "fr": "test"},
    ),
    "cast": Action(
        "cast",
        CastParams,
        roll_cast,
        cast_odds,
        help=N_(
            "Cast a spell: 1d12 minus half the Magic against twice the level; the XP it gives"
            " and the levels it buys (IL-5 … IL-8)."
        ),
        example={"magic": 7, "level": 2, "difficulty_of_spell": 2, "xp": 18},
        names={"en": "cast", "fr": "lancer"},
    ),
    "study": Action(
        "study",
        StudyParams,
        roll_study,
        study_odds,
        help=N_(
            "Study a spell for 1 to 6 hours in a row: Comprehension and Resolution tests, XP"
            " for the hours completed (IL-9)."
        ),
        example={"comprehension": 6, "resolution": 7, "hours": 3, "difficulty": "commune"},
        names={"en": "study", "fr": "étudier"},
    ),
    "duel": Action(
        "duel",
        DuelParams,
        roll_duel,
        duel_odds,
        help=N_(
            "Two spells meet: Magic tests with the elements' dominance, and whose spell hits"
            " (IL-10, IL-11)."
        ),
        example={"magic_a": 7, "element_a": "feu", "magic_b": 6, "element_b": "eau"},
        names={"en": "duel", "fr": "duel"},
    ),
    "create": Action(
        "create",
        CreateParams,
        roll_create,
        help=N_(
            "Create a wizard: 1d6 per stat, the questionnaire's and the 5 free points, the GM's"
            " rebalancing, checked against the bounds (IL-4)."
        ),
        example={"questionnaire": "magic=2,intuition=1", "free": "resolution=2,magic=1,skill=2"},
        names={"en": "create", "fr": "créer"},
    ),
}
