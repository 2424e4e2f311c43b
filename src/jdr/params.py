"""Action parameters: one pydantic model gives the options, the schema and the messages.

`validate_params` turns raw values (strings from a command line, a web form) into the model, and any
pydantic error into the project's own `InputError`, naming the field, the value and what is allowed.

>>> from pydantic import BaseModel, Field
>>> class Check(BaseModel):
...     dice: int = Field(ge=1, le=30)
>>> validate_params(Check, {"dice": "4"}).dice
4
>>> validate_params(Check, {"dice": "0"})
Traceback (most recent call last):
...
jdr.errors.InputError: dice: '0' (must be at least 1; allowed: whole number, 1..30)

Values are read as people write them, before the model sees them: a number field takes a decimal
comma (`40,5`), a percentage field (`PERCENT`) a `%` sign too (`40%`, `40 %`), a list field
takes commas (`["Sommeil,Gel"]` is two items, as `["Sommeil", "Gel"]`), and a field with choices
takes them in any case, with or without accents (`SUPER` for `super`):

>>> from typing import Annotated, Literal
>>> class Capture(BaseModel):
...     ball: Literal["poke", "super"]
...     vitality_pct: Annotated[float, PERCENT]
...     weight: float = 0
...     condition: list[str] = []
>>> _ = Capture.model_rebuild()  # a doctest's names are not the module's
>>> capture = validate_params(
...     Capture, {"ball": "SUPER", "vitality_pct": "40,5 %", "weight": "6,5",
...               "condition": ["Sommeil,Gel", "Peur"]})
>>> capture.ball, str(capture.vitality_pct), str(capture.weight), capture.condition
('super', '40.5', '6.5', ['Sommeil', 'Gel', 'Peur'])

A `%` is read only where a percentage is asked:

>>> validate_params(Capture, {"ball": "poke", "vitality_pct": "40", "weight": "6%"})
Traceback (most recent call last):
...
jdr.errors.InputError: weight: '6%' (not a number; allowed: number)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from jdr.fields import (
    PERCENT,
    choices_of,
    is_flag,
    is_list,
    is_percent,
    item_choices,
    read_number,
    read_percent,
    strip_optional,
)
from jdr.labels import FLAG_WORDS, choice_spellings, field_spellings
from jdr.names import find
from jdr.validation import describe_allowed, translate

__all__ = [
    "DISPLAY",
    "PERCENT",
    "choices_of",
    "describe_allowed",
    "display_fields",
    "identity",
    "is_flag",
    "is_list",
    "is_percent",
    "item_choices",
    "prepared",
    "read_number",
    "read_percent",
    "split_items",
    "validate_params",
]

M = TypeVar("M", bound=BaseModel)


def validate_params(
    model: type[M], raw: Mapping[str, Any], name: Callable[[str], str] = str, keys: bool = False
) -> M:
    """Build `model` from `raw` (read as people write it, see above), or raise `InputError` for
    the first bad field.

    `name` shows a field name the way the user typed it (`--attack-dice` on the command line);
    with `keys`, the keys of `raw` may be the fields' display names too (`réactions`).
    """
    try:
        return model.model_validate(prepared(model, raw, keys))
    except ValidationError as exc:
        raise translate(exc, model, name=name).problems[0] from None


DISPLAY: dict[str, Any] = {"display": True}
"""`json_schema_extra` of a field that only changes how a result is shown (a recap's format), not
what is rolled: it is left out of a roll's identity, so asking an action id again with another
value shows the same roll in the new form."""


def display_fields(model: type[BaseModel]) -> frozenset[str]:
    """The fields of `model` marked `DISPLAY`."""
    return frozenset(
        name
        for name, info in model.model_fields.items()
        if isinstance(info.json_schema_extra, dict) and info.json_schema_extra.get("display")
    )


def identity(params: BaseModel) -> dict[str, Any]:
    """What a roll's journal context keeps of its parameters: all but the display fields.

    >>> from pydantic import BaseModel, Field
    >>> class Attack(BaseModel):
    ...     dice: int = 1
    ...     recap: str | None = Field(default=None, json_schema_extra=DISPLAY)
    >>> identity(Attack(dice=3, recap="bbcode"))
    {'dice': 3}
    """
    data: dict[str, Any] = params.model_dump(mode="json", exclude=set(display_fields(type(params))))
    return data


def prepared(model: type[BaseModel], raw: Mapping[str, Any], keys: bool = False) -> dict[str, Any]:
    """`raw` as the model expects it: list items split at commas, decimal commas read in number
    fields, yes/no in either language, choices matched as people type them (`jdr.names`) by
    their identifiers or display names (`jdr.labels`); with `keys`, keys typed by the fields'
    display names too (a table's settings: `réactions=encaisser`), in nested tables as well."""
    readings = _readings(model)
    values: dict[str, Any] = {}
    for given, value in raw.items():  # a key typed by its display name (`réactions`)
        field = given
        if keys and isinstance(given, str) and given not in readings:
            field = find(given, field_spellings(model), given) or given
            field = given if field in raw or field in values else field
        values[field] = value
    for field, value in list(values.items()):
        reading = readings.get(field)
        if reading is None:
            continue
        kind, choices = reading
        if kind == "list" and (isinstance(value, list | tuple) or _filled(value)):
            items = split_items(value)
            if choices:  # a list of choices: each item as people type it
                spelt = _spellings(model, field)
                items = [find(i, spelt, field) or i if isinstance(i, str) else i for i in items]
            values[field] = items
        elif kind == "number":
            values[field] = read_number(value)
        elif kind == "model" and isinstance(value, Mapping):  # a table: its own names
            inner = strip_optional(model.model_fields[field].annotation)
            values[field] = prepared(inner, value, keys)
        elif kind == "flag" and isinstance(value, str):
            flag = find(value, {word: str(flag) for word, flag in FLAG_WORDS.items()}, field)
            values[field] = value if flag is None else flag == "True"
        elif choices and isinstance(value, str):
            values[field] = find(value, _spellings(model, field), field) or value
    return values


@lru_cache(maxsize=512)
def _spellings(model: type[BaseModel], field: str) -> dict[str, str]:
    return choice_spellings(model.model_fields[field])


@lru_cache(maxsize=512)
def _readings(model: type[BaseModel]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """How `prepared` reads each field of `model`: `list`, `number` or `other`, and its choices
    (a model's fields do not change: read once per model, not at every command)."""
    readings = {}
    for field, info in model.model_fields.items():
        kind = "other"
        if is_list(info):
            kind = "list"
        elif is_flag(info):
            kind = "flag"
        elif _is_model(strip_optional(info.annotation)):
            kind = "model"
        elif strip_optional(info.annotation) is float:
            kind = "number"
        readings[field] = (kind, tuple(choices_of(info.annotation) or item_choices(info)))
    return readings


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _filled(value: Any) -> bool:
    """Text with something in it (an empty one is left for the model to refuse as it says)."""
    return isinstance(value, str) and bool(value.strip())


def split_items(value: str | list[Any] | tuple[Any, ...]) -> list[Any]:
    """A list option's values, each split at its commas: `--condition Sommeil,Gel` is two (an
    empty item is kept, for the model to refuse).

    >>> split_items(["Sommeil,Gel", "Peur"]), split_items("2, 5"), split_items([3, "4,5"])
    (['Sommeil', 'Gel', 'Peur'], ['2', '5'], [3, '4', '5'])
    """
    items = [value] if isinstance(value, str) else list(value)
    split: list[Any] = []
    for item in items:
        if isinstance(item, str):
            split += [part.strip() for part in item.split(",")]  # `4,,5`: the model refuses
        else:
            split.append(item)
    return split
