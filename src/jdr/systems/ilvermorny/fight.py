"""An Ilvermorny duel as a decider (IL-5 … IL-11): `start`, `decide`, `evolve`, `legal_commands`.

Each round both wizards choose a spell; once both have, the GM's dice decide: each cast (IL-6, with
its XP, IL-7, and any level it buys, IL-8), then the meeting of the spells (IL-10, IL-11). A spell
that lands is recorded as a hit for the GM to narrate: the source has no damage track, so the duel
goes on until the GM ends it. A refused command raises `RulesError(reason, rule)` (or
`InputError` for a malformed one) before any die is rolled, so it changes nothing.

>>> from jdr.dice import GivenFaces
>>> from jdr.fights import play
>>> from jdr.systems.ilvermorny.rules import STATS
>>> def wizard(name, magic, spell, element):
...     return {"name": name, "stats": dict.fromkeys(STATS, 5) | {"magic": magic},
...             "spells": [{"name": spell, "difficulty": 1, "element": element, "level": 2}]}
>>> duel = play(fight_rules(), {"wizards": [wizard("Ann", 7, "Incendio", "feu"),
...                                          wizard("Bob", 6, "Aguamenti", "eau")]},
...             [{"action": "cast", "wizard": "Ann", "spell": "Incendio"},
...              {"action": "cast", "wizard": "bob", "spell": "aguamenti"}],
...             GivenFaces([2, 3, 6, 5]))
>>> [e["type"] for e in duel.events]  # doctest: +NORMALIZE_WHITESPACE
['duel_started', 'round_started', 'spell_chosen', 'spell_chosen', 'spells_opened', 'spell_cast',
 'spell_cast', 'clash_rolled', 'spell_hit', 'round_over', 'round_started']
>>> duel.state["hits"]
[{'round': 1, 'caster': 'Bob', 'spell': 'Aguamenti', 'target': 'Ann', 'by': 'clash'}]

## Setup
`{"wizards": [<sheet>, <sheet>]}`: exactly two wizard sheets as `sheets.Wizard` reads them
(`name`, `stats`, `spells` with `difficulty`, `element`, `level`, `xp`), with different names.
Wizards and spells are named in commands as the sheets spell them, or with another case, no
accents or extra spaces; events carry the sheets' spelling.

## Commands (JSON)
- `{"action": "cast", "wizard": W, "spell": S, "salt": "…"?}`: W's spell for this round, in any
  order, sealed (`jdr.fights.sealed`: a front end adds the salt); the second choice of a round
  opens both and resolves them.
- `{"action": "end", "winner": W?, "note": "…"?}`: the GM ends the duel (a winner, or none).

## Events
- `duel_started` {sealed: true, wizards: [{name, magic, spells: [{name, element, difficulty,
  level, xp}]}]}; `round_started` {round}; `spell_chosen` {round, wizard, sealed, secret: {spell,
  salt}} (a duel without `sealed`, from before: {round, wizard, spell}); `spells_opened` {round,
  choices: {W: {spell, salt, sealed}}, unsealed: [the two commitments]};
- `spell_cast` {round, wizard, spell, element, level, natural, result, outcome, xp_gained} and,
  for each level the XP buys, `level_gained` {wizard, spell, level, xp_spent} (IL-8);
- `clash_rolled` {round, dominant: W | null, tests: [{wizard, natural, modifier, result,
  outcome}], winner: W | null} when both spells were cast (IL-11);
- `spell_hit` {round, caster, spell, target, by: "clash" | "alone"}; `round_over` {round,
  outcome: "hit" | "both_cancelled" | "neither_cast", caster: W | null};
- `duel_ended` {winner: W | null, note}.

## Faces, in the order they are consumed
When the second spell of a round is chosen: the first wizard's cast d12, then the second's (in
setup order); then, when both spells were cast, the first wizard's Magie test d12, then the
second's. Nothing else rolls. Each die is its wizard's (`jdr.dice.rolled_for`): the journal and
the luck audit count it for them, though the second wizard's command rolled it.

## Where the rules are silent
- A round is both wizards casting once; the source has no initiative, so both choices are made
  before any die, and the casts resolve together.
- A critical failure's harmful effects and an imperfect cast's twist are the GM's to narrate: the
  events carry the outcome. XP and levels change during the duel (IL-8: as soon as the XP is
  there), so a level gained in round 1 counts in round 2.
"""

from __future__ import annotations

from typing import Any

from jdr.dice.source import RandomSource, rolled_for
from jdr.errors import InputError, RulesError
from jdr.fights.sealed import SALT, SEALED, SECRET, UNSEALED, seal
from jdr.i18n import _, labelled
from jdr.names import fold, hint
from jdr.systems.ilvermorny.duel import Side, meet
from jdr.systems.ilvermorny.fight_models import KEYS
from jdr.systems.ilvermorny.fight_state import evolve, find, opponent
from jdr.systems.ilvermorny.sheets import wizard_from
from jdr.systems.ilvermorny.spells import NOT_LEARNT, advance, cast_spell
from jdr.systems.protocol import Json

__all__ = ["IlvermornyDuel", "fight_rules"]


class _Script:
    """The events of one decision, each folded into `state` as soon as it is written."""

    def __init__(self, state: Json) -> None:
        self.state = state
        self.events: list[Json] = []

    def emit(self, event: Json) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


class IlvermornyDuel:
    """The `ilvermorny` system's fight rules (`jdr.systems.FightRules`)."""

    def start(self, setup: Json, rng: RandomSource) -> list[Json]:
        """The opening events: the two wizards, then round 1. Nothing is rolled."""
        script = _Script({})
        script.emit(_duel_started(setup))
        script.emit({"type": "round_started", "round": 1})
        return script.events

    def decide(self, state: Json, command: Json, rng: RandomSource) -> list[Json]:
        """The events `command` causes, or `RulesError` saying why not (nothing rolled then)."""
        return self.decided(state, command, rng)[0]

    def decided(self, state: Json, command: Json, rng: RandomSource) -> tuple[list[Json], Json]:
        """`decide`'s events and the state they fold to (the decision folded them as it wrote
        them: a simulation need not fold them again)."""
        if not state:
            raise RulesError(_("the duel has not started"), "IL-11")
        if state["over"]:
            raise RulesError(_("the duel is over"), "IL-11")
        action = _action_of(command)
        script = _Script(state)
        if action == "end":
            _end(script, command)
        else:
            _choose(script, command)
            if len(script.state["chosen"]) == len(script.state["wizards"]):
                if script.state["sealed"]:
                    _open(script)
                _resolve(script, rng)
        return script.events, script.state

    def evolve(self, state: Json, event: Json) -> Json:
        """The next state (`fight_state.evolve`): the only way state changes."""
        return evolve(state, event)

    def legal_commands(self, state: Json) -> list[str]:
        """While the duel goes on: a wizard chooses a spell, or the GM ends the duel."""
        if not state or state["over"]:
            return []
        return ["cast", "end"]


def fight_rules() -> IlvermornyDuel:
    """The fight rules the `ilvermorny` system registers (`System(fight=fight_rules())`)."""
    return IlvermornyDuel()


def _duel_started(setup: Any) -> Json:
    wizards = setup.get("wizards") if isinstance(setup, dict) else None
    if not isinstance(wizards, list) or len(wizards) != 2:
        raise RulesError(_("a duel needs two wizards"), "IL-11")
    sheets = [wizard_from(sheet, f"wizards[{n}]") for n, sheet in enumerate(wizards, 1)]
    if fold(sheets[0].name) == fold(sheets[1].name):
        raise RulesError(_("two wizards are named {name}").format(name=sheets[1].name), "IL-11")
    return {  # `sealed`: spells are committed, then opened together (IL-11's simultaneity)
        "type": "duel_started",
        "sealed": True,
        "wizards": [
            {
                "name": sheet.name,
                "magic": sheet.stats.magic,
                "spells": [spell.model_dump(mode="json") for spell in sheet.spells],
            }
            for sheet in sheets
        ],
    }


def _action_of(command: Any) -> str:
    """The command's action, known and with known keys only."""
    if not isinstance(command, dict):
        raise InputError(_("command"), command, _("a table with action and wizard"))
    action = command.get("action")
    if action not in KEYS:
        known = ", ".join(KEYS)
        raise RulesError(
            _("unknown action {name} (known: {known})").format(name=action, known=known), "IL-11"
        )
    for name, value in command.items():
        if name not in KEYS[action]:
            raise InputError(str(name), value, ", ".join(sorted(KEYS[action])), _("unknown key"))
    return str(action)


def _wizard(state: Json, value: Any) -> str:
    name = find(state["wizards"], value)
    if name is None:
        raise RulesError(
            _("unknown wizard {name} (duelists: {known})").format(
                name=value, known=", ".join(state["wizards"])
            )
            + hint(value, state["wizards"]),
            "IL-11",
        )
    return name


def _choose(script: _Script, command: Json) -> None:
    """A wizard's spell for the round: a spell of its sheet, learnt (IL-5), once a round."""
    state = script.state
    wizard = _wizard(state, command.get("wizard"))
    if wizard in state["chosen"]:
        raise RulesError(
            _("{name} has already chosen a spell this round").format(name=wizard), "IL-11"
        )
    known = list(state["spells"][wizard])
    spell = find(known, command.get("spell"))
    if spell is None:
        raise RulesError(
            _("{name} does not know the spell {spell} (known: {known})").format(
                name=wizard, spell=command.get("spell"), known=", ".join(known) or "-"
            ),
            "IL-5",
        )
    if state["spells"][wizard][spell]["level"] == 0:
        raise RulesError(labelled(spell, _(NOT_LEARNT)), "IL-5")
    event: Json = {"type": "spell_chosen", "round": state["round"], "wizard": wizard}
    if not state["sealed"]:  # a duel started before spells were sealed
        script.emit(event | {"spell": spell})
        return
    salt = command.get(SALT, "")
    if not isinstance(salt, str):
        raise InputError(SALT, salt, _("text"))
    choice = {"spell": spell}
    script.emit(event | {SEALED: seal(choice, salt), SECRET: choice | {SALT: salt}})


def _open(script: _Script) -> None:
    """Both spells chosen: each opened with its salt, against its commitment (IL-11)."""
    state = script.state
    choices = {
        wizard: {"spell": state["secret"][wizard]["spell"], SALT: state["secret"][wizard][SALT]}
        | {SEALED: state["seals"][wizard]}
        for wizard in state["wizards"]
    }
    script.emit(
        {"type": "spells_opened", "round": state["round"], "choices": choices}
        | {UNSEALED: [choices[wizard][SEALED] for wizard in state["wizards"]]}
    )


def _resolve(script: _Script, rng: RandomSource) -> None:
    """Both casts (IL-6 … IL-8), then the meeting of the spells (IL-10, IL-11)."""
    number = script.state["round"]
    sides = []
    for wizard in script.state["wizards"]:
        spell = script.state["chosen"][wizard]
        known = script.state["spells"][wizard][spell]
        cast = cast_spell(script.state["magic"][wizard], known["level"], _dice(script, rng, wizard))
        script.emit(
            {
                "type": "spell_cast",
                "round": number,
                "wizard": wizard,
                "spell": spell,
                "element": known["element"],
                "level": known["level"],
                "natural": cast.natural,
                "result": cast.result,
                "outcome": cast.outcome,
                "xp_gained": cast.xp_gained,
            }
        )
        after = advance(known["level"], known["xp"] + cast.xp_gained, known["difficulty"])
        for up in after.level_ups:
            script.emit(
                {
                    "type": "level_gained",
                    "wizard": wizard,
                    "spell": spell,
                    "level": up.level,
                    "xp_spent": up.xp_spent,
                }
            )
        sides.append(Side(cast.magic, known["element"], cast.outcome))
    _meet(script, number, sides[0], sides[1], rng)
    script.emit({"type": "round_started", "round": number + 1})


def _meet(script: _Script, number: int, a: Side, b: Side, rng: RandomSource) -> None:
    wizards: list[str] = script.state["wizards"]
    meeting = meet(a, b, _dice(script, rng, wizards[0]), _dice(script, rng, wizards[1]))
    by_side = {"a": wizards[0], "b": wizards[1]}
    caster = by_side.get(meeting.winner)
    if meeting.tests:
        script.emit(
            {
                "type": "clash_rolled",
                "round": number,
                "dominant": by_side.get(meeting.dominant or ""),
                "tests": [
                    {
                        "wizard": wizard,
                        "natural": test.natural,
                        "modifier": test.modifier,
                        "result": test.result,
                        "outcome": test.outcome,
                    }
                    for wizard, test in zip(wizards, meeting.tests, strict=True)
                ],
                "winner": caster,
            }
        )
    if caster is not None:
        script.emit(
            {
                "type": "spell_hit",
                "round": number,
                "caster": caster,
                "spell": script.state["chosen"][caster],
                "target": opponent(script.state, caster),
                "by": "clash" if meeting.tests else "alone",
            }
        )
    outcome = "hit" if caster is not None else meeting.winner
    script.emit({"type": "round_over", "round": number, "outcome": outcome, "caster": caster})


def _dice(script: _Script, rng: RandomSource, wizard: str) -> RandomSource:
    """`wizard`'s dice, journaled as theirs (both casts are rolled in the second wizard's
    command); a duel from before spells were sealed rolled them all as that command's."""
    return rolled_for(rng, wizard) if script.state["sealed"] else rng


def _end(script: _Script, command: Json) -> None:
    """The GM ends the duel, naming a winner or none."""
    winner = command.get("winner")
    note = command.get("note")
    if note is not None and not isinstance(note, str):
        raise InputError("note", note, _("text"))
    script.emit(
        {
            "type": "duel_ended",
            "winner": None if winner is None else _wizard(script.state, winner),
            "note": note,
        }
    )
