"""What a legal action does (PU-4 … PU-10): the rolls, the Énergie and Volonté lost, KO, the turn.

`Script` is how a decision writes events: each one is appended *and* folded at once, so the next
roll sees its effect (a defense falls with the Énergie). The rules themselves are `rules.py`'s:
`resolve_attack` for every roll, `protect` for a protector, `damage` through both.

>>> swapped_order(["A", "C", "B", "D"], protector="B", protected="C")
(['A', 'B', 'C', 'D'], True)
>>> swapped_order(["A", "B", "C"], protector="B", protected="C")
(['A', 'B', 'C'], False)
"""

from __future__ import annotations

from dataclasses import replace

from jdr.dice.source import GivenFaces
from jdr.fights.script import Script as BaseScript
from jdr.systems.plus_ultra.fight_state import evolve, next_to_play, sides_left, standing
from jdr.systems.plus_ultra.rules import DIE, protect, resolve_attack
from jdr.systems.protocol import Json

ATTACK_EFFECTS = (
    "extra_attacks",
    "attack_bonus",
    "extra_damage",
    "lower_willpower",
    "lower_energy",
)
"""PU-7: a technique with one of these effects attacks a target (its side effects need a hit)."""


class Script(BaseScript):
    """The events of one decision, each folded into `state` as soon as it is written."""

    def evolve(self, state: Json, event: Json) -> Json:
        return evolve(state, event)

    def character(self, name: str) -> Json:
        found: Json = self.state["characters"][name]
        return found


def attacks(technique: Json) -> bool:
    """True when a technique makes attack rolls against a target (PU-7)."""
    return any(technique["effects"].get(effect) for effect in ATTACK_EFFECTS)


def swapped_order(order: list[str], protector: str, protected: str) -> tuple[list[str], bool]:
    """PU-6: the protector plays before the one it protects: when it comes later, they swap
    places (the new order holds for the following rounds). Only turns that follow each other
    swap: `fight_commands.protector` refused any other before this is called."""
    new = list(order)
    first, second = new.index(protected), new.index(protector)
    if second < first:
        return new, False
    new[first], new[second] = protector, protected
    return new, True


def attack(script: Script, actor: str, target: str, protector: str | None) -> None:
    """PU-4: one d20 against the target's defense (or its protector's, PU-6)."""
    script.emit(_action("attacked", script, actor) | {"target": target, "protector": protector})
    _protected(script, actor, target, protector)
    strike(script, actor, target, protector, {})


def technique(
    script: Script, actor: str, used: Json, target: str | None, protector: str | None
) -> None:
    """PU-7: the technique resolves (rolls, side effects, defense bonus), then its cost is paid."""
    effects: Json = used["effects"]
    event = _action("technique_used", script, actor) | {"technique": used["name"]}
    event |= {"target": target, "protector": protector, "cost": used["cost"]}
    script.emit(event | {"cooldown": used["cooldown"], "text": effects.get("text") or None})
    if target is not None and attacks(used):
        _protected(script, actor, target, protector)
        defender = protector or target
        if strike(script, actor, target, protector, effects) and standing(script.state, defender):
            _side_effects(script, actor, defender, used["name"], effects)
    if effects.get("defense_bonus"):
        script.emit(
            {"type": "defense_raised", "name": actor, "bonus": effects["defense_bonus"]}
            | {"technique": used["name"]}
        )
    if used["cost"]:
        spent = min(used["cost"], script.character(actor)["willpower"])
        script.emit(
            {"type": "willpower_spent", "name": actor, "amount": spent, "technique": used["name"]}
        )


def defend(script: Script, actor: str) -> None:
    """PU-5: +5 defense until the start of the character's next turn."""
    script.emit(_action("defended", script, actor))


def flee(script: Script, actor: str) -> None:
    """PU-9: +3 defense; the fight waits for an opponent's `interrupt` or `no_interrupt`."""
    script.emit(_action("fled", script, actor))


def interrupt(script: Script, actor: str) -> None:
    """PU-9: an attack against the fleeing character's defense + 3: a hit stops the flight."""
    fleeing: str = script.state["fleeing"]
    script.emit(
        {"type": "interrupted", "actor": actor, "target": fleeing, "round": script.state["round"]}
    )
    if strike(script, actor, fleeing, None, {}):
        script.emit({"type": "flight_failed", "name": fleeing})
    else:
        script.emit({"type": "escaped", "name": fleeing})


def let_go(script: Script, actor: str | None) -> None:
    """PU-9: nobody interrupts: the fleeing character leaves the fight."""
    fleeing: str = script.state["fleeing"]
    script.emit(
        {"type": "not_interrupted", "actor": actor, "target": fleeing}
        | {"round": script.state["round"]}
    )
    script.emit({"type": "escaped", "name": fleeing})


def strike(script: Script, actor: str, target: str, protector: str | None, effects: Json) -> bool:
    """The attack rolls of one action, all rolled at once (1 + `extra_attacks` d20, as a forum
    post rolls them); after a roll that leaves the actor or the defender at 0 Énergie the rest
    are ignored (PU-8). True when at least one roll hit."""
    count = 1 + int(effects.get("extra_attacks", 0))
    faces = script.rng.faces(DIE, count)
    defender = protector or target
    hit = False
    for index, face in enumerate(faces):
        hit = _roll(script, actor, target, protector, face, (index + 1, count), effects) or hit
        down = [n for n in (actor, defender) if script.character(n)["energy"] == 0]
        if down and index + 1 < count:
            script.emit(
                {"type": "rolls_ignored", "actor": actor, "faces": faces[index + 1 :]}
                | {"at_zero": down[0]}
            )
            break
    return hit


def _roll(
    script: Script,
    actor: str,
    target: str,
    protector: str | None,
    face: int,
    position: tuple[int, int],
    effects: Json,
) -> bool:
    """One attack roll (PU-4), against a protector when there is one (PU-6)."""
    attacker, aimed = script.character(actor), script.character(target)
    bonus, extra = int(effects.get("attack_bonus", 0)), int(effects.get("extra_damage", 0))
    rolled = resolve_attack(
        attacker["willpower"],
        aimed["energy"],
        attacker["rank"],
        GivenFaces([face]),
        defending=aimed["defending"],
        fleeing=aimed["fleeing"],
        bonus=bonus,
        defense_bonus=aimed["defense_bonus"],
    )
    event: Json = {"type": "attack_rolled", "actor": actor, "target": target}
    event |= {"roll": position[0], "rolls": position[1], "face": face}
    event |= {"willpower": attacker["willpower"], "bonus": bonus, "attack": rolled.attack}
    if protector is None:
        hit = rolled.hit
        amount = rolled.damage + (extra if hit else 0)
        event |= {"defender": target, "defense": rolled.defense, "defending": aimed["defending"]}
        event |= {"fleeing": aimed["fleeing"], "defense_bonus": aimed["defense_bonus"]}
        event |= {"outcome": "hit" if hit else "miss"}
    else:
        guard = protect(script.character(protector)["energy"], rolled.attack, attacker["rank"])
        guard = replace(guard, damage_on_hit=guard.damage_on_hit + extra)
        hit, amount = guard.outcome == "takes_hit", guard.energy_lost
        event |= {"defender": protector, "defense": guard.protector_defense, "defending": False}
        event |= {"fleeing": False, "defense_bonus": 0, "outcome": guard.outcome}
    script.emit(event | {"hit": hit, "damage": amount})
    lose_energy(script, protector or target, amount, actor)
    return hit


def _side_effects(script: Script, actor: str, defender: str, name: str, effects: Json) -> None:
    """PU-7: lowering the defender's Volonté or Énergie, once, when the technique hit."""
    lower = min(int(effects.get("lower_willpower", 0)), script.character(defender)["willpower"])
    if lower:
        script.emit(
            {"type": "willpower_lost", "name": defender, "amount": lower, "by": actor}
            | {"technique": name}
        )
    lose_energy(script, defender, int(effects.get("lower_energy", 0)), actor, technique=name)


def lose_energy(
    script: Script, name: str, amount: int, by: str, technique: str | None = None
) -> None:
    """Énergie lost, never below 0; at 0 the character is KO (PU-1)."""
    amount = min(amount, script.character(name)["energy"])
    if amount <= 0:
        return
    event: Json = {"type": "energy_lost", "name": name, "amount": amount, "by": by}
    script.emit(event | ({"technique": technique} if technique else {}))
    if script.character(name)["energy"] == 0:
        script.emit({"type": "knocked_out", "name": name})


def advance(script: Script) -> None:
    """PU-10: the fight is over when one side is left; else the next character who has not played
    this round plays, or a new round starts (the order holds PU-6 swaps). A flight waits."""
    state = script.state
    if state["over"] or state["fleeing"]:
        return
    sides = sides_left(state)
    if len(sides) <= 1:
        script.emit({"type": "fight_over", "winner": sides[0] if sides else None})
        return
    upcoming = next_to_play(state)
    if upcoming is None:
        script.emit({"type": "round_started", "round": state["round"] + 1})
        upcoming = next_to_play(script.state)
    script.emit({"type": "turn_started", "name": upcoming, "round": script.state["round"]})


def _action(kind: str, script: Script, actor: str) -> Json:
    return {"type": kind, "actor": actor, "round": script.state["round"]}


def _protected(script: Script, actor: str, target: str, protector: str | None) -> None:
    if protector is None:
        return
    order, swapped = swapped_order(script.state["order"], protector, target)
    script.emit(
        {"type": "protected", "actor": protector, "target": target, "attacker": actor}
        | {"round": script.state["round"], "order": order, "swapped": swapped}
    )
