"""`pokemon`: the Pokémon tabletop RPG (seed 000, ../shared/rules/pokemon.md, rules PK-1 … PK-24).

Registered through the `jdr.systems` entry point like any plug-in. Importing this module stays light
(no NumPy): odds import the exact engine when asked.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from jdr.dice.source import RandomSource
from jdr.i18n import N_
from jdr.labels import named
from jdr.sheets import shipped_examples
from jdr.systems.pokemon.check import DEFAULT_DIFFICULTY, MAX_DICE, roll_check, score_distribution
from jdr.systems.pokemon.fight import fight_rules
from jdr.systems.pokemon.fight_from_sheets import fight_setup
from jdr.systems.pokemon.fight_models import COMMANDS, LATE
from jdr.systems.pokemon.fight_outcome import fight_outcome
from jdr.systems.pokemon.fight_view import view
from jdr.systems.pokemon.narration import NARRATION
from jdr.systems.pokemon.progress import PROGRESSION
from jdr.systems.pokemon.sheet_files import sheet_of
from jdr.systems.pokemon.sheet_rolls import SHEET_ROLLS
from jdr.systems.pokemon.sheet_words import SHEET_WORDS
from jdr.systems.pokemon.sheets import EXAMPLES, Pokemon
from jdr.systems.pokemon.tactic import SIMULATION
from jdr.systems.protocol import Action, Odds, Record, System


class CheckParams(BaseModel):
    """`check --dice N [--difficulty D]` (PK-1 … PK-4)."""

    dice: int = Field(
        ge=0,
        le=MAX_DICE,
        description=N_("number of d10 (stat + skill)"),
        json_schema_extra=named("dice", "dés"),
    )
    difficulty: int = Field(
        default=DEFAULT_DIFFICULTY,
        ge=-20,
        le=100,
        description=N_("difficulty (DD) after modifiers; below 1 counts as 1"),
        json_schema_extra=named("difficulty (DD)", "difficulté (DD)"),
    )


def check_roll(params: CheckParams, rng: RandomSource) -> Record:
    rolled = roll_check(params.dice, params.difficulty, rng)
    return Record(
        outcome=rolled.outcome,
        totals={
            "successes": rolled.successes,
            "failures": rolled.failures,
            "score": rolled.score,
            "difficulty": rolled.difficulty,
        },
        faces=rolled.faces,
        explain=rolled.explain,
    )


def check_odds(params: CheckParams, exact: bool) -> Odds:
    from jdr.systems.pokemon.check import outcome

    scores = score_distribution(params.dice, params.difficulty, exact)
    outcomes: dict[str, Any] = {"success": 0, "failure": 0, "critical_failure": 0}
    outcomes.update(scores.outcomes(lambda v: outcome(v[0])))
    zero = scores.total() - scores.total()
    return Odds(
        outcomes={k: v if v else zero for k, v in outcomes.items()},
        distribution=scores.to_list(),
        mean=scores.mean(),
        label="score",
    )


def _actions() -> dict[str, Action[Any]]:
    from jdr.systems.pokemon.actions import ACTIONS

    check = Action(
        "check",
        CheckParams,
        check_roll,
        check_odds,
        help=N_("An action roll: d10 pool, successes ≥ DD, failures on 1 (PK-1 … PK-4)."),
        example={"dice": 4},
        names={"en": "check", "fr": "test"},
    )
    return {"check": check, **ACTIONS}


def _commands() -> Any:
    from jdr.systems.pokemon.commands import build

    return build()


def luck(size: int, face: int) -> int:
    """A face's luck for the journal's audit: the d100 accuracy check is better low (PK-10);
    the d10 pools better high."""
    return size + 1 - face if size == 100 else face


SYSTEM = System(
    id="pokemon",
    names={"fr": "Pokémon, le jeu de rôle", "en": "Pokémon tabletop RPG"},
    actions=_actions(),
    sheet=Pokemon,
    sheet_words=SHEET_WORDS,
    fight=fight_rules(),
    simulation=SIMULATION,
    narration=NARRATION,
    fight_view=view,
    fight_commands=COMMANDS,
    late=LATE,
    extra_commands=_commands,
    fight_setup=fight_setup,
    sheet_of=sheet_of,
    examples=shipped_examples(__name__, EXAMPLES),
    luck=luck,
    progression=PROGRESSION,
    sheet_rolls=SHEET_ROLLS,
    fight_outcome=fight_outcome,
)
