"""Which orders a Pokémon may give now, and the checks that refuse a command before any roll.

Every refusal is a `RulesError` with a sentence in the current language and the rule's id; nothing
is rolled before a command is known to be legal, so a refused command changes nothing.

>>> is_attack({"category": "physique"}), is_attack({"category": "statut"})
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jdr.errors import RulesError
from jdr.fights.commands import choice_label
from jdr.i18n import _
from jdr.names import fold as fold_name
from jdr.names import hint
from jdr.systems.pokemon.fight_state import (
    SNORE_MOVES,
    THAW_MOVES,
    find_move,
    find_pokemon,
    in_order,
    opponents,
    standing,
)
from jdr.systems.pokemon.fight_words import Respond
from jdr.systems.protocol import Json

ORDERS = ("move", "wait", "free", "pass")
"""PK-7: the orders a Pokémon to play may receive (`join` is anyone's, at any time)."""
RESPONSES = ("none", "endure", "dodge", "counter")
"""PK-12 … PK-14: the defender's answer to an attack (`respond`, or a GM's `response` given with
the `move`)."""


def is_attack(move: Json) -> bool:
    """A physical or special move: rolled, and the one kind that can be endured or dodged."""
    return move["category"] in ("physique", "speciale")


def needs_target(move: Json) -> bool:
    """An attack, or a status move that inflicts a condition or changes the target's stats."""
    change = move.get("stat_change")
    return (
        is_attack(move)
        or move.get("inflicts") is not None
        or (change is not None and change["target"] == "target")
    )


def _asleep(name: str) -> RulesError:
    return RulesError(
        _("{name} is asleep: it can only use Ronflement or Blabla Dodo, or pass").format(name=name),
        "PK-16",
    )


def _frozen(name: str) -> RulesError:
    return RulesError(
        _("{name} is frozen: it can only use Feu Sacré or Roue De Feu, or pass").format(name=name),
        "PK-16",
    )


def _too_little_energy(name: str, move: Json, energy: int) -> RulesError:
    return RulesError(
        _("too little Énergie: {move} costs {cost}, {name} has {energy}").format(
            move=move["name"], cost=move["energy"], name=name, energy=energy
        ),
        "PK-10",
    )


def _unknown_move(name: str, move: Any, pokemon: Json) -> RulesError:
    known = ", ".join(m["name"] for m in pokemon["moves"]) or "-"
    return RulesError(
        _("{name} does not know the move {move} (known: {known})").format(
            name=name, move=move, known=known
        ),
        "PK-10",
    )


def move_refusal(state: Json, name: str, move: Json) -> RulesError | None:
    """Why `name` cannot use `move` now (condition, Énergie, nobody to target), else None."""
    pokemon = state["pokemon"][name]
    condition = pokemon["condition"]
    if condition == "sleep" and fold_name(move["name"]) not in SNORE_MOVES:
        return _asleep(name)
    if condition == "freeze" and fold_name(move["name"]) not in THAW_MOVES:
        return _frozen(name)
    if "flinch" in pokemon["volatile"] and is_attack(move):
        return RulesError(
            _("{name} flinched: it cannot attack this turn").format(name=name), "PK-17"
        )
    if pokemon["energy"] < move["energy"]:
        return _too_little_energy(name, move, pokemon["energy"])
    if needs_target(move) and not any(
        other != name and standing(state, other) for other in in_order(state)
    ):
        return RulesError(_("there is no Pokémon to target"), "PK-10")
    return None


def usable_moves(state: Json, name: str) -> list[str]:
    """The moves `name` could use now, in its sheet's order."""
    pokemon = state["pokemon"][name]
    return [m["name"] for m in pokemon["moves"] if move_refusal(state, name, m) is None]


def legal_orders(state: Json, name: str) -> list[str]:
    """The orders `name` may give now: none unless it is to play."""
    if not state or state["over"] or name not in state["to_play"]:
        return []
    orders = ["move"] if usable_moves(state, name) else []
    if state["pokemon"][name]["condition"] not in ("sleep", "freeze"):
        orders += ["wait", "free"]
    return [*orders, "pass"]


def check_actor(state: Json, command: Json) -> str:
    """The Pokémon giving the order (named as people type it, `jdr.names`): known, standing
    and to play (PK-5, PK-6)."""
    given = command.get("actor")
    name = find_pokemon(state, given)
    if name is None:
        known = ", ".join(state["pokemon"]) or "-"
        raise RulesError(
            _("unknown Pokémon {name} (in the fight: {known})").format(name=given, known=known)
            + hint(given, list(state["pokemon"])),
            "PK-7",
        )
    pokemon = state["pokemon"][name]
    if pokemon["ko"] or not pokemon["in_fight"]:
        raise RulesError(_("{name} is KO and cannot act").format(name=name), "PK-6")
    if name not in state["to_play"]:
        raise RulesError(
            _("it is not {name}'s turn: {to_play} to play").format(
                name=name, to_play=", ".join(state["to_play"])
            ),
            "PK-5",
        )
    return str(name)


def check_order(state: Json, command: Json) -> Json:
    """A legal order, resolved: `{"action", "actor", "text"?, "move"?, "target"?, "response"?,
    "counter_move"?, "range_penalty"?}` with moves as dicts; else `RulesError`."""
    action = command.get("action")
    if action not in ORDERS:
        raise RulesError(
            _("unknown order {action} (allowed: {allowed})").format(
                action=action, allowed=", ".join((*ORDERS, "join"))
            ),
            "PK-7",
        )
    actor = check_actor(state, command)
    condition = state["pokemon"][actor]["condition"]
    if action in ("wait", "free") and condition in ("sleep", "freeze"):
        raise _asleep(actor) if condition == "sleep" else _frozen(actor)
    if action == "free":
        text = command.get("text")
        if not isinstance(text, str) or not text.strip():
            raise RulesError(_("a free order needs a text"), "PK-7")
        return {"action": action, "actor": actor, "text": text.strip()}
    if action != "move":
        return {"action": action, "actor": actor}
    return _check_move(state, actor, command)


def _check_move(state: Json, actor: str, command: Json) -> Json:
    pokemon = state["pokemon"][actor]
    name = command.get("move")
    move = find_move(pokemon, name) if isinstance(name, str) else None
    if move is None:
        raise _unknown_move(actor, name, pokemon)
    refusal = move_refusal(state, actor, move)
    if refusal is not None:
        raise refusal
    target = _check_target(state, actor, move, command.get("target"))
    response = command.get("response")
    if response is not None:
        _known_response(response)
    penalty = command.get("range_penalty", False)
    if not isinstance(penalty, bool):
        raise RulesError(_("the range penalty is yes or no"), "PK-10")
    counter = None
    if response not in (None, "none"):
        counter = _check_response(state, move, target, response, command.get("counter_move"))
    return {
        "action": "move",
        "actor": actor,
        "move": move,
        "target": target,
        "response": response,
        "counter_move": counter,
        "range_penalty": penalty,
    }


def _known_response(response: Any) -> None:
    if response not in RESPONSES:
        raise RulesError(
            _("unknown response {response} (allowed: {allowed})").format(
                response=response, allowed=", ".join(RESPONSES)
            ),
            "PK-7",
        )


def check_respond(state: Json, command: Json) -> Json:
    """The defender's answer to the attack the fight waits for (PK-12 … PK-14): `{"actor",
    "response", "counter_move"?}` from the defender itself (or a GM answering for it); the
    resolved order `{"action": "respond", "actor", "attacker", "move", "target", "response",
    "counter_move", "range_penalty"}`, else `RulesError`."""
    waiting = state["reaction"]
    defender = waiting["pokemon"]
    given = command.get("actor")
    name = find_pokemon(state, given)
    if name != defender:
        raise RulesError(
            _("the fight waits for {name}'s answer to {move}, not {other}'s").format(
                name=defender, move=waiting["move"], other=given
            ),
            "PK-12",
        )
    response = command.get("response")
    if response is None:
        raise RulesError(
            _("{name} answers: one of {allowed}").format(
                name=defender, allowed=", ".join(_answers(waiting["responses"]))
            ),
            "PK-12",
        )
    _known_response(response)
    attacker = waiting["attacker"]
    move = find_move(state["pokemon"][attacker], waiting["move"])
    assert move is not None  # the attacker's own move, named as its sheet spells it
    counter = None
    if response != "none":
        counter = _check_response(state, move, defender, response, command.get("counter_move"))
    return {
        "action": "respond",
        "actor": defender,
        "attacker": attacker,
        "move": move,
        "target": defender,
        "response": response,
        "counter_move": counter,
        "range_penalty": bool(waiting["range_penalty"]),
    }


def possible_responses(state: Json, move: Json, target: str) -> list[str]:
    """The answers `target` may give to `move` now (PK-12 … PK-14): `none` and `endure` always,
    `dodge` unless asleep or frozen, `counter` with a move of the same category it can use."""
    found = ["none", "endure"]
    if may_dodge(state, move, target):
        found.append("dodge")
    if next(_counters(state, move, target), None) is not None:
        found.append("counter")
    return found


def may_dodge(state: Json, move: Json, target: str | None) -> bool:
    """Whether `target` may dodge `move` now (PK-13: an attack, the defender neither asleep nor
    frozen)."""
    return _answer_refusal(state, move, target, "dodge") is None


def counter_moves(state: Json, move: Json, target: str) -> list[Json]:
    """The moves `target` may counter `move` with now (PK-14: the same category, one it can use
    and pay for, its action not spent this round), in its sheet's order."""
    return list(_counters(state, move, target))


def _counters(state: Json, move: Json, target: str) -> Iterator[Json]:
    for each in state["pokemon"][target]["moves"]:
        try:
            _check_response(state, move, target, "counter", each["name"])
        except RulesError:
            continue
        yield each


def _check_target(state: Json, actor: str, move: Json, given: Any) -> str | None:
    if not needs_target(move):
        return None
    if given is None:
        choices = opponents(state, actor)
        if len(choices) == 1:
            return choices[0]
        raise RulesError(
            _("{move} needs a target: one of {names}").format(
                move=move["name"], names=", ".join(choices) or "-"
            ),
            "PK-10",
        )
    target = find_pokemon(state, given)
    if target == actor:
        raise RulesError(_("a Pokémon cannot target itself"), "PK-10")
    if target is None:
        names = [o for o in in_order(state) if o != actor and standing(state, o)]
        raise RulesError(
            _("unknown target {target} (standing: {names})").format(
                target=given, names=", ".join(names) or "-"
            )
            + hint(given, names),
            "PK-10",
        )
    if not standing(state, target):
        raise RulesError(_("{target} is KO and cannot be targeted").format(target=target), "PK-6")
    return target


def _answer_refusal(
    state: Json, move: Json, target: str | None, response: str
) -> RulesError | None:
    """Why `target` cannot answer `move` with `response` now, its counter move aside (PK-12,
    PK-13, PK-16), else None."""
    if not is_attack(move) or target is None:
        return RulesError(
            _("only a physical or special move can be endured, dodged or countered"), "PK-12"
        )
    if response == "endure":
        return None
    condition = state["pokemon"][target]["condition"]
    if condition == "sleep":
        return RulesError(_("{name} is asleep: it can only endure").format(name=target), "PK-16")
    if condition == "freeze":
        return RulesError(_("{name} is frozen: it can only endure").format(name=target), "PK-16")
    return None


def _check_response(
    state: Json, move: Json, target: str | None, response: str, counter_name: Any
) -> Json | None:
    """PK-12 … PK-14: the defender's reaction is possible; returns the counter move, if any."""
    refusal = _answer_refusal(state, move, target, response)
    if refusal is not None:
        raise refusal
    if response in ("endure", "dodge"):
        return None
    assert target is not None  # an answer to no target is refused above
    defender = state["pokemon"][target]
    counter = find_move(defender, counter_name) if isinstance(counter_name, str) else None
    if counter is None:
        raise _unknown_move(target, counter_name, defender)
    if counter["category"] != move["category"]:
        raise RulesError(
            _("a counter needs a move of the same category as {move} ({category})").format(
                move=move["name"], category=move["category"]
            ),
            "PK-14",
        )
    if target in state["acted"]:
        raise RulesError(
            _("{name} has already acted this round and cannot counter").format(name=target),
            "PK-14",
        )
    if "flinch" in defender["volatile"]:
        raise RulesError(
            _("{name} flinched: it cannot attack this turn").format(name=target), "PK-17"
        )
    if defender["energy"] < counter["energy"]:
        raise _too_little_energy(target, counter, defender["energy"])
    return counter


def _answers(responses: list[str]) -> list[str]:
    """The answers by their display names in the reader's language (`fight_models`)."""
    info = Respond.model_fields["response"]
    return [choice_label(info, response) for response in responses]
