"""The Pokémon sheets' words (a Pokémon's and a trainer's): each key's and value's name in French
and English, the sheet's sections, and how a move reads (its type, category, Énergie cost,
damage dice and effects).

>>> from jdr.i18n import language
>>> from jdr.sheet_view import layout
>>> move = {"name": "Fatal-Foudre", "type": "electrik", "category": "speciale", "energy": 4,
...         "damage_dice": 5, "accuracy": 70, "high_crit": False,
...         "inflicts": {"condition": "paralysis", "chance": 30}, "stat_change": None}
>>> with language("fr"):
...     describe_move(move, SHEET_WORDS)  # doctest: +NORMALIZE_WHITESPACE
['Électrik', 'spéciale', '4 Énergie', '5d10 de dégâts', 'précision 70 %',
 'inflige Paralysie (30 %)']
"""

from __future__ import annotations

from typing import Any

from jdr.i18n import _
from jdr.sheet_words import Section, SheetWords, Word
from jdr.systems.pokemon.sheets import CONDITION_LABELS, STAT_LABELS
from jdr.systems.pokemon.types import default_chart

__all__ = ["SHEET_WORDS", "describe_move"]

CONDITION_ENGLISH = {
    "burn": "Burn",
    "poison": "Poison",
    "bad_poison": "Bad poison",
    "paralysis": "Paralysis",
    "freeze": "Freeze",
    "sleep": "Sleep",
    "confusion": "Confusion",
    "infatuation": "Infatuation",
    "curse": "Curse",
    "flinch": "Flinch",
}
CONDITIONS = {key: Word(CONDITION_ENGLISH[key], fr) for key, fr in CONDITION_LABELS.items()}
STATS = {key: Word(fr, fr) for key, fr in STAT_LABELS.items()}  # game terms: French in both
CATEGORIES = {
    "physique": Word("physical", "physique"),
    "speciale": Word("special", "spéciale"),
    "statut": Word("status", "statut"),
}


def _types() -> dict[str, Word]:
    chart = default_chart()
    return {tid: Word(chart.english.get(tid, fr), fr) for tid, fr in chart.names.items()}


def describe_move(move: dict[str, Any], words: SheetWords) -> list[str]:
    """A move in words: type, category, cost, damage, accuracy and effects."""
    parts = [words.value("type", move.get("type")), words.value("category", move.get("category"))]
    parts.append(_("{n} Énergie").format(n=move.get("energy", 0)))
    if move.get("damage_dice"):
        parts.append(_("{n}d10 damage").format(n=move["damage_dice"]))
    if move.get("accuracy", 100) != 100:
        parts.append(_("accuracy {n} %").format(n=move["accuracy"]))
    if move.get("high_crit"):
        parts.append(_("high critical (DD5)"))
    inflicts = move.get("inflicts")
    if inflicts:
        condition = words.value("condition", inflicts.get("condition"))
        parts.append(
            _("inflicts {condition} ({chance} %)").format(
                condition=condition, chance=inflicts.get("chance", 100)
            )
        )
    change = move.get("stat_change")
    if change:
        stat = words.value("stat", change.get("stat"))
        stages = f"{change.get('stages', 0):+d}".replace("-", "−")
        text = _("{stat} (self) {stages}") if change.get("target") == "self" else None
        parts.append((text or _("{stat} (target) {stages}")).format(stat=stat, stages=stages))
    return parts


SHEET_WORDS = SheetWords(
    keys={
        "species": Word("Species", "Espèce"),
        "types": Word("Types", "Types"),
        "level": Word("Level", "Niveau"),
        "stats": Word("Stats", "Caractéristiques"),
        **STATS,
        "accuracy": Word("Accuracy", "Précision"),
        "evs": Word("EVs", "EV"),
        "skills": Word("Skills", "Compétences"),
        "vitality": Word("Vitalité", "Vitalité"),
        "energy": Word("Énergie", "Énergie"),
        "current": Word("current", "actuelle"),
        "max": Word("max", "max"),
        "moves": Word("Moves", "Capacités"),
        "condition": Word("Condition", "Altération"),
        "volatile": Word("Volatile conditions", "Altérations passagères"),
        "xp": Word("XP", "PX"),
        "pokemon": Word("Pokémon carried", "Pokémon portés"),
        "type": Word("Type", "Type"),
        "category": Word("Category", "Catégorie"),
        "damage_dice": Word("Damage dice", "Dés de dégâts"),
        "high_crit": Word("High critical", "Critique élevé"),
        "inflicts": Word("Inflicts", "Inflige"),
        "chance": Word("Chance", "Chance"),
        "stat_change": Word("Stat change", "Modification de caractéristique"),
        "target": Word("Target", "Cible"),
        "stat": Word("Stat", "Caractéristique"),
        "stages": Word("Stages", "Crans"),
    },
    values={
        "types": _types(),
        "type": _types(),
        "condition": CONDITIONS,
        "volatile": CONDITIONS,
        "category": CATEGORIES,
        "stat": {**STATS, "accuracy": Word("Accuracy", "Précision")},
        "target": {"self": Word("user", "lanceur"), "target": Word("target", "cible")},
    },
    sections=(
        Section(Word("Profile", "Profil"), ("species", "types", "level", "xp", "pokemon")),
        Section(Word("Gauges", "Jauges"), ("vitality", "energy")),
        Section(Word("Conditions", "Altérations"), ("condition", "volatile")),
        Section(Word("Stats", "Caractéristiques"), ("stats",)),
        Section(Word("EVs", "EV"), ("evs",)),
        Section(Word("Skills", "Compétences"), ("skills",)),
        Section(Word("Moves", "Capacités"), ("moves",)),
    ),
    items={"moves": describe_move},
    aliases={"xp": ("px", "experience", "expérience"), "moves": ("capacite",)},
)
"""What a player reads of a Pokémon's or a trainer's sheet (`System.sheet_words`)."""
