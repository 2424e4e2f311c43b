"""Fights per second through `jdr.simulate` (the default tactics, the deciders, a fold per event),
per system, and the wall time of a party fight's simulation.

    .venv/bin/python benchmarks/bench_simulate.py [--runs N] [--workers N]

- `fights/s, 1 core`: `simulate(…, executor=None)` on each system with a default tactic: a
  Plus Ultra rank C against rank C of attacks only (issue 21's fight), a 1-against-1 Plus Ultra
  duel of the shipped examples (Kaito Arashi against Corbeau, techniques), a Pokémon
  1-against-1 (two Pokémon with two attacks);
- `party`: a Plus Ultra 2-against-2 with techniques, `--runs` fights over `--workers` processes
  (`jdr simulate`'s own path: `jdr.simulate.service.run`), its wall time.
"""

from __future__ import annotations

import argparse
import time
import tomllib
from importlib import resources
from typing import Any

from jdr.simulate import simulate
from jdr.simulate.service import run
from jdr.systems import default_registry


def example(system: str, file: str) -> dict[str, Any]:
    package = "jdr.systems." + system.replace("-", "_")
    text = resources.files(package).joinpath("examples", file).read_text(encoding="utf-8")
    return tomllib.loads(text)


def plus_ultra_duel() -> dict[str, Any]:
    hero, villain = example("plus-ultra", "hero.toml"), example("plus-ultra", "villain.toml")
    return {"characters": [hero | {"side": "a"}, villain | {"side": "b"}]}


def plus_ultra_attacks_only() -> dict[str, Any]:
    """Two rank C characters without techniques: the issue's "1-against-1 fight of attacks"."""
    return {
        "characters": [
            {"name": "A", "side": "a", "rank": "C", "energy": 8, "willpower": 8},
            {"name": "B", "side": "b", "rank": "C", "energy": 8, "willpower": 8},
        ]
    }


def pokemon_duel() -> dict[str, Any]:
    def mon(name: str, side: str, kind: str, move_type: str) -> dict[str, Any]:
        stats = dict(strength=3, concentration=3, constitution=2, willpower=2, dexterity=2)
        moves = [
            {"name": "Charge", "type": "Normal", "category": "physique", "damage_dice": 2},
            {"name": "Jet", "type": move_type, "category": "speciale", "damage_dice": 2},
        ]
        return {
            "name": name, "types": [kind], "stats": stats, "side": side, "moves": moves,
            "vitality": {"current": 12, "max": 12}, "energy": {"current": 5, "max": 5},
        }  # fmt: skip

    return {"pokemon": [mon("Carapuce", "a", "Eau", "Eau"), mon("Salamèche", "b", "Feu", "Feu")]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    registry = default_registry()
    cases = [
        ("plus-ultra", "attacks only", plus_ultra_attacks_only()),
        ("plus-ultra", "Kaito/Corbeau", plus_ultra_duel()),
        ("pokemon", "Carapuce/Salamèche", pokemon_duel()),
    ]
    for system_id, label, setup in cases:
        system = registry.get(system_id)
        simulate(system, setup, runs=20, seed=0)  # warm caches (attack odds, imports)
        start = time.perf_counter()
        simulate(system, setup, runs=args.runs, seed=1)
        elapsed = time.perf_counter() - start
        print(f"{system_id:12} {label:20} 1 core: {args.runs / elapsed:8.0f} fights/s")
    hero, villain = example("plus-ultra", "hero.toml"), example("plus-ultra", "villain.toml")
    party = [
        {"name": "Kaito", "sheet": hero | {"name": "Kaito"}, "side": "a"},
        {"name": "Aiko", "sheet": hero | {"name": "Aiko"}, "side": "a"},
        {"name": "Corbeau", "sheet": villain | {"name": "Corbeau"}, "side": "b"},
        {"name": "Sbire", "sheet": hero | {"name": "Sbire"}, "side": "b"},
    ]
    system = registry.get("plus-ultra")
    start = time.perf_counter()
    report = run(system, party, runs=args.runs, seed=1, workers=args.workers)
    elapsed = time.perf_counter() - start
    print(
        f"plus-ultra 2-against-2 party, {args.runs} fights, {args.workers} workers:"
        f" {elapsed:.2f} s ({args.runs / elapsed:.0f} fights/s);"
        f" side a wins {100 * report.wins['a'].rate:.1f} %"
    )


if __name__ == "__main__":
    main()
