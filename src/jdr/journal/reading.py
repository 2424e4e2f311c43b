"""Reading an exported journal piece by piece: a journal of any length, in bounded memory.

An export is one JSON object (`jdr journal export`). `pieces(handle)` reads it incrementally and
yields its top-level members in file order: `(key, value)` for a small member (`format`, `v`,
`epochs` …), and, for the long lists `entries`, `fights`, `sheets` and `snapshots`,
`(key, BEGIN)`, then `(key, ITEM)` once per item, then `(key, END)`, so a verifier keeps only
what its later checks need, never the file.
Whatever the layout — the one-item-a-line export jdr writes now, or the indented one it wrote
before — reads the same.

What stays bounded is one piece: an entry, an epoch or a sheet is at most `MAX_ENTRY_BYTES` of
text, a fight's stored log `MAX_FIGHT_BYTES`, any piece nests at most `jdr.bounded.MAX_NESTING`
levels (counted from the file's top) and its whole numbers at most `MAX_DIGITS` digits. The
file's length is not limited. Anything else is an `InputError` on `field` naming the place.

>>> import io
>>> text = '{"format": "jdr-journal", "v": 2, "entries": [{"seq": 1}, {"seq": 2}], "sheets": 3}'
>>> [(key, value) for key, value in pieces(io.BytesIO(text.encode()), "FILE", "j.json")]
... # doctest: +NORMALIZE_WHITESPACE
[('format', 'jdr-journal'), ('v', 2), ('entries', BEGIN), ('entries', {'seq': 1}),
 ('entries', {'seq': 2}), ('entries', END), ('sheets', 3)]
>>> list(pieces(io.BytesIO(b'{"entries": [' + b'[' * 40 + b']' * 40 + b']}'), "FILE", "j"))
Traceback (most recent call last):
...
jdr.errors.LimitError: FILE: 'j' (nested 42 deep; allowed: at most 32 levels of nesting)
"""

from __future__ import annotations

import codecs
import json
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from jdr.bounded import MAX_NESTING, size_text, whole_number
from jdr.errors import InputError, LimitError
from jdr.i18n import _

MAX_ENTRY_BYTES = 1024 * 1024
"""One entry (or epoch, or stored sheet) of an exported journal: 1 MiB of text, four times the
largest sheet (`jdr.bounded.MAX_SHEET_BYTES`) a creation entry holds."""
MAX_FIGHT_BYTES = 32 * 1024 * 1024
"""One fight's stored log in an export (`fights`): 32 MiB."""
STREAMED = ("entries", "fights", "sheets", "snapshots")
"""The members read one item at a time."""
CHUNK = 1 << 16


class _Mark:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


BEGIN: Any = _Mark("BEGIN")
"""Marks the start of a streamed list (a member that is not a list comes as its value)."""
END: Any = _Mark("END")
"""Marks the end of a streamed list."""

_SPACE = " \t\n\r"


def what() -> str:
    return _("the JSON of `jdr journal export`")


def open_input(source: str | Path, field: str) -> IO[bytes]:
    """File `source` opened for reading bytes (`-`: standard input); `InputError` if not."""
    label = str(source)
    if label == "-" and not isinstance(source, Path):
        binary = getattr(sys.stdin, "buffer", None)
        if binary is None:  # a text stream (a test's)
            import io

            return io.BytesIO(sys.stdin.read().encode("utf-8"))
        return binary  # type: ignore[no-any-return]
    try:
        return open(source, "rb")
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError(field, label, _("a readable journal file"), reason) from None


class _Text:
    """The file's text, decoded as it is read; `pos` is where reading stands in `buf`."""

    def __init__(self, handle: IO[bytes], field: str, label: str) -> None:
        self.handle, self.field, self.label = handle, field, label
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.buf, self.pos, self.eof = "", 0, False
        self.lines_before = 0  # newlines in the text dropped from `buf`
        self.json = json.JSONDecoder(parse_int=lambda digits: whole_number(digits, field, label))

    def more(self, size: int = CHUNK) -> bool:
        """Read more text; False at the end of the file."""
        if self.eof:
            return False
        try:
            data = self.handle.read(size)
        except OSError as error:
            reason = error.strerror or str(error)
            raise InputError(self.field, self.label, _("a readable journal file"), reason) from None
        try:
            text = self.decoder.decode(data, final=not data)
        except UnicodeDecodeError:
            raise InputError(self.field, self.label, what(), _("not UTF-8 text")) from None
        if self.pos > CHUNK:  # drop what was read already
            self.lines_before += self.buf.count("\n", 0, self.pos)
            self.buf, self.pos = self.buf[self.pos :], 0
        self.buf += text
        if not data:
            self.eof = True
        return bool(data) or bool(text)

    def skip_space(self) -> str:
        """The next character that is not white space ('' at the end of the file)."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _SPACE:
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.more():
                return ""

    def expect(self, chars: str) -> str:
        found = self.skip_space()
        if not found or found not in chars:
            raise self.syntax()
        self.pos += 1
        return found

    def value(self, limit: int, depth: int) -> Any:
        """The JSON value starting here, of at most `limit` characters, nested in `depth`
        levels already."""
        self.skip_space()
        size = CHUNK
        while True:
            try:
                found, end = self.json.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as error:
                cut = error.msg.startswith("Unterminated") or error.pos >= len(self.buf) - 8
                if self.eof or not cut:  # not a value cut short by the end of what was read
                    raise self.syntax(error.pos) from None
                found, end = None, -1
            except RecursionError:
                raise self._too_deep(MAX_NESTING + 1) from None
            # a value that reaches the end of what was read may go on (a number, a cut text)
            if end >= 0 and (end < len(self.buf) or self.eof):
                break
            if len(self.buf) - self.pos > limit:
                raise LimitError(
                    self.field,
                    self.label,
                    _("at most {size} a piece").format(size=size_text(limit)),
                    _("a piece larger than {size}").format(size=size_text(limit)),
                )
            self.more(size)  # at the end of the file, the next try names the place
            size = min(size * 2, limit + 1)
        if end - self.pos > limit:
            raise LimitError(
                self.field,
                self.label,
                _("at most {size} a piece").format(size=size_text(limit)),
                _("a piece larger than {size}").format(size=size_text(limit)),
            )
        deepest = depth + _depth(found)
        if deepest > MAX_NESTING:
            raise self._too_deep(deepest)
        self.pos = end
        return found

    def _too_deep(self, found: int) -> LimitError:
        return LimitError(
            self.field,
            self.label,
            _("at most {n} levels of nesting").format(n=MAX_NESTING),
            _("nested {n} deep").format(n=found),
        )

    def syntax(self, at: int | None = None) -> InputError:
        """The file is not JSON: where (line and column)."""
        place = self.pos if at is None else at
        line = self.lines_before + self.buf.count("\n", 0, place) + 1
        column = place - (self.buf.rfind("\n", 0, place) + 1) + 1
        reason = _("not JSON (line {line}, column {column})").format(line=line, column=column)
        return InputError(self.field, self.label, what(), reason)


def _depth(value: Any) -> int:
    """How many arrays and objects nest in `value` (0 for a text or a number), without
    recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in item)
    return deepest


def pieces(handle: IO[bytes], field: str, label: str) -> Iterator[tuple[str, Any]]:
    """The top-level members of the JSON object `handle` holds (see the module)."""
    text = _Text(handle, field, label)
    if text.skip_space() != "{":
        if text.skip_space() in '["-0123456789tfn' and text.skip_space():
            raise InputError(field, label, what(), _("not an object"))
        raise text.syntax()
    text.pos += 1
    if text.skip_space() == "}":
        text.pos += 1
    else:
        while True:
            key = text.value(MAX_ENTRY_BYTES, 1)
            if not isinstance(key, str):
                raise text.syntax()
            text.expect(":")
            if key in STREAMED and text.skip_space() == "[":
                text.pos += 1
                yield key, BEGIN
                limit = MAX_FIGHT_BYTES if key == "fights" else MAX_ENTRY_BYTES
                if text.skip_space() == "]":
                    text.pos += 1
                else:
                    while True:
                        yield key, text.value(limit, 2)
                        if text.expect(",]") == "]":
                            break
                yield key, END
            else:
                yield key, text.value(MAX_ENTRY_BYTES, 1)
            if text.expect(",}") == "}":
                break
    if text.skip_space():
        raise text.syntax()


def pieces_of(journal: Any) -> Iterator[tuple[str, Any]]:
    """The pieces `pieces` would read from a journal already in memory (a mapping)."""
    for key, value in journal.items():
        if key in STREAMED and isinstance(value, list):
            yield key, BEGIN
            for item in value:
                yield key, item
            yield key, END
        else:
            yield key, value


def export_lines(journal: Mapping[str, Any]) -> Iterator[str]:
    """The text `jdr journal export` writes for `journal`, line by line: one JSON object whose
    small members take a line each and whose long lists (`entries` …) put one item on a line,
    so a reader (or a person with `grep`) takes them one at a time.

    >>> print("".join(export_lines({"format": "jdr-journal", "entries": [{"seq": 1}, {"seq": 2}]})))
    {
    "format": "jdr-journal",
    "entries": [
    {"seq": 1},
    {"seq": 2}
    ]
    }
    <BLANKLINE>
    """
    yield "{\n"
    last = len(journal) - 1
    for index, (key, value) in enumerate(journal.items()):
        comma = "," if index < last else ""
        name = json.dumps(key, ensure_ascii=False)
        if key in STREAMED and isinstance(value, list) and value:
            yield f"{name}: [\n"
            end = len(value) - 1
            for number, item in enumerate(value):
                yield json.dumps(item, ensure_ascii=False) + ("," if number < end else "") + "\n"
            yield f"]{comma}\n"
        else:
            yield f"{name}: {json.dumps(value, ensure_ascii=False)}{comma}\n"
    yield "}\n"
