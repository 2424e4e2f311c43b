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

>>> try:
...     load_model(Hero, 'name = "Kai"\\nénergie = 3')
... except InputError as error:
...     print(error.message())  # doctest: +NORMALIZE_WHITESPACE
sheet, line 2, column 1: not a line of TOML
(a key with accents or spaces must be quoted: "énergie" = 3)
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from jdr.errors import InputError
from jdr.i18n import N_, _, ngettext
from jdr.toml_syntax import syntax_error
from jdr.validation import ModelError, translate

M = TypeVar("M", bound=BaseModel)

__all__ = ["SheetError", "load_model", "read_toml", "shipped_examples", "validate_sheet"]


class SheetError(ModelError):
    """Every problem of a sheet at once; the first one is this error's field, value and reason.

    Its message gives one problem per line, each with its field:

    >>> from jdr.errors import InputError
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
    """The table a TOML source holds, and a label for messages (the file's name, or "")."""
    label = ""
    if isinstance(source, Path) or ("\n" not in source and "=" not in source):
        label = str(source)
        try:
            source = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise InputError(_(what), label, _("a readable TOML file"), reason) from None
    try:
        return tomllib.loads(source), label
    except tomllib.TOMLDecodeError as error:
        raise syntax_error(error, source, label or _(what)) from None


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
