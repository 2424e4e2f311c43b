"""`plus-ultra`: the "Plus Ultra" forum combat system (seed 001, ../shared/rules/plus_ultra.md,
rules PU-1 … PU-11). Registered through the `jdr.systems` entry point like any plug-in."""

from __future__ import annotations

from jdr.sheets import shipped_examples
from jdr.systems.plus_ultra.actions import ACTIONS
from jdr.systems.plus_ultra.fight import fight_rules
from jdr.systems.plus_ultra.fight_from_sheets import fight_setup
from jdr.systems.plus_ultra.fight_models import COMMANDS, LATE
from jdr.systems.plus_ultra.fight_view import view
from jdr.systems.plus_ultra.narration import NARRATION
from jdr.systems.plus_ultra.progress import PROGRESSION
from jdr.systems.plus_ultra.sheet_rolls import SHEET_ROLLS
from jdr.systems.plus_ultra.sheet_words import SHEET_WORDS
from jdr.systems.plus_ultra.sheets import EXAMPLES, Character
from jdr.systems.plus_ultra.tactic import SIMULATION
from jdr.systems.protocol import System

SYSTEM = System(
    id="plus-ultra",
    names={"fr": "Plus Ultra, combat de forum", "en": "Plus Ultra forum combat"},
    actions=ACTIONS,
    sheet=Character,
    sheet_words=SHEET_WORDS,
    examples=shipped_examples(__name__, EXAMPLES),
    fight=fight_rules(),
    narration=NARRATION,
    fight_view=view,
    fight_commands=COMMANDS,
    late=LATE,
    fight_setup=fight_setup,
    progression=PROGRESSION,
    sheet_rolls=SHEET_ROLLS,
    simulation=SIMULATION,
)
