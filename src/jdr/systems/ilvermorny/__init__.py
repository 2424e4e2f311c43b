"""`ilvermorny`: "Ilvermorny's Game", a wizard school (seed 003, ../shared/rules/ilvermorny.md,
rules IL-1 … IL-11).

Registered through the `jdr.systems` entry point like any plug-in; importing it loads no NumPy.
"""

from __future__ import annotations

from jdr.sheets import shipped_examples
from jdr.systems.ilvermorny.actions import ACTIONS
from jdr.systems.ilvermorny.fight import fight_rules
from jdr.systems.ilvermorny.fight_from_sheets import fight_setup
from jdr.systems.ilvermorny.fight_models import COMMANDS
from jdr.systems.ilvermorny.fight_outcome import fight_outcome
from jdr.systems.ilvermorny.fight_view import view
from jdr.systems.ilvermorny.narration import NARRATION
from jdr.systems.ilvermorny.progress import PROGRESSION
from jdr.systems.ilvermorny.sheet_rolls import SHEET_ROLLS
from jdr.systems.ilvermorny.sheet_words import SHEET_WORDS
from jdr.systems.ilvermorny.sheets import EXAMPLES, Wizard
from jdr.systems.ilvermorny.tactic import SIMULATION
from jdr.systems.protocol import System


def luck(size: int, face: int) -> int:
    """A face's luck for the journal's audit: the d12 of tests and spells is better low (IL-2,
    IL-6); creation's d6 (IL-4) better high."""
    return size + 1 - face if size == 12 else face


SYSTEM = System(
    id="ilvermorny",
    names={"fr": "Ilvermorny, école de sorcellerie", "en": "Ilvermorny wizard school"},
    actions=ACTIONS,
    sheet=Wizard,
    sheet_words=SHEET_WORDS,
    examples=shipped_examples(__name__, EXAMPLES),
    fight=fight_rules(),
    simulation=SIMULATION,
    narration=NARRATION,
    fight_view=view,
    fight_commands=COMMANDS,
    fight_setup=fight_setup,
    luck=luck,
    progression=PROGRESSION,
    sheet_rolls=SHEET_ROLLS,
    fight_outcome=fight_outcome,
)
