"""Experience (PK-21 … PK-24): XP are spent, not accumulated.

Costs (PK-21), a purchase on a sheet, and the XP a scenario or a fight awards. A purchase is a pure
function: it takes a sheet and returns a new one with the point bought and its cost paid, or raises
`RulesError` naming the rule.

Where the rules are silent, this module reads them so:

- Skill: `n` is the skill's current level on the sheet (levels given at creation count as points
  already bought): 7 XP when `n` = 0, then 5 × `n`. So 0 → 1 costs 7, 1 → 2 costs 5, 2 → 3 costs 10.
- EV: `n` is the EVs already spent on the sheet **in all stats** (the seed: "le nombre d'EV déjà
  dépensés", where the skill clause says "dans une compétence"): the 1st EV costs 10, the 18th 27.
- Level: `N + 1` XP for a Pokémon at level `N`; trainers have no level.
- Trainers and Pokémon buy skills and EVs at the same costs (the seed gives the same table to both).
- PK-24: the winner gets half the defeated Pokémon's level, floor, at least 1; the loser ("quelques
  PX") a quarter of its opponent's level, floor, at least 1. The GM adjusts with `add_xp`.

>>> from jdr.systems.pokemon.sheet_files import load_example
>>> pikachu = add_xp(load_example("pokemon"), fight_award(defeated_level=12, won=True))
>>> pikachu.xp, price(pikachu, "level")
(10, 6)
>>> stronger = buy(pikachu, "level")
>>> stronger.level, stronger.xp, pikachu.level
(6, 4, 5)
"""

from __future__ import annotations

from typing import Literal, TypeVar

from jdr.errors import InputError, RulesError, UnknownNameError
from jdr.i18n import _
from jdr.names import fold
from jdr.systems.pokemon.sheets import (
    MAX_EVS_PER_STAT,
    MAX_EVS_TOTAL,
    STAT_LABELS,
    Pokemon,
    Trainer,
    stat_id,
    total_evs,
)

S = TypeVar("S", Pokemon, Trainer)
Purchase = Literal["skill", "ev", "level"]
PURCHASES: tuple[Purchase, ...] = ("skill", "ev", "level")
SKILL_FIRST_COST = 7  # PK-21
SKILL_COST_STEP = 5  # PK-21
EV_BASE_COST = 10  # PK-21


def skill_cost(points: int) -> int:
    """PK-21: the XP for one more point in a skill that has `points` already.

    >>> [skill_cost(n) for n in range(4)]
    [7, 5, 10, 15]
    """
    return SKILL_FIRST_COST if points == 0 else SKILL_COST_STEP * points


def ev_cost(spent: int) -> int:
    """PK-21: the XP for one more EV when `spent` EVs are already spent (in all stats).

    >>> ev_cost(0), ev_cost(17)
    (10, 27)
    """
    return EV_BASE_COST + spent


def level_cost(level: int) -> int:
    """PK-21: the XP a Pokémon at `level` pays for the next level.

    >>> level_cost(5)
    6
    """
    return level + 1


def price(sheet: Pokemon | Trainer, what: str, name: str = "") -> int:
    """What `buy(sheet, what, name)` would cost, without the checks.

    >>> from jdr.systems.pokemon.sheet_files import load_example
    >>> lea = load_example("trainer")
    >>> price(lea, "skill", "escalade"), price(lea, "skill", "Natation"), price(lea, "ev")
    (5, 7, 11)
    """
    kind = _purchase(what)
    if kind == "skill":
        return skill_cost(sheet.skills.get(_skill_key(sheet, name), 0))
    if kind == "ev":
        return ev_cost(total_evs(sheet))
    if not isinstance(sheet, Pokemon):
        raise InputError("what", what, "skill, ev", _("only a Pokémon buys levels"))
    return level_cost(sheet.level)


def buy(sheet: S, what: str, name: str = "") -> S:
    """A new sheet with one skill point, EV or level bought (`name`: the skill or the stat).

    >>> from jdr.systems.pokemon.sheet_files import load_example
    >>> lea = buy(load_example("trainer"), "skill", "Dressage")
    >>> lea.skills["Dressage"], lea.xp
    (2, 0)
    """
    kind = _purchase(what)
    if kind == "skill":
        return buy_skill(sheet, name)
    if kind == "ev":
        return buy_ev(sheet, name)
    if not isinstance(sheet, Pokemon):
        raise InputError("what", what, "skill, ev", _("only a Pokémon buys levels"))
    return buy_level(sheet)


def buy_skill(sheet: S, skill: str) -> S:
    """PK-21: one more point in `skill` (an existing skill matched by case and accents).

    >>> from jdr.systems.pokemon.sheet_files import load_example
    >>> buy_skill(load_example("pokemon"), "Vol")
    Traceback (most recent call last):
    ...
    jdr.errors.RulesError: not enough XP: 7 needed, 4 left (PK-21)
    """
    key = _skill_key(sheet, skill)
    points = sheet.skills.get(key, 0)
    cost = _pay(sheet, skill_cost(points))
    return sheet.model_copy(
        update={"skills": {**sheet.skills, key: points + 1}, "xp": sheet.xp - cost}, deep=True
    )


def buy_ev(sheet: S, stat: str) -> S:
    """PK-21, PK-22: one more EV in `stat` (French or English name), which raises it by 1.

    >>> from jdr.systems.pokemon.sheet_files import load_example
    >>> bought = buy_ev(add_xp(load_example("trainer"), 6), "Volonté")
    >>> bought.evs, bought.xp
    ({'willpower': 2}, 0)
    """
    key = stat_id(stat)
    spent = sheet.evs.get(key, 0)
    if spent >= MAX_EVS_PER_STAT:
        reason = _("{stat} already has {limit} EVs, the most in one stat")
        raise RulesError(reason.format(stat=STAT_LABELS[key], limit=MAX_EVS_PER_STAT), "PK-22")
    if total_evs(sheet) >= MAX_EVS_TOTAL:
        reason = _("already {limit} EVs in all stats, the most there can be")
        raise RulesError(reason.format(limit=MAX_EVS_TOTAL), "PK-22")
    cost = _pay(sheet, ev_cost(total_evs(sheet)))
    return sheet.model_copy(
        update={"evs": {**sheet.evs, key: spent + 1}, "xp": sheet.xp - cost}, deep=True
    )


def buy_level(pokemon: Pokemon) -> Pokemon:
    """PK-21: the next level for `level + 1` XP.

    >>> from jdr.systems.pokemon.sheet_files import load_example
    >>> buy_level(load_example("pokemon"))
    Traceback (most recent call last):
    ...
    jdr.errors.RulesError: not enough XP: 6 needed, 4 left (PK-21)
    """
    cost = _pay(pokemon, level_cost(pokemon.level))
    return pokemon.model_copy(
        update={"level": pokemon.level + 1, "xp": pokemon.xp - cost}, deep=True
    )


def add_xp(sheet: S, amount: int) -> S:
    """A new sheet with `amount` XP more (an award, or the GM's own amount).

    >>> from jdr.systems.pokemon.sheet_files import load_example
    >>> add_xp(load_example("trainer"), scenario_award(True, False, True, False)).xp
    8
    """
    if amount < 0:
        raise InputError("xp", amount, "0..", _("an award is never negative"))
    return sheet.model_copy(update={"xp": sheet.xp + amount}, deep=True)


def scenario_award(vital_info: bool, role_play: bool, heroic: bool, had_failure: bool) -> int:
    """PK-23: a human's XP at the end of a scenario: 1, plus 1 for each thing that happened.

    >>> scenario_award(vital_info=True, role_play=True, heroic=False, had_failure=True)
    4
    """
    return 1 + sum((vital_info, role_play, heroic, had_failure))


def fight_award(defeated_level: int, won: bool) -> int:
    """PK-24: a Pokémon's XP after a fight against a Pokémon of `defeated_level`.

    The winner gets half that level, the loser a quarter (floor, at least 1 each).

    >>> fight_award(7, won=True), fight_award(7, won=False), fight_award(1, won=True)
    (3, 1, 1)
    """
    if defeated_level < 1:
        raise InputError("defeated_level", defeated_level, "1..", _("a level is at least 1"))
    return max(1, defeated_level // 2 if won else defeated_level // 4)


def _purchase(what: str) -> Purchase:
    for kind in PURCHASES:
        if fold(what) == kind:
            return kind
    raise UnknownNameError(_("purchase"), what, list(PURCHASES))


def _skill_key(sheet: Pokemon | Trainer, skill: str) -> str:
    """The sheet's own spelling of `skill` if it has it (case and accents ignored), else `skill`."""
    if not skill.strip():
        raise InputError("skill", skill, _("a skill name"), _("empty"))
    for known in sheet.skills:
        if fold(known) == fold(skill):
            return known
    return skill.strip()


def _pay(sheet: Pokemon | Trainer, cost: int) -> int:
    if sheet.xp < cost:
        reason = _("not enough XP: {cost} needed, {xp} left")
        raise RulesError(reason.format(cost=cost, xp=sheet.xp), "PK-21")
    return cost
