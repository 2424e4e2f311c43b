"""The commands of a Pokémon fight as models (PK-5 … PK-15): what a trainer types after
`jdr fight act FIGHT POKÉMON`, with French and English keys, and who may play what now.

>>> COMMANDS.parse("capacité", ["capacité=Éclair", "cible=Chu"])
('move', {'move': 'Éclair', 'target': 'Chu'})
>>> COMMANDS.parse("répondre", ["réponse=esquive"])
('respond', {'response': 'dodge'})

Who decides (`jdr.fights.commands.Owner`): every key is the acting Pokémon's trainer's, but for
`move`'s `response` and `counter_move`, the defender's answer (PK-12 … PK-14), which are the
choice of the player of the Pokémon `target` names, given with the attack only by them or by
the GM; anyone else leaves them out and the defender is asked (`respond`).

>>> COMMANDS.get("move").owner_of("response").text()
'target:target'
"""

from __future__ import annotations

from jdr.fights.commands import Command, Commands, Owner, key, late_by_preference
from jdr.i18n import N_
from jdr.systems.pokemon.fight_odds import move_odds, outcome_of, respond_odds
from jdr.systems.pokemon.fight_orders import legal_orders, usable_moves
from jdr.systems.pokemon.fight_state import find_pokemon, opponents
from jdr.systems.pokemon.fight_words import RESPONSE_NAMES, Keys, Respond, Response
from jdr.systems.protocol import Json


class Move(Keys):
    """PK-10: use a move."""

    move: str = key(N_("the move, as the sheet names it"), fr="capacité")
    target: str | None = key(
        N_("the Pokémon it targets (none: the one opponent standing)"),
        fr="cible",
        default=None,
        fighter=True,
    )
    range_penalty: bool = key(
        N_("a physical move at range or a special one at close range: +2 DD"),
        fr="pénalité de portée",
        en="range penalty",
        default=False,
    )
    response: Response | None = key(
        N_("the defender's answer, given by its player or the GM with the attack (else asked)"),
        fr="réponse",
        default=None,
        choices=RESPONSE_NAMES,
        owner=Owner.target("target"),
    )
    counter_move: str | None = key(
        N_("with a counter answer: the defender's move"),
        fr="capacité de contre",
        en="counter move",
        default=None,
        owner=Owner.target("target"),
    )


class Free(Keys):
    """PK-7: a free order, recorded as its text."""

    text: str = key(N_("what the Pokémon does"), fr="texte", min_length=1)


class Join(Keys):
    """PK-5: a stored Pokémon enters the fight."""

    side: str = key(N_("its side (a, b, a trainer's name …)"), fr="camp", default="b")
    item: str | None = key(N_("its held item"), fr="objet", default=None)


class Nothing(Keys):
    """A command with no key."""


def _move_example(state: Json, actor: str | None) -> Json:
    name = actor or state["to_play"][0]
    example: Json = {"move": usable_moves(state, name)[0]}
    foes = opponents(state, name)
    if len(foes) > 1:
        example["target"] = foes[0]
    return example


def _respond_example(state: Json, actor: str | None) -> Json:
    return {"response": state["reaction"]["responses"][-1] if state.get("reaction") else "dodge"}


def legal(state: Json, actor: str) -> list[str]:
    """What `actor` may play now: the defender answers the attack the fight waits for; a
    Pokémon to play gives its orders; a Pokémon not in the fight may join it."""
    if state["over"]:
        return []
    name = find_pokemon(state, actor)
    if name is None:
        return ["join"]
    reaction = state.get("reaction")
    if reaction is not None:
        return ["respond"] if reaction["pokemon"] == name else []
    return legal_orders(state, name)


COMMANDS = Commands(
    [
        Command(
            "move",
            Move,
            N_("Use a move: the attack roll, its damage and effects, the defender's answer."),
            _move_example,
            "PK-10",
            fr="capacité",
            en="move",
            odds=move_odds,
            outcome=outcome_of,
        ),
        Command(
            "respond",
            Respond,
            N_("Answer the attack the fight waits for: endure, dodge, counter or none."),
            _respond_example,
            "PK-12",
            fr="répondre",
            odds=respond_odds,
            outcome=outcome_of,
        ),
        Command(
            "wait",
            Nothing,
            N_("Wait: defence rolls at DD −2 until the Pokémon acts."),
            rule="PK-15",
            fr="attendre",
        ),
        Command(
            "free",
            Free,
            N_("A free order (hide, run …), recorded as its text."),
            {"text": "se cache derrière un rocher"},
            "PK-7",
            fr="ordre libre",
            en="free order",
        ),
        Command("pass", Nothing, N_("Do nothing this turn."), rule="PK-7", fr="passer"),
        Command(
            "join",
            Join,
            N_("A stored Pokémon enters the fight, on a side."),
            {"side": "b"},
            "PK-5",
            fr="rejoindre",
            optional=True,
        ),
    ],
    legal,
)
"""The fight commands of the `pokemon` system (`System(fight_commands=…)`)."""

LATE = late_by_preference(("respond", {"response": "endure"}), ("wait", {}), ("pass", {}))
"""A late Pokémon's safe default (`jdr.live.pace`): it endures the attack it must answer
(PK-12: the damage can only go down), else waits (PK-15: its defence at DD −2), else passes."""
