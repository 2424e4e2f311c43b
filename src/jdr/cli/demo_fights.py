"""`jdr demo`, second half: a short fight in each system, played in a throw-away database and told
in sentences, with a recap ready to post for two of them.

Each fight is a script like those of `tests/test_cli_fight.py`: the example sheets, the setup,
then legal commands with given faces or a fixed seed, so the output is the same on every run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console

from jdr.cli.render import command_line
from jdr.systems.protocol import Json, RuleSystem

SEED = "1"
"""The seed of every command that gives no faces: the demo never asks the system's randomness."""


@dataclass(frozen=True)
class Command:
    """`jdr fight act 1 ACTOR ACTION PAIRS… --faces F` (or `--seed N`)."""

    actor: str
    action: str
    pairs: tuple[str, ...] = ()
    faces: str | None = None
    seed: str | None = None


@dataclass(frozen=True)
class Script:
    """A short fight: the sheets (file, stored name), who fights on which side, the commands."""

    system: str
    sheets: tuple[tuple[str, str], ...]
    sides: dict[str, str] = field(default_factory=dict)
    faces: str | None = None
    commands: tuple[Command, ...] = ()
    recap: str | None = None
    """A format to show the whole fight's recap in (bbcode, markdown, text), or none."""


SCRIPTS = (
    Script(
        "plus-ultra",
        (("hero.toml", "Kaito"), ("villain.toml", "Corbeau")),
        commands=(
            Command("Kaito", "attack", ("target=Corbeau",), faces="15"),
            Command("Corbeau", "defend"),
        ),
        recap="bbcode",
    ),
    Script(
        "pokemon",
        (("pokemon.toml", "Pika"), ("pokemon.toml", "Chu")),
        faces="9,2",
        commands=(
            Command("Pika", "move", ("move=Éclair", "target=Chu")),
            Command("Chu", "respond", ("response=dodge",), seed="3"),
            Command("Chu", "wait"),
        ),
        recap="markdown",
    ),
    Script(
        "passion",
        (("romuald.toml", "Romuald"), ("cyber-ninja.toml", "Cyber-ninja")),
        sides={"Romuald": "heroes", "Cyber-ninja": "ninjas"},
        commands=(
            Command("Romuald", "choose_marker", ("marker=2",)),
            Command("Cyber-ninja", "choose_marker", ("marker=0",)),
            Command(
                "Romuald", "attack", ("target=Cyber-ninja", "dice=2d6", "weapon=Pied"), faces="4,6"
            ),
            Command("Romuald", "settle"),
        ),
    ),
    Script(
        "ilvermorny",
        (("wizard.toml", "Ann"), ("wizard.toml", "Bob")),
        commands=(
            Command("Ann", "cast", ("spell=Lumos",)),
            Command("Bob", "cast", ("spell=Expelliarmus",), faces="2,3,6,5"),
        ),
    ),
    Script(
        "poledemos",
        (("warband.toml", "Alice"), ("warband.toml", "Bob")),
        faces="6,1",
        commands=(
            Command("Alice", "activate", ("figure=Sergent Perry", "dice=2"), faces="5,6"),
            Command("Alice", "action", ("kind=move",)),
        ),
    ),
)

ODDS: dict[str, tuple[str, str, Json]] = {
    "plus-ultra": ("attack", "odds", {"willpower": 5, "target_energy": 6, "rank": "C"}),
    "passion": ("action", "advise", {"talent": 4, "difficulty": 3, "max_dice": 6, "top": 3}),
    "poledemos": ("hand", "odds", {"figures": "3+,4+,5+,5+", "dice": "best"}),
}
"""One decision per system that has one to show: (action, roll mode, parameters)."""


def _source_words(faces: str | None, seed: str | None) -> list[str]:
    if faces is not None:
        return ["--faces", faces]
    return ["--seed", seed or SEED]


def play_fights(out: Console, lang: str) -> None:
    """Each system's fight in a throw-away database (in memory), gone when the demo ends."""
    from jdr.store import open_store

    store = open_store("sqlite://")  # in memory: nothing to write to disk, gone at the end
    try:
        for script in SCRIPTS:
            _play(out, store, script, lang)
    finally:
        store.close()


def _play(out: Console, store: object, script: Script, lang: str) -> None:
    from jdr.cli.store_commands import validate_file
    from jdr.dice import make_source
    from jdr.fights import service
    from jdr.fights.setup import build_setup, participants
    from jdr.fights.story import chapters
    from jdr.store import Store
    from jdr.systems import default_registry
    from jdr.systems.protocol import display_name

    assert isinstance(store, Store)
    system = default_registry().get(script.system)
    rules = system.fight
    assert rules is not None
    out.print()
    out.rule(display_name(system, lang))
    campaign = f"demo-{system.id}"
    campaign_id = store.create_campaign(system.id, campaign)
    folder = Path(__file__).parent.parent / "systems" / system.id.replace("-", "_") / "examples"
    for file, name in script.sheets:
        sheet = validate_file(system, folder / file)
        store.add_character(campaign_id, name, sheet.model_dump(mode="json"))
    names = list(dict.fromkeys(name for _file, name in script.sheets))
    fighters = [
        {"name": name, "sheet": store.character_named(campaign_id, name).sheet, "side": side}
        for name, side in participants(names, script.sides)
    ]
    words = ["jdr", "fight", "new", "--campaign", campaign, "--with", ",".join(names)]
    if script.sides:
        words += ["--side", ",".join(f"{k}={v}" for k, v in script.sides.items())]
    words += _source_words(script.faces, None)
    out.print("$ " + command_line(*words), markup=False)
    rng = make_source(faces=script.faces, seed=None if script.faces else SEED)
    opened = service.open_fight(
        store, campaign_id, rules, build_setup(system, fighters, {}), names, rng
    )
    fight_id = opened.fight_id
    _events(out, chapters(system, store.events(fight_id))[-1].lines())
    for command in script.commands:
        words = ["jdr", "fight", "act", str(fight_id), command.actor, command.action]
        words += list(command.pairs)
        words += _source_words(command.faces, command.seed)
        out.print("$ " + command_line(*words), markup=False)
        rng = make_source(faces=command.faces, seed=None if command.faces else command.seed or SEED)
        salt = partial(str, f"demo-{fight_id}-{command.actor}")  # a real fight's is random
        service.play(
            store,
            fight_id,
            system,
            command.actor,
            command.action,
            command.pairs,
            rng,
            salt=salt,
        )
        _events(out, chapters(system, store.events(fight_id))[-1].lines())
    _decision(out, system)
    if script.recap is not None:
        _recap(out, system, store.events(fight_id), fight_id, script.recap)


def _recap(out: Console, system: RuleSystem, stored: list[Any], fight: int, fmt: str) -> None:
    from jdr.fights.recap import recap

    made = recap(system, stored, fmt, fight, whole=True)
    out.print("$ " + command_line("jdr", "fight", "recap", fight, "--all", "--format", fmt),
              markup=False)  # fmt: skip
    out.print(made.text, markup=False, highlight=False)


def _events(out: Console, lines: list[str]) -> None:
    for line in lines:
        out.print("  " + line, markup=False, highlight=False)


def _decision(out: Console, system: RuleSystem) -> None:
    from jdr.cli.render import choices_table, outcomes_table
    from jdr.params import validate_params

    if system.id not in ODDS:
        return
    name, mode, values = ODDS[system.id]
    action = system.actions[name]
    options = [word for k, v in values.items() for word in (f"--{k.replace('_', '-')}", v)]
    out.print("$ " + command_line("jdr", mode, system.id, name, *options, "--exact"), markup=False)
    if mode == "advise":
        assert action.advise is not None
        advice = action.advise.advise(validate_params(action.advise.params, values), True)
        out.print(choices_table(advice.choices))
        return
    assert action.odds is not None
    odds = action.odds(validate_params(action.params, values), True)
    out.print(outcomes_table(odds.outcomes, exact=True))
