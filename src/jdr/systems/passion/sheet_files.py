"""Reading Passion sheets: TOML in, a validated `Sheet` out, every problem as the project's error.

>>> romuald = load_example("romuald")
>>> romuald.score("coup de pied circulaire"), romuald.role("mobility"), romuald.npc
(4, 2, False)
>>> text = example_path("romuald").read_text("utf-8")
>>> load_sheet(text.replace("Blast = 7", "Blast = -1"))
Traceback (most recent call last):
...
jdr.sheets.SheetError: talents.Blast: -1 (must be at least 0; allowed: 0..)
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from jdr.errors import UnknownNameError
from jdr.i18n import _
from jdr.sheets import SheetError, read_toml, validate_sheet
from jdr.systems.passion.sheets import EXAMPLES, Sheet

__all__ = ["SheetError", "example_path", "load_example", "load_sheet", "sheet_of"]


def sheet_of(data: Any, label: str = "") -> Sheet:
    """A sheet from plain data (a dict, as TOML or JSON gives it), or `SheetError`.

    >>> sheet_of({"name": "X"}).name  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    jdr.sheets.SheetError: potentials: None (required; ...
    """
    return validate_sheet(Sheet, data, label)


def load_sheet(source: str | Path) -> Sheet:
    """A sheet from a TOML file (a `Path`, or a `str` without `=`) or TOML text.

    >>> load_sheet('name = "Kai"\\npotentials = { Corps = 2 }\\n'
    ...            'passion = { current = 1, max = 1 }\\nenergy = { current = 2, max = 2 }').name
    'Kai'
    """
    data, label = read_toml(source)
    return sheet_of(data, label)


def example_path(name: str) -> Traversable:
    """The example sheet `name` shipped with the package (`romuald` or `cyber-ninja`).

    >>> example_path("cyber-ninja").name
    'cyber-ninja.toml'
    """
    if name not in EXAMPLES:
        raise UnknownNameError(_("example"), name, list(EXAMPLES))
    return resources.files("jdr.systems.passion").joinpath("examples", f"{name}.toml")


def load_example(name: str) -> Sheet:
    """The example sheet `name`, loaded and validated.

    >>> load_example("cyber-ninja").npc
    True
    """
    return load_sheet(example_path(name).read_text(encoding="utf-8"))
