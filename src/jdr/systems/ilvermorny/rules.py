"""The core rules of Ilvermorny's Game (seed 003): seven stats out of 10 (IL-1), the d12 stat test
(IL-2) and the difficulty modifiers (IL-3). Pure functions; the die comes from a source.

A test adds the difficulty and any bonus or malus to the die: a negative modifier helps.

>>> from jdr.dice import GivenFaces
>>> test = stat_test(7, 1, GivenFaces([6]))
>>> test.result, test.outcome
(7, 'success')
>>> stat_test(10, -3, GivenFaces([12])).outcome
'critical_failure'
>>> parse_difficulty("Très difficile"), parse_difficulty("aisee"), parse_difficulty("+1")
(3, -2, 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from jdr.dice.source import RandomSource
from jdr.errors import InputError
from jdr.i18n import N_, _
from jdr.names import fold, hint
from jdr.validation import fail

DIE = 12
"""IL-2, IL-6: the GM rolls one d12 for every test and every spell."""
MIN_STAT, MAX_STAT = 0, 10  # IL-1
StatValue = Annotated[int, Field(ge=MIN_STAT, le=MAX_STAT)]
"""A stat's value as a field: 0 … 10 (IL-1)."""
CRITICAL_FACE = 12  # IL-2: a natural 12 is a critical failure whatever the modifiers
MAX_MODIFIER = 12
"""A bonus or malus beyond ±12 decides every test: larger ones are refused as typos."""

StatName = Literal[
    "resolution", "comprehension", "magic", "charisma", "strength", "skill", "intuition"
]
STATS: tuple[StatName, ...] = (
    "resolution",
    "comprehension",
    "magic",
    "charisma",
    "strength",
    "skill",
    "intuition",
)
"""IL-1, in the source's order (the order `create` rolls them in)."""
STAT_LABELS: dict[str, str] = {
    "resolution": N_("Resolution"),
    "comprehension": N_("Comprehension"),
    "magic": N_("Magic"),
    "charisma": N_("Charisma"),
    "strength": N_("Strength"),
    "skill": N_("Skill"),
    "intuition": N_("Intuition"),
}
"""What a player reads: `_(STAT_LABELS["magic"])` is `Magie` in French."""
_STAT_WORDS: dict[StatName, tuple[str, ...]] = {
    "resolution": ("resolution",),
    "comprehension": ("comprehension",),
    "magic": ("magic", "magie"),
    "charisma": ("charisma", "charisme"),
    "strength": ("strength", "force", "force physique", "physical strength"),
    "skill": ("skill", "habilete", "dexterity"),
    "intuition": ("intuition",),
}

DIFFICULTIES: tuple[tuple[int, str, str], ...] = (
    (-3, "très facile", N_("very easy")),
    (-2, "aisée", N_("easy")),
    (-1, "commune", N_("common")),
    (0, "inhabituelle", N_("unusual")),
    (1, "malaisée", N_("awkward")),
    (2, "complexe", N_("complex")),
    (3, "très difficile", N_("very hard")),
)
"""IL-3: the modifier, the source's French name, the English gloss."""
MIN_DIFFICULTY, MAX_DIFFICULTY = -3, 3
_MORE_GLOSSES = {"very difficult": 3, "uneasy": 1, "tricky": 1, "commun": -1, "aise": -2}
DIFFICULTY_ALLOWED = N_(
    "very easy, easy, common, unusual, awkward, complex, very hard (the game's French names"
    " too), or a number from -3 to 3"
)
_NUMBER = re.compile(r"[+-]?[0-9]+")


_STAT_KEYS = {fold(word): stat for stat, words in _STAT_WORDS.items() for word in words}
_DIFFICULTY_KEYS = {fold(name): value for value, name, _gloss in DIFFICULTIES}
_DIFFICULTY_KEYS |= {fold(gloss): value for value, _name, gloss in DIFFICULTIES}
_DIFFICULTY_KEYS |= {fold(gloss): value for gloss, value in _MORE_GLOSSES.items()}


def stat_id(name: str) -> StatName | None:
    """A stat's id from its French or English name (case and accents ignored), or None.

    >>> stat_id("Force physique"), stat_id("MAGIE"), stat_id("luck")
    ('strength', 'magic', None)
    """
    return _STAT_KEYS.get(fold(name))


def parse_difficulty(value: str | int) -> int:
    """IL-3: a difficulty's French name (accents optional), its English gloss, or −3 … 3.

    >>> parse_difficulty("malaisée"), parse_difficulty("VERY EASY"), parse_difficulty(-1)
    (1, -3, -1)
    >>> parse_difficulty("impossible")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    jdr.errors.InputError: difficulty: 'impossible' (unknown difficulty; allowed: very easy, ...)
    """
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InputError("difficulty", value, _(DIFFICULTY_ALLOWED), _("unknown difficulty"))
    text = str(value).strip()
    if _NUMBER.fullmatch(text):
        number = int(text)
        if not MIN_DIFFICULTY <= number <= MAX_DIFFICULTY:
            raise InputError(
                "difficulty", value, _(DIFFICULTY_ALLOWED), _("a difficulty is from -3 to 3")
            )
        return number
    found = _DIFFICULTY_KEYS.get(fold(text))
    if found is None:
        spellings = {word: difficulty_label(number) for word, number in _DIFFICULTY_KEYS.items()}
        reason = _("unknown difficulty") + hint(text, spellings)
        raise InputError("difficulty", value, _(DIFFICULTY_ALLOWED), reason)
    return found


def difficulty_label(value: int) -> str:
    """The difficulty's name in the current language: `awkward` (`malaisée` in French).

    >>> difficulty_label(1)
    'awkward'
    """
    return next(_(gloss) for number, _name, gloss in DIFFICULTIES if number == value)


def _difficulty(value: Any) -> int:
    try:
        return parse_difficulty(value)
    except InputError as error:
        raise fail("difficulty", error.reason or "", DIFFICULTY_ALLOWED, value=value) from None


Difficulty = Annotated[
    int, BeforeValidator(_difficulty), Field(ge=MIN_DIFFICULTY, le=MAX_DIFFICULTY)
]
"""A difficulty field (IL-3): a name in French or English, or a number from −3 to 3."""


# --- the stat test (IL-2) -----------------------------------------------------------------------


def stat_test_outcome(stat: int, natural: int, result: int) -> str:
    """IL-2: a natural 12 fails critically; else a result ≤ the stat succeeds.

    >>> stat_test_outcome(5, 12, 9), stat_test_outcome(5, 6, 5), stat_test_outcome(5, 4, 6)
    ('critical_failure', 'success', 'failure')
    """
    if natural == CRITICAL_FACE:
        return "critical_failure"
    return "success" if result <= stat else "failure"


@dataclass(frozen=True)
class StatTest:
    """One rolled test: the stat, the modifier added to the die, the natural face."""

    stat: int
    modifier: int
    natural: int

    @property
    def result(self) -> int:
        return self.natural + self.modifier

    @property
    def outcome(self) -> str:
        return stat_test_outcome(self.stat, self.natural, self.result)

    @property
    def success(self) -> bool:
        return self.outcome == "success"

    def explain(self, label: str = "") -> str:
        """`d12 6 + 1 = 7 ≤ 7 → success`; `label` names the stat (`Magic 7`)."""
        if self.natural == CRITICAL_FACE:
            text = _("d12 {natural}: a natural 12 → {outcome}").format(
                natural=self.natural, outcome=_(self.outcome)
            )
        else:
            text = _("d12 {terms} = {result} {sign} {stat} → {outcome}").format(
                terms=signed_terms(self.natural, self.modifier),
                result=self.result,
                sign="≤" if self.result <= self.stat else ">",
                stat=self.stat,
                outcome=_(self.outcome),
            )
        return _("{label}: {test}").format(label=label, test=text) if label else text


def signed_terms(value: int, modifier: int) -> str:
    """`6 + 1`, `6 − 2`, `6`: a face and what is added to it.

    >>> signed_terms(6, 1), signed_terms(6, -2), signed_terms(6, 0)
    ('6 + 1', '6 − 2', '6')
    """
    if modifier == 0:
        return str(value)
    return f"{value} + {modifier}" if modifier > 0 else f"{value} − {-modifier}"


def stat_test(stat: int, modifier: int, rng: RandomSource) -> StatTest:
    """IL-2: one d12 plus `modifier` (difficulty and bonus/malus) against `stat`."""
    return StatTest(stat, modifier, rng.faces(DIE, 1)[0])
