"""A commented sheet template to fill in (`jdr sheet new SYSTEM [KIND]`), for any system.

The template is the system's sheet model walked field by field: each field gets a comment saying
what it is and what it takes (its description, the allowed values, its default), in the reader's
language. The values are the shipped example's, so the template validates as it is: replace them.
Optional fields the example leaves out are written commented out, with their default, ready to
uncomment. A plug-in's sheets get the same template, from its own model and example.

>>> from jdr.systems import default_registry
>>> text = template(default_registry().get("plus-ultra"), "hero")
>>> print(text.splitlines()[3])
system = "plus-ultra"
>>> "rank = " in text and "# techniques" in text
True
"""

from __future__ import annotations

import tomllib
import typing
from collections.abc import Mapping
from types import UnionType
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from jdr.errors import JdrError
from jdr.i18n import _
from jdr.params import describe_allowed, is_list
from jdr.systems.protocol import RuleSystem, display_name
from jdr.toml_syntax import syntax_error
from jdr.toml_write import to_toml

__all__ = ["template"]


def template(system: RuleSystem, kind: str | None = None) -> str:
    """The commented template of `system`'s sheet of `kind` (default: its first example)."""
    from jdr.i18n import current_language
    from jdr.sheet_check import SYSTEM_KEY, example_text, sheet_of

    shown, text = example_text(system, kind)
    try:
        example = tomllib.loads(text)
        model = type(sheet_of(system, example, f"{shown}.toml"))
    except tomllib.TOMLDecodeError as error:  # a plug-in's mistake, said as the plug-in's
        raise _broken(system, shown, syntax_error(error, text, f"{shown}.toml")) from None
    except JdrError as error:
        raise _broken(system, shown, error) from None
    lines = [
        _("# A new {system} sheet ({kind}).").format(
            system=display_name(system, current_language()), kind=shown
        ),
        _("# Each field says what it takes; the values are the example's: replace them."),
        _("# Check it with `jdr sheet validate FILE`, store it with `jdr sheet add FILE`."),
        f"{SYSTEM_KEY} = {_value(system.id)}",
    ]
    _write(lines, model, example, [])
    return "\n".join(lines) + "\n"


def _broken(system: RuleSystem, kind: str, error: JdrError) -> JdrError:
    """The error of a system whose example sheet `kind` is no sheet of its own (not TOML, or
    refused by its model): the plug-in is to fix, not the user's command."""
    from jdr.systems import PluginError

    problem = _("its example sheet {kind} is not a valid sheet: {problem}").format(
        kind=kind, problem=error.message()
    )
    return PluginError(system.id, problem)


def _write(
    lines: list[str], model: type[BaseModel], values: Mapping[str, Any], path: list[str]
) -> None:
    """The model's plain fields first, then its tables and lists of tables (TOML's order)."""
    later: list[tuple[str, FieldInfo, type[BaseModel] | None, bool]] = []
    for name, info in model.model_fields.items():
        inner, many = _table_of(info.annotation)
        if inner is not None or (_is_mapping(info.annotation) and values.get(name)):
            later.append((name, info, inner, many))
            continue
        lines.append(_comment(name, info))
        if name in values:
            lines.append(f"{_key(name)} = {_value(values[name])}")
        else:
            lines.append(f"# {_key(name)} = {_default(info)}")
    for name, info, inner, many in later:
        key = ".".join([*path, _key(name)])
        lines.append("")
        lines.append(_comment(name, info))
        if inner is None:  # a table of free names (skills, potentials …)
            lines.append(f"[{key}]")
            lines += to_toml(dict(values[name])).rstrip("\n").splitlines()
        elif not many:
            lines.append(f"[{key}]" if name in values else f"# [{key}]")
            _write(lines, inner, values.get(name) or {}, [*path, _key(name)])
        elif values.get(name):
            for item in values[name]:
                lines.append(f"[[{key}]]")
                _write(lines, inner, item, [*path, _key(name)])
        else:
            lines.append(f"# [[{key}]]")
            for field_name, field_info in inner.model_fields.items():
                lines.append(f"# {_key(field_name)} = {_default(field_info)}")


def _comment(name: str, info: FieldInfo) -> str:
    parts = [_(info.description)] if info.description else []
    allowed = _("a list") if is_list(info) else describe_allowed(info)
    if allowed:
        parts.append(allowed)
    if info.is_required():
        parts.append(_("required"))
    return f"# {name}" + (f": {'; '.join(parts)}" if parts else "")


def _default(info: FieldInfo) -> str:
    if info.is_required():
        return "…"
    value = info.get_default(call_default_factory=True)
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    return "…" if value is None else _value(value)


def _value(value: Any) -> str:
    """A plain value as TOML writes it after `key = `."""
    return to_toml({"v": value}).split(" = ", 1)[1].strip()


def _key(name: str) -> str:
    return to_toml({name: 0}).split(" = ", 1)[0]


def _table_of(annotation: Any) -> tuple[type[BaseModel] | None, bool]:
    """The model a field holds (`(Model, False)`), or a list of (`(Model, True)`), else None."""
    bare = _bare(annotation)
    if isinstance(bare, type) and issubclass(bare, BaseModel):
        return bare, False
    if typing.get_origin(bare) in (list, tuple):
        args = typing.get_args(bare)
        item = _bare(args[0]) if args else None
        if isinstance(item, type) and issubclass(item, BaseModel):
            return item, True
    return None, False


def _is_mapping(annotation: Any) -> bool:
    return typing.get_origin(_bare(annotation)) is dict


def _bare(annotation: Any) -> Any:
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) in (typing.Union, UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return _bare(args[0])
    return annotation
