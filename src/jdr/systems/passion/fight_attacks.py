"""The turn's action in a Passion fight: attacks, special attacks, action rolls (PS-9 … PS-14).

An attack is declared (`action_started`): a player's is rolled at once against the targets' summed
dodge scores (PS-11, PS-13), after any NPC pools announced before the roll (PS-7, PS-15); an NPC's
waits for each target's dodge (the GM never rolls). Every check comes before the first event.

>>> PART_ACTIONS
('attack', 'pass')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from jdr.errors import RulesError
from jdr.fights.commands import as_list, key_label
from jdr.i18n import _
from jdr.systems.passion.damage import DamageType
from jdr.systems.passion.fight_commands import (
    check_standing,
    dice_count,
    fighter_name,
    flag,
    talent_of,
    whole,
)
from jdr.systems.passion.fight_flow import slot_key
from jdr.systems.passion.fight_keys import (
    NPC_ATTACK,
    PART_ACTIONS,
    PLAIN_COMMANDS,
    PLAYER_ROLL,
    Attack,
)
from jdr.systems.passion.fight_rolls import Script, roll, spend
from jdr.systems.passion.fight_state import find, in_fight, item, score
from jdr.systems.passion.initiative import check_min_dice
from jdr.systems.protocol import Json


def turn_actor(state: Json, command: Json, action: str) -> str:
    """Only the fighter whose turn it is acts; at a part's turn, only `attack` or `pass`."""
    if state["phase"] != "actions" or state["turn"] is None:
        raise RulesError(_("the fighters are choosing their markers"), "PS-9")
    actor = fighter_name(state, command.get("actor"))
    if actor != state["turn"]["name"]:
        raise RulesError(
            _("it is not {name}'s turn: {to_play} to play").format(
                name=actor, to_play=state["turn"]["name"]
            ),
            "PS-9",
        )
    if state["turn"]["part"] is not None and action not in PART_ACTIONS:
        raise RulesError(
            _("this turn is one attack of a split: attack its target, or pass"), "PS-13"
        )
    return actor


def _target(state: Json, actor: str, value: Any, rule: str) -> str:
    if value is None:
        others = [n for n in in_fight(state) if n != actor]
        raise RulesError(
            _("{name} needs a target: one of {names}").format(name=actor, names=", ".join(others)),
            rule,
        )
    name = fighter_name(state, value, rule)
    if name == actor:
        raise RulesError(_("{name} cannot attack itself").format(name=actor), rule)
    check_standing(state, name, rule)
    return name


def _targets(state: Json, actor: str, values: Any, rule: str, least: int) -> list[str]:
    values = as_list(values)
    if not isinstance(values, list) or len(values) < least:
        raise RulesError(_("name at least {count} targets").format(count=least), rule)
    names = [_target(state, actor, value, rule) for value in values]
    if len(set(names)) != len(names):
        raise RulesError(_("each target once"), rule)
    return names


def _defense(state: Json, target: str) -> int:
    """PS-11: the target's dodge score, the difficulty of an attack against it."""
    defender = state["fighters"][target]
    found = score(defender, defender["uses"]["dodge"])
    if found is None:
        raise RulesError(
            _("{name} has no dodge score {talent}").format(
                name=target, talent=defender["uses"]["dodge"]
            ),
            "PS-11",
        )
    return found[1]


def weapon_of(fighter: Json, value: Any) -> tuple[str | None, int, DamageType, int]:
    """PS-14: `(name, damage, type, violence)`; no weapon: the body potential, physical. An
    unknown weapon, or one at 0 Énergie (unusable), is a `RulesError`."""
    if value is None:
        return None, *weapon_damage(fighter, None)
    found = item(fighter, "weapons", value)
    if found is None:
        known = ", ".join(w["name"] for w in fighter["weapons"]) or "-"
        raise RulesError(
            _("{name} has no weapon {weapon} (known: {known})").format(
                name=fighter["name"], weapon=value, known=known
            ),
            "PS-14",
        )
    if found["energy"] is not None and found["energy"] < 1:
        raise RulesError(
            _("{item} has no Énergie left: it is unusable").format(item=found["name"]), "PS-14"
        )
    return found["name"], *weapon_damage(fighter, found)


def weapon_damage(fighter: Json, weapon: Json | None) -> tuple[int, DamageType, int]:
    """PS-14: `(damage, type, violence)` of one of the fighter's weapons (None: bare hands, the
    body potential, physical); a melee weapon adds its potential to its score."""
    if weapon is None:
        return int(fighter["potentials"].get(fighter["uses"]["body"], 0)), "physique", 0
    bonus = 0
    if weapon["potential"] is not None:
        bonus = int(fighter["potentials"].get(weapon["potential"], 0))
    return weapon["score"] + bonus, weapon["type"], weapon["violence"]


def _npc_energy(state: Json, actor: str, command: Json, targets: list[str] | None) -> list[str]:
    """PS-7: NPCs spending 1 Énergie each before the player's roll: +1 to their score. On an
    attack they are its targets; on another action any NPC of another side."""
    names = command.get("npc_energy", [])
    if isinstance(names, str):  # as people type them (`as_list`)
        names = as_list(names)
    if not isinstance(names, list):
        raise RulesError(_("npc_energy lists NPC names"), "PS-7")
    found = [fighter_name(state, n, "PS-7") for n in names]
    for name in found:
        npc = state["fighters"][name]
        allowed = name in targets if targets is not None else True
        if not npc["npc"] or npc["side"] == state["fighters"][actor]["side"] or not allowed:
            raise RulesError(_("{name} is not an NPC opposing this roll").format(name=name), "PS-7")
        if npc["energy"] < 1:
            raise RulesError(_("{name} has no Énergie left").format(name=name), "PS-7")
    if len(set(found)) != len(found):
        raise RulesError(_("one Énergie point per NPC and roll"), "PS-7")
    return found


def _npc_protection(state: Json, command: Json, targets: list[str]) -> list[tuple[str, str]]:
    """PS-15: an NPC target spends 1 Énergie of a protection before the roll: +1 to its dodge."""
    given = command.get("npc_protection", {})
    if not isinstance(given, dict):
        raise RulesError(_("npc_protection maps NPC names to protections"), "PS-15")
    spent = []
    for value, protection in given.items():
        name = fighter_name(state, value, "PS-15")
        npc = state["fighters"][name]
        if not npc["npc"] or name not in targets:
            raise RulesError(
                _("{name} is not an NPC target of this attack").format(name=name), "PS-15"
            )
        found = item(npc, "protections", protection)
        if found is None or found["energy"] is None or found["energy"] < 1:
            raise RulesError(
                _("{name} has no protection {item} with Énergie left").format(
                    name=name, item=protection
                ),
                "PS-15",
            )
        spent.append((name, str(found["name"])))
    return spent


def _min_dice(state: Json, actor: str) -> int:
    turn = state["turn"]
    if turn["part"] is not None:
        return int(turn["part"]["marker"])
    return int(state["fighters"][actor]["marker"])


def _declare(script: Script, plan: Json, command: Json) -> None:
    """An attack (single, part, blast, combined): a player rolls against the summed defenses
    (PS-11, PS-13); an NPC's targets dodge in turn, the GM never rolls. `plan`, the
    `action_started` event (a dict of the caller's own), gets who rolls and the pools spent."""
    state = script.state
    actor = plan["actor"]
    fighter = state["fighters"][actor]
    if fighter["npc"]:
        if not PLAYER_ROLL.isdisjoint(command):
            raise RulesError(
                _("the GM never rolls: the targets dodge ({keys} not for an NPC)").format(
                    keys=", ".join(sorted(PLAYER_ROLL.intersection(command)))
                ),
                "PS-11",
            )
        energy = flag(command, "energy", "PS-7")
        if energy and fighter["energy"] < 1:
            raise RulesError(_("{name} has no Énergie left").format(name=actor), "PS-7")
        use = command.get("weapon_energy")
        if use not in (None, "roll", "damage"):
            raise RulesError(_("weapon_energy is roll or damage"), "PS-14")
        if use is not None:
            weapon = item(fighter, "weapons", plan["weapon"]) if plan["weapon"] else None
            if weapon is None or weapon["energy"] is None or weapon["energy"] < 1:
                raise RulesError(_("no weapon with Énergie left to spend"), "PS-14")
        plan["roller"] = "defenders"
        plan["npc_bonus"] = int(energy) + int(use == "roll")
        plan["weapon_bonus"] = int(use == "damage")
        script.emit(plan)
        spend(script, actor, "energy", int(energy), "score")
        if use is not None:
            spend(script, actor, "energy", 1, use, on=plan["weapon"])
        return
    if not NPC_ATTACK.isdisjoint(command):
        raise RulesError(
            _("a player spends its pools after seeing the dice: {settle} ({keys})").format(
                settle=_shown("settle"), keys=", ".join(_keys(NPC_ATTACK.intersection(command)))
            ),
            "PS-5",
        )
    dice, count = dice_count(command)
    energy_die = flag(command, "energy_die", "PS-10")
    check_min_dice(count, plan["min_dice"], energy_die)
    if energy_die and fighter["energy"] < 1:
        raise RulesError(_("{name} has no Énergie left").format(name=actor), "PS-10")
    difficulty = sum(_defense(state, target) for target in plan["targets"])
    npcs = _npc_energy(state, actor, command, plan["targets"])
    shields = _npc_protection(state, command, plan["targets"])
    plan.update(roller="attacker", npc_bonus=0, weapon_bonus=0)
    script.emit(plan)
    for name in npcs:
        spend(script, name, "energy", 1, "score")
    for name, protection in shields:
        spend(script, name, "energy", 1, "dodge", on=protection)
    roll(
        script,
        actor,
        plan["kind"],
        dice,
        target=plan["targets"][0] if len(plan["targets"]) == 1 else None,
        talent_name=plan["talent"],
        talent=plan["score"],
        difficulty=difficulty,
        npc_energy=len(npcs) + len(shields),
        energy_die=energy_die,
    )


def _plan(
    state: Json, kind: str, actor: str, targets: list[str], talent: tuple[str | None, int]
) -> Json:
    return {
        "type": "action_started",
        "kind": kind,
        "actor": actor,
        "participants": [actor],
        "targets": targets,
        "talent": talent[0],
        "score": talent[1],
        "min_dice": _min_dice(state, actor),
        "part": state["turn"]["part"] is not None,
        "round": state["round"],
    }


def attack(script: Script, actor: str, command: Json) -> None:
    """One attack against one target (PS-10, PS-11); at a part's turn, that part (PS-13)."""
    state = script.state
    fighter = state["fighters"][actor]
    part = state["turn"]["part"]
    if part is not None:
        target = _target(state, actor, command.get("target", part["target"]), "PS-13")
        if target != part["target"]:
            raise RulesError(
                _("this part of the split attacks {target}").format(target=part["target"]),
                "PS-13",
            )
        if command.get("talent") is not None:
            raise RulesError(_("a part's talent is set by the split"), "PS-13")
        talent = (part["talent"], int(part["score"]))
    else:
        target = _target(state, actor, command.get("target"), "PS-11")
        talent = talent_of(fighter, command.get("talent"), "PS-11")
    weapon, damage, kind, violence = weapon_of(fighter, command.get("weapon"))
    plan = _plan(state, "attack", actor, [target], talent)
    plan |= {"weapon": weapon, "damage": damage, "damage_type": kind, "violence": violence}
    _declare(script, plan, command)


def blast(script: Script, actor: str, command: Json) -> None:
    """PS-13: several enemies in one attack: one roll against their summed defenses."""
    state = script.state
    fighter = state["fighters"][actor]
    targets = _targets(state, actor, command.get("targets"), "PS-13", 2)
    talent = talent_of(fighter, command.get("talent"), "PS-13")
    weapon, damage, kind, violence = weapon_of(fighter, command.get("weapon"))
    plan = _plan(state, "blast", actor, targets, talent)
    plan |= {"weapon": weapon, "damage": damage, "damage_type": kind, "violence": violence}
    _declare(script, plan, command)


def combined_attack(script: Script, actor: str, command: Json) -> None:
    """PS-13: several fighters act together: talents add up, damages add up, the smallest marker
    is the minimum dice; one roll. The partners give up their turns of the round."""
    state = script.state
    partners = as_list(command.get("partners"))
    if not isinstance(partners, list) or not partners:
        raise RulesError(_("name the partners of the combined attack"), "PS-13")
    names = [fighter_name(state, p, "PS-13") for p in partners]
    side = state["fighters"][actor]["side"]
    waiting = {s["name"] for s in state["slots"] if s["part"] is None}
    for name in names:
        check_standing(state, name, "PS-13")
        if name == actor or state["fighters"][name]["side"] != side:
            raise RulesError(_("{name} is not a partner on this side").format(name=name), "PS-13")
        if name not in waiting:
            raise RulesError(_("{name} has already played this round").format(name=name), "PS-13")
    if len(set(names)) != len(names):
        raise RulesError(_("each partner once"), "PS-13")
    participants = [actor, *names]
    target = _target(state, actor, command.get("target"), "PS-13")
    talents = _mapping(command, "talents")
    weapons = _mapping(command, "weapons")
    total, damage, violence, kinds, used = 0, 0, 0, set(), None
    for name in participants:
        member = state["fighters"][name]
        total += talent_of(member, _value(talents, name, state), "PS-13")[1]
        weapon, hurt, kind, extra = weapon_of(member, _value(weapons, name, state))
        damage, violence = damage + hurt, violence + extra
        kinds.add(kind)
        used = weapon if name == actor else used
    if len(kinds) > 1:
        raise RulesError(_("a combined attack deals one type of damage"), "PS-13")
    plan = _plan(state, "combined", actor, [target], (None, total))
    plan |= {"participants": participants}
    plan |= {"min_dice": min(int(state["fighters"][n]["marker"]) for n in participants)}
    plan |= {"weapon": used, "damage": damage, "damage_type": kinds.pop(), "violence": violence}
    plan |= {
        "slots": [s for s in state["slots"] if s["part"] is not None or s["name"] not in names]
    }
    _declare(script, plan, command)


def _mapping(command: Json, key: str) -> dict[str, Any]:
    value = command.get(key, {})
    if not isinstance(value, dict):
        raise RulesError(_("{key} maps fighters to names").format(key=key), "PS-13")
    return value


def _value(mapping: dict[str, Any], name: str, state: Json) -> Any:
    for key, value in mapping.items():
        if find(state, key) == name:
            return value
    return None


def split_attack(script: Script, actor: str, command: Json) -> None:
    """PS-13: the talent and the marker split between several targets (parts sum to the whole);
    each part attacks at its own initiative (its marker part + mobility), its marker part as its
    minimum dice."""
    state = script.state
    fighter = state["fighters"][actor]
    talent, total = talent_of(fighter, command.get("talent"), "PS-13")
    parts = command.get("parts")
    if not isinstance(parts, list) or len(parts) < 2:
        raise RulesError(_("a split attack has at least two parts"), "PS-13")
    shares = []
    for part in parts:
        if not isinstance(part, dict) or set(part) - {"target", "talent", "marker"}:
            raise RulesError(_("each part is a table with target, talent and marker"), "PS-13")
        target = _target(state, actor, part.get("target"), "PS-13")
        shares.append((target, whole(part, "talent", "PS-13"), whole(part, "marker", "PS-13")))
    if len({t for t, _s, _m in shares}) != len(shares):
        raise RulesError(_("each target once"), "PS-13")
    marker, mobility = int(fighter["marker"]), int(fighter["mobility"])
    if sum(s for _t, s, _m in shares) != total or sum(m for _t, _s, m in shares) != marker:
        raise RulesError(
            _("the parts add up to the whole: talent {talent}, marker {marker}").format(
                talent=total, marker=marker
            ),
            "PS-13",
        )
    rank = state["turn"]["rank"]
    new = [
        {"name": actor, "initiative": m + mobility, "mobility": mobility, "marker": m}
        | {"rank": rank, "part": {"target": t, "talent": talent, "score": s, "marker": m}}
        for t, s, m in shares
    ]
    slots = sorted([*state["slots"], *new], key=slot_key)
    script.emit(
        {"type": "attack_split", "actor": actor, "round": state["round"], "talent": talent}
        | {"parts": [{"target": t, "talent": s, "marker": m} for t, s, m in shares]}
        | {"initiatives": [m + mobility for _t, _s, m in shares], "slots": slots}
    )


def action_roll(script: Script, actor: str, command: Json) -> None:
    """An action roll in combat (PS-3 … PS-6): at least the marker's dice (PS-10)."""
    state = script.state
    fighter = state["fighters"][actor]
    if command.get("talent") is None:
        raise RulesError(_("say which talent or potential the action uses"), "PS-4")
    talent = talent_of(fighter, command.get("talent"), "PS-4")
    difficulty = whole(command, "difficulty", "PS-3", 0)
    dice, count = dice_count(command)
    energy_die = flag(command, "energy_die", "PS-10")
    check_min_dice(count, _min_dice(state, actor), energy_die)
    if energy_die and fighter["energy"] < 1:
        raise RulesError(_("{name} has no Énergie left").format(name=actor), "PS-10")
    npcs = _npc_energy(state, actor, command, None)
    plan = _plan(state, "action", actor, [], talent)
    plan.update(roller="attacker", npc_bonus=0, weapon_bonus=0)
    script.emit(plan)
    for name in npcs:
        spend(script, name, "energy", 1, "score")
    roll(
        script,
        actor,
        "action",
        dice,
        talent_name=talent[0],
        talent=talent[1],
        difficulty=difficulty,
        npc_energy=len(npcs),
        energy_die=energy_die,
    )


def pass_turn(script: Script, actor: str, command: Json) -> None:
    """No action this turn (the marker still counts as used, PS-12)."""
    text = command.get("text")
    script.emit({"type": "passed", "actor": actor, "round": script.state["round"], "text": text})


def _shown(command: str) -> str:
    """A command's display name in the reader's language (`fight_keys.PLAIN_COMMANDS`)."""
    return PLAIN_COMMANDS.shown(command)


def _keys(names: Iterable[str]) -> list[str]:
    """An attack's keys by their display names in the reader's language, sorted."""
    return sorted(key_label(Attack, name) for name in names)
