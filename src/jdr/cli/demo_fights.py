"""`jdr demo`, second half: a short fight in each system, played in a throw-away database and told
in sentences, with a recap ready to post for two of them.

Each fight is a script of `jdr.fights.demo` (the example sheets, the setup, then legal commands
with given faces or a fixed seed), so the output is the same on every run; this module prints
each step as the command a player would type and what it told.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from jdr.cli.render import command_line
from jdr.fights.demo import SCRIPTS, SEED, Script
from jdr.systems.protocol import Json, RuleSystem

__all__ = ["SCRIPTS", "Script", "play_fights"]

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
    from jdr.fights.demo import play_script
    from jdr.store import Store
    from jdr.systems.protocol import display_name

    assert isinstance(store, Store)
    played = play_script(store, script)
    system, fight_id = played.system, played.fight_id
    out.print()
    out.rule(display_name(system, lang))
    words = ["jdr", "fight", "new", "--campaign", played.campaign, "--with", ",".join(played.names)]
    if script.sides:
        words += ["--side", ",".join(f"{k}={v}" for k, v in script.sides.items())]
    words += _source_words(script.faces, None)
    out.print("$ " + command_line(*words), markup=False)
    _events(out, played.told[0])
    for command, told in zip(script.commands, played.told[1:], strict=True):
        words = ["jdr", "fight", "act", str(fight_id), command.actor, command.action]
        words += list(command.pairs)
        words += _source_words(command.faces, command.seed)
        out.print("$ " + command_line(*words), markup=False)
        _events(out, told)
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
