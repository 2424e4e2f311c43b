"""The odds of a Pokémon fight's `move` and `respond` commands, as the decider resolves them
(issue 29): infatuation (PK-17), accuracy with its stages (PK-9), the attack roll and its range
penalty (PK-10), the type multiplier (PK-11), the defender's declared or default answer (PK-12,
PK-13, the table's `reactions`) and waiting (PK-15). One function for every view: the web's odds
beside a command, the recaps' chance, and the property test against `fight.decide`.

Outcomes: `infatuated` (the attack never starts), `inaccurate` (the accuracy d100 failed),
`miss` (attack score ≤ 0), `dodged`, `hit`; against a counter (PK-14), `countered` (the
defender won the exchanges) and `cancelled` (nobody did). The chance to hit is the product of
what comes before the attack roll and the roll's success, e.g. a 70 % move with a 74 % attack
roll: 70 % × 74 % = 51.8 %.

>>> from jdr.systems.pokemon.fight_state import ACCURACY_BY_STAGE
>>> outcome_of([{"type": "accuracy_checked", "hit": False}])
'inaccurate'
>>> outcome_of([{"type": "attack_rolled", "score": 2}, {"type": "dodge_rolled", "dodged": True}])
'dodged'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from jdr.errors import JdrError
from jdr.fights.odds import Chance, CommandOdds
from jdr.i18n import N_, _
from jdr.numbers import percent, significant
from jdr.systems.pokemon.attack_rules import Defence, attack_difficulty, defence_difficulty
from jdr.systems.pokemon.check import DEFAULT_DIFFICULTY
from jdr.systems.pokemon.fight_moves import (
    ATTACK_STAT,
    RANGE_SKILLS,
    TOUGHNESS,
    _default_response,
)
from jdr.systems.pokemon.fight_orders import check_order, check_respond, is_attack
from jdr.systems.pokemon.fight_state import ASK, accuracy, has_skill, stat
from jdr.systems.pokemon.fight_words import STATS
from jdr.systems.pokemon.types import default_chart
from jdr.systems.protocol import Json

NAMES = {
    "infatuated": N_("infatuated"),
    "inaccurate": N_("inaccurate"),
    "miss": N_("miss"),
    "dodged": N_("dodged"),
    "hit": N_("hit"),
    "countered": N_("countered"),
    "cancelled": N_("cancelled"),
}
"""The outcomes of a move, as a reader names them."""

HIT = N_("chance to hit")
TOUCHED = ("hit", "dodged")
"""What the attacker's chance to hit counts: its attack touched (dodged afterwards or not): the
product of accuracy and the attack roll, whatever the defender answers."""
DODGE = N_("chance to dodge")
MISSED = N_("chance the attack misses")
COUNTERED = N_("chance to win the counter")


def move_odds(state: Json, actor: str, keys: Mapping[str, Any], exact: bool) -> CommandOdds | None:
    """The `move` command's odds (None: a move that rolls nothing, or one the decider refuses)."""
    try:
        order = check_order(state, {"action": "move", "actor": actor, **keys})
    except JdrError:
        return None
    user, move, target = order["actor"], order["move"], order["target"]
    if target is None:
        return None
    one: Any = Fraction(1) if exact else 1.0
    lines: list[str] = []
    before: Any = one
    if is_attack(move) and _attracted(state, user, target):
        chance = state["settings"]["infatuation_chance"]
        before *= _p(100 - chance, exact)
        lines.append(
            _("infatuation: {percent} to attack at all (PK-17)").format(
                percent=percent(_p(100 - chance, exact))
            )
        )
    stage = state["pokemon"][user]["accuracy_stage"]
    effective = accuracy(move["accuracy"], stage)
    accurate: Any = one if effective >= 100 else _p(max(0, effective), exact)
    if effective < 100:
        lines.append(_accuracy_line(move["accuracy"], stage, effective))
    outcomes: dict[str, Any] = {}
    if before != one:
        outcomes["infatuated"] = one - before
    if accurate != one:
        outcomes["inaccurate"] = before * (one - accurate)
    reached = before * accurate
    if not is_attack(move):
        if reached == one:  # nothing rolled before its effects (a condition's d100 is theirs)
            return None
        outcomes["hit"] = reached
        lines.append(_product(reached))
        return CommandOdds(_kept(outcomes), "hit", HIT, NAMES, lines)
    response = order["response"]
    mode = state["settings"]["reactions"]
    asked = response is None and mode == ASK
    if response is None and not asked:
        response = _default_response(state, move, target, mode)
        lines.append(
            _("the defender's answer: {answer}, the table's default").format(
                answer=_(str(response))
            )
        )
    elif asked:
        lines.append(_("the defender's answer is asked after the accuracy roll"))
        response = "none"
    else:
        lines.append(_("the defender's answer: {answer}").format(answer=_(str(response))))
    if response == "counter":
        attack = _countered(state, user, move, target, order, exact, lines)
    else:
        attack = _strike(
            state, user, move, target, str(response), order["range_penalty"], exact, lines
        )
    for outcome, p in attack.outcomes.items():
        outcomes[outcome] = outcomes.get(outcome, 0) + reached * p
    success = attack.outcomes["hit"] + attack.outcomes.get("dodged", 0)
    lines.append(_product(reached * success, reached, success))
    lost = {0: one - reached} if reached != one else {}
    for value, p in attack.lost.items():
        lost[value] = lost.get(value, 0) + reached * p
    return CommandOdds(
        _kept(outcomes),
        TOUCHED,
        HIT,
        NAMES,
        lines,
        distribution=dict(sorted((k, v) for k, v in lost.items() if v)),
        label=N_("Vitalité lost"),
    )


def respond_odds(
    state: Json, actor: str, keys: Mapping[str, Any], exact: bool
) -> CommandOdds | None:
    """The `respond` command's odds: the attack the fight waits for, with this answer (the
    accuracy roll already passed); the defender wants to dodge, or the attack to miss."""
    if state.get("reaction") is None:
        return None
    try:
        order = check_respond(state, {"action": "respond", "actor": actor, **keys})
    except JdrError:
        return None
    response = order["response"]
    measure = {"dodge": DODGE, "counter": COUNTERED}.get(response, MISSED)
    wanted = "dodged" if response == "dodge" else "miss"
    lines = [_("the defender's answer: {answer}").format(answer=_(str(response)))]
    user, move, target = order["attacker"], order["move"], order["target"]
    if response == "counter":
        attack = _countered(state, user, move, target, order, exact, lines)
        wanted = "countered"
    else:
        attack = _strike(state, user, move, target, response, order["range_penalty"], exact, lines)
    return CommandOdds(
        _kept(dict(attack.outcomes)),
        wanted,
        measure,
        NAMES,
        lines,
        distribution=dict(sorted((k, v) for k, v in attack.lost.items() if v)),
        label=N_("Vitalité lost"),
    )


@dataclass(frozen=True)
class _Struck:
    """The attack's outcomes once it reached its roll, and the Vitalité lost."""

    outcomes: Mapping[str, Any]
    lost: Mapping[int, Any]


def _strike(
    state: Json,
    user: str,
    move: Json,
    target: str,
    response: str,
    range_penalty: bool,
    exact: bool,
    lines: list[str],
) -> _Struck:
    """`fight_moves.strike`'s rolls as odds (`attack_odds`), each rule's number in `lines`."""
    from jdr.systems.pokemon.attack_odds import attack_odds

    attacker, defender = state["pokemon"][user], state["pokemon"][target]
    category = move["category"]
    cancelled = range_penalty and has_skill(attacker, RANGE_SKILLS[category])
    penalty = range_penalty and not cancelled
    chart = default_chart()
    multiplier = chart.multiplier(move["type"], defender["types"], attacker["types"])
    dice = stat(attacker, ATTACK_STAT[category])
    lines.append(
        _("attack roll: {stat} {dice} d10 at DD {difficulty} (PK-10)").format(
            stat=_stat(ATTACK_STAT[category]),
            dice=dice,
            difficulty=attack_difficulty(DEFAULT_DIFFICULTY, penalty),
        )
        + (" " + _("(+2: range)") if penalty else "")
        + (
            " " + _("(range penalty cancelled by {skill})").format(skill=RANGE_SKILLS[category])
            if cancelled
            else ""
        )
    )
    difficulty = defence_difficulty(defender["waiting"])
    defence = None
    if response in ("endure", "dodge"):
        rolled = TOUGHNESS[category] if response == "endure" else "dexterity"
        defence = Defence(response, stat(defender, rolled), difficulty)  # type: ignore[arg-type]
        lines.append(
            _("{answer}: {stat} {dice} d10 at DD {difficulty}").format(
                answer=_(response), stat=_stat(rolled), dice=defence.dice, difficulty=difficulty
            )
            + (" " + _("(waiting: −2, PK-15)") if defender["waiting"] else "")
        )
    if multiplier.value != 1:
        lines.append(
            _("damage × {multiplier}, rounded down (PK-11)").format(
                multiplier=significant(multiplier.value, 6)
            )
        )
    answer = attack_odds(
        dice,
        move["damage_dice"],
        range_penalty=penalty,
        high_crit=move["high_crit"],
        multiplier=multiplier.value,
        defence=defence,
        exact=exact,
    )
    lost = {int(value): p for value, p in answer.vitality_lost.to_list()}  # type: ignore[arg-type]
    return _Struck(answer.outcomes, lost)


def _countered(
    state: Json, user: str, move: Json, target: str, order: Json, exact: bool, lines: list[str]
) -> _Struck:
    """PK-14: the exchanges (`counter.counter_odds`), then the winner's attack with no defence:
    the attacker's, rolled as `_strike` says; the defender's lands on the attacker (`countered`,
    the target loses nothing); neither (`cancelled`)."""
    from jdr.systems.pokemon.counter import counter_odds

    attacker, defender = state["pokemon"][user], state["pokemon"][target]
    rolled, needed = ATTACK_STAT[move["category"]], TOUGHNESS[move["category"]]
    exchanges = state["settings"]["counter_exchanges"]
    winners = counter_odds(
        stat(attacker, rolled),
        stat(defender, needed),
        stat(defender, rolled),
        stat(attacker, needed),
        max_exchanges=exchanges,
        exact=exact,
    )
    lines.append(
        _(
            "counter (PK-14): {attacker} rolls {stat} {dice} d10 to reach {needs} successes,"
            " {defender} {other} d10 to reach {other_needs}, {exchanges} exchanges at most:"
            " {attacker} wins {won}"
        ).format(
            attacker=user,
            defender=target,
            stat=_stat(rolled),
            dice=stat(attacker, rolled),
            needs=stat(defender, needed),
            other=stat(defender, rolled),
            other_needs=stat(attacker, needed),
            exchanges=exchanges,
            won=percent(winners["attacker"]),
        )
    )
    struck = _strike(state, user, move, target, "none", order["range_penalty"], exact, lines)
    outcomes = {name: winners["attacker"] * p for name, p in struck.outcomes.items()}
    outcomes |= {"countered": winners["defender"], "cancelled": winners["none"]}
    lost: dict[int, Any] = {0: winners["defender"] + winners["none"]}
    for value, p in struck.lost.items():
        lost[value] = lost.get(value, 0) + winners["attacker"] * p
    return _Struck(outcomes, lost)


def _stat(name: str) -> str:
    """A stat as the game names it (`Force`), as the sentences do."""
    return _(STATS.get(name, name))


def _p(hundredths: int, exact: bool) -> Any:
    return Fraction(hundredths, 100) if exact else hundredths / 100


def _kept(outcomes: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in outcomes.items() if v}


def _accuracy_line(base: int, stage: int, effective: int) -> str:
    if stage:
        return _("accuracy {accuracy} %, stage {stage}: {effective} % (PK-9)").format(
            accuracy=base, stage=f"{stage:+d}".replace("-", "−"), effective=effective
        )
    return _("accuracy {accuracy} %: a d100 at most {accuracy} (PK-9)").format(accuracy=base)


def _product(total: Any, reached: Any = None, attack: Any = None) -> str:
    """`chance to hit: 70.00 % × attack roll 74.29 % = 52.00 %` (what comes before the attack
    roll, infatuation and accuracy, times the roll's success)."""
    if attack is None or reached == 1:
        return _("chance to hit: {percent}").format(percent=percent(total))
    return _("chance to hit: {before} × attack roll {attack} = {percent}").format(
        before=percent(reached), attack=percent(attack), percent=percent(total)
    )


def _attracted(state: Json, user: str, target: str) -> bool:
    """PK-17, as `fight_moves._attracted` reads it from the state."""
    infatuation = state["pokemon"][user]["volatile"].get("infatuation")
    if infatuation is None:
        return False
    towards = infatuation.get("towards")
    if towards is None:
        return bool(state["pokemon"][target]["side"] != state["pokemon"][user]["side"])
    return bool(towards == target)


def outcome_of(events: Sequence[Json]) -> str | None:
    """The outcome one `move` or `respond` shows (None: it waits for an answer, or countered;
    or it used a move with no target)."""
    used = False
    for event in events:
        kind = event["type"]
        if kind == "infatuation_checked" and event.get("refused"):
            return "infatuated"
        if kind == "accuracy_checked" and not event["hit"]:
            return "inaccurate"
        if kind == "reaction_asked":
            return None
        if kind == "counter_resolved" and event["winner"] != event["attacker"]:
            return "cancelled" if event["winner"] is None else "countered"
        if kind == "attack_rolled" and event["score"] <= 0:
            return "miss"
        if kind == "dodge_rolled" and event.get("dodged"):
            return "dodged"
        used = used or kind in ("move_used", "reaction_given")
    return "hit" if used else None


def attack_chance(event: Json, state: Mapping[str, Any]) -> Chance:
    """Beside an accuracy check in recaps: the chance it was accurate (PK-9)."""
    return Chance(Fraction(max(0, min(100, event["effective"])), 100), N_("chance to be accurate"))


def command_chance(events: Sequence[Json], before: Json) -> tuple[int, Any] | None:
    """Where a recap shows an action's chance (`jdr.fights.narration.CommandChance`): beside
    `move_used`, the move's chance to hit as `move_odds` gives it from the state before; beside
    `reaction_given`, the defender's as `respond_odds` gives it. The command is read back from
    the events; an inaccurate attack whose range penalty no event tells gets none."""
    for index, event in enumerate(events):
        kind = event["type"]
        if kind == "move_used" and event.get("target") is not None:
            user = event["pokemon"]
            keys: Json = {"move": event["move"], "target": event["target"], "response": "none"}
            countered = next((e for e in events if e["type"] == "counter_started"), None)
            if countered is not None:
                keys |= {"response": "counter", "counter_move": countered["move"]}
            penalty = _range_penalty(events, user)
            if penalty is None:
                move = next(
                    (m for m in before["pokemon"][user]["moves"] if m["name"] == event["move"]),
                    None,
                )
                if move is None or is_attack(move):
                    return None
                penalty = False
            keys["range_penalty"] = penalty
            return index, _later(move_odds, before, user, keys)
        if kind == "reaction_given":
            keys = {"response": event["response"], "counter_move": event.get("counter_move")}
            return index, _later(respond_odds, before, event["pokemon"], keys)
    return None


def _range_penalty(events: Sequence[Json], user: str) -> bool | None:
    """The `range_penalty` the attacker's command gave, as its events tell it."""
    for event in events:
        if event["type"] == "reaction_asked":
            return bool(event["range_penalty"])
        if event["type"] == "attack_rolled" and event["pokemon"] == user:
            return bool(event["range_penalty"] or event.get("penalty_cancelled_by"))
    return None


def _later(function: Any, state: Json, actor: str, keys: Json) -> Any:
    """`function`'s odds, computed when a recap shows them (None if they cannot be)."""

    def odds() -> CommandOdds | None:
        try:
            found: CommandOdds | None = function(state, actor, keys, False)
        except JdrError:
            return None
        return found

    return odds
