"""Pokémon fights as a decider (PK-5 … PK-18): `start`, `decide`, `evolve`, `legal_commands`.

A fight is a fold over its events: `decide` checks a command, rolls from the source it is given and
returns events that carry every face and every computed number; `evolve` (in `fight_state`) is the
only way the state changes and never rolls. A refused command raises `RulesError(reason, rule)`
before any die is rolled.

>>> from jdr.dice import GivenFaces
>>> from jdr.fights import play
>>> def mon(name, side, dexterity):
...     stats = dict(strength=2, concentration=2, constitution=2, willpower=2, dexterity=dexterity)
...     moves = [{"name": "Charge", "type": "Normal", "category": "physique", "damage_dice": 2}]
...     return {"name": name, "types": ["Normal"], "stats": stats, "side": side, "moves": moves,
...             "vitality": {"current": 9, "max": 9}, "energy": {"current": 5, "max": 5}}
>>> fight = play(fight_rules(), {"pokemon": [mon("Evoli", "a", 3), mon("Rattata", "b", 2)]},
...              [{"actor": "Evoli", "action": "wait"}], GivenFaces([5, 4]))
>>> [(e["type"], e.get("pokemon")) for e in fight.events[1:]]  # doctest: +NORMALIZE_WHITESPACE
[('initiative_rolled', 'Evoli'), ('initiative_rolled', 'Rattata'), ('round_started', None),
 ('slot_opened', None), ('waited', 'Evoli'), ('slot_opened', None)]
>>> fight.state["to_play"], fight_rules().legal_commands(fight.state)
(['Rattata'], ['move', 'wait', 'free', 'pass', 'join'])

## Setup
`{"pokemon": [{<a Pokémon sheet>, "side": "a", "item": "Restes"?}, …], "settings": {…}?}`: a sheet
as `sheets.Pokemon` reads it plus its `side` (any name: "a", a trainer's name) and an optional held
item (free text, noted at each End of round). Settings: `FightSettings` (chances, PK-14 guard).

## Commands (JSON)
- `{"action": "move", "actor": A, "move": M, "target": T?, "range_penalty": false,
  "response": "none"|"endure"|"dodge"|"counter", "counter_move": M2?}`: use a move (PK-10). `target`
  may be left out when one opponent stands (or for a move that only affects its user);
  `range_penalty: true` says a physical move is used at range or a special one at close range
  (+2 DD, PK-10); `response` is the target's trainer's answer (PK-12 … PK-14), `counter_move` the
  defender's move for a counter.
- `{"action": "wait", "actor": A}` (PK-15), `{"action": "free", "actor": A, "text": "hides"}`
  (PK-7), `{"action": "pass", "actor": A}` (does nothing, always allowed to the one to play).
- `{"action": "join", "pokemon": {<sheet>, "side": …}}`: a Pokémon enters the fight (PK-5).

## Events
`fight_started`, `joined`, `initiative_rolled`, `round_started`, `slot_opened`, `slot_resolved`,
turn start: `thaw_checked`, `wake_checked`, `paralysis_checked`, `confusion_checked`,
`action_lost`; orders: `waited`, `free_order`, `passed`, `infatuation_checked`, `move_used`,
`accuracy_checked`, `counter_started`, `counter_resolved`, `attack_rolled`, `damage_rolled`,
`endure_rolled`, `dodge_rolled`, `damage_taken`, `stat_changed`, `condition_checked`,
`condition_inflicted`, `condition_refused`, `condition_cured`, `knocked_out`; phases:
`phase_started` (condition, end), `condition_damage`, `held_item`, `removed`, `fight_over`.

## Faces, in the order they are consumed
- `start`: one d4 per Pokémon whose sheet is already confused (its length), in setup order; one
  d10 of initiative per Pokémon, in setup order; then the first slot's turn-start checks.
- `join`: the same for the one Pokémon (d4 if confused, then its d10).
- an order: its own faces (see `fight_moves` for `move`; none for wait, free, pass), then the
  turn-start checks of every slot it opens, in order (see `fight_turns.turn_start`): for each
  Pokémon of the slot, in entry order: a d100 for freeze, sleep or paralysis, then a d100 for
  confusion and on a self-hit its Force d10s. The Condition and End phases roll nothing.

## Where the rules are silent
- Simultaneous slot (PK-5): every Pokémon of a shared slot orders against the state of the slot's
  opening, in any order; what an order does to any Pokémon (damage, stat change, condition, cure)
  is `held` and applied, in order, when the last one has acted (`slot_resolved`). So a Pokémon
  knocked out, put to sleep or slowed by a slot-mate still acts in that slot. Energy is paid at
  once. A major condition already held for a Pokémon counts as present (the second is refused).
- A joining Pokémon acts this round only if its slot comes after the open one.
- Turn start: the thaw, wake, paralysis and confusion rolls happen when the Pokémon's slot opens,
  before its trainer orders (a woken or thawed Pokémon acts at once); one that can do nothing
  (frozen without Feu Sacré / Roue De Feu, asleep without Ronflement / Blabla Dodo, paralysed,
  hurt by its confusion) loses its action by itself. Asleep or frozen: no wait or free order.
- Reactions: endure and dodge do not use the defender's action; a counter does (it uses one of its
  moves, paying its Énergie), so a Pokémon that already acted this round cannot counter. The counter
  move needs no accuracy check; the winner's move is rolled as an attack (PK-10, its own range
  penalty with the command's `range_penalty`) with no defence. Asleep or frozen: endure only.
- The dice follow `attack.resolve_attack`: no defence roll when the final damage is 0; a negative
  endure score adds to the damage (PK-12 as written: max(0, damage − score)).
- Sleep (« il se réveille au bout de 1 à 7 tours »): the sleeper's first turn asleep is slept
  through with no wake roll, even when it was put to sleep earlier in the same round (setting
  `sleep_min_turns`, 1; a fight stored without it keeps 0, a roll at the very next turn, so its
  journal replays as it was); it rolls at each turn after, and wakes without a roll at the turn
  after 7 turns lost asleep (`sleep_max_turns`). A sleep a sheet brings in counts from the
  fight's start, as its 7 turns do.
- Confusion's 1d4 turns count the Pokémon's turns with a check; flinch forbids physical and
  special moves for the rest of the round, and takes hold only on a Pokémon whose slot comes
  later this round; infatuation applies to the one who inflicted it (anyone of the other sides
  if the sheet had it).
- Conditions a sheet brings in are the GM's: no immunity check. A condition's d100 is rolled only
  when its chance is below 100, after the checks that would refuse it.
- The accuracy check applies to moves with a target; a status move that only affects its user
  cannot miss. A move's effects need a hit that is not dodged and a type multiplier above 0. Any
  other standing Pokémon may be targeted, an ally too. A skill counts from level 1.
- The fight ends at an End of round with at most one side standing (`winner` null: nobody).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from jdr import json_keys
from jdr.dice.source import RandomSource
from jdr.errors import RulesError
from jdr.i18n import _
from jdr.names import duplicate
from jdr.names import fold as fold_name
from jdr.params import validate_params
from jdr.systems.pokemon.fight_moves import respond, use_move
from jdr.systems.pokemon.fight_orders import (
    check_order,
    check_respond,
    legal_orders,
    usable_moves,
)
from jdr.systems.pokemon.fight_state import FightSettings, entry, evolve, stat
from jdr.systems.pokemon.fight_turns import Script, advance
from jdr.systems.pokemon.initiative import roll_initiative
from jdr.systems.pokemon.sheet_files import input_error
from jdr.systems.pokemon.sheets import Pokemon
from jdr.systems.pokemon.types import TypeChart, default_chart
from jdr.systems.protocol import Json

__all__ = ["PokemonFight", "fight_rules", "legal_orders", "usable_moves"]


class PokemonFight:
    """The `pokemon` system's fight rules (`jdr.systems.FightRules`)."""

    def __init__(self, chart: TypeChart | None = None) -> None:
        self.chart = chart or default_chart()

    def start(self, setup: Json, rng: RandomSource) -> list[Json]:
        """The opening events: the setup, initiative (PK-5), round 1 and its first slot."""
        raw = setup.get("pokemon")
        if not isinstance(raw, list) or not raw:
            raise RulesError(_("a fight needs a list of Pokémon"), "PK-5")
        settings = validate_params(FightSettings, setup.get("settings") or {})
        entries = [_entry(data) for data in raw]
        names = [e["sheet"]["name"] for e in entries]
        folded = [fold_name(name) for name in names]  # `duplicate`'s test, each name folded once
        for index, name in enumerate(names):
            if folded[index] in folded[:index]:
                raise RulesError(_("two Pokémon are named {name}").format(name=name), "PK-5")
        if len({e["side"] for e in entries}) < 2:
            raise RulesError(_("a fight needs Pokémon on at least two sides"), "PK-5")
        script = Script({}, rng, self.chart)
        script.emit(
            {"type": "fight_started", "settings": settings.model_dump(), "pokemon": entries}
        )
        for data in entries:
            _presets(script, data)
        for data in entries:
            _initiative(script, data["sheet"]["name"])
        script.emit({"type": "round_started", "round": 1})
        advance(script)
        return script.events

    def decide(self, state: Json, command: Json, rng: RandomSource) -> list[Json]:
        """The events `command` causes, or `RulesError` saying why not (nothing rolled then)."""
        return self.decided(state, command, rng)[0]

    def decided(self, state: Json, command: Json, rng: RandomSource) -> tuple[list[Json], Json]:
        """`decide`'s events and the state they fold to (the decision folded them as it wrote
        them: a simulation need not fold them again)."""
        if not state:
            raise RulesError(_("the fight has not started"), "PK-5")
        if state["over"]:
            raise RulesError(_("the fight is over"), "PK-6")
        script = Script(state, rng, self.chart)
        if command.get("action") == "join":
            data = _entry(command.get("pokemon"))
            name = data["sheet"]["name"]
            if duplicate(name, state["pokemon"]) is not None:
                raise RulesError(_("two Pokémon are named {name}").format(name=name), "PK-5")
            script.emit({"type": "joined", "pokemon": name, "entry": data})
            _presets(script, data)
            _initiative(script, name)
            return script.events, script.state
        if state.get("reaction") is not None:
            if command.get("action") != "respond":
                raise RulesError(
                    _("the fight waits for {name}'s answer to {move}: respond first").format(
                        name=state["reaction"]["pokemon"], move=state["reaction"]["move"]
                    ),
                    "PK-12",
                )
            respond(script, check_respond(state, command))
            advance(script)
            return script.events, script.state
        if command.get("action") == "respond":
            raise RulesError(_("no attack waits for an answer"), "PK-12")
        order = check_order(state, command)
        actor = order["actor"]
        if order["action"] == "move":
            use_move(script, order)
        elif order["action"] == "wait":
            script.emit({"type": "waited", "pokemon": actor})
        elif order["action"] == "free":
            script.emit({"type": "free_order", "pokemon": actor, "text": order["text"]})
        else:
            script.emit({"type": "passed", "pokemon": actor})
        advance(script)
        return script.events, script.state

    def evolve(self, state: Json, event: Json) -> Json:
        """The next state (`fight_state.evolve`): the only way state changes."""
        return evolve(state, event)

    def legal_commands(self, state: Json) -> list[str]:
        """The orders the Pokémon to play may give now (any of them in a shared slot), and
        `join`; nothing once the fight is over."""
        if not state or state["over"]:
            return []
        if state.get("reaction") is not None:
            return ["respond", "join"]
        names: list[str] = []
        for actor in state["to_play"]:
            names += [o for o in legal_orders(state, actor) if o not in names]
        order = ("move", "wait", "free", "pass")
        return [*sorted(names, key=order.index), "join"]


def fight_rules() -> PokemonFight:
    """The fight rules the `pokemon` system registers (`System(fight=fight_rules())`)."""
    return PokemonFight()


def _entry(data: Any) -> Json:
    """A setup or `join` Pokémon: its sheet validated (InputError), its side and item.

    A simulation starts the same fight thousands of times: the entry of a plain JSON Pokémon is
    made once (`_known_entry`), and each fight gets its own copy."""
    frozen = json_keys.key(data)
    if frozen is None:
        return _checked_entry(data)
    copied: Json = json_keys.data(_known_entry(frozen))
    return copied


@lru_cache(maxsize=256)
def _known_entry(frozen: bytes) -> bytes:
    """`_checked_entry` of the JSON whose key is `frozen`, kept as its own key (`json_keys`: an
    entry is plain JSON, and loading its key makes a new copy, faster than copying it in
    Python)."""
    entry_key = json_keys.key(_checked_entry(json_keys.data(frozen)))
    assert entry_key is not None  # a validated sheet's JSON, a side and an item
    return entry_key


def _checked_entry(data: Any) -> Json:
    if not isinstance(data, dict):
        raise RulesError(_("a Pokémon in a fight is a sheet with a side"), "PK-5")
    sheet_data = {k: v for k, v in data.items() if k not in ("side", "item")}
    side, item = data.get("side"), data.get("item")
    if not isinstance(side, str) or not side.strip():
        raise RulesError(
            _("{name} needs a side (a, b or a trainer's name)").format(name=data.get("name")),
            "PK-5",
        )
    try:
        sheet = Pokemon.model_validate(sheet_data, context={"max_moves": None})
    except ValidationError as error:
        raise input_error(error, Pokemon) from None
    if sheet.vitality.current == 0:
        raise RulesError(
            _("{name} is KO and cannot enter the fight").format(name=sheet.name), "PK-6"
        )
    return entry(sheet, side.strip(), str(item) if item else None)


def _presets(script: Script, data: Json) -> None:
    """The conditions a sheet brings into the fight (a confusion rolls its 1d4 turns)."""
    sheet = data["sheet"]
    name = sheet["name"]
    for condition in [sheet.get("condition"), *sheet.get("volatile", [])]:
        if condition is None:
            continue
        event: Json = {"type": "condition_inflicted", "pokemon": name, "condition": condition}
        event |= {"by": None, "move": None}
        if condition == "confusion":
            (event["turns"],) = script.dice_for(name).faces(4, 1)
        script.emit(event)


def _initiative(script: Script, name: str) -> None:
    """PK-5: 1d10 + Dextérité (as it is now: paralysis divides it), slotted by its total."""
    rolled = roll_initiative(stat(script.pokemon(name), "dexterity"), script.dice_for(name))
    script.emit(
        {"type": "initiative_rolled", "pokemon": name, "face": rolled.face}
        | {"dexterity": rolled.dexterity, "total": rolled.total}
    )
