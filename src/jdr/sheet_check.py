"""Which rule system a sheet belongs to, and checking a sheet against one.

A sheet file is a TOML table. Its system is the one given (`--system`, a campaign's), else the
one its `system` key names, else the one its `kind` key names (a kind is a key of a system's
`examples`, or its id), else the one whose sheet reader accepts it: every installed system is
tried, generically, so a plug-in's sheets are recognised like the built-ins'.

>>> import tomllib
>>> from jdr.systems import default_registry
>>> systems = installed(default_registry())
>>> hero = tomllib.loads(systems_example("plus-ultra", "hero"))
>>> [system.id for system in accepting(hero, systems)]
['plus-ultra']
>>> try:
...     check_sheet(hero, "hero.toml", default_registry().get("pokemon"), systems)
... except WrongSystemError as error:
...     print(error.message())
hero.toml: this sheet is for plus-ultra, not pokemon
"""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jdr.errors import InputError, JdrError, UnknownNameError
from jdr.i18n import _
from jdr.names import check_names
from jdr.sheets import SheetError, validate_sheet

if TYPE_CHECKING:
    from pydantic import BaseModel

    from jdr.systems import Registry
    from jdr.systems.protocol import RuleSystem

__all__ = [
    "SYSTEM_KEY",
    "Found",
    "UnrecognisedSheetError",
    "WrongSystemError",
    "accepting",
    "check_sheet",
    "declared_system",
    "example_text",
    "find_system",
    "installed",
    "sheet_of",
]

SYSTEM_KEY = "system"
"""A sheet's own top-level key naming its system (`system = "pokemon"`); readers never see it."""

Table = dict[str, Any]


class WrongSystemError(InputError):
    """A sheet of another system than the one asked for (or its campaign's)."""

    code = "wrong_system"

    def __init__(
        self, label: str, found: Sequence[str], expected: str, campaign: str | None = None
    ) -> None:
        reason = _reason(found, expected, campaign)
        super().__init__(SYSTEM_KEY, " | ".join(found), expected, reason)
        self.label = label
        self.found = tuple(found)
        self.campaign = campaign

    def message(self) -> str:
        reason = _reason(self.found, str(self.allowed), self.campaign)
        return (
            _("{source}: {text}").format(source=self.label, text=reason) if self.label else reason
        )


def _reason(found: Sequence[str], expected: str, campaign: str | None) -> str:
    systems = _(" or ").join(found)
    if campaign is not None:
        return _("this sheet is for {found}; campaign {campaign} plays {system}").format(
            found=systems, campaign=campaign, system=expected
        )
    return _("this sheet is for {found}, not {system}").format(found=systems, system=expected)


class UnrecognisedSheetError(SheetError):
    """No installed system accepts the sheet: the problems it has for the closest one."""

    code = "unrecognised_sheet"

    def __init__(self, closest: SheetError, system: str) -> None:
        super().__init__(closest.problems, closest.source)
        self.system = system

    def message(self) -> str:
        head = _(
            "no installed rule system accepts this sheet (give --system ID); the closest is"
            " {system}:"
        ).format(system=self.system)
        if self.source:
            head = _("{source}: {text}").format(source=self.source, text=head)
        if len(self.problems) == 1:
            return f"{head} {self.problems[0].message()}"
        return "\n".join([head, *(f"  {problem.message()}" for problem in self.problems)])


@dataclass(frozen=True)
class Found:
    """A sheet found to be of `system`, and how: `option`, `system` (its key), `kind` (its key) or
    `fields` (the only reader that accepts it)."""

    system: RuleSystem
    sheet: BaseModel
    how: str


def installed(registry: Registry) -> list[RuleSystem]:
    """The installed systems that load (a broken plug-in is left out, not fatal here)."""
    systems = []
    for system_id in registry.ids():
        try:
            systems.append(registry.get(system_id))
        except JdrError:
            continue
    return systems


def sheet_of(system: RuleSystem, data: Mapping[str, Any], label: str = "") -> BaseModel:
    """`data` (a sheet's table, without its `system` key) validated by `system`'s sheet reader.

    `SheetError` lists every problem; a system without sheets is an `InputError`. Every `name`
    in the sheet (its own, a Pokémon's, a move's …) follows the rule of names
    (`jdr.names.check_name`): no control character, at most `MAX_NAME` characters.
    """
    table = {key: value for key, value in data.items() if key != SYSTEM_KEY}
    reader = getattr(system, "sheet_of", None)
    sheet: BaseModel
    if reader is not None:
        sheet = reader(table, label)
    elif system.sheet is None:
        raise InputError("--system", system.id, "-", _("this rule system has no character sheet"))
    else:
        sheet = validate_sheet(system.sheet, table, label)
    problems = check_names(sheet.model_dump(mode="json"))  # one rule for every name
    if problems:
        raise SheetError(problems, label)
    return sheet


def accepting(data: Mapping[str, Any], systems: Sequence[RuleSystem]) -> list[RuleSystem]:
    """The systems among `systems` whose sheet reader accepts `data`."""
    return [system for system in systems if _problems(system, data) == 0]


def check_sheet(
    data: Mapping[str, Any],
    label: str,
    system: RuleSystem,
    systems: Sequence[RuleSystem] | Callable[[], Sequence[RuleSystem]],
    campaign: str | None = None,
) -> BaseModel:
    """`data` as a sheet of `system` (a campaign's, or the one asked for).

    A sheet whose `system` key names another system, or that `system` refuses while another of
    `systems` accepts it, is a `WrongSystemError` saying which it is; else `system`'s problems.
    `systems` may be a function giving them: it is called only when they are needed (a sheet
    with a `system` key, or refused), so a good sheet loads no other plug-in.
    """
    if SYSTEM_KEY in data:
        declared = declared_system(data, _listed(systems))
        if declared is not None and declared.id != system.id:
            raise WrongSystemError(label, [declared.id], system.id, campaign)
    try:
        return sheet_of(system, copy.deepcopy(data), label)
    except JdrError as error:
        others = [other for other in _listed(systems) if other.id != system.id]
        found = accepting(data, others)
        if found:
            raise WrongSystemError(label, [s.id for s in found], system.id, campaign) from None
        raise error from None


def _listed(
    systems: Sequence[RuleSystem] | Callable[[], Sequence[RuleSystem]],
) -> Sequence[RuleSystem]:
    return systems() if callable(systems) else systems


def find_system(data: Mapping[str, Any], label: str, systems: Sequence[RuleSystem]) -> Found:
    """The system of a sheet given without one: its `system` key, its `kind`, else the system
    whose reader accepts it (`UnrecognisedSheetError`: none does)."""
    declared = declared_system(data, systems)
    if declared is not None:
        how = SYSTEM_KEY if SYSTEM_KEY in data else "kind"
        return Found(declared, check_sheet(data, label, declared, systems), how)
    tried = []
    for system in systems:
        if system.sheet is None and getattr(system, "sheet_of", None) is None:
            continue
        try:
            return Found(system, sheet_of(system, copy.deepcopy(data), label), "fields")
        except JdrError as error:
            tried.append((_count(error), system, error))
    if not tried:
        raise InputError("--system", None, "-", _("no installed rule system has sheets"))
    _fewest, closest, refused = min(tried, key=lambda item: item[0])
    if isinstance(refused, SheetError):
        raise UnrecognisedSheetError(refused, closest.id)
    raise UnrecognisedSheetError(SheetError([_as_input(refused)], label), closest.id)


def declared_system(data: Mapping[str, Any], systems: Sequence[RuleSystem]) -> RuleSystem | None:
    """The system the sheet's `system` key names (an unknown one is refused), else the one
    system whose id or example kind is its `kind`, else None."""
    if SYSTEM_KEY in data:
        named = _fold(str(data[SYSTEM_KEY]))
        for system in systems:
            if named in {_fold(system.id), *(_fold(name) for name in system.names.values())}:
                return system
        raise UnknownNameError(_("system"), str(data[SYSTEM_KEY]), [s.id for s in systems])
    kind = data.get("kind")
    if isinstance(kind, str):
        owners = [
            system
            for system in systems
            if _fold(kind) in {_fold(system.id), *map(_fold, getattr(system, "examples", {}))}
        ]
        if len(owners) == 1:
            return owners[0]
    return None


def _problems(system: RuleSystem, data: Mapping[str, Any]) -> int:
    """How many problems `system`'s reader finds in `data` (0: it accepts it)."""
    if system.sheet is None and getattr(system, "sheet_of", None) is None:
        return -1
    try:
        sheet_of(system, copy.deepcopy(data))
    except JdrError as error:
        return _count(error)
    return 0


def _count(error: JdrError) -> int:
    return len(getattr(error, "problems", ())) or 1


def _as_input(error: JdrError) -> InputError:
    if isinstance(error, InputError):
        return error
    return InputError(_("sheet"), None, "-", error.message())


def _fold(text: str) -> str:
    """Case and accents left out: `Pokémon` → `pokemon`."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def example_text(system: RuleSystem, kind: str | None = None) -> tuple[str, str]:
    """The example sheet of `kind` (None: the system's first) that `system` ships, as
    `(kind, TOML text)`; an unknown kind lists the known ones.

    >>> from jdr.systems import default_registry
    >>> kind, text = example_text(default_registry().get("pokemon"), "trainer")
    >>> kind, 'kind = "trainer"' in text
    ('trainer', True)
    """
    examples: Mapping[str, Any] = getattr(system, "examples", {}) or {}
    if not examples:
        raise InputError("SYSTEM", system.id, "-", _("this rule system ships no example sheet"))
    if kind is None:
        kind = next(iter(examples))
    elif kind not in examples:
        folded = {_fold(name): name for name in examples}
        if _fold(kind) not in folded:
            raise UnknownNameError(_("example"), kind, list(examples))
        kind = folded[_fold(kind)]
    text: str = examples[kind].read_text(encoding="utf-8")
    return kind, text


def systems_example(system_id: str, kind: str) -> str:
    """An installed system's example sheet, as TOML text (for examples and tests)."""
    from jdr.systems import default_registry

    return example_text(default_registry().get(system_id), kind)[1]
