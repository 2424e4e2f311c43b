"""Using a move (PK-10, PK-11) and defending against it (PK-12 endure, PK-13 dodge).

The attack roll's score n > 0 adds n d10 to the move's damage dice; the damage roll's score
(floored at 0) times the type multiplier, floored, is the final damage; enduring subtracts the
endure roll's score, dodging avoids everything with a score strictly above the attack's.

>>> from jdr.dice import GivenFaces
>>> hit = resolve_attack(3, 2, GivenFaces([7, 8, 2, 6, 9, 1, 10]))
>>> (hit.attack.score, hit.damage_roll.dice, hit.raw_damage, hit.damage, hit.vitality_lost)
(2, 4, 2, 2, 2)
>>> hit.outcome
'hit'

Rolls are made in this order, each only when it matters: the accuracy d100 when the move's
accuracy is below 100 % (PK-9: above the accuracy, the move misses and nothing else is rolled);
the attack roll; the damage roll if the
attack succeeded; the endure or dodge roll if the final damage is above 0. A failed attack (or one
that deals 0 damage) leaves the remaining given faces unused. The exact odds are in `attack_odds`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

from pydantic import BaseModel, Field

from jdr.dice.source import RandomSource
from jdr.errors import InputError
from jdr.i18n import N_, _
from jdr.labels import Choices, named
from jdr.numbers import significant
from jdr.params import PERCENT
from jdr.systems.pokemon.attack_odds import attack_odds
from jdr.systems.pokemon.attack_rules import (
    RANGE_PENALTY,
    WAIT_BONUS,
    Defence,
    DefenceKind,
    attack_difficulty,
    damage_difficulty,
    damage_pool,
    defence_difficulty,
    dodges,
    endured,
    final_damage,
)
from jdr.systems.pokemon.check import DEFAULT_DIFFICULTY, MAX_DICE, CheckRoll, roll_check
from jdr.systems.pokemon.types import Multiplier, TypeChart, chart_json, default_chart
from jdr.systems.protocol import Odds, Record

# The rules on plain values live in `attack_rules` (so `attack_odds` reads them without this
# module); they stay importable from here.
__all__ = [
    "ACCURACY_DIE",
    "CHANCE_TO_HIT",
    "DEFENCES",
    "NEUTRAL",
    "OUTCOMES",
    "RANGE_PENALTY",
    "WAIT_BONUS",
    "AttackParams",
    "AttackResult",
    "Defence",
    "DefenceKind",
    "attack_difficulty",
    "damage_difficulty",
    "damage_pool",
    "defence_difficulty",
    "dodges",
    "endured",
    "final_damage",
    "odds",
    "resolve_attack",
    "roll",
]

NEUTRAL = Multiplier(Fraction(1), ())
"""No type information: raw damage × 1."""

OUTCOMES = (N_("inaccurate"), N_("miss"), N_("hit"), N_("dodged"))
CHANCE_TO_HIT = N_("chance_to_hit")
"""`jdr odds pokemon attack`'s extra key: accuracy × the attack roll's success (PK-9, PK-10)."""
ACCURACY_DIE = 100
"""PK-9: a move below 100 % accuracy first rolls a d100, at most its accuracy to go on."""
DEFENCES: Choices = {
    "endure": ("endure", "encaisser", "encaisse", "endurer"),
    "dodge": ("dodge", "esquiver", "esquive"),
}
"""A defence's display names (English, French, other spellings accepted)."""


@dataclass(frozen=True)
class AttackResult:
    """Every roll of one attack and what it did; a roll not made (see the module) is None."""

    attack: CheckRoll
    damage_roll: CheckRoll | None
    multiplier: Multiplier
    defence: Defence | None
    defence_roll: CheckRoll | None

    @property
    def raw_damage(self) -> int:
        return max(0, self.damage_roll.score) if self.damage_roll else 0

    @property
    def damage(self) -> int:
        return final_damage(self.raw_damage, self.multiplier.value)

    @property
    def dodged(self) -> bool:
        return (
            self.defence_roll is not None
            and self.defence is not None
            and self.defence.kind == "dodge"
            and dodges(self.defence_roll.score, self.attack.score)
        )

    @property
    def vitality_lost(self) -> int:
        if self.defence_roll is None or self.defence is None:
            return self.damage
        if self.defence.kind == "endure":
            return endured(self.damage, self.defence_roll.score)
        return 0 if self.dodged else self.damage

    @property
    def outcome(self) -> str:
        """`miss` (attack score ≤ 0), `dodged`, else `hit`."""
        if self.attack.score <= 0:
            return "miss"
        return "dodged" if self.dodged else "hit"

    @property
    def faces(self) -> list[int]:
        rolls = (self.attack, self.damage_roll, self.defence_roll)
        return [face for roll in rolls if roll is not None for face in roll.faces]

    def explain(self, chart: TypeChart | None = None) -> str:
        """Each roll, the multiplier and the Vitalité lost, in the current language."""
        parts = [_("attack: {roll}").format(roll=self.attack.explain())]
        if self.damage_roll is None:
            parts.append(_("the attack fails: no damage"))
            return " · ".join(parts)
        parts.append(_("damage: {roll}").format(roll=self.damage_roll.explain()))
        reasons = self.multiplier.explain(chart or default_chart())
        parts.append(
            _("{raw} × {multiplier} → {damage} damage").format(
                raw=self.raw_damage,
                multiplier=significant(self.multiplier.value, 6),
                damage=self.damage,
            )
            + (f" ({reasons})" if self.multiplier.reasons else "")
        )
        if self.defence_roll is not None and self.defence is not None:
            if self.defence.kind == "endure":
                parts.append(_("endure: {roll}").format(roll=self.defence_roll.explain()))
            else:
                parts.append(_("dodge: {roll}").format(roll=self.defence_roll.explain()))
                if self.dodged:
                    parts.append(
                        _("{dodge} > {attack}: dodged").format(
                            dodge=self.defence_roll.score, attack=self.attack.score
                        )
                    )
        parts.append(_("Vitalité lost: {lost}").format(lost=self.vitality_lost))
        return " · ".join(parts)


def resolve_attack(
    attack_dice: int,
    damage_dice: int,
    rng: RandomSource,
    *,
    difficulty: int = DEFAULT_DIFFICULTY,
    range_penalty: bool = False,
    high_crit: bool = False,
    multiplier: Multiplier = NEUTRAL,
    defence: Defence | None = None,
    defence_rng: RandomSource | None = None,
) -> AttackResult:
    """PK-10 … PK-13: roll the attack, then the damage, then the defence, each only if it matters.

    The defence roll comes from `defence_rng` when given (`jdr.dice.rolled_for`: a fight journals
    it as the defender's), else from `rng`.

    >>> from jdr.dice import GivenFaces
    >>> dodge = Defence("dodge", 3)
    >>> result = resolve_attack(2, 1, GivenFaces([6, 3, 9, 7, 8, 9, 10]), defence=dodge)
    >>> (result.attack.score, result.damage, result.defence_roll.score, result.outcome)
    (1, 2, 3, 'dodged')
    """
    attack = roll_check(attack_dice, attack_difficulty(difficulty, range_penalty), rng)
    if attack.score <= 0:
        return AttackResult(attack, None, multiplier, defence, None)
    pool = damage_pool(damage_dice, attack.score)
    damage_roll = roll_check(pool, damage_difficulty(high_crit), rng)
    if defence is None or final_damage(damage_roll.score, multiplier.value) <= 0:
        return AttackResult(attack, damage_roll, multiplier, defence, None)
    defence_roll = roll_check(defence.dice, defence.difficulty, defence_rng or rng)
    return AttackResult(attack, damage_roll, multiplier, defence, defence_roll)


# --- the action ---------------------------------------------------------------------------


class AttackParams(BaseModel):
    """`attack --attack-dice N --damage-dice M …` (PK-10 … PK-13)."""

    attack_dice: int = Field(
        ge=0,
        le=MAX_DICE,
        description=N_("attack roll dice (Force or Concentration + skill)"),
        json_schema_extra=named("attack dice", "dés d'attaque"),
    )
    damage_dice: int = Field(
        ge=0,
        le=MAX_DICE,
        description=N_("the move's damage dice"),
        json_schema_extra=named("damage dice", "dés de dégâts"),
    )
    difficulty: int = Field(
        default=DEFAULT_DIFFICULTY,
        ge=-20,
        le=100,
        description=N_("attack roll difficulty (DD) before the range penalty"),
        json_schema_extra=named("difficulty (DD)", "difficulté (DD)"),
    )
    range_penalty: bool = Field(
        default=False,
        description=N_("physical move not in contact, or special at close range: +2"),
        json_schema_extra=named("range penalty", "malus de portée"),
    )
    high_crit: bool = Field(
        default=False,
        description=N_("high critical move: damage roll at DD5"),
        json_schema_extra=named("high critical", "critique élevé"),
    )
    move_type: str | None = Field(
        default=None,
        description=N_("the move's type, French or English (feu, fire)"),
        json_schema_extra=named("move's type", "type de la capacité"),
    )
    user_types: str | None = Field(
        default=None,
        description=N_("the user's types, T or T/T (STAB)"),
        json_schema_extra=named("user's types", "types du lanceur"),
    )
    defender_types: str | None = Field(
        default=None,
        description=N_("the defender's types, T or T/T"),
        json_schema_extra=named("defender's types", "types du défenseur"),
    )
    endure_dice: int | None = Field(
        default=None,
        ge=0,
        le=MAX_DICE,
        description=N_("the defender endures: Constitution or Volonté dice"),
        json_schema_extra=named("endure dice", "dés pour encaisser"),
    )
    dodge_dice: int | None = Field(
        default=None,
        ge=0,
        le=MAX_DICE,
        description=N_("the defender dodges: Dextérité dice"),
        json_schema_extra=named("dodge dice", "dés pour esquiver"),
    )
    defender_waiting: bool = Field(
        default=False,
        description=N_("the defender is waiting: its endure or dodge roll at DD −2 (PK-15)"),
        json_schema_extra=named("defender waiting", "défenseur en attente"),
    )
    accuracy: Annotated[int, PERCENT] = Field(
        default=100,
        ge=0,
        le=100,
        description=N_("the move's accuracy in %: below 100, a d100 at most it first (PK-9)"),
        json_schema_extra=named("accuracy", "précision"),
    )

    def defence(self) -> Defence | None:
        """The defence asked for; both at once is refused, and so is a waiting defender that
        rolls no defence (the −2 would change nothing)."""
        if self.endure_dice is not None and self.dodge_dice is not None:
            raise InputError(
                "--endure-dice/--dodge-dice",
                f"{self.endure_dice}/{self.dodge_dice}",
                _("one of them"),
                _("a defender either endures or dodges, not both"),
            )
        difficulty = defence_difficulty(self.defender_waiting)
        if self.endure_dice is not None:
            return Defence("endure", self.endure_dice, difficulty)
        if self.dodge_dice is not None:
            return Defence("dodge", self.dodge_dice, difficulty)
        if self.defender_waiting:
            raise InputError(
                "--defender-waiting",
                None,
                _("--endure-dice or --dodge-dice"),
                _("a waiting defender's −2 is for its endure or dodge roll: give one (PK-15)"),
            )
        return None

    def multiplier(self, chart: TypeChart | None = None) -> Multiplier:
        """PK-11 from `--move-type`: STAB from `--user-types`, the chart from `--defender-types`."""
        chart = chart or default_chart()
        if self.move_type is None:
            if self.user_types or self.defender_types:
                raise InputError(
                    "--move-type",
                    None,
                    _("a type"),
                    _("--user-types and --defender-types need --move-type"),
                )
            return NEUTRAL
        users = chart.parse(self.user_types) if self.user_types else []
        defenders = chart.parse(self.defender_types) if self.defender_types else []
        return chart.multiplier(self.move_type, defenders, users)


def roll(params: AttackParams, rng: RandomSource) -> Record:
    """The `attack` action: JSON `attack_score`, `damage_score`, `multiplier`, `damage`,
    `vitality_lost` (plus `raw_damage`, the defence's `defence_score` and the multiplier's reasons).
    """
    defence, multiplier = params.defence(), params.multiplier()
    accuracy_roll = None
    if params.accuracy < ACCURACY_DIE:  # PK-9: the accuracy d100 comes first
        (accuracy_roll,) = rng.faces(ACCURACY_DIE, 1)
        if accuracy_roll > params.accuracy:
            return _inaccurate(params, accuracy_roll)
    result = resolve_attack(
        params.attack_dice,
        params.damage_dice,
        rng,
        difficulty=params.difficulty,
        range_penalty=params.range_penalty,
        high_crit=params.high_crit,
        multiplier=multiplier,
        defence=defence,
    )
    totals: dict[str, Any] = {
        "attack_score": result.attack.score,
        "damage_score": result.damage_roll.score if result.damage_roll else None,
        "raw_damage": result.raw_damage,
        "multiplier": float(multiplier.value),
        "damage": result.damage,
        "defence": defence.kind if defence else None,
        "defence_score": result.defence_roll.score if result.defence_roll else None,
        "vitality_lost": result.vitality_lost,
    }
    chart = default_chart()
    faces = result.faces
    if accuracy_roll is not None:
        totals["accuracy_roll"] = accuracy_roll
        faces = [accuracy_roll, *faces]

    def explain() -> str:
        said = result.explain(chart)
        if accuracy_roll is None:
            return said
        return _accuracy_said(params.accuracy, accuracy_roll) + " · " + said

    return Record(
        outcome=result.outcome,
        totals=totals,
        faces=faces,
        explain=explain,
        details={"multiplier_reasons": chart_json(multiplier, chart)["reasons"]},
    )


def _accuracy_said(accuracy: int, roll: int) -> str:
    """`accuracy 70 %: d100 85: the move misses` (PK-9)."""
    result = _("it hits") if roll <= accuracy else _("the move misses")
    return _("accuracy {accuracy} %: d100 {roll}: {result}").format(
        accuracy=accuracy, roll=roll, result=result
    )


def _inaccurate(params: AttackParams, roll: int) -> Record:
    """PK-9: the accuracy d100 above the move's accuracy: nothing else is rolled."""
    totals: dict[str, Any] = {
        "accuracy_roll": roll,
        "attack_score": None,
        "damage_score": None,
        "raw_damage": 0,
        "multiplier": float(params.multiplier().value),
        "damage": 0,
        "defence": None,
        "defence_score": None,
        "vitality_lost": 0,
    }
    return Record(
        outcome="inaccurate",
        totals=totals,
        faces=[roll],
        explain=lambda: _accuracy_said(params.accuracy, roll),
        details={"multiplier_reasons": []},
    )


def odds(params: AttackParams, exact: bool) -> Odds:
    """The `attack` odds: `inaccurate` (below 100 % accuracy, PK-9), `miss`, `hit`(, `dodged`),
    the distribution and mean of Vitalité lost: the accuracy times the attack roll's, as the
    roll makes them."""
    answer = attack_odds(
        params.attack_dice,
        params.damage_dice,
        difficulty=params.difficulty,
        range_penalty=params.range_penalty,
        high_crit=params.high_crit,
        multiplier=params.multiplier().value,
        defence=params.defence(),
        exact=exact,
    )
    lost = answer.vitality_lost
    if params.accuracy >= ACCURACY_DIE:
        return Odds(
            outcomes=answer.outcomes,
            distribution=lost.to_list(),
            mean=lost.mean(),
            label="vitality_lost",
        )
    accurate: Any = Fraction(params.accuracy, 100) if exact else params.accuracy / 100
    outcomes = {"inaccurate": 1 - accurate}
    outcomes |= {name: accurate * p for name, p in answer.outcomes.items()}
    distribution = [(value, accurate * p) for value, p in lost.to_list()]
    if distribution and distribution[0][0] == 0:
        distribution[0] = (0, distribution[0][1] + 1 - accurate)
    else:
        distribution.insert(0, (0, 1 - accurate))
    touched = answer.outcomes.get("hit", 0) + answer.outcomes.get("dodged", 0)
    return Odds(
        outcomes=outcomes,
        distribution=distribution,
        mean=accurate * lost.mean(),
        label="vitality_lost",
        extra={CHANCE_TO_HIT: accurate * touched},
    )
