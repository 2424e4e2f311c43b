"""Spells (IL-5 … IL-8): casting on a d12, the XP every cast gives, and the levels XP buys.

>>> from jdr.dice import GivenFaces
>>> cast = cast_spell(7, 2, GivenFaces([5]))
>>> cast.result, cast.outcome, cast.xp_gained
(2, 'success', 3)
>>> advance(1, 23, difficulty=1)
Advancement(level=2, xp=13, level_ups=(LevelUp(level=2, xp_spent=10),))
"""

from __future__ import annotations

from dataclasses import dataclass

from jdr.dice.source import RandomSource
from jdr.errors import RulesError
from jdr.i18n import N_, _
from jdr.systems.ilvermorny.rules import DIE, signed_terms

MIN_LEVEL, MAX_LEVEL = 0, 5  # IL-5: 0 = not learnt
MIN_SPELL_DIFFICULTY, MAX_SPELL_DIFFICULTY = 1, 5  # IL-5
CAST_OUTCOMES = ("critical_failure", "failure", "success", "perfect", "imperfect")
"""IL-6, in the order the rule reads them (the natural 12 and 1 first)."""
CAST_SUCCESSES = frozenset({"success", "perfect", "imperfect"})
"""IL-11: a spell is cast, and meets the other, on any of these."""
XP_BY_OUTCOME = {"critical_failure": 1, "failure": 1, "success": 3, "imperfect": 3, "perfect": 5}
"""IL-7: the spell's XP after every cast."""
LEVEL_COST = {1: 10, 2: 25, 3: 50, 4: 100}
"""IL-8: level n → n + 1 costs `LEVEL_COST[n]` × the spell's difficulty (0 → 1: a lesson)."""
NOT_LEARNT = N_("the spell is not learnt yet (level 0): the GM grants level 1 after a lesson")


def magic_bonus(magic: int) -> int:
    """IL-6: floor(Magie / 2), taken off the die.

    >>> magic_bonus(7), magic_bonus(0)
    (3, 0)
    """
    return magic // 2


def cast_outcome(natural: int, result: int, level: int) -> str:
    """IL-6, in its order: natural 12, natural 1, then the result against 2 × level.

    >>> [cast_outcome(n, n - 3, 2) for n in (12, 1, 6, 7, 8)]
    ['critical_failure', 'imperfect', 'success', 'perfect', 'failure']

    The source's note « un résultat de 11 sera toujours un échec » is about the result (after
    Magie / 2), not the die: it follows from the lines above, since 2 × level is at most 10. A
    natural 11 with Magie ≥ 2 is a lower result and may succeed.

    >>> cast_outcome(11, 11, 5), cast_outcome(11, 10, 5)
    ('failure', 'perfect')
    """
    if natural == DIE:
        return "critical_failure"
    if natural == 1:
        return "imperfect"
    target = 2 * level
    if result < target:
        return "success"
    return "perfect" if result == target else "failure"


def check_learnt(level: int) -> None:
    """IL-5: a spell at level 0 cannot be cast (nor studied: XP buys no level 0 → 1, IL-8)."""
    if level == MIN_LEVEL:
        raise RulesError(_(NOT_LEARNT), "IL-5")


@dataclass(frozen=True)
class Cast:
    """One cast: the caster's Magie, the spell's level, the natural face."""

    magic: int
    level: int
    natural: int

    @property
    def result(self) -> int:
        return self.natural - magic_bonus(self.magic)

    @property
    def target(self) -> int:
        return 2 * self.level

    @property
    def outcome(self) -> str:
        return cast_outcome(self.natural, self.result, self.level)

    @property
    def cast(self) -> bool:
        """The spell went off (IL-11's "cast successfully")."""
        return self.outcome in CAST_SUCCESSES

    @property
    def xp_gained(self) -> int:
        return XP_BY_OUTCOME[self.outcome]

    def explain(self) -> str:
        """`d12 5 − 3 = 2 < 4 (2 × level 2) → success, +3 XP` in the current language."""
        xp = _("+{xp} XP").format(xp=self.xp_gained)
        if self.natural in (1, DIE):
            return _("d12 {natural}: a natural {natural} → {outcome}, {xp}").format(
                natural=self.natural, outcome=_(self.outcome), xp=xp
            )
        sign = "<" if self.result < self.target else "=" if self.result == self.target else ">"
        return _(
            "d12 {terms} = {result} {sign} {target} (2 × level {level}) → {outcome}, {xp}"
        ).format(
            terms=signed_terms(self.natural, -magic_bonus(self.magic)),
            result=self.result,
            sign=sign,
            target=self.target,
            level=self.level,
            outcome=_(self.outcome),
            xp=xp,
        )


def cast_spell(magic: int, level: int, rng: RandomSource) -> Cast:
    """IL-6: the GM's d12 for a spell learnt at `level` (1 … 5) by a caster of Magie `magic`."""
    check_learnt(level)
    return Cast(magic, level, rng.faces(DIE, 1)[0])


# --- levels (IL-8) ------------------------------------------------------------------------------


def level_cost(level: int, difficulty: int) -> int | None:
    """IL-8: the XP from `level` to the next; None at 0 (a lesson, not XP) and at 5 (the top).

    >>> [level_cost(level, 2) for level in range(6)]
    [None, 20, 50, 100, 200, None]
    """
    factor = LEVEL_COST.get(level)
    return None if factor is None else factor * difficulty


@dataclass(frozen=True)
class LevelUp:
    """A level reached and the XP it cost (IL-8: spent, so subtracted)."""

    level: int
    xp_spent: int


@dataclass(frozen=True)
class Advancement:
    """The level and XP after every level the XP pays for, and those levels."""

    level: int
    xp: int
    level_ups: tuple[LevelUp, ...] = ()


def advance(level: int, xp: int, difficulty: int) -> Advancement:
    """IL-8: a level as soon as the XP reaches its cost, several at once when it allows.

    >>> advance(1, 60, difficulty=1).level_ups
    (LevelUp(level=2, xp_spent=10), LevelUp(level=3, xp_spent=25))
    >>> advance(0, 99, difficulty=1).level, advance(5, 999, difficulty=1).level
    (0, 5)
    """
    ups: list[LevelUp] = []
    cost = level_cost(level, difficulty)
    while cost is not None and xp >= cost:
        level, xp = level + 1, xp - cost
        ups.append(LevelUp(level, cost))
        cost = level_cost(level, difficulty)
    return Advancement(level, xp, tuple(ups))


def advancement_text(xp_before: int, gained: int, after: Advancement) -> str:
    """`XP 8 + 3 = 11, level 2 reached (10 XP spent), 1 XP left` in the current language.

    >>> advancement_text(8, 3, advance(1, 11, difficulty=1))
    'XP 8 + 3 = 11, level 2 reached (10 XP spent), 1 XP left'
    """
    parts = [
        _("XP {before} + {gained} = {total}").format(
            before=xp_before, gained=gained, total=xp_before + gained
        )
    ]
    for up in after.level_ups:
        parts.append(
            _("level {level} reached ({xp} XP spent)").format(level=up.level, xp=up.xp_spent)
        )
    if after.level_ups:
        parts.append(_("{xp} XP left").format(xp=after.xp))
    return ", ".join(parts)
