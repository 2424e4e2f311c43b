"""A fighter's state as one line a GM reads at a glance: gauges as current/maximum, flags that
are on, the values that are set; the system's game words (Vitalité, Énergie, Volonté) as they are.

>>> fighter_line({"name": "Pika", "side": "a", "vitality": 9, "vitality_max": 14,
...               "energy": 0, "energy_max": 10, "condition": None, "ko": False, "waiting": True,
...               "accuracy_stage": 0, "initiative": 7})
'Pika (a) — Vitalité 9/14 · Énergie 0/10 · initiative 7 · waiting'
"""

from __future__ import annotations

from typing import Any

from jdr.fights.recap import scalar, shown
from jdr.i18n import N_, _

Json = dict[str, Any]

MAXIMUM = "_max"
"""A field `x` with a field `x_max` beside it is a gauge: shown `x/x_max`."""

LABELS = {
    "vitality": N_("Vitalité"),
    "energy": N_("Énergie"),
    "willpower": N_("Volonté"),
    "passion": N_("Passion"),
    "wounds": N_("wounds"),
    "initiative": N_("initiative"),
    "condition": N_("condition"),
    "condition_turns": N_("turns"),
    "item": N_("held item"),
    "rank": N_("rank"),
    "marker": N_("marker"),
    "potential": N_("potential"),
    "mobility": N_("mobility"),
    "accuracy_stage": N_("accuracy stage"),
    "defense_bonus": N_("defense bonus"),
}
"""The words for the fields the five systems keep per fighter; a plug-in's own fields show as
their names."""

FLAGS = {
    "ko": N_("KO"),
    "waiting": N_("waiting"),
    "defending": N_("defending"),
    "fleeing": N_("fleeing"),
    "escaped": N_("escaped"),
    "down": N_("down"),
    "npc": N_("NPC"),
    "failed": N_("failed"),
}
"""Yes/no fields, shown by their word when on."""

TRANSLATED_VALUES = frozenset({"condition"})
"""Fields whose values are identifiers with a word in the catalogs (`paralysis` …)."""

QUIET = frozenset({"name", "side", "in_fight"})


def fighter_line(data: Json) -> str:
    """`Name (side) — gauge cur/max · label value · flag …` (see the module's docstring)."""
    head = str(data.get("name", "?"))
    if data.get("side") is not None:
        head += f" ({data['side']})"
    parts, flags = [], []
    for key, value in data.items():
        if key in QUIET or key.endswith(MAXIMUM) or not scalar(value):
            continue
        gauge = key + MAXIMUM in data
        if isinstance(value, bool):
            if value:
                flags.append(_(FLAGS[key]) if key in FLAGS else key)
            continue
        if value is None or value == "" or (value == 0 and not gauge):
            continue
        label = _(LABELS[key]) if key in LABELS else key
        text = _(value) if key in TRANSLATED_VALUES and isinstance(value, str) else shown(value)
        parts.append(f"{label} {text}/{data[key + MAXIMUM]}" if gauge else f"{label} {text}")
    parts += flags  # the flags that are on, after the values
    return f"{head} — {' · '.join(parts)}" if parts else head
