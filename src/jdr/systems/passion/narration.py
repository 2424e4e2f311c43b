"""How each event of a Passion fight reads (PS-5 … PS-18), in French and English.

One `Line` per event type of `jdr.systems.passion.fight`; Passion, Énergie, Violence and
Robustesse keep their names. A sealed marker reads as chosen, never as its value.

>>> from jdr.fights.narration import Words
>>> NARRATION.sentence({"type": "marker_chosen", "name": "Romuald", "round": 1,
...                     "sealed": "ed8a5dd3a7533702d0f8"}, Words())
'Romuald has chosen a marker (sealed: ed8a5dd3a7).'
"""

from __future__ import annotations

from typing import Any

from jdr.fights.narration import Line, Narration, Words, over, says
from jdr.fights.odds import Chance
from jdr.i18n import N_, ngettext
from jdr.systems.passion.damage import kind_words, type_word
from jdr.systems.passion.fight_odds import damage_terms, roll_chance
from jdr.systems.passion.fight_view import winners
from jdr.systems.protocol import Json

USES = {
    "roll": N_("on the roll"),
    "die": N_("for a die"),
    "score": N_("for +1 to the score"),
    "dodge": N_("for +1 to the dodge"),
    "damage": N_("for +1 damage"),
    "soak": N_("to soak"),
    "deus_ex_machina": N_("for a deus ex machina"),
}
POOLS = {"passion": N_("Passion"), "energy": N_("Énergie")}
KINDS = {
    "attack": N_("attack roll"),
    "blast": N_("blast roll"),
    "combined": N_("combined attack roll"),
    "action": N_("action roll"),
    "dodge": N_("dodge roll"),
    "violence": N_("Violence roll"),
    "robustness": N_("Robustesse roll"),
}
REASONS = {"failure": N_("a failed action"), "mobility": N_("at or above its mobility")}


def _started(event: Json, words: Words) -> str:
    members: dict[str, list[str]] = {}
    for fighter in event["fighters"]:
        members.setdefault(fighter["side"], []).append(fighter["name"])
    return words.say(N_("Passion fight: {sides}."), sides=words.sides(members))


def _round(event: Json, words: Words) -> str:
    return words.say(
        N_("Round {round}: each fighter chooses an initiative marker in secret."),
        round=event["round"],
    )


def _chosen(event: Json, words: Words) -> str:
    return words.sealed(
        event,
        N_("{name} has chosen a marker (sealed: {sealed})."),
        N_("{name} chooses marker {marker}."),  # a fight from before markers were sealed
        name=words.name(event["name"]),
        marker=event.get("marker"),
    )


def _revealed(event: Json, words: Words) -> str:
    shown = [
        words.say(
            N_("{name} {marker} + {potential} {mobility} = {initiative}"),
            name=words.name(name),
            marker=data["marker"],
            potential=words.name(data["potential"]),
            mobility=data["mobility"],
            initiative=data["initiative"],
        )
        for name, data in event["fighters"].items()
    ]
    said = words.say(
        N_("Markers revealed: {shown}; order: {order}."),
        shown=words.series(shown),
        order=words.names(event["order"]),
    )
    for name, faces in event["roll_offs"].items():
        said += " " + words.say(
            N_("{name} rolls off: d6 {faces}."), name=words.name(name), faces=words.faces(faces)
        )
    return said


def _turn(event: Json, words: Words) -> str:
    part = event["slot"]["part"]
    if part is not None:
        return words.say(
            N_("{name}'s turn: its split attack on {target}."),
            name=words.name(event["name"]),
            target=words.name(part["target"]),
        )
    return words.say(
        N_("{name}'s turn (initiative {initiative})."),
        name=words.name(event["name"]),
        initiative=event["slot"]["initiative"],
    )


def _split(event: Json, words: Words) -> str:
    parts = [
        words.say(
            N_("{target} (talent {talent}, marker {marker}, initiative {initiative})"),
            target=words.name(part["target"]),
            talent=part["talent"],
            marker=part["marker"],
            initiative=initiative,
        )
        for part, initiative in zip(event["parts"], event["initiatives"], strict=True)
    ]
    return words.say(
        N_("{actor} splits its {talent} between {parts}."),
        actor=words.name(event["actor"]),
        talent=words.name(event["talent"]),
        parts=words.series(parts),
    )


def _started_action(event: Json, words: Words) -> str:
    fields: dict[str, Any] = {
        "actor": words.name(event["actor"]),
        "participants": words.names(event["participants"]),
        "targets": words.names(event["targets"]),
        "talent": words.name(event["talent"]) if event["talent"] else words.say(N_("talents")),
        "score": event["score"],
        "dice": event["min_dice"],
    }
    kind = event["kind"]
    if kind == "action":
        return words.say(N_("{actor} acts: {talent} {score}, at least {dice} dice."), **fields)
    weapon = words.name(event["weapon"]) if event.get("weapon") else words.say(N_("bare hands"))
    fields |= {
        "weapon": weapon,
        "damage": _damage(event, words),
        "type": type_word(event["damage_type"]),
        "kind": kind_words(event["damage_type"]),
    }
    messages = {
        "attack": N_(
            "{actor} attacks {targets} with {weapon}: {talent} {score}, damage {damage}"
            " {type}, at least {dice} dice."
        ),
        "blast": N_(
            "{actor} blasts {targets} with {weapon}: {talent} {score}, damage {damage}"
            " {type}, at least {dice} dice."
        ),
        "combined": N_(
            "{participants} attack {targets} together: talents {score}, damage"
            " {damage} {type}, at least {dice} dice."
        ),
    }
    said = words.say(messages[kind], **fields)
    if event["roller"] == "defenders":
        said = words.say(
            N_("{actor} attacks {targets} with {weapon}: damage {damage} {type}."), **fields
        )
        said += " " + words.say(N_("The GM never rolls: the targets dodge."))
    if event.get("npc_bonus"):
        said += " " + words.say(N_("+{n} to its score from its Énergie."), n=event["npc_bonus"])
    return said


def _damage(event: Json, words: Words) -> str:
    """PS-14: the damage, with its sum when a melee weapon adds its potential: `5 (Épée 2 +
    Corps 3)`."""
    fighters = words.state.get("fighters") or {}
    fighter = fighters.get(event["actor"])
    if event["kind"] == "combined" or fighter is None or not event.get("weapon"):
        return str(event["damage"])
    weapon = next((w for w in fighter["weapons"] if w["name"] == event["weapon"]), None)
    if weapon is None or weapon["potential"] is None:
        return str(event["damage"])
    return f"{event['damage']} ({words.name(damage_terms(fighter, event['weapon']))})"


def _spent(event: Json, words: Words) -> str:
    fields = {
        "name": words.name(event["name"]),
        "amount": event["amount"],
        "pool": words.word(POOLS[event["pool"]]),
        "use": words.word(USES.get(event["use"], event["use"])),
    }
    if event["item"] is not None:
        return words.say(
            N_("{name} spends {amount} Énergie of {item} {use}."),
            item=words.name(event["item"]),
            **fields,
        )
    return words.say(N_("{name} spends {amount} {pool} {use}."), **fields)


def _rolled(event: Json, words: Words) -> str:
    said = words.say(
        N_("{roller}'s {kind}: {dice} ({marks}) → {positives} +, {negatives} −."),
        roller=words.name(event["roller"]),
        dice=event["dice"],
        kind=words.word(KINDS[event["kind"]]),
        marks=event["marks"],
        positives=event["dice_positives"],
        negatives=event["dice_negatives"],
    )
    if event["kind"] not in ("violence", "robustness"):
        said += " " + words.say(
            N_("Difficulty {difficulty}, talent {talent}."),
            difficulty=event["difficulty"] + event["npc_energy"],
            talent=event["talent"],
        )
    return said


def _odds(event: Json, _state: object) -> Chance | None:
    """The roller's chance of success with these dice, before any pool (PS-2 … PS-7), named
    (`chance to hit`, `chance to dodge`): the command's odds (`fight_odds`)."""
    if event["kind"] in ("violence", "robustness"):
        return None
    return roll_chance(event)


def _settled(event: Json, words: Words) -> str:
    extras = []
    if event["energy"]:
        extras.append(words.say(N_("+1 Énergie")))
    if event["passion"]:
        extras.append(words.say(N_("{n} Passion"), n=event["passion"]))
    if event["npc_passion"]:
        extras.append(words.say(N_("{n} Passion against"), n=event["npc_passion"]))
    if event["item"]:
        extras.append(words.name(event["item"]))
    pools = f" ({', '.join(extras)})" if extras else ""
    counted = _counts(event, words)
    return words.say(
        N_(
            "{roller}'s {kind}{pools}: {positives} +, {negatives} −{counted} → margin {margin}:"
            " {outcome}."
        ),
        roller=words.name(event["roller"]),
        kind=words.word(KINDS[event["kind"]]),
        pools=pools,
        positives=event["positives"],
        negatives=event["negatives"],
        counted=f" ({words.series(counted)})" if counted else "",
        margin=words.signed(event["margin"]),
        outcome=words.word(event["outcome"]),
    )


def _counts(event: Json, words: Words) -> list[str]:
    """How the positives and the negatives add up, each when more than the dice count them
    (PS-3 … PS-7): `negatives 0 on the dice + difficulty 6 − talent 4`."""
    steps = event.get("steps")
    if not steps:  # an event without its steps: the totals alone
        return []
    plus = [(+1, int(steps["energy"]), N_("Énergie {n}"))]
    plus += [(-1, steps["cancelled_positives"], N_("NPC Passion {n}"))]
    plus += [(+1, 1 if event.get("item") else 0, N_("item {n}"))]
    minus = [(+1, steps["difficulty"], N_("difficulty {n}"))]
    minus += [(+1, steps["npc_energy"], N_("NPC Énergie {n}"))]
    minus += [(-1, steps["cancelled_by_talent"], N_("talent {n}"))]
    minus += [(-1, steps["cancelled_by_passion"], N_("Passion {n}"))]
    shown = []
    for kind, dice, terms in (
        (N_("positives {sum}"), steps["dice_positives"], plus),
        (N_("negatives {sum}"), steps["dice_negatives"], minus),
    ):
        added = [
            f"{'+' if sign > 0 else '−'} " + words.say(message, n=int(amount))
            for sign, amount, message in terms
            if amount
        ]
        if added:
            dice_said = words.say(N_("{n} on the dice"), n=dice)
            shown.append(words.say(kind, sum=" ".join([dice_said, *added])))
    return shown


def _changed(gains: str, loses: str, value: str) -> Any:
    """PS-17, PS-18: a talent's XP or level moving up or down (`delta`)."""

    def say(event: Json, words: Words) -> str:
        return words.say(
            gains if event["delta"] > 0 else loses,
            fighter=words.name(event["fighter"]),
            name=words.name(event["name"]),
            **{value: event[value]},
        )

    return say


def _waiting(event: Json, words: Words) -> str:
    fields = {"actor": words.name(event["actor"]), "target": words.name(event["target"])}
    count = int(event.get("max_dice") or 0)
    if event["for"] == "dodge":
        return words.say(
            N_("{actor} may dodge {attacker}'s attack: difficulty {difficulty}, any dice."),
            attacker=words.name(event["attacker"]),
            difficulty=event["difficulty"] + event["npc_energy"],
            **fields,
        )
    if event["for"] == "violence":
        return ngettext(
            "{actor} may roll up to {n} Violence die against {target}.",
            "{actor} may roll up to {n} Violence dice against {target}.",
            count,
        ).format(n=count, **fields)
    return ngettext(
        "{actor} may roll up to {n} Robustesse die to soak.",
        "{actor} may roll up to {n} Robustesse dice to soak.",
        count,
    ).format(n=count, **fields)


def _hit(event: Json, words: Words) -> str:
    """The damage and the resistance with their sums (PS-14, PS-16): `damage 4 (Pied 1 +
    Corps 3) + 1 (weapon) physical against resistance 3 (potential 2 + protections 1)`."""
    action = words.state.get("action") or {}
    damage = str(event["damage"])
    if action.get("actor") is not None:
        damage = _damage({**action, "damage": event["damage"]}, words)
    resistance = str(event["resistance"])
    terms = event.get("resistance_terms")
    if terms and terms.get("protections"):
        resistance = words.say(
            N_("{resistance} (potential {potential} + protections {protections})"),
            resistance=resistance,
            **terms,
        )
    return words.say(
        N_("{target} is hit: damage {damage} + 1 (weapon) {type} against resistance {resistance}.")
        if event.get("weapon_energy")
        else N_("{target} is hit: damage {damage} {type} against resistance {resistance}."),
        target=words.name(event["target"]),
        damage=damage,
        type=type_word(event["damage_type"]),
        kind=kind_words(event["damage_type"]),
        resistance=resistance,
    )


def _dice_chosen(event: Json, words: Words) -> str:
    fields = {"actor": words.name(event["actor"]), "dice": event["dice"]}
    if event["step"] == "violence":
        said = (
            words.say(N_("{actor} rolls {dice} for Violence."), **fields)
            if event["dice"]
            else words.say(N_("{actor} rolls no Violence dice."), **fields)
        )
        if event["item_energy"]:
            said += " " + words.say(N_("Its weapon's Énergie: +1 damage."))
        return said
    said = (
        words.say(N_("{actor} rolls {dice} for Robustesse."), **fields)
        if event["dice"]
        else words.say(N_("{actor} rolls no Robustesse dice."), **fields)
    )
    if event.get("protection"):
        said += " " + words.say(
            N_("{protection}'s Énergie: +1 to soak."), protection=words.name(event["protection"])
        )
    return said


def _wounded(event: Json, words: Words) -> str:
    damage, resistance = str(event["damage"]), str(event["resistance"])
    if event.get("weapon_energy"):  # PS-14: 1 Énergie of the weapon, +1 damage
        damage = words.say(N_("{damage} + 1 (weapon)"), damage=damage)
    if event.get("protection_energy"):  # PS-15: 1 Énergie of a protection, +1 to soak
        resistance = words.say(N_("{resistance} − 1 (protection)"), resistance=resistance)
    base = int(event.get("base", event["damage"] - event["resistance"]))
    steps = [
        words.say(
            N_("damage {damage} − resistance {resistance} = {base}"),
            damage=damage,
            resistance=resistance,
            base=words.signed(base) if base < 0 else base,
        )
    ]
    if event.get("violence_margin") is not None:
        steps.append(
            words.say(N_("Violence {margin}"), margin=words.signed(event["violence_margin"]))
        )
    if event.get("robustness_margin") is not None:
        steps.append(
            words.say(N_("Robustesse {margin}"), margin=words.signed(event["robustness_margin"]))
        )
    return ngettext(
        "{name} takes {n} wound ({steps}); {total} in all.",
        "{name} takes {n} wounds ({steps}); {total} in all.",
        event["wounds"],
    ).format(
        n=event["wounds"],
        name=words.name(event["name"]),
        steps=", ".join(steps),
        total=event["total"],
    )


def _ended(event: Json, words: Words) -> str:
    message = N_("{actor}'s action fails.") if event["failed"] else N_("{actor}'s action is done.")
    return words.say(message, actor=words.name(event["actor"]))


def _passed(event: Json, words: Words) -> str:
    if event.get("text"):
        return words.say(
            N_("{actor} passes: {text}"),
            actor=words.name(event["actor"]),
            text=words.name(event["text"]),
        )
    return words.say(N_("{actor} passes."), actor=words.name(event["actor"]))


def _ticked(event: Json, words: Words) -> str:
    return words.say(
        N_("{name}'s marker {marker} is ticked off ({reasons})."),
        name=words.name(event["name"]),
        marker=event["marker"],
        reasons=", ".join(words.word(REASONS[r]) for r in event["reasons"]),
    )


def _kept(event: Json, words: Words) -> str:
    return words.say(
        N_("{name} keeps marker {marker}: the last one is never ticked off."),
        name=words.name(event["name"]),
        marker=event["marker"],
    )


def _deus(event: Json, words: Words) -> str:
    if event.get("text"):
        return words.say(
            N_("{name} spends 4 Passion on a deus ex machina: {text}"),
            name=words.name(event["name"]),
            text=words.name(event["text"]),
        )
    return words.say(
        N_("{name} spends 4 Passion on a deus ex machina."), name=words.name(event["name"])
    )


def _down(event: Json, words: Words) -> str:
    wounds = int(event["wounds"])
    return ngettext("{name} is down ({n} wound).", "{name} is down ({n} wounds).", wounds).format(
        name=words.name(event["name"]), n=wounds
    )


NARRATION = Narration(
    {
        "fight_started": Line(_started),
        "round_started": Line(_round),
        "marker_chosen": Line(_chosen),
        "markers_revealed": Line(_revealed),
        "turn_started": Line(_turn, quiet=True),
        "attack_split": Line(_split),
        "action_started": Line(_started_action),
        "pool_spent": Line(_spent),
        "roll_made": Line(_rolled, odds=_odds),
        "npc_passion_spent": Line(says(N_("{name} spends {amount} Passion: positives cancelled."))),
        "roll_settled": Line(_settled),
        "xp_changed": Line(
            _changed(
                N_("{fighter} gains 1 XP in {name} ({xp} now)."),
                N_("{fighter} loses 1 XP in {name} ({xp} now)."),
                "xp",
            )
        ),
        "level_changed": Line(
            _changed(
                N_("{fighter}'s {name} rises to {level}."),
                N_("{fighter}'s {name} falls to {level}."),
                "level",
            )
        ),
        "waiting": Line(_waiting, quiet=True),
        "dodge_declined": Line(says(N_("{actor} does not dodge."))),
        "target_hit": Line(_hit),
        "target_missed": Line(says(N_("{target} is not hit."))),
        "damage_dice_chosen": Line(_dice_chosen),
        "wounded": Line(_wounded),
        "fighter_down": Line(_down),
        "action_ended": Line(_ended, quiet=True),
        "passed": Line(_passed),
        "marker_ticked": Line(_ticked),
        "marker_kept": Line(_kept),
        "deus_ex_machina": Line(_deus),
        "fight_over": Line(over(winners)),
    }
)
"""The sentences of a Passion fight's events (`System(narration=…)`)."""
