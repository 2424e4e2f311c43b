"""The state of a Pokémon fight and `evolve`, the only way it changes (PK-5 … PK-18).

A fight's state is `fold(evolve, events, {})`: a JSON dict. `evolve` never rolls: every face and
every computed number is in the events (see `jdr.systems.pokemon.fight` for the vocabulary).

>>> state = evolve({}, {"type": "fight_started", "settings": {}, "pokemon": []})
>>> state["round"], state["order"], state["over"]
(0, [], False)
>>> accuracy(85, -1), accuracy(85, -2), accuracy(85, 2)
(75, 60, 85)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from jdr.i18n import N_, _
from jdr.names import find
from jdr.names import fold as fold_name
from jdr.params import PERCENT
from jdr.systems.pokemon.sheets import MAJOR_CONDITIONS, Pokemon, effective_stats
from jdr.systems.protocol import Json

ACCURACY_BY_STAGE = {
    -6: 33,
    -5: 38,
    -4: 43,
    -3: 50,
    -2: 60,
    -1: 75,
    0: 100,
    1: 133,
    2: 166,
    3: 200,
    4: 233,
    5: 266,
    6: 300,
}
"""PK-9: accuracy stages −6 … +6 and their percentages."""

SNORE_MOVES = ("ronflement", "blabladodo")
"""PK-16: the only moves a sleeping Pokémon may use (names folded: no case, accents, spaces)."""
THAW_MOVES = ("feusacre", "rouedefeu")
"""PK-16: using one of these thaws a frozen Pokémon."""
BURNS_FIRE_TYPES = "triplattaque"
"""PK-16: the one move that burns a Feu-type Pokémon."""
CURSE_MOVE = "malediction"
"""PK-17: Malédiction only curses when a Spectre-type Pokémon uses it."""

_ACTS = ("move_used", "waited", "free_order", "passed", "action_lost", "counter_started")
"""Events that spend a Pokémon's action for the round (PK-6)."""


class FightSettings(BaseModel):
    """A table's settings for the rules' chances (the project's defaults, PK-16 … PK-18)."""

    model_config = ConfigDict(extra="forbid")

    paralysis_chance: Annotated[int, PERCENT] = Field(
        default=50, ge=0, le=100, description=N_("% chance that paralysis costs the action")
    )
    thaw_chance: Annotated[int, PERCENT] = Field(
        default=10, ge=0, le=100, description=N_("% chance to thaw at each turn")
    )
    wake_chance: Annotated[int, PERCENT] = Field(
        default=20, ge=0, le=100, description=N_("% chance to wake at each turn")
    )
    sleep_max_turns: int = Field(
        default=7, ge=0, le=100, description=N_("turns lost asleep at most")
    )
    confusion_chance: Annotated[int, PERCENT] = Field(
        default=50, ge=0, le=100, description=N_("% chance that confusion hurts itself")
    )
    infatuation_chance: Annotated[int, PERCENT] = Field(
        default=50, ge=0, le=100, description=N_("% chance that infatuation stops an attack")
    )
    counter_exchanges: int = Field(
        default=50, ge=1, le=1000, description=N_("counter exchanges before both moves fail")
    )
    reactions: Literal["ask", "none", "endure", "dodge"] = Field(
        default="ask",
        description=N_(
            "the defender's answer to an attack: asked of it (ask), or given at once (none,"
            " endure, or dodge when it can)"
        ),
    )


ASK = "ask"
"""`reactions`: the fight waits for the defender's answer (PK-12 … PK-14)."""
LEGACY = "attacker"
"""`reactions` of a fight started before defenders were asked: the attacker's command gives the
answer (none by default), and no `reaction_given` is written. Its journal replays as it was."""


def accuracy(move_accuracy: int, stage: int) -> int:
    """PK-9: effective accuracy = min(move accuracy, stage %); stages above 0 only buffer."""
    return min(move_accuracy, ACCURACY_BY_STAGE[max(-6, min(6, stage))])


def fraction_of(maximum: int, numerator: int, denominator: int) -> int:
    """PK-18: a fraction of max Vitalité, floored, at least 1.

    >>> fraction_of(20, 1, 8), fraction_of(7, 1, 8), fraction_of(32, 3, 16)
    (2, 1, 6)
    """
    return max(1, maximum * numerator // denominator)


def stat(pokemon: Json, name: str) -> int:
    """The stat a roll uses now: after PK-8 changes, burn halving Force, paralysis Dextérité ÷ 4."""
    value = int(pokemon["stats"][name])
    if name == "strength" and pokemon["condition"] == "burn":
        value = max(1, value // 2)
    if name == "dexterity" and pokemon["condition"] == "paralysis":
        value = max(1, value // 4)
    return value


def has_skill(pokemon: Json, skill: str) -> bool:
    """A skill at level ≥ 1, its name matched without case, accents or spaces."""
    return int(pokemon["skills"].get(fold_name(skill), 0)) >= 1


def find_move(pokemon: Json, name: str) -> Json | None:
    """The move `name` (case- and accent-insensitive) the Pokémon knows, else None."""
    key = fold_name(name)
    return next((m for m in pokemon["moves"] if fold_name(m["name"]) == key), None)


def find_pokemon(state: Json, name: Any) -> str | None:
    """The Pokémon's name as the fight knows it (named as people type it, `jdr.names`), else
    None."""
    if not isinstance(name, str):
        return None
    return find(name, list(state["pokemon"]), _("Pokémon"))


def standing(state: Json, name: str) -> bool:
    """In the fight and not KO."""
    pokemon = state["pokemon"].get(name)
    return bool(pokemon and pokemon["in_fight"] and not pokemon["ko"])


def opponents(state: Json, name: str) -> list[str]:
    """Standing Pokémon of the other sides, in initiative order."""
    side = state["pokemon"][name]["side"]
    return [
        other
        for other in in_order(state)
        if standing(state, other) and state["pokemon"][other]["side"] != side
    ]


def in_order(state: Json) -> list[str]:
    """Every Pokémon in the fight, by initiative slot, then by entry order inside a slot."""
    return [name for slot in state["order"] for name in slot["members"]]


def pending(state: Json, name: str, kind: str) -> list[Json]:
    """Held `kind` events about `name` (a shared slot's effects, not applied yet)."""
    return [e for e in state["held"] if e["type"] == kind and e["pokemon"] == name]


def entry(sheet: Pokemon, side: str, item: str | None) -> Json:
    """The JSON a `fight_started` or `joined` event carries for one Pokémon: its validated sheet,
    side, held item (free text) and the stats its rolls start from (EVs added)."""
    return {
        "sheet": sheet.model_dump(mode="json"),
        "side": side,
        "item": item,
        "stats": effective_stats(sheet).model_dump(),
    }


def _pokemon(data: Json) -> Json:
    sheet = data["sheet"]
    return {
        "name": sheet["name"],
        "side": data["side"],
        "item": data.get("item"),
        "types": list(sheet["types"]),
        "skills": {fold_name(k): v for k, v in sheet["skills"].items()},
        "moves": _copy(sheet["moves"]),
        "stats": dict(data["stats"]),
        "accuracy_stage": 0,
        "vitality": sheet["vitality"]["current"],
        "vitality_max": sheet["vitality"]["max"],
        "energy": sheet["energy"]["current"],
        "energy_max": sheet["energy"]["max"],
        "condition": None,
        "condition_turns": 0,
        "volatile": {},
        "initiative": None,
        "waiting": False,
        "ko": False,
        "in_fight": True,
    }


def _start(event: Json) -> Json:
    settings = FightSettings.model_validate(event["settings"]).model_dump()
    if "reactions" not in event["settings"]:
        settings["reactions"] = LEGACY
    return {
        "settings": settings,
        "round": 0,
        "phase": "actions",
        "pokemon": {p["name"]: p for p in map(_pokemon, event["pokemon"])},
        "order": [],
        "slot": -1,
        "to_play": [],
        "acted": [],
        "holding": False,
        "held": [],
        "over": False,
        "winner": None,
        "reaction": None,
    }


def _slot_in(state: Json, name: str, total: int) -> None:
    """PK-5: slot a Pokémon by its total; an equal total shares the slot."""
    order: list[Json] = state["order"]
    for index, slot in enumerate(order):
        if slot["total"] == total:
            slot["members"].append(name)
            return
        if slot["total"] < total:
            order.insert(index, {"total": total, "members": [name]})
            if index <= state["slot"]:
                state["slot"] += 1
            return
    order.append({"total": total, "members": [name]})


def _act(state: Json, name: str) -> None:
    if name in state["to_play"]:
        state["to_play"].remove(name)
    if name not in state["acted"]:
        state["acted"].append(name)
    state["pokemon"][name]["waiting"] = False


def _inflict(pokemon: Json, event: Json) -> None:
    condition = event["condition"]
    if condition in MAJOR_CONDITIONS:
        if pokemon["condition"] is None:
            pokemon["condition"], pokemon["condition_turns"] = condition, 0
        return
    details: dict[str, Any] = {}
    if condition == "confusion":
        details["turns_left"] = event["turns"]
    if condition == "infatuation":
        details["towards"] = event.get("by")
    pokemon["volatile"].setdefault(condition, details)


def _cure(pokemon: Json, condition: str) -> None:
    if pokemon["condition"] == condition:
        pokemon["condition"], pokemon["condition_turns"] = None, 0
    pokemon["volatile"].pop(condition, None)


def _remove(state: Json, name: str) -> None:
    state["pokemon"][name]["in_fight"] = False
    for slot in state["order"]:
        if name in slot["members"]:
            slot["members"].remove(name)
    state["order"] = [slot for slot in state["order"] if slot["members"]]


def _copy(value: Any) -> Any:
    """A copy of JSON data (three times faster than `copy.deepcopy`, which a fold calls a lot)."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


def _fresh(state: Json) -> Json:
    """A state an event may change in place: new containers for every part `_apply` changes
    (each Pokémon with its stats and conditions, the order's slots, the turn's lists), the
    parts no event changes (moves, skills, types, settings, held events) shared (issue 21)."""
    new = dict(state)
    if "pokemon" in state:
        new["pokemon"] = {name: _fresh_pokemon(p) for name, p in state["pokemon"].items()}
    if "order" in state:
        new["order"] = [{**slot, "members": list(slot["members"])} for slot in state["order"]]
    for key in ("to_play", "acted", "held"):
        if key in state:
            new[key] = list(state[key])
    return new


def _fresh_pokemon(pokemon: Json) -> Json:
    new = dict(pokemon)
    new["stats"] = dict(pokemon["stats"])
    new["volatile"] = {k: dict(v) for k, v in pokemon["volatile"].items()}
    return new


def evolve(state: Json, event: Json) -> Json:
    """The state after `event`; `state` itself is not changed (`_fresh`: what an event may
    change is new, the rest shared with `state`)."""
    kind = event["type"]
    if kind == "fight_started":
        return _start(event)
    new: Json = _fresh(state)
    if event.get("held"):
        new["held"].append({k: v for k, v in event.items() if k != "held"})
        return new
    _apply(new, event)
    return new


def _apply(state: Json, event: Json) -> None:
    """One event on a copied state: the fight's clock here, a Pokémon's changes in `_change`."""
    kind = event["type"]
    if kind in _ACTS:
        _act(state, event["pokemon"])
    if kind == "joined":
        new = _pokemon(event["entry"])
        state["pokemon"][new["name"]] = new
    elif kind == "initiative_rolled":
        state["pokemon"][event["pokemon"]]["initiative"] = event["total"]
        _slot_in(state, event["pokemon"], event["total"])
    elif kind == "round_started":
        state.update(round=event["round"], phase="actions", slot=-1, to_play=[], acted=[])
        state.update(holding=False, held=[])
    elif kind == "slot_opened":
        state.update(slot=event["slot"], to_play=list(event["to_play"]), held=[])
        state["holding"] = len(event["to_play"]) > 1
    elif kind == "slot_resolved":
        held, state["held"], state["holding"] = state["held"], [], False
        for effect in held:
            _apply(state, effect)
    elif kind == "knocked_out":
        state["pokemon"][event["pokemon"]]["ko"] = True
        if event["pokemon"] in state["to_play"]:
            state["to_play"].remove(event["pokemon"])
    elif kind == "phase_started":
        state["phase"] = event["phase"]
        if event["phase"] == "end":
            for each in state["pokemon"].values():
                each["volatile"].pop("flinch", None)
    elif kind == "removed":
        _remove(state, event["pokemon"])
    elif kind == "fight_over":
        state.update(over=True, winner=event["winner"], phase="over", to_play=[])
    elif kind == "reaction_asked":
        state["reaction"] = {k: v for k, v in event.items() if k != "type"}
    elif kind == "reaction_given":
        state["reaction"] = None
    elif "pokemon" in event and event["pokemon"] in state["pokemon"]:
        _change(state["pokemon"][event["pokemon"]], event)


def _change(pokemon: Json, event: Json) -> None:
    """What an event does to one Pokémon (records such as `attack_rolled` change nothing)."""
    kind = event["type"]
    if kind in ("move_used", "counter_started"):
        pokemon["energy"] -= event["energy"]
    elif kind == "waited":
        pokemon["waiting"] = True
    elif kind in ("damage_taken", "condition_damage"):
        pokemon["vitality"] = max(0, pokemon["vitality"] - event["amount"])
        if kind == "condition_damage" and event["condition"] == "bad_poison":
            pokemon["condition_turns"] = event["fraction"][0]
    elif kind == "stat_changed":
        if event["stat"] == "accuracy":
            stage = pokemon["accuracy_stage"] + event["stages"]
            pokemon["accuracy_stage"] = max(-6, min(6, stage))
        else:
            stats = pokemon["stats"]
            stats[event["stat"]] = max(1, stats[event["stat"]] + event["stages"])
    elif kind == "condition_inflicted":
        _inflict(pokemon, event)
    elif kind == "condition_cured":
        _cure(pokemon, event["condition"])
    elif kind == "wake_checked":
        pokemon["condition_turns"] = event["turns_asleep"]
    elif kind == "confusion_checked":
        pokemon["volatile"]["confusion"]["turns_left"] = event["turns_left"]
