"""Hashable keys for JSON data, so that work on a setup's data (validating a sheet) can be done
once per distinct data and remembered (`functools.lru_cache`).

`key(data)` is equal for two data only when they are the same JSON: the same keys in the same
order, the same texts, and numbers of the same type (`1`, `1.0` and `true` differ); `data(key)`
gives that JSON back. Anything else (a date, a tuple, a key that is not a text) has no key: None.

>>> sheet = {"name": "Pika", "stats": {"dexterity": 3}, "moves": [], "shiny": True, "rate": 0.5}
>>> data(key(sheet)) == sheet, key(sheet) == key(dict(sheet)), hash(key(sheet)) is not None
(True, True, True)
>>> key({"level": 1}) == key({"level": True}), key({"level": 1}) == key({"level": 1.0})
(False, False)
>>> key({"born": (1, 2)}) is None
True
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

_OBJECT, _ARRAY = "{}", "[]"


class _NotJsonError(Exception):
    """Raised inside `key` on a value that is no plain JSON."""


def key(value: Any) -> Hashable | None:
    """`value`'s key, or None when it is no plain JSON (dicts with text keys, lists, texts,
    whole numbers, floats, booleans, None)."""
    try:
        return _key(value)
    except _NotJsonError:
        return None


def data(frozen: Hashable) -> Any:
    """The JSON whose key is `frozen` (new dicts and lists)."""
    if isinstance(frozen, str):
        return frozen
    assert isinstance(frozen, tuple)
    tag, *items = frozen
    if tag == _OBJECT:
        return {name: data(item) for name, item in items}
    if tag == _ARRAY:
        return [data(item) for item in items]
    (scalar,) = items
    return float(scalar) if tag is float else scalar


def _key(value: Any) -> Hashable:
    kind = type(value)
    if kind is str:
        return value  # type: ignore[no-any-return]
    if kind is dict:
        if not all(type(name) is str for name in value):
            raise _NotJsonError
        return (_OBJECT, *((name, _key(item)) for name, item in value.items()))
    if kind is list:
        return (_ARRAY, *(_key(item) for item in value))
    if kind is float:
        return (float, repr(value))  # -0.0 and 0.0 differ; a NaN equals itself
    if kind in (int, bool, type(None)):
        return (kind, value)
    raise _NotJsonError
