"""Ombres: a homebrew system for jdr, written from docs/plugins.md alone.

OM-1  A check rolls as many d6 as the rating (0 to 10) and keeps the highest die. With a rating
      of 0, roll 2d6 and keep the lowest.
OM-2  The kept die reads: 6 a success, 4 or 5 a partial success, 1 to 3 a failure. Two 6s or
      more (with at least one die of rating) are a critical success.
OM-3  A sheet: a name, three ratings from 0 to 4 (combat, finesse, resolve) and a stress
      maximum (9 unless the sheet says otherwise).
OM-4  A fight: fighters take turns in order; `attack` rolls combat against a fighter of another
      side: critical 4 stress to the target, success 2, partial 1 to each, failure 2 to the
      attacker. `recover` rolls resolve: critical −3 stress, success −2, partial −1, failure +1.
OM-5  A fighter whose stress reaches its maximum is broken (out of the fight); the fight is
      over when fighters of one side only stand.
"""

from jdr.sheets import shipped_examples
from jdr.systems import Action, System

from jdr_ombres.commands import extra_commands
from jdr_ombres.fight import FIGHT, fight_setup
from jdr_ombres.french import MESSAGES
from jdr_ombres.narration import COMMANDS, NARRATION, fighters
from jdr_ombres.rolls import Check, odds, roll
from jdr_ombres.sheet import SHEET_WORDS, Scoundrel

SYSTEM = System(
    id="ombres",
    names={"fr": "Ombres", "en": "Shadows"},
    actions={
        "check": Action(
            "check",
            Check,
            roll,
            odds,
            help="A check: keep the highest d6",
            example={"dice": 2},
            names={"en": "check", "fr": "test"},
        )
    },
    sheet=Scoundrel,
    sheet_words=SHEET_WORDS,
    examples=shipped_examples(__name__, ["scoundrel"]),
    fight=FIGHT,
    fight_setup=fight_setup,
    narration=NARRATION,
    fight_commands=COMMANDS,
    fight_fighters=fighters,
    messages=MESSAGES,
    extra_commands=extra_commands,
)
