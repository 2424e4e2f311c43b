"""Using a move in a fight (PK-8 … PK-14, PK-16, PK-17): the order's events, in roll order.

The dice themselves are `attack.resolve_attack` (attack roll, damage roll, endure or dodge roll,
each only when it matters) and `counter.resolve_counter` (PK-14 exchanges); this module turns their
results into events and applies the move's effects: stat changes (PK-8, PK-9) and conditions.

Faces of a `move` order, in order:
1. infatuation: one d100 if the user is attracted to its target and the move is an attack;
2. accuracy (PK-9): one d100 if the effective accuracy is below 100 and the move has a target;
3. a status move: its effects (below); an attack with `counter`: the PK-14 exchanges (attacker's
   Force/Concentration d10s, then the defender's, …), then the winner's attack as in 4 without
   any defence; otherwise 4;
4. the attack roll (Force or Concentration d10s), the damage roll (move dice + score) if the attack
   succeeded, the endure or dodge roll if the final damage is above 0;
5. effects when the move hit (and the type multiplier is not 0): the stat change (no face), then
   the condition: one d100 if its chance is below 100, and one d4 for a confusion's length.

>>> from jdr.systems.pokemon.fight_state import accuracy
>>> accuracy(85, -1), accuracy(85, -2)
(75, 60)
"""

from __future__ import annotations

from jdr.names import fold as fold_name
from jdr.systems.pokemon.attack import resolve_attack
from jdr.systems.pokemon.attack_rules import Defence, defence_difficulty
from jdr.systems.pokemon.counter import CounterRoll, resolve_counter
from jdr.systems.pokemon.fight_orders import is_attack, possible_responses
from jdr.systems.pokemon.fight_state import (
    ASK,
    BURNS_FIRE_TYPES,
    CURSE_MOVE,
    THAW_MOVES,
    accuracy,
    has_skill,
    pending,
    stat,
)
from jdr.systems.pokemon.fight_turns import Script, roll_json
from jdr.systems.pokemon.sheets import MAJOR_CONDITIONS
from jdr.systems.pokemon.types import reasons_json
from jdr.systems.protocol import Json

RANGE_SKILLS = {"physique": "Déplacements rapides", "speciale": "Combat rapproché"}
"""PK-10: the skill that cancels the +2 range penalty, by category."""
ATTACK_STAT = {"physique": "strength", "speciale": "concentration"}
TOUGHNESS = {"physique": "constitution", "speciale": "willpower"}
IMMUNE = {"burn": ("feu",), "poison": ("acier", "poison"), "bad_poison": ("acier", "poison")}
"""PK-16: the types a condition cannot touch (Feu: except by Triplattaque)."""


def use_move(script: Script, order: Json) -> None:
    """A legal `move` order (see `fight_orders.check_order`): every event, in roll order."""
    user, move, target = order["actor"], order["move"], order["target"]
    pokemon = script.pokemon(user)
    if target is not None and is_attack(move) and _attracted(script, user, target):
        roll, chance = script.d100(user), script.settings["infatuation_chance"]
        refused = roll <= chance
        script.emit(
            {"type": "infatuation_checked", "pokemon": user, "towards": target}
            | {"chance": chance, "roll": roll, "refused": refused}
        )
        if refused:
            script.emit({"type": "action_lost", "pokemon": user, "reason": "infatuation"})
            return
    if pokemon["condition"] == "freeze" and fold_name(move["name"]) in THAW_MOVES:
        script.emit(
            {"type": "condition_cured", "pokemon": user, "condition": "freeze"}
            | {"reason": "move", "move": move["name"]}
        )
    script.emit(
        {
            "type": "move_used",
            "pokemon": user,
            "move": move["name"],
            "target": target,
            "category": move["category"],
            "move_type": move["type"],
            "energy": move["energy"],
        }
    )
    if target is not None and not _accurate(script, user, move):
        return
    if not is_attack(move):
        apply_effects(script, user, move, target)
        return
    mode = script.settings["reactions"]
    response = order["response"]  # a GM may answer for the defender with the attack
    if response is None and mode == ASK:
        script.emit(
            {"type": "reaction_asked", "pokemon": target, "attacker": user, "move": move["name"]}
            | {"range_penalty": order["range_penalty"]}
            | {"responses": possible_responses(script.state, move, target)}
        )
        return
    if response is None:  # the table's default answer, or a fight from before it was asked
        response = _default_response(script.state, move, target, mode)
    react(script, user, move, target, response, order["counter_move"], order["range_penalty"])


def respond(script: Script, order: Json) -> None:
    """The defender's answer (`fight_orders.check_respond`): the attack resolves with it."""
    user, move, target = order["attacker"], order["move"], order["target"]
    response, counter = order["response"], order["counter_move"]
    script.emit(
        {"type": "reaction_given", "pokemon": target, "attacker": user, "move": move["name"]}
        | {"response": response, "counter_move": counter["name"] if counter else None}
    )
    react(script, user, move, target, response, counter, order["range_penalty"])


def _default_response(state: Json, move: Json, target: str, mode: str) -> str:
    """A table's default answer (`reactions` none, endure or dodge); a dodge the defender cannot
    make (asleep, frozen) is an endure. A fight from before defenders were asked: none."""
    if mode == "dodge" and "dodge" not in possible_responses(state, move, target):
        return "endure"
    return mode if mode in ("none", "endure", "dodge") else "none"


def react(
    script: Script,
    user: str,
    move: Json,
    target: str,
    response: str,
    counter: Json | None,
    range_penalty: bool,
) -> None:
    """The attack with the defender's answer: a counter's exchanges, or the attack rolls."""
    if response == "counter":
        assert counter is not None  # checked with the answer
        _counter(script, user, move, target, counter, range_penalty)
    else:
        strike(script, user, move, target, response, range_penalty)


def _attracted(script: Script, user: str, target: str) -> bool:
    """PK-17: attracted to `towards` (the one who inflicted it), or to any opponent if unknown."""
    infatuation = script.pokemon(user)["volatile"].get("infatuation")
    if infatuation is None:
        return False
    towards = infatuation.get("towards")
    if towards is None:
        return bool(script.pokemon(target)["side"] != script.pokemon(user)["side"])
    return bool(towards == target)


def _accurate(script: Script, user: str, move: Json) -> bool:
    """PK-9: below 100 % effective accuracy, a d100 must be at most the accuracy."""
    stage = script.pokemon(user)["accuracy_stage"]
    effective = accuracy(move["accuracy"], stage)
    if effective >= 100:
        return True
    roll = script.d100(user)
    hit = roll <= effective
    script.emit(
        {"type": "accuracy_checked", "pokemon": user, "move": move["name"], "stage": stage}
        | {"accuracy": move["accuracy"], "effective": effective, "roll": roll, "hit": hit}
    )
    return hit


def strike(
    script: Script,
    user: str,
    move: Json,
    target: str,
    response: str,
    range_penalty: bool,
) -> None:
    """PK-10 … PK-13, then PK-16's thaw by fire and the move's effects when it hit."""
    attacker, defender = script.pokemon(user), script.pokemon(target)
    category = move["category"]
    skill = RANGE_SKILLS[category]
    cancelled = range_penalty and has_skill(attacker, skill)
    multiplier = script.chart.multiplier(move["type"], defender["types"], attacker["types"])
    difficulty = defence_difficulty(defender["waiting"])
    defence = None
    if response == "endure":
        defence = Defence("endure", stat(defender, TOUGHNESS[category]), difficulty)
    elif response == "dodge":
        defence = Defence("dodge", stat(defender, "dexterity"), difficulty)
    result = resolve_attack(
        stat(attacker, ATTACK_STAT[category]),
        move["damage_dice"],
        script.dice_for(user),
        range_penalty=range_penalty and not cancelled,
        high_crit=move["high_crit"],
        multiplier=multiplier,
        defence=defence,
        defence_rng=script.dice_for(target),
    )
    script.emit(
        {
            "type": "attack_rolled",
            "pokemon": user,
            "move": move["name"],
            "target": target,
            "stat": ATTACK_STAT[category],
            "range_penalty": range_penalty and not cancelled,
            "penalty_cancelled_by": skill if cancelled else None,
            **roll_json(result.attack),
        }
    )
    if result.damage_roll is None:
        return
    reasons = reasons_json(multiplier)
    script.emit(
        {
            "type": "damage_rolled",
            "pokemon": user,
            "move": move["name"],
            "target": target,
            **roll_json(result.damage_roll),
            "raw": result.raw_damage,
            "multiplier": reasons["multiplier"],
            "reasons": reasons["reasons"],
            "damage": result.damage,
        }
    )
    if result.defence_roll is not None and defence is not None:
        event: Json = {
            "type": f"{defence.kind}_rolled",
            "pokemon": target,
            "stat": TOUGHNESS[category] if defence.kind == "endure" else "dexterity",
            "waiting": defender["waiting"],
            **roll_json(result.defence_roll),
        }
        if defence.kind == "dodge":
            event |= {"against": result.attack.score, "dodged": result.dodged}
        script.emit(event)
    if result.dodged:
        return
    script.emit(
        {
            "type": "damage_taken",
            "pokemon": target,
            "amount": result.vitality_lost,
            "by": user,
            "move": move["name"],
            "cause": "move",
        },
        effect=True,
    )
    if defender["condition"] == "freeze" and script.chart.normalize(move["type"]) == "feu":
        script.emit(
            {"type": "condition_cured", "pokemon": target, "condition": "freeze"}
            | {"reason": "fire_hit", "move": move["name"]},
            effect=True,
        )
    if multiplier.value != 0:
        apply_effects(script, user, move, target)


def _counter(
    script: Script,
    user: str,
    move: Json,
    target: str,
    counter: Json,
    range_penalty: bool,
) -> None:
    """PK-14: the defender pays its move and spends its action; the exchange's winner strikes."""
    script.emit(
        {"type": "counter_started", "pokemon": target, "move": counter["name"], "attacker": user}
        | {"against": move["name"], "energy": counter["energy"]}
    )
    attacker, defender = script.pokemon(user), script.pokemon(target)
    rolled, needed = ATTACK_STAT[move["category"]], TOUGHNESS[move["category"]]
    result = resolve_counter(
        stat(attacker, rolled),
        stat(defender, needed),
        stat(defender, rolled),
        stat(attacker, needed),
        script.dice_for(user),
        max_exchanges=script.settings["counter_exchanges"],
        defender_rng=script.dice_for(target),
    )
    winner = {"attacker": user, "defender": target}.get(result.winner)
    script.emit(
        {"type": "counter_resolved", "attacker": user, "defender": target, "stat": rolled}
        | {"attacker_needs": result.attacker_threshold}
        | {"defender_needs": result.defender_threshold}
        | {"exchanges": [_exchange(e.attacker, e.defender) for e in result.exchanges]}
        | {"winner": winner}
    )
    if winner == user:
        strike(script, user, move, target, "none", range_penalty)
    elif winner == target:
        strike(script, target, counter, user, "none", range_penalty)


def _exchange(attacker: CounterRoll, defender: CounterRoll | None) -> Json:
    def side(roll: CounterRoll) -> Json:
        return {"faces": list(roll.roll.faces), "successes": roll.successes, "total": roll.total}

    return {"attacker": side(attacker), "defender": side(defender) if defender else None}


def apply_effects(script: Script, user: str, move: Json, target: str | None) -> None:
    """A move that hit: its stat change (PK-8, PK-9), then the condition it inflicts."""
    change = move.get("stat_change")
    if change is not None:
        who = user if change["target"] == "self" else target
        if who is not None:
            script.emit(
                {"type": "stat_changed", "pokemon": who, "stat": change["stat"]}
                | {"stages": change["stages"], "by": user, "move": move["name"]},
                effect=True,
            )
    inflicts = move.get("inflicts")
    if inflicts is not None and target is not None:
        inflict(script, target, inflicts["condition"], inflicts["chance"], user, move["name"])


def refusal(script: Script, name: str, condition: str, by: str, move: str) -> str | None:
    """Why `condition` cannot take hold of `name` (a reason code), else None."""
    pokemon = script.pokemon(name)
    held = [e["condition"] for e in pending(script.state, name, "condition_inflicted")]
    if condition in MAJOR_CONDITIONS:
        if pokemon["condition"] is not None or set(held) & set(MAJOR_CONDITIONS):
            return "already_major"
    elif condition in pokemon["volatile"] or condition in held:
        return "already"
    immune = set(IMMUNE.get(condition, ())) & set(pokemon["types"])
    if immune and not (condition == "burn" and fold_name(move) == BURNS_FIRE_TYPES):
        return "immune_type"
    if condition == "curse" and not (
        fold_name(move) == CURSE_MOVE and "spectre" in script.pokemon(by)["types"]
    ):
        return "curse_needs_spectre"
    slot = script.state["order"][script.state["slot"]]["members"]
    if condition == "flinch" and (name in script.state["acted"] or name in slot):
        return "acted_first"
    return None


REFUSAL_RULES = {
    "already_major": "PK-16",
    "already": "PK-17",
    "immune_type": "PK-16",
    "curse_needs_spectre": "PK-17",
    "acted_first": "PK-17",
}


def inflict(script: Script, name: str, condition: str, chance: int, by: str, move: str) -> None:
    """A condition's chance (d100 ≤ chance when below 100), after the checks that refuse it."""
    reason = refusal(script, name, condition, by, move)
    if reason is not None:
        script.emit(
            {"type": "condition_refused", "pokemon": name, "condition": condition}
            | {"reason": reason, "rule": REFUSAL_RULES[reason], "by": by, "move": move}
        )
        return
    if chance < 100:
        roll = script.d100(by)
        script.emit(
            {"type": "condition_checked", "pokemon": name, "condition": condition}
            | {"chance": chance, "roll": roll, "hit": roll <= chance}
        )
        if roll > chance:
            return
    event: Json = {"type": "condition_inflicted", "pokemon": name, "condition": condition}
    event |= {"by": by, "move": move}
    if condition == "confusion":
        (turns,) = script.dice_for(by).faces(4, 1)
        event["turns"] = turns
    script.emit(event, effect=True)
