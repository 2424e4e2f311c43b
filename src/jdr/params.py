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

>>> class Capture(BaseModel):
...     ball: Literal["poke", "super"]
...     vitality_pct: typing.Annotated[float, PERCENT]
...     weight: float = 0
...     condition: list[str] = []
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

import enum
import re
import types
import typing
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Literal, TypeVar, get_args, get_origin

import annotated_types
from pydantic import BaseModel, BeforeValidator, ValidationError
from pydantic.fields import FieldInfo

from jdr.i18n import _

M = TypeVar("M", bound=BaseModel)

_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]+,[0-9]+")


def read_number(value: Any) -> Any:
    """A number as people write it: a decimal comma is read as a point; other values unchanged.

    >>> read_number("40,5"), read_number(" -0,25 "), read_number("12"), read_number(7)
    ('40.5', '-0.25', '12', 7)
    """
    if not isinstance(value, str):
        return value
    text = value.strip()
    return text.replace(",", ".") if _DECIMAL_COMMA.fullmatch(text) else text


def read_percent(value: Any) -> Any:
    """A percentage as people write it: `40`, `40,5`, `40%` or `40 %` (any space) → the number.

    >>> read_percent("40%"), read_percent("40 %"), read_percent("40,5\u202f%"), read_percent(40)
    ('40', '40', '40.5', 40)
    """
    if isinstance(value, str) and value.strip().endswith("%"):
        value = value.strip().removesuffix("%")
    return read_number(value)


PERCENT = BeforeValidator(read_percent)
"""Marks a percentage field, `Annotated[float, PERCENT]`: it reads `40`, `40,5`, `40%`, `40 %`."""


def validate_params(
    model: type[M], raw: Mapping[str, Any], name: Callable[[str], str] = str, keys: bool = False
) -> M:
    """Build `model` from `raw` (read as people write it, see above), or raise `InputError` for
    the first bad field.

    `name` shows a field name the way the user typed it (`--attack-dice` on the command line);
    with `keys`, the keys of `raw` may be the fields' display names too (`réactions`).
    """
    from jdr.validation import translate

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
    from jdr.labels import FLAG_WORDS, field_spellings
    from jdr.names import find

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
            inner = _strip_optional(model.model_fields[field].annotation)
            values[field] = prepared(inner, value, keys)
        elif kind == "flag" and isinstance(value, str):
            flag = find(value, {word: str(flag) for word, flag in FLAG_WORDS.items()}, field)
            values[field] = value if flag is None else flag == "True"
        elif choices and isinstance(value, str):
            values[field] = find(value, _spellings(model, field), field) or value
    return values


@lru_cache(maxsize=512)
def _spellings(model: type[BaseModel], field: str) -> dict[str, str]:
    from jdr.labels import choice_spellings

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
        elif _is_model(_strip_optional(info.annotation)):
            kind = "model"
        elif _strip_optional(info.annotation) is float:
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


def is_percent(info: FieldInfo) -> bool:
    """Whether the field is a percentage (marked `PERCENT`)."""
    return any(
        isinstance(meta, BeforeValidator) and meta.func is read_percent for meta in info.metadata
    )


def describe_allowed(info: FieldInfo) -> str:
    """What a field accepts, in words: `whole number, 1..30`, `one of poke, super`, `yes/no`."""
    annotation = _strip_optional(info.annotation)
    low = high = None
    for meta in info.metadata:
        if isinstance(meta, annotated_types.Ge):
            low = meta.ge
        elif isinstance(meta, annotated_types.Gt):
            low = f">{meta.gt}"
        elif isinstance(meta, annotated_types.Le):
            high = meta.le
        elif isinstance(meta, annotated_types.Lt):
            high = f"<{meta.lt}"
    bounds = ""
    if low is not None or high is not None:
        bounds = f"{'' if low is None else low}..{'' if high is None else high}"
    if choices_of(annotation):
        from jdr.labels import choice_names

        shown = choice_names(info)
        return _("one of {choices}").format(choices=", ".join(shown.values()))
    if annotation is bool:
        return _("yes/no")
    kinds = {int: _("whole number"), float: _("number"), str: _("text")}
    kind = kinds.get(annotation, "") if isinstance(annotation, type) else ""
    if is_percent(info):
        kind = _("percentage")
    if get_origin(annotation) in (list, tuple):
        kind = _("list: A,B or the option repeated")
        if item_choices(info):
            from jdr.labels import choice_names

            items = ", ".join(choice_names(info).values())
            kind = _("list of {choices}: A,B or the option repeated").format(choices=items)
    return ", ".join(part for part in (kind, bounds) if part)


def choices_of(annotation: Any) -> list[str]:
    """The allowed values of a `Literal[...]` or an `Enum` annotation, else []."""
    annotation = _strip_optional(annotation)
    if get_origin(annotation) is Literal:
        return [str(a) for a in get_args(annotation)]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [str(member.value) for member in annotation]
    return []


def item_choices(info: FieldInfo) -> list[str]:
    """The allowed values of each item of a list of choices (`list[Literal[...]]`), else []."""
    annotation = _strip_optional(info.annotation)
    if get_origin(annotation) in (list, tuple) and get_args(annotation):
        return choices_of(get_args(annotation)[0])
    return []


def is_flag(info: FieldInfo) -> bool:
    return _strip_optional(info.annotation) is bool


def is_list(info: FieldInfo) -> bool:
    return get_origin(_strip_optional(info.annotation)) in (list, tuple)


def _strip_optional(annotation: Any) -> Any:
    origin = get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return _strip_optional(args[0])
    if origin is typing.Annotated:
        return _strip_optional(get_args(annotation)[0])
    return annotation
