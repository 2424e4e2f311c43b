"""`passion`: the superhero homebrew of even and odd dice (seed 004, ../shared/rules/passion.md,
rules PS-1 … PS-19). Registered through the `jdr.systems` entry point like any plug-in."""

from __future__ import annotations

from jdr.sheets import shipped_examples
from jdr.systems.passion.actions import ACTIONS
from jdr.systems.passion.damage import DAMAGE_ACTIONS
from jdr.systems.passion.fight import fight_rules
from jdr.systems.passion.fight_from_sheets import fight_setup
from jdr.systems.passion.fight_models import COMMANDS, late
from jdr.systems.passion.fight_outcome import fight_outcome
from jdr.systems.passion.fight_view import view
from jdr.systems.passion.narration import NARRATION
from jdr.systems.passion.pool import luck
from jdr.systems.passion.progress import PROGRESSION
from jdr.systems.passion.sheet_rolls import SHEET_ROLLS
from jdr.systems.passion.sheet_words import SHEET_WORDS
from jdr.systems.passion.sheets import EXAMPLES, Sheet
from jdr.systems.passion.tactic import SIMULATION
from jdr.systems.protocol import System

SYSTEM = System(
    id="passion",
    names={"fr": "Passion, jeu de super-héros", "en": "Passion superhero game"},
    actions={**ACTIONS, **DAMAGE_ACTIONS},
    sheet=Sheet,
    sheet_words=SHEET_WORDS,
    examples=shipped_examples(__name__, EXAMPLES),
    fight=fight_rules(),
    simulation=SIMULATION,
    narration=NARRATION,
    fight_view=view,
    fight_commands=COMMANDS,
    late=late,
    fight_setup=fight_setup,
    luck=luck,
    progression=PROGRESSION,
    sheet_rolls=SHEET_ROLLS,
    fight_outcome=fight_outcome,
)
