"""The flow of a Passion fight: rounds, the reveal, turns, the steps of an attack, wounds, ticking.

After every command `advance` writes what follows on its own, until the fight waits for a command:
a marker to choose, a turn to play, a roll to settle, a dodge, damage dice. It never waits for
nothing: a step nobody has to answer (no Violence dice to roll, a target that cannot soak) is
skipped.

>>> slot_key({"initiative": 5, "mobility": 2, "rank": 1})
(-5, -2, 1)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jdr.systems.passion.damage import DamageType, Resistance, cut_violence, resistance, wounds
from jdr.systems.passion.fight_rolls import ATTACK_KINDS, Script, resolved
from jdr.systems.passion.fight_state import choice_of, sides_left
from jdr.systems.passion.initiative import Entry, order, tick
from jdr.systems.passion.resolve import Resolution
from jdr.systems.protocol import Json


def slot_key(slot: Json) -> tuple[int, int, int]:
    """PS-9: highest initiative first, then the higher mobility, then the reveal's rank (which
    holds the roll-offs); a split attack's parts keep their fighter's rank (PS-13)."""
    return (-int(slot["initiative"]), -int(slot["mobility"]), int(slot["rank"]))


def reveal(script: Script) -> None:
    """PS-9: every standing fighter has chosen: reveal, order (roll-offs from the source)."""
    state = script.state
    sealed = state["sealed"]
    fighters = {name: f for name, f in state["fighters"].items() if not f["down"]}
    choices = {name: choice_of(fighter) or {} for name, fighter in fighters.items()}
    entries = [Entry(name, c["marker"], c["mobility"]) for name, c in choices.items()]
    result = order(entries, script.rng)
    shown: Json = {}
    for entry in entries:
        one = {
            "marker": entry.marker,
            "potential": choices[entry.name]["potential"],
            "mobility": entry.mobility,
            "initiative": entry.initiative,
        }
        if sealed:  # each choice opened with its salt, against its commitment
            fighter = fighters[entry.name]
            one["salt"] = fighter["secret"]["salt"]
            one["sealed"] = fighter["sealed"]
        shown[entry.name] = one
    slots = [
        {
            "name": name,
            "initiative": shown[name]["initiative"],
            "mobility": shown[name]["mobility"],
            "marker": shown[name]["marker"],
            "rank": rank,
            "part": None,
        }
        for rank, name in enumerate(result.names, start=1)
    ]
    event: Json = {
        "type": "markers_revealed",
        "round": state["round"],
        "fighters": shown,
        "order": list(result.names),
        "roll_offs": result.roll_offs,
        "slots": slots,
    }
    if sealed:
        event["unsealed"] = [fighter["sealed"] for fighter in fighters.values()]
    script.emit(event)


def advance(script: Script) -> None:
    """Write what follows until the fight waits for a command (or is over). The slots of fighters
    who are down, and the parts of a split whose target is down, are dropped."""
    while True:
        state = script.state
        if state["over"] or state["waiting"]:
            return
        if state["action"] is not None:
            if not _continue_action(script):
                _end_action(script)
            continue
        if state["phase"] == "markers" or state["turn"] is not None:
            return
        sides = sides_left(state)
        if len(sides) <= 1:
            script.emit({"type": "fight_over", "winner": sides[0] if sides else None})
            return
        fighters = state["fighters"]
        slots = [s for s in state["slots"] if _playable(fighters, s)]
        if not slots:
            _end_round(script)
            return
        slot = slots[0]
        script.emit(
            {
                "type": "turn_started",
                "name": slot["name"],
                "round": state["round"],
                "slot": slot,
                "slots": slots[1:],
            }
        )
        return


def _playable(fighters: Json, slot: Json) -> bool:
    """A slot is played when its fighter stands, and for a split's part, its target too."""
    part = slot["part"]
    return not fighters[slot["name"]]["down"] and (
        part is None or not fighters[part["target"]]["down"]
    )


def start_round(script: Script) -> None:
    script.emit({"type": "round_started", "round": script.state["round"] + 1})


def _end_round(script: Script) -> None:
    """PS-12: every marker used is ticked off after a failure or when ≥ the mobility potential
    (never the last); then a new round."""
    for name, fighter in script.state["fighters"].items():
        if fighter["down"] or fighter["marker"] is None:
            continue
        done = tick(fighter["available"], fighter["marker"], fighter["mobility"], fighter["failed"])
        if done.reasons:
            script.emit(
                {
                    "type": "marker_ticked" if done.ticked else "marker_kept",
                    "name": name,
                    "marker": done.marker,
                    "reasons": list(done.reasons),
                    "kept_last": done.kept_last,
                    "available": list(done.available),
                }
            )
    start_round(script)


def _continue_action(script: Script) -> bool:
    """The next step of the action in progress; False when it has none left."""
    action: Json = script.state["action"]
    if action["kind"] == "action":
        return False
    results = action["results"]
    for target in action["targets"]:
        if target not in results:
            script.emit(
                {
                    "type": "waiting",
                    "for": "dodge",
                    "actor": target,
                    "target": target,
                    "attacker": action["actor"],
                    "difficulty": action["score"],
                    "npc_energy": action["npc_bonus"],
                }
            )
            return True
    for target in action["targets"]:
        result = results[target]
        if result["done"]:
            continue
        if not result["violence_chosen"]:
            script.emit(
                {
                    "type": "waiting",
                    "for": "violence",
                    "actor": action["actor"],
                    "target": target,
                    "max_dice": result["violence_dice"],
                }
            )
            return True
        if not result["robustness_chosen"]:
            script.emit(
                {
                    "type": "waiting",
                    "for": "soak",
                    "actor": target,
                    "target": target,
                    "max_dice": result["robustness_dice"],
                }
            )
            return True
        _wound(script, action, target, result)
        return True
    return False


def damage_roll(data: Json | None) -> Resolution | None:
    """A settled damage roll as the hit keeps it (`dice`, `passion`, `npc_passion`), counted by
    `resolve` (PS-5, PS-7, PS-16); None when none was rolled."""
    if data is None:
        return None
    positives, negatives = data["dice"]
    return resolved((positives, negatives), 0, 0, False, data["passion"], 0, data["npc_passion"])


def _wound(script: Script, action: Json, target: str, result: Json) -> None:
    """PS-16: the wounds of one hit, every step in the event; down when they reach the Énergie
    maximum (the tool's reading, by analogy with objects)."""
    hit = wounds(
        result["damage"],
        result["resistance"],
        damage_roll(result["violence"]),
        damage_roll(result["robustness"]),
        weapon_energy=result["violence_energy"],
        protection_energy=result["robustness_energy"],
    )
    fighter = script.fighter(target)
    steps = hit.steps()
    total = fighter["wounds"] + steps["wounds"]
    event = {"type": "wounded", "name": target, "by": action["actor"]}
    event["damage_type"] = result["damage_type"]
    event.update(steps)
    event["total"] = total
    script.emit(event)
    if steps["wounds"] and total >= fighter["energy_max"]:
        script.emit({"type": "fighter_down", "name": target, "wounds": total})


def _end_action(script: Script) -> None:
    """The action is over: it failed (PS-12) when the roll failed — or, with the table's setting,
    was a status quo; an attack the targets dodged fails when it hit none of them."""
    state = script.state
    action: Json = state["action"]
    if action["roller"] == "defenders":
        failed = not any(r["hit"] for r in action["results"].values())
    else:
        result = action["outcome"]
        failed = result == "failure" or (
            result == "status_quo" and bool(state["settings"]["status_quo_ticks"])
        )
    script.emit(
        {
            "type": "action_ended",
            "actor": action["actor"],
            "kind": action["kind"],
            "participants": list(action["participants"]),
            "failed": failed,
        }
    )


def hit_fields(state: Json, action: Json, target: str) -> Json:
    """The `target_hit` fields: the damage, the target's resistance (PS-16), the Violence dice
    the attacker may roll (a player only; an NPC target cuts them by its Robustesse) and the
    Robustesse dice the target may roll (a player only: the GM never rolls); whether the weapon
    and the protections that count have Énergie left to spend (the steps are asked then too)."""
    defender = state["fighters"][target]
    kind = action["damage_type"]
    resisted, robustness, soak_energy = defence(defender, kind)
    violence, energy_left = 0, False
    if action["roller"] == "attacker":
        violence = action["violence"]
        if defender["npc"] and state["settings"]["npc_cuts_violence"]:
            violence = cut_violence(violence, robustness)
        for weapon in state["fighters"][action["actor"]]["weapons"]:
            if weapon["name"] == action["weapon"]:
                energy_left = bool(weapon["energy"])
                break
    return {
        "damage": action["damage"],
        "damage_type": kind,
        "resistance": resisted.total,
        "resistance_terms": {"potential": resisted.potential, "protections": resisted.protections},
        "violence_dice": violence,
        "robustness_dice": 0 if defender["npc"] else robustness,
        "protection_energy_left": soak_energy and not defender["npc"],
        "weapon_energy": bool(action["weapon_bonus"]),
        "weapon_energy_left": energy_left,
    }


def defence(defender: Json, kind: DamageType) -> tuple[Resistance, int, bool]:
    """PS-15, PS-16: against damage of type `kind`, the defender's resistance, the Robustesse
    dice of its protections that count against it, and whether one of those has Énergie left;
    a protection at 0 Énergie is gone (PS-15) and counts for nothing.

    >>> kaito = {"potentials": {"Corps": 3, "Esprit": 1}, "talents": {},
    ...          "uses": {"body": "Corps", "mind": "Esprit"}, "protections": [
    ...              dict(type="physique", score=2, robustness=1, energy=2),
    ...              dict(type="mental", score=4, robustness=0, energy=0)]}
    >>> resisted, robustness, energy = defence(kaito, "physique")
    >>> resisted.total, robustness, energy, defence(kaito, "mental")[0].total
    (5, 1, True, 1)
    """
    worn = tuple(
        (p["type"], p["score"], p["robustness"], p["energy"]) for p in defender["protections"]
    )
    return _defence(kind, _role(defender, "body"), _role(defender, "mind"), worn)


@lru_cache(maxsize=1024)
def _defence(
    kind: DamageType, body: int, mind: int, worn: tuple[tuple[str, int, int, int | None], ...]
) -> tuple[Resistance, int, bool]:
    """`defence` of plain values (each protection's type, score, Robustesse and Énergie), kept
    for the process (a `Resistance` is frozen): a fight weighs the same few again and again."""
    protections: dict[str, int] = {}
    robustness, soak_energy = 0, False
    for kind_worn, score, dice, energy in worn:
        if energy is not None and energy < 1:
            continue  # PS-15: at 0 the protection is gone
        protections[kind_worn] = protections.get(kind_worn, 0) + score
        if counts_against(kind_worn, kind):
            robustness += dice
            soak_energy = soak_energy or bool(energy)
    return resistance(kind, body, mind, protections), robustness, soak_energy


def counts_against(protection: str, damage: str) -> bool:
    """PS-16: a protection counts against damage of its type; a physical one against energy
    damage too (for half its score).

    >>> counts_against("physique", "energetique"), counts_against("mental", "physique")
    (True, False)
    """
    return protection == damage or (damage == "energetique" and protection == "physique")


def _role(fighter: Json, role: str) -> int:
    name = fighter["uses"][role]
    value: Any = fighter["potentials"].get(name)
    if value is None:
        value = fighter["talents"].get(name, 0)
    return int(value)


def target_results(script: Script, action: Json, targets: list[str], hit: bool) -> None:
    """`target_hit` or `target_missed` for each target, in order."""
    for target in targets:
        if hit:
            event = {"type": "target_hit", "attacker": action["actor"], "target": target}
            event.update(hit_fields(script.state, action, target))
            script.emit(event)
        else:
            script.emit({"type": "target_missed", "attacker": action["actor"], "target": target})


def after_settle(script: Script, settled: Json) -> None:
    """What a settled roll decides: hits for an attack roll (a success touches), for a dodge the
    opposite (a dodge needs a success)."""
    action: Json | None = script.state["action"]
    if action is None:
        return
    if settled["kind"] in ATTACK_KINDS:
        target_results(script, action, list(action["targets"]), settled["outcome"] == "success")
    elif settled["kind"] == "dodge":
        target_results(script, action, [settled["roller"]], settled["outcome"] != "success")
