"""The Pokémon actions beyond `check`: `attack`, `capture`, `initiative`, `counter`.

`ACTIONS` is merged into the system's actions; every `example` is a roll the meta-tests run.

>>> sorted(ACTIONS)
['attack', 'capture', 'counter', 'initiative']
"""

from __future__ import annotations

from typing import Any

from jdr.i18n import N_
from jdr.systems.pokemon import attack, capture, counter, initiative
from jdr.systems.protocol import Action

ACTIONS: dict[str, Action[Any]] = {
    "attack": Action(
        "attack",
        attack.AttackParams,
        attack.roll,
        attack.odds,
        help=N_(
            "Use a move: attack roll, damage roll, type multiplier, then endure or dodge"
            " (PK-10 … PK-13)."
        ),
        example={"attack_dice": 4, "damage_dice": 3, "endure_dice": 2},
        names={"en": "attack", "fr": "attaque"},
    ),
    "capture": Action(
        "capture",
        capture.CaptureParams,
        capture.roll,
        capture.odds,
        help=N_("Throw a ball: three rolls at the lowered capture difficulty (PK-19, PK-20)."),
        example={"ball": "super", "difficulty": 8, "vitality_pct": 40, "condition": ["sleep"]},
        names={"en": "capture", "fr": "capture"},
    ),
    "initiative": Action(
        "initiative",
        initiative.InitiativeParams,
        initiative.roll,
        initiative.odds,
        help=N_("Initiative: 1d10 + Dextérité (PK-5)."),
        example={"dexterity": 3},
        names={"en": "initiative", "fr": "initiative"},
    ),
    "counter": Action(
        "counter",
        counter.CounterParams,
        counter.roll,
        counter.odds,
        help=N_(
            "Counter a move: both sides add up successes until one reaches its threshold (PK-14)."
        ),
        example={
            "attacker_dice": 4,
            "attacker_threshold": 3,
            "defender_dice": 3,
            "defender_threshold": 4,
        },
        names={"en": "counter", "fr": "contre"},
    ),
}
