"""The Passion sheet's words: each key's name in French and English, the damage types, the
sheet's sections, and how a weapon or a protection reads (PS-14, PS-15).

>>> from jdr.i18n import language
>>> pied = {"name": "Pied", "score": 1, "type": "physique", "potential": "Corps", "violence": 2}
>>> with language("fr"):
...     describe_gear(pied, SHEET_WORDS)
['score 1 + Corps', 'physique', 'Violence 2']
"""

from __future__ import annotations

from typing import Any

from jdr.i18n import _
from jdr.sheet_words import Section, SheetWords, Word

__all__ = ["SHEET_WORDS", "describe_gear"]

TYPES = {
    "physique": Word("physical", "physique"),
    "mental": Word("mental", "mental"),
    "energetique": Word("energy", "énergétique"),
}


def describe_gear(gear: dict[str, Any], words: SheetWords) -> list[str]:
    """A weapon or a protection in words: score, type, Violence or Robustesse, its Énergie."""
    score = _("score {n}").format(n=gear.get("score", 0))
    if gear.get("potential"):
        score += f" + {gear['potential']}"
    parts = [score, words.value("type", gear.get("type"))]
    if gear.get("violence"):
        parts.append(_("Violence {n}").format(n=gear["violence"]))
    if gear.get("robustness"):
        parts.append(_("Robustesse {n}").format(n=gear["robustness"]))
    energy = gear.get("energy")
    if isinstance(energy, dict):
        parts.append(_("Énergie {current}/{max}").format(**energy))
    return parts


def describe_power(power: dict[str, Any], words: SheetWords) -> list[str]:
    """A power: its text, for the GM."""
    return [str(power["text"])] if power.get("text") else []


SHEET_WORDS = SheetWords(
    keys={
        "npc": Word("Non-player character", "PNJ"),
        "potentials": Word("Potentials", "Potentiels"),
        "talents": Word("Talents", "Talents"),
        "passion": Word("Passion", "Passion"),
        "energy": Word("Énergie", "Énergie"),
        "current": Word("current", "actuelle"),
        "max": Word("max", "max"),
        "ticked_markers": Word("Markers ticked off", "Marqueurs cochés"),
        "weapons": Word("Weapons", "Armes"),
        "protections": Word("Protections", "Protections"),
        "powers": Word("Powers", "Pouvoirs"),
        "uses": Word("In a fight", "En combat"),
        "uses.mobility": Word(
            "Mobility potential (initiative)", "Potentiel de mobilité (initiative)"
        ),
        "uses.body": Word("Body potential", "Potentiel du corps"),
        "uses.mind": Word("Mind potential", "Potentiel de l’esprit"),
        "uses.combat": Word("Attack score", "Score d’attaque"),
        "uses.dodge": Word("Dodge score", "Score d’esquive"),
        "xp": Word("XP", "PX"),
        "scenario_points": Word("Scenario points", "Points de scénario"),
        "score": Word("Score", "Score"),
        "type": Word("Type", "Type"),
        "potential": Word("Potential", "Potentiel"),
        "violence": Word("Violence", "Violence"),
        "robustness": Word("Robustesse", "Robustesse"),
        "text": Word("Text", "Texte"),
    },
    values={"type": TYPES},
    sections=(
        Section(Word("Character", "Personnage"), ("npc", "scenario_points")),
        Section(Word("Pools", "Réserves"), ("passion", "energy")),
        Section(Word("Potentials", "Potentiels"), ("potentials",)),
        Section(Word("Talents", "Talents"), ("talents",)),
        Section(Word("In a fight", "En combat"), ("uses", "ticked_markers")),
        Section(Word("Weapons", "Armes"), ("weapons",)),
        Section(Word("Protections", "Protections"), ("protections",)),
        Section(Word("Powers", "Pouvoirs"), ("powers",)),
        Section(Word("XP", "PX"), ("xp",)),
    ),
    items={"weapons": describe_gear, "protections": describe_gear, "powers": describe_power},
    aliases={"xp": ("px",), "npc": ("pnj",)},
)
"""What a player reads of a Passion sheet (`System.sheet_words`)."""
