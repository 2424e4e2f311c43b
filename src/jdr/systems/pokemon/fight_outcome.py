"""What a Pokémon fight leaves on its stored fighters' sheets when it ends (`jdr fight end`).

Each stored Pokémon keeps its Vitalité and Énergie as the fight left them, and a major condition
the fight inflicted (PK-16; volatile ones and stat changes last for the fight only, PK-8, PK-17).
When the fight has a winning side, each Pokémon gets XP (PK-24): on the winning side, half the
level of each opponent knocked out; on a losing side, a quarter of the highest level on the
winning side (floor, at least 1 each, `xp.fight_award`). A fight ended without a winner gives no
XP: the GM awards it (`jdr sheet award NAME defeated=LEVEL`).

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> pika = tomllib.loads(systems_example("pokemon", "pokemon"))
>>> rat = pika | {"name": "Rattata", "level": 6}
>>> def fighter(name, side, vitality, ko=False):
...     return {"side": side, "vitality": vitality, "energy": 5, "condition": None, "ko": ko}
>>> start = {"pokemon": {"Pikachu": fighter("Pikachu", "a", 14), "Rattata": fighter("R", "b", 14)}}
>>> final = {"over": True, "winner": "a", "pokemon": {"Pikachu": fighter("Pikachu", "a", 9),
...          "Rattata": fighter("Rattata", "b", 0, ko=True)}}
>>> done = fight_outcome(FightEnd({"Pikachu": pika, "Rattata": rat}, start, final))
>>> done["Pikachu"].sheet["vitality"], done["Pikachu"].sheet["xp"], done["Rattata"].sheet["xp"]
({'current': 9, 'max': 14}, 7, 5)
"""

from __future__ import annotations

from jdr.systems.pokemon.xp import fight_award
from jdr.systems.protocol import Effect, FightEnd, Json

__all__ = ["fight_outcome"]


def fight_outcome(end: FightEnd) -> dict[str, Effect]:
    """Each stored Pokémon's sheet after the fight (see the module's docstring)."""
    final = end.final.get("pokemon", {})
    initial = end.initial.get("pokemon", {})
    done = {}
    for name, sheet in end.start.items():
        fought = final.get(name)
        if fought is None or sheet.get("kind", "pokemon") != "pokemon":
            continue
        after = dict(sheet)
        after["vitality"] = {**sheet["vitality"], "current": fought["vitality"]}
        after["energy"] = {**sheet["energy"], "current": fought["energy"]}
        rules = ["PK-10", "PK-12"]
        began = (initial.get(name) or {}).get("condition")
        if fought["condition"] != began:
            after["condition"] = fought["condition"]
            rules.append("PK-16")
        xp = _xp(end, name)
        if xp:
            after["xp"] = int(sheet.get("xp", 0)) + xp
            rules.append("PK-24")
        done[name] = Effect(name, after, tuple(rules))
    return done


def _level(end: FightEnd, name: str) -> int:
    return int((end.start.get(name) or {}).get("level", 1))


def _xp(end: FightEnd, name: str) -> int:
    """PK-24 for `name`, from the winning side and the opponents knocked out."""
    winner = end.final.get("winner")
    everyone: dict[str, Json] = end.final.get("pokemon", {})
    if not end.final.get("over") or winner is None:
        return 0
    side = everyone[name]["side"]
    if side == winner:
        beaten = [n for n, p in everyone.items() if p["side"] != side and p.get("ko")]
        return sum(fight_award(_level(end, n), won=True) for n in beaten)
    winners = [n for n, p in everyone.items() if p["side"] == winner]
    return fight_award(max(_level(end, n) for n in winners), won=False) if winners else 0
