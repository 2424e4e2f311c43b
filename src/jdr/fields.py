"""What a model's field holds, read from its annotation: a choice, a list, a yes/no, a
percentage (marked `PERCENT`), and how a number or a percentage is read as people write it.

`jdr.labels` names a choice's values, `jdr.validation` says what a field allows and
`jdr.params` reads raw values into a model: all three ask this module what a field is.

>>> from typing import Literal, Optional
>>> choices_of(Optional[Literal["poke", "super"]])
['poke', 'super']
>>> read_percent("40,5 %")
'40.5'
"""

from __future__ import annotations

import enum
import re
import types
import typing
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin

from pydantic import BeforeValidator

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo

__all__ = [
    "PERCENT",
    "choices_of",
    "is_flag",
    "is_list",
    "is_percent",
    "item_choices",
    "read_number",
    "read_percent",
    "strip_optional",
]

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


def is_percent(info: FieldInfo) -> bool:
    """Whether the field is a percentage (marked `PERCENT`)."""
    return any(
        isinstance(meta, BeforeValidator) and meta.func is read_percent for meta in info.metadata
    )


def choices_of(annotation: Any) -> list[str]:
    """The allowed values of a `Literal[...]` or an `Enum` annotation, else []."""
    annotation = strip_optional(annotation)
    if get_origin(annotation) is Literal:
        return [str(a) for a in get_args(annotation)]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [str(member.value) for member in annotation]
    return []


def item_choices(info: FieldInfo) -> list[str]:
    """The allowed values of each item of a list of choices (`list[Literal[...]]`), else []."""
    annotation = strip_optional(info.annotation)
    if get_origin(annotation) in (list, tuple) and get_args(annotation):
        return choices_of(get_args(annotation)[0])
    return []


def is_flag(info: FieldInfo) -> bool:
    return strip_optional(info.annotation) is bool


def is_list(info: FieldInfo) -> bool:
    return get_origin(strip_optional(info.annotation)) in (list, tuple)


def strip_optional(annotation: Any) -> Any:
    """The type an `Optional[...]` or an `Annotated[...]` annotation holds (at any depth).

    >>> from typing import Annotated, Optional
    >>> strip_optional(Optional[Annotated[int, "x"]])
    <class 'int'>
    """
    origin = get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return strip_optional(args[0])
    if origin is typing.Annotated:
        return strip_optional(get_args(annotation)[0])
    return annotation
