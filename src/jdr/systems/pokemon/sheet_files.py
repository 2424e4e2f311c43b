"""Reading sheets: TOML in, validated models out, pydantic's errors as the project's InputError.

>>> pikachu = load_example("pokemon")
>>> pikachu.types, pikachu.stats.dexterity, effective_stats(pikachu).dexterity
(['electrik'], 4, 5)
>>> text = example_path("pokemon").read_text("utf-8")
>>> load_pokemon(text.replace("evs = { dexterity = 1 }", "evs = { dexterity = 7 }"))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
jdr.sheets.SheetError: evs.dexterity: 7 (more than 6 EVs in one stat ...)
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from jdr.errors import InputError, UnknownNameError
from jdr.i18n import _
from jdr.names import fold
from jdr.sheets import SheetError, read_toml, validate_sheet
from jdr.systems.pokemon.sheets import (
    EXAMPLES,
    KINDS,
    MAX_MOVES,
    Gauge,
    Move,
    Pokemon,
    Sheet,
    Stats,
    Trainer,
    effective_stats,
)
from jdr.validation import translate

M = TypeVar("M", bound=BaseModel)

__all__ = [
    "SheetError",
    "effective_stats",
    "example_path",
    "input_error",
    "load_example",
    "load_pokemon",
    "load_sheet",
    "load_trainer",
    "sheet_of",
]


def input_error(
    error: ValidationError, model: type[BaseModel] | None = None, source: str = ""
) -> SheetError:
    """A pydantic `ValidationError` on a sheet as the project's `InputError`: path, value, rule.

    >>> try:
    ...     Gauge(current=9, max=8)
    ... except ValidationError as error:
    ...     print(input_error(error).message())
    current: 9 — more than the maximum 8 (allowed: 0..8)
    """
    known = {cls.__name__: cls for cls in (Pokemon, Trainer, Move, Stats, Gauge)}
    found = translate(error, model or known.get(error.title), source)
    return SheetError(found.problems, source)


def _kind(data: dict[str, Any]) -> str | None:
    """`kind` if given (`pokemon` | `trainer`, any case or accents), else None."""
    if "kind" not in data:
        return None
    raw = data["kind"]
    kind = fold(raw) if isinstance(raw, str) else ""
    if kind not in KINDS:
        raise InputError("kind", raw, ", ".join(KINDS), _("unknown sheet kind"))
    data["kind"] = kind
    return kind


def _validate(model: type[M], data: dict[str, Any], label: str, max_moves: int | None) -> M:
    return validate_sheet(model, data, label, {"max_moves": max_moves})


def _expect(data: dict[str, Any], kind: str) -> None:
    given = _kind(data)
    if given not in (None, kind):
        raise InputError("kind", given, kind, _("another kind of sheet"))


def load_sheet(source: str | Path, *, max_moves: int | None = MAX_MOVES) -> Sheet:
    """A Pokémon or a trainer from a TOML file (a `Path`, or a `str` without `=`) or TOML text.

    `kind = "pokemon"` or `"trainer"` says which; without it, a sheet with any Pokémon-only key
    (`types`, `species`, `level`, `moves`, `condition`, `volatile`) is a Pokémon.

    >>> load_sheet(example_path("trainer").read_text(encoding="utf-8")).kind
    'trainer'
    """
    data, label = read_toml(source)
    return sheet_of(data, label, max_moves=max_moves)


def sheet_of(data: dict[str, Any], label: str = "", *, max_moves: int | None = MAX_MOVES) -> Sheet:
    """A Pokémon or a trainer from a sheet's table (as TOML gives it); see `load_sheet`.

    >>> import tomllib
    >>> sheet_of(tomllib.loads(example_path("trainer").read_text("utf-8")), "trainer.toml").name
    'Léa'
    """
    kind = _kind(data)
    if kind is None:
        only = ("types", "species", "level", "moves", "condition", "volatile")
        kind = "pokemon" if any(key in data for key in only) else "trainer"
    model: type[Pokemon] | type[Trainer] = Pokemon if kind == "pokemon" else Trainer
    return _validate(model, data, label, max_moves)


def load_pokemon(source: str | Path, *, max_moves: int | None = MAX_MOVES) -> Pokemon:
    """A Pokémon sheet (see `load_sheet`); a sheet of another `kind` is refused.

    >>> [move.name for move in load_pokemon(example_path("pokemon").read_text("utf-8")).moves]
    ['Éclair', 'Fatal-Foudre', 'Tranche', 'Mimi-Queue']
    """
    data, label = read_toml(source)
    _expect(data, "pokemon")
    return _validate(Pokemon, data, label, max_moves)


def load_trainer(source: str | Path) -> Trainer:
    """A trainer sheet (see `load_sheet`); a sheet of another `kind` is refused.

    >>> load_trainer(example_path("trainer").read_text("utf-8")).pokemon
    ['Pikachu']
    """
    data, label = read_toml(source)
    _expect(data, "trainer")
    return _validate(Trainer, data, label, None)


def example_path(name: str) -> Traversable:
    """The example sheet `name` shipped with the package (`pokemon` or `trainer`).

    >>> example_path("pokemon").name
    'pokemon.toml'
    """
    if name not in EXAMPLES:
        raise UnknownNameError(_("example"), name, list(EXAMPLES))
    return resources.files(__package__).joinpath("examples", f"{name}.toml")


def load_example(name: str) -> Sheet:
    """The example sheet `name`, loaded and validated.

    >>> load_example("pokemon").name
    'Pikachu'
    """
    return load_sheet(example_path(name).read_text(encoding="utf-8"))
