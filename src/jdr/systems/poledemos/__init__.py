"""`poledemos`: the "Polédémos" skirmish game (seed 002, ../shared/rules/poledemos.md,
rules PD-1 … PD-10).

Registered through the `jdr.systems` entry point like any plug-in; importing it loads no NumPy.
"""

from __future__ import annotations

from jdr.sheets import shipped_examples
from jdr.systems.poledemos.actions import ACTIONS
from jdr.systems.poledemos.fight_from_sheets import fight_setup
from jdr.systems.poledemos.fight_models import COMMANDS, LATE
from jdr.systems.poledemos.fight_view import view
from jdr.systems.poledemos.narration import NARRATION
from jdr.systems.poledemos.play import play_rules
from jdr.systems.poledemos.sheet_rolls import SHEET_ROLLS
from jdr.systems.poledemos.sheet_words import SHEET_WORDS
from jdr.systems.poledemos.tactic import SIMULATION
from jdr.systems.poledemos.warband import EXAMPLES, Warband
from jdr.systems.protocol import System

SYSTEM = System(
    id="poledemos",
    names={"fr": "Polédémos, escarmouche", "en": "Polédémos skirmish"},
    actions=ACTIONS,
    sheet=Warband,
    sheet_words=SHEET_WORDS,
    examples=shipped_examples(__name__, EXAMPLES),
    fight=play_rules(),
    simulation=SIMULATION,
    narration=NARRATION,
    fight_view=view,
    fight_commands=COMMANDS,
    late=LATE,
    fight_setup=fight_setup,
    sheet_rolls=SHEET_ROLLS,
)
