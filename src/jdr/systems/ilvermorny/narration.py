"""How each event of an Ilvermorny duel reads (IL-5 … IL-11), in French and English.

One `Line` per event type of `jdr.systems.ilvermorny.fight`. A sealed spell reads as chosen,
never as its name, until both are opened.

>>> from jdr.fights.narration import Words
>>> print(NARRATION.sentence({"type": "spell_cast", "round": 1, "wizard": "Ann",
...     "spell": "Incendio", "element": "feu", "level": 2, "natural": 2, "result": -1,
...     "outcome": "success", "xp_gained": 3}, Words()))  # doctest: +NORMALIZE_WHITESPACE
Ann casts Incendio (fire, level 2): d12 2 − Magie/2 (3) = −1 against level × 2 (4):
 success, +3 XP.
"""

from __future__ import annotations

from typing import Any

from jdr.fights.narration import Line, Narration, Words, says
from jdr.fights.odds import Chance
from jdr.i18n import N_
from jdr.systems.ilvermorny.duel import ELEMENT_LABELS
from jdr.systems.ilvermorny.fight_odds import cast_chance
from jdr.systems.ilvermorny.rules import DIE
from jdr.systems.protocol import Json

CAST_OK = ("success", "perfect", "imperfect")
"""IL-11: the outcomes that cast the spell."""


def _started(event: Json, words: Words) -> str:
    return words.say(
        N_("Duel: {names}."),
        names=words.say(
            N_("{a} against {b}"),
            **{side: words.name(w["name"]) for side, w in zip("ab", event["wizards"], strict=True)},
        ),
    )


def _chosen(event: Json, words: Words) -> str:
    return words.sealed(
        event,
        N_("{wizard} has chosen a spell (sealed: {sealed})."),
        N_("{wizard} chooses {spell}."),  # a duel from before spells were sealed
        wizard=words.name(event["wizard"]),
        spell=words.name(event.get("spell", "")),
    )


def _opened(event: Json, words: Words) -> str:
    shown = [
        words.say(N_("{wizard} casts {spell}"), wizard=words.name(w), spell=words.name(c["spell"]))
        for w, c in event["choices"].items()
    ]
    return words.say(N_("Spells opened: {shown}."), shown=words.series(shown))


def _cast(event: Json, words: Words) -> str:
    """IL-6 with its formula: `d12 11 − Magie/2 (3) = 8 against level × 2 (4)`; a natural 1
    or 12 is read on the die."""
    fields: dict[str, Any] = {
        "wizard": words.name(event["wizard"]),
        "spell": words.name(event["spell"]),
        "element": words.word(ELEMENT_LABELS[event["element"]]),
        "level": event["level"],
        "natural": event["natural"],
        "outcome": words.word(event["outcome"]),
        "xp": event["xp_gained"],
    }
    if event["natural"] in (1, DIE):
        return words.say(
            N_(
                "{wizard} casts {spell} ({element}, level {level}): d12 {natural}, a natural"
                " {natural}: {outcome}, +{xp} XP."
            ),
            **fields,
        )
    return words.say(
        N_(
            "{wizard} casts {spell} ({element}, level {level}): d12 {natural} − Magie/2 ({half})"
            " = {result} against level × 2 ({target}): {outcome}, +{xp} XP."
        ),
        half=event["natural"] - event["result"],
        result=words.signed(event["result"]) if event["result"] < 0 else event["result"],
        target=2 * event["level"],
        **fields,
    )


def _cast_odds(event: Json, _state: Any) -> Chance:
    """IL-6: the chance the spell goes off, from the cast's own numbers (Magie ÷ 2 = natural −
    result), asked of the command's odds (`fight_odds`)."""
    half = event["natural"] - event["result"]
    return cast_chance(2 * half, event["level"])


def _clash(event: Json, words: Words) -> str:
    magic = words.state.get("magic") or {}
    tests = [
        words.say(
            N_("{wizard} d12 {natural}{modifier} = {result} {sign} Magie {magic}: {outcome}")
            if t["wizard"] in magic and t["natural"] != DIE
            else N_("{wizard} d12 {natural}{modifier} = {result}: {outcome}"),
            wizard=words.name(t["wizard"]),
            natural=t["natural"],
            modifier=f" {words.signed(t['modifier'])}" if t["modifier"] else "",
            result=t["result"],
            sign="≤" if t["wizard"] in magic and t["result"] <= magic[t["wizard"]] else ">",
            magic=magic.get(t["wizard"]),
            outcome=words.word(t["outcome"]),
        )
        for t in event["tests"]
    ]
    head = (
        words.say(N_("The spells meet, {name}'s dominates"), name=words.name(event["dominant"]))
        if event["dominant"]
        else words.say(N_("The spells meet, neither dominates"))
    )
    tail = (
        words.say(N_("{name} wins."), name=words.name(event["winner"]))
        if event["winner"]
        else words.say(N_("both spells cancel each other."))
    )
    return words.say(
        N_("{head}: Magie tests {tests}; {tail}"), head=head, tests=words.series(tests), tail=tail
    )


def _hit(event: Json, words: Words) -> str:
    message = (
        N_("{caster}'s {spell} hits {target}, cancelling the other spell.")
        if event["by"] == "clash"
        else N_("{caster}'s {spell} lands on {target}.")
    )
    return words.say(
        message,
        caster=words.name(event["caster"]),
        spell=words.name(event["spell"]),
        target=words.name(event["target"]),
    )


ROUND_OVER = {
    "hit": N_("Round {round} is over: {caster}'s spell landed."),
    "both_cancelled": N_("Round {round} is over: the spells cancelled each other."),
    "neither_cast": N_("Round {round} is over: neither spell was cast."),
}


def _round_over(event: Json, words: Words) -> str:
    return words.say(
        ROUND_OVER[event["outcome"]],
        round=event["round"],
        caster=words.name(event["caster"] or ""),
    )


def _ended(event: Json, words: Words) -> str:
    said = (
        words.say(N_("The GM ends the duel: {winner} wins."), winner=words.name(event["winner"]))
        if event["winner"]
        else words.say(N_("The GM ends the duel with no winner."))
    )
    if event.get("note"):
        said += " " + words.say(N_("Note: {note}"), note=words.name(event["note"]))
    return said


NARRATION = Narration(
    {
        "duel_started": Line(_started),
        "round_started": Line(says(N_("Round {round}: each wizard chooses a spell."))),
        "spell_chosen": Line(_chosen),
        "spells_opened": Line(_opened),
        "spell_cast": Line(_cast, odds=_cast_odds),
        "level_gained": Line(
            says(N_("{wizard}'s {spell} rises to level {level} ({xp_spent} XP spent)."))
        ),
        "clash_rolled": Line(_clash),
        "spell_hit": Line(_hit),
        "round_over": Line(_round_over, quiet=True),
        "duel_ended": Line(_ended),
    }
)
"""The sentences of an Ilvermorny duel's events (`System(narration=…)`)."""
