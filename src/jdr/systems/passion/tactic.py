"""The default Passion tactic (issue 21): the marker and the dice the Passion advisor recommends, on
the weakest opponent, and how a simulated fight ends.

A tactic is a plain function `tactic(state) -> commands`, best first (see docs/plugins.md): the
simulation plays the first one the decider accepts, so a choice the rules refuse (a target without
a dodge score, a fighter without a combat score) falls back to the next one, and to `pass` at
last. It never rolls. It plays whoever the fight waits for, players and the GM's NPCs alike:

- **Target.** The standing opponent with the fewest wounds left before it is down (its Énergie
  maximum − its wounds, PS-16's reading), then the first in the setup.
- **Weapon (PS-14, PS-16).** The usable weapon, or bare hands, with the most damage over the
  target's resistance to its type, then the most Violence dice, then the sheet's order (bare
  hands last).
- **Marker (PS-9, PS-10).** A player rates each of its available markers by the advisor's best
  chance of success (`advise.rank_pools`, goal `success`, every size, at most 10 dice) for an
  attack on its target with at least that many dice, and takes the highest marker that does as
  well as the best: faster at no cost in odds. An NPC, who never rolls to attack (PS-11), takes
  its highest available marker.
- **A player's attack (PS-10, PS-11).** The advisor's best pool with at least the marker's dice
  against the target's dodge score, its combat score cancelling, the pools it has at hand counted
  (its Énergie point, its Passion). An NPC target with Énergie left spends a point against it
  (+1 to its score, PS-7).
- **An NPC's attack (PS-7, PS-11).** Its combat score, +1 with an Énergie point while it has one.
- **A dodge (PS-11).** The advisor's best pool (one die at least: a dodge has no marker) against
  the attacker's score, the pools at hand counted; `no_dodge` only if the dodge is refused.
- **Settle (PS-5, PS-14, PS-15).** After seeing the dice, the roller spends only what turns an
  action roll that is not a success into one, when anything can: the least Passion first (it is
  spent for good and buys a deus ex machina), then the least item Énergie (the attack's weapon;
  on a dodge, the protection with the most left), then its own Énergie point (it comes back with
  rest). Nothing on damage dice.
- **The NPCs' Passion (PS-7).** After an action roll by a fighter of another side, the opposing
  NPCs cancel the fewest positives that keep it from a success even after the roller's best
  settle, the NPC with the most Passion first — when they can; otherwise they keep their Passion.
- **Damage dice (PS-14 … PS-16).** Every Violence or Robustesse die allowed, as d4s: every size's
  margin averages 0 and the d4's spreads the most, which `max(0, …)` rewards; no item Énergie on
  damage.

Where the rules are silent (readings of this simulation): no split attack, blast, combined attack,
other action roll, Énergie die (PS-10) or deus ex machina (PS-8: the GM narrates it, it changes
no number). An NPC attacked by another NPC dodges and settles as a player does (the decider lets
it). The advisor ranks in floats rounded to 12 decimals, so two machines choose alike but in a tie
closer than that.

So a roll succeeds exactly as often as the advisor's odds (`jdr odds passion action`) say with
every pool at hand spent: the roller spends what it needs whenever that is enough, and the NPCs
cancel what they need whenever that is enough (`tests/test_simulate.py` checks the simulated
first rolls against the exact odds).

>>> import tomllib
>>> from jdr.dice import Seeded
>>> from jdr.fights import Fight
>>> from jdr.systems.passion.fight import fight_rules
>>> from jdr.systems.passion.sheet_files import example_path
>>> def sheet(name, side):
...     return tomllib.loads(example_path(name).read_text("utf-8")) | {"side": side}
>>> setup = {"fighters": [sheet("romuald", "heroes"), sheet("cyber-ninja", "ninjas")]}
>>> fight = Fight.start(fight_rules(), setup, Seeded(1))
>>> tactic(fight.state)  # 1 die and his pools make a sure hit on the ninja; 2 dice would not
[{'action': 'choose_marker', 'actor': 'Romuald', 'marker': 1}]
>>> fight.act(tactic(fight.state)[0], Seeded(2))[-1]["type"]
'marker_chosen'
>>> tactic(fight.state)  # an NPC: its highest marker
[{'action': 'choose_marker', 'actor': 'Cyber-ninja', 'marker': 10}]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from jdr.i18n import N_
from jdr.systems.passion.damage import DamageType, cut_violence
from jdr.systems.passion.fight_attacks import weapon_damage
from jdr.systems.passion.fight_flow import defence
from jdr.systems.passion.fight_rolls import ATTACK_KINDS, DAMAGE_KINDS, count
from jdr.systems.passion.fight_state import has_chosen, item, score
from jdr.systems.passion.initiative import MARKERS
from jdr.systems.passion.params import Conditions
from jdr.systems.passion.pool import SIZES
from jdr.systems.protocol import Columns, Ending, Gauge, Json, Simulation, full_gauges

if TYPE_CHECKING:
    from jdr.systems.passion.advise import Choice

MOST_DICE = MARKERS[-1]
"""The advisor ranks pools of at most this many dice: as many as the highest marker asks (PS-10)."""
DAMAGE_DIE = 4
"""Violence and Robustesse dice are rolled as d4s (the module's docstring says why)."""
_DIGITS = 12


def tactic(state: Json) -> list[Json]:
    """The commands of the fighter the fight waits for, best first (see the module)."""
    waiting = state["waiting"]
    if waiting is not None:
        return _answer(state, waiting)
    if state["phase"] == "markers":
        return [_marker(state)]
    return _turn(state)


# --- choices of a fighter -------------------------------------------------------------------


def targets_of(state: Json, name: str) -> list[str]:
    """`name`'s standing opponents, weakest first: the fewest wounds left before it is down."""
    fighters = state["fighters"]
    side = fighters[name]["side"]
    opponents = [n for n, f in fighters.items() if not f["down"] and f["side"] != side]
    return sorted(opponents, key=lambda n: fighters[n]["energy_max"] - fighters[n]["wounds"])


def weapon_for(state: Json, attacker: str, target: str) -> str | None:
    """The usable weapon (None: bare hands) with the most damage over `target`'s resistance to
    its type, then the most Violence dice the attacker would roll, then the sheet's order."""
    me = state["fighters"][attacker]
    return _best_weapon(state, _armed(me), me, state["fighters"][target])


def _armed(fighter: Json) -> list[tuple[str | None, int, DamageType, int]]:
    """The fighter's usable weapons, then bare hands (None): name, damage, type, Violence."""
    armed: list[tuple[str | None, int, DamageType, int]] = []
    for weapon in fighter["weapons"]:
        if weapon["energy"] is None or weapon["energy"] >= 1:
            armed.append((weapon["name"], *weapon_damage(fighter, weapon)))
    armed.append((None, *weapon_damage(fighter, None)))
    return armed


def _best_weapon(
    state: Json, armed: list[tuple[str | None, int, DamageType, int]], me: Json, them: Json
) -> str | None:
    """`weapon_for` among the weapons `armed` (`_armed(me)`)."""
    cuts = them["npc"] and state["settings"]["npc_cuts_violence"]
    defences: dict[str, tuple[int, int]] = {}  # damage type → (resistance, Robustesse)
    best: tuple[int, int] | None = None
    chosen: str | None = None
    for name, damage, kind, dice in armed:
        if kind not in defences:
            resisted, robustness, _energy = defence(them, kind)
            defences[kind] = (resisted.total, robustness)
        resistance, robustness = defences[kind]
        violence = dice
        if me["npc"]:
            violence = 0  # the GM never rolls (PS-11, PS-16)
        elif cuts:
            violence = cut_violence(dice, robustness)
        rating = (damage - resistance, violence)
        if best is None or rating > best:  # a tie keeps the first (the sheet's order)
            best, chosen = rating, name
    return chosen


def _attack_numbers(
    state: Json, attacker: str, target: str, talent: int | None
) -> tuple[int, int, bool, int, int]:
    """What a player's attack roll on `target` is counted with (PS-3 … PS-7), as the fields of
    `Conditions` in order: the target's dodge score (the difficulty), the attacker's combat score
    (or `talent`, a split's part), its pools at hand (its Énergie point, its Passion), and the
    NPC target's Énergie point when it has one left."""
    me, them = state["fighters"][attacker], state["fighters"][target]
    return (
        _score(them, "dodge"),
        _score(me, "combat") if talent is None else talent,
        me["energy"] >= 1,
        me["passion"],
        int(_spends_energy(them)),
    )


def best_pools(conditions: Conditions) -> tuple[Choice, ...]:
    """`best[k]`: the advisor's best pool of at least `k` dice (goal `success`, every size, at most
    `MOST_DICE` dice), for every `k` from 0 to `MOST_DICE`.

    >>> best = best_pools(Conditions(difficulty=2, talent=4, energy=True))
    >>> best[1].dice, best[1].sure, best[2].dice, best[3].dice
    ('1d4', True, '2d100', '4d100')
    """
    return ranked_pools(same_count(conditions))


def pools_for(
    difficulty: int, talent: int, energy: bool, passion: int, npc_energy: int
) -> tuple[Choice, ...]:
    """`best_pools` of the conditions these numbers make (no NPC Passion), counted in one form
    (`same_count`) and kept for the process under plain numbers."""
    net = difficulty + npc_energy - talent - passion
    return _ranked_alike(max(0, net), max(0, -net), energy)


@lru_cache(maxsize=4096)
def _ranked_alike(difficulty: int, talent: int, energy: bool) -> tuple[Choice, ...]:
    return ranked_pools(Conditions(difficulty=difficulty, talent=talent, energy=energy))


def same_count(conditions: Conditions) -> Conditions:
    """Conditions that count every roll as `conditions` do (PS-3 … PS-7), in one form: the
    negatives left are max(0, dice negatives + difficulty + NPC Énergie − talent − Passion), so
    only that sum matters (as a difficulty when ≥ 0, else as a talent). Rolls counted alike are
    ranked alike: one ranking serves them all.

    >>> same_count(Conditions(difficulty=6, talent=4, passion=1, npc_energy=1))
    Conditions(difficulty=2, talent=0, energy=False, passion=0, npc_energy=0, npc_passion=0)
    >>> same_count(Conditions(difficulty=1, talent=3, energy=True, npc_passion=2)).talent
    2
    """
    net = conditions.difficulty + conditions.npc_energy - conditions.talent - conditions.passion
    return Conditions(
        difficulty=max(0, net),
        talent=max(0, -net),
        energy=conditions.energy,
        npc_passion=conditions.npc_passion,
    )


@lru_cache(maxsize=4096)
def ranked_pools(conditions: Conditions) -> tuple[Choice, ...]:
    """`best_pools`, computed by the advisor (`rank_pools`) and kept for the process."""
    from jdr.systems.passion.advise import rank_pools  # NumPy: only when a fight is simulated

    ranked = rank_pools(conditions, SIZES, max_dice=MOST_DICE, goal="success")
    return tuple(next(c for c in ranked if c.count >= k) for k in range(MOST_DICE + 1))


def best_marker(state: Json, name: str) -> int:
    """PS-9, PS-10: the highest of the player's available markers whose fewest dice leave the
    advisor's best chance of success on its target as good as any marker's."""
    available: tuple[int, ...] = tuple(sorted(state["fighters"][name]["available"]))
    targets = targets_of(state, name)
    if not targets:
        return available[-1]
    difficulty, talent, energy, passion, npc_energy = _attack_numbers(state, name, targets[0], None)
    net = difficulty + npc_energy - talent - passion
    return _fastest_best(available, max(0, net), max(0, -net), energy)


@lru_cache(maxsize=4096)
def _fastest_best(available: tuple[int, ...], difficulty: int, talent: int, energy: bool) -> int:
    """`best_marker` of these markers, for conditions counted in one form (`same_count`)."""
    best = _ranked_alike(difficulty, talent, energy)
    rated = [(round(float(best[max(1, m)].p_success), _DIGITS), m) for m in available]
    return max(rated)[1]


def _score(fighter: Json, role: str) -> int:
    """The fighter's score for `role` (`uses`: combat, dodge), 0 without one (the decider then
    refuses the roll, and the tactic's next command is played)."""
    found = score(fighter, fighter["uses"][role])
    return 0 if found is None else found[1]


def _spends_energy(fighter: Json) -> bool:
    """An NPC spends an Énergie point on each roll against it, and on its attacks (PS-7)."""
    return bool(fighter["npc"] and fighter["energy"] >= 1)


# --- the fight's phases -----------------------------------------------------------------------


def _marker(state: Json) -> Json:
    """PS-9: the first standing fighter (setup order) still to choose its marker."""
    name, fighter = next(
        (n, f) for n, f in state["fighters"].items() if not f["down"] and not has_chosen(f)
    )
    marker = max(fighter["available"]) if fighter["npc"] else best_marker(state, name)
    return {"action": "choose_marker", "actor": name, "marker": marker}


def _turn(state: Json) -> list[Json]:
    """An attack on each opponent, weakest first (a split's part: its own target), then `pass`."""
    turn = state["turn"]
    actor = turn["name"]
    part = turn["part"]
    armed = _armed(state["fighters"][actor])
    if part is None:
        fewest = int(state["fighters"][actor]["marker"])
        commands = [
            _attack(state, actor, target, fewest, armed) for target in targets_of(state, actor)
        ]
    else:
        fewest = int(part["marker"])
        commands = [_attack(state, actor, part["target"], fewest, armed, int(part["score"]))]
    return [*commands, {"action": "pass", "actor": actor}]


def _attack(
    state: Json,
    actor: str,
    target: str,
    fewest: int,
    armed: list[tuple[str | None, int, DamageType, int]],
    talent: int | None = None,
) -> Json:
    """An attack on `target`: an NPC's (the target dodges), or a player's, the advisor's dice;
    `armed`: the actor's weapons (`_armed`)."""
    me = state["fighters"][actor]
    command: Json = {"action": "attack", "actor": actor, "target": target}
    weapon = _best_weapon(state, armed, me, state["fighters"][target])
    if weapon is not None:
        command["weapon"] = weapon
    if me["npc"]:
        if _spends_energy(me):
            command["energy"] = True
        return command
    numbers = _attack_numbers(state, actor, target, talent)
    command["dice"] = pools_for(*numbers)[max(1, fewest)].dice
    if numbers[4]:  # the target's Énergie point
        command["npc_energy"] = [target]
    return command


def _answer(state: Json, waiting: Json) -> list[Json]:
    """What the fight waits for: a settle (or an NPC's Passion first), a dodge, damage dice."""
    actor = waiting["actor"]
    if waiting["for"] == "settle":
        return _settle(state, waiting["roll"])
    if waiting["for"] == "dodge":
        me = state["fighters"][actor]
        best = pools_for(
            int(waiting["difficulty"]),
            _score(me, "dodge"),
            me["energy"] >= 1,
            me["passion"],
            int(waiting["npc_energy"]),
        )
        dodge = {"action": "dodge", "actor": actor, "dice": best[1].dice}
        return [dodge, {"action": "no_dodge", "actor": actor}]
    command: Json = {"action": "violence" if waiting["for"] == "violence" else "soak"}
    command["actor"] = actor
    if waiting["max_dice"]:
        command["dice"] = f"{waiting['max_dice']}d{DAMAGE_DIE}"
    return [command]


# --- after the dice: pools (PS-5, PS-7, PS-14, PS-15) -------------------------------------------


def _settle(state: Json, rolled: Json) -> list[Json]:
    roller = rolled["roller"]
    plain: Json = {"action": "settle", "actor": roller}
    if rolled["kind"] in DAMAGE_KINDS:
        return [plain]
    fighter = state["fighters"][roller]
    energy = _energy_left(fighter, rolled)
    name = _settle_item(state, rolled)
    cancel = _npc_cancel(state, rolled, fighter, energy, name is not None)
    if cancel is not None:
        return [cancel, plain]
    return [_spend(rolled, fighter, energy, name)]


def _settle_item(state: Json, rolled: Json) -> str | None:
    """The item whose Énergie point may add a positive (PS-14, PS-15): the attack's weapon, or on
    a dodge the roller's protection with the most Énergie left; None without one."""
    roller = state["fighters"][rolled["roller"]]
    if rolled["kind"] in ATTACK_KINDS:
        action = state["action"]
        found = item(roller, "weapons", action["weapon"]) if action is not None else None
        if found is not None and found["energy"] is not None and found["energy"] >= 1:
            return str(found["name"])
        return None
    if rolled["kind"] == "dodge":
        usable = [p for p in roller["protections"] if p["energy"] is not None and p["energy"] >= 1]
        return str(max(usable, key=lambda p: p["energy"])["name"]) if usable else None
    return None


def _spend(rolled: Json, fighter: Json, energy_left: bool, name: str | None) -> Json:
    """The roller's settle: the least that turns the roll into a success (see the module). Each
    Passion point up to the negatives left cancels one (PS-5), the Énergie point and the item's
    each add a positive (PS-5, PS-14, PS-15): each adds 1 to the margin of the roll as it is."""
    command: Json = {"action": "settle", "actor": rolled["roller"]}
    energies = (False, True) if energy_left else (False,)
    items = (False, True) if name is not None else (False,)
    resolution, margin, _outcome = count(rolled, False, 0, False)
    for passion in range(min(fighter["passion"], resolution.negatives) + 1):
        for with_item in items:
            for energy in energies:
                if margin + passion + with_item + energy <= 0:
                    continue
                if passion:
                    command["passion"] = passion
                if energy:
                    command["energy"] = True
                if with_item:
                    command["item"] = name
                return command
    return command


def _energy_left(fighter: Json, rolled: Json) -> bool:
    """PS-5, PS-10: one Énergie point a roll, unless it already stood in for a die."""
    return bool(fighter["energy"] >= 1 and not rolled["energy_die"])


def _npc_cancel(
    state: Json, rolled: Json, roller: Json, energy_left: bool, with_item: bool
) -> Json | None:
    """PS-7: an opposing NPC's Passion when the NPCs can keep the roll from a success (the fewest
    positives, the NPC with the most Passion first), else None. The roller settles at its best:
    every pool it has at hand (its Énergie point when `energy_left`, its Passion, the item's
    point `with_item`)."""
    side = roller["side"]
    npcs = [
        f
        for f in state["fighters"].values()
        if f["npc"] and f["side"] != side and f["passion"] > 0 and not f["down"]
    ]
    if not npcs:
        return None

    def succeeds(cancelled: int) -> bool:
        """Whether the roller's best settle succeeds after `cancelled` more positives."""
        best = count(rolled, energy_left, roller["passion"], with_item, cancelled)
        return best[2] == "success"

    if not succeeds(0):
        return None
    reach = min(sum(f["passion"] for f in npcs), rolled["dice_positives"] - rolled["npc_passion"])
    needed = next((k for k in range(1, reach + 1) if not succeeds(k)), None)
    if needed is None:
        return None
    npc = max(npcs, key=lambda f: f["passion"])  # the first in the setup on a tie
    return {"action": "npc_passion", "actor": npc["name"], "points": min(needed, npc["passion"])}


# --- what a simulated fight reports -----------------------------------------------------------


def sides(state: Json) -> dict[str, str]:
    """Each fighter's side, by name."""
    return {name: f["side"] for name, f in state["fighters"].items()}


def over(state: Json) -> bool:
    return bool(state["over"])


def ending(events: Sequence[Json], state: Json) -> Ending:
    """The winner (the last side standing), rounds, fighters down and wounds dealt and taken
    (PS-16), from the events."""
    dealt: dict[str, int] = dict.fromkeys(state["fighters"], 0)
    taken: dict[str, int] = dict.fromkeys(state["fighters"], 0)
    for event in events:
        if event["type"] == "wounded":
            taken[event["name"]] += event["wounds"]
            if event.get("by") in dealt:
                dealt[event["by"]] += event["wounds"]
    knocked = tuple(name for name, f in state["fighters"].items() if f["down"])
    return Ending(state["winner"], state["round"], knocked, dealt, taken)


def fresh(sheet: Json) -> Json:
    """A fighter as it starts a fresh fight: Passion, Énergie and every item's Énergie full, no
    marker ticked off (PS-12 ticks them for the rest of a fight). Passion is spent for good by
    the rules (PS-5); a simulation asks who wins at full strength, `--as-is` keeps what is left."""
    rested = full_gauges(sheet)
    rested["ticked_markers"] = []
    return rested


def gauges(state: Json) -> dict[str, list[Gauge]]:
    """Each fighter's Passion, Énergie and items' Énergie as the fight starts."""
    shown = {}
    for name, fighter in state["fighters"].items():
        own = [
            Gauge(N_("Passion"), fighter["passion"], fighter["passion_max"]),
            Gauge(N_("Énergie"), fighter["energy"], fighter["energy_max"]),
        ]
        items = [
            Gauge(N_("Énergie"), item["energy"], item["energy_max"], item["name"])
            for item in [*fighter["weapons"], *fighter["protections"]]
            if item.get("energy") is not None
        ]
        shown[name] = own + items
    return shown


SIMULATION = Simulation(
    tactic=tactic,
    sides=sides,
    over=over,
    ending=ending,
    fresh=fresh,
    gauges=gauges,
    columns=Columns(N_("down"), N_("wounds dealt"), N_("wounds taken")),
)
