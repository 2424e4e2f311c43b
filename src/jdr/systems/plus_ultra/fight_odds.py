"""The odds of a Plus Ultra fight's `attack`, `technique` and `interrupt` commands, as the decider
resolves them (issue 29): d20 + Volonté (+ the technique's attack bonus) against 8 + Énergie
(+5 defending, +3 fleeing, + a technique's defense bonus, PU-4, PU-5, PU-9), or a protector's raw
8 + Énergie, beaten only above it (PU-6); every roll of a technique (PU-8) against a defense that
falls with the Énergie each hit takes, the rest ignored once the defender is at 0; the side
effects' Énergie once, after a hit (PU-7).

Outcomes: `hit` or `miss` (with a protector: `takes_hit` or `blocks`), counting a technique as a
hit when one of its rolls hit; the distribution is the Énergie its defender loses.

>>> from fractions import Fraction
>>> lost = rolls_lost(energy=5, need=lambda e: 10 + e, count=2, on_hit=3, on_miss=0, exact=True)
>>> lost[(5, False)], sum(lost.values())  # no hit: 14 faces of 20 miss, twice
(Fraction(49, 100), Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from jdr.errors import JdrError
from jdr.fights.odds import Chance, CommandOdds
from jdr.i18n import N_, _, elide
from jdr.numbers import percent
from jdr.systems.plus_ultra import fight_commands as check
from jdr.systems.plus_ultra.fight_actions import attacks
from jdr.systems.plus_ultra.rules import (
    BASE_DEFENSE,
    DEFENDING_BONUS,
    DIE,
    FLEEING_BONUS,
    damage,
    defense,
)
from jdr.systems.protocol import Json

NAMES = {
    "hit": N_("hit"),
    "miss": N_("miss"),
    "takes_hit": N_("takes_hit"),
    "blocks": N_("blocks"),
}
HIT = N_("chance to hit")
HIT_ONCE = N_("chance to hit at least once")
STOP = N_("chance to stop the flight")
LOST = N_("Énergie lost")


def face_chance(need: int, exact: bool) -> Any:
    """P(d20 ≥ `need`).

    >>> face_chance(15, True), face_chance(0, True), face_chance(21, False)
    (Fraction(3, 10), Fraction(1, 1), 0.0)
    """
    faces = max(0, min(DIE, DIE + 1 - need))
    return Fraction(faces, DIE) if exact else faces / DIE


def rolls_lost(
    energy: int,
    need: Callable[[int], int],
    count: int,
    on_hit: int,
    on_miss: int,
    exact: bool,
) -> dict[tuple[int, bool], Any]:
    """`count` d20s against a defender at `energy`: `need(e)`, the face that hits at Énergie e;
    a hit costs it `on_hit`, a miss `on_miss` (a protector's block: 1), never below 0, and the
    rolls after one that leaves it at 0 are ignored (PU-8). → P(Énergie left, any hit)."""
    states: dict[tuple[int, bool], Any] = {(energy, False): Fraction(1) if exact else 1.0}
    for _roll in range(count):
        after: dict[tuple[int, bool], Any] = {}
        for (left, hit), p in states.items():
            if left == 0:
                after[(left, hit)] = after.get((left, hit), 0) + p
                continue
            chance = face_chance(need(left), exact)
            for landed, q in ((True, chance), (False, 1 - chance)):
                if not q:
                    continue
                now = max(0, left - (on_hit if landed else on_miss))
                key = (now, hit or landed)
                after[key] = after.get(key, 0) + p * q
        states = after
    return states


def _odds(
    state: Json,
    actor: str,
    target: str,
    protector: str | None,
    effects: Mapping[str, Any],
    measure: str,
    exact: bool,
) -> CommandOdds:
    """The rolls of one action (see the module)."""
    attacker, aimed = state["characters"][actor], state["characters"][target]
    bonus, extra = int(effects.get("attack_bonus", 0)), int(effects.get("extra_damage", 0))
    count = 1 + int(effects.get("extra_attacks", 0))
    dealt = damage(attacker["rank"]) + extra
    modifier = int(attacker["willpower"]) + bonus
    lines = [_attack_line(attacker["willpower"], bonus)]
    if protector is None:
        defender = target
        raised = defense(0, aimed["defending"], aimed["fleeing"], aimed["defense_bonus"])
        lines.append(_defense_line(target, aimed))

        def need(left: int) -> int:
            return raised + left - modifier

        names = ("hit", "miss")
        on_miss = 0
    else:
        defender = protector
        lines.append(
            _("{name} protects: beaten above 8 + Énergie {energy} (PU-6)").format(
                name=protector, energy=state["characters"][protector]["energy"]
            )
        )

        def need(left: int) -> int:
            return BASE_DEFENSE + left + 1 - modifier

        names = ("takes_hit", "blocks")
        on_miss = 1
    energy = state["characters"][defender]["energy"]
    if count > 1:
        lines.append(
            _("{n} rolls, the defense falling with each hit's Énergie (PU-8)").format(n=count)
        )
    lines.append(
        _("first roll: d20 ≥ {need}: {percent}").format(
            need=need(energy), percent=percent(face_chance(need(energy), exact))
        )
    )
    lowered = int(effects.get("lower_energy", 0))
    outcomes: dict[str, Any] = {}
    lost: dict[int, Any] = {}
    for (left, hit), p in rolls_lost(energy, need, count, dealt, on_miss, exact).items():
        name = names[0] if hit else names[1]
        outcomes[name] = outcomes.get(name, 0) + p
        after = max(0, left - lowered) if hit and left > 0 else left  # PU-7: once, after a hit
        lost[energy - after] = lost.get(energy - after, 0) + p
    return CommandOdds(
        {k: v for k, v in outcomes.items() if v},
        names[0],
        measure,
        NAMES,
        lines,
        distribution=dict(sorted((k, v) for k, v in lost.items() if v)),
        label=LOST,
    )


def _attack_line(willpower: int, bonus: int) -> str:
    if bonus:
        return _("attack: d20 + Volonté {willpower} + {bonus} (technique) (PU-4)").format(
            willpower=willpower, bonus=bonus
        )
    return _("attack: d20 + Volonté {willpower} (PU-4)").format(willpower=willpower)


def _defense_line(name: str, aimed: Json) -> str:
    parts = [_("8 + Énergie {energy}").format(energy=aimed["energy"])]
    if aimed["defending"]:
        parts.append(_("+{bonus} defending").format(bonus=DEFENDING_BONUS))
    if aimed["fleeing"]:
        parts.append(_("+{bonus} fleeing").format(bonus=FLEEING_BONUS))
    if aimed["defense_bonus"]:
        parts.append(_("+{bonus} technique").format(bonus=aimed["defense_bonus"]))
    total = defense(aimed["energy"], aimed["defending"], aimed["fleeing"], aimed["defense_bonus"])
    return elide(
        _("{name}'s defense: {parts} = {total}").format(
            name=name, parts=" ".join(parts), total=total
        )
    )


def attack_odds(
    state: Json, actor: str, keys: Mapping[str, Any], exact: bool
) -> CommandOdds | None:
    """`attack` (PU-4, PU-6): one d20."""
    try:
        me = check.turn_actor(state, {"actor": actor})
        target = check.target(state, me, keys.get("target"), "PU-4")
        protector = check.protector(state, me, target, keys.get("protector"))
    except JdrError:
        return None
    return _odds(state, me, target, protector, {}, HIT, exact)


def technique_odds(
    state: Json, actor: str, keys: Mapping[str, Any], exact: bool
) -> CommandOdds | None:
    """`technique` (PU-7, PU-8): its rolls, when it attacks a target (None: it rolls nothing)."""
    try:
        me = check.turn_actor(state, {"actor": actor})
        used, target, protector = check.technique(state, me, {"actor": me, **keys})
    except JdrError:
        return None
    if target is None or not attacks(used):
        return None
    effects = used["effects"]
    measure = HIT_ONCE if int(effects.get("extra_attacks", 0)) else HIT
    return _odds(state, me, target, protector, effects, measure, exact)


def interrupt_odds(
    state: Json, actor: str, keys: Mapping[str, Any], exact: bool
) -> CommandOdds | None:
    """`interrupt` (PU-9): one d20 against the fleeing character's defense (+3)."""
    if not state.get("fleeing"):
        return None
    try:
        me = check.opponent(state, actor)
    except JdrError:
        return None
    return _odds(state, me, state["fleeing"], None, {}, STOP, exact)


def outcome_of(events: Sequence[Json]) -> str | None:
    """`hit` or `miss` (`takes_hit` or `blocks` against a protector): one hit is enough."""
    rolled = [e for e in events if e["type"] == "attack_rolled"]
    if not rolled:
        return None
    protected = rolled[0]["outcome"] in ("takes_hit", "blocks")
    hit = any(e["hit"] for e in rolled)
    if protected:
        return "takes_hit" if hit else "blocks"
    return "hit" if hit else "miss"


def roll_chance(event: Json, _state: object) -> Chance:
    """Beside one attack roll in recaps: d20 + Volonté + bonus ≥ the defense (a protector: above
    it), named."""
    need = event["defense"] - event["willpower"] - event["bonus"]
    if event["outcome"] in ("takes_hit", "blocks"):
        need += 1  # PU-6: the protector takes the hit only when its defense is lower
    return Chance(face_chance(need, True), HIT)


def command_chance(events: Sequence[Json], before: Json) -> tuple[int, Any] | None:
    """Beside a technique that rolls more than once, in recaps: its chance to hit at least once,
    as `technique_odds` gives it from the state before (one roll shows its own chance)."""
    for index, event in enumerate(events):
        if event["type"] == "technique_used" and event.get("target") is not None:
            rolls = sum(1 for e in events if e["type"] == "attack_rolled")
            ignored = sum(len(e["faces"]) for e in events if e["type"] == "rolls_ignored")
            if rolls + ignored < 2:
                return None
            keys = {"technique": event["technique"], "target": event["target"]}
            keys["protector"] = event.get("protector")

            def odds(keys: Json = keys, actor: str = event["actor"]) -> CommandOdds | None:
                try:
                    return technique_odds(before, actor, keys, False)
                except JdrError:
                    return None

            return index, odds
    return None
