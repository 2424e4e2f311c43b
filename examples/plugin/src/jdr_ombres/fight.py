"""OM-4, OM-5: a stress fight, as a decider (`start`, `decide`, `evolve`, `legal_commands`).

State (a JSON dict): `{"fighters": {name: {"name", "side", "combat", "resolve", "stress",
"stress_max", "broken"}}, "order": [names], "turn": name, "over": bool, "winners": [names]}`.
Events: `fight_started`, `attacked`, `recovered`, `broken`, `turn_passed`, and two that jdr
narrates itself: `joined` and `fight_over`.
"""

from __future__ import annotations

from typing import Any

from jdr.dice import RandomSource
from jdr.errors import RulesError
from jdr.i18n import _
from jdr.names import duplicate
from jdr.systems import Json

from jdr_ombres.rolls import Check, roll

ATTACK = {"critical_success": (4, 0), "success": (2, 0), "partial_success": (1, 1)}
"""OM-4: (stress to the target, stress to the attacker) by outcome; a failure: (0, 2)."""
RECOVER = {"critical_success": -3, "success": -2, "partial_success": -1, "failure": 1}


def fighter(name: str, sheet: Json, side: str) -> Json:
    """A fighter's setup from a stored sheet (JSON, as the sheet model dumps it)."""
    return {
        "name": name,
        "side": side,
        "combat": int(sheet.get("combat", 1)),
        "resolve": int(sheet.get("resolve", 1)),
        "stress_max": int(sheet.get("stress_max", 9)),
    }


def fight_setup(participants: list[Json], options: Json) -> Json:
    """`jdr fight new --campaign C --with A,B`: participants are `{"name", "sheet", "side"}`,
    options may hold `order` (names)."""
    fighters = [fighter(p["name"], p["sheet"], p["side"]) for p in participants]
    return {"fighters": fighters, "order": options.get("order") or [f["name"] for f in fighters]}


def join_command(name: str, sheet: Json, pairs: Json) -> Json:
    """`jdr fight act FIGHT NAME join side=b`: a stored character enters the fight."""
    return {
        "action": "join",
        "actor": name,
        "fighter": fighter(name, sheet, pairs.get("side", "b")),
    }


class Fight:
    def start(self, setup: Json, rng: RandomSource) -> list[Json]:
        fighters = list(setup.get("fighters", []))
        if len(fighters) < 2 or len({f["side"] for f in fighters}) < 2:
            raise RulesError(_("a fight needs fighters on two sides at least"), "OM-4")
        order = list(setup.get("order") or [f["name"] for f in fighters])
        return [{"type": "fight_started", "fighters": fighters, "order": order}]

    def decide(self, state: Json, command: Json, rng: RandomSource) -> list[Json]:
        if state.get("over"):
            raise RulesError(_("the fight is over"), "OM-5")
        action, actor = command.get("action"), command.get("actor")
        if action == "join":
            return self._join(state, command)
        if actor != state["turn"]:
            raise RulesError(_("it is {name}'s turn").format(name=state["turn"]), "OM-4")
        me = state["fighters"][actor]
        if action == "attack":
            target = self._target(state, actor, command.get("target"))
            record = roll(Check(dice=me["combat"]), rng)
            to_target, to_actor = ATTACK.get(record.outcome, (0, 2))
            stress = {target: to_target, actor: to_actor}
            events: list[Json] = [
                {
                    "type": "attacked",
                    "actor": actor,
                    "target": target,
                    "faces": list(record.faces),
                    "outcome": record.outcome,
                    "stress": {name: n for name, n in stress.items() if n},
                }
            ]
        elif action == "recover":
            record = roll(Check(dice=me["resolve"]), rng)
            change = max(-me["stress"], RECOVER[record.outcome])
            stress = {actor: change}
            events = [
                {
                    "type": "recovered",
                    "actor": actor,
                    "faces": list(record.faces),
                    "outcome": record.outcome,
                    "change": change,
                }
            ]
        else:
            raise RulesError(_("unknown command {name}").format(name=action), "OM-4")
        return events + self._after(state, stress, actor)

    def _join(self, state: Json, command: Json) -> list[Json]:
        new = command["fighter"]
        if duplicate(new["name"], state["fighters"]) is not None:  # as `_legal` judges it
            raise RulesError(_("{name} is already in the fight").format(name=new["name"]))
        return [{"type": "joined", "name": new["name"], "side": new["side"], "fighter": new}]

    def _target(self, state: Json, actor: str, target: Any) -> str:
        fighters = state["fighters"]
        if target not in fighters:
            raise RulesError(_("{name} is not in the fight").format(name=target), "OM-4")
        if fighters[target]["broken"] or fighters[target]["side"] == fighters[actor]["side"]:
            raise RulesError(
                _("{name} cannot be attacked: broken, or on your side").format(name=target),
                "OM-4",
            )
        return str(target)

    def _after(self, state: Json, stress: dict[str, int], actor: str) -> list[Json]:
        """OM-5: who breaks, then the end of the fight or the next turn."""
        events: list[Json] = []
        broken = {name for name, f in state["fighters"].items() if f["broken"]}
        for name, added in stress.items():
            f = state["fighters"][name]
            if added > 0 and f["stress"] + added >= f["stress_max"]:
                events.append({"type": "broken", "name": name})
                broken.add(name)
        standing = [n for n in state["order"] if n not in broken]
        sides = {state["fighters"][n]["side"] for n in standing}
        if len(sides) <= 1:
            return [*events, {"type": "fight_over", "winners": standing}]
        order = state["order"]
        start = order.index(actor)
        following = [order[(start + i) % len(order)] for i in range(1, len(order) + 1)]
        return [
            *events,
            {"type": "turn_passed", "name": next(n for n in following if n in standing)},
        ]

    def evolve(self, state: Json, event: Json) -> Json:
        kind = event["type"]
        if kind == "fight_started":
            fighters = {f["name"]: {**f, "stress": 0, "broken": False} for f in event["fighters"]}
            order = event["order"]
            return {"fighters": fighters, "order": order, "turn": order[0], "over": False}
        fighters = {name: dict(f) for name, f in state["fighters"].items()}
        new = {**state, "fighters": fighters}
        if kind == "attacked":
            for name, added in event["stress"].items():
                fighters[name]["stress"] = min(
                    fighters[name]["stress_max"], fighters[name]["stress"] + added
                )
        elif kind == "recovered":
            me = fighters[event["actor"]]
            me["stress"] = min(me["stress_max"], me["stress"] + event["change"])
        elif kind == "broken":
            fighters[event["name"]]["broken"] = True
        elif kind == "turn_passed":
            new["turn"] = event["name"]
        elif kind == "joined":
            fighters[event["name"]] = {**event["fighter"], "stress": 0, "broken": False}
            new["order"] = [*state["order"], event["name"]]
        elif kind == "fight_over":
            new.update(over=True, winners=event["winners"], turn=None)
        return new

    def legal_commands(self, state: Json) -> list[str]:
        return [] if state.get("over") else ["attack", "recover", "join"]


FIGHT = Fight()
