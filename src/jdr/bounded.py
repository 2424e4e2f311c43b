"""Reading what a user hands jdr — a sheet, a journal, a witness page — within limits checked
before any parsing.

A file or standard input (`-`) is read up to its kind's maximum plus one byte: `/dev/zero`, an
endless pipe or a 2 GB file is refused after reading that much, never loaded whole. The text's
nesting (brackets, braces and, in TOML, dotted keys) is measured by one linear scan before a
parser sees it, so a parser never recurses past `MAX_NESTING`. Numbers longer than
`MAX_DIGITS` digits are refused where a parser would turn them into integers.

The documented maxima (README, "Limits"):

>>> MAX_SHEET_BYTES, MAX_TEXT_BYTES, MAX_NESTING, MAX_DIGITS
(262144, 16777216, 32, 30)
>>> MAX_BACKUP_BYTES
33554432
>>> nesting('{"a": [[1, {"b": "[[["}]]]}', "json")
4
>>> nesting("a.b.c = 1\\nx = [[1.5], {y.z = 2}]", "toml")
3
>>> loads_json('{"n": 12}', "FILE", "j.json")
{'n': 12}
>>> loads_json("[" * 40 + "]" * 40, "FILE", "j.json")
Traceback (most recent call last):
...
jdr.errors.LimitError: FILE: 'j.json' (nested 40 deep; allowed: at most 32 levels of nesting)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, BinaryIO

from jdr.errors import InputError, LimitError
from jdr.i18n import _

MAX_SHEET_BYTES = 256 * 1024
"""A character sheet (TOML): 256 KiB, a hundred times the largest example sheet."""
MAX_BACKUP_BYTES = 32 * 1024 * 1024
"""A campaign's backup (JSON) given to `jdr campaign import`: 32 MiB, about 45,000 dice rolls
with their fights and sheets; `jdr campaign export` refuses to write one it could not read
back. (An exported journal has no size limit: `jdr verify` reads it piece by piece, each piece
limited, `jdr.journal.reading`.)"""
MAX_TEXT_BYTES = 16 * 1024 * 1024
"""A witness (a saved recap or forum page) given to `jdr verify --witness`: 16 MiB."""
MAX_NESTING = 32
"""Brackets, braces and dotted-key levels one inside the other (a sheet uses 3, a journal 6)."""
MAX_DIGITS = 30
"""Digits of one whole number in a sheet, a journal or a list of faces."""


def read_bytes(source: str | Path, limit: int, field: str, what: str) -> bytes:
    """The bytes of file `source` (`-`: standard input), refused (`LimitError`) past `limit`
    bytes and (`InputError`) when unreadable; `field` names the input, `what` what it should be.
    """
    label = str(source)
    try:
        if label == "-" and not isinstance(source, Path):
            binary = getattr(sys.stdin, "buffer", None)
            if binary is None:  # a text stream (a test's): characters bound the bytes below
                return _cap(sys.stdin.read(limit + 1).encode("utf-8"), limit, field, label)
            return _read_capped(binary, limit, field, label)
        with open(source, "rb") as handle:
            return _read_capped(handle, limit, field, label)
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError(field, label, what, reason) from None


def _read_capped(handle: BinaryIO, limit: int, field: str, label: str) -> bytes:
    return _cap(handle.read(limit + 1), limit, field, label)


def _cap(data: bytes, limit: int, field: str, label: str) -> bytes:
    if len(data) > limit:
        raise LimitError(
            field,
            label,
            _("at most {size}").format(size=size_text(limit)),
            _("larger than {size}").format(size=size_text(limit)),
        )
    return data


def read_text(source: str | Path, limit: int, field: str, what: str) -> str:
    """`read_bytes` decoded as UTF-8 (`InputError` if it is not UTF-8 text)."""
    data = read_bytes(source, limit, field, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(field, str(source), what, _("not UTF-8 text")) from None


def size_text(limit: int) -> str:
    if limit % (1024 * 1024) == 0:
        return _("{n} MiB").format(n=limit // (1024 * 1024))
    return _("{n} KiB").format(n=limit // 1024)


def nesting(text: str, syntax: str) -> int:
    """How deep `text` nests (`syntax` "json" or "toml"): brackets and braces outside strings,
    plus, in TOML, the dots of a dotted key. One pass, no recursion; comments are skipped."""
    depth = deepest = dots = 0
    quote = ""
    i, n = 0, len(text)
    toml = syntax == "toml"
    while i < n:
        char = text[i]
        if quote:
            if char == "\\" and quote in ('"', '"""'):
                i += 2
                continue
            if text.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
            i += 1
            continue
        if char in "\"'":
            quote = char * 3 if toml and text.startswith(char * 3, i) else char
            i += len(quote)
            continue
        if toml and char == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if char in "[{":
            depth += 1
            dots = 0
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif toml and char == ".":
            dots += 1
        elif char in "=,\n":
            dots = 0
        deepest = max(deepest, depth + dots)
        i += 1
    return deepest


def check_nesting(text: str, syntax: str, field: str, label: str) -> None:
    """Refuse (`LimitError`) `text` nested deeper than `MAX_NESTING`, before it is parsed."""
    found = nesting(text, syntax)
    if found > MAX_NESTING:
        raise LimitError(
            field,
            label,
            _("at most {n} levels of nesting").format(n=MAX_NESTING),
            _("nested {n} deep").format(n=found),
        )


def whole_number(text: str, field: str, label: str) -> int:
    """`int(text)` for at most `MAX_DIGITS` digits, else `LimitError` (never Python's own
    "Exceeds the limit … integer string conversion")."""
    digits = len(text.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise too_many_digits(field, label, digits)
    return int(text)


def check_value(value: Any, field: str, label: str, digits: bool = True) -> None:
    """Refuse (`LimitError`) a parsed value (a JSON or TOML value typed on a command line)
    nested deeper than `MAX_NESTING`, or, with `digits`, holding a whole number of more than
    `MAX_DIGITS` digits. One walk with a stack: no recursion, whatever the value.

    >>> check_value({"a": [1, 2]}, "FIELD", "x")
    >>> check_value([10**30], "FIELD", "x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    jdr.errors.LimitError: FIELD: 'x' (a number of 31 digits; allowed: ...)
    """
    stack = [(value, 0)]
    deepest = 0
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((inner, depth + 1) for inner in item.values())
        elif isinstance(item, list):
            stack.extend((inner, depth + 1) for inner in item)
        elif digits and isinstance(item, int) and abs(item) >= 10**MAX_DIGITS:
            raise too_many_digits(field, label, len(str(abs(item))))
    if deepest > MAX_NESTING:
        raise LimitError(
            field,
            label,
            _("at most {n} levels of nesting").format(n=MAX_NESTING),
            _("nested {n} deep").format(n=deepest),
        )


def too_many_digits(field: str, label: str, digits: int) -> LimitError:
    """The `LimitError` of a whole number of `digits` digits, past `MAX_DIGITS`."""
    return LimitError(
        field,
        label,
        _("whole numbers of at most {n} digits").format(n=MAX_DIGITS),
        _("a number of {n} digits").format(n=digits),
    )


def longest_number(text: str) -> int:
    """The digits of the longest number written in `text` (`_` between digits not counted), to
    say how long a number a parser refused was.

    >>> longest_number("x = [12, 1_000_000]")
    7
    """
    import re

    runs = re.findall(r"\d[\d_]*", text)
    return max((len(run.replace("_", "")) for run in runs), default=0)


def loads_json(text: str, field: str, label: str) -> Any:
    """`json.loads(text)` with its nesting and its whole numbers bounded (see the module);
    a syntax error is left to the caller (`json.JSONDecodeError`)."""
    check_nesting(text, "json", field, label)
    return json.loads(text, parse_int=lambda digits: whole_number(digits, field, label))
