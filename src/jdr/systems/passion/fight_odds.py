"""The odds of a Passion fight's rolls (PS-2 … PS-16), as the fight resolves them.

A command that rolls (`attack`, `blast`, `combined_attack`, `action` by a player; `dodge`;
`violence`, `soak` with dice) writes one `roll_made` event whose numbers — the difficulty (the
targets' dodge scores, the attacker's score), the NPCs' Énergie announced before the roll, the
talent (the sheet's, a split's part), an Énergie point standing in for a die — do not depend on
its faces. So the odds ask the decider itself: it decides the command on faces that do not
matter, and the roll it writes is counted by `odds.roll_odds` (the exact engine of `jdr odds
passion action`), with the same `Conditions.resolve` the fight counts with. No rule is written
twice: whatever the fight reads of the state, the odds read the same way.

The outcome is the roll's before the pools its roller spends after seeing the dice (PS-5), and
an NPC's Passion then (PS-7): those are choices still to make, and the formula says so. An NPC's
attack rolls nothing (its targets dodge: their `dodge` has the odds); a split attack only
declares its parts (each part's `attack` has them). A Violence or Robustesse roll also gives the
wounds the hit then deals for each of its margins (PS-16, `damage.wound_count`).

>>> from jdr.dice import GivenFaces
>>> from jdr.fights import play
>>> from jdr.systems.passion.fight import fight_rules
>>> from jdr.systems.passion.sheet_files import example_path
>>> import tomllib
>>> def sheet(name, side):
...     return tomllib.loads(example_path(name).read_text("utf-8")) | {"side": side}
>>> state = play(fight_rules(), {"fighters": [sheet("romuald", "heroes"),
...     sheet("cyber-ninja", "ninjas")]}, [
...     {"action": "choose_marker", "actor": "Romuald", "marker": 2},
...     {"action": "choose_marker", "actor": "Cyber-ninja", "marker": 0}], GivenFaces([])).state
>>> odds = roll_command_odds(state, "Romuald", "attack", {"target": "Cyber-ninja", "dice": "2d6"})
>>> odds.said()
'chance to hit 13.89 %'
>>> print(odds.formula[1])
difficulty 6: Cyber-ninja's dodge 6
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from jdr.errors import JdrError, LimitError
from jdr.fights.odds import Chance, CommandOdds, CommandOddsFn
from jdr.i18n import N_, _
from jdr.systems.passion.damage import kind_words, type_word
from jdr.systems.passion.fight import fight_rules
from jdr.systems.passion.fight_state import item, score
from jdr.systems.passion.params import Conditions
from jdr.systems.protocol import Json

__all__ = [
    "MEASURES",
    "odds_of",
    "roll_chance",
    "roll_command_odds",
    "roll_outcome_of",
]

ATTACKS = ("attack", "blast", "combined")
MEASURES = {
    "attack": N_("chance to hit"),
    "blast": N_("chance to hit"),
    "combined": N_("chance to hit"),
    "action": N_("chance of success"),
    "dodge": N_("chance to dodge"),
    "violence": N_("chance to add damage"),
    "robustness": N_("chance to reduce the wounds"),
}
"""What P(success) of each kind of roll measures (PS-6, PS-11, PS-14, PS-15)."""
_HIT = {
    "success": N_("hit"),
    "status_quo": N_("status quo: no hit"),
    "failure": N_("failure: no hit"),
}
NAMES: dict[str, dict[str, str]] = {
    "attack": _HIT,
    "blast": _HIT,
    "combined": _HIT,
    "action": {
        "success": N_("success"),
        "status_quo": N_("status_quo"),
        "failure": N_("failure"),
    },
    "dodge": {
        "success": N_("dodged"),
        "status_quo": N_("status quo: hit"),
        "failure": N_("failure: hit"),
    },
    "violence": {
        "success": N_("more damage"),
        "status_quo": N_("status quo: no change"),
        "failure": N_("less damage"),
    },
    "robustness": {
        "success": N_("fewer wounds"),
        "status_quo": N_("status quo: no change"),
        "failure": N_("failure: no change"),
    },
}
"""Each outcome of PS-6 as the roll's kind reads it."""


class _AnyFaces:
    """A source whose faces do not matter: the roll's numbers are written before its faces."""

    def faces(self, size: int, count: int) -> list[int]:
        return [1] * count


def decided_roll(
    state: Json, actor: str, name: str, keys: Mapping[str, Any]
) -> tuple[Json, Json | None, Json] | None:
    """The `roll_made` event (its faces aside), the `action_started` event if any, and the state
    after them, that the fight writes when `actor` plays command `name` with `keys`; None when it
    rolls nothing or refuses the command."""
    if not state or state.get("over"):
        return None
    command = {"action": name, "actor": actor, **keys}
    try:
        events, after = fight_rules().decided(state, command, _AnyFaces())
    except JdrError:
        return None
    rolled = next((e for e in events if e["type"] == "roll_made"), None)
    if rolled is None:
        return None
    plan = next((e for e in events if e["type"] == "action_started"), None)
    return rolled, plan, after


def conditions(rolled: Json) -> Conditions:
    """What `resolve` counts a roll with before its pools (PS-3, PS-4, PS-7, PS-10)."""
    return Conditions(
        difficulty=int(rolled["difficulty"]),
        talent=int(rolled["talent"]),
        energy=bool(rolled["energy_die"]),
        npc_energy=int(rolled["npc_energy"]),
    )


@cache
def _odds(dice: str, met: Conditions, exact: bool) -> Any:
    from jdr.systems.passion.odds import roll_odds
    from jdr.systems.passion.pool import parse_dice

    try:
        return roll_odds(parse_dice(dice), met, exact)
    except LimitError:  # too large to count in whole numbers: the same law in floats
        return roll_odds(parse_dice(dice), met, False)


def roll_chance(rolled: Json) -> Chance:
    """The roller's chance of success with a roll's dice and numbers, before its pools, named
    (what a recap prints beside a `roll_made`)."""
    found = _odds(str(rolled["dice"]), conditions(rolled), True)
    return Chance(found.outcomes["success"], MEASURES[rolled["kind"]])


def roll_command_odds(
    state: Json, actor: str, name: str, keys: Mapping[str, Any], exact: bool = True
) -> CommandOdds | None:
    """The odds of command `name` played by `actor` with `keys`: success, status quo and failure
    of its roll as the kind of roll reads them, the margin's distribution and the formula; None
    when it rolls nothing."""
    found = decided_roll(state, actor, name, keys)
    if found is None:
        return None
    rolled, plan, after = found
    law = _odds(str(rolled["dice"]), conditions(rolled), exact)
    kind = str(rolled["kind"])
    margins = dict(law.distribution)
    hurt = _hit(after, rolled)
    formula = roll_formula(state, rolled, plan)
    distribution, label = margins, N_("margin")
    if hurt is not None:
        distribution = wounds_law(hurt, kind, margins)
        label = LABELS[kind]
        formula.append(_wounds_formula(hurt, kind))
    return CommandOdds(
        dict(law.outcomes),
        "success",
        MEASURES[kind],
        NAMES[kind],
        formula=formula,
        distribution=distribution,
        label=label,
    )


LABELS = {
    "violence": N_("wounds before any Robustesse dice"),
    "robustness": N_("wounds"),
}
"""What the wounds' distribution of a damage roll counts (PS-16)."""


def _hit(after: Json, rolled: Json) -> Any:
    """The hit a damage roll adds to or soaks (PS-16, `damage.Wounds`), its Violence dice
    counted when rolled; None for an action roll."""
    from jdr.systems.passion.damage import wounds
    from jdr.systems.passion.fight_flow import damage_roll

    if rolled["kind"] not in LABELS:
        return None
    result = ((after.get("action") or {}).get("results") or {}).get(rolled["target"])
    if result is None or not result.get("hit"):
        return None
    return wounds(
        result["damage"],
        result["resistance"],
        damage_roll(result["violence"]),
        weapon_energy=result["violence_energy"],
        protection_energy=result["robustness_energy"],
    )


def wounds_law(hit: Any, kind: str, margins: Mapping[int, Any]) -> dict[int, Any]:
    """PS-16: the wounds for each margin of the damage dice: the Violence margin adds to damage −
    resistance (`kind` `violence`, before any Robustesse dice); a positive Robustesse margin
    takes off (`robustness`).

    >>> from jdr.systems.passion.damage import wounds
    >>> wounds_law(wounds(4, 5), "violence", {-1: 0.25, 1: 0.25, 2: 0.5})
    {0: 0.5, 1: 0.5}
    """
    from jdr.systems.passion.damage import wound_count

    law: dict[int, Any] = {}
    for margin, p in margins.items():
        if kind == "violence":
            count = wound_count(hit.base, margin)
        else:
            count = wound_count(hit.base, hit.violence_margin, margin)
        law[count] = law.get(count, 0) + p
    return dict(sorted(law.items()))


def _wounds_formula(hit: Any, kind: str) -> str:
    base = f"−{-hit.base}" if hit.base < 0 else str(hit.base)
    if kind == "violence":
        return _(
            "wounds: max(0, damage − resistance {base} + the Violence margin), less the"
            " Robustesse margin when positive (PS-16)"
        ).format(base=base)
    violence = hit.violence_margin
    return _(
        "wounds: max(0, damage − resistance {base} + Violence {violence}), less the Robustesse"
        " margin when positive (PS-16)"
    ).format(base=base, violence=f"−{-violence}" if violence < 0 else f"+{violence}")


def odds_of(name: str) -> CommandOddsFn:
    """Command `name`'s `odds` (`jdr.fights.commands.Command.odds`)."""

    def odds(state: Json, actor: str, keys: Mapping[str, Any], exact: bool) -> CommandOdds | None:
        return roll_command_odds(state, actor, name, keys, exact)

    return odds


def roll_outcome_of(events: Sequence[Json]) -> str | None:
    """The outcome of the roll one decision made, before its pools (PS-6): `success`,
    `status_quo`, `failure`; None when it rolled nothing."""
    for event in events:
        if event["type"] == "roll_made":
            dice = (int(event["dice_positives"]), int(event["dice_negatives"]))
            return conditions(event).resolve(dice).outcome
    return None


# --- the formula ------------------------------------------------------------------------------


def roll_formula(state: Json, rolled: Json, plan: Json | None) -> list[str]:
    """The roll's arithmetic in words, with its numbers (in the reader's language)."""
    kind = rolled["kind"]
    lines = [
        _(
            "{dice}: a die's highest face is 2 +, a 1 is 2 −, any other even face 1 +, odd"
            " face 1 − (PS-2)"
        ).format(dice=rolled["dice"])
    ]
    if kind not in ("violence", "robustness"):
        lines.append(_difficulty(state, rolled, plan))
        lines.append(
            _("{talent} {score} cancels up to {score} negatives (PS-4)").format(
                talent=rolled["talent_name"] or _("talents"), score=rolled["talent"]
            )
        )
    if rolled["energy_die"]:
        lines.append(_("+1 positive: an Énergie point stands in for a die (PS-10)"))
    lines.append(
        _(
            "a success when the positives outnumber the negatives (PS-6), before the Énergie,"
            " Passion and items spent after seeing the dice (PS-5, PS-7)"
        )
    )
    if plan is not None and kind in ATTACKS:
        lines.append(damage_formula(state, plan))
    return lines


def _difficulty(state: Json, rolled: Json, plan: Json | None) -> str:
    kind = rolled["kind"]
    terms: list[str] = []
    if kind in ATTACKS and plan is not None:
        for target in plan["targets"]:
            defender = state["fighters"][target]
            found = score(defender, defender["uses"]["dodge"])
            terms.append(
                _("{name}'s dodge {score}").format(name=target, score=found[1] if found else 0)
            )
    elif kind == "dodge":
        terms.append(_("the attacker's score {score}").format(score=rolled["difficulty"]))
    else:
        terms.append(_("set by the GM {score}").format(score=rolled["difficulty"]))
    if rolled["npc_energy"]:
        terms.append(_("{n} NPC Énergie (PS-7, PS-15)").format(n=rolled["npc_energy"]))
    total = int(rolled["difficulty"]) + int(rolled["npc_energy"])
    return _("difficulty {total}: {terms}").format(total=total, terms=" + ".join(terms))


def damage_terms(fighter: Json, weapon_name: str | None) -> str:
    """PS-14: a weapon's damage as it adds up: `Épée 2 + Corps 3`, `Blaster 4`; bare hands, the
    body potential."""
    weapon = item(fighter, "weapons", weapon_name) if weapon_name else None
    if weapon is None:
        body = fighter["uses"]["body"]
        value = int(fighter["potentials"].get(body, 0))
        return _("{potential} {score}, bare hands").format(potential=body, score=value)
    if weapon["potential"] is None:
        return f"{weapon['name']} {weapon['score']}"
    bonus = int(fighter["potentials"].get(weapon["potential"], 0))
    return f"{weapon['name']} {weapon['score']} + {weapon['potential']} {bonus}"


def damage_formula(state: Json, plan: Json) -> str:
    """The attack's damage and where it comes from (PS-13, PS-14)."""
    if plan["kind"] == "combined":
        terms = _("the damages of {names} added up (PS-13)").format(
            names=", ".join(plan["participants"])
        )
    else:
        terms = damage_terms(state["fighters"][plan["actor"]], plan["weapon"])
    return _("damage {damage} {type}: {terms}").format(
        damage=plan["damage"],
        type=type_word(plan["damage_type"]),
        kind=kind_words(plan["damage_type"]),
        terms=terms,
    )
