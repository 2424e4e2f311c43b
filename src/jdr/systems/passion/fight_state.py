"""The state of a Passion fight and `evolve`, the only way it changes (PS-5 … PS-18).

A fight's state is `fold(evolve, events, {})`, a JSON dict; `evolve` never rolls: every face and
every number is in the events (the vocabulary is in `jdr.systems.passion.fight`).

>>> fighter = {"name": "Kai", "side": "a", "npc": False, "potentials": {"Mobilité": 2},
...            "talents": {}, "xp": {}, "passion": {"current": 4, "max": 4},
...            "energy": {"current": 2, "max": 2}, "ticked_markers": [], "weapons": [],
...            "protections": [], "uses": {"mobility": "Mobilité"}}
>>> state = evolve({}, {"type": "fight_started", "fighters": [fighter], "settings": {}})
>>> state = evolve(state, {"type": "pool_spent", "name": "Kai", "pool": "passion",
...                        "item": None, "amount": 4, "use": "deus_ex_machina"})
>>> state["fighters"]["Kai"]["passion"], state["fighters"]["Kai"]["available"][:3]
(0, [0, 1, 2])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from jdr.i18n import _
from jdr.names import find as find_name
from jdr.names import fold as fold_name
from jdr.systems.passion.initiative import MARKERS
from jdr.systems.protocol import Json


def find(state: Json, name: Any) -> str | None:
    """The fighter's name as the fight knows it (named as people type them, `jdr.names`), else
    None."""
    if not isinstance(name, str):
        return None
    if name in state["fighters"]:  # as the fight spells it: the common case, no lookup
        return name
    return find_name(name, list(state["fighters"]), _("fighter"))


def standing(state: Json, name: str) -> bool:
    """Still in the fight (not down, PS-16 reading)."""
    fighter = state["fighters"].get(name)
    return bool(fighter and not fighter["down"])


def in_fight(state: Json) -> list[str]:
    """The standing fighters, in setup order."""
    return [name for name, fighter in state["fighters"].items() if not fighter["down"]]


def sides_left(state: Json) -> list[str]:
    """The sides that still have a standing fighter, in setup order."""
    sides: list[str] = []
    for fighter in state["fighters"].values():
        if not fighter["down"] and fighter["side"] not in sides:
            sides.append(fighter["side"])
    return sides


def score(fighter: Json, name: str) -> tuple[str, int, bool] | None:
    """`(key, score, is_potential)` of a talent or potential (no case, no accents), else None.
    A sheet never has a talent and a potential of the same folded name, so a key spelt as the
    sheet spells it is the one."""
    if name in fighter["talents"]:
        return name, int(fighter["talents"][name]), False
    if name in fighter["potentials"]:
        return name, int(fighter["potentials"][name]), True
    wanted = fold_name(name)
    for key, value in fighter["talents"].items():
        if fold_name(key) == wanted:
            return key, int(value), False
    for key, value in fighter["potentials"].items():
        if fold_name(key) == wanted:
            return key, int(value), True
    return None


def item(fighter: Json, kind: str, name: Any) -> Json | None:
    """The weapon or protection (`kind`: `weapons` | `protections`) called `name`, else None."""
    if not isinstance(name, str):
        return None
    for each in fighter[kind]:
        if each["name"] == name:  # two items never share a folded name
            exact: Json = each
            return exact
    wanted = fold_name(name)
    found: Json | None = next(
        (each for each in fighter[kind] if fold_name(each["name"]) == wanted), None
    )
    return found


def _item(data: Json) -> Json:
    """A weapon or a protection with its Énergie as two numbers, last (None: it has none)."""
    kept = dict(data)
    energy = kept.pop("energy", None)
    kept["energy"] = None if energy is None else energy["current"]
    kept["energy_max"] = None if energy is None else energy["max"]
    return kept


def _fighter(sheet: Json) -> Json:
    """A fighter from its checked sheet: pools as numbers, markers available (PS-9, PS-12)."""
    return {
        "name": sheet["name"],
        "side": sheet["side"],
        "npc": sheet["npc"],
        "potentials": dict(sheet["potentials"]),
        "talents": dict(sheet["talents"]),
        "xp": dict(sheet["xp"]),
        "passion": sheet["passion"]["current"],
        "passion_max": sheet["passion"]["max"],
        "energy": sheet["energy"]["current"],
        "energy_max": sheet["energy"]["max"],
        "available": [m for m in MARKERS if m not in sheet["ticked_markers"]],
        "weapons": [_item(w) for w in sheet["weapons"]],
        "protections": [_item(p) for p in sheet["protections"]],
        "uses": dict(sheet["uses"]),
        "wounds": 0,
        "down": False,
        "marker": None,
        "potential": None,
        "mobility": None,
        "initiative": None,
        "failed": False,
    }


def has_chosen(fighter: Json) -> bool:
    """Whether the fighter has chosen its initiative marker this round (PS-9), sealed or not."""
    return fighter.get("secret") is not None or fighter["marker"] is not None


def choice_of(fighter: Json) -> Json | None:
    """The fighter's initiative choice this round (PS-9): `{"marker", "potential", "mobility"}`,
    sealed or not; None before it chose."""
    secret = fighter.get("secret")
    if secret is not None:
        return {key: secret[key] for key in ("marker", "potential", "mobility")}
    if fighter["marker"] is None:
        return None
    return {key: fighter[key] for key in ("marker", "potential", "mobility")}


def _start(_state: Json, event: Json) -> Json:
    return {
        "sealed": bool(event.get("sealed", False)),
        "round": 0,
        "phase": "markers",
        "settings": dict(event["settings"]),
        "fighters": {f["name"]: _fighter(f) for f in event["fighters"]},
        "slots": [],
        "turn": None,
        "action": None,
        "waiting": None,
        "over": False,
        "winner": None,
    }


def evolve(state: Json, event: Json) -> Json:
    """The state after `event`; `state` itself is not changed, and the new state shares with it
    every part the event leaves alone: a fold copies the fighters and the parts of the action an
    event touches, not the whole fight (issue 21). It shares the event's parts too (the slots, an
    action's targets, a roll's faces …): events are records, never changed either."""
    handler = _HANDLERS.get(event["type"])
    return state if handler is None else handler(state, event)


# --- the copies of their own an event's changes are made in ------------------------------------


def _with_fighter(state: Json, name: str) -> tuple[Json, Json]:
    """A next state with `name`'s fighter a copy of its own (its containers still shared:
    replace them), and that fighter; every other part is `state`'s, shared."""
    fighters = dict(state["fighters"])
    fighter = fighters[name] = dict(fighters[name])
    return {**state, "fighters": fighters}, fighter


def _with_fighters(state: Json, names: Iterable[str]) -> tuple[Json, dict[str, Json]]:
    """`_with_fighter` for each of `names`: the next state and those fighters, by name."""
    fighters = dict(state["fighters"])
    copies = {name: dict(fighters[name]) for name in names}
    fighters.update(copies)
    return {**state, "fighters": fighters}, copies


def _result_of(new: Json, target: str) -> Json:
    """In `new`, a next state of its own, the action's result for `target` made a copy of its
    own, in an action and a table of results of their own."""
    action = new["action"] = dict(new["action"])
    results = action["results"] = dict(action["results"])
    result: Json = dict(results[target])
    results[target] = result
    return result


# --- what each event does ----------------------------------------------------------------------


def _round_started(state: Json, event: Json) -> Json:
    fighters: Json = {}
    for name, fighter in state["fighters"].items():
        fresh = fighter | _CLEARED
        fresh.pop("sealed", None)
        fresh.pop("secret", None)
        fighters[name] = fresh
    return state | {
        "round": event["round"],
        "phase": "markers",
        "slots": [],
        "turn": None,
        "fighters": fighters,
    }


_CLEARED: Json = {
    "marker": None,
    "potential": None,
    "mobility": None,
    "initiative": None,
    "failed": False,
}
"""A fighter's choice of a round, before it chooses (PS-9)."""


def _marker_chosen(state: Json, event: Json) -> Json:
    new, fighter = _with_fighter(state, event["name"])
    if "secret" in event:  # sealed until every fighter has chosen
        fighter["sealed"] = event["sealed"]
        fighter["secret"] = event["secret"]
    else:
        fighter["marker"] = event["marker"]
        fighter["potential"] = event["potential"]
        fighter["mobility"] = event["mobility"]
    return new


def _markers_revealed(state: Json, event: Json) -> Json:
    shown: Json = event["fighters"]
    new, fighters = _with_fighters(state, shown)
    for name, fighter in fighters.items():
        choice = shown[name]
        fighter["marker"] = choice["marker"]
        fighter["potential"] = choice["potential"]
        fighter["mobility"] = choice["mobility"]
        fighter["initiative"] = choice["initiative"]
        fighter.pop("secret", None)
    new["phase"] = "actions"
    new["slots"] = event["slots"]
    return new


def _turn_started(state: Json, event: Json) -> Json:
    return {**state, "turn": event["slot"], "slots": event["slots"]}


def _slots(state: Json, event: Json) -> Json:
    """`attack_split`: the parts take their places; the declaration was the fighter's turn."""
    return {**state, "slots": event["slots"], "turn": None}


def _action_started(state: Json, event: Json) -> Json:
    action = dict(event)
    del action["type"]
    slots = action.pop("slots", None)
    action["results"] = {}
    action["outcome"] = None
    if slots is None:
        return {**state, "action": action}
    return {**state, "action": action, "slots": slots}


def _pool_spent(state: Json, event: Json) -> Json:
    new, fighter = _with_fighter(state, event["name"])
    if event["item"] is None:
        fighter[event["pool"]] -= event["amount"]
        return new
    for kind in ("weapons", "protections"):
        for index, each in enumerate(fighter[kind]):
            if each["name"] == event["item"]:
                items = list(fighter[kind])
                items[index] = each | {"energy": each["energy"] - event["amount"]}
                fighter[kind] = items
                return new
    return new


def _roll_made(state: Json, event: Json) -> Json:
    roll = dict(event)
    del roll["type"]
    roll["npc_passion"] = 0
    return {**state, "waiting": {"for": "settle", "actor": event["roller"], "roll": roll}}


def _npc_passion_spent(state: Json, event: Json) -> Json:
    new, fighter = _with_fighter(state, event["name"])
    fighter["passion"] -= event["amount"]
    waiting = new["waiting"] = dict(new["waiting"])
    roll = waiting["roll"] = dict(waiting["roll"])
    roll["npc_passion"] += event["amount"]
    return new


def _roll_settled(state: Json, event: Json) -> Json:
    new = {**state, "waiting": None}
    if new["action"] is None:
        return new
    if event["kind"] in ("violence", "robustness"):
        _result_of(new, event["target"])[event["kind"]] = {
            "dice": [event["dice_positives"], event["dice_negatives"]],
            "passion": event["passion"],
            "npc_passion": event["npc_passion"],
            "margin": event["margin"],
        }
    elif event["kind"] != "dodge":
        new["action"] = {**new["action"], "outcome": event["outcome"]}
    return new


def _waiting(state: Json, event: Json) -> Json:
    waiting = dict(event)
    del waiting["type"]
    return {**state, "waiting": waiting}


def _dodge_declined(state: Json, _event: Json) -> Json:
    return {**state, "waiting": None}


def _damage_dice_chosen(state: Json, event: Json) -> Json:
    new = {**state, "waiting": None}
    result = _result_of(new, event["target"])
    result[f"{event['step']}_chosen"] = True
    result[f"{event['step']}_energy"] = event["item_energy"]
    return new


def _target_result(state: Json, event: Json) -> Json:
    hit = event["type"] == "target_hit"
    result: Json = {"hit": hit, "done": not hit}
    if hit:
        result |= {
            key: event[key]
            for key in ("damage", "damage_type", "resistance", "violence_dice", "robustness_dice")
        }
        result |= {"violence_chosen": not (event["violence_dice"] or event["weapon_energy_left"])}
        result |= {"violence_energy": event["weapon_energy"]}
        result |= {
            "robustness_chosen": not (event["robustness_dice"] or event["protection_energy_left"])
        }
        result |= {"robustness_energy": False}
        result |= {"violence": None, "robustness": None}
    action = state["action"]
    results = {**action["results"], event["target"]: result}
    return {**state, "waiting": None, "action": {**action, "results": results}}


def _wounded(state: Json, event: Json) -> Json:
    new, fighter = _with_fighter(state, event["name"])
    fighter["wounds"] += event["wounds"]
    action = new["action"]
    if action is not None and event["name"] in action["results"]:
        _result_of(new, event["name"])["done"] = True
    return new


def _fighter_down(state: Json, event: Json) -> Json:
    new, fighter = _with_fighter(state, event["name"])
    fighter["down"] = True
    return new


def _action_ended(state: Json, event: Json) -> Json:
    if not event["failed"]:
        return {**state, "action": None, "turn": None}
    new, fighters = _with_fighters(state, event["participants"])
    for fighter in fighters.values():
        fighter["failed"] = True
    new["action"] = new["turn"] = None
    return new


def _passed(state: Json, _event: Json) -> Json:
    return {**state, "turn": None}


def _marker_ticked(state: Json, event: Json) -> Json:
    new, fighter = _with_fighter(state, event["name"])
    fighter["available"] = [m for m in fighter["available"] if m != event["marker"]]
    return new


def _xp_changed(state: Json, event: Json) -> Json:
    new, fighter = _with_fighter(state, event["fighter"])
    fighter["xp"] = fighter["xp"] | {event["name"]: event["xp"]}
    return new


def _level_changed(state: Json, event: Json) -> Json:
    new, fighter = _with_fighter(state, event["fighter"])
    kind = "talents" if event["name"] in fighter["talents"] else "potentials"
    fighter[kind] = fighter[kind] | {event["name"]: event["level"]}
    fighter["xp"] = fighter["xp"] | {event["name"]: event["xp"]}
    return new


def _fight_over(state: Json, event: Json) -> Json:
    over = {"over": True, "winner": event["winner"], "phase": "over", "turn": None}
    return state | over | {"waiting": None}


_HANDLERS: dict[str, Callable[[Json, Json], Json]] = {
    "fight_started": _start,
    "round_started": _round_started,
    "marker_chosen": _marker_chosen,
    "markers_revealed": _markers_revealed,
    "turn_started": _turn_started,
    "attack_split": _slots,
    "action_started": _action_started,
    "pool_spent": _pool_spent,
    "roll_made": _roll_made,
    "npc_passion_spent": _npc_passion_spent,
    "roll_settled": _roll_settled,
    "waiting": _waiting,
    "dodge_declined": _dodge_declined,
    "damage_dice_chosen": _damage_dice_chosen,
    "target_hit": _target_result,
    "target_missed": _target_result,
    "wounded": _wounded,
    "fighter_down": _fighter_down,
    "action_ended": _action_ended,
    "passed": _passed,
    "marker_ticked": _marker_ticked,
    "xp_changed": _xp_changed,
    "level_changed": _level_changed,
    "fight_over": _fight_over,
}
"""The next state after each kind of event; any other event (`deus_ex_machina`, `marker_kept`)
is a record: the state stays as it is."""
