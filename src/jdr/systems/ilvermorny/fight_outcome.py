"""What a duel leaves on its stored wizards' sheets when it ends (`jdr fight end`): each spell's
XP and level as the casts left them (IL-7, IL-8).

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> mary = tomllib.loads(systems_example("ilvermorny", "wizard"))
>>> final = {"spells": {"Mary": {"Expelliarmus": {"level": 3, "xp": 4}}}}
>>> after = fight_outcome(FightEnd({"Mary": mary}, {}, final))["Mary"].sheet
>>> [(s["level"], s["xp"]) for s in after["spells"] if s["name"] == "Expelliarmus"]
[(3, 4)]
"""

from __future__ import annotations

from jdr.systems.protocol import Effect, FightEnd

__all__ = ["fight_outcome"]


def fight_outcome(end: FightEnd) -> dict[str, Effect]:
    """Each stored wizard's spells after the duel."""
    done = {}
    for name, sheet in end.start.items():
        cast = end.final.get("spells", {}).get(name)
        if not cast:
            continue
        spells = [
            {**spell, **{k: cast[spell["name"]][k] for k in ("level", "xp")}}
            if spell["name"] in cast
            else spell
            for spell in sheet.get("spells", [])
        ]
        if spells != sheet.get("spells", []):
            done[name] = Effect(name, {**sheet, "spells": spells}, ("IL-7", "IL-8"))
    return done
