"""Duels (IL-10, IL-11): spell elements, and what happens when two spells meet.

Feu beats vigne, vigne beats eau, eau beats feu; neutre is outside the circle. When both spells
are cast, each duelist makes a Magie test (IL-2), −1 on the die for the dominant spell's caster, +1
for the dominated one. Exactly one success: that spell hits and cancels the other. Both or neither:
the dominant spell hits; with no dominance both spells cancel. One spell alone simply lands.

The faces: duelist a's d12, then duelist b's; none when fewer than two spells were cast.

>>> from jdr.dice import GivenFaces
>>> meeting = meet(Side(7, "feu", "success"), Side(5, "vigne", "perfect"), GivenFaces([9, 3]))
>>> meeting.dominant, [t.result for t in meeting.tests], meeting.winner
('a', [8, 4], 'b')
>>> meet(Side(7, "eau", "failure"), Side(5, "feu", "success"), GivenFaces([])).winner
'b'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field

from jdr.dice.source import RandomSource
from jdr.i18n import N_, _
from jdr.labels import Choices, named
from jdr.names import fold
from jdr.systems.ilvermorny.exact import every_roll, outcome_law
from jdr.systems.ilvermorny.rules import STAT_LABELS, StatTest, StatValue, stat_test
from jdr.systems.ilvermorny.spells import CAST_OUTCOMES, CAST_SUCCESSES
from jdr.systems.protocol import Odds, Record

ElementName = Literal["feu", "vigne", "eau", "neutre"]
ELEMENTS: tuple[ElementName, ...] = ("feu", "vigne", "eau", "neutre")
BEATS: dict[str, str] = {"feu": "vigne", "vigne": "eau", "eau": "feu"}
"""IL-10: each element and the one it dominates (neutre dominates and is dominated by none)."""
ELEMENT_LABELS = {
    "feu": N_("fire"),
    "vigne": N_("vine"),
    "eau": N_("water"),
    "neutre": N_("neutral"),
}
"""What a player reads: the source's French names in French, the glosses in English."""
_ELEMENT_KEYS = {fold(k): k for k in ELEMENTS} | {fold(v): k for k, v in ELEMENT_LABELS.items()}
_ELEMENT_KEYS |= {"neutral": "neutre", "utility": "neutre", "vines": "vigne"}
DOMINANT_MODIFIER, DOMINATED_MODIFIER = -1, 1  # IL-11, on the die
WINNERS = ("a", "b", N_("both_cancelled"))
NEITHER = N_("neither_cast")
"""No spell was cast: nothing lands (only when both casts are given and both failed)."""
_OUTCOME_KEYS = {fold(k): k for k in CAST_OUTCOMES} | {
    fold(word): outcome
    for word, outcome in (
        ("réussite", "success"),
        ("succès", "success"),
        ("échec", "failure"),
        ("échec critique", "critical_failure"),
        ("parfait", "perfect"),
        ("imparfait", "imperfect"),
    )
}


def element_id(value: Any) -> Any:
    """`Feu`, `fire`, `EAU` → the element id; anything else is left for the model to refuse.

    >>> element_id("Fire"), element_id(" Neutre "), element_id("air")
    ('feu', 'neutre', 'air')
    """
    return _ELEMENT_KEYS.get(fold(value), value) if isinstance(value, str) else value


def cast_outcome_id(value: Any) -> Any:
    """A cast outcome in English (`critical_failure`, `critical failure`) or French (`échec`).

    >>> cast_outcome_id("Échec critique"), cast_outcome_id("parfait")
    ('critical_failure', 'perfect')
    """
    return _OUTCOME_KEYS.get(fold(value), value) if isinstance(value, str) else value


Element = Annotated[ElementName, BeforeValidator(element_id)]
"""An element field (IL-10): feu, vigne, eau, neutre, or fire, vine, water, neutral."""
CastOutcome = Annotated[
    Literal["critical_failure", "failure", "success", "perfect", "imperfect"],
    BeforeValidator(cast_outcome_id),
]
"""A cast outcome field (IL-6), in English or French."""
ELEMENT_NAMES: Choices = {
    "feu": ("fire", "feu"),
    "vigne": ("vine", "vigne", "vines"),
    "eau": ("water", "eau"),
    "neutre": ("neutral", "neutre", "utility"),
}
"""The elements' display names (English, French, other spellings accepted)."""
CAST_NAMES: Choices = {
    "critical_failure": ("critical failure", "échec critique"),
    "failure": ("failure", "échec"),
    "success": ("success", "réussite", "succès"),
    "perfect": ("perfect", "parfait"),
    "imperfect": ("imperfect", "imparfait"),
}
"""A cast's outcomes, as a player names them (English, French, other spellings accepted)."""


def dominance(element_a: str, element_b: str) -> Literal["a", "b"] | None:
    """IL-10: which side's spell dominates, or None (same element, or a neutre).

    >>> dominance("feu", "vigne"), dominance("feu", "eau"), dominance("eau", "eau")
    ('a', 'b', None)
    >>> dominance("neutre", "feu")
    """
    if BEATS.get(element_a) == element_b:
        return "a"
    if BEATS.get(element_b) == element_a:
        return "b"
    return None


def clash_modifier(side: Literal["a", "b"], dominant: str | None) -> int:
    """IL-11: −1 on the die for the dominant spell's caster, +1 for the dominated one, else 0.

    >>> clash_modifier("a", "a"), clash_modifier("b", "a"), clash_modifier("a", None)
    (-1, 1, 0)
    """
    if dominant is None:
        return 0
    return DOMINANT_MODIFIER if side == dominant else DOMINATED_MODIFIER


def clash_winner(dominant: str | None, success_a: bool, success_b: bool) -> str:
    """IL-11: exactly one success wins; else the dominant spell, else both cancel.

    >>> clash_winner(None, True, False), clash_winner("b", True, True)
    ('a', 'b')
    >>> clash_winner(None, False, False), clash_winner("a", False, False)
    ('both_cancelled', 'a')
    """
    if success_a != success_b:
        return "a" if success_a else "b"
    return dominant or "both_cancelled"


@dataclass(frozen=True)
class Side:
    """A duelist as two spells meet: Magie, the spell's element, and how the cast went."""

    magic: int
    element: str
    cast: str = "success"

    @property
    def cast_ok(self) -> bool:
        return self.cast in CAST_SUCCESSES


@dataclass(frozen=True)
class Meeting:
    """What the two spells did: the Magie tests (none unless both were cast) and the winner."""

    a: Side
    b: Side
    tests: tuple[StatTest, ...]

    @property
    def dominant(self) -> Literal["a", "b"] | None:
        return dominance(self.a.element, self.b.element)

    @property
    def winner(self) -> str:
        """`a`, `b`, `both_cancelled`, or `neither_cast`."""
        if self.tests:
            return clash_winner(self.dominant, self.tests[0].success, self.tests[1].success)
        if self.a.cast_ok or self.b.cast_ok:
            return "a" if self.a.cast_ok else "b"
        return NEITHER

    def explain(self, names: tuple[str, str] = ("a", "b")) -> str:
        """The dominance, each test with its modifier (or each cast), then who hits.

        >>> from jdr.dice import GivenFaces
        >>> print(meet(Side(7, "feu"), Side(6, "vigne"), GivenFaces([5, 7])).explain())
        ... # doctest: +NORMALIZE_WHITESPACE
        fire dominates vine · a, fire, Magic 7: d12 5 − 1 = 4 ≤ 7 → success ·
        b, vine, Magic 6: d12 7 + 1 = 8 > 6 → failure · a's spell hits and cancels the other
        """
        sides = (self.a, self.b)
        if not self.tests:
            parts = [
                _("{name}: {outcome}").format(name=name, outcome=_(side.cast))
                for name, side in zip(names, sides, strict=True)
            ]
            return " · ".join([*parts, self._verdict(names)])
        dominant = self.dominant
        if dominant is None:
            parts = [_("no dominance")]
        else:
            winner, loser = (self.a, self.b) if dominant == "a" else (self.b, self.a)
            parts = [
                _("{winner} dominates {loser}").format(
                    winner=_(ELEMENT_LABELS[winner.element]), loser=_(ELEMENT_LABELS[loser.element])
                )
            ]
        for name, side, test in zip(names, sides, self.tests, strict=True):
            label = (
                f"{name}, {_(ELEMENT_LABELS[side.element])}, {_(STAT_LABELS['magic'])} {side.magic}"
            )
            parts.append(test.explain(label))
        parts.append(self._verdict(names))
        return " · ".join(parts)

    def _verdict(self, names: tuple[str, str]) -> str:
        winner = self.winner
        if winner == "both_cancelled":
            return _("both spells cancel each other")
        if winner == NEITHER:
            return _("neither spell was cast: nothing lands")
        name = names[0] if winner == "a" else names[1]
        if not self.tests:
            return _("only {name}'s spell was cast: it lands").format(name=name)
        return _("{name}'s spell hits and cancels the other").format(name=name)


def meet(a: Side, b: Side, rng: RandomSource, rng_b: RandomSource | None = None) -> Meeting:
    """IL-11: two spells meet; the Magie tests are rolled (a's d12, then b's) only when both
    were cast. b's die comes from `rng_b` when given (a duel journals each wizard's dice as
    theirs, `jdr.dice.rolled_for`)."""
    if not (a.cast_ok and b.cast_ok):
        return Meeting(a, b, ())
    dominant = dominance(a.element, b.element)
    test_a = stat_test(a.magic, clash_modifier("a", dominant), rng)
    test_b = stat_test(b.magic, clash_modifier("b", dominant), rng_b or rng)
    return Meeting(a, b, (test_a, test_b))


# --- duel (IL-10, IL-11) ------------------------------------------------------------------------


class DuelParams(BaseModel):
    """`duel --magic-a M --element-a E --magic-b M --element-b E [--cast-a O --cast-b O]`."""

    magic_a: StatValue = Field(
        description=N_("duelist a's Magic"),
        json_schema_extra=named("duelist a's Magie", "Magie du duelliste a"),
    )
    element_a: Element = Field(
        description=N_("duelist a's spell: its element"),
        json_schema_extra=named("duelist a's element", "élément du duelliste a", ELEMENT_NAMES),
    )
    magic_b: StatValue = Field(
        description=N_("duelist b's Magic"),
        json_schema_extra=named("duelist b's Magie", "Magie du duelliste b"),
    )
    element_b: Element = Field(
        description=N_("duelist b's spell: its element"),
        json_schema_extra=named("duelist b's element", "élément du duelliste b", ELEMENT_NAMES),
    )
    cast_a: CastOutcome | None = Field(
        default=None,
        description=N_("how a's cast went (IL-6); not given: cast"),
        json_schema_extra=named("duelist a's cast", "lancer du duelliste a", CAST_NAMES),
    )
    cast_b: CastOutcome | None = Field(
        default=None,
        description=N_("how b's cast went (IL-6); not given: cast"),
        json_schema_extra=named("duelist b's cast", "lancer du duelliste b", CAST_NAMES),
    )


def roll_duel(params: DuelParams, rng: RandomSource) -> Record:
    """The `duel` action: JSON `tests` (each `duelist`, `natural`, `modifier`, `result`,
    `outcome`), `dominant` (a, b or null) and `winner`."""
    meeting = meet(
        Side(params.magic_a, params.element_a, params.cast_a or "success"),
        Side(params.magic_b, params.element_b, params.cast_b or "success"),
        rng,
    )
    tests = [
        {
            "duelist": duelist,
            "natural": test.natural,
            "modifier": test.modifier,
            "result": test.result,
            "outcome": test.outcome,
        }
        for duelist, test in zip("ab", meeting.tests, strict=False)
    ]
    return Record(
        outcome=meeting.winner,
        totals={"tests": tests, "dominant": meeting.dominant, "winner": meeting.winner},
        faces=[test.natural for test in meeting.tests],
        explain=meeting.explain,
    )


def duel_odds(params: DuelParams, exact: bool) -> Odds:
    """`a` / `b` / `both_cancelled` (and `neither_cast` when both casts are given as failed).

    >>> odds = duel_odds(DuelParams(magic_a=7, element_a="feu", magic_b=7, element_b="eau"), True)
    >>> odds.outcomes["b"], odds.outcomes["both_cancelled"]
    (Fraction(5, 6), Fraction(0, 1))
    """
    leaves = every_roll(partial(roll_duel, params))
    return Odds(outcomes=outcome_law(((p, r.outcome) for p, r in leaves), exact, WINNERS))
