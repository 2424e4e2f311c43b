"""A tiny rule system that exercises the plug-in path the way a table's homebrew package would.

d6 pool: each die ≥ target is a success, each 1 a failure; score = successes − failures. A fight is
two fighters taking turns to attack; a successful check removes its score from the other's Vitalité.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from jdr.dice import Pool, RandomSource, ScoredDie, roll_pool
from jdr.errors import RulesError
from jdr.fights.commands import Command, Commands, key
from jdr.fights.narration import Line, Narration, Words, says
from jdr.i18n import Messages, _, ngettext
from jdr.numbers import percent
from jdr.prob import pool_distribution
from jdr.systems import Action, Advice, Advisor, Json, Odds, Record, System
from jdr.vocabulary import failures_text, successes_text


class CheckParams(BaseModel):
    dice: int = Field(ge=1, le=20, description="number of d6")
    target: int = Field(default=5, ge=2, le=6, description="face a die needs to succeed")


class AdviseParams(BaseModel):
    target: int = Field(default=5, ge=2, le=6, description="face a die needs to succeed")
    max_dice: int = Field(default=6, ge=1, le=20, description="most dice to consider")


def pool(params: CheckParams) -> Pool:
    return Pool.of((ScoredDie.threshold(6, success_at=params.target, failure_at=1), params.dice))


def outcome(total: tuple[int, ...]) -> str:
    score = total[0] - total[1]
    return "success" if score > 0 else "failure" if score == 0 else "critical_failure"


def roll(params: CheckParams, rng: RandomSource) -> Record:
    rolled = roll_pool(pool(params), rng)
    successes, failures = rolled.total
    result = outcome(rolled.total)

    def explain() -> str:
        counts = f"{successes_text(successes)} − {failures_text(failures)}"
        head = f"{params.dice}d6 ≥{params.target} : {rolled.faces_text()}"
        return f"{head} → {counts} = {successes - failures} → {_(result)}"

    return Record(
        outcome=result,
        totals={"successes": successes, "failures": failures, "score": successes - failures},
        faces=rolled.faces,
        explain=explain,
    )


def odds(params: CheckParams, exact: bool) -> Odds:
    dist = pool_distribution(pool(params), exact=exact)
    scores = dist.map(lambda v: v[0] - v[1])
    return Odds(
        outcomes=dist.outcomes(outcome),
        distribution=scores.to_list(),
        mean=scores.mean(),
        label="score",
    )


def advise(params: AdviseParams, exact: bool) -> Advice:
    choices: list[dict[str, Any]] = []
    for dice in range(1, params.max_dice + 1):
        answer = odds(CheckParams(dice=dice, target=params.target), exact)
        choices.append(
            {
                "dice": f"{dice}d6",
                "p_success": answer.outcomes.get("success", 0),
                "sure": answer.outcomes.get("success", 0) == 1,
            }
        )
    choices.sort(key=lambda c: -float(c["p_success"]))
    best = choices[0]
    return Advice(choices, summary=lambda: f"Roll {best['dice']} ({percent(best['p_success'])})")


class Duel:
    """Two fighters, three Vitalité each, alternate attacks: a check's score is the damage."""

    def start(self, setup: Json, rng: RandomSource) -> list[Json]:
        names = list(setup["fighters"])
        if len(names) != 2:
            raise RulesError(_("a duel needs exactly two fighters"))
        return [{"type": "started", "fighters": names, "vitality": setup.get("vitality", 3)}]

    def decide(self, state: Json, command: Json, rng: RandomSource) -> list[Json]:
        if state.get("over"):
            raise RulesError(_("the fight is over"))
        actor = command.get("actor")
        if actor != state["turn"]:
            raise RulesError(_("it is {name}'s turn").format(name=state["turn"]))
        if command.get("action") != "attack":
            raise RulesError(_("unknown command {name}").format(name=command.get("action")))
        params = CheckParams(dice=command.get("dice", 2))
        record = roll(params, rng)
        target = next(name for name in state["order"] if name != actor)
        damage = max(0, int(record.totals["score"]))
        events: list[Json] = [
            {
                "type": "attacked",
                "actor": actor,
                "target": target,
                "faces": list(record.faces),
                "damage": damage,
            }
        ]
        if state["vitality"][target] - damage <= 0:
            events.append({"type": "knocked_out", "name": target, "winner": actor})
        return events

    def evolve(self, state: Json, event: Json) -> Json:
        kind = event["type"]
        if kind == "started":
            names = event["fighters"]
            return {
                "order": names,
                "turn": names[0],
                "vitality": {name: event["vitality"] for name in names},
                "over": False,
            }
        if kind == "attacked":
            vitality = dict(state["vitality"])
            vitality[event["target"]] = max(0, vitality[event["target"]] - event["damage"])
            return {**state, "vitality": vitality, "turn": event["target"]}
        if kind == "knocked_out":
            return {**state, "over": True, "winner": event["winner"]}
        return state

    def legal_commands(self, state: Json) -> list[str]:
        return [] if state.get("over") else ["attack"]


def _attacked(event: Json, words: Words) -> str:
    n = int(event["damage"])
    return ngettext(
        "{actor} hits {target} ({faces}): {n} point.",
        "{actor} hits {target} ({faces}): {n} points.",
        n,
    ).format(
        actor=words.name(event["actor"]),
        target=words.name(event["target"]),
        faces=words.faces(event["faces"]),
        n=n,
    )


NARRATION = Narration(
    {
        "started": Line(says("Duel: {fighters}.")),
        "attacked": Line(_attacked),
        "knocked_out": Line(says("{name} is out: {winner} wins.")),
    }
)
"""How the duel reads, as a plug-in declares it (`docs/plugins.md`)."""


class AttackKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dice: int = key("number of d6", fr="dés", default=2, ge=1, le=20)


COMMANDS = Commands(
    [Command("attack", AttackKeys, "Attack the other fighter.", {"dice": 3}, fr="attaque")],
    legal=lambda state, actor: ["attack"] if actor == state.get("turn") else [],
)


MESSAGES = Messages(
    fr={
        "number of d6": "nombre de d6",
        "face a die needs to succeed": "face qu'un dé doit atteindre pour réussir",
        "most dice to consider": "le plus de dés à envisager",
        "A d6 pool check": "Un test à réserve de d6",
        "How many d6 to roll": "Combien de d6 lancer",
        "a duel needs exactly two fighters": "un duel demande exactement deux combattants",
        "Duel: {fighters}.": "Duel : {fighters}.",
        "{actor} hits {target} ({faces}): {n} point.": [
            "{actor} touche {target} ({faces}) : {n} point.",
            "{actor} touche {target} ({faces}) : {n} points.",
        ],
        "{name} is out: {winner} wins.": "{name} est hors de combat : {winner} l'emporte.",
        "Attack the other fighter.": "Attaquer l'autre combattant.",
    }
)
"""The duel's French, declared in code as a plug-in does (`docs/plugins.md`, §4)."""


SYSTEM = System(
    id="example",
    names={"fr": "Exemple : réserve de d6", "en": "Example: d6 pool"},
    actions={
        "check": Action(
            "check",
            CheckParams,
            roll,
            odds,
            Advisor(AdviseParams, advise, help="How many d6 to roll"),
            help="A d6 pool check",
            example={"dice": 4},
        )
    },
    fight=Duel(),
    narration=NARRATION,
    fight_commands=COMMANDS,
    messages=MESSAGES,
)
