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

from collections.abc import Callable

from jdr.systems.pokemon.xp import fight_award
from jdr.systems.protocol import Effect, FightEnd, Json

Award = tuple[int, int, str, bool]
"""PK-24: `(xp, level, whose level, won)`."""

__all__ = ["fight_outcome"]


def fight_outcome(end: FightEnd) -> dict[str, Effect]:
    """Each stored Pokémon's sheet after the fight (see the module's docstring); its `why`
    says each change in a sentence with its rule.

    >>> from jdr.i18n import language
    >>> start = {"Pikachu": {"name": "Pikachu", "level": 5, "xp": 4, "condition": None,
    ...          "vitality": {"current": 14, "max": 14}, "energy": {"current": 10, "max": 10}},
    ...          "Carapuce": {"name": "Carapuce", "level": 6, "xp": 0, "condition": None,
    ...          "vitality": {"current": 12, "max": 12}, "energy": {"current": 8, "max": 8}}}
    >>> def fought(side, vitality, ko=False):
    ...     return {"side": side, "vitality": vitality, "energy": 6, "condition": None, "ko": ko}
    >>> final = {"over": True, "winner": "a", "pokemon": {"Pikachu": fought("a", 7),
    ...          "Carapuce": fought("b", 0, ko=True)}}
    >>> done = fight_outcome(FightEnd(start, {}, final))
    >>> with language("fr"):
    ...     done["Pikachu"].why()[-1]
    'Pikachu gagne 3 PX\\xa0: la moitié du niveau 6 de Carapuce (PK-24)'
    >>> done["Carapuce"].why()[-1]
    "Carapuce gains 1 XP: a quarter of Pikachu's level 5, the highest of the winning side (PK-24)"
    """
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
        awards = _awards(end, name)
        xp = sum(award[0] for award in awards)
        if xp:
            after["xp"] = int(sheet.get("xp", 0)) + xp
            rules.append("PK-24")
        done[name] = Effect(name, after, tuple(rules), _why(name, sheet, after, awards))
    return done


def _why(name: str, before: Json, after: Json, awards: list[Award]) -> Callable[[], list[str]]:
    """The sentences of one Pokémon's outcome, in the language of the moment they are read."""

    def sentences() -> list[str]:
        from jdr.i18n import _

        lines = []
        gauges = [
            f"{label} {before[key]['current']} → {after[key]['current']}"
            for key, label in (("vitality", "Vitalité"), ("energy", "Énergie"))
            if before[key]["current"] != after[key]["current"]
        ]
        if gauges:
            lines.append(
                _("{name} keeps what the fight left: {gauges} (PK-10, PK-12)").format(
                    name=name, gauges=", ".join(gauges)
                )
            )
        if after.get("condition") != before.get("condition"):
            from jdr.systems.pokemon.sheet_words import SHEET_WORDS

            condition = SHEET_WORDS.value("condition", after.get("condition"))
            lines.append(
                _("{name} leaves the fight with {condition} (PK-16)").format(
                    name=name, condition=condition
                )
                if after.get("condition")
                else _("{name} leaves the fight with no condition (PK-16)").format(name=name)
            )
        for amount, level, whom, won in awards:
            text = (
                _("{name} gains {n} XP: half of {whom}'s level {level} (PK-24)")
                if won
                else _(
                    "{name} gains {n} XP: a quarter of {whom}'s level {level}, the highest of"
                    " the winning side (PK-24)"
                )
            )
            lines.append(text.format(name=name, n=amount, whom=whom, level=level))
        return lines

    return sentences


def _level(end: FightEnd, name: str) -> int:
    return int((end.start.get(name) or {}).get("level", 1))


def _awards(end: FightEnd, name: str) -> list[Award]:
    """PK-24 for `name`: `(xp, level, whose, won)` for each opponent knocked out on the winning
    side, or the one award of a losing side (a quarter of the winning side's highest level)."""
    winner = end.final.get("winner")
    everyone: dict[str, Json] = end.final.get("pokemon", {})
    if not end.final.get("over") or winner is None:
        return []
    side = everyone[name]["side"]
    if side == winner:
        beaten = [n for n, p in everyone.items() if p["side"] != side and p.get("ko")]
        return [(fight_award(_level(end, n), won=True), _level(end, n), n, True) for n in beaten]
    winners = [n for n, p in everyone.items() if p["side"] == winner]
    if not winners:
        return []
    best = max(winners, key=lambda n: _level(end, n))
    return [(fight_award(_level(end, best), won=False), _level(end, best), best, False)]
