"""Opening a fight between a campaign's stored characters (`open_stored`: what `jdr fight new`
and the web table's GM do), each noting the revision it starts from; what the fight's end
changes on their sheets is `jdr.characters.outcomes`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jdr.characters.binding import named
from jdr.characters.outcomes import (
    FighterOutcome,
    apply_outcome,
    describe_conflicts,
    outcome,
    record_start,
)
from jdr.characters.service import system_of
from jdr.fights.service import open_fight
from jdr.fights.setup import build_setup, fighters_named, participants
from jdr.live.pace import parse_deadline, parse_on_late
from jdr.store import Campaign, Character, Store
from jdr.systems.protocol import Json

__all__ = [
    "FighterOutcome",
    "Opened",
    "apply_outcome",
    "describe_conflicts",
    "open_stored",
    "outcome",
    "record_start",
]


@dataclass(frozen=True)
class Opened:
    """A fight opened between stored characters: the fight's opening, its fighters' names as
    stored and the characters, at the revisions read to set it up."""

    started: Any
    names: list[str]
    characters: list[Character]


def open_stored(
    store: Store,
    campaign: Campaign,
    names: Sequence[str],
    sides: dict[str, str] | None = None,
    order: Sequence[str] | None = None,
    settings: Json | None = None,
    rng: Any = None,
    deadline: str | None = None,
    on_late: str | None = None,
) -> Opened:
    """Open a fight between the campaign's stored characters `names` (as people type them,
    each sheet checked against the journal): `sides` by name (default: the first against the
    others), an `order` of play, the table's `settings` for this fight (`reactions=dodge` …),
    its pace (`deadline` per turn, `48h`, and what happens `on_late`: `jdr.live.pace`), and
    record the revision each starts from. What `jdr fight new` and the web table's GM do."""
    seconds = parse_deadline(deadline) if deadline else None  # refused before anything is made
    late = parse_on_late(on_late) if on_late else "default"

    system = system_of(campaign)
    stored = {c.name: c for c in (named(store, campaign.id, n) for n in names)}
    found = list(stored)
    options: Json = {}
    if settings:
        options["settings"] = dict(settings)
    if order:
        options["order"] = fighters_named("--order", list(order), found, keep_unknown=True)
    fighters = [
        {"name": name, "sheet": stored[name].sheet, "side": side}
        for name, side in participants(found, sides or {})
    ]
    setup = build_setup(system, fighters, options)
    assert system.fight is not None  # build_setup refuses a system without fights
    started = open_fight(store, campaign.id, system.fight, setup, found, rng)
    record_start(store, started.fight_id, list(stored.values()))
    if seconds is not None:
        store.set_pace(started.fight_id, seconds, late)
    return Opened(started, found, list(stored.values()))
