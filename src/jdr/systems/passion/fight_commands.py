"""The commands of a Passion fight but the turn's action (`fight_attacks`): markers, the answers the
fight waits for (settle, dodges, damage dice), deus ex machina (PS-5 … PS-16).

Every refusal is a `RulesError` with a sentence in the current language and the rule's id (a
malformed command — an unknown key, bad dice — is an `InputError`); every check comes before the
first die, so a refused command changes nothing.

>>> sorted(WAITS)
['dodge', 'settle', 'soak', 'violence']
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jdr.errors import InputError, RulesError
from jdr.fights.commands import action_of as shared_action_of
from jdr.fights.sealed import SALT, SEALED, SECRET, seal
from jdr.i18n import _
from jdr.names import hint
from jdr.systems.passion.damage import type_word
from jdr.systems.passion.fight_flow import counts_against, reveal, target_results
from jdr.systems.passion.fight_keys import DEUS_COST, KEYS, WAITS
from jdr.systems.passion.fight_rolls import Script, roll, spend
from jdr.systems.passion.fight_rolls import npc_passion as cancel_positives
from jdr.systems.passion.fight_state import find, has_chosen, item, score, standing
from jdr.systems.passion.pool import read_dice
from jdr.systems.protocol import Json


def action_of(command: Any) -> str:
    """The command's action, known and with known keys only."""
    return shared_action_of(command, KEYS, "PS-9")


def fighter_name(state: Json, value: Any, rule: str = "PS-9") -> str:
    """The name of a fighter of the fight, or `RulesError`."""
    name = find(state, value)
    if name is None:
        raise RulesError(
            _("unknown fighter {name}").format(name=value) + hint(value, list(state["fighters"])),
            rule,
        )
    return name


def check_standing(state: Json, name: str, rule: str) -> None:
    if not standing(state, name):
        raise RulesError(_("{name} is down, out of the fight").format(name=name), rule)


def whole(command: Json, key: str, rule: str, default: int | None = None) -> int:
    value = command.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulesError(_("{key} is a whole number ≥ 0").format(key=key), rule)
    return value


def flag(command: Json, key: str, rule: str) -> bool:
    value = command.get(key, False)
    if not isinstance(value, bool):
        raise RulesError(_("{key} is true or false").format(key=key), rule)
    return value


def talent_of(fighter: Json, value: Any, rule: str) -> tuple[str, int]:
    """A talent or potential of the fighter (default: its combat score)."""
    name = fighter["uses"]["combat"] if value is None else value
    found = score(fighter, name) if isinstance(name, str) else None
    if found is None:
        known = ", ".join([*fighter["talents"], *fighter["potentials"]]) or "-"
        raise RulesError(
            _("{name} has no talent or potential {talent} (known: {known})").format(
                name=fighter["name"], talent=name, known=known
            ),
            rule,
        )
    return found[0], found[1]


def dice_count(command: Json) -> tuple[str, int]:
    dice = command.get("dice")
    if not isinstance(dice, str):
        raise RulesError(_("a player rolls: say which dice, e.g. 2d6"), "PS-1")
    read = read_dice(dice)
    return read.notation, read.number


# --- markers (PS-9) ---------------------------------------------------------------------------


def choose_marker(script: Script, command: Json) -> None:
    """PS-9: each standing fighter secretly picks one of its available markers; when all have,
    they are revealed and the round's order is set (roll-offs rolled then)."""
    state = script.state
    if state["phase"] != "markers":
        raise RulesError(_("the markers are chosen at the start of a round"), "PS-9")
    actor = fighter_name(state, command.get("actor"))
    check_standing(state, actor, "PS-9")
    fighter = state["fighters"][actor]
    if has_chosen(fighter):
        raise RulesError(_("{name} has already chosen a marker").format(name=actor), "PS-9")
    marker = command.get("marker")
    if marker not in fighter["available"] or isinstance(marker, bool):
        raise RulesError(
            _("{name} has no marker {marker} available (available: {available})").format(
                name=actor,
                marker=marker,
                available=", ".join(map(str, fighter["available"])),
            ),
            "PS-12",
        )
    potential = command.get("potential", fighter["uses"]["mobility"])
    found = score(fighter, potential) if isinstance(potential, str) else None
    if found is None or not found[2]:
        raise RulesError(
            _("{name} has no potential {potential} (known: {known})").format(
                name=actor, potential=potential, known=", ".join(fighter["potentials"])
            ),
            "PS-9",
        )
    choice = {"marker": marker, "potential": found[0], "mobility": found[1]}
    event: Json = {"type": "marker_chosen", "name": actor, "round": state["round"]}
    if state["sealed"]:
        salt = command.get(SALT, "")
        if not isinstance(salt, str):
            raise InputError(SALT, salt, _("text"))
        event[SEALED] = _sealed(marker, found[0], found[1], salt)
        event[SECRET] = {**choice, SALT: salt}
    else:  # a fight started before markers were sealed
        event.update(choice)
    script.emit(event)
    if all(has_chosen(f) for f in script.state["fighters"].values() if not f["down"]):
        reveal(script)


@lru_cache(maxsize=4096, typed=True)
def _sealed(marker: int, potential: str, mobility: int, salt: str) -> str:
    """The commitment to a marker choice (`seal`), kept: a simulated fight seals the same few
    choices, unsalted, again and again."""
    return seal({"marker": marker, "potential": potential, "mobility": mobility}, salt)


# --- answers: dodges, pools, damage dice (PS-5, PS-7, PS-11, PS-14 … PS-16) -------------------


def waiting_actor(state: Json, command: Json, action: str) -> str:
    """The fighter the fight waits for, answering with one of the commands that answer."""
    waiting = state["waiting"]
    allowed = WAITS[waiting["for"]]
    if action not in allowed:
        raise RulesError(
            _("the fight waits for {name}: {commands}").format(
                name=waiting["actor"], commands=", ".join(allowed)
            ),
            "PS-11" if waiting["for"] == "dodge" else "PS-5",
        )
    actor = fighter_name(state, command.get("actor"))
    if action != "npc_passion" and actor != waiting["actor"]:
        raise RulesError(
            _("the fight waits for {name}, not {other}").format(name=waiting["actor"], other=actor),
            "PS-5",
        )
    return actor


def dodge(script: Script, actor: str, command: Json) -> None:
    """PS-11: an opposed roll against the attacker's combat score; the defender chooses how many
    dice."""
    state = script.state
    waiting = state["waiting"]
    fighter = state["fighters"][actor]
    name = command.get("talent", fighter["uses"]["dodge"])
    talent = talent_of(fighter, name, "PS-11")
    dice, _count = dice_count(command)
    roll(
        script,
        actor,
        "dodge",
        dice,
        target=actor,
        talent_name=talent[0],
        talent=talent[1],
        difficulty=int(waiting["difficulty"]),
        npc_energy=int(waiting["npc_energy"]),
    )


def no_dodge(script: Script, actor: str) -> None:
    """The defender takes the hit without rolling."""
    script.emit({"type": "dodge_declined", "actor": actor})
    target_results(script, script.state["action"], [actor], hit=True)


def npc_passion(script: Script, actor: str, command: Json) -> None:
    """PS-7: an NPC of another side than the roller spends Passion after the roll."""
    state = script.state
    roller = state["waiting"]["roll"]["roller"]
    npc = state["fighters"][actor]
    if not npc["npc"] or npc["side"] == state["fighters"][roller]["side"]:
        raise RulesError(_("{name} is not an NPC opposing this roll").format(name=actor), "PS-7")
    points = whole(command, "points", "PS-7")
    if points < 1 or points > npc["passion"]:
        raise RulesError(
            _("{name} has {passion} Passion").format(name=actor, passion=npc["passion"]), "PS-7"
        )
    cancel_positives(script, actor, points)


def violence(script: Script, actor: str, command: Json) -> None:
    """PS-14: the attacker rolls up to its Violence dice (or none); 1 point of the weapon's
    Énergie: +1 damage."""
    state = script.state
    waiting = state["waiting"]
    action = state["action"]
    use = flag(command, "weapon_energy", "PS-14")
    if use:
        weapon = item(state["fighters"][actor], "weapons", action["weapon"] or "")
        if weapon is None or weapon["energy"] is None or weapon["energy"] < 1:
            raise RulesError(_("no weapon with Énergie left to spend"), "PS-14")
    dice = _damage_dice(command, int(waiting["max_dice"]), "PS-14")
    target = waiting["target"]
    script.emit(
        {"type": "damage_dice_chosen", "actor": actor, "target": target, "step": "violence"}
        | {"dice": dice, "item_energy": use}
    )
    if use:
        spend(script, actor, "energy", 1, "damage", on=action["weapon"])
    if dice:
        roll(script, actor, "violence", dice, target=target)


def soak(script: Script, actor: str, command: Json) -> None:
    """PS-15: the wearer rolls up to its protections' Robustesse dice (or none); 1 point of a
    protection's Énergie: +1 to soak."""
    state = script.state
    waiting = state["waiting"]
    protection = command.get("protection")
    used = None
    if protection is not None:
        found = item(state["fighters"][actor], "protections", protection)
        if found is None or found["energy"] is None or found["energy"] < 1:
            raise RulesError(
                _("{name} has no protection {item} with Énergie left").format(
                    name=actor, item=protection
                ),
                "PS-15",
            )
        kind = state["action"]["damage_type"]
        if not counts_against(found["type"], kind):
            raise RulesError(
                _("{item} does not protect against {type} damage").format(
                    item=found["name"], type=type_word(kind)
                ),
                "PS-15",
            )
        used = str(found["name"])
    dice = _damage_dice(command, int(waiting["max_dice"]), "PS-15")
    script.emit(
        {"type": "damage_dice_chosen", "actor": actor, "target": actor, "step": "robustness"}
        | {"dice": dice, "item_energy": used is not None, "protection": used}
    )
    if used is not None:
        spend(script, actor, "energy", 1, "soak", on=used)
    if dice:
        roll(script, actor, "robustness", dice, target=actor)


def _damage_dice(command: Json, most: int, rule: str) -> str | None:
    value = command.get("dice")
    if value is None:
        return None
    if not isinstance(value, str):
        raise RulesError(_("say which dice, e.g. 2d6"), rule)
    read = read_dice(value)
    if read.number > most:
        raise RulesError(
            _("at most {most} dice here, not {count}").format(most=most, count=read.number),
            rule,
        )
    return read.notation


def deus_ex_machina(script: Script, command: Json) -> None:
    """PS-8: a player (never an NPC) spends 4 Passion; the tool records it, the GM narrates."""
    state = script.state
    actor = fighter_name(state, command.get("actor"), "PS-8")
    fighter = state["fighters"][actor]
    if fighter["npc"]:
        raise RulesError(_("only a player calls a deus ex machina"), "PS-8")
    if fighter["passion"] < DEUS_COST:
        raise RulesError(
            _("a deus ex machina costs {cost} Passion, {name} has {passion}").format(
                cost=DEUS_COST, name=actor, passion=fighter["passion"]
            ),
            "PS-8",
        )
    spend(script, actor, "passion", DEUS_COST, "deus_ex_machina")
    script.emit(
        {"type": "deus_ex_machina", "name": actor, "round": state["round"]}
        | {"text": command.get("text")}
    )
