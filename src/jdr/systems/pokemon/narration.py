"""How each event of a Pokémon fight reads (PK-5 … PK-18), in French and English.

One `Line` per event type of `jdr.systems.pokemon.fight`; the game's words keep their French
names (Vitalité, Énergie, DD, the types and conditions in the reader's catalog).

>>> from jdr.fights.narration import Words
>>> NARRATION.sentence({"type": "attack_rolled", "pokemon": "Machoc", "move": "Poing Karaté",
...     "target": "Abra", "stat": "strength", "range_penalty": False, "dice": 3,
...     "difficulty": 6, "faces": [8, 9, 2], "score": 2, "outcome": "success"}, Words())
"Machoc's attack: Force 3d10 DD6 (8✓ 9✓ 2) → score 2: success."
>>> from jdr.i18n import language
>>> with language("fr"):
...     NARRATION.sentence({"type": "damage_taken", "pokemon": "Abra", "amount": 3}, Words())
'Abra perd 3 Vitalité.'
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from jdr.fights.narration import Line, Narration, Words, over, says
from jdr.fights.odds import Chance
from jdr.i18n import N_, ngettext
from jdr.systems.pokemon.fight_odds import command_chance
from jdr.systems.pokemon.fight_view import winners
from jdr.systems.pokemon.fight_words import STATS
from jdr.systems.protocol import Json

ANSWERS = {
    "none": N_("{pokemon} takes the blow without defending."),
    "endure": N_("{pokemon} braces itself to endure."),
    "dodge": N_("{pokemon} tries to dodge."),
    "counter": N_("{pokemon} chooses to counter."),
}

LOST = {
    "paralysis": N_("{pokemon} is paralysed and loses its action."),
    "freeze": N_("{pokemon} is frozen and loses its action."),
    "sleep": N_("{pokemon} sleeps and loses its action."),
    "confusion": N_("{pokemon} hurt itself in its confusion and loses its action."),
    "infatuation": N_("{pokemon} will not attack the one it is attracted to: its action is lost."),
}

REFUSED = {
    "already_major": N_("{pokemon} already has a major condition: no {condition}."),
    "already": N_("{pokemon} already has {condition}."),
    "immune_type": N_("{pokemon}'s type protects it from {condition}."),
    "curse_needs_spectre": N_("{condition} needs a Spectre-type user of Malédiction."),
    "acted_first": N_("{pokemon} acted first this round: no {condition}."),
}

CURED = {
    "roll": N_("{pokemon} is free of {condition}."),
    "max_turns": N_("{pokemon} wakes up by itself: no more {condition}."),
    "move": N_("{pokemon} thaws by using {move}."),
    "fire_hit": N_("{pokemon} thaws under the fire of {move}."),
    "turns": N_("{pokemon}'s {condition} wears off."),
}


def _condition(value: Any, words: Words) -> str:
    return words.word(value)


def marks(faces: list[int], difficulty: int) -> str:
    """A d10 check's faces as a roll shows them: `8✓ 9✓ 2 1✗` (PK-2)."""
    shown = []
    for face in faces:
        mark = ("✓" if face >= max(1, difficulty) else "") + ("✗" if face == 1 else "")
        shown.append(f"{face}{mark}")
    return " ".join(shown) or "—"


def _check(event: Json, words: Words) -> str:
    """`Force 3d10 DD6 (8✓ 9✓ 2) → score 2`."""
    stat = words.word(STATS[event["stat"]]) if event.get("stat") in STATS else ""
    roll = words.say(
        N_("{dice}d10 DD{difficulty} ({marks}) → score {score}"),
        dice=event["dice"],
        difficulty=event["difficulty"],
        marks=marks(event["faces"], event["difficulty"]),
        score=words.signed(event["score"]) if event["score"] < 0 else event["score"],
    )
    return f"{stat} {roll}".strip()


@cache
def _check_odds(dice: int, difficulty: int, above: int = 0) -> Fraction:
    """P(score > `above`) of `dice` d10 at `difficulty`, exactly."""
    from jdr.systems.pokemon.check import score_distribution

    scores = score_distribution(dice, difficulty, exact=True)
    return sum((Fraction(p) for v, p in scores.to_list() if int(str(v)) > above), Fraction(0))


def _started(event: Json, words: Words) -> str:
    members: dict[str, list[str]] = {}
    for entry in event["pokemon"]:
        members.setdefault(entry["side"], []).append(entry["sheet"]["name"])
    return words.say(N_("Pokémon fight: {sides}."), sides=words.sides(members))


def _slot(event: Json, words: Words) -> str:
    names = event["to_play"]
    return ngettext(
        "{names} to play (initiative {initiative}).",
        "{names} play at once (initiative {initiative}).",
        len(names),
    ).format(n=len(names), names=words.names(names), initiative=event["initiative"])


def _chance(event: Json, good: bool, yes: str, no: str, words: Words) -> str:
    """`{head}: d100 30 against 50 %: {yes or no}` for a chance roll."""
    return words.say(
        N_("{head}: d100 {roll} against {chance} %: {result}"),
        head=words.say(_HEADS[event["type"]], **_names(event, words)),
        roll=event["roll"],
        chance=event["chance"],
        result=words.say(yes if good else no),
    )


_HEADS = {
    "thaw_checked": N_("{pokemon} tries to thaw"),
    "wake_checked": N_("{pokemon} tries to wake up"),
    "paralysis_checked": N_("{pokemon}'s paralysis"),
    "confusion_checked": N_("{pokemon}'s confusion"),
    "infatuation_checked": N_("{pokemon} is attracted to {towards}"),
    "condition_checked": N_("{condition} on {pokemon}"),
}


def _names(event: Json, words: Words) -> dict[str, str]:
    found = {k: words.name(v) for k, v in event.items() if isinstance(v, str)}
    if "condition" in event:
        found["condition"] = words.word(event["condition"])
    return found


def _thaw(event: Json, words: Words) -> str:
    return _chance(event, event["thawed"], N_("thawed."), N_("still frozen."), words)


def _wake(event: Json, words: Words) -> str:
    if event["roll"] is None and not event["woke"]:  # PK-16: too soon to roll
        least = int(event["min_turns"])
        return ngettext(
            "{pokemon} sleeps on: no wake roll before it has slept {n} turn.",
            "{pokemon} sleeps on: no wake roll before it has slept {n} turns.",
            least,
        ).format(pokemon=words.name(event["pokemon"]), n=least)
    if event["roll"] is None:
        turns = int(event["turns_asleep"])
        return ngettext(
            "{pokemon} wakes up after {n} turn asleep.",
            "{pokemon} wakes up after {n} turns asleep.",
            turns,
        ).format(pokemon=words.name(event["pokemon"]), n=turns)
    return _chance(event, event["woke"], N_("awake."), N_("still asleep."), words)


def _paralysis(event: Json, words: Words) -> str:
    return _chance(event, not event["lost"], N_("it acts."), N_("it cannot act."), words)


def _confusion(event: Json, words: Words) -> str:
    said = _chance(event, not event["hurt"], N_("it acts."), N_("it hurts itself."), words)
    if not event["hurt"]:
        return said
    return words.say(
        N_("{said} Force {check} → {damage} damage."),
        said=said,
        check=_check({**event["self_hit"], "stat": None}, words),
        damage=event["damage"],
    )


def _infatuation(event: Json, words: Words) -> str:
    return _chance(
        event,
        not event["refused"],
        N_("it attacks all the same."),
        N_("it will not attack."),
        words,
    )


def _condition_check(event: Json, words: Words) -> str:
    return _chance(event, event["hit"], N_("it takes hold."), N_("it does not take hold."), words)


def _move_used(event: Json, words: Words) -> str:
    fields = {
        "pokemon": words.name(event["pokemon"]),
        "move": words.name(event["move"]),
        "energy": event["energy"],
    }
    if event.get("target") is None:
        return words.say(N_("{pokemon} uses {move} (−{energy} Énergie)."), **fields)
    return words.say(
        N_("{pokemon} uses {move} on {target} (−{energy} Énergie)."),
        target=words.name(event["target"]),
        **fields,
    )


def _accuracy(event: Json, words: Words) -> str:
    result = N_("it hits.") if event["hit"] else N_("it misses.")
    return words.say(
        N_("{move}'s accuracy {effective} %: d100 {roll}: {result}"),
        move=words.name(event["move"]),
        effective=event["effective"],
        roll=event["roll"],
        result=words.say(result),
    )


def _counter(event: Json, words: Words) -> str:
    last = event["exchanges"][-1] if event["exchanges"] else None
    totals = (0, 0)
    if last is not None:
        defender = last["defender"]
        totals = (last["attacker"]["total"], defender["total"] if defender else 0)
        if defender is None and len(event["exchanges"]) > 1:
            totals = (totals[0], event["exchanges"][-2]["defender"]["total"])
    fields = {
        "attacker": words.name(event["attacker"]),
        "defender": words.name(event["defender"]),
        "a": totals[0],
        "a_needs": event["attacker_needs"],
        "d": totals[1],
        "d_needs": event["defender_needs"],
    }
    n = len(event["exchanges"])
    head = ngettext(
        "Counter: {attacker} {a}/{a_needs}, {defender} {d}/{d_needs} after {n} exchange",
        "Counter: {attacker} {a}/{a_needs}, {defender} {d}/{d_needs} after {n} exchanges",
        n,
    ).format(n=n, **fields)
    if event["winner"] is None:
        return words.say(N_("{head}: nobody wins, both moves fail."), head=head)
    return words.say(N_("{head}: {winner} wins."), head=head, winner=words.name(event["winner"]))


def _attack(event: Json, words: Words) -> str:
    penalty = words.say(N_(" (+2 DD at range)")) if event.get("range_penalty") else ""
    return words.say(
        N_("{pokemon}'s attack: {check}{penalty}: {outcome}."),
        pokemon=words.name(event["pokemon"]),
        check=_check(event, words),
        penalty=penalty,
        outcome=words.word(event["outcome"]),
    )


def _damage(event: Json, words: Words) -> str:
    """PK-10, PK-11: the score (floored at 0) times the multiplier, rounded down, said so."""
    fields = {
        "dice": event["dice"],
        "difficulty": event["difficulty"],
        "marks": marks(event["faces"], event["difficulty"]),
        "raw": event["raw"],
        "multiplier": words.number(event["multiplier"]),
        "damage": event["damage"],
    }
    exact = Fraction(event["raw"]) * Fraction(str(event["multiplier"]))
    if exact.denominator == 1:
        return words.say(
            N_("Damage: {dice}d10 DD{difficulty} ({marks}) → {raw} × {multiplier} = {damage}."),
            **fields,
        )
    return words.say(
        N_(
            "Damage: {dice}d10 DD{difficulty} ({marks}) → {raw} × {multiplier} = {exact},"
            " rounded down: {damage} (PK-11)."
        ),
        exact=words.number(float(exact)),
        **fields,
    )


def _joined(event: Json, words: Words) -> str:
    return words.say(
        N_("{pokemon} joins the fight on side {side}."),
        pokemon=words.name(event["pokemon"]),
        side=words.name(event["entry"]["side"]),
    )


def _endure(event: Json, words: Words) -> str:
    """PK-12: Vitalité lost = max(0, damage − endure score), the subtraction shown (a negative
    score adds to the damage)."""
    said = words.say(
        N_("{pokemon} endures: {check}."),
        pokemon=words.name(event["pokemon"]),
        check=_check(event, words),
    )
    damage = next((e for e in reversed(words.earlier) if e["type"] == "damage_rolled"), None)
    if damage is None:
        return said
    score = int(event["score"])
    lost = max(0, int(damage["damage"]) - score)
    shown = words.signed(score) if score < 0 else str(score)
    return said[:-1] + words.say(
        N_(": {damage} − {score} → {lost} Vitalité lost (PK-12)."),
        damage=damage["damage"],
        score=f"({shown})" if score < 0 else shown,
        lost=lost,
    )


def _dodge(event: Json, words: Words) -> str:
    result = N_("dodged.") if event["dodged"] else N_("not enough, the blow lands.")
    return words.say(
        N_("{pokemon} dodges: {check} against {against}: {result}"),
        pokemon=words.name(event["pokemon"]),
        check=_check(event, words),
        against=event["against"],
        result=words.say(result),
    )


def _stat(event: Json, words: Words) -> str:
    stages = event["stages"]
    message = (
        N_("{pokemon}'s {stat} rises by {n}.")
        if stages > 0
        else N_("{pokemon}'s {stat} falls by {n}.")
    )
    return words.say(
        message,
        pokemon=words.name(event["pokemon"]),
        stat=words.word(STATS.get(event["stat"], event["stat"])),
        n=abs(stages),
    )


def _inflicted(event: Json, words: Words) -> str:
    fields = {"pokemon": words.name(event["pokemon"]), "condition": words.word(event["condition"])}
    if event.get("turns"):
        return ngettext(
            "{pokemon} now has {condition} (for {n} turn).",
            "{pokemon} now has {condition} (for {n} turns).",
            event["turns"],
        ).format(n=event["turns"], **fields)
    return words.say(N_("{pokemon} now has {condition}."), **fields)


def _keyed(table: dict[str, str], key: str) -> Any:
    def say(event: Json, words: Words) -> str:
        return words.say(table[event[key]], **_names(event, words))

    return say


def _phase(event: Json, words: Words) -> str:
    if event["phase"] == "condition":
        return words.say(N_("Condition phase of round {round}."), round=event["round"])
    return words.say(N_("End of round {round}."), round=event["round"])


def _condition_damage(event: Json, words: Words) -> str:
    numerator, denominator = event["fraction"]
    return words.say(
        N_("{pokemon} loses {amount} Vitalité to {condition} ({numerator}/{denominator})."),
        pokemon=words.name(event["pokemon"]),
        amount=event["amount"],
        condition=words.word(event["condition"]),
        numerator=numerator,
        denominator=denominator,
    )


def _asked(event: Json, words: Words) -> str:
    return words.say(
        N_("{pokemon} must answer {attacker}'s {move}: {responses}."),
        pokemon=words.name(event["pokemon"]),
        attacker=words.name(event["attacker"]),
        move=words.name(event["move"]),
        responses=", ".join(words.word(r) for r in event["responses"]),
    )


def _given(event: Json, words: Words) -> str:
    return words.say(
        ANSWERS[event["response"]],
        pokemon=words.name(event["pokemon"]),
        move=words.name(event.get("counter_move") or ""),
    )


def _percent(key: str, measure: str, against: bool = False) -> Any:
    """The chance of a d100 roll at most `event[key]` (or above it, `against`), named by
    `measure`."""

    def odds(event: Json, _state: Any) -> Chance | None:
        if event.get("roll") is None:
            return None
        chance = Fraction(int(event[key]), 100)
        return Chance(1 - chance if against else chance, measure)

    return odds


def _rolled(measure: str, above: str | None = None) -> Any:
    """The chance of a check's score above 0 (or above `event[above]`), named by `measure`."""

    def odds(event: Json, _state: Any) -> Chance:
        beaten = int(event[above]) if above else 0
        return Chance(_check_odds(event["dice"], event["difficulty"], beaten), measure)

    return odds


NARRATION = Narration(
    {
        "fight_started": Line(_started),
        "joined": Line(_joined),
        "initiative_rolled": Line(
            says(N_("{pokemon}'s initiative: d10 {face} + Dextérité {dexterity} = {total}."))
        ),
        "round_started": Line(says(N_("Round {round}.")), quiet=True),
        "slot_opened": Line(_slot, quiet=True),
        "slot_resolved": Line(says(N_("The moves of the shared slot take effect together."))),
        "thaw_checked": Line(_thaw, odds=_percent("chance", N_("chance to thaw"))),
        "wake_checked": Line(_wake, odds=_percent("chance", N_("chance to wake up"))),
        "paralysis_checked": Line(
            _paralysis, odds=_percent("chance", N_("chance to act"), against=True)
        ),
        "confusion_checked": Line(
            _confusion, odds=_percent("chance", N_("chance to act"), against=True)
        ),
        "action_lost": Line(_keyed(LOST, "reason")),
        "waited": Line(says(N_("{pokemon} waits: its defence rolls are at DD −2 until it acts."))),
        "free_order": Line(says(N_("{pokemon} follows a free order: {text}"))),
        "passed": Line(says(N_("{pokemon} does nothing."))),
        "infatuation_checked": Line(
            _infatuation, odds=_percent("chance", N_("chance to attack"), against=True)
        ),
        "move_used": Line(_move_used),
        "accuracy_checked": Line(
            _accuracy, odds=_percent("effective", N_("chance to be accurate"))
        ),
        "counter_started": Line(
            says(N_("{pokemon} counters {against} with {move} (−{energy} Énergie)."))
        ),
        "counter_resolved": Line(_counter),
        "attack_rolled": Line(_attack, odds=_rolled(N_("chance the attack roll succeeds"))),
        "damage_rolled": Line(_damage),
        "endure_rolled": Line(_endure, odds=_rolled(N_("chance to reduce the damage"))),
        "dodge_rolled": Line(_dodge, odds=_rolled(N_("chance to dodge"), "against")),
        "damage_taken": Line(says(N_("{pokemon} loses {amount} Vitalité."))),
        "stat_changed": Line(_stat),
        "condition_checked": Line(
            _condition_check, odds=_percent("chance", N_("chance to take hold"))
        ),
        "condition_inflicted": Line(_inflicted),
        "condition_refused": Line(_keyed(REFUSED, "reason")),
        "condition_cured": Line(_keyed(CURED, "reason")),
        "knocked_out": Line(says(N_("{pokemon} is KO."))),
        "phase_started": Line(_phase, quiet=True),
        "condition_damage": Line(_condition_damage),
        "held_item": Line(says(N_("{pokemon} holds {item}: the GM applies it."))),
        "removed": Line(says(N_("{pokemon} leaves the fight."))),
        "fight_over": Line(over(winners)),
        "reaction_asked": Line(_asked),
        "reaction_given": Line(_given),
    },
    command_chance,
)
"""The sentences of a Pokémon fight's events (`System(narration=…)`)."""
