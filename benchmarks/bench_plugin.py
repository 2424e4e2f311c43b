"""What a plug-in costs: its catalogs in every `_()` call, its keep pools' exact odds, and the
start of a command that loads it.

    .venv/bin/python benchmarks/bench_plugin.py [--repeat N]

1. `_()` and `ngettext` per call, in English and in French, over every message of jdr's own
   catalog plus as many it does not hold, without plug-in catalogs and with three added (the
   example's `Messages` and two more): a message jdr's catalog lacks asks each plug-in's.
2. `keep_pool_distribution(KeepPool(d6, n, keep=k))`, exact and float, up to 1,000 dice.
3. `jdr odds ombres check --dice 2` as a fresh process (the example plug-in installed with pip
   into a temporary folder), beside `jdr odds` of a built-in system: what loading a plug-in adds.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from babel.messages.pofile import read_po

from jdr.dice import KeepPool, ScoredDie
from jdr.i18n import Messages, _, add_catalog, language, ngettext
from jdr.prob import keep_pool_distribution
from timing import median_time

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "src" / "jdr" / "locale" / "fr" / "LC_MESSAGES" / "jdr.po"


def messages() -> tuple[list[str], list[tuple[str, str]]]:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    singles = [m.id for m in catalog if m.id and isinstance(m.id, str)]
    plurals = [m.id for m in catalog if isinstance(m.id, tuple)]
    misses = [f"zz missing message {i}" for i in range(len(singles))]
    return singles + misses, [(a, b) for a, b in plurals]


def per_call(singles: list[str], plurals: list[tuple[str, str]], repeat: int) -> dict[str, float]:
    found = {}
    for lang in ("en", "fr"):
        with language(lang):
            t = median_time(lambda: [_(m) for m in singles], repeat)
            found[f"_() {lang}"] = t / len(singles) * 1e9
            t = median_time(lambda: [ngettext(a, b, 2) for a, b in plurals], repeat)
            found[f"ngettext {lang}"] = t / len(plurals) * 1e9
    return found


def catalogs_cost(repeat: int) -> None:
    singles, plurals = messages()
    before = per_call(singles, plurals, repeat)
    french = ROOT / "examples" / "plugin" / "src" / "jdr_ombres" / "french.py"
    spec = importlib.util.spec_from_file_location("ombres_french", french)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    add_catalog(module.MESSAGES)
    add_catalog(Messages(fr={f"zz word {i}": f"mot {i}" for i in range(200)}))
    add_catalog(Messages(fr={f"zz other {i}": f"autre {i}" for i in range(200)}))
    after = per_call(singles, plurals, repeat)
    counted = f"{len(singles)} messages (half not in jdr's catalog), {len(plurals)} plurals"
    print(f"1. per call over {counted}")
    print(f"   {'call':<14}{'no plug-in catalog':>20}{'3 plug-in catalogs':>20}")
    for key in before:
        print(f"   {key:<14}{before[key]:>17.0f} ns{after[key]:>17.0f} ns")


def keep_cost(repeat: int) -> None:
    print("2. keep_pool_distribution(KeepPool(d6, n, keep=k)), median")
    print(f"   {'pool':<16}{'exact':>12}{'float':>12}")
    for dice, keep in ((10, 1), (10, 3), (100, 1), (100, 3), (1000, 1), (1000, 3)):
        pool = KeepPool(ScoredDie.sum(6), dice, keep=keep)
        exact = median_time(partial(keep_pool_distribution, pool, exact=True), repeat)
        floats = median_time(partial(keep_pool_distribution, pool), repeat)
        print(f"   {pool.notation():<16}{exact * 1e3:>9.2f} ms{floats * 1e3:>9.2f} ms")


def startup_cost(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
             "--no-build-isolation", "--target", folder, str(ROOT / "examples" / "plugin")],
            check=True,
        )  # fmt: skip
        env = {**os.environ, "PYTHONPATH": folder, "JDR_LANG": "en"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        jdr = str(Path(sys.executable).with_name("jdr"))
        commands = {
            "jdr odds poledemos test --val 3 --dice 2": [
                jdr, "odds", "poledemos", "test", "--val", "3", "--dice", "2"],
            "jdr odds ombres check --dice 2": [jdr, "odds", "ombres", "check", "--dice", "2"],
            "… --lang fr": [jdr, "odds", "ombres", "check", "--dice", "2", "--lang", "fr"],
        }  # fmt: skip
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _round in range(repeat + 1):  # the first round writes the bytecode
            for name, command in commands.items():
                start = time.perf_counter()
                subprocess.run(command, env=env, check=True, capture_output=True)
                if _round:
                    times[name].append(time.perf_counter() - start)
    print(f"3. a fresh process, median of {repeat}")
    for name, found in times.items():
        print(f"   {name:<42}{statistics.median(found) * 1e3:>8.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    catalogs_cost(args.repeat)
    keep_cost(args.repeat)
    startup_cost(args.repeat)


if __name__ == "__main__":
    main()
