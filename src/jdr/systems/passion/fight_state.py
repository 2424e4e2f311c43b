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

from collections.abc import Callable
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
    exact: Json | None = next((each for each in fighter[kind] if each["name"] == name), None)
    if exact is not None:  # two items never share a folded name
        return exact
    wanted = fold_name(name)
    found: Json | None = next(
        (each for each in fighter[kind] if fold_name(each["name"]) == wanted), None
    )
    return found


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
    """The state after `event`; `state` itself is not changed, and the new state shares with it
    every part the event leaves alone (`Draft`: a fold copies the fighters and the parts of the
    action an event touches, not the whole fight: issue 21). It shares the event's parts too (the
    slots, an action's targets, a roll's faces …): events are records, never changed either."""
    kind = event["type"]
    if kind == "fight_started":
        return _start(event)
    draft = Draft(state)
    handler = _HANDLERS.get(kind)
    if handler is not None:
        handler(draft, event)
    return draft.state


class Draft:
    """The next state while an event is applied: a new top-level dict, and a copy of its own of
    each part the event changes, made the first time it is asked for (`fighter`, `action`,
    `result`, `waiting`); every other part is the previous state's, shared, never changed."""

    __slots__ = ("_action", "_fighters", "_waiting", "state")

    def __init__(self, state: Json) -> None:
        self.state: Json = dict(state)
        self._fighters: set[str] | None = None
        self._action: set[str] | None = None
        self._waiting = False

    def fighter(self, name: str) -> Json:
        """`name`'s fighter, a copy of its own (its containers still shared: replace them)."""
        if self._fighters is None:
            self.state["fighters"] = dict(self.state["fighters"])
            self._fighters = set()
        if name not in self._fighters:
            self.state["fighters"][name] = dict(self.state["fighters"][name])
            self._fighters.add(name)
        found: Json = self.state["fighters"][name]
        return found

    def action(self) -> Json:
        """The action in progress, a copy of its own with its own `results` table."""
        if self._action is None:
            action = dict(self.state["action"])
            action["results"] = dict(action["results"])
            self.state["action"] = action
            self._action = set()
        found: Json = self.state["action"]
        return found

    def result(self, target: str) -> Json:
        """The action's result for `target`, a copy of its own."""
        results = self.action()["results"]
        assert self._action is not None
        if target not in self._action:
            results[target] = dict(results[target])
            self._action.add(target)
        found: Json = results[target]
        return found

    def waiting(self) -> Json:
        """What the fight waits for, a copy of its own with its own `roll`."""
        if not self._waiting:
            waiting = dict(self.state["waiting"])
            waiting["roll"] = dict(waiting["roll"])
            self.state["waiting"] = waiting
            self._waiting = True
        found: Json = self.state["waiting"]
        return found


def _round_started(draft: Draft, event: Json) -> None:
    draft.state.update(round=event["round"], phase="markers", slots=[], turn=None)
    for name in draft.state["fighters"]:
        fighter = draft.fighter(name)
        fighter.update(marker=None, potential=None, mobility=None, initiative=None, failed=False)
        fighter.pop("sealed", None)
        fighter.pop("secret", None)


def _marker_chosen(draft: Draft, event: Json) -> None:
    fighter = draft.fighter(event["name"])
    if "secret" in event:  # sealed until every fighter has chosen
        fighter.update(sealed=event["sealed"], secret=event["secret"])
        return
    fighter.update(marker=event["marker"], potential=event["potential"])
    fighter["mobility"] = event["mobility"]


def _markers_revealed(draft: Draft, event: Json) -> None:
    draft.state.update(phase="actions", slots=event["slots"])
    for name, shown in event["fighters"].items():
        fighter = draft.fighter(name)
        fighter.update(marker=shown["marker"], potential=shown["potential"])
        fighter.update(mobility=shown["mobility"], initiative=shown["initiative"])
        fighter.pop("secret", None)


def _turn_started(draft: Draft, event: Json) -> None:
    draft.state["turn"] = event["slot"]
    draft.state["slots"] = event["slots"]


def _slots(draft: Draft, event: Json) -> None:
    """`attack_split`: the parts take their places; the declaration was the fighter's turn."""
    draft.state["slots"] = event["slots"]
    draft.state["turn"] = None


def _action_started(draft: Draft, event: Json) -> None:
    action = dict(event)
    del action["type"]
    slots = action.pop("slots", None)
    action["results"] = {}
    action["outcome"] = None
    draft.state["action"] = action
    if slots is not None:
        draft.state["slots"] = slots


def _pool_spent(draft: Draft, event: Json) -> None:
    fighter = draft.fighter(event["name"])
    if event["item"] is None:
        fighter[event["pool"]] -= event["amount"]
        return
    for kind in ("weapons", "protections"):
        for index, each in enumerate(fighter[kind]):
            if each["name"] == event["item"]:
                items = list(fighter[kind])
                items[index] = each | {"energy": each["energy"] - event["amount"]}
                fighter[kind] = items
                return


def _roll_made(draft: Draft, event: Json) -> None:
    roll = dict(event)
    del roll["type"]
    roll["npc_passion"] = 0
    draft.state["waiting"] = {"for": "settle", "actor": event["roller"], "roll": roll}


def _npc_passion_spent(draft: Draft, event: Json) -> None:
    draft.fighter(event["name"])["passion"] -= event["amount"]
    draft.waiting()["roll"]["npc_passion"] += event["amount"]


def _roll_settled(draft: Draft, event: Json) -> None:
    draft.state["waiting"] = None
    if draft.state["action"] is None:
        return
    if event["kind"] in ("violence", "robustness"):
        draft.result(event["target"])[event["kind"]] = {
            "dice": [event["dice_positives"], event["dice_negatives"]],
            "passion": event["passion"],
            "npc_passion": event["npc_passion"],
            "margin": event["margin"],
        }
    elif event["kind"] != "dodge":
        draft.action()["outcome"] = event["outcome"]


def _waiting(draft: Draft, event: Json) -> None:
    waiting = dict(event)
    del waiting["type"]
    draft.state["waiting"] = waiting


def _dodge_declined(draft: Draft, _event: Json) -> None:
    draft.state["waiting"] = None


def _damage_dice_chosen(draft: Draft, event: Json) -> None:
    draft.state["waiting"] = None
    result = draft.result(event["target"])
    result[f"{event['step']}_chosen"] = True
    result[f"{event['step']}_energy"] = event["item_energy"]


def _target_result(draft: Draft, event: Json) -> None:
    draft.state["waiting"] = None
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
    draft.action()["results"][event["target"]] = result


def _wounded(draft: Draft, event: Json) -> None:
    draft.fighter(event["name"])["wounds"] += event["wounds"]
    action = draft.state["action"]
    if action is not None and event["name"] in action["results"]:
        draft.result(event["name"])["done"] = True


def _fighter_down(draft: Draft, event: Json) -> None:
    draft.fighter(event["name"])["down"] = True


def _action_ended(draft: Draft, event: Json) -> None:
    if event["failed"]:
        for name in event["participants"]:
            draft.fighter(name)["failed"] = True
    draft.state.update(action=None, turn=None)


def _passed(draft: Draft, _event: Json) -> None:
    draft.state["turn"] = None


def _marker_ticked(draft: Draft, event: Json) -> None:
    fighter = draft.fighter(event["name"])
    fighter["available"] = [m for m in fighter["available"] if m != event["marker"]]


def _xp_changed(draft: Draft, event: Json) -> None:
    fighter = draft.fighter(event["fighter"])
    fighter["xp"] = fighter["xp"] | {event["name"]: event["xp"]}


def _level_changed(draft: Draft, event: Json) -> None:
    fighter = draft.fighter(event["fighter"])
    kind = "talents" if event["name"] in fighter["talents"] else "potentials"
    fighter[kind] = fighter[kind] | {event["name"]: event["level"]}
    fighter["xp"] = fighter["xp"] | {event["name"]: event["xp"]}


def _fight_over(draft: Draft, event: Json) -> None:
    draft.state.update(over=True, winner=event["winner"], phase="over", turn=None, waiting=None)


_HANDLERS: dict[str, Callable[[Draft, Json], None]] = {
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
"""What each event does to the draft of the next state; any other event (`deus_ex_machina`,
`marker_kept`) is a record."""
