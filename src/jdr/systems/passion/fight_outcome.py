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

from collections.abc import Callable

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
            done[name] = Effect(name, after, tuple(dict.fromkeys(rules)), _why(name, sheet, after))
    return done


def _why(name: str, before: Json, after: Json) -> Callable[[], list[str]]:
    """The outcome in sentences, each with its rules, in the language it is read in.

    >>> pools = {"passion": {"current": 5, "max": 5}, "energy": {"current": 6, "max": 6}}
    >>> _why("Romuald", pools, pools | {"passion": {"current": 1, "max": 5}})()
    ['Romuald keeps what the fight spent: Passion 5 → 1 (PS-5)']
    """

    def sentences() -> list[str]:
        from jdr.characters.changes import diff
        from jdr.i18n import _
        from jdr.sheet_words import change_text
        from jdr.systems.passion.sheet_words import SHEET_WORDS

        groups: dict[str, list[str]] = {}
        for change in diff(before, after):
            head = change["path"][0]
            group = {"passion": "pools", "energy": "pools", "weapons": "gear"}.get(head, head)
            group = "gear" if group == "protections" else group
            groups.setdefault(group, []).append(change_text(change, before, SHEET_WORDS))
        texts = {
            "pools": _("{name} keeps what the fight spent: {changes} (PS-5)"),
            "gear": _(
                "{name}'s gear keeps the Énergie the fight left it: {changes} (PS-14, PS-15)"
            ),
        }
        grown = _("{name} keeps what its rolls taught: {changes} (PS-17, PS-18)")
        return [
            texts.get(group, grown).format(name=name, changes=", ".join(changes))
            for group, changes in groups.items()
        ]

    return sentences


def _item(item: Json, fought: list[Json]) -> Json:
    """A weapon or protection with the Énergie the fight left it."""
    energy = item.get("energy")
    match = next((each for each in fought if each["name"] == item["name"]), None)
    if energy is None or match is None or match.get("energy") is None:
        return item
    return {**item, "energy": {**energy, "current": match["energy"]}}
