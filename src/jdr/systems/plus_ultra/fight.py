"""Plus Ultra fights as a decider (PU-1, PU-4 … PU-10): `start`, `decide`, `evolve`,
`legal_commands`.

A fight is a fold over its events: `decide` checks a command, rolls from the source it is given and
returns events that carry every face and every computed number; `evolve` (in `fight_state`) is the
only way the state changes and never rolls. A refused command raises `RulesError(reason, rule)`
before any die is rolled. The rules are `rules.py`'s (`resolve_attack`, `protect`, `damage` …).

>>> from jdr.dice import GivenFaces
>>> from jdr.fights import play
>>> def hero(name, side):
...     return {"name": name, "rank": "D", "energy": 5, "willpower": 5, "side": side}
>>> fight = play(fight_rules(), {"characters": [hero("Izuku", "a"), hero("Katsuki", "b")]},
...              [{"action": "attack", "actor": "Izuku", "target": "Katsuki"}], GivenFaces([3]))
>>> [(e["type"], e.get("attack"), e.get("defense")) for e in fight.events[3:]]
[('attacked', None, None), ('attack_rolled', 8, 13), ('turn_started', None, None)]
>>> fight.state["turn"], fight_rules().legal_commands(fight.state)
('Katsuki', ['attack', 'defend', 'flee'])

## Setup
`{"characters": [{<sheet>, "side": S}, …], "order": [names]?, "draw_order": false}`. A sheet is
what `sheets.Character` reads: `{"name", "rank", "energy", "willpower" (maxima), "techniques":
[{"name", "cost", "cooldown", "equipment"?, "effects": {"extra_attacks"?, "attack_bonus"?,
"extra_damage"?, "defense_bonus"?, "lower_willpower"?, "lower_energy"?, "text"?}}]}`, checked
there (PU-2 maxima, PU-7 costs); `side` is any name ("a", "heroes"). The order of play (PU-10) is
`order` (every character once), or drawn with `draw_order: true`, or else the order of
`characters`. Every gauge starts at its maximum (PU-1).

## Commands (JSON)
- `{"action": "attack", "actor": A, "target": T, "protector": P?}` (PU-4). With `protector`, P
  protects T (PU-6): an ally of T, still in the fight, who has not played this round, while T has
  not played either. P's action for the round is spent; when P comes after T in the order they swap
  places, which only turns that follow each other may do, and the new order holds for the
  following rounds.
- `{"action": "defend", "actor": A}` (PU-5): +5 defense until the start of A's next turn.
- `{"action": "technique", "actor": A, "technique": N, "target": T?, "protector": P?}` (PU-7). A
  technique with an attack effect (`extra_attacks`, `attack_bonus`, `extra_damage`,
  `lower_willpower`, `lower_energy`) needs a target and may be protected against; any other (only a
  `defense_bonus` and/or `text`) takes an optional target, recorded for the GM.
- `{"action": "flee", "actor": A}` (PU-9): +3 defense; the fight then waits for the answer of an
  opponent (any character of another side still in the fight), and accepts only:
  `{"action": "interrupt", "actor": O}`: O attacks A (one d20, a plain attack): a hit and the flight
  fails, A loses O's rank damage; a miss and A leaves the fight.
  `{"action": "no_interrupt", "actor": O?}`: A leaves the fight.
Names match without case, accents or spaces. Another key is refused (`InputError`).

## Events
`fight_started` (the checked sheets, `order`, `draws`), `round_started`, `turn_started`; actions,
each spending the actor's turn: `attacked`, `technique_used`, `defended`, `fled`, `protected` (the
protector's, with the new `order`); rolls and effects: `attack_rolled` (one per roll: `face`,
`willpower`, `bonus`, `attack`, `defender`, `defense`, `defending`, `fleeing`, `defense_bonus`,
`outcome` hit|miss|takes_hit|blocks, `hit`, `damage`), `rolls_ignored` (PU-8), `energy_lost`,
`willpower_lost`, `defense_raised`, `willpower_spent` (a technique's cost, after it resolved),
`knocked_out`; flight: `interrupted`, `not_interrupted`, `flight_failed`, `escaped`; `fight_over`.

## Faces, in the order they are consumed
- `start`: with `draw_order`, one d100 per character in setup order; none otherwise.
- `attack`: one d20. `technique`: 1 + `extra_attacks` d20 in one call if it attacks, none
  otherwise. `interrupt`: one d20. `defend`, `flee`, `no_interrupt`: none.

## Where the rules are silent
- Drawn order: highest d100 first; a tie keeps setup order (no re-draw: the number of faces is known
  in advance, and a tie between two d100 is rare).
- Any other character still in the fight may be attacked, an ally too. Protecting needs three
  characters at least (the protector is neither the attacker nor the target), so "fights with
  more than two" needs no check of its own.
- A round ends when every character still in the fight has played (PU-10); the fight ends at once
  when the characters still in it (not KO, not escaped) are all of one side; `winner` is that side.
- Protect (PU-6) is declared in the attack, by whoever enters it: a protector of the target's side
  only ("votre allié"). Every roll of the action is compared with the protector's raw defense
  (8 + its Énergie as it is then, no +5, no technique); `takes_hit` (defense < attack, so a tie
  blocks) costs the full damage and the technique's side effects, `blocks` 1 Énergie. Each attack
  resolves as it is declared, so "the attacks already aimed at the protector this round" have
  already taken their Énergie: a protector at 0 is KO and cannot protect; nothing else is refused.
  The swap exchanges the two places, and only turns that follow each other swap (« si ces
  derniers se suivent »): with `A C B D`, B protecting C → `A B C D`; with `A C D B`, B may not
  protect C. Turns follow each other in the order of the characters still in the fight: one KO or
  escaped in between plays no turn. A protector already before its ally needs no swap: `A B D C`,
  B may protect C.
- Techniques (PU-7): cooldown counted in rounds (`n = round − round used`, shown `n/X` until
  `n > X`). All of a technique's rolls use the actor's Volonté before its cost is paid. Extra damage
  is added to each hit; lowering Volonté or Énergie is applied once, after the rolls, when at least
  one roll hit a defender still in the fight. A technique's defense bonus lasts, like defend's +5,
  until the start of the user's next turn.
- Multi-roll (PU-8): the d20s are rolled together, as a forum post rolls them; after a roll that
  leaves the actor or the defender (the target, or its protector) at 0 Énergie, the rest are
  recorded as `rolls_ignored` with their faces.
- Flee (PU-9): the interrupting attack is a reaction: it does not use the opponent's turn (one
  answer per flight). The fleeing character's +5 or technique bonus ended when its turn started,
  so its defense is 8 + Énergie + 3. Its turn is over either way.
- Gauges (PU-1): a loss never takes a gauge below 0 (events carry the amount really lost); nothing
  raises a gauge during a fight.
"""

from __future__ import annotations

from jdr.dice.source import RandomSource
from jdr.errors import RulesError
from jdr.fights.commands import action_of
from jdr.i18n import _
from jdr.systems.plus_ultra import fight_actions as act
from jdr.systems.plus_ultra import fight_commands as check
from jdr.systems.plus_ultra.fight_models import KEYS
from jdr.systems.plus_ultra.fight_setup import opening
from jdr.systems.plus_ultra.fight_state import evolve
from jdr.systems.plus_ultra.fight_view import shown_command
from jdr.systems.protocol import Json

__all__ = ["PlusUltraFight", "fight_rules"]


class PlusUltraFight:
    """The `plus-ultra` system's fight rules (`jdr.systems.FightRules`)."""

    def start(self, setup: Json, rng: RandomSource) -> list[Json]:
        """The opening events: the setup and its order of play (PU-10), round 1, the first turn."""
        script = act.Script({}, rng)
        script.emit(opening(setup, rng))
        script.emit({"type": "round_started", "round": 1})
        act.advance(script)
        return script.events

    def decide(self, state: Json, command: Json, rng: RandomSource) -> list[Json]:
        """The events `command` causes, or `RulesError` saying why not (nothing rolled then)."""
        return self.decided(state, command, rng)[0]

    def decided(self, state: Json, command: Json, rng: RandomSource) -> tuple[list[Json], Json]:
        """`decide`'s events and the state they fold to (the decision folded them as it wrote
        them: a simulation need not fold them again)."""
        if not state:
            raise RulesError(_("the fight has not started"), "PU-10")
        if state["over"]:
            raise RulesError(_("the fight is over"), "PU-10")
        action = action_of(command, KEYS, "PU-4")
        script = act.Script(state, rng)
        if state["fleeing"]:
            _answer(script, action, command)
        elif action in check.ANSWERS:
            raise RulesError(_("nobody is fleeing"), "PU-9")
        else:
            _turn(script, action, command)
        act.advance(script)
        return script.events, script.state

    def evolve(self, state: Json, event: Json) -> Json:
        """The next state (`fight_state.evolve`): the only way state changes."""
        return evolve(state, event)

    def legal_commands(self, state: Json) -> list[str]:
        """The actions the character to play may use now (the answers while one flees); nothing
        before the start or once the fight is over."""
        return check.legal_actions(state)


def fight_rules() -> PlusUltraFight:
    """The fight rules the `plus-ultra` system registers (`System(fight=fight_rules())`)."""
    return PlusUltraFight()


def _turn(script: act.Script, action: str, command: Json) -> None:
    """One action of the character to play (PU-4 … PU-9), checked before anything is rolled."""
    state = script.state
    actor = check.turn_actor(state, command)
    if action == "attack":
        target = check.target(state, actor, command.get("target"), "PU-4")
        protector = check.protector(state, actor, target, command.get("protector"))
        act.attack(script, actor, target, protector)
    elif action == "technique":
        used, target_or_none, protector = check.technique(state, actor, command)
        act.technique(script, actor, used, target_or_none, protector)
    elif action == "defend":
        act.defend(script, actor)
    else:
        act.flee(script, actor)


def _answer(script: act.Script, action: str, command: Json) -> None:
    """PU-9: while a character flees, an opponent interrupts it or lets it go."""
    if action not in check.ANSWERS:
        raise RulesError(
            _("{name} is fleeing: an opponent answers first ({interrupt} or {let_go})").format(
                name=script.state["fleeing"],
                interrupt=shown_command("interrupt"),
                let_go=shown_command("no_interrupt"),
            ),
            "PU-9",
        )
    actor = command.get("actor")
    if action == "interrupt":
        act.interrupt(script, check.opponent(script.state, actor))
    else:
        act.let_go(script, None if actor is None else check.opponent(script.state, actor))
