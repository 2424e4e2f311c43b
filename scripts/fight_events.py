"""Record real fight events of every system, for the narration tests' corpus.

    python scripts/fight_events.py    # → tests/fixtures/fight_events.json

Runs the scripted fights of the five systems' fight tests with each system's `evolve` watched,
and keeps up to three different events of each type. `tests/test_fight_story.py` tells every
one of them in French and English, and checks that the corpus holds every event type a decider
can write (the deciders' sources are scanned for them): run this again after adding one.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "fixtures" / "fight_events.json"
KEEP = 3
STATES = {
    "pokemon": ["jdr.systems.pokemon.fight_state", "jdr.systems.pokemon.fight_turns",
                "jdr.systems.pokemon.fight"],
    "plus-ultra": ["jdr.systems.plus_ultra.fight_state", "jdr.systems.plus_ultra.fight_actions",
                   "jdr.systems.plus_ultra.fight"],
    "passion": ["jdr.systems.passion.fight_state", "jdr.systems.passion.fight_rolls",
                "jdr.systems.passion.fight"],
    "ilvermorny": ["jdr.systems.ilvermorny.fight_state", "jdr.systems.ilvermorny.fight"],
    "poledemos": ["jdr.systems.poledemos.play_state", "jdr.systems.poledemos.play"],
}  # fmt: skip
TESTS = [
    "tests/test_pokemon_fight.py",
    "tests/test_plus_ultra_fight.py",
    "tests/test_passion_fight.py",
    "tests/test_ilvermorny_fight.py",
    "tests/test_poledemos_play.py",
]


class Recorder:
    """A pytest plug-in that watches each system's `evolve` while the fight tests run."""

    def __init__(self) -> None:
        self.seen: dict[str, dict[str, list[Any]]] = {}

    def pytest_configure(self, config: Any) -> None:
        for system, modules in STATES.items():
            loaded = [importlib.import_module(name) for name in modules]
            original = loaded[0].evolve

            def evolve(state: Any, event: Any, system: str = system, original: Any = original):
                kept = self.seen.setdefault(system, {}).setdefault(event["type"], [])
                if len(kept) < KEEP and event not in kept:
                    kept.append(json.loads(json.dumps(event)))
                return original(state, event)

            for module in loaded:
                module.evolve = evolve


def main() -> int:
    recorder = Recorder()
    code = pytest.main(["-q", "-p", "no:cacheprovider", *TESTS], plugins=[recorder])
    if code != 0:
        return int(code)
    corpus = {system: dict(sorted(kinds.items())) for system, kinds in recorder.seen.items()}
    OUT.write_text(json.dumps(corpus, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(
        f"wrote {OUT.relative_to(ROOT)}: " + ", ".join(f"{s} {len(k)}" for s, k in corpus.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
