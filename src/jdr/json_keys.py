"""Hashable keys for JSON data, so that work on a setup's data (validating a sheet) can be done
once per distinct data and remembered (`functools.lru_cache`): a simulation starts thousands of
fights from one setup (Pokémon and Passion fights key their setups this way).

`key(data)` is `data` written by `marshal` (format 2: no shared references), which writes only
Python's own types, each exactly: two data have the same key only when they are the same, with
the same keys in the same order and numbers of the same type (`1`, `1.0` and `True` differ, so do
a list and a tuple). Data holding anything else (a date, an enum, a subclass of dict or str) has
no key: None. `data(key)` loads the data back, a new copy of it. (A bytes-like object is written
as bytes, which JSON data never holds.)

>>> sheet = {"name": "Pika", "stats": {"dexterity": 3}, "moves": [], "shiny": True, "rate": 0.5}
>>> data(key(sheet)) == sheet, key(sheet) == key(dict(sheet)), data(key(sheet)) is sheet
(True, True, False)
>>> key({"level": 1}) == key({"level": True}), key({"level": 1}) == key({"level": 1.0})
(False, False)
>>> import datetime
>>> key({"born": datetime.date(2020, 1, 1)}) is None
True
"""

from __future__ import annotations

import marshal
from typing import Any

FORMAT = 2
"""`marshal`'s format 2 writes every object in full, where later formats may write a reference
to an object met before (depending on how many references to it there are)."""


def key(value: Any) -> bytes | None:
    """`value`'s key, or None when `marshal` refuses it."""
    try:
        return marshal.dumps(value, FORMAT)
    except ValueError:
        return None


def data(frozen: bytes) -> Any:
    """The data whose key is `frozen` (new dicts and lists)."""
    return marshal.loads(frozen)


def copy(value: Any) -> Any:
    """A copy of JSON data (new dicts and lists, the rest shared): loaded from its key, far
    faster than `copy.deepcopy`, or copied container by container when it has none.

    >>> moves = [{"name": "Éclair", "energy": 1}]
    >>> copied = copy(moves)
    >>> copied == moves, copied[0] is moves[0]
    (True, False)
    """
    frozen = key(value)
    if frozen is not None:
        return data(frozen)
    return _copy_containers(value)


def _copy_containers(value: Any) -> Any:
    if isinstance(value, dict):
        return {name: _copy_containers(item) for name, item in value.items()}
    if isinstance(value, list):
        return [_copy_containers(item) for item in value]
    return value
