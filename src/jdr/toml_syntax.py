"""A TOML syntax error said where it is (line, column) and how it is usually fixed.

`tomllib` says what it expected, in English, at a position; this module turns that into the
project's words, in the reader's language, and looks at the line itself for the usual mistakes:

>>> import tomllib
>>> def said(text: str) -> None:
...     try:
...         tomllib.loads(text)
...     except tomllib.TOMLDecodeError as error:
...         print(syntax_error(error, text, "hero.toml").message())
>>> said('name = "Kai"\\nVolonté = 3')  # doctest: +NORMALIZE_WHITESPACE
hero.toml, line 2, column 7: a key must be followed by =
(a key with accents or spaces must be quoted: "Volonté" = 3)
>>> said("rank = C")
hero.toml, line 1, column 8: not a TOML value (a text must be quoted: rank = "C")
>>> said("energy = 3,5")  # doctest: +NORMALIZE_WHITESPACE
hero.toml, line 1, column 11: something follows the value on the same line
(decimals take a point: energy = 3.5)
"""

from __future__ import annotations

import re
import tomllib

from jdr.errors import InputError
from jdr.i18n import N_, _

__all__ = ["TomlSyntaxError", "syntax_error"]

_WHERE = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)\s*$")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_BARE_WORD = re.compile(r"[^\W\d][\w .'’-]*")
_COMMA_DECIMAL = re.compile(r"[+-]?\d+,\d+")

# tomllib's messages (their start) in the project's words.
_PROBLEMS = (
    ("Expected '=' after a key", N_("a key must be followed by =")),
    ("Invalid value", N_("not a TOML value")),
    ("Invalid statement", N_("not a line of TOML")),
    ("Expected newline or end of document", N_("something follows the value on the same line")),
    ("Unterminated string", N_("a text is not closed by its quote")),
    ("Cannot overwrite a value", N_("a key is given twice")),
    ("Cannot declare", N_("a table is declared twice")),
    ("Unclosed array", N_("a list is not closed by ]")),
    ("Unclosed inline table", N_("an inline table is not closed by }")),
    ("Expected ']]'", N_("a [[table]] header is not closed by ]]")),
    ("Expected ']'", N_("a [table] header is not closed by ]")),
    ("Invalid initial character for a key part", N_("a key cannot start this way")),
    ("Illegal character", N_("a character not allowed here")),
)


class TomlSyntaxError(InputError):
    """A file that is not valid TOML: where (`line`, `column`), what is wrong, the usual fix.

    As an `InputError`: `field` is the file, `value` the line's text, `allowed` the hint.
    """

    code = "invalid_toml"

    def __init__(
        self, label: str, line: int, column: int, problem: str, hint: str, text: str
    ) -> None:
        super().__init__(label, text, hint or "TOML", problem)
        self.line = line
        self.column = column
        self.problem = problem
        self.hint = hint
        self.args = (self.message(),)

    def message(self) -> str:
        where = _("{file}, line {line}, column {column}: {problem}").format(
            file=self.field, line=self.line, column=self.column, problem=self.problem
        )
        return f"{where} ({self.hint})" if self.hint else where


def syntax_error(error: tomllib.TOMLDecodeError, text: str, label: str) -> TomlSyntaxError:
    """`error` from `tomllib.loads(text)` as a `TomlSyntaxError` naming `label` (the file)."""
    raw = str(error)
    found = _WHERE.search(raw)
    lines = text.splitlines() or [""]
    if found and found.group(1):
        line, column = int(found.group(1)), int(found.group(2))
    else:  # at the end of the document: its last line
        line, column = len(lines), len(lines[-1]) + 1
    detail = raw[: found.start()] if found else raw
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    if detail.startswith("Illegal character") and _uncomment(source).count('"') % 2:
        detail = "Unterminated string"  # the line's end, inside a text that was never closed
    problem = next((_(ours) for start, ours in _PROBLEMS if detail.startswith(start)), detail)
    return TomlSyntaxError(label, line, column, problem, hint(detail, source), source.strip())


def hint(detail: str, line: str) -> str:
    """The usual fix for tomllib's `detail` on this `line` of the file, or "".

    >>> hint("Expected '=' after a key in a key/value pair", "coup de pied = 4")
    'a key with accents or spaces must be quoted: "coup de pied" = 4'
    >>> hint("Invalid value", "name = Kaito Arashi")
    'a text must be quoted: name = "Kaito Arashi"'
    >>> hint("Cannot overwrite a value", "a = 2")
    'each key once per table'
    """
    key, equals, value = (part.strip() for part in _uncomment(line).partition("="))
    if detail.startswith(("Expected '=' after a key", "Invalid statement")):
        if equals and key and not _BARE_KEY.fullmatch(key) and not key.startswith(('"', "'")):
            return _("a key with accents or spaces must be quoted: {fixed}").format(
                fixed=f'"{key}" = {value}'
            )
        return _("a line is key = value, or a [table] header")
    if detail.startswith("Invalid value") and equals:
        if value.startswith("="):
            return _("one = between a key and its value")
        if _BARE_WORD.fullmatch(value) and value not in ("true", "false", "inf", "nan"):
            return _("a text must be quoted: {fixed}").format(fixed=f'{key} = "{value}"')
        return _('a value is a number, true or false, "a text", [a list] or {{ a table }}')
    if detail.startswith("Expected newline or end of document"):
        if _COMMA_DECIMAL.fullmatch(value):
            return _("decimals take a point: {fixed}").format(
                fixed=f"{key} = {value.replace(',', '.')}"
            )
        return _('one key = value per line; a text with spaces must be quoted: "…"')
    if detail.startswith("Unterminated string"):
        return _('end the text with the quote it starts with: "…"')
    if detail.startswith(("Cannot overwrite a value", "Cannot declare")):
        return _("each key once per table")
    return ""


def _uncomment(line: str) -> str:
    """The line without a trailing `# comment` (a `#` inside quotes is kept)."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#":
            return line[:index]
    return line
