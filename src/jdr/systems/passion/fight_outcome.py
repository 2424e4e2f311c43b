"""What a Passion fight leaves on its stored fighters' sheets when it ends (`jdr fight end`).

Each stored fighter keeps the Passion and Énergie it spent (PS-5, PS-7, PS-8), its weapons' and
protections' Énergie (PS-14, PS-15), and the XP and levels its rolls gave its talents and
potentials (PS-17, PS-18: a Corps raised in the fight stays raised). Markers ticked off come back
(PS-12: "for the rest of the fight"); wounds are the fight's (the sheet has no wound track).

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> from jdr.systems.passion.fight_state import _fighter
>>> romuald = tomllib.loads(systems_example("passion", "romuald"))
>>> fighter = _fighter(romuald | {"side": "a", "npc": False, "xp": {}, "ticked_markers": []})
>>> final = {"fighters": {"Romuald": fighter | {"passion": 1, "potentials": {"Corps": 4,
...          "Esprit": 2, "Mobilité": 2}}}}
>>> after = fight_outcome(FightEnd({"Romuald": romuald}, {}, final))["Romuald"].sheet
>>> after["passion"], after["potentials"]["Corps"]
({'current': 1, 'max': 5}, 4)
"""

from __future__ import annotations

from jdr.systems.protocol import Effect, FightEnd, Json

__all__ = ["fight_outcome"]


def fight_outcome(end: FightEnd) -> dict[str, Effect]:
    """Each stored fighter's sheet after the fight (see the module's docstring)."""
    done = {}
    for name, sheet in end.start.items():
        fought = end.final.get("fighters", {}).get(name)
        if fought is None:
            continue
        after: Json = dict(sheet)
        rules: list[str] = []
        for pool in ("passion", "energy"):
            if fought[pool] != sheet[pool]["current"]:
                after[pool] = {**sheet[pool], "current": fought[pool]}
                rules.append("PS-5")
        for kind, rule in (("weapons", "PS-14"), ("protections", "PS-15")):
            items = [_item(item, fought[kind]) for item in sheet.get(kind, [])]
            if items != sheet.get(kind, []):
                after[kind] = items
                rules.append(rule)
        for key in ("talents", "potentials", "xp"):
            grown = {**sheet.get(key, {}), **fought[key]}
            if grown != sheet.get(key, {}):
                after[key] = grown
                rules += ["PS-17", "PS-18"]
        if rules:
            done[name] = Effect(name, after, tuple(dict.fromkeys(rules)))
    return done


def _item(item: Json, fought: list[Json]) -> Json:
    """A weapon or protection with the Énergie the fight left it."""
    energy = item.get("energy")
    match = next((each for each in fought if each["name"] == item["name"]), None)
    if energy is None or match is None or match.get("energy") is None:
        return item
    return {**item, "energy": {**energy, "current": match["energy"]}}
