"""Experience (PS-17, PS-18) and buying increases (PS-19): pure functions on sheets.

Every function returns the new sheet and a list of **change records** (JSON dicts with a `type`,
the events a fight or a campaign log keeps); the sheet given is never changed.

- **PS-17** a success on a roll whose negatives before rolling (difficulty + the opponent's
  Énergie) were greater than the score used → +1 XP in that talent or potential; a failure on a
  roll where the score was greater than those negatives → −1 XP; a status quo changes nothing.
- **PS-18** XP above the level (a potential: above twice its level) → +1 level; XP down to −level
  (a potential: −2 × level) → −1 level; XP then restarts at 0; never below level 0.
- **PS-19** end-of-scenario points buy increases: 2 points a Passion point; the rest costs what the
  table sets (`Costs`).

>>> from jdr.systems.passion.sheet_files import load_example
>>> romuald = load_example("romuald")          # Crochetage 7, 2 XP
>>> xp_delta(score=7, difficulty=8, npc_energy=0, outcome="success")
1
>>> after, changes = record_roll(romuald, "crochetage", "success", difficulty=8)
>>> after.xp["Crochetage"], [c["type"] for c in changes]
(3, ['xp_changed'])

Where the rules are silent, this module reads them so:

- Change records: `xp_changed` (`name`, `delta`, `xp`), `level_changed` (`name`, `delta`,
  `level`, `xp`), `points_spent` (`amount`, `left`), `pool_raised` (`pool`, `max`, `current`).
- At level 0 a talent has no XP to lose: a −1 leaves it at level 0 with 0 XP.
- A purchase raises a talent or a potential by 1 and keeps its XP; a new talent may be bought
  (from 0 to 1), a new potential may not; a pool's maximum and current value both rise by 1.
- `Costs` are per point bought, one number each; a cost the table has not set is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from jdr.errors import RulesError, UnknownNameError
from jdr.i18n import N_, _
from jdr.systems.passion.sheets import Sheet, fold
from jdr.systems.protocol import Json

__all__ = [
    "PURCHASES",
    "Costs",
    "apply_xp",
    "buy",
    "gain",
    "record_roll",
    "threshold",
    "xp_delta",
]

Purchase = Literal["passion", "energy", "talent", "potential"]
PURCHASES: tuple[Purchase, ...] = ("passion", "energy", "talent", "potential")
PURCHASE_WORDS: dict[str, str] = {
    "passion": N_("Passion"),
    "energy": N_("Énergie"),
    "talent": N_("talent"),
    "potential": N_("potential"),
}
"""How a reader sees what is bought (`_()` of the word)."""
PASSION_COST = 2
"""PS-19: 2 end-of-scenario points buy 1 Passion point."""


def xp_delta(score: int, difficulty: int, npc_energy: int, outcome: str) -> int:
    """PS-17: +1, −1 or 0 XP for the score used on one roll.

    >>> xp_delta(4, 6, 0, "success"), xp_delta(4, 2, 1, "failure"), xp_delta(4, 6, 0, "failure")
    (1, -1, 0)
    >>> xp_delta(4, 3, 1, "success"), xp_delta(4, 6, 0, "status_quo")
    (0, 0)
    """
    before = difficulty + npc_energy
    if outcome == "success" and before > score:
        return 1
    if outcome == "failure" and score > before:
        return -1
    return 0


def threshold(level: int, potential: bool) -> int:
    """PS-18: a talent changes level past its level, a potential past twice its level.

    >>> threshold(3, potential=False), threshold(3, potential=True)
    (3, 6)
    """
    return level * (2 if potential else 1)


def apply_xp(name: str, level: int, xp: int, delta: int, potential: bool) -> list[Json]:
    """PS-18: the change records of `delta` XP on a score at `level` with `xp` already.

    >>> [c["type"] for c in apply_xp("Combat", 2, 2, 1, potential=False)]
    ['xp_changed', 'level_changed']
    >>> apply_xp("Combat", 2, -1, -1, potential=False)[-1]
    {'type': 'level_changed', 'name': 'Combat', 'delta': -1, 'level': 1, 'xp': 0}
    >>> [(c["type"], c["xp"]) for c in apply_xp("Corps", 2, -3, -1, potential=True)]
    [('xp_changed', -4), ('level_changed', 0)]
    """
    if delta == 0:
        return []
    new = xp + delta
    if level == 0:
        new = max(new, 0)
    changes: list[Json] = [{"type": "xp_changed", "name": name, "delta": delta, "xp": new}]
    bound = threshold(level, potential)
    if new > bound:
        changes.append(
            {"type": "level_changed", "name": name, "delta": 1, "level": level + 1, "xp": 0}
        )
    elif level > 0 and new <= -bound:
        changes.append(
            {"type": "level_changed", "name": name, "delta": -1, "level": level - 1, "xp": 0}
        )
    return changes


def _updated(sheet: Sheet, **changes: Any) -> Sheet:
    """A new sheet with `changes`, checked again."""
    return Sheet.model_validate(sheet.model_dump() | changes)


def gain(sheet: Sheet, name: str, delta: int) -> tuple[Sheet, list[Json]]:
    """`delta` XP in a talent or potential, with the level change it causes (PS-18).

    >>> from jdr.systems.passion.sheet_files import load_example
    >>> after, changes = gain(load_example("romuald"), "Crochetage", 6)
    >>> after.talents["Crochetage"], after.xp["Crochetage"], changes[-1]["type"]
    (8, 0, 'level_changed')
    """
    key = sheet.key(name)
    if key is None:
        raise UnknownNameError(_("talent"), name, [*sheet.talents, *sheet.potentials])
    potential = key in sheet.potentials
    level = sheet.score(key)
    changes = apply_xp(key, level, sheet.xp.get(key, 0), delta, potential)
    if not changes:
        return sheet, []
    xp = dict(sheet.xp)
    talents, potentials = dict(sheet.talents), dict(sheet.potentials)
    for change in changes:
        xp[key] = change["xp"]
        if change["type"] == "level_changed":
            (potentials if potential else talents)[key] = change["level"]
    return _updated(sheet, xp=xp, talents=talents, potentials=potentials), changes


def record_roll(
    sheet: Sheet, name: str, outcome: str, difficulty: int = 0, npc_energy: int = 0
) -> tuple[Sheet, list[Json]]:
    """PS-17 then PS-18: the experience of one roll made with the score `name` of `sheet`.

    >>> from jdr.systems.passion.sheet_files import load_example
    >>> after, changes = record_roll(load_example("romuald"), "Blast", "failure", difficulty=3)
    >>> after.xp["Blast"], changes
    (-1, [{'type': 'xp_changed', 'name': 'Blast', 'delta': -1, 'xp': -1}])
    """
    delta = xp_delta(sheet.score(name), difficulty, npc_energy, outcome)
    return gain(sheet, name, delta)


@dataclass(frozen=True)
class Costs:
    """PS-19: end-of-scenario points per point bought; `None`: the table has not set it."""

    passion: int = PASSION_COST
    energy: int | None = None
    talent: int | None = None
    potential: int | None = None

    def of(self, what: Purchase) -> int:
        cost: int | None = getattr(self, what)
        if cost is None:
            raise RulesError(
                _("the table sets what a point of {what} costs: give that cost").format(
                    what=_(PURCHASE_WORDS[what])
                ),
                "PS-19",
            )
        return cost


def buy(
    sheet: Sheet, what: str, name: str = "", costs: Costs | None = None
) -> tuple[Sheet, list[Json]]:
    """PS-19: one point of Passion, Énergie, a talent or a potential, paid in scenario points.

    >>> from jdr.systems.passion.sheet_files import load_example
    >>> rich = load_example("romuald").model_copy(update={"scenario_points": 3})
    >>> after, changes = buy(rich, "passion")
    >>> after.passion.max, after.scenario_points, [c["type"] for c in changes]
    (6, 1, ['points_spent', 'pool_raised'])
    >>> buy(after, "passion")
    Traceback (most recent call last):
    ...
    jdr.errors.RulesError: a point of Passion costs 2 scenario points, Romuald has 1 (PS-19)
    """
    if what not in PURCHASES:
        raise UnknownNameError(_("purchase"), what, list(PURCHASES))
    kind: Purchase = what
    cost = (costs or Costs()).of(kind)
    if cost > sheet.scenario_points:
        raise RulesError(
            _("a point of {what} costs {cost} scenario points, {name} has {points}").format(
                what=_(PURCHASE_WORDS[kind]),
                cost=cost,
                name=sheet.name,
                points=sheet.scenario_points,
            ),
            "PS-19",
        )
    left = sheet.scenario_points - cost
    changes: list[Json] = [{"type": "points_spent", "amount": cost, "left": left}]
    if kind in ("passion", "energy"):
        pool = sheet.passion if kind == "passion" else sheet.energy
        raised = {"current": pool.current + 1, "max": pool.max + 1}
        changes.append({"type": "pool_raised", "pool": kind, **raised})
        return _updated(sheet, scenario_points=left, **{kind: raised}), changes
    scores = dict(sheet.talents if kind == "talent" else sheet.potentials)
    key = next((k for k in scores if fold(k) == fold(name)), None)
    if key is None and (kind == "potential" or not name.strip() or sheet.key(name)):
        known = list(scores)
        raise UnknownNameError(_(PURCHASE_WORDS[kind]), name, known)
    key = key or name.strip()
    level = scores.get(key, 0) + 1
    scores[key] = level
    changes.append(
        {"type": "level_changed", "name": key, "delta": 1, "level": level}
        | {"xp": sheet.xp.get(key, 0)}
    )
    field = "talents" if kind == "talent" else "potentials"
    return _updated(sheet, scenario_points=left, **{field: scores}), changes
