"""Polédémos play as a decider (PD-3 … PD-10): `start`, `decide`, `evolve`, `legal_commands`.

A game is a fold over its events: `decide` checks a command, rolls from the source it is given and
returns events that carry every face and every computed number; `evolve` (in `play_state`) is the
only way the state changes and never rolls. A refused command raises `RulesError(reason, rule)`
(or `InputError` for a malformed one) before any die is rolled, so it changes nothing.

>>> from jdr.dice import GivenFaces
>>> from jdr.fights import play
>>> setup = {"first": "Alice", "players": [
...     {"name": "Alice", "figures": [{"name": "Perry", "val": "3+"}, {"name": "Max", "val": 4}]},
...     {"name": "Bob", "figures": [{"name": "Smith", "val": "4+"}]}]}
>>> game = play(play_rules(), setup, [
...     {"action": "activate", "player": "Alice", "figure": "Perry", "dice": 3},
...     {"action": "action", "player": "Alice", "kind": "shoot", "note": "Smith is hit"},
... ], GivenFaces([2, 5, 2]))
>>> [e["type"] for e in game.events]  # doctest: +NORMALIZE_WHITESPACE
['game_started', 'first_player', 'hand_started', 'activation_rolled', 'action_taken',
 'activation_ended', 'hand_passed', 'hand_started']
>>> game.state["hand"], play_rules().legal_commands(game.state)
('Bob', ['activate'])

## Setup
`{"players": [{"name": "Alice", "figures": [{"name": "Sergent Perry", "val": "3+",
"leader": true, "followers": ["Caporal", …]}, …], "shared_followers": false?}, …],
"first": "Alice"?, "direction": "clockwise"|"counterclockwise"?,
"settings": {"voluntary_pass": false}?}`: two players or more, listed in their seats around the
table, clockwise. Each player is a `warband.Warband` (its figures and checks) named after the
player (see `play_setup`). Players and figures are named in commands as the setup spells them, or
with another case, no accents or extra spaces; events carry the setup's spelling.

## Commands (JSON)
- `{"action": "activate", "player": P, "figure": F, "dice": 1..3, "group": [F2, …]?}`: roll to
  activate one of P's figures (PD-5); `group` lists the followers a leader takes along (PD-8).
- `{"action": "action", "player": P, "kind": "move"|"shoot"|"melee", "pa": 1..3?,
  "members": {F2: pa, …}?, "note": "12 cm to the wall"?}`: the activated figure spends `pa` (1 by
  default) on one action (PD-6); each member with PA left takes it too, spending what `members`
  says (1 by default, PD-10). `note` is the table's own account (a length, a shot's outcome):
  recorded, never resolved (PD-7).
- `{"action": "end_activation", "player": P}`: stop spending PA (the rest is lost).
- `{"action": "pass", "player": P}`: pass the hand with no figure activated, only when the
  `voluntary_pass` setting allows it (PD-4).

## Events
- `game_started` {players: [{name, figures: [{name, val, leader, followers}]}], first, direction,
  settings}; `roll_off` {round, faces: [{player, face}]}; `first_player` {player, by:
  "scenario"|"roll_off"}; `hand_started` {player, hand};
- `activation_rolled` {player, figure, val, dice, faces, action_points, failures, pass_hand,
  members: [{figure, val, action_points, failures}]};
- `action_taken` {player, figure, kind, pa, bonus | distance_factor, note, members: [{figure, pa,
  bonus | distance_factor}], staying: [F, …]}: `bonus` is 0, 1, 2 for shoot and melee,
  `distance_factor` 1.0, 1.5, 2.0 for a move (PD-6); `staying` lists the members with no PA left;
- `activation_ended` {player, figure, reason: "not_activated"|"spent"|"ended"};
- `hand_passed` {player, reason: "failures"|"no_figure_left"|"voluntary"}, then `hand_started`.

## Faces, in the order they are consumed
- `start` without `first`: one d6 per player, in seat order; while several share the highest face,
  one d6 more for each of them, in seat order (a roll-off, highest starts).
- `activate`: its 1–3 d6, in order; every member reads the same faces (PD-9).
- `action`, `end_activation`, `pass`: none.

## Where the rules are silent
- PD-3: the seats are the order of `players`; `direction` (clockwise by default) is the scenario's
  or the table's choice, not rolled. The roll-off is won by the highest d6; ties re-roll.
- PD-4: a figure rolled for is activated for this hand whatever its PA, and so is every member
  declared with it: none may be activated again before the hand comes back. The hand passes by
  itself when an activation ends with two leader failures or more (PD-5) or with no figure left to
  activate. Rules as written, a player plays on until forced to pass: `pass` is refused unless the
  setting `voluntary_pass` is true (a figure may still roll 1 die and end at once).
- PD-5: an activation ends by itself when its figure has no PA left (with 0 PA, at once: it does
  not activate); otherwise `end_activation` ends it. A new `activate` waits for the end.
- PD-8: 10 cm is the table's to judge: the tool checks that members are followers the setup lists
  for that leader, not yet activated this hand. A leader may go alone. As a warband file reads
  it, a figure follows one leader unless its player sets `shared_followers`.
- PD-9, PD-10: members act only when their leader acts: a leader with 0 PA takes its whole group
  with it, even a member whose VAL gave it PA. A member spends 1 PA up to the leader's own spend
  and its PA left ("need not augment as much", so not more); a member with no PA left stays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from jdr.dice.source import RandomSource
from jdr.errors import RulesError
from jdr.i18n import _
from jdr.systems.poledemos.play_commands import (
    COMMANDS,
    Activate,
    PlayerCommand,
    TakeAction,
    check_action,
    check_activate,
    check_pass,
    open_activation,
    parse_command,
)
from jdr.systems.poledemos.play_setup import game_started
from jdr.systems.poledemos.play_state import available_figures, evolve, next_player, open_kinds
from jdr.systems.poledemos.rules import activate, member_activation
from jdr.systems.protocol import Json

__all__ = ["COMMANDS", "PoledemosPlay", "available_figures", "open_kinds", "play_rules"]

MAX_ROLL_OFF_ROUNDS = 100
"""PD-3: roll-off rounds before a source that only ties is refused."""


@dataclass
class _Script:
    """The events of one decision, each folded into `state` as soon as it is written."""

    state: Json
    events: list[Json] = field(default_factory=list)

    def emit(self, event: Json) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


class PoledemosPlay:
    """The `poledemos` system's play rules (`jdr.systems.FightRules`)."""

    def start(self, setup: Json, rng: RandomSource) -> list[Json]:
        """The opening events: the setup, who starts (PD-3) and the first hand."""
        script = _Script({})
        script.emit(game_started(setup))
        chosen: str | None = script.events[0]["first"]
        first = _roll_off(script, rng) if chosen is None else chosen
        by = "roll_off" if chosen is None else "scenario"
        script.emit({"type": "first_player", "player": first, "by": by})
        script.emit({"type": "hand_started", "player": first, "hand": 1})
        return script.events

    def decide(self, state: Json, command: Json, rng: RandomSource) -> list[Json]:
        """The events `command` causes, or `RulesError` saying why not (nothing rolled then)."""
        return self.decided(state, command, rng)[0]

    def decided(self, state: Json, command: Json, rng: RandomSource) -> tuple[list[Json], Json]:
        """`decide`'s events and the state they fold to (the decision folded them as it wrote
        them: a simulation need not fold them again)."""
        if not state:
            raise RulesError(_("the game has not started"), "PD-3")
        name, fields = parse_command(command)
        script = _Script(state)
        if isinstance(fields, Activate):
            _activate(script, fields, rng)
        elif isinstance(fields, TakeAction):
            _action(script, fields)
        elif name == "end_activation":
            open_activation(state, fields)
            _end_activation(script, "ended")
        else:
            _pass(script, fields)
        return script.events, script.state

    def evolve(self, state: Json, event: Json) -> Json:
        """The next state (`play_state.evolve`): the only way state changes."""
        return evolve(state, event)

    def legal_commands(self, state: Json) -> list[str]:
        """What the player with the hand may do now: act with the activated figure or end its
        activation; else activate a figure (or pass, when the table allows it)."""
        if not state or state["hand"] is None:
            return []
        if state["activation"] is not None:
            return ["action", "end_activation"]
        return ["activate", "pass"] if state["settings"]["voluntary_pass"] else ["activate"]


def play_rules() -> PoledemosPlay:
    """The play rules the `poledemos` system registers (`System(fight=play_rules())`)."""
    return PoledemosPlay()


def _roll_off(script: _Script, rng: RandomSource) -> str:
    """PD-3: every player rolls a d6, highest starts; the players tied for it roll again."""
    rolling: list[str] = script.state["seats"]
    for number in range(1, MAX_ROLL_OFF_ROUNDS + 1):
        faces = rng.faces(6, len(rolling))
        rolled = list(zip(rolling, faces, strict=True))
        script.emit(
            {
                "type": "roll_off",
                "round": number,
                "faces": [{"player": player, "face": face} for player, face in rolled],
            }
        )
        rolling = [player for player, face in rolled if face == max(faces)]
        if len(rolling) == 1:
            return rolling[0]
    raise RulesError(
        _("the roll-off is still tied after {rounds} rounds").format(rounds=MAX_ROLL_OFF_ROUNDS),
        "PD-3",
    )


def _activate(script: _Script, command: Activate, rng: RandomSource) -> None:
    """PD-5: the figure's roll; PD-9: each member reads the same faces against its own VAL."""
    player, figure, members = check_activate(script.state, command)
    rolled = activate(figure["val"], command.dice, rng)
    reads = [(member, member_activation(member["val"], rolled)) for member in members]
    script.emit(
        {
            "type": "activation_rolled",
            "player": player,
            "figure": figure["name"],
            "val": figure["val"],
            "dice": command.dice,
            "faces": list(rolled.test.faces),
            "action_points": rolled.action_points,
            "failures": rolled.failures,
            "pass_hand": rolled.pass_hand,
            "members": [
                {
                    "figure": member["name"],
                    "val": member["val"],
                    "action_points": read.action_points,
                    "failures": read.failures,
                }
                for member, read in reads
            ],
        }
    )
    if not rolled.activated:
        _end_activation(script, "not_activated")


def _action(script: _Script, command: TakeAction) -> None:
    """PD-6: one action of each kind, 1–3 PA; PD-10: the group takes it too; PD-7: the note is
    recorded as the table gives it."""
    following, staying = check_action(script.state, command)
    activation = script.state["activation"]
    kind, pa = command.kind, command.pa
    script.emit(
        {
            "type": "action_taken",
            "player": activation["player"],
            "figure": activation["figure"],
            "kind": kind,
            "pa": pa,
            **augmented(kind, pa),
            "note": command.note or None,
            "members": [
                {"figure": name, "pa": spent, **augmented(kind, spent)}
                for name, spent in following.items()
            ],
            "staying": staying,
        }
    )
    if script.state["activation"]["left"] == 0:
        _end_activation(script, "spent")


def augmented(kind: str, pa: int) -> Json:
    """PD-6: a move goes +50 % per extra PA; a shot or a melee gets +1 bonus per extra PA.

    >>> augmented("move", 1), augmented("move", 3), augmented("shoot", 2), augmented("melee", 3)
    ({'distance_factor': 1.0}, {'distance_factor': 2.0}, {'bonus': 1}, {'bonus': 2})
    """
    if kind == "move":
        return {"distance_factor": 1 + (pa - 1) / 2}
    return {"bonus": pa - 1}


def _end_activation(script: _Script, reason: str) -> None:
    """End the activation; the hand passes on the leader's failures (PD-5), or when the player
    has no figure left to activate (PD-4)."""
    activation = script.state["activation"]
    script.emit(
        {
            "type": "activation_ended",
            "player": activation["player"],
            "figure": activation["figure"],
            "reason": reason,
        }
    )
    if activation["pass_hand"]:
        _pass_hand(script, "failures")
    elif not available_figures(script.state):
        _pass_hand(script, "no_figure_left")


def _pass(script: _Script, command: PlayerCommand) -> None:
    check_pass(script.state, command)
    _pass_hand(script, "voluntary")


def _pass_hand(script: _Script, reason: Literal["failures", "no_figure_left", "voluntary"]) -> None:
    """PD-3, PD-4: the next player around the table takes the hand; its figures are all fresh."""
    player = script.state["hand"]
    script.emit({"type": "hand_passed", "player": player, "reason": reason})
    script.emit(
        {
            "type": "hand_started",
            "player": next_player(script.state, player),
            "hand": script.state["hand_number"] + 1,
        }
    )
