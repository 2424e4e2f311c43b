"""A campaign of each system for the Discord replies' tests (`jdr.discord.replies.answer`): its
example sheets stored, a fight begun between two of them, the GM's seat and a player's for the
first fighter; and a fight played to its end through `/jdr fight act`, each fighter's command
chosen by the system's own simulation tactic, played by the seat whose decision it is."""

from __future__ import annotations

import shlex
import tomllib
from dataclasses import dataclass
from typing import Any

from jdr.access import Viewer
from jdr.characters import service
from jdr.discord.replies import answer
from jdr.discord.types import MESSAGE_LIMIT, Caller, Reply
from jdr.errors import RulesError
from jdr.fights.commands import GM_SEAT, Seat
from jdr.fights.service import state
from jdr.names import same
from jdr.sheet_check import systems_example
from jdr.store import Campaign, Store
from jdr.systems import default_registry
from jdr.table import fight_page, start_fight

SEEDS: dict[str, tuple[tuple[str, str | None], ...]] = {
    "plus-ultra": (("hero", None), ("villain", None)),
    "pokemon": (("pokemon", None), ("pokemon", "Évoli"), ("trainer", None)),
    "passion": (("romuald", None), ("cyber-ninja", None)),
    "ilvermorny": (("wizard", None), ("wizard", "Orion Vale")),
    "poledemos": (("warband", None), ("warband", "Section Harper")),
}
"""Each system, and the characters its campaign holds (the two fighters first)."""
WEAKER = {"pokemon": {"vitality": {"current": 4, "max": 4}}}
"""What the second fighter's sheet changes, for a fight that ends before the fighters' Énergie
runs out (two example Pokémon at full Vitalité cannot knock each other out)."""
SYSTEMS = tuple(SEEDS)
GM = Caller("100", "gm", "900", "800")
PLAYER = Caller("200", "player", "900", "800")
SPECTATOR = Caller("300", "spectator", "900", "800")
FRENCH = Caller("200", "joueuse", "900", "800", locale="fr")
MOST_ACTIONS = 300


@dataclass
class Table:
    store: Store
    campaign: Campaign
    names: list[str]
    fight_id: int

    @property
    def gm(self) -> Viewer:
        return Viewer(self.campaign.id, "gm")

    @property
    def player(self) -> Viewer:
        """The seat of the first fighter's player."""
        found = self.store.character_named(self.campaign.id, self.names[0])
        return Viewer(self.campaign.id, "player", found.name, found.id)

    @property
    def spectator(self) -> Viewer:
        return Viewer(self.campaign.id, "spectator")

    def ask(
        self, who: str, path: tuple[str, ...], caller: Caller | None = None, **options: Any
    ) -> Reply:
        viewer = {"gm": self.gm, "player": self.player, "spectator": self.spectator}[who]
        caller = caller or {"gm": GM, "player": PLAYER, "spectator": SPECTATOR}[who]
        found = answer(self.store, self.campaign, viewer, caller, path, options)
        assert_fits(found)
        return found


def assert_fits(reply: Reply) -> None:
    """Every message of `reply` is one Discord takes."""
    for message in (reply.content, *reply.followups):
        assert 0 < len(message) <= MESSAGE_LIMIT, len(message)


def seeded_table(store: Store, system: str, seed: int = 0) -> Table:
    """A campaign of `system` with a fixed seed (its dice are the same on every run)."""
    campaign_id = store.create_campaign(system, f"Discord {system} {seed}", seed=bytes([seed]) * 32)
    campaign = store.campaign_by_id(campaign_id)
    names = []
    for index, (kind, name) in enumerate(SEEDS[system]):
        data = tomllib.loads(systems_example(system, kind))
        if index == 1:
            data.update(WEAKER.get(system, {}))
        service.add(store, campaign, data, name=name)
        names.append(name or str(data["name"]))
    fight_id = start_fight(store, Viewer(campaign_id, "gm"), campaign, names[:2])
    return Table(store, campaign, names, fight_id)


def _typed(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict | list):
        import json

        return json.dumps(value, ensure_ascii=False)
    return str(value)


def options_of(keys: dict[str, Any]) -> str:
    """Keys as the `options` of `/jdr fight act` are typed: `key=value …`, quoted when needed."""
    return " ".join(shlex.quote(f"{key}={_typed(value)}") for key, value in keys.items())


def play_to_the_end(
    table: Table, caller_of: dict[str, Caller] | None = None
) -> tuple[list[Reply], bool]:
    """Play the table's fight to its end through `/jdr fight act`: each command the system's
    simulation tactic picks, played by its fighter's player (the first fighter) or the GM, with
    only the keys that seat decides, until its rules end it or its simulation's end is reached
    (Poledemos: each player had the hand once; the GM ends such a fight). The replies in order,
    and whether it ended so (False: it is stuck, nobody can hurt anybody any more)."""
    store, campaign = table.store, table.campaign
    system = default_registry().get(campaign.system)
    assert system.fight is not None
    commands = system.fight_commands  # type: ignore[attr-defined]
    tactic = system.simulation.tactic  # type: ignore[attr-defined]
    over = system.simulation.over  # type: ignore[attr-defined]
    replies: list[Reply] = []
    for _step in range(MOST_ACTIONS):
        page = fight_page(store, table.gm, campaign, table.fight_id, recaps=False, last=1)
        now = state(store, table.fight_id, system.fight)
        if page.ending is not None or over(now) or page.stuck:
            return replies, not page.stuck
        chosen = tactic(now)
        refused: list[str] = []
        for command in chosen if isinstance(chosen, list) else [chosen]:
            name = str(command["action"])
            declared = commands.get(name)
            actor = str(
                command.get("actor")
                or command.get("wizard")
                or command.get("player")
                or table.names[1]
            )
            mine = same(actor, table.names[0]) and declared.owner.kind != "gm"
            seat = Seat((actor,)) if mine else GM_SEAT
            allowed = set(declared.theirs(seat, actor))
            keys = {k: v for k, v in command.items() if k in allowed}
            who = "player" if mine else "gm"
            options = {"command": name, "options": options_of(keys)}
            if not mine:
                options["character"] = actor
            caller = (caller_of or {}).get(who)
            try:
                replies.append(table.ask(who, ("fight", "act"), caller, **options))
                break
            except RulesError as error:
                refused.append(error.message())
        else:
            raise AssertionError(refused)
    raise AssertionError(f"no end after {MOST_ACTIONS} actions")
