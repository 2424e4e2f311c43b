"""The default Ilvermorny tactic (issue 21): the spell with the best duel odds (IL-6, IL-10,
IL-11), and how a simulated duel ends.

A tactic is a plain function `tactic(state) -> command` (see docs/plugins.md). The wizard to
choose is the first of the two who has not chosen this round. Each learnt spell is rated by its
chance to land: P(it is cast, IL-6) × the mean, over the opponent's learnt spells, of
P(the opponent's fails) + P(the opponent's is cast) × P(winning the meeting, IL-10/IL-11) — the
exact `duel_odds` of the two Magies and elements. Spell choices are sealed, so the opponent's
spell is unknown: each of theirs counts alike.

Where the rules are silent (a reading of this simulation): the source has no damage track and a
duel goes on until the GM ends it, so a simulated duel ends at its first spell that lands, won
by its caster (the tactic gives the GM's `end` then).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

from jdr.i18n import N_
from jdr.systems.ilvermorny.duel import DuelParams, duel_odds
from jdr.systems.ilvermorny.rules import DIE
from jdr.systems.ilvermorny.spells import Cast
from jdr.systems.protocol import Columns, Ending, Json, Simulation


def tactic(state: Json) -> Json:
    """The next command of the duel: the GM's end after a hit, else a wizard's spell."""
    if state["hits"]:
        return {"action": "end", "winner": state["hits"][0]["caster"]}
    me = next(w for w in state["wizards"] if w not in state["chosen"])
    (other,) = [w for w in state["wizards"] if w != me]
    mine, theirs = learnt(state, me), learnt(state, other)
    best = max(
        mine,
        key=lambda name: (
            landing(
                state["magic"][me],
                state["spells"][me][name],
                state["magic"][other],
                [state["spells"][other][t] for t in theirs],
            ),
            name,
        ),
    )
    return {"action": "cast", "wizard": me, "spell": best}


def learnt(state: Json, wizard: str) -> list[str]:
    return [name for name, spell in state["spells"][wizard].items() if spell["level"] >= 1]


def landing(magic: int, spell: Json, other_magic: int, others: Sequence[Json]) -> Fraction:
    """The chance `spell` lands against a spell drawn evenly from `others`."""
    cast = cast_chance(magic, spell["level"])
    if not others:
        return cast
    total = Fraction(0)
    for other in others:
        theirs = cast_chance(other_magic, other["level"])
        won = meeting_won(magic, spell["element"], other_magic, other["element"])
        total += (1 - theirs) + theirs * won
    return cast * total / len(others)


@lru_cache(maxsize=1024)
def cast_chance(magic: int, level: int) -> Fraction:
    """IL-6: P(a d12 cast succeeds) at this Magie and level."""
    return Fraction(sum(Cast(magic, level, face).cast for face in range(1, DIE + 1)), DIE)


@lru_cache(maxsize=1024)
def meeting_won(magic: int, element: str, other_magic: int, other_element: str) -> Fraction:
    """IL-10/IL-11: P(side a wins the meeting of two cast spells), exactly."""
    params = DuelParams.model_validate(
        {"magic_a": magic, "element_a": element, "magic_b": other_magic, "element_b": other_element}
    )
    return Fraction(duel_odds(params, True).outcomes["a"])


def sides(state: Json) -> dict[str, str]:
    """Each wizard is a side of its own (a duel)."""
    return {name: name for name in state["wizards"]}


def over(state: Json) -> bool:
    return bool(state["over"])


def ending(events: Sequence[Json], state: Json) -> Ending:
    """The winner (the first spell that landed), the rounds played — counted from 1 as the
    rules count them (IL-11): a duel whose first round lands a spell lasted 1 round, though
    the decider has opened the next one when the GM ends it — and spells landed
    (dealt/taken)."""
    dealt = dict.fromkeys(state["wizards"], 0)
    taken = dict.fromkeys(state["wizards"], 0)
    for hit in state["hits"]:
        dealt[hit["caster"]] += 1
        taken[hit["target"]] += 1
    knocked = tuple(name for name in state["wizards"] if taken[name])
    played = next((e["round"] for e in reversed(events) if e["type"] == "round_over"), 0)
    return Ending(state["winner"], played, knocked, dealt, taken)


SIMULATION = Simulation(
    tactic=tactic,
    sides=sides,
    over=over,
    ending=ending,
    columns=Columns(N_("hit"), N_("spells landed"), None, keys=("hit", "landed", "suffered")),
)
