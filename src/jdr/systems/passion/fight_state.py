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
    return find_name(name, list(state["fighters"]), _("fighter"))


def standing(state: Json, name: str) -> bool:
    """Still in the fight (not down, PS-16 reading)."""
    fighter = state["fighters"].get(name)
    return bool(fighter and not fighter["down"])


def in_fight(state: Json) -> list[str]:
    """The standing fighters, in setup order."""
    return [name for name in state["fighters"] if standing(state, name)]


def sides_left(state: Json) -> list[str]:
    """The sides that still have a standing fighter, in setup order."""
    sides: list[str] = []
    for name in in_fight(state):
        side = state["fighters"][name]["side"]
        if side not in sides:
            sides.append(side)
    return sides


def score(fighter: Json, name: str) -> tuple[str, int, bool] | None:
    """`(key, score, is_potential)` of a talent or potential (no case, no accents), else None."""
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
    wanted = fold_name(name)
    found: Json | None = next(
        (each for each in fighter[kind] if fold_name(each["name"]) == wanted), None
    )
    return found


def _copy(value: Any) -> Any:
    """A copy of JSON data (faster than `copy.deepcopy`, which a fold calls a lot)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _item(data: Json) -> Json:
    energy = data.get("energy")
    return {k: v for k, v in data.items() if k != "energy"} | {
        "energy": None if energy is None else energy["current"],
        "energy_max": None if energy is None else energy["max"],
    }


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


def choice_of(fighter: Json) -> Json | None:
    """The fighter's initiative choice this round (PS-9): `{"marker", "potential", "mobility"}`,
    sealed or not; None before it chose."""
    secret = fighter.get("secret")
    if secret is not None:
        return {key: secret[key] for key in ("marker", "potential", "mobility")}
    if fighter["marker"] is None:
        return None
    return {key: fighter[key] for key in ("marker", "potential", "mobility")}


def _start(event: Json) -> Json:
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
    """The state after `event`; `state` itself is not changed."""
    kind = event["type"]
    if kind == "fight_started":
        return _start(event)
    new: Json = _copy(state)
    handler = _HANDLERS.get(kind)
    if handler is not None:
        handler(new, event)
    return new


def _round_started(state: Json, event: Json) -> None:
    state.update(round=event["round"], phase="markers", slots=[], turn=None)
    for fighter in state["fighters"].values():
        fighter.update(marker=None, potential=None, mobility=None, initiative=None, failed=False)
        fighter.pop("sealed", None)
        fighter.pop("secret", None)


def _marker_chosen(state: Json, event: Json) -> None:
    fighter = state["fighters"][event["name"]]
    if "secret" in event:  # sealed until every fighter has chosen
        fighter.update(sealed=event["sealed"], secret=dict(event["secret"]))
        return
    fighter.update(marker=event["marker"], potential=event["potential"])
    fighter["mobility"] = event["mobility"]


def _markers_revealed(state: Json, event: Json) -> None:
    state.update(phase="actions", slots=_copy(event["slots"]))
    for name, shown in event["fighters"].items():
        fighter = state["fighters"][name]
        fighter.update(marker=shown["marker"], potential=shown["potential"])
        fighter.update(mobility=shown["mobility"], initiative=shown["initiative"])
        fighter.pop("secret", None)


def _turn_started(state: Json, event: Json) -> None:
    state["turn"] = _copy(event["slot"])
    state["slots"] = _copy(event["slots"])


def _slots(state: Json, event: Json) -> None:
    """`attack_split`: the parts take their places; the declaration was the fighter's turn."""
    state["slots"] = _copy(event["slots"])
    state["turn"] = None


def _action_started(state: Json, event: Json) -> None:
    action = {k: _copy(v) for k, v in event.items() if k not in ("type", "slots")}
    state["action"] = action | {"results": {}, "outcome": None}
    if "slots" in event:
        state["slots"] = _copy(event["slots"])


def _pool_spent(state: Json, event: Json) -> None:
    fighter = state["fighters"][event["name"]]
    if event["item"] is None:
        fighter[event["pool"]] -= event["amount"]
        return
    for kind in ("weapons", "protections"):
        for each in fighter[kind]:
            if each["name"] == event["item"]:
                each["energy"] -= event["amount"]
                return


def _roll_made(state: Json, event: Json) -> None:
    roll = {k: _copy(v) for k, v in event.items() if k != "type"}
    state["waiting"] = {
        "for": "settle",
        "actor": event["roller"],
        "roll": roll | {"npc_passion": 0},
    }


def _npc_passion_spent(state: Json, event: Json) -> None:
    state["fighters"][event["name"]]["passion"] -= event["amount"]
    state["waiting"]["roll"]["npc_passion"] += event["amount"]


def _roll_settled(state: Json, event: Json) -> None:
    state["waiting"] = None
    action = state["action"]
    if action is None:
        return
    if event["kind"] in ("violence", "robustness"):
        result = action["results"][event["target"]]
        result[event["kind"]] = {
            "dice": [event["dice_positives"], event["dice_negatives"]],
            "passion": event["passion"],
            "npc_passion": event["npc_passion"],
            "margin": event["margin"],
        }
    elif event["kind"] != "dodge":
        action["outcome"] = event["outcome"]


def _waiting(state: Json, event: Json) -> None:
    state["waiting"] = {k: v for k, v in event.items() if k != "type"}


def _dodge_declined(state: Json, _event: Json) -> None:
    state["waiting"] = None


def _damage_dice_chosen(state: Json, event: Json) -> None:
    state["waiting"] = None
    result = state["action"]["results"][event["target"]]
    result[f"{event['step']}_chosen"] = True
    result[f"{event['step']}_energy"] = event["item_energy"]


def _target_result(state: Json, event: Json) -> None:
    state["waiting"] = None
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
    state["action"]["results"][event["target"]] = result


def _wounded(state: Json, event: Json) -> None:
    state["fighters"][event["name"]]["wounds"] += event["wounds"]
    if state["action"] is not None and event["name"] in state["action"]["results"]:
        state["action"]["results"][event["name"]]["done"] = True


def _fighter_down(state: Json, event: Json) -> None:
    state["fighters"][event["name"]]["down"] = True


def _action_ended(state: Json, event: Json) -> None:
    for name in event["participants"]:
        state["fighters"][name]["failed"] = state["fighters"][name]["failed"] or event["failed"]
    state.update(action=None, turn=None)


def _passed(state: Json, _event: Json) -> None:
    state["turn"] = None


def _marker_ticked(state: Json, event: Json) -> None:
    fighter = state["fighters"][event["name"]]
    fighter["available"] = [m for m in fighter["available"] if m != event["marker"]]


def _xp_changed(state: Json, event: Json) -> None:
    state["fighters"][event["fighter"]]["xp"][event["name"]] = event["xp"]


def _level_changed(state: Json, event: Json) -> None:
    fighter = state["fighters"][event["fighter"]]
    kind = "talents" if event["name"] in fighter["talents"] else "potentials"
    fighter[kind][event["name"]] = event["level"]
    fighter["xp"][event["name"]] = event["xp"]


def _fight_over(state: Json, event: Json) -> None:
    state.update(over=True, winner=event["winner"], phase="over", turn=None, waiting=None)


_HANDLERS = {
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
"""What each event does; any other event (`deus_ex_machina`, `marker_kept`) is a record."""
