"""`jdr simulate` as a service: stored sheets in, a `Report` out. The CLI and the web table call
this, and only this.

`vary("Kaito Arashi.willpower=+1", fighters)` changes one field of one fighter's sheet: `+N` or
`-N` adds to a number, any other value replaces it (`rank=C`); a dotted field reaches into the
sheet (`stats.strength=+1`); a full gauge whose maximum changes stays full
(`Pikachu.energy.max=+2`).

What a simulation starts from (where the rules are silent, a reading): a GM asks "who wins?"
before a fight, so by default every fighter starts from its sheet as a fresh fight would —
every gauge full, what lasts only a fight cleared (the system's `Simulation.fresh`: Pokémon's
conditions, Passion's ticked markers); `as_is` keeps the sheets as they are (right after a
fight: its depleted gauges). A `--vary` or `--compare` applies to the sheet the fight starts
from. The two sides are "a" (`--with`) and "b" (`--against`) to the rules; a report names each
by the name the GM gave it (`side_names`) or by its fighters' names.
"""

from __future__ import annotations

import copy
import importlib
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from jdr.bounded import whole_number
from jdr.characters.binding import named
from jdr.errors import InputError
from jdr.i18n import _
from jdr.simulate.core import (
    Report,
    compare,
    simulate,
    simulation_of,
    tactic_named,
    with_sides,
)
from jdr.systems.protocol import Json, RuleSystem

MAX_RUNS = 10_000_000
MAX_WORKERS = 256
MAX_SIDE_NAME = 100
"""The longest name a side may be given (`--side`)."""


def stored_fighter(store: Any, campaign_id: int, typed: str, side: str) -> Json:
    """A campaign's stored character as a participant on `side` (its sheet checked against the
    journal, `jdr.characters.binding`)."""
    character = named(store, campaign_id, typed)
    return {"name": character.name, "sheet": character.sheet, "side": side}


def sheet_fighter(system: RuleSystem, data: Json, label: str, side: str) -> Json:
    """A sheet read from a file (`label` names it) as a participant on `side`: validated by
    `system` like `jdr sheet add` does, named by its own `name` (else by `label`)."""
    from jdr.sheet_check import check_sheet, installed
    from jdr.systems import default_registry

    def systems() -> list[RuleSystem]:
        return installed(default_registry())

    sheet = check_sheet(data, label, system, systems).model_dump(mode="json")
    name = sheet.get("name") if isinstance(sheet.get("name"), str) else None
    return {"name": (name or label).strip() or label, "sheet": sheet, "side": side}


def sides_checked(fighters: list[Json]) -> list[Json]:
    """`fighters` if each side has one at least and no one is named twice (as people type
    names), else an `InputError`."""
    from jdr.names import duplicate

    if {f["side"] for f in fighters} != {"a", "b"}:
        raise InputError(
            "--with/--against",
            None,
            _("one stored character at least on each side"),
            _("a side has nobody"),
        )
    for index, fighter in enumerate(fighters):
        if duplicate(fighter["name"], [f["name"] for f in fighters[:index]]) is not None:
            raise InputError(
                "--with/--against", fighter["name"], _("each fighter once"), _("named twice")
            )
    return fighters


def side_names(fighters: Sequence[Json], given: Sequence[str]) -> dict[str, str]:
    """The names the GM gave the sides, from `NAME=SIDE` words (`--side`, as `jdr fight new`
    takes them: a fighter, as people type names, and the name of its side), by side ("a",
    "b"). Every fighter of a side takes its side's name; two names for one side, or one name
    for both, are refused.

    >>> fighters = [{"name": "Pikachu", "side": "a"}, {"name": "Onix", "side": "b"}]
    >>> side_names(fighters, ["pikachu=héros", "Onix=vilain"])
    {'a': 'héros', 'b': 'vilain'}
    """
    from jdr.names import find

    allowed = _("a fighter's name, =, and the name of its side (héros=Pikachu is wrong)")
    names = [f["name"] for f in fighters]
    chosen: dict[str, str] = {}
    for word in given:
        typed, sep, side = word.partition("=")
        side = side.strip()
        if not sep or not typed.strip() or not side:
            raise InputError("--side", word, allowed)
        if len(side) > MAX_SIDE_NAME:
            raise InputError("--side", word, _("at most {n} characters").format(n=MAX_SIDE_NAME))
        found = find(typed.strip(), names, "--side")
        if found is None:
            raise InputError("--side", word, ", ".join(names), _("no such fighter"))
        key = next(f["side"] for f in fighters if f["name"] == found)
        if chosen.get(key, side) != side:
            raise InputError("--side", word, chosen[key], _("that side is named already"))
        chosen[key] = side
    if len(chosen) == 2 and len(set(chosen.values())) == 1:
        raise InputError("--side", given[-1], _("two names"), _("both sides named alike"))
    return chosen


def labels(fighters: Sequence[Json], report: Report, names: dict[str, str]) -> dict[str, str]:
    """Each of the report's sides (as the system names them) → the name the reader sees: the
    name the GM gave the side of its fighters, else their names; a system whose every fighter
    is a side of its own (a duel) keeps them apart: a name that would stand for two of its
    sides leaves them their own."""
    own: dict[str, list[str]] = {}
    for fighter in fighters:
        own.setdefault(fighter["side"], []).append(fighter["name"])
    shown = {side: names.get(side) or ", ".join(members) for side, members in own.items()}
    mapping: dict[str, str] = {}
    for fighter in fighters:
        key = report.sides.get(fighter["name"])
        if key is None:
            continue
        label = shown[fighter["side"]]
        if mapping.get(key, label) != label:
            return {}
        mapping[key] = label
    if len(set(mapping.values())) < len(mapping):
        return {}
    return mapping


def fresh_fighters(system: RuleSystem, fighters: Sequence[Json]) -> list[Json]:
    """The fighters with their sheets as a fresh fight starts them (`Simulation.fresh`)."""
    fresh = simulation_of(system).fresh
    return [f | {"sheet": fresh(copy.deepcopy(f["sheet"]))} for f in fighters]


def vary(change: str, fighters: Sequence[Json]) -> list[Json]:
    """The fighters with `Name.field=value` applied (see the module)."""
    allowed = _("Name.field=+1, Name.field=-1 or Name.field=value")
    target, sep, value = change.partition("=")
    name, dot, path = target.partition(".")
    if not sep or not dot or not path.strip() or not value.strip():
        raise InputError("--vary", change, allowed)
    from jdr.names import find

    names = [f["name"] for f in fighters]
    found = find(name.strip(), names, "--vary")
    if found is None:
        raise InputError("--vary", change, ", ".join(names), _("no such fighter"))
    changed = copy.deepcopy(list(fighters))
    fighter = next(f for f in changed if f["name"] == found)
    holder = fighter["sheet"]
    keys = path.strip().split(".")
    for key in keys[:-1]:
        if not isinstance(holder.get(key), dict):
            raise InputError(
                "--vary", change, allowed, _("the sheet has no {field}").format(field=path)
            )
        holder = holder[key]
    last = keys[-1]
    if last not in holder:
        raise InputError(
            "--vary",
            change,
            ", ".join(sorted(holder)),
            _("the sheet has no {field}").format(field=path),
        )
    text = value.strip()
    before = holder[last]
    if text[0] in "+-" and text[1:].isdigit():
        if not isinstance(holder[last], int) or isinstance(holder[last], bool):
            raise InputError(
                "--vary", change, allowed, _("{field} is not a number").format(field=path)
            )
        holder[last] = holder[last] + whole_number(text, "--vary", change)
    else:
        holder[last] = _value(text, change)
    if last == "max" and holder.get("current") == before:  # a full gauge stays full
        holder["current"] = holder[last]
    return changed


def _value(text: str, change: str) -> Any:
    """A `--vary` value (`jdr.fights.setup.parse_value`, within `jdr.bounded`'s limits: nested
    at most `MAX_NESTING` deep, whole numbers of at most `MAX_DIGITS` digits), a limit named
    as `--vary`'s."""
    from jdr.errors import LimitError
    from jdr.fights.setup import parse_value

    try:
        return parse_value(text)
    except LimitError as error:
        raise LimitError("--vary", change, error.allowed, error.reason) from None


def swapped(other: Json, fighters: Sequence[Json]) -> list[Json]:
    """The fighters with the one `other["name"]` names (as people type it) playing
    `other["sheet"]` instead: "what if Kaito had this sheet?" (`--compare NAME=FILE.toml`)."""
    from jdr.names import find

    names = [f["name"] for f in fighters]
    found = find(str(other["name"]), names, "--compare")
    if found is None:
        raise InputError("--compare", other["name"], ", ".join(names), _("no such fighter"))
    return [f | {"sheet": other["sheet"]} if f["name"] == found else f for f in fighters]


@contextmanager
def executor_for(
    workers: int | None, scheduler: str | None
) -> Iterator[tuple[Executor | None, int]]:
    """The executor runs go to, and the number of workers: Dask's client executor for a
    `scheduler` address, else a local process pool (`workers` None: one per core), else (one
    worker) none: runs are played in this process."""
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise InputError("--workers", workers, f"1 … {MAX_WORKERS}")
    if scheduler:
        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise InputError(
                "--scheduler",
                scheduler,
                "pip install 'jdr[dask]'",
                _("Dask distributed is not installed"),
            ) from None
        try:
            client = distributed.Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as error:
            raise InputError("--scheduler", scheduler, "tcp://host:8786", str(error)) from None
        try:
            cores = sum(client.nthreads().values()) or 1
            yield client.get_executor(), workers or cores
        finally:
            client.close()
        return
    count = workers or os.cpu_count() or 1
    if count == 1:
        yield None, 1
        return
    with ProcessPoolExecutor(count) as pool:
        yield pool, count


def run(
    system: RuleSystem,
    fighters: list[Json],
    *,
    runs: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    scheduler: str | None = None,
    variant: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
    swaps: Sequence[Json] = (),
    tactic: str | None = None,
    as_is: bool = False,
    sides: dict[str, str] | None = None,
) -> Report:
    """Simulate the fight of `fighters` (with `variant`, changes all applied together, and
    `swaps`, fighters whose sheet is replaced by another (`swapped`): also the varied fight,
    and compare; `progress` then counts the runs of both). `runs` None plays until ±1 point
    (`jdr.simulate.core`); `tactic` names one of the system's tactics (None: its default).
    Fighters start fresh (`fresh_fighters`) unless `as_is`; `sides` names the sides ("a", "b"
    → a name, `side_names`), the others are named by their fighters (`labels`)."""
    if runs is not None and not 1 <= runs <= MAX_RUNS:
        raise InputError("--runs", runs, f"1 … {MAX_RUNS}")
    from jdr.fights.setup import build_setup

    simulation = simulation_of(system)
    if tactic is not None:
        tactic = tactic_named(simulation, tactic)  # refused before any work
    named_sides = sides or {}
    original = fighters
    if not as_is:
        fighters = fresh_fighters(system, fighters)
    setup = build_setup(system, fighters, {})
    changed = fighters
    for swap in swaps:
        changed = swapped(swap if as_is else fresh_fighters(system, [swap])[0], changed)
    for change in variant:
        changed = vary(change, changed)
    varied = build_setup(system, changed, {}) if variant or swaps else None
    with executor_for(workers, scheduler) as (executor, count):
        report = simulate(
            system,
            setup,
            runs=runs,
            seed=seed,
            executor=executor,
            workers=count,
            progress=progress,
            tactic=tactic,
        )
        report = replace(report, as_is=as_is)
        if varied is None:
            return with_sides(report, labels(original, report, named_sides))
        done = report.runs
        other = simulate(
            system,
            varied,
            runs=runs,
            seed=seed,
            executor=executor,
            workers=count,
            progress=(lambda more: progress(done + more)) if progress else None,
            tactic=tactic,
        )
    return with_sides(compare(report, other), labels(original, report, named_sides))
