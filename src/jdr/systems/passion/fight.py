"""Passion fights as a decider (PS-5 … PS-18): `start`, `decide`, `evolve`, `legal_commands`.

A fight is a fold over its events: `decide` checks a command, rolls from the source it is given and
returns events that carry every face and every computed number; `evolve` (in `fight_state`) is the
only way the state changes and never rolls. A refused command raises `RulesError(reason, rule)`
before any die is rolled, and changes nothing. Every roll is counted by `resolve()` (PS-3 … PS-7)
from dice scored by PS-2 (`pool.py`).

>>> from jdr.dice import GivenFaces
>>> from jdr.fights import play
>>> from jdr.systems.passion.sheet_files import example_path
>>> import tomllib
>>> def sheet(name, side):
...     return tomllib.loads(example_path(name).read_text("utf-8")) | {"side": side}
>>> setup = {"fighters": [sheet("romuald", "heroes"), sheet("cyber-ninja", "ninjas")]}
>>> fight = play(fight_rules(), setup, [
...     {"action": "choose_marker", "actor": "Romuald", "marker": 2},
...     {"action": "choose_marker", "actor": "Cyber-ninja", "marker": 0},
...     {"action": "attack", "actor": "Romuald", "target": "Cyber-ninja", "dice": "2d6",
...      "weapon": "Pied"},
...     {"action": "settle", "actor": "Romuald"}], GivenFaces([4, 6]))
>>> [e["margin"] for e in fight.events if e["type"] == "roll_settled"]
[1]
>>> waiting = fight.state["waiting"]
>>> waiting["for"], waiting["max_dice"], fight_rules().legal_commands(fight.state)
('violence', 1, ['violence', 'deus_ex_machina'])

## Setup
`{"fighters": [{<sheet>, "side": S}, …], "status_quo_ticks": false, "npc_cuts_violence": true}`.
A sheet is what `sheets.Sheet` reads (the TOML as a dict); `side` is any name. Every fighter needs
its mobility potential (`uses.mobility`, PS-9). Pools, items' Énergie and the markers start as the
sheets say; wounds at 0.

## Commands (JSON; names match without case or accents)
Each round starts with the markers, then the turns in initiative order:
- `{"action": "choose_marker", "actor": A, "marker": M, "potential": P?}` (PS-9): one of A's
  available markers, secretly; `potential` the mobility potential to add (default: the sheet's).
  When every standing fighter has chosen, all are revealed (`markers_revealed`) and the turns
  start, highest initiative first.
At A's turn, one of:
- `{"action": "attack", "actor": A, "target": T, "dice": "2d6", "talent": N?, "weapon": W?,
  "energy_die": false, "npc_energy": [NPC…]?, "npc_protection": {NPC: protection}?}`: a player
  rolls at least its marker's dice (PS-10; `energy_die`: one Énergie point stands in for one),
  against T's dodge score (`uses.dodge`, PS-11); `talent` defaults to `uses.combat`, no weapon
  means bare hands (the body potential, physical). The GM announces the NPCs' pools before the
  roll (PS-7): `npc_energy` (1 Énergie each: +1 to their score), `npc_protection` (1 Énergie of a
  protection: +1 to its dodge, PS-15).
  An NPC attacker never rolls: `{"action": "attack", "actor": NPC, "target": T, "talent"?,
  "weapon"?, "energy": false, "weapon_energy": "roll"|"damage"?}` and T dodges (PS-11).
- `{"action": "split_attack", "actor": A, "talent": N?, "parts": [{"target": T, "talent": t,
  "marker": m}, …]}` (PS-13): two parts at least, talents and markers adding up to the whole;
  each part then has its own turn at `m + mobility`, where A plays `attack` (its target, `m` as
  the minimum dice, `t` as the talent) or `pass`.
- `{"action": "blast", "actor": A, "targets": [T…], "dice", "talent"?, "weapon"?, …}` (PS-13):
  one roll against the targets' summed dodge scores; each target hit when it succeeds.
- `{"action": "combined_attack", "actor": A, "partners": [B…], "target": T, "dice",
  "talents": {B: N}?, "weapons": {B: W}?, …}` (PS-13): talents and damages add up, the smallest
  marker is the minimum dice; the partners (same side, not played yet) give up their turns.
- `{"action": "action", "actor": A, "dice", "talent": N, "difficulty": K, "energy_die"?,
  "npc_energy"?}`: any other action roll (PS-3 … PS-6, PS-10).
- `{"action": "pass", "actor": A, "text"?}`.
Answers the fight waits for (`state["waiting"]`):
- `{"action": "settle", "actor": R, "energy": false, "passion": 0, "item": I?}` after every roll
  (PS-5): the roller's pools after seeing the dice; `item`: the attack's weapon (+1 positive,
  PS-14) or, on a dodge, one of the dodger's protections (+1, PS-15).
- `{"action": "npc_passion", "actor": NPC, "points": n}` before the settle (PS-7): an NPC of
  another side cancels positives the player got on the dice.
- `{"action": "dodge", "actor": T, "dice": "3d6", "talent"?}` or `{"action": "no_dodge",
  "actor": T}` (PS-11): against an NPC's attack, as many dodges as attacks; any number of dice.
- `{"action": "violence", "actor": A, "dice": "2d6"?, "weapon_energy": false}` (PS-14): after a
  player's hit, for each target hit, when the weapon has Violence dice to roll or Énergie left:
  up to that many dice (none: omit `dice`); `weapon_energy`: 1 of its Énergie, +1 damage.
- `{"action": "soak", "actor": T, "dice": "1d6"?, "protection": P?}` (PS-15): a player hit, when
  its protections that count against the damage have Robustesse dice or Énergie left: up to those
  dice; `protection`: 1 Énergie of one of them, +1 to soak.
At any time: `{"action": "deus_ex_machina", "actor": A, "text"?}` (PS-8, a player, 4 Passion).

## Events
`fight_started` (checked sheets, settings), `round_started`, `marker_chosen` (the marker is in the
event: a front end shows it only after the reveal), `markers_revealed` (`fighters`: marker,
potential, mobility, initiative; `order`; `roll_offs`; `slots`), `turn_started` (`slot`, the
`slots` left), `attack_split` (`parts`, `initiatives`, `slots`), `action_started` (`kind`
attack|blast|combined|action, `participants`, `targets`, `talent`, `score`, `min_dice`, `weapon`,
`damage`, `damage_type`, `violence`, `roller` attacker|defenders, `npc_bonus`, `weapon_bonus`),
`pool_spent` (`name`, `pool` passion|energy, `item`, `amount`, `use`), `roll_made` (`roller`,
`kind` attack|blast|combined|action|dodge|violence|robustness, `dice`, `faces`, `marks`, the
dice's positives and negatives, `difficulty`, `talent`, `npc_energy`, `energy_die`),
`npc_passion_spent`, `roll_settled` (every step of `resolve`, `positives`, `negatives`,
`margin`, `outcome`), `xp_changed` / `level_changed` (PS-17, PS-18: `fighter`, `name`),
`waiting` (`for` dodge|violence|soak, `max_dice`), `dodge_declined`, `target_hit` (`damage`,
`damage_type`, `resistance`, `violence_dice`, `robustness_dice`, `weapon_energy`,
`weapon_energy_left`, `protection_energy_left`) / `target_missed`, `damage_dice_chosen`,
`wounded` (every step of PS-16, `base` = damage − resistance, negative when the resistance is
higher; `total`), `fighter_down`, `action_ended` (`failed`), `passed`,
`marker_ticked` / `marker_kept` (PS-12: `reasons` failure|mobility, `kept_last`),
`deus_ex_machina`, `fight_over` (`winner`).

## Faces, in the order they are consumed
- The last `choose_marker` of a round: one d6 per tied fighter for each roll-off (PS-9), tied
  groups from the highest initiative down, fighters in setup order; re-rolls after.
- `attack`, `blast`, `combined_attack`, `action` by a player; `dodge`; `violence`, `soak` with
  dice: their dice, in the order the notation lists the sizes (`2d4+1d12`: the d4s first).
- Nothing else rolls (an NPC never does).

## Where the rules are silent
- Who rolls (PS-11; the source: "le MJ ne jette JAMAIS de dés"): a player's attack is its roll
  against the targets' dodge scores; an NPC's attack is each target's dodge against the NPC's
  score. The roller needs a success: an attack with margin > 0 hits; a dodge with margin > 0
  avoids the hit, a status quo does not. An NPC may still make an `action` roll.
- PS-12 ticking is applied at the end of the round, for every fighter that chose a marker. An
  action fails when its roll's outcome is `failure` (a status quo too with `status_quo_ticks`);
  an NPC's attack fails when it hits none of its targets; a split attack's marker is ticked after
  a failure of any of its parts. Dodges and damage dice never tick anything; a `pass` uses the
  marker (ticked when ≥ the mobility potential).
- PS-13 split: the declaration is the fighter's turn at its full initiative; each part plays at
  `marker part + mobility`; a part tied with another fighter goes by mobility, then by the
  reveal's order. A marker part may be 0 (the roll still has one die at least). Combined: the
  attack happens at the turn of the one who declares it; its roller is that fighter; the damage
  types must be the same; its XP is nobody's.
- Damage (PS-14 … PS-16): a weapon's damage is its score + its potential (melee) or its score
  (ranged); without a weapon the body potential, physical. Violence dice: a player attacker only,
  up to the weapon's Violence (a combined attack: the sum), cut by an NPC target's Robustesse when
  `npc_cuts_violence`. Robustesse dice: a player target only, up to the Robustesse of its
  protections that count against the damage (its type; physical ones against energy damage). An
  NPC attacker's weapon Énergie point spent for `damage` adds 1 to every target it hits; a
  player's is spent per target at the `violence` step. Protections and weapons at 0 Énergie do not
  count (PS-15) and cannot be used (PS-14).
- Wounds add up on the fighter; it is down (out of the fight) when they reach its Énergie
  maximum — the reading of PS-16's rule for objects. The fight is over when one side is left.
- Pools (PS-5, PS-7): one Énergie point a roll, before it as a die (PS-10) or after it; none on
  damage dice. Passion beyond the negatives left is refused (it would be wasted); an NPC's Passion
  cancels only positives the dice gave. Items add one positive each.
- XP (PS-17, PS-18) on every settled action roll (attack, part, blast, action, dodge), for the
  score used; a split's part compares its talent part with the negatives before rolling.
"""

from __future__ import annotations

from jdr.dice.source import RandomSource
from jdr.errors import RulesError
from jdr.i18n import _
from jdr.systems.passion import fight_attacks as turn
from jdr.systems.passion import fight_commands as do
from jdr.systems.passion.fight_flow import advance, after_settle, start_round
from jdr.systems.passion.fight_keys import DEUS, DEUS_COST, PART_ACTIONS, TURN_ACTIONS, WAITS
from jdr.systems.passion.fight_rolls import Script, experience, settle
from jdr.systems.passion.fight_setup import opening
from jdr.systems.passion.fight_state import evolve
from jdr.systems.protocol import Json

__all__ = ["PassionFight", "fight_rules"]


class PassionFight:
    """The `passion` system's fight rules (`jdr.systems.FightRules`)."""

    def start(self, setup: Json, rng: RandomSource) -> list[Json]:
        """The opening events: the checked sheets, then round 1 (the markers to choose)."""
        script = Script({}, rng)
        script.emit(opening(setup))
        start_round(script)
        return script.events

    def decide(self, state: Json, command: Json, rng: RandomSource) -> list[Json]:
        """The events `command` causes, or `RulesError` saying why not (nothing rolled then)."""
        return self.decided(state, command, rng)[0]

    def decided(self, state: Json, command: Json, rng: RandomSource) -> tuple[list[Json], Json]:
        """`decide`'s events and the state they fold to (the decision folded them as it wrote
        them: a simulation need not fold them again)."""
        if not state:
            raise RulesError(_("the fight has not started"), "PS-9")
        if state["over"]:
            raise RulesError(_("the fight is over"), "PS-9")
        action = do.action_of(command)
        script = Script(state, rng)
        if action == DEUS:
            do.deus_ex_machina(script, command)
        elif state["waiting"]:
            _answer(script, action, command)
        elif action == "choose_marker":
            do.choose_marker(script, command)
        elif action in TURN_ACTIONS:
            _turn(script, action, command)
        else:
            raise RulesError(
                _("nothing waits for {action} now").format(action=action),
                "PS-11" if action in ("dodge", "no_dodge") else "PS-5",
            )
        advance(script)
        return script.events, script.state

    evolve = staticmethod(evolve)
    """The next state (`fight_state.evolve` itself: a fold calls it once per event): the only
    way state changes."""

    def legal_commands(self, state: Json) -> list[str]:
        """The commands the fighter the fight waits for may use now (markers: `choose_marker`);
        `deus_ex_machina` while a player has 4 Passion; nothing before the start or once over."""
        if not state or state["over"]:
            return []
        if state["waiting"]:
            found = list(WAITS[state["waiting"]["for"]])
            if "npc_passion" in found and not _npc_may_cancel(state):
                found.remove("npc_passion")
        elif state["phase"] == "markers":
            found = ["choose_marker"]
        elif state["turn"] is not None and state["turn"]["part"] is not None:
            found = list(PART_ACTIONS)
        else:
            found = list(TURN_ACTIONS)
        deus = any(not f["npc"] and f["passion"] >= DEUS_COST for f in state["fighters"].values())
        return found + [DEUS] * deus


def fight_rules() -> PassionFight:
    """The fight rules the `passion` system registers (`System(fight=fight_rules())`)."""
    return PassionFight()


def _npc_may_cancel(state: Json) -> bool:
    rolled = state["waiting"]["roll"]
    side = state["fighters"][rolled["roller"]]["side"]
    if rolled["dice_positives"] <= rolled["npc_passion"]:
        return False
    return any(
        f["npc"] and f["side"] != side and f["passion"] > 0 and not f["down"]
        for f in state["fighters"].values()
    )


def _turn(script: Script, action: str, command: Json) -> None:
    actor = turn.turn_actor(script.state, command, action)
    if action == "attack":
        turn.attack(script, actor, command)
    elif action == "split_attack":
        turn.split_attack(script, actor, command)
    elif action == "blast":
        turn.blast(script, actor, command)
    elif action == "combined_attack":
        turn.combined_attack(script, actor, command)
    elif action == "action":
        turn.action_roll(script, actor, command)
    else:
        turn.pass_turn(script, actor, command)


def _answer(script: Script, action: str, command: Json) -> None:
    actor = do.waiting_actor(script.state, command, action)
    if action == "settle":
        settled = settle(script, command)
        experience(script, settled)
        after_settle(script, settled)
    elif action == "npc_passion":
        do.npc_passion(script, actor, command)
    elif action == "dodge":
        do.dodge(script, actor, command)
    elif action == "no_dodge":
        do.no_dodge(script, actor)
    elif action == "violence":
        do.violence(script, actor, command)
    else:
        do.soak(script, actor, command)
