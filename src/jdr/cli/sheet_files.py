"""What `jdr sheet validate|add|example` read and print: a sheet file checked against its system
(given, its campaign's, or recognised), its problems one per line, the shipped examples.

No `from __future__ import annotations` here, like the other command modules.
"""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from jdr.cli.render import console, emit_json, jsonable
from jdr.cli.stored import JSON_HELP, LANG_HELP, OUTPUT_HELP, deliver
from jdr.errors import InputError
from jdr.i18n import N_, _

if TYPE_CHECKING:  # pydantic and the systems load only when a command runs
    from pydantic import BaseModel

    from jdr.systems.protocol import RuleSystem

__all__ = [
    "add_example_command",
    "example_name",
    "print_example",
    "read_sheet",
    "shown_system",
    "validate_command",
    "validate_file",
]

Json = dict[str, Any]

# How `sheet validate` knew the system, when no --system was given (`Found.how`).
_FOUND_BY = {
    "system": N_("{file}: OK ({system} sheet {name}, as its `system` key says)"),
    "kind": N_("{file}: OK ({system} sheet {name}, recognised by its `kind` key)"),
    "fields": N_(
        "{file}: OK ({system} sheet {name}, recognised: no --system given, the {system} rules"
        " accept it)"
    ),
}


def read_sheet(file: Path) -> tuple[dict[str, Any], str]:
    """The table a TOML sheet file holds and its label (a syntax error says where)."""
    from jdr.sheets import read_toml

    return read_toml(Path(file))


def validate_file(system: "RuleSystem", file: Path | str) -> "BaseModel":
    """The TOML sheet `file` validated by `system` (`SheetError` lists every problem)."""
    from jdr.sheet_check import sheet_of

    data, label = read_sheet(Path(file))
    return sheet_of(system, data, label)


def validate_command(file: Path, system_id: str | None, json: bool) -> None:
    """`jdr sheet validate FILE [--system ID]`: OK, or every problem (exit 2)."""
    from jdr.sheet_check import (
        SYSTEM_KEY,
        Found,
        check_sheet,
        declared_system,
        find_system,
        installed,
    )
    from jdr.sheets import SheetError
    from jdr.systems import default_registry

    registry = default_registry()
    target = registry.get(system_id) if system_id is not None else None
    how = "option"
    try:
        data, label = read_sheet(file)
        if target is None:  # the sheet's system key, or its kind
            target = declared_system(data, installed(registry))
            how = SYSTEM_KEY if SYSTEM_KEY in data else "kind"
        if target is not None:
            chosen = target

            def systems() -> "list[RuleSystem]":  # loaded only for a sheet refused or keyed
                return _others(chosen, installed(registry))

            found = Found(target, check_sheet(data, label, target, systems), how)
        else:
            found = find_system(data, label, installed(registry))
    except InputError as error:
        if not json:
            raise
        problems = error.problems if isinstance(error, SheetError) else (error,)
        system = getattr(error, "system", None) or (target.id if target else None)
        emit_json(
            {
                "valid": False,
                "system": system,
                "file": str(file),
                "problems": [_problem_json(problem) for problem in problems],
                "recognised": list(getattr(error, "found", ())),
                "error": {"code": error.code, "message": error.message()},
            }
        )
        raise typer.Exit(2) from None
    name = sheet_name(found.sheet, file)
    if json:
        emit_json(
            {
                "valid": True,
                "system": found.system.id,
                "system_from": found.how,
                "file": str(file),
                "name": name,
                "problems": [],
            }
        )
        return
    template = _FOUND_BY.get(found.how, N_("{file}: OK ({system} sheet {name})"))
    system_name = shown_system(found.system)
    console().print(_(template).format(file=file, system=system_name, name=name), markup=False)


def add_example_command(app: typer.Typer) -> None:
    """`jdr sheet example SYSTEM [KIND] [--output FILE|-]`, added to the `sheet` group."""

    @app.command(
        "example",
        help=_("Print an example sheet that a rule system ships (KIND: one of its examples)."),
    )
    def example_command(
        system: Annotated[str, typer.Argument(metavar="SYSTEM", help=_("The rule system's id."))],
        kind: Annotated[
            str | None,
            typer.Argument(
                metavar="[KIND]", help=_("Which example (default: the first)."), show_default=False
            ),
        ] = None,
        output: Annotated[
            Path | None, typer.Option("--output", metavar="FILE", help=_(OUTPUT_HELP))
        ] = None,
        json: Annotated[bool, typer.Option("--json", help=_(JSON_HELP))] = False,
        lang: Annotated[
            str | None, typer.Option("--lang", metavar="fr|en", help=_(LANG_HELP))
        ] = None,
    ) -> None:
        print_example(system, kind, output, json)


def print_example(system_id: str, kind: str | None, output: Path | None, json: bool) -> None:
    """`jdr sheet example SYSTEM [KIND] [--output FILE|-]`."""
    from jdr.sheet_check import example_text
    from jdr.systems import default_registry

    system = default_registry().get(system_id)
    shown, text = example_text(system, kind)
    kinds = list(getattr(system, "examples", {}))
    payload = {"system": system.id, "kind": shown, "kinds": kinds}
    deliver(
        text,
        output,
        json,
        payload,
        lambda file: _("example sheet of {name} ({system}) written to {file}").format(
            name=example_name(text, shown), system=shown_system(system), file=file
        ),
    )


def shown_system(system: "RuleSystem") -> str:
    """A system as a reader names it in a sentence: its short name, the part of its display name
    before a comma (`Polédémos, escarmouche` → `Polédémos`); a name without one is a
    description (`Polédémos skirmish`), so the game's own name then comes from the French name,
    the game's language, when that one has a comma; else the name as it is (`Shadows`)."""
    from jdr.i18n import current_language
    from jdr.systems.protocol import display_name

    shown = display_name(system, current_language())
    if "," not in shown and "," in system.names.get("fr", ""):
        shown = system.names["fr"]
    return shown.split(",")[0].strip()


def example_name(text: str, kind: str) -> str:
    """Whose sheet an example is (its `name`: `Section Perry`), not the id it is asked by
    (`warband`); the id when the example has no name."""
    import tomllib

    try:
        name = tomllib.loads(text).get("name")
    except tomllib.TOMLDecodeError:
        name = None
    return name if isinstance(name, str) and name.strip() else kind


def sheet_name(sheet: "BaseModel", file: Path | str) -> str:
    """The sheet's `name`, else the file's stem."""
    name = getattr(sheet, "name", None)
    return name if isinstance(name, str) and name.strip() else Path(file).stem


def _others(system: "RuleSystem", systems: "list[RuleSystem]") -> "list[RuleSystem]":
    """`systems` with `system` in it (it may be a plug-in given directly, not installed)."""
    return systems if any(s.id == system.id for s in systems) else [system, *systems]


def _problem_json(problem: InputError) -> Json:
    shown: Json = {
        "field": problem.field,
        "value": jsonable(_plain(problem.value)),
        "allowed": problem.allowed,
        "reason": problem.reason,
        "message": problem.message(),
    }
    for key in ("line", "column"):
        if hasattr(problem, key):
            shown[key] = getattr(problem, key)
    return shown


def _plain(value: Any) -> Any:
    """A value JSON can hold (a problem's value may be anything the TOML gave)."""
    import json as jsonlib

    try:
        jsonlib.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value
