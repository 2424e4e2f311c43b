"""Sheets read from TOML: one reader and one validator for every system's sheet model.

A source is a `Path`, a `str` naming a file, or TOML text (a `str` with a newline or `=`):

>>> from pydantic import BaseModel
>>> class Hero(BaseModel):
...     name: str
...     energy: int
>>> load_model(Hero, 'name = "Kai"\\nenergy = 3').energy
3
>>> load_model(Hero, 'name = "Kai"\\nenergy = "x"')
Traceback (most recent call last):
...
jdr.sheets.SheetError: energy: 'x' (not a whole number; allowed: whole number)

Every problem of a sheet is reported at once, each with its path, value and rule; a file that is
not TOML says where and how it is usually fixed (`jdr.toml_syntax`):

>>> from jdr.errors import InputError
>>> try:
...     load_model(Hero, 'name = "Kai"\\nénergie = 3')
... except InputError as error:
...     print(error.message())  # doctest: +NORMALIZE_WHITESPACE
sheet, line 2, column 1: not a line of TOML
(a key with accents or spaces must be quoted: "énergie" = 3)
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterable, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from jdr.errors import LimitError
from jdr.i18n import N_, _, ngettext
from jdr.toml_syntax import syntax_error
from jdr.validation import ModelError, translate

M = TypeVar("M", bound=BaseModel)

__all__ = ["SheetError", "load_model", "read_toml", "shipped_examples", "validate_sheet"]


class SheetError(ModelError):
    """Every problem of a sheet at once; the first one is this error's field, value and reason.

    Its message gives one problem per line, each with its field:

    >>> from jdr.errors import InputError, LimitError
    >>> print(SheetError([InputError("rank", "Z", "E..S"), InputError("hp", 3, "-")], "x.toml")
    ...       .message())
    x.toml: 2 problems
      rank: Z is not allowed (allowed: E..S)
      hp: 3 is not allowed (allowed: -)
    """

    code = "invalid_sheet"

    def message(self) -> str:
        count = len(self.problems)
        if count == 1:
            head = self.problems[0].message()
        else:
            head = ngettext("{count} problem", "{count} problems", count).format(count=count)
        if self.source:
            head = _("{source}: {text}").format(source=self.source, text=head)
        if count == 1:
            return head
        return "\n".join([head, *(f"  {problem.message()}" for problem in self.problems)])


def read_toml(source: str | Path, what: str = N_("sheet")) -> tuple[dict[str, Any], str]:
    """The table a TOML source holds, and a label for messages (the file's name, `-` for
    standard input, or ""). A file is read within `jdr.bounded`'s limits (size, nesting, digits),
    checked before parsing; TOML text given directly is held to the same limits."""
    from jdr.bounded import MAX_SHEET_BYTES, check_nesting, read_text

    label = ""
    if isinstance(source, Path) or ("\n" not in source and "=" not in source):
        label = str(source)
        source = read_text(source, MAX_SHEET_BYTES, _(what), _("a readable TOML file"))
    elif len(source.encode("utf-8")) > MAX_SHEET_BYTES:
        raise LimitError(
            _(what), label or "-", _("at most {n} bytes").format(n=MAX_SHEET_BYTES), None
        )
    check_nesting(source, "toml", _(what), label or "-")
    try:
        return tomllib.loads(source), label
    except tomllib.TOMLDecodeError as error:
        raise syntax_error(error, source, label or _(what)) from None
    except ValueError as error:  # a whole number past Python's digits limit
        allowed = _("whole numbers of at most {n} digits").format(n=sys.get_int_max_str_digits())
        raise LimitError(_(what), label or "-", allowed, _("a number too long")) from error


def validate_sheet(
    model: type[M],
    data: Any,
    label: str = "",
    context: Mapping[str, Any] | None = None,
    error: type[SheetError] = SheetError,
) -> M:
    """`model` from plain data (a parsed file, a fight's setup), or `error` listing all problems."""
    try:
        return model.model_validate(data, context=dict(context) if context else None)
    except ValidationError as problem:
        raise error(translate(problem, model, label).problems, label) from None


def load_model(
    model: type[M],
    source: str | Path,
    what: str = N_("sheet"),
    context: Mapping[str, Any] | None = None,
    error: type[SheetError] = SheetError,
) -> M:
    """Read a TOML source and validate it as `model`."""
    data, label = read_toml(source, what)
    return validate_sheet(model, data, label, context, error)


def shipped_examples(package: str, kinds: Iterable[str]) -> dict[str, Traversable]:
    """The example sheets `examples/KIND.toml` shipped inside `package`, by kind (for
    `System(examples=…)`); read through `importlib.resources`, so they work from a wheel.

    >>> hero = shipped_examples("jdr.systems.plus_ultra", ["hero", "villain"])["hero"]
    >>> hero.name, "rank" in hero.read_text(encoding="utf-8")
    ('hero.toml', True)
    """
    folder = resources.files(package).joinpath("examples")
    return {kind: folder.joinpath(f"{kind}.toml") for kind in kinds}
