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
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar, get_args, get_origin

import annotated_types
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from jdr.i18n import _

M = TypeVar("M", bound=BaseModel)


def validate_params(model: type[M], raw: Mapping[str, Any], name: Callable[[str], str] = str) -> M:
    """Build `model` from `raw`, or raise `InputError` for the first bad field.

    `name` shows a field name the way the user typed it (`--attack-dice` on the command line).
    """
    from jdr.validation import translate

    try:
        return model.model_validate(dict(raw))
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
    choices = choices_of(annotation)
    if choices:
        return _("one of {choices}").format(choices=", ".join(choices))
    if annotation is bool:
        return _("yes/no")
    kinds = {int: _("whole number"), float: _("number"), str: _("text")}
    kind = kinds.get(annotation, "") if isinstance(annotation, type) else ""
    if get_origin(annotation) in (list, tuple):
        kind = _("list")
    return ", ".join(part for part in (kind, bounds) if part)


def choices_of(annotation: Any) -> list[str]:
    """The allowed values of a `Literal[...]` or an `Enum` annotation, else []."""
    annotation = _strip_optional(annotation)
    if get_origin(annotation) is Literal:
        return [str(a) for a in get_args(annotation)]
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [str(member.value) for member in annotation]
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
            return args[0]
    if origin is typing.Annotated:
        return _strip_optional(get_args(annotation)[0])
    return annotation
