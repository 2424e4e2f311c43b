"""A played web table for each system, for the web leak test (issue 30.5): a campaign holding
the system's example characters, public rolls, a hidden roll, generic dice, a sheet changed and
one change undone, and a fight with actions played by the system's own tactic."""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jdr.access import Viewer
from jdr.characters import service as sheets
from jdr.dice import notation
from jdr.errors import JdrError
from jdr.journal import service as journal
from jdr.params import validate_params
from jdr.sheet_check import example_text
from jdr.store import Store
from jdr.systems import Registry, default_registry, set_default_registry

Json = dict[str, Any]

PLUGIN = Path(__file__).resolve().parents[1] / "examples" / "plugin" / "src"
SYSTEMS = ("pokemon", "plus-ultra", "poledemos", "ilvermorny", "passion", "ombres")
FIGHT_ACTIONS = 6
RIVAL = "Bis"
"""Each example sheet is added twice (the second named `… Bis`): every system then has two
characters that may fight each other (its examples hold one Pokémon, one warband, one wizard)."""


def with_plugin() -> Registry:
    """Every built-in system and the example plug-in (examples/plugin, `ombres`), made the
    default registry as an installed plug-in would be."""
    if str(PLUGIN) not in sys.path:
        sys.path.append(str(PLUGIN))
    from jdr_ombres import SYSTEM

    built_in = default_registry()
    registry = Registry({**{i: built_in.get(i) for i in built_in.ids()}, SYSTEM.id: SYSTEM})
    set_default_registry(registry)
    return registry


@dataclass
class Played:
    campaign_id: int
    characters: list[int]
    fight: int | None
    hidden_seq: int | None


def play_table(store: Store, system_id: str, name: str) -> Played:
    """The campaign of `system_id`, played as described in the module."""
    system = default_registry().get(system_id)
    campaign_id = store.create_campaign(system_id, name)
    campaign = store.campaign_by_id(campaign_id)
    for kind in getattr(system, "examples", {}) or {}:
        data = tomllib.loads(example_text(system, kind)[1])
        sheets.add(store, campaign, data, actor="MJ")
        sheets.add(store, campaign, data | {"name": f"{data['name']} {RIVAL}"}, actor="MJ")
    names = [c.name for c in store.characters(campaign_id)]
    for action in system.actions.values():
        params = validate_params(action.params, dict(action.example))
        journal.roll(store, campaign, system, action, params, names[0])
    first = next(iter(system.actions.values()))
    hidden = journal.roll(
        store, campaign, system, first, validate_params(first.params, dict(first.example)),
        names[0], hidden=True,
    )  # fmt: skip
    journal.roll_dice(store, campaign, notation.parse("2d6"), journal.Who(names[-1]))
    renamed = sheets.rename(store, campaign, names[-1], f"{names[-1]} Ter", actor="MJ")
    sheets.undo(store, campaign, renamed.character.name if renamed.character else names[-1])
    fight = _fight(store, system, campaign, names)
    return Played(
        campaign_id, [c.id for c in store.characters(campaign_id)], fight, hidden.entry.seq
    )


def _fight(store: Store, system: Any, campaign: Any, names: list[str]) -> int | None:
    from jdr.fights import service as fights
    from jdr.table import start_fight

    if system.fight is None:
        return None
    fight = None
    for name in names:  # the first example that fights, against its copy
        try:
            pair = [name, f"{name} {RIVAL}"]
            fight = start_fight(store, Viewer(campaign.id, "gm"), campaign, pair)
            break
        except JdrError:
            continue
    if fight is None:
        return None
    for _ in range(FIGHT_ACTIONS):
        state = fights.state(store, fight, system.fight)
        if system.simulation is not None and system.simulation.over(state):
            break
        for command in _commands(system, state, pair):
            try:
                fights.act(store, fight, system.fight, command)
                break
            except JdrError:
                continue
        else:
            break
    return fight


def _commands(system: Any, state: Json, pair: list[str]) -> list[Json]:
    """What the fighter to play may play, best first: the system's tactic's choice, else (a
    plug-in with no simulation) each command it may play now, with its example's keys, aimed at
    the other fighter."""
    from jdr.fights import service as fights

    if system.simulation is not None:
        chosen = system.simulation.tactic(state)
        return chosen if isinstance(chosen, list) else [chosen]
    actor = state.get("turn") or pair[0]
    other = pair[1] if actor == pair[0] else pair[0]
    found = []
    for name in fights.legal_now(system, state, actor):
        keys = system.fight_commands.get(name).example_keys(state, actor)
        keys = {k: other if k == "target" else v for k, v in keys.items()}
        found.append({"action": name, "actor": actor, **keys})
    return found
