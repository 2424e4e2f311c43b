"""Fights per second through `jdr simulate` (the default tactics, the deciders, a fold per event),
per system, against other versions measured in the same run, and the wall time of a party
fight's simulation in each system.

    .venv/bin/python benchmarks/bench_simulate.py [--previous SRC …] [--scale 1] [--repeat 2]
                                                  [--party-runs N] [--workers 2]

`--previous SRC` (repeatable) is the `src` folder of a version to compare with, e.g. the one
before issue 21's last part: `git worktree add /tmp/before 93ef1fb`, then `--previous
/tmp/before/src`. Each version is measured in a fresh process of its own (`PYTHONPATH` set to
its `src`), on the same setups:

- **fights/s, 1 core**: `simulate(…, executor=None)` of each setup, CPU time
  (`time.process_time`), the best of `--repeat` runs after 50 warm-up fights (imports, the
  tactics' caches); a system the version cannot simulate (no default tactic) shows `-`. The
  setups: Plus Ultra rank C against rank C, attacks only (issue 21's fight), and the shipped
  hero against the shipped villain (techniques); a Pokémon 1-against-1 (two Pokémon with two
  attacks); Passion's shipped Romuald against its cyber-ninja; an Ilvermorny duel (the shipped
  wizard against a rival of two elements); a Polédémos game (the shipped warband against three
  figures, one hand each).
- **party**: this version only, `jdr simulate`'s own path (`jdr.simulate.service.run`, stored
  sheets in, a `Report` out) over `--workers` processes, pool start-up included, wall clock:
  a 2-against-2 in Plus Ultra, Pokémon and Passion, a duel in Ilvermorny, a game of two players
  in Polédémos, `--party-runs` fights each, by default as many as `jdr simulate` plays without
  `--runs` (until every side is known within ±1 point: 500 to 9,604).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
Json = dict[str, Any]

CASES = [
    ("plus-ultra", "C against C, attacks only", 3000),
    ("plus-ultra", "hero against villain", 2000),
    ("pokemon", "1-against-1", 300),
    ("passion", "Romuald against the ninja", 600),
    ("ilvermorny", "duel", 3000),
    ("poledemos", "one hand each", 1000),
]
"""(system, setup, fights per measure at `--scale 1`): each about a second on one core."""


def example(system: str, file: str) -> Json:
    package = "jdr.systems." + system.replace("-", "_")
    text = resources.files(package).joinpath("examples", file).read_text(encoding="utf-8")
    data: Json = tomllib.loads(text)
    return data


def pokemon(name: str, side: str, kind: str) -> Json:
    stats = dict(strength=3, concentration=3, constitution=2, willpower=2, dexterity=2)
    moves = [
        {"name": "Charge", "type": "Normal", "category": "physique", "damage_dice": 2},
        {"name": "Jet", "type": kind, "category": "speciale", "damage_dice": 2},
    ]
    return {
        "name": name, "types": [kind], "stats": stats, "side": side, "moves": moves,
        "vitality": {"current": 12, "max": 12}, "energy": {"current": 5, "max": 5},
    }  # fmt: skip


def rival(wizard: Json) -> Json:
    return {
        "name": "Rival",
        "stats": dict(wizard["stats"]) | {"magic": 6},
        "spells": [
            {"name": "Incendio", "difficulty": 1, "element": "feu", "level": 2},
            {"name": "Aguamenti", "difficulty": 1, "element": "eau", "level": 1},
        ],
    }


def setup_of(system: str, label: str) -> Json:
    """The setup each case simulates (as `start` takes it)."""
    if label == "C against C, attacks only":
        fighters = [
            {"name": "A", "side": "a", "rank": "C", "energy": 8, "willpower": 8},
            {"name": "B", "side": "b", "rank": "C", "energy": 8, "willpower": 8},
        ]
        return {"characters": fighters}
    if system == "plus-ultra":
        hero, villain = example(system, "hero.toml"), example(system, "villain.toml")
        return {"characters": [hero | {"side": "a"}, villain | {"side": "b"}]}
    if system == "pokemon":
        return {"pokemon": [pokemon("Carapuce", "a", "Eau"), pokemon("Salamèche", "b", "Feu")]}
    if system == "passion":
        romuald, ninja = example(system, "romuald.toml"), example(system, "cyber-ninja.toml")
        return {"fighters": [romuald | {"side": "heroes"}, ninja | {"side": "ninjas"}]}
    if system == "ilvermorny":
        wizard = example(system, "wizard.toml")
        return {"wizards": [wizard, rival(wizard)]}
    warband = example(system, "warband.toml") | {"name": "Alice"}
    other = {"name": "Bob", "figures": [{"name": f"B{i}", "val": "4+"} for i in range(3)]}
    return {"players": [warband, other]}


def party_of(system: str) -> list[Json]:
    """`jdr simulate`'s participants for a party fight of `system` (stored sheets)."""

    def one(name: str, sheet: Json, side: str) -> Json:
        return {"name": name, "sheet": sheet | {"name": name}, "side": side}

    if system == "plus-ultra":
        hero, villain = example(system, "hero.toml"), example(system, "villain.toml")
        pairs = [("Kaito", hero, "a"), ("Aiko", hero, "a")]
        pairs += [("Corbeau", villain, "b"), ("Sbire", hero, "b")]
        return [one(name, sheet, side) for name, sheet, side in pairs]
    if system == "pokemon":
        kinds = [("Carapuce", "Eau"), ("Bulbizarre", "Plante")]
        kinds += [("Salamèche", "Feu"), ("Pikachu", "Electrik")]
        sheets = [pokemon(name, "-", kind) for name, kind in kinds]
        return [
            one(s["name"], {k: v for k, v in s.items() if k != "side"}, "ab"[i // 2])
            for i, s in enumerate(sheets)
        ]
    if system == "passion":
        romuald, ninja = example(system, "romuald.toml"), example(system, "cyber-ninja.toml")
        pairs = [("Romuald", romuald, "a"), ("Rosalie", romuald, "a")]
        pairs += [("Ninja", ninja, "b"), ("Ninja 2", ninja, "b")]
        return [one(name, sheet, side) for name, sheet, side in pairs]
    if system == "ilvermorny":
        wizard = example(system, "wizard.toml")
        return [one("Seraphina", wizard, "a"), one("Rival", rival(wizard), "b")]
    warband = example(system, "warband.toml")
    other = {"name": "Bob", "figures": [{"name": f"B{i}", "val": "4+"} for i in range(3)]}
    return [one("Alice", warband, "a"), one("Bob", other, "b")]


# --- a worker: one version, every case ------------------------------------------------------------


def work(scale: float, repeat: int) -> Json:
    """Fights per second of every case with the version on `sys.path` (None: it cannot)."""
    from jdr.simulate import simulate
    from jdr.systems import default_registry

    registry = default_registry()
    found: Json = {}
    for system_id, label, runs in CASES:
        system = registry.get(system_id)
        key = f"{system_id}: {label}"
        if getattr(system, "simulation", None) is None:
            found[key] = None
            continue
        setup = setup_of(system_id, label)
        simulate(system, setup, runs=50, seed=0)  # warm up: imports, the tactics' caches
        count = max(1, round(runs * scale))
        best = 0.0
        for attempt in range(repeat):
            start = time.process_time()
            simulate(system, setup, runs=count, seed=1 + attempt)
            best = max(best, count / (time.process_time() - start))
        found[key] = best
    return found


def _measure(src: Path, scale: float, repeat: int) -> Json:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run(
        [sys.executable, __file__, "--worker", str(scale), str(repeat)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the worker on {src} failed:\n{done.stderr[-3000:]}")
    found: Json = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def _parties(runs: int | None, workers: int) -> list[str]:
    """Each party fight through `jdr simulate`'s path; `runs` None: its default, until every
    side is known within ±1 point (500 to 9,604 fights)."""
    from jdr.simulate.service import run
    from jdr.systems import default_registry

    lines = []
    for system_id in ("plus-ultra", "pokemon", "passion", "ilvermorny", "poledemos"):
        system = default_registry().get(system_id)
        fighters = party_of(system_id)
        start = time.perf_counter()
        report = run(system, fighters, runs=runs, seed=1, workers=workers)
        elapsed = time.perf_counter() - start
        wins = ", ".join(f"{side} {100 * rate.rate:.1f} %" for side, rate in report.wins.items())
        how = "until ±1 point" if runs is None else "fixed"
        lines.append(
            f"{system_id:11} party of {len(fighters)}, {report.runs:5} fights ({how}),"
            f" {workers} workers: {elapsed:5.2f} s ({report.runs / elapsed:5.0f} fights/s);"
            f" wins {wins}"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", action="append", default=[], metavar="SRC")
    parser.add_argument("--scale", type=float, default=1.0, help="fights per measure, × this")
    parser.add_argument("--repeat", type=int, default=2, help="measures per case (the best)")
    parser.add_argument(
        "--party-runs", type=int, default=None, help="fights per party (default: jdr simulate's)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(work(float(args.worker[0]), int(args.worker[1]))))
        return
    versions = {"this version": SRC} | {
        Path(src).resolve().parent.name: Path(src).resolve() for src in args.previous
    }
    figures = {name: _measure(src, args.scale, args.repeat) for name, src in versions.items()}
    names = list(versions)
    width = max(len(key) for key in figures["this version"]) + 2
    print("fights/s, 1 core, CPU time".ljust(width) + "".join(f"{n:>16}" for n in names))
    for key in figures["this version"]:
        cells = []
        for name in names:
            value = figures[name].get(key)
            cells.append(f"{value:>16,.0f}" if value is not None else f"{'-':>16}")
        print(key.ljust(width) + "".join(cells))
    for line in _parties(args.party_runs, args.workers):
        print(line)


if __name__ == "__main__":
    main()
