"""The demo's fights: a short fight in each system, scripted like those of
`tests/test_cli_fight.py` (the example sheets, the setup, then legal commands with given faces
or a fixed seed), played in a store so that what they tell is the same on every run. `jdr demo`
prints each step as the command a player would type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from jdr.dice import make_source
from jdr.fights import service
from jdr.fights.setup import build_setup, participants
from jdr.fights.story import chapters
from jdr.sheet_check import sheet_of
from jdr.sheets import read_toml
from jdr.store import Store
from jdr.systems import default_registry
from jdr.systems.protocol import RuleSystem

__all__ = ["SCRIPTS", "SEED", "Command", "Played", "Script", "play_script"]

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


@dataclass(frozen=True)
class Played:
    """A script played: its system, campaign and fight, the fighters' names, and what each step
    told (the opening first, then each command's, in order)."""

    system: RuleSystem
    campaign: str
    fight_id: int
    names: list[str]
    told: list[list[str]]


EXAMPLES = Path(__file__).parent.parent / "systems"
"""Where each system's example sheets are (`<system>/examples`)."""


def play_script(store: Store, script: Script) -> Played:
    """Play `script` in `store`: a campaign `demo-<system>` with the example sheets stored, the
    fight opened and each command played (the system's randomness never asked: given faces or a
    fixed seed, and fixed salts for sealed choices)."""
    system = default_registry().get(script.system)
    rules = system.fight
    assert rules is not None
    campaign = f"demo-{system.id}"
    campaign_id = store.create_campaign(system.id, campaign)
    folder = EXAMPLES / system.id.replace("-", "_") / "examples"
    for file, name in script.sheets:
        sheet = sheet_of(system, *read_toml(folder / file))
        store.add_character(campaign_id, name, sheet.model_dump(mode="json"))
    names = list(dict.fromkeys(name for _file, name in script.sheets))
    fighters = [
        {"name": name, "sheet": store.character_named(campaign_id, name).sheet, "side": side}
        for name, side in participants(names, script.sides)
    ]
    rng = make_source(faces=script.faces, seed=None if script.faces else SEED)
    opened = service.open_fight(
        store, campaign_id, rules, build_setup(system, fighters, {}), names, rng
    )
    fight_id = opened.fight_id
    told = [chapters(system, store.events(fight_id))[-1].lines()]
    for command in script.commands:
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
        told.append(chapters(system, store.events(fight_id))[-1].lines())
    return Played(system, campaign, fight_id, names, told)
