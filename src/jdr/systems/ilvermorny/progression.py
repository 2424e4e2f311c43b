"""Progression on a sheet: casting and studying give a spell XP and levels (IL-7 … IL-9), the GM
grants a first level (IL-8), each school year adds points (IL-4).

Every function is pure: it takes a sheet and returns a new one with the `Change`s made, each a
field's value before and after, so the GM can see and undo any of them (`revert`). A level gained
is two changes: the level, and the XP spent on it.

>>> from jdr.dice import GivenFaces
>>> from jdr.systems.ilvermorny.sheets import load_example
>>> mary = load_example()
>>> step = cast_from_sheet(mary, "Protego", GivenFaces([3]))
>>> step.cast.outcome, [change.kind for change in step.changes]
('success', ['xp_gained'])
>>> step = study_from_sheet(step.sheet, "Protego", 1, 0, GivenFaces([2, 5]))
>>> [(change.kind, change.before, change.after) for change in step.changes]
[('xp_gained', 11, 16)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from jdr.dice.source import RandomSource
from jdr.errors import InputError, RulesError
from jdr.i18n import _
from jdr.systems.ilvermorny.creation import YEARLY_POINTS
from jdr.systems.ilvermorny.rules import MAX_STAT, STAT_LABELS, STATS, stat_id
from jdr.systems.ilvermorny.sheets import Wizard
from jdr.systems.ilvermorny.spells import Cast, advance, cast_spell, check_learnt
from jdr.systems.ilvermorny.study import Study, study


@dataclass(frozen=True)
class Change:
    """One field of a sheet changed: a spell's `xp` or `level`, a stat, or the school `year`.

    `kind` says why (`xp_gained`, `xp_spent`, `level_gained`, `level_granted`, `stat_raised`,
    `year_passed`); `spell` names the spell for `xp` and `level`; `rule` is the rule's id.
    """

    kind: str
    field: str
    before: int
    after: int
    rule: str
    spell: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Step:
    """A new sheet and what changed; `cast` or `study` when a roll made the change."""

    sheet: Wizard
    changes: tuple[Change, ...]
    cast: Cast | None = None
    study: Study | None = None


def _with_spell(sheet: Wizard, index: int, **update: int) -> Wizard:
    spells = list(sheet.spells)
    spells[index] = spells[index].model_copy(update=update)
    return sheet.model_copy(update={"spells": spells})


def gain_xp(sheet: Wizard, spell: str, amount: int, rule: str) -> Step:
    """`amount` XP for `spell`, then every level it pays for (IL-8), as changes.

    >>> from jdr.systems.ilvermorny.sheets import load_example
    >>> step = gain_xp(load_example(), "Tarentallegra", 25, "IL-9")
    >>> [(c.kind, c.field, c.before, c.after) for c in step.changes]
    [('xp_gained', 'xp', 0, 25), ('level_gained', 'level', 1, 2), ('xp_spent', 'xp', 25, 15)]
    """
    if amount < 0:
        raise InputError("xp", amount, "0..", _("an award is never negative"))
    index = sheet.spell_index(spell)
    known = sheet.spells[index]
    xp = known.xp + amount
    changes = [Change("xp_gained", "xp", known.xp, xp, rule, known.name)]
    level = known.level
    for up in advance(known.level, xp, known.difficulty).level_ups:
        changes.append(Change("level_gained", "level", level, up.level, "IL-8", known.name))
        changes.append(Change("xp_spent", "xp", xp, xp - up.xp_spent, "IL-8", known.name))
        level, xp = up.level, xp - up.xp_spent
    return Step(_with_spell(sheet, index, xp=xp, level=level), tuple(changes))


def cast_from_sheet(sheet: Wizard, spell: str, rng: RandomSource) -> Step:
    """IL-6 with the sheet's Magie and the spell's level, then IL-7's XP and IL-8's levels."""
    known = sheet.spell(spell)
    cast = cast_spell(sheet.stats.magic, known.level, rng)
    step = gain_xp(sheet, known.name, cast.xp_gained, "IL-7")
    return Step(step.sheet, step.changes, cast=cast)


def study_from_sheet(
    sheet: Wizard, spell: str, hours: int, modifier: int, rng: RandomSource
) -> Step:
    """IL-9 with the sheet's Compréhension and Résolution; a spell at level 0 is not studied
    (XP buys no level 0 → 1, IL-8)."""
    known = sheet.spell(spell)
    check_learnt(known.level)
    done = study(sheet.stats.comprehension, sheet.stats.resolution, hours, modifier, rng)
    step = gain_xp(sheet, known.name, done.xp, "IL-9")
    return Step(step.sheet, step.changes, study=done)


def grant_level(sheet: Wizard, spell: str) -> Step:
    """IL-8: the GM grants level 1 after a role-played lesson; only from level 0. The XP the spell
    kept may then buy more levels at once.

    >>> from jdr.systems.ilvermorny.sheets import load_example
    >>> [c.kind for c in grant_level(load_example(), "stupefix").changes]
    ['level_granted']
    """
    index = sheet.spell_index(spell)
    known = sheet.spells[index]
    if known.level != 0:
        raise RulesError(
            _("{spell} is already at level {level}: only level 0 → 1 is granted").format(
                spell=known.name, level=known.level
            ),
            "IL-8",
        )
    granted = Change("level_granted", "level", 0, 1, "IL-8", known.name)
    step = gain_xp(_with_spell(sheet, index, level=1), known.name, 0, "IL-8")
    return Step(step.sheet, (granted, *step.changes[1:]))


def yearly_growth(sheet: Wizard, points: Mapping[str, int], gm_bonus: int = 0) -> Step:
    """IL-4: a school year adds 2 points to split (and any the GM adds); no stat above 10.

    >>> from jdr.systems.ilvermorny.sheets import load_example
    >>> step = yearly_growth(load_example(), {"magie": 1, "intuition": 1})
    >>> step.sheet.year, step.sheet.stats.magic, [c.kind for c in step.changes]
    (3, 8, ['stat_raised', 'stat_raised', 'year_passed'])
    """
    if gm_bonus < 0:
        raise InputError("gm_bonus", gm_bonus, "0..", _("the GM adds points, never takes them"))
    split = {_stat(name): amount for name, amount in points.items()}
    expected = YEARLY_POINTS + gm_bonus
    if any(amount < 0 for amount in split.values()) or sum(split.values()) != expected:
        raise RulesError(
            _("a school year gives {expected} points to split, {given} given").format(
                expected=expected, given=sum(split.values())
            ),
            "IL-4",
        )
    stats = sheet.stats.model_dump()
    changes = []
    for stat in STATS:
        if not split.get(stat):
            continue
        after = stats[stat] + split[stat]
        if after > MAX_STAT:
            raise RulesError(
                _("{stat} would be {value}: no stat above 10").format(
                    stat=_(STAT_LABELS[stat]), value=after
                ),
                "IL-4",
            )
        changes.append(Change("stat_raised", stat, stats[stat], after, "IL-4"))
        stats[stat] = after
    changes.append(Change("year_passed", "year", sheet.year, sheet.year + 1, "IL-4"))
    grown = sheet.model_copy(
        update={"stats": sheet.stats.model_copy(update=stats), "year": sheet.year + 1}
    )
    return Step(grown, tuple(changes))


def _stat(name: str) -> str:
    stat = stat_id(name)
    if stat is None:
        raise InputError(_("stat"), name, ", ".join(STATS), _("unknown stat"))
    return stat


def revert(sheet: Wizard, changes: Sequence[Change]) -> Wizard:
    """The sheet with `changes` undone, last first; refused when a field no longer shows the
    value a change left (something else changed it since).

    >>> from jdr.systems.ilvermorny.sheets import load_example
    >>> mary = load_example()
    >>> step = gain_xp(mary, "Tarentallegra", 25, "IL-9")
    >>> revert(step.sheet, step.changes) == mary
    True
    """
    for change in reversed(changes):
        sheet = _revert_one(sheet, change)
    return sheet


def _revert_one(sheet: Wizard, change: Change) -> Wizard:
    if change.spell:
        index = sheet.spell_index(change.spell)
        now = getattr(sheet.spells[index], change.field)
    elif change.field == "year":
        now = sheet.year
    else:
        now = sheet.stats.get(change.field)
    if now != change.after:
        raise RulesError(
            _("cannot undo {kind}: {field} is {now}, not {after} any more").format(
                kind=change.kind, field=change.field, now=now, after=change.after
            ),
            change.rule,
        )
    if change.spell:
        return _with_spell(sheet, index, **{change.field: change.before})
    if change.field == "year":
        return sheet.model_copy(update={"year": change.before})
    stats = sheet.stats.model_copy(update={change.field: change.before})
    return sheet.model_copy(update={"stats": stats})
