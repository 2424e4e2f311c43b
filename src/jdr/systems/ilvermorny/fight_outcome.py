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

from collections.abc import Callable

from jdr.systems.protocol import Effect, FightEnd, Json

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
            after = {**sheet, "spells": spells}
            done[name] = Effect(name, after, ("IL-7", "IL-8"), _why(name, sheet, after))
    return done


def _why(name: str, before: Json, after: Json) -> Callable[[], list[str]]:
    """One sentence per spell the duel changed, in the language it is read in.

    >>> spell = {"name": "Lumos", "level": 1, "xp": 8}
    >>> _why("Mary", {"spells": [spell]}, {"spells": [spell | {"xp": 11}]})()
    ["Mary's Lumos after the duel's casts: XP 8 → 11 (IL-7, IL-8)"]
    """

    def sentences() -> list[str]:
        from jdr.i18n import _

        lines = []
        for old, new in zip(before.get("spells", []), after.get("spells", []), strict=False):
            moved = [
                f"{word} {old[key]} → {new[key]}"
                for key, word in (("xp", _("XP")), ("level", _("level")))
                if old.get(key) != new.get(key)
            ]
            if moved:
                lines.append(
                    _("{name}'s {spell} after the duel's casts: {changes} (IL-7, IL-8)").format(
                        name=name, spell=new["name"], changes=", ".join(moved)
                    )
                )
        return lines

    return sentences
