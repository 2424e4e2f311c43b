"""The Ilvermorny sheet's words: each stat's and key's name in French and English, the elements
(IL-10), the sheet's sections, and how a spell reads (difficulty, element, level, XP).

>>> from jdr.i18n import language
>>> spell = {"name": "Lumos", "difficulty": 1, "element": "neutre", "level": 3, "xp": 12}
>>> with language("fr"):
...     describe_spell(spell, SHEET_WORDS)
['difficulté 1', 'neutre', 'apprentissage 3/5', '12 PX']
"""

from __future__ import annotations

from typing import Any

from jdr.i18n import _
from jdr.sheet_words import Section, SheetWords, Word

__all__ = ["SHEET_WORDS", "describe_spell"]

ELEMENTS = {
    "feu": Word("fire", "feu"),
    "vigne": Word("vine", "vigne"),
    "eau": Word("water", "eau"),
    "neutre": Word("neutral", "neutre"),
}


def describe_spell(spell: dict[str, Any], words: SheetWords) -> list[str]:
    """A spell in words: difficulty, element, level (0: not learnt, IL-8) and XP kept."""
    level = int(spell.get("level", 0))
    return [
        _("difficulty {n}").format(n=spell.get("difficulty", 1)),
        words.value("element", spell.get("element")),
        _("level {n}/5").format(n=level) if level else _("not learnt yet"),
        _("{n} XP").format(n=spell.get("xp", 0)),
    ]


SHEET_WORDS = SheetWords(
    keys={
        "year": Word("School year", "Année"),
        "stats": Word("Stats", "Caractéristiques"),
        "resolution": Word("Resolution", "Résolution"),
        "comprehension": Word("Comprehension", "Compréhension"),
        "magic": Word("Magic", "Magie"),
        "charisma": Word("Charisma", "Charisme"),
        "strength": Word("Strength", "Force physique"),
        "skill": Word("Skill", "Habileté"),
        "intuition": Word("Intuition", "Intuition"),
        "spells": Word("Spells", "Sorts"),
        "difficulty": Word("Difficulty", "Difficulté"),
        "element": Word("Element", "Élément"),
        "level": Word("Level", "Apprentissage"),
        "xp": Word("XP", "PX"),
    },
    values={"element": ELEMENTS},
    sections=(
        Section(Word("Student", "Élève"), ("year",)),
        Section(Word("Stats", "Caractéristiques"), ("stats",)),
        Section(Word("Spells", "Sorts"), ("spells",)),
    ),
    items={"spells": describe_spell},
    aliases={"strength": ("force",), "level": ("niveau",), "xp": ("px",)},
)
"""What a player reads of a wizard's sheet (`System.sheet_words`)."""
