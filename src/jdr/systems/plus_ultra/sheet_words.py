"""The Plus Ultra sheet's words: each key's name in French and English, its sections, and how a
technique reads (its Volonté cost, cooldown and effects, PU-7).

>>> from jdr.i18n import language
>>> technique = {"name": "Poing Tempête", "cost": 3, "cooldown": 2, "equipment": False,
...              "effects": {"extra_damage": 2, "attack_bonus": 1}}
>>> with language("fr"):
...     describe_technique(technique, SHEET_WORDS)
['coûte 3 Volonté', 'temps de recharge\\xa0: 2 tours', '+2 aux dégâts', '+1 à l’attaque']
"""

from __future__ import annotations

from typing import Any

from jdr.i18n import _, ngettext
from jdr.sheet_words import Section, SheetWords, Word

__all__ = ["SHEET_WORDS", "describe_technique"]


def describe_technique(technique: dict[str, Any], words: SheetWords) -> list[str]:
    """A technique in words: what it costs, its cooldown, and each effect (PU-7, PU-8)."""
    cooldown = int(technique.get("cooldown", 0))
    parts = [_("costs {n} Volonté").format(n=technique.get("cost", 0))]
    if cooldown:
        parts.append(
            ngettext("cooldown: {n} turn", "cooldown: {n} turns", cooldown).format(n=cooldown)
        )
    if technique.get("equipment"):
        parts.append(_("equipment"))
    effects = technique.get("effects") or {}
    phrases = {
        "extra_attacks": lambda n: ngettext("{n} extra attack", "{n} extra attacks", n),
        "extra_damage": lambda n: _("+{n} damage"),
        "attack_bonus": lambda n: _("+{n} to the attack"),
        "defense_bonus": lambda n: _("+{n} to the defence"),
        "lower_willpower": lambda n: _("the target loses {n} Volonté"),
        "lower_energy": lambda n: _("the target loses {n} Énergie"),
    }
    for key, value in effects.items():
        if key in phrases and value:
            parts.append(phrases[key](int(value)).format(n=value))
    if effects.get("text"):
        parts.append(str(effects["text"]))
    return parts


SHEET_WORDS = SheetWords(
    keys={
        "rank": Word("Rank", "Rang"),
        "energy": Word("Énergie", "Énergie"),
        "willpower": Word("Volonté", "Volonté"),
        "techniques": Word("Techniques", "Techniques"),
        "cost": Word("Cost in Volonté", "Coût en Volonté"),
        "cooldown": Word("Cooldown", "Temps de recharge"),
        "equipment": Word("Equipment", "Équipement"),
        "effects": Word("Effects", "Effets"),
        "extra_attacks": Word("Extra attacks", "Attaques supplémentaires"),
        "attack_bonus": Word("Attack bonus", "Bonus d’attaque"),
        "extra_damage": Word("Extra damage", "Dégâts supplémentaires"),
        "defense_bonus": Word("Defence bonus", "Bonus de défense"),
        "lower_willpower": Word("Volonté lost by the target", "Volonté perdue par la cible"),
        "lower_energy": Word("Énergie lost by the target", "Énergie perdue par la cible"),
        "text": Word("Text", "Texte"),
    },
    sections=(
        Section(Word("Hero", "Héros"), ("rank",)),
        Section(Word("Gauges (maximum)", "Jauges (maximum)"), ("energy", "willpower")),
        Section(Word("Techniques", "Techniques"), ("techniques",)),
    ),
    items={"techniques": describe_technique},
)
"""What a player reads of a Plus Ultra sheet (`System.sheet_words`)."""
