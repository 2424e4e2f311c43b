"""How long telling a fight takes, beside folding it (what `fight show` did before sentences).

    .venv/bin/python benchmarks/bench_story.py [--actions N] [--repeat N]

Plays a long Pokémon fight in memory (two Pokémon with a million Vitalité, seeded dice, attacks
answered with every kind of response, waits), then times, median of `--repeat` runs:

- `fold`: the state from the events (`jdr.fights.fold`), the work every command did already;
- `story`: every action told in sentences (`jdr.fights.story.chapters`, `jdr fight log`);
- `recap --all`: the whole fight's BBCode recap (`jdr.fights.recap.recap`);
- `recap` of the last action (what `jdr fight recap` does by default).

and prints each, per event, and the ratio to the fold.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from jdr.dice import Seeded
from jdr.fights import Fight, fold
from jdr.fights.recap import recap
from jdr.fights.story import chapters
from jdr.store import StoredEvent
from jdr.systems import default_registry
from timing import median_time

HUGE = 10**6


def mon(name: str, side: str) -> dict[str, Any]:
    stats = dict.fromkeys(("strength", "concentration", "constitution", "willpower"), 3)
    moves = [
        {"name": "Charge", "type": "Normal", "category": "physique", "damage_dice": 2},
        {"name": "Éclair", "type": "Electrik", "category": "speciale", "damage_dice": 2},
    ]
    return {
        "name": name,
        "side": side,
        "types": ["Normal"],
        "stats": stats | {"dexterity": 3},
        "moves": moves,
        "vitality": {"current": HUGE, "max": HUGE},
        "energy": {"current": HUGE, "max": HUGE},
    }


def long_fight(actions: int) -> list[StoredEvent]:
    """A fight of `actions` commands, stored as the service stores them."""
    rules = default_registry().get("pokemon").fight
    assert rules is not None
    rng, choose = Seeded(15), random.Random(15)
    fight = Fight.start(rules, {"pokemon": [mon("Pika", "a"), mon("Chu", "b")]}, rng)
    stored = [StoredEvent(n, 1, e) for n, e in enumerate(fight.events, start=1)]
    for _ in range(actions):
        state = fight.state
        if state.get("reaction"):
            defender = state["reaction"]["pokemon"]
            command = {"action": "respond", "actor": defender}
            command |= {"response": choose.choice(["none", "endure", "dodge"])}
        else:
            actor = state["to_play"][0]
            command = {
                "action": "move",
                "actor": actor,
                "move": choose.choice(["Charge", "Éclair"]),
            }
            if choose.random() < 0.2:
                command = {"action": "wait", "actor": actor}
        new = fight.act(command, rng)
        number = len(stored) + 1
        stored += [StoredEvent(number + i, number, e) for i, e in enumerate(new)]
    return stored


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    system = default_registry().get("pokemon")
    rules = system.fight
    assert rules is not None
    stored = long_fight(args.actions)
    events = [s.event for s in stored]
    timings = {
        "fold": median_time(lambda: fold(rules, events), args.repeat),
        "story (fight log)": median_time(lambda: chapters(system, stored), args.repeat),
        "recap --all (BBCode)": median_time(
            lambda: recap(system, stored, "bbcode", 1, whole=True), args.repeat
        ),
        "recap (last action)": median_time(lambda: recap(system, stored, "text", 1), args.repeat),
    }
    print(f"{args.actions} actions, {len(events)} events, median of {args.repeat} runs")
    base = timings["fold"]
    for name, seconds in timings.items():
        per = seconds / len(events) * 1e6
        print(
            f"{name:22} {seconds * 1000:9.1f} ms  {per:6.1f} µs/event  {seconds / base:5.1f}× fold"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
