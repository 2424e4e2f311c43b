"""Rolls in a Passion fight: the dice, then the pools, then the count (PS-2 … PS-7, PS-17).

Every roll is two commands: the one that rolls (`attack`, `dodge`, `violence` …) emits
`roll_made` with every face; the roller then answers `settle` with the pools it spends after
seeing the dice (PS-5), after any NPC opponent spent Passion (`npc_passion`, PS-7). The count is
`resolve()`'s (PS-3 … PS-7); an item's Énergie point (PS-14, PS-15) adds one positive on top.

`Script` is how a decision writes events: each one is appended *and* folded at once, so the next
check sees its effect.

>>> from jdr.dice import GivenFaces
>>> counted = count({"dice_positives": 3, "dice_negatives": 0, "difficulty": 6, "talent": 4,
...                  "npc_energy": 0, "energy_die": False, "npc_passion": 0}, False, 0, False)
>>> counted[0].negatives, counted[1], counted[2]
(2, 1, 'success')
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jdr.errors import RulesError
from jdr.fights.script import Script as BaseScript
from jdr.i18n import _
from jdr.systems.passion.fight_state import evolve, item, score
from jdr.systems.passion.pool import read_dice, roll_dice
from jdr.systems.passion.resolve import Resolution, outcome, resolve
from jdr.systems.passion.xp import apply_xp, xp_delta
from jdr.systems.protocol import Json

ATTACK_KINDS = ("attack", "blast", "combined")
"""Rolls of an attacker against its targets' defenses (PS-11, PS-13)."""
DAMAGE_KINDS = ("violence", "robustness")
"""Damage dice (PS-14, PS-15): no difficulty, no talent, no Énergie."""


class Script(BaseScript):
    """The events of one decision, each folded into `state` as soon as it is written."""

    def evolve(self, state: Json, event: Json) -> Json:
        return evolve(state, event)

    def emit(self, event: Json) -> None:
        """Write `event` and fold it into the state (`fight_state.evolve`)."""
        self.events.append(event)
        self.state = evolve(self.state, event)

    def fighter(self, name: str) -> Json:
        found: Json = self.state["fighters"][name]
        return found


def spend(
    script: Script, name: str, pool: str, amount: int, use: str, on: str | None = None
) -> None:
    """A `pool_spent` event: `pool` is `passion` or `energy`; `on` an item's name (its Énergie)."""
    if amount > 0:
        script.emit(
            {"type": "pool_spent", "name": name, "pool": pool, "item": on, "amount": amount}
            | {"use": use}
        )


def roll(
    script: Script,
    roller: str,
    kind: str,
    dice: str,
    *,
    target: str | None = None,
    talent_name: str | None = None,
    talent: int = 0,
    difficulty: int = 0,
    npc_energy: int = 0,
    energy_die: bool = False,
) -> None:
    """Roll `dice` for `roller` (the checks are done): `roll_made`, and the fight waits for the
    roller's `settle`. An Énergie point standing in for a die (PS-10) is spent first."""
    read = read_dice(dice)
    if energy_die:
        spend(script, roller, "energy", 1, "die")
    rolled = roll_dice(read.pool, script.rng)
    script.emit(
        {
            "type": "roll_made",
            "roller": roller,
            "kind": kind,
            "target": target,
            "dice": read.notation,
            "faces": rolled.faces,
            "marks": rolled.marks,
            "dice_positives": rolled.positives,
            "dice_negatives": rolled.negatives,
            "difficulty": difficulty,
            "talent_name": talent_name,
            "talent": talent,
            "npc_energy": npc_energy,
            "energy_die": energy_die,
            "round": script.state["round"],
        }
    )


def count(
    rolled: Json, energy: bool, passion: int, with_item: bool, cancelled: int = 0
) -> tuple[Resolution, int, str]:
    """PS-3 … PS-7 through `resolve`, + 1 positive for an item's Énergie: the resolution, the
    margin and the outcome; `cancelled`: positives the NPCs' Passion would cancel on top."""
    return _count(
        rolled["dice_positives"],
        rolled["dice_negatives"],
        rolled["difficulty"],
        rolled["talent"],
        energy or rolled["energy_die"],
        passion,
        rolled["npc_energy"],
        rolled["npc_passion"] + cancelled,
        with_item,
    )


@lru_cache(maxsize=4096, typed=True)
def _count(
    positives: int,
    negatives: int,
    difficulty: int,
    talent: int,
    energy: bool,
    passion: int,
    npc_energy: int,
    npc_passion: int,
    with_item: bool,
) -> tuple[Resolution, int, str]:
    """`count` of plain numbers, kept for the process: a fight, and the tactic weighing its
    pools, count the same few rolls again and again."""
    resolution = resolved(
        (positives, negatives), difficulty, talent, energy, passion, npc_energy, npc_passion
    )
    margin = resolution.margin + int(with_item)
    return resolution, margin, outcome(margin)


@lru_cache(maxsize=4096, typed=True)
def resolved(
    dice: tuple[int, int],
    difficulty: int,
    talent: int,
    energy: bool,
    passion: int,
    npc_energy: int,
    npc_passion: int,
) -> Resolution:
    """`resolve`, kept for the process (a `Resolution` is frozen)."""
    return resolve(
        dice,
        difficulty=difficulty,
        talent=talent,
        energy=energy,
        passion=passion,
        npc_energy=npc_energy,
        npc_passion=npc_passion,
    )


def _flag(command: Json, key: str) -> bool:
    value = command.get(key, False)
    if not isinstance(value, bool):
        raise RulesError(_("{key} is true or false").format(key=key), "PS-5")
    return value


def _points(value: Any, key: str, rule: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulesError(_("{key} is a whole number ≥ 0").format(key=key), rule)
    return value


def settle_item(state: Json, rolled: Json, name: Any) -> str | None:
    """PS-14, PS-15: the item whose Énergie point adds a positive: the attack's weapon on an
    attack roll, one of the dodger's protections on a dodge; it needs Énergie left."""
    if name is None:
        return None
    roller = state["fighters"][rolled["roller"]]
    if rolled["kind"] in ATTACK_KINDS:
        kind, rule = "weapons", "PS-14"
        weapon = state["action"]["weapon"]
        if weapon is None:
            raise RulesError(_("this attack uses no weapon"), rule)
        found = item(roller, kind, name)
        if found is None or found["name"] != weapon:
            raise RulesError(
                _("only the attack's weapon ({weapon}) adds to this roll").format(weapon=weapon),
                rule,
            )
    elif rolled["kind"] == "dodge":
        kind, rule = "protections", "PS-15"
        found = item(roller, kind, name)
        if found is None:
            known = ", ".join(p["name"] for p in roller["protections"]) or "-"
            raise RulesError(
                _("{name} has no protection {item} (known: {known})").format(
                    name=rolled["roller"], item=name, known=known
                ),
                rule,
            )
    else:
        raise RulesError(_("no item adds to a damage roll here"), "PS-14")
    if found["energy"] is None or found["energy"] < 1:
        raise RulesError(
            _("{item} has no Énergie left: it is unusable").format(item=found["name"]), rule
        )
    return str(found["name"])


def settle(script: Script, command: Json) -> Json:
    """The roller's pools after seeing the dice (PS-5), then the count: `roll_settled`. Returns
    the settled event."""
    state = script.state
    rolled: Json = state["waiting"]["roll"]
    roller = rolled["roller"]
    fighter = state["fighters"][roller]
    energy = _flag(command, "energy")
    passion = _points(command.get("passion", 0), "passion", "PS-5")
    if energy and rolled["kind"] in DAMAGE_KINDS:
        raise RulesError(_("Énergie adds a positive to an action roll, not to damage dice"), "PS-5")
    if energy and rolled["energy_die"]:
        raise RulesError(
            _("one Énergie point a roll: it already stands in for a die (PS-10)"), "PS-5"
        )
    if energy and fighter["energy"] < 1:
        raise RulesError(_("{name} has no Énergie left").format(name=roller), "PS-5")
    if passion > fighter["passion"]:
        raise RulesError(
            _("{name} has {passion} Passion, not {asked}").format(
                name=roller, passion=fighter["passion"], asked=passion
            ),
            "PS-5",
        )
    with_item = settle_item(state, rolled, command.get("item"))
    resolution, margin, result = count(rolled, energy, passion, with_item is not None)
    left = resolution.negatives + resolution.cancelled_by_passion  # before Passion
    if passion > left:
        raise RulesError(
            _("only {left} negatives left to cancel: {asked} Passion would be wasted").format(
                left=left, asked=passion
            ),
            "PS-5",
        )
    if energy:
        spend(script, roller, "energy", 1, "roll")
    if passion:
        spend(script, roller, "passion", passion, "roll")
    if with_item is not None:
        spend(script, roller, "energy", 1, "roll", on=with_item)
    event: Json = {
        "type": "roll_settled",
        "roller": roller,
        "kind": rolled["kind"],
        "target": rolled["target"],
        "dice": rolled["dice"],
        "faces": rolled["faces"],
        "dice_positives": rolled["dice_positives"],
        "dice_negatives": rolled["dice_negatives"],
        "difficulty": rolled["difficulty"],
        "talent_name": rolled["talent_name"],
        "talent": rolled["talent"],
        "npc_energy": rolled["npc_energy"],
        "energy": energy or rolled["energy_die"],
        "passion": resolution.cancelled_by_passion,
        "npc_passion": rolled["npc_passion"],
        "item": with_item,
        "steps": resolution.steps(),
        "positives": resolution.positives + int(with_item is not None),
        "negatives": resolution.negatives,
        "margin": margin,
        "outcome": result,
    }
    script.emit(event)
    return event


def npc_passion(script: Script, npc: str, points: int) -> None:
    """PS-7: after the roll, an NPC opponent's Passion cancels positives the player got on the
    dice (never more than there are)."""
    rolled: Json = script.state["waiting"]["roll"]
    left = rolled["dice_positives"] - rolled["npc_passion"]
    if points > left:
        raise RulesError(
            _("only {left} positives on the dice left to cancel").format(left=left), "PS-7"
        )
    script.emit({"type": "npc_passion_spent", "name": npc, "amount": points})


def experience(script: Script, settled: Json) -> None:
    """PS-17, PS-18: the XP of the talent or potential used on a settled action roll (the score
    used — a split attack's part — against the negatives before rolling)."""
    name = settled["talent_name"]
    if name is None or settled["kind"] in DAMAGE_KINDS:
        return
    delta = xp_delta(
        settled["talent"], settled["difficulty"], settled["npc_energy"], settled["outcome"]
    )
    if not delta:  # no XP, no change (PS-17)
        return
    fighter = script.fighter(settled["roller"])
    found = score(fighter, name)
    if found is None:
        return
    key, level, potential = found
    for change in apply_xp(key, level, fighter["xp"].get(key, 0), delta, potential):
        script.emit(change | {"fighter": settled["roller"]})
