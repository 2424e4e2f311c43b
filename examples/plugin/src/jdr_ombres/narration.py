"""How an Ombres fight reads (narration), is played (command models) and shows (fighters)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jdr.fights.commands import Command, Commands, key
from jdr.fights.narration import Line, Narration, Words, says
from jdr.fights.odds import Chance, CommandOdds
from jdr.i18n import N_, _, ngettext
from jdr.systems import Json
from pydantic import BaseModel, ConfigDict

from jdr_ombres.fight import ATTACK
from jdr_ombres.rolls import Check, odds

OUTCOMES = {
    "critical_success": N_("critical_success"),
    "success": N_("success"),
    "partial_success": N_("partial_success"),
    "failure": N_("failure"),
}
"""The outcomes of a check (OM-2), which every fight command shows."""
CLEAN = ("critical_success", "success")
"""What a fighter wants of a check: a 6 (OM-2)."""


def _started(event: Json, words: Words) -> str:
    sides: dict[str, list[str]] = {}
    for f in event["fighters"]:
        sides.setdefault(f["side"], []).append(f["name"])
    return words.say(N_("Shadows fall: {sides}."), sides=words.sides(sides))


def _stress(stress: Mapping[str, int], words: Words) -> str:
    parts = [
        ngettext("{name} takes {n} stress", "{name} takes {n} stress", n).format(
            name=words.name(name), n=n
        )
        for name, n in stress.items()
    ]
    return words.series(parts) if parts else words.say(N_("no stress"))


def _attacked(event: Json, words: Words) -> str:
    return words.say(
        N_("{actor} attacks {target} ({faces}): {outcome}; {stress}."),
        actor=words.name(event["actor"]),
        target=words.name(event["target"]),
        faces=words.faces(event["faces"]),
        outcome=words.word(event["outcome"]),
        stress=_stress(event["stress"], words),
    )


def _recovered(event: Json, words: Words) -> str:
    return words.say(
        N_("{actor} catches their breath ({faces}): {outcome}, stress {change}."),
        actor=words.name(event["actor"]),
        faces=words.faces(event["faces"]),
        outcome=words.word(event["outcome"]),
        change=words.signed(event["change"]),
    )


def check_odds(rating: str, dice: int, measure: str, exact: bool) -> CommandOdds:
    """A fight command's odds: the check's (OM-1, OM-2), as the roll makes it."""
    how = _("the highest of {n}d6") if dice > 0 else _("the lowest of 2d6 (no rating)")
    formula = _("{rating} {dice}: {how} (OM-1); a 6 is a success (OM-2)").format(
        rating=_(rating), dice=dice, how=how.format(n=dice)
    )
    return CommandOdds(odds(Check(dice=dice), exact).outcomes, CLEAN, measure, OUTCOMES, [formula])


def attack_odds(state: Json, actor: str, keys: Mapping[str, Any], exact: bool) -> CommandOdds:
    """OM-4: `attack` rolls combat; the stress its target takes, by outcome."""
    found = check_odds(
        "combat", state["fighters"][actor]["combat"], N_("chance of a success (6)"), exact
    )
    stress: dict[int, Any] = {}
    for outcome, p in found.outcomes.items():
        dealt = ATTACK.get(outcome, (0, 2))[0]
        stress[dealt] = stress.get(dealt, 0) + p
    return CommandOdds(
        found.outcomes,
        found.wanted,
        found.measure,
        found.names,
        found.formula,
        distribution=dict(sorted(stress.items())),
        label=N_("stress dealt"),
    )


def recover_odds(state: Json, actor: str, keys: Mapping[str, Any], exact: bool) -> CommandOdds:
    """OM-4: `recover` rolls resolve."""
    dice = state["fighters"][actor]["resolve"]
    return check_odds("resolve", dice, N_("chance of a success (6)"), exact)


def rolled(events: Sequence[Json]) -> str | None:
    """The outcome one `attack` or `recover` showed."""
    return next((e["outcome"] for e in events if e["type"] in ("attacked", "recovered")), None)


def _chance(event: Json, state: Mapping[str, Any]) -> Chance | None:
    """The roller's chance of a 6 (named), beside the roll in recaps: the command's odds."""
    rating = "combat" if event["type"] == "attacked" else "resolve"
    dice = state["fighters"][event["actor"]][rating]
    return check_odds(rating, dice, N_("chance of a success (6)"), True).chance()


NARRATION = Narration(
    {
        "fight_started": Line(_started),
        "attacked": Line(_attacked, odds=_chance),
        "recovered": Line(_recovered, odds=_chance),
        "broken": Line(says(N_("{name} breaks and leaves the fight."))),
        "turn_passed": Line(says(N_("{name}'s turn.")), quiet=True),
        # `joined` and `fight_over`: jdr tells them (docs/plugins.md, "Events jdr tells").
    }
)


class AttackKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    target: str = key(N_("the fighter attacked"), fr="cible", fighter=True)


class RecoverKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JoinKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    side: str = key(N_("the side joined"), fr="camp", default="b")


def _foe(state: Json, actor: str | None) -> dict[str, Any]:
    fighters = state["fighters"]
    mine = fighters[actor]["side"] if actor in fighters else None
    return {"target": next(n for n, f in fighters.items() if f["side"] != mine and not f["broken"])}


def _legal(state: Json, actor: str) -> list[str]:
    if state.get("over"):
        return []
    if actor not in state.get("fighters", {}):
        return ["join"]
    return ["attack", "recover"] if actor == state.get("turn") else []


COMMANDS = Commands(
    [
        Command(
            "attack",
            AttackKeys,
            N_("Attack a fighter of another side."),
            _foe,
            "OM-4",
            fr="attaque",
            odds=attack_odds,
            outcome=rolled,
        ),
        Command(
            "recover",
            RecoverKeys,
            N_("Catch your breath: roll resolve."),
            {},
            "OM-4",
            fr="souffle",
            odds=recover_odds,
            outcome=rolled,
        ),
        Command(
            "join",
            JoinKeys,
            N_("A stored character enters the fight."),
            {"side": "b"},
            fr="rejoindre",
        ),
    ],
    legal=_legal,
)


def fighters(state: Json) -> dict[str, Json]:
    """What `jdr fight show` lists on each fighter's line (`System.fight_fighters`)."""
    return {
        name: {
            "side": f["side"],
            "stress": f["stress"],
            "stress_max": f["stress_max"],
            "broken": f["broken"],
        }
        for name, f in state.get("fighters", {}).items()
    }
