"""A small TOML writer: what a stored sheet is written as (`jdr sheet export`, `jdr sheet edit`).

TOML has no null: None values are left out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import date, datetime, time
from typing import Any

__all__ = ["to_toml"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f"}
_ESCAPES["\r"] = "\\r"


def to_toml(data: Mapping[str, Any]) -> str:
    """`data` (tables, lists, text, numbers, booleans, dates) as TOML text; None values are left
    out, TOML having no null.

    >>> print(to_toml({"name": "Kai", "stats": {"force": 3}, "moves": [{"name": "Éclair"}]}))
    name = "Kai"
    <BLANKLINE>
    [stats]
    force = 3
    <BLANKLINE>
    [[moves]]
    name = "Éclair"
    <BLANKLINE>
    """
    lines: list[str] = []
    _write_table(lines, [], data)
    return "\n".join(lines).lstrip("\n") + "\n"


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _write_table(lines: list[str], path: list[str], table: Mapping[str, Any]) -> None:
    tables: list[tuple[str, Any]] = []
    for key, value in table.items():
        if value is None:
            continue
        if (isinstance(value, Mapping) and value) or _is_table_array(value):
            tables.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in tables:
        inner = [*path, _key(key)]
        if isinstance(value, Mapping):
            lines += ["", f"[{'.'.join(inner)}]"]
            _write_table(lines, inner, value)
        else:
            for item in value:
                lines += ["", f"[[{'.'.join(inner)}]]"]
                _write_table(lines, inner, item)


def _key(key: Any) -> str:
    text = str(key)
    return text if _BARE_KEY.fullmatch(text) else _string(text)


def _string(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Mapping):
        items = (f"{_key(k)} = {_value(v)}" for k, v in value.items() if v is not None)
        return "{ " + ", ".join(items) + " }" if value else "{}"
    if isinstance(value, list | tuple):
        if any(v is None for v in value):
            raise ValueError("TOML has no null: a list cannot hold None")
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__}")
