"""How each event of a Plus Ultra fight reads (PU-1, PU-4 … PU-10), in French and English.

One `Line` per event type of `jdr.systems.plus_ultra.fight`; Énergie and Volonté keep their
names in both languages.

>>> from jdr.fights.narration import Words
>>> NARRATION.sentence({"type": "attack_rolled", "actor": "Kaito", "target": "Corbeau",
...     "roll": 1, "rolls": 1, "face": 12, "willpower": 5, "bonus": 0, "attack": 17,
...     "defender": "Corbeau", "defense": 20, "defending": False, "fleeing": False,
...     "defense_bonus": 0, "outcome": "miss", "hit": False, "damage": 0}, Words())
'd20 12 + 5 = 17 against 20: miss.'
"""

from __future__ import annotations

from jdr.fights.narration import Line, Narration, Words, over, says
from jdr.i18n import N_, ngettext
from jdr.systems.plus_ultra.fight_odds import command_chance, roll_chance
from jdr.systems.plus_ultra.fight_view import winners
from jdr.systems.plus_ultra.rules import DEFENDING_BONUS, FLEEING_BONUS
from jdr.systems.protocol import Json

OUTCOMES = {
    "hit": N_("hit"),
    "miss": N_("miss"),
    "takes_hit": N_("{defender} takes the hit"),
    "blocks": N_("{defender} blocks"),
}


def _started(event: Json, words: Words) -> str:
    members: dict[str, list[str]] = {}
    for character in event["characters"]:
        members.setdefault(character["side"], []).append(character["name"])
    message = (
        N_("Plus Ultra fight: {sides}; drawn order of play: {order}.")
        if event.get("draws")
        else N_("Plus Ultra fight: {sides}; order of play: {order}.")
    )
    return words.say(message, sides=words.sides(members), order=words.names(event["order"]))


def _attacked(event: Json, words: Words) -> str:
    fields = {"actor": words.name(event["actor"]), "target": words.name(event["target"])}
    if event.get("protector"):
        return words.say(
            N_("{actor} attacks {target}, whom {protector} protects."),
            protector=words.name(event["protector"]),
            **fields,
        )
    return words.say(N_("{actor} attacks {target}."), **fields)


def _technique(event: Json, words: Words) -> str:
    fields = {
        "actor": words.name(event["actor"]),
        "technique": words.name(event["technique"]),
        "target": words.name(event["target"]) if event.get("target") else "",
    }
    if event.get("protector"):
        said = words.say(
            N_("{actor} uses {technique} on {target}, whom {protector} protects."),
            protector=words.name(event["protector"]),
            **fields,
        )
    elif event.get("target"):
        said = words.say(N_("{actor} uses {technique} on {target}."), **fields)
    else:
        said = words.say(N_("{actor} uses {technique}."), **fields)
    if event.get("text"):
        said += " " + words.say(N_("For the GM: {text}"), text=words.name(event["text"]))
    return said


def _protected(event: Json, words: Words) -> str:
    fields = {
        "actor": words.name(event["actor"]),
        "target": words.name(event["target"]),
        "attacker": words.name(event["attacker"]),
    }
    if event["swapped"]:
        return words.say(
            N_("{actor} protects {target} from {attacker}: they swap places in the order."),
            **fields,
        )
    return words.say(N_("{actor} protects {target} from {attacker}."), **fields)


def _rolled(event: Json, words: Words) -> str:
    modifiers = f" + {event['willpower']}"
    if event["bonus"]:
        modifiers += f" + {event['bonus']}"
    bonuses = []
    if event["defending"]:
        bonuses.append(words.say(N_("+{bonus} defending"), bonus=DEFENDING_BONUS))
    if event["fleeing"]:
        bonuses.append(words.say(N_("+{bonus} fleeing"), bonus=FLEEING_BONUS))
    if event["defense_bonus"]:
        bonuses.append(words.say(N_("+{bonus} technique"), bonus=event["defense_bonus"]))
    defense = str(event["defense"])
    if bonuses:
        defense += f" ({', '.join(bonuses)})"
    said = words.say(
        N_("d20 {face}{modifiers} = {attack} against {defense}: {outcome}."),
        face=event["face"],
        modifiers=modifiers,
        attack=event["attack"],
        defense=defense,
        outcome=words.say(OUTCOMES[event["outcome"]], defender=words.name(event["defender"])),
    )
    if event["rolls"] > 1:
        said = words.say(
            N_("Roll {n}/{count}: {said}"), n=event["roll"], count=event["rolls"], said=said
        )
    return said


def _ignored(event: Json, words: Words) -> str:
    return ngettext(
        "{n} roll ignored (d20 {faces}): {name} is at 0 Énergie.",
        "{n} rolls ignored (d20 {faces}): {name} is at 0 Énergie.",
        len(event["faces"]),
    ).format(
        n=len(event["faces"]), faces=words.faces(event["faces"]), name=words.name(event["at_zero"])
    )


def _with_technique(message: str, plain: str) -> Line:
    """A gauge's change, naming the technique behind it when there is one."""

    def say(event: Json, words: Words) -> str:
        fields = {
            "name": words.name(event["name"]),
            "amount": event.get("amount"),
            "bonus": event.get("bonus"),
            "technique": words.name(event.get("technique") or ""),
        }
        return words.say(message if event.get("technique") else plain, **fields)

    return Line(say)


def _not_interrupted(event: Json, words: Words) -> str:
    if event.get("actor") is None:
        return words.say(
            N_("Nobody interrupts {target}'s flight."), target=words.name(event["target"])
        )
    return words.say(
        N_("{actor} lets {target} flee."),
        actor=words.name(event["actor"]),
        target=words.name(event["target"]),
    )


NARRATION = Narration(
    {
        "fight_started": Line(_started),
        "round_started": Line(says(N_("Round {round}.")), quiet=True),
        "turn_started": Line(says(N_("{name}'s turn.")), quiet=True),
        "attacked": Line(_attacked),
        "technique_used": Line(_technique),
        "defended": Line(says(N_("{actor} defends: +5 defense until the start of its next turn."))),
        "fled": Line(says(N_("{actor} flees: +3 defense; an opponent may interrupt it."))),
        "protected": Line(_protected),
        "attack_rolled": Line(_rolled, odds=roll_chance),
        "rolls_ignored": Line(_ignored),
        "energy_lost": _with_technique(
            N_("{name} loses {amount} Énergie ({technique})."), N_("{name} loses {amount} Énergie.")
        ),
        "willpower_lost": _with_technique(
            N_("{name} loses {amount} Volonté ({technique})."), N_("{name} loses {amount} Volonté.")
        ),
        "defense_raised": _with_technique(
            N_("{name} gains +{bonus} defense until its next turn ({technique})."),
            N_("{name} gains +{bonus} defense until its next turn."),
        ),
        "willpower_spent": _with_technique(
            N_("{name} pays {amount} Volonté for {technique}."),
            N_("{name} pays {amount} Volonté."),
        ),
        "knocked_out": Line(says(N_("{name} is KO."))),
        "interrupted": Line(says(N_("{actor} interrupts {target}'s flight."))),
        "not_interrupted": Line(_not_interrupted),
        "flight_failed": Line(says(N_("{name}'s flight fails."))),
        "escaped": Line(says(N_("{name} leaves the fight."))),
        "fight_over": Line(over(winners)),
    },
    command_chance,
)
"""The sentences of a Plus Ultra fight's events (`System(narration=…)`)."""
