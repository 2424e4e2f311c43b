"""Capture (PK-19, PK-20): three rolls in a row with the ball's dice, at a lowered difficulty.

>>> from jdr.dice import GivenFaces
>>> lowered = capture_difficulty(10, vitality_pct=40, conditions=["Sommeil"], lowered_stats=1)
>>> [(r.reason, r.amount) for r in lowered.reductions], lowered.value
([('vitality_50', 2), ('freeze_sleep', 6), ('lowered_stats', 1)], 1)
>>> faces = GivenFaces([1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 1, 1, 1, 1, 1])
>>> capture = resolve_capture("super", lowered.value, faces)
>>> [roll.score for roll in capture.rolls], capture.captured
([4, 5, 0], False)

Decisions where the rules are silent (see the rules file's PK-19, PK-20):
- rolling stops at the first roll that is not a success, as it would at a table, so given faces are
  consumed only for the rolls made;
- each reduction category counts once (Confusion and Attirance together lower by 2, not 4);
  Malédiction and Peur are accepted but lower nothing; two different major conditions are refused
  (PK-16: at most one at a time);
- `--other` is a reduction like the others: a positive amount lowers the difficulty, a negative one
  raises it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field

from jdr.dice.source import RandomSource
from jdr.errors import InputError, UnknownNameError
from jdr.i18n import N_, _
from jdr.labels import Choices, named
from jdr.params import PERCENT
from jdr.systems.pokemon.check import CheckRoll, effective_difficulty, roll_check
from jdr.systems.pokemon.sheets import MAJOR_CONDITIONS, condition_id, shown_names
from jdr.systems.protocol import Odds, Record

if TYPE_CHECKING:
    from jdr.prob import Probability

Ball = Literal["poke", "super", "hyper", "master"]
BALLS: Choices = {
    "poke": ("Poké Ball", "Poké Ball", "pokeball"),
    "super": ("Super Ball", "Super Ball", "superball"),
    "hyper": ("Hyper Ball", "Hyper Ball", "hyperball"),
    "master": ("Master Ball", "Master Ball", "masterball"),
}
"""The balls' display names (English, French, other spellings accepted)."""
BALL_DICE: Mapping[str, int] = {"poke": 3, "super": 5, "hyper": 7, "master": 15}
"""PK-19: dice by ball."""
BALL_NAMES: Mapping[str, str] = {
    "poke": "Poké Ball",
    "super": "Super Ball",
    "hyper": "Hyper Ball",
    "master": "Master Ball",
}
CAPTURE_ROLLS = 3
OUTCOMES = (N_("captured"), N_("escaped"))

CATEGORIES: Mapping[str, tuple[str, int]] = {
    "confusion": ("confusion_infatuation", 2),
    "infatuation": ("confusion_infatuation", 2),
    "poison": ("poison_paralysis_burn", 4),
    "bad_poison": ("poison_paralysis_burn", 4),
    "paralysis": ("poison_paralysis_burn", 4),
    "burn": ("poison_paralysis_burn", 4),
    "freeze": ("freeze_sleep", 6),
    "sleep": ("freeze_sleep", 6),
}
"""PK-20: each condition's reduction category and amount (curse and flinch: none)."""


@dataclass(frozen=True)
class Reduction:
    """One reason the difficulty goes down: `vitality_50`, a condition category, `other` …"""

    reason: str
    amount: int
    conditions: tuple[str, ...] = ()

    def label(self) -> str:
        labels = {
            "vitality_50": lambda: _("Vitalité ≤ 50 %"),
            "vitality_25": lambda: _("Vitalité ≤ 25 %"),
            "lowered_stats": lambda: _("lowered stats"),
            "other": lambda: _("other"),
        }
        if self.reason in labels:
            return labels[self.reason]()
        return ", ".join(_(c) for c in self.conditions)


@dataclass(frozen=True)
class CaptureDifficulty:
    """The GM's difficulty, every reduction, and the final value (never below 1)."""

    base: int
    reductions: tuple[Reduction, ...]

    @property
    def value(self) -> int:
        return effective_difficulty(self.base - sum(r.amount for r in self.reductions))

    def explain(self) -> str:
        """`DD 12 − 4 (burn) − 2 (Vitalité ≤ 50 %) = 6`."""
        text = f"DD {self.base}"
        for reduction in self.reductions:
            sign = "−" if reduction.amount >= 0 else "+"
            text += f" {sign} {abs(reduction.amount)} ({reduction.label()})"
        return f"{text} = {self.value}" if self.reductions else text


def capture_difficulty(
    difficulty: int,
    *,
    vitality_pct: float | None = None,
    conditions: Iterable[str] = (),
    lowered_stats: int = 0,
    other: int = 0,
) -> CaptureDifficulty:
    """PK-20: the capture difficulty after every reduction, each category counted once.

    >>> capture_difficulty(12, conditions=["burn", "Confusion", "attirance"]).value
    6
    """
    reductions: list[Reduction] = []
    if vitality_pct is not None and vitality_pct <= 25:
        reductions.append(Reduction("vitality_25", 4))
    elif vitality_pct is not None and vitality_pct <= 50:
        reductions.append(Reduction("vitality_50", 2))
    ids = list(dict.fromkeys(condition_id(name) for name in conditions))
    majors = [c for c in ids if c in MAJOR_CONDITIONS]
    if len(majors) > 1:
        raise InputError(
            "--condition",
            ", ".join(shown_names(majors)),
            _("one major condition at most"),
            _("a Pokémon has at most one major condition (PK-16)"),
        )
    by_category: dict[str, list[str]] = {}
    for condition in ids:
        if condition in CATEGORIES:
            by_category.setdefault(CATEGORIES[condition][0], []).append(condition)
    for category, members in by_category.items():
        reductions.append(Reduction(category, CATEGORIES[members[0]][1], tuple(members)))
    if lowered_stats:
        reductions.append(Reduction("lowered_stats", lowered_stats))
    if other:
        reductions.append(Reduction("other", other))
    return CaptureDifficulty(difficulty, tuple(reductions))


@dataclass(frozen=True)
class CaptureResult:
    """The capture rolls made (up to three; rolling stops at the first that is not a success)."""

    ball: str
    difficulty: int
    rolls: tuple[CheckRoll, ...]

    @property
    def captured(self) -> bool:
        return len(self.rolls) == CAPTURE_ROLLS and all(r.score > 0 for r in self.rolls)

    @property
    def faces(self) -> list[int]:
        return [face for roll in self.rolls for face in roll.faces]


def resolve_capture(ball: str, difficulty: int, rng: RandomSource) -> CaptureResult:
    """PK-19: up to three rolls of the ball's dice at `difficulty`; all three must succeed.

    >>> from jdr.dice import GivenFaces
    >>> resolve_capture("poke", 6, GivenFaces([6, 7, 8, 1, 1, 9])).captured
    False
    """
    if ball not in BALL_DICE:
        raise UnknownNameError(_("ball"), ball, list(BALL_DICE))
    rolls: list[CheckRoll] = []
    for _attempt in range(CAPTURE_ROLLS):
        rolls.append(roll_check(BALL_DICE[ball], difficulty, rng))
        if rolls[-1].score <= 0:
            break
    return CaptureResult(ball, effective_difficulty(difficulty), tuple(rolls))


def capture_chance(ball: str, difficulty: int, exact: bool = False) -> Probability:
    """PK-19: P(captured) = P(one roll succeeds)³.

    >>> capture_chance("poke", 6, exact=True), capture_chance("master", 11, exact=True)
    (Fraction(50653, 125000), Fraction(0, 1))
    """
    from jdr.systems.pokemon.check import score_distribution

    if ball not in BALL_DICE:
        raise UnknownNameError(_("ball"), ball, list(BALL_DICE))
    success = score_distribution(BALL_DICE[ball], difficulty, exact).at_least(1)
    return success**CAPTURE_ROLLS


# --- the action ---------------------------------------------------------------------------


class CaptureParams(BaseModel):
    """`capture --ball B --difficulty D [--vitality-pct P] [--condition C …] …` (PK-19, PK-20)."""

    ball: Ball = Field(
        description=N_("the ball: Poké Ball 3 dice, Super Ball 5, Hyper Ball 7, Master Ball 15"),
        json_schema_extra=named("ball", "Ball", BALLS),
    )
    difficulty: int = Field(
        ge=1,
        le=100,
        description=N_("capture difficulty set by the GM"),
        json_schema_extra=named("capture difficulty", "difficulté de capture"),
    )
    vitality_pct: Annotated[float | None, PERCENT] = Field(
        default=None,
        ge=0,
        le=100,
        description=N_("Vitalité left, in % of its maximum"),
        json_schema_extra=named("Vitalité left (%)", "Vitalité restante (%)"),
    )
    condition: list[str] = Field(
        default_factory=list,
        description=N_("a condition of the Pokémon (French or English)"),
        json_schema_extra=named("condition", "statut"),
    )
    lowered_stats: int = Field(
        default=0,
        ge=0,
        le=5,
        description=N_("how many stats are currently lowered"),
        json_schema_extra=named("lowered stats", "stats baissées"),
    )
    other: int = Field(
        default=0,
        ge=-100,
        le=100,
        description=N_("other reduction set by the GM (negative raises the difficulty)"),
        json_schema_extra=named("other reduction", "autre réduction"),
    )

    def lowered(self) -> CaptureDifficulty:
        return capture_difficulty(
            self.difficulty,
            vitality_pct=self.vitality_pct,
            conditions=self.condition,
            lowered_stats=self.lowered_stats,
            other=self.other,
        )


def roll(params: CaptureParams, rng: RandomSource) -> Record:
    """The `capture` action: JSON `difficulty` (the effective one), `rolls`, `captured`."""
    lowered = params.lowered()
    result = resolve_capture(params.ball, lowered.value, rng)
    outcome = "captured" if result.captured else "escaped"

    def explain() -> str:
        head = f"{BALL_NAMES[result.ball]} · {lowered.explain()}"
        rolls = [
            _("roll {number}: {roll}").format(number=i, roll=r.explain())
            for i, r in enumerate(result.rolls, start=1)
        ]
        return " · ".join([head, *rolls, _(outcome)])

    return Record(
        outcome=outcome,
        totals={
            "difficulty": lowered.value,
            "base_difficulty": lowered.base,
            "reductions": [
                {"reason": r.reason, "amount": r.amount, "conditions": list(r.conditions)}
                for r in lowered.reductions
            ],
            "dice": BALL_DICE[params.ball],
            "rolls": [_roll_json(r) for r in result.rolls],
            "captured": result.captured,
        },
        faces=result.faces,
        explain=explain,
    )


def _roll_json(roll: CheckRoll) -> dict[str, Any]:
    return {
        "faces": roll.faces,
        "successes": roll.successes,
        "failures": roll.failures,
        "score": roll.score,
    }


def odds(params: CaptureParams, exact: bool) -> Odds:
    """`captured`/`escaped` for the chosen ball; `by_ball` gives them for every ball."""
    value = params.lowered().value
    by_ball: dict[str, dict[str, Probability]] = {}
    for ball in BALL_DICE:
        p = capture_chance(ball, value, exact)
        by_ball[ball] = {"captured": p, "escaped": 1 - p}
    return Odds(outcomes=by_ball[params.ball], extra={"difficulty": value, "by_ball": by_ball})
