"""The round's clock (PK-5, PK-6): slots in initiative order, turn-start condition checks
(PK-16, PK-17), the Condition phase (PK-16 … PK-18) and the End of round.

`Script` is how a decision writes events: each event is appended *and* folded at once, so the next
check sees its effect; `advance` then moves the fight on until some Pokémon has an order to give.

>>> from jdr.dice import GivenFaces
>>> script = Script({"holding": True, "held": [], "pokemon": {}}, GivenFaces([37]))
>>> script.emit({"type": "damage_taken", "pokemon": "A", "amount": 2}, effect=True)["held"]
True
>>> script.d100("A")
37
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jdr.dice.source import RandomSource, rolled_for
from jdr.errors import RulesError
from jdr.i18n import _
from jdr.systems.pokemon.check import DEFAULT_DIFFICULTY, CheckRoll, outcome, roll_check
from jdr.systems.pokemon.fight_orders import usable_moves
from jdr.systems.pokemon.fight_state import (
    LEGACY,
    evolve,
    fraction_of,
    in_order,
    standing,
    stat,
)
from jdr.systems.pokemon.types import TypeChart, default_chart
from jdr.systems.protocol import Json

MAX_SILENT_ROUNDS = 100
"""Rounds `advance` may play with no order to give (everyone frozen …) before it gives up."""

CONDITION_DAMAGE = {"burn": (1, 8), "poison": (1, 16), "curse": (1, 4)}
"""PK-16, PK-17: the fraction of max Vitalité lost each Condition phase (bad_poison: n/16)."""


@dataclass
class Script:
    """The events of one decision, each folded into `state` as soon as it is written."""

    state: Json
    rng: RandomSource
    chart: TypeChart = field(default_factory=default_chart)
    events: list[Json] = field(default_factory=list)

    def emit(self, event: Json, *, effect: bool = False) -> Json:
        """Write `event`; an `effect` in a shared slot is marked `held` (applied at its end)."""
        if effect and self.state.get("holding"):
            event = {**event, "held": True}
        self.events.append(event)
        self.state = evolve(self.state, event)
        return event

    def dice_for(self, name: str) -> RandomSource:
        """`name`'s dice, journaled as theirs (`jdr.dice.rolled_for`): a defender's answer, a
        slot's turn-start checks. In a fight from before defenders were asked, every die was
        the acting command's, as its journal shows."""
        if self.state.get("settings", {}).get("reactions") == LEGACY:
            return self.rng
        return rolled_for(self.rng, name)

    def d100(self, owner: str) -> int:
        """`owner`'s d100 (a chance: paralysis, accuracy, a condition …)."""
        (face,) = self.dice_for(owner).faces(100, 1)
        return face

    def pokemon(self, name: str) -> Json:
        result: Json = self.state["pokemon"][name]
        return result

    @property
    def settings(self) -> Json:
        result: Json = self.state["settings"]
        return result


def roll_json(roll: CheckRoll) -> Json:
    """A check's record as event fields: dice, difficulty, every face, counts, score, outcome."""
    score = roll.score
    return {
        "dice": roll.dice,
        "difficulty": roll.difficulty,
        "faces": roll.faces,  # a new list
        "successes": roll.successes,
        "failures": roll.failures,
        "score": score,
        "outcome": outcome(score),
    }


def check_knock_outs(script: Script) -> None:
    """PK-6: a Pokémon at 0 Vitalité is KO (removed from the fight at the End of round)."""
    if not any(p["vitality"] == 0 for p in script.state["pokemon"].values()):
        return  # nobody to knock out (the usual case: no need to list the order)
    for name in in_order(script.state):
        pokemon = script.pokemon(name)
        if pokemon["vitality"] == 0 and not pokemon["ko"] and pokemon["in_fight"]:
            script.emit({"type": "knocked_out", "pokemon": name})


def advance(script: Script) -> None:
    """Close finished slots, open the next ones, play Condition and End phases, start rounds,
    until a Pokémon has an order to give or the fight is over; while a defender's answer is
    awaited, nothing moves."""
    if script.state.get("reaction") is not None:
        return
    if not script.state["holding"]:
        check_knock_outs(script)
    for _round in range(MAX_SILENT_ROUNDS):
        while not script.state["over"] and not script.state["to_play"]:
            if script.state["holding"]:
                script.emit({"type": "slot_resolved", "slot": script.state["slot"]})
                check_knock_outs(script)
            upcoming = _next_slot(script.state)
            if upcoming is None:
                break
            _open_slot(script, upcoming)
        if script.state["over"] or script.state["to_play"]:
            return
        _end_round(script)
    raise RulesError(
        _("{rounds} rounds went by without an order: the fight cannot go on").format(
            rounds=MAX_SILENT_ROUNDS
        ),
        "PK-6",
    )


def _next_slot(state: Json) -> int | None:
    for index in range(state["slot"] + 1, len(state["order"])):
        if _able(state, state["order"][index]["members"]):
            return index
    return None


def _able(state: Json, members: list[str]) -> list[str]:
    return [m for m in members if standing(state, m) and m not in state["acted"]]


def _open_slot(script: Script, index: int) -> None:
    slot = script.state["order"][index]
    to_play = _able(script.state, slot["members"])
    script.emit(
        {"type": "slot_opened", "slot": index, "initiative": slot["total"], "to_play": to_play}
    )
    for name in to_play:
        turn_start(script, name)
    if not script.state["holding"]:
        check_knock_outs(script)


def turn_start(script: Script, name: str) -> None:
    """PK-16, PK-17 at the start of `name`'s turn: thaw, wake or paralysis roll, then confusion.

    Faces: one d100 for freeze, sleep (none at its first turn asleep, nor once 7 turns were lost
    asleep) or paralysis; then, if still able to act and confused, one d100 and, on a self-hit,
    Force d10s.
    """
    pokemon = script.pokemon(name)
    condition = pokemon["condition"]
    if condition == "freeze" and not _thaws(script, name):
        return
    if condition == "sleep" and not _wakes(script, name):
        return
    if condition == "paralysis":
        roll, chance = script.d100(name), script.settings["paralysis_chance"]
        lost = roll <= chance
        script.emit(
            {"type": "paralysis_checked", "pokemon": name, "chance": chance, "roll": roll}
            | {"lost": lost}
        )
        if lost:
            script.emit({"type": "action_lost", "pokemon": name, "reason": "paralysis"})
            return
    if "confusion" in pokemon["volatile"]:
        _confusion(script, name)


def _thaws(script: Script, name: str) -> bool:
    """True when `name` may act: thawed, or still frozen with Feu Sacré / Roue De Feu to use."""
    roll, chance = script.d100(name), script.settings["thaw_chance"]
    thawed = roll <= chance
    script.emit(
        {"type": "thaw_checked", "pokemon": name, "chance": chance, "roll": roll, "thawed": thawed}
    )
    if thawed:
        script.emit(
            {"type": "condition_cured", "pokemon": name, "condition": "freeze"} | _why("roll")
        )
        return True
    if usable_moves(script.state, name):
        return True
    script.emit({"type": "action_lost", "pokemon": name, "reason": "freeze"})
    return False


def _wakes(script: Script, name: str) -> bool:
    """True when `name` may act: awake, or asleep with Ronflement / Blabla Dodo to use.

    PK-16 « il se réveille au bout de 1 à 7 tours »: no roll before it has slept through
    `sleep_min_turns` turns of its own (1; 0 in a fight from before this reading), a roll at
    each turn after, and no roll either once `sleep_max_turns` were lost: it wakes."""
    asleep = script.pokemon(name)["condition_turns"]
    chance = script.settings["wake_chance"]
    event: Json = {"type": "wake_checked", "pokemon": name, "chance": chance}
    if asleep >= script.settings["sleep_max_turns"]:
        roll, woke = None, True
    elif asleep < script.settings["sleep_min_turns"]:
        roll, woke = None, False
        event["min_turns"] = script.settings["sleep_min_turns"]
    else:
        roll = script.d100(name)
        woke = roll <= chance
    script.emit(
        event | {"roll": roll, "woke": woke, "turns_asleep": asleep if woke else asleep + 1}
    )
    if woke:
        reason = "roll" if roll is not None else "max_turns"
        script.emit(
            {"type": "condition_cured", "pokemon": name, "condition": "sleep"} | _why(reason)
        )
        return True
    if usable_moves(script.state, name):
        return True
    script.emit({"type": "action_lost", "pokemon": name, "reason": "sleep"})
    return False


def _confusion(script: Script, name: str) -> None:
    """PK-17, PK-18: 50 % to hurt itself (own Force at DD6, loses the score, min 0) instead."""
    roll, chance = script.d100(name), script.settings["confusion_chance"]
    hurt = roll <= chance
    left = max(0, script.pokemon(name)["volatile"]["confusion"]["turns_left"] - 1)
    event: Json = {"type": "confusion_checked", "pokemon": name, "chance": chance, "roll": roll}
    event |= {"hurt": hurt, "turns_left": left}
    damage = 0
    if hurt:
        self_hit = roll_check(
            stat(script.pokemon(name), "strength"), DEFAULT_DIFFICULTY, script.dice_for(name)
        )
        damage = max(0, self_hit.score)
        event |= {"self_hit": roll_json(self_hit), "damage": damage}
    script.emit(event)
    if hurt:
        script.emit(
            {"type": "damage_taken", "pokemon": name, "amount": damage, "by": name}
            | {"move": None, "cause": "confusion"},
            effect=True,
        )
    if left == 0:
        script.emit(
            {"type": "condition_cured", "pokemon": name, "condition": "confusion"} | _why("turns")
        )
    if hurt:
        script.emit({"type": "action_lost", "pokemon": name, "reason": "confusion"})


def _why(reason: str) -> Json:
    return {"reason": reason}


def _end_round(script: Script) -> None:
    """PK-6: Condition phase (status damage), then End of round (items noted, KO removed)."""
    number = script.state["round"]
    script.emit({"type": "phase_started", "round": number, "phase": "condition"})
    for name in in_order(script.state):
        if standing(script.state, name):
            _condition_damage(script, name)
    check_knock_outs(script)
    script.emit({"type": "phase_started", "round": number, "phase": "end"})
    for name in in_order(script.state):
        item = script.pokemon(name)["item"]
        if item and standing(script.state, name):
            script.emit({"type": "held_item", "pokemon": name, "item": item})
    for name in in_order(script.state):
        if script.pokemon(name)["ko"]:
            script.emit({"type": "removed", "pokemon": name})
    sides = {script.pokemon(name)["side"] for name in in_order(script.state)}
    if len(sides) <= 1:
        script.emit({"type": "fight_over", "winner": sides.pop() if sides else None})
        return
    script.emit({"type": "round_started", "round": number + 1})


def _condition_damage(script: Script, name: str) -> None:
    pokemon = script.pokemon(name)
    fractions: list[tuple[str, int, int]] = []
    condition = pokemon["condition"]
    if condition in CONDITION_DAMAGE:
        fractions.append((condition, *CONDITION_DAMAGE[condition]))
    if condition == "bad_poison":
        fractions.append((condition, pokemon["condition_turns"] + 1, 16))
    if "curse" in pokemon["volatile"]:
        fractions.append(("curse", *CONDITION_DAMAGE["curse"]))
    for kind, numerator, denominator in fractions:
        amount = fraction_of(pokemon["vitality_max"], numerator, denominator)
        script.emit(
            {"type": "condition_damage", "pokemon": name, "condition": kind}
            | {"fraction": [numerator, denominator], "amount": amount}
        )
