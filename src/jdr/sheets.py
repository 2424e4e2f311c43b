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

Every problem of a sheet is reported at once, each with its path, value and rule.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from jdr.errors import InputError
from jdr.i18n import N_, _
from jdr.validation import ModelError, translate

M = TypeVar("M", bound=BaseModel)

__all__ = ["SheetError", "load_model", "read_toml", "validate_sheet"]


class SheetError(ModelError):
    """Every problem of a sheet at once; the first one is this error's field, value and reason."""

    code = "invalid_sheet"


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
        raise InputError(label or _(what), None, _("a TOML sheet"), str(error)) from None


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
