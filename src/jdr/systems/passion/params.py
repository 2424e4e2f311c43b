"""What a Passion action takes: the dice and everything else a roll brings (PS-1 … PS-7, PS-10).

`ActionParams` for `roll|odds passion action`, `AdviseParams` for `advise passion action`, and
`Conditions`, the part of either that `resolve` needs besides the dice. Light: no NumPy.

>>> params = ActionParams(dice=" 2d4 + d12 ", talent=3, marker=3)
>>> params.dice, params.pool().dice_count, params.conditions().resolve((1, 4)).margin
('2d4+1d12', 3, 0)

Decisions where the rules are silent:

- `--npc-energy N` is a count of points (PS-7 sets no one-a-roll limit for an NPC); each adds 1 to
  the opposing score, so 1 negative. `--npc-passion Q` cancels up to Q of the positives the dice
  showed (never the player's Énergie point).
- `--marker M` (PS-10): at least M dice, or M − 1 dice with `--energy` (the Énergie point, still one
  a roll, stands in for one die and adds its positive). A roll always has at least one die. The
  advisor's `--min-dice M` reads the same way.
- Difficulty, talent and pools are whole numbers ≥ 0, at most `MAX_SCORE`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, BaseModel, Field, model_validator

from jdr.dice.pool import Pool, Vector
from jdr.errors import InputError
from jdr.i18n import N_
from jdr.labels import Choices, named
from jdr.systems.passion.pool import SIZES, parse_dice, passion_die
from jdr.systems.passion.resolve import Resolution, resolve
from jdr.validation import fail

if TYPE_CHECKING:
    from pydantic_core import PydanticCustomError

MAX_SCORE = 1000
"""Talent, difficulty and pools: far above any sheet, far below a slow count."""
MAX_MARKER = 10
"""Initiative markers run from 0 to 10."""
MAX_ADVISE_DICE = 30
"""The advisor ranks pools of at most this many dice (12,420 pools at 30, all eight sizes)."""
DEFAULT_ADVISE_DICE = 10
Goal = Literal["success", "no-failure", "margin"]
GOALS: Choices = {
    "success": ("success", "réussite", "succès"),
    "no-failure": ("no failure", "pas d'échec", "sans échec"),
    "margin": ("margin", "marge"),
}
"""The advisor's goals (English, French, other spellings accepted)."""


# --- what a roll brings besides its dice ------------------------------------------------------


@dataclass(frozen=True)
class Conditions:
    """Everything `resolve` needs besides the dice: the same for the roll, the odds, the advisor.

    >>> Conditions(difficulty=2, talent=4, energy=True).resolve((0, 2)).margin
    1
    """

    difficulty: int = 0
    talent: int = 0
    energy: bool = False
    passion: int = 0
    npc_energy: int = 0
    npc_passion: int = 0

    def resolve(self, dice: Vector) -> Resolution:
        """PS-3 … PS-7 on the dice's `(positives, negatives)`."""
        return resolve(
            dice,
            difficulty=self.difficulty,
            talent=self.talent,
            energy=self.energy,
            passion=self.passion,
            npc_energy=self.npc_energy,
            npc_passion=self.npc_passion,
        )


def fewest_dice(marker: int | None, energy: bool) -> int:
    """PS-10: the fewest dice a roll may have — the marker, one less with an Énergie point.

    >>> fewest_dice(None, False), fewest_dice(2, False), fewest_dice(2, True), fewest_dice(1, True)
    (1, 2, 1, 1)
    """
    return max(1, (marker or 0) - int(energy))


# --- parameters -------------------------------------------------------------------------------


def _dice(text: str) -> str:
    """`parse_dice`'s rule and message as a field: the notation, written the canonical way."""
    try:
        return parse_dice(text).notation()
    except InputError as error:  # already in the current language: shown as it is
        raise fail("dice", error.reason or "", error.allowed, value=text) from None


def _sizes(text: str) -> str:
    """`d4,d6` or `4 6` → `d4,d6`: each size once, smallest first (PS-1 sizes only)."""
    parts = [part for part in text.replace(",", " ").split() if part]
    sizes: set[int] = set()
    for part in parts:
        number = part.lower().removeprefix("d")
        if not number.isdecimal():
            raise fail("sizes", N_("not a die size"), _allowed_sizes(), value=part)
        try:
            sizes.add(passion_die(int(number)).size)
        except InputError as error:
            raise fail("sizes", error.reason or "", error.allowed, value=part) from None
    if not sizes:
        raise fail("sizes", N_("no die size"), _allowed_sizes(), value=text)
    return ",".join(f"d{size}" for size in sorted(sizes))


def _allowed_sizes() -> str:
    return ", ".join(f"d{size}" for size in SIZES)


Dice = Annotated[str, AfterValidator(_dice)]
Sizes = Annotated[str, AfterValidator(_sizes)]
ALL_SIZES = ",".join(f"d{size}" for size in SIZES)


def _too_few(marker: int, fewest: int, notation: str) -> PydanticCustomError:
    return fail(
        "marker",
        N_(
            "marker {marker}: a combat roll needs at least {marker} dice,"
            " an Énergie point standing in for one (PS-10)"
        ),
        N_("at least {fewest} dice"),
        value=notation,
        marker=marker,
        fewest=fewest,
        at="dice",
    )


# The options an action roll and the advisor share, written once.
Talent = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_SCORE,
        description=N_("the talent or potential used: cancels as many negatives"),
        json_schema_extra=named("talent", "talent"),
    ),
]
Difficulty = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_SCORE,
        description=N_("the difficulty, or the opposing score: as many negatives"),
        json_schema_extra=named("difficulty", "difficulté"),
    ),
]
EnergyPoint = Annotated[
    bool,
    Field(
        description=N_("spend 1 Énergie point: 1 more positive"),
        json_schema_extra=named("Énergie point", "point d'Énergie"),
    ),
]
PassionPoints = Annotated[
    int,
    Field(
        ge=0,
        le=MAX_SCORE,
        description=N_("Passion points spent after the roll: each cancels one more negative"),
        json_schema_extra=named("Passion points", "points de Passion"),
    ),
]


class ActionParams(BaseModel):
    """`action --dice 8d6 [--talent T] [--difficulty K] [--energy] [--passion P] …` (PS-1 … PS-7,
    PS-10)."""

    dice: Dice = Field(
        description=N_("the dice, e.g. 8d6 or 2d4+1d12 (d4, d6 … d100)"),
        json_schema_extra=named("dice", "dés"),
    )
    talent: Talent = 0
    difficulty: Difficulty = 0
    energy: EnergyPoint = False
    passion: PassionPoints = 0
    npc_energy: int = Field(
        default=0,
        ge=0,
        le=MAX_SCORE,
        description=N_("Énergie points the NPC announced before the roll: 1 more negative each"),
        json_schema_extra=named("NPC's Énergie", "Énergie du PNJ"),
    )
    npc_passion: int = Field(
        default=0,
        ge=0,
        le=MAX_SCORE,
        description=N_("Passion points the NPC spends after the roll: each cancels one positive"),
        json_schema_extra=named("NPC's Passion", "Passion du PNJ"),
    )
    marker: int | None = Field(
        default=None,
        ge=0,
        le=MAX_MARKER,
        description=N_("combat: the initiative marker, the fewest dice allowed"),
        json_schema_extra=named("initiative marker", "marqueur d'initiative"),
    )

    @model_validator(mode="after")
    def _enough_dice(self) -> ActionParams:
        fewest = fewest_dice(self.marker, self.energy)
        if self.marker is not None and self.pool().dice_count < fewest:
            raise _too_few(self.marker, fewest, self.dice)
        return self

    def pool(self) -> Pool:
        return parse_dice(self.dice)

    def conditions(self) -> Conditions:
        return Conditions(
            self.difficulty,
            self.talent,
            self.energy,
            self.passion,
            self.npc_energy,
            self.npc_passion,
        )


class AdviseParams(BaseModel):
    """`advise action --talent T --difficulty K [--sizes d4,d6,…] [--max-dice N] …`."""

    talent: Talent
    difficulty: Difficulty
    sizes: Sizes = Field(
        default=ALL_SIZES,
        description=N_("the die sizes to consider, e.g. d4,d6"),
        json_schema_extra=named("die sizes", "tailles de dés"),
    )
    max_dice: int = Field(
        default=DEFAULT_ADVISE_DICE,
        ge=1,
        le=MAX_ADVISE_DICE,
        description=N_("the most dice in a pool"),
        json_schema_extra=named("most dice", "dés au plus"),
    )
    energy: EnergyPoint = False
    passion: PassionPoints = 0
    goal: Goal = Field(
        default="success",
        description=N_(
            "rank by P(success), by P(no failure: success or status quo), or by the mean margin"
        ),
        json_schema_extra=named("goal", "objectif", GOALS),
    )
    min_dice: int | None = Field(
        default=None,
        ge=0,
        le=MAX_ADVISE_DICE,
        description=N_("combat: the marker, the fewest dice (one less with --energy, PS-10)"),
        json_schema_extra=named("fewest dice", "dés au moins"),
    )

    @model_validator(mode="after")
    def _some_pool(self) -> AdviseParams:
        if fewest_dice(self.min_dice, self.energy) > self.max_dice:
            raise fail(
                "min_dice",
                N_("no pool of at most {max_dice} dice has that many"),
                N_("at most --max-dice"),
                value=self.min_dice,
                max_dice=self.max_dice,
                at="min_dice",
            )
        return self

    def size_list(self) -> list[int]:
        return [int(size.removeprefix("d")) for size in self.sizes.split(",")]

    def conditions(self) -> Conditions:
        return Conditions(self.difficulty, self.talent, self.energy, self.passion)
