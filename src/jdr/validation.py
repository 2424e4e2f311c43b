"""Pydantic's validation errors in the project's words: a path, the value, what is allowed, why.

Every model the user fills in (action parameters, sheets, settings) is validated by pydantic; this
module turns a `ValidationError` into `InputError`s, one per problem, in the current language:

>>> from pydantic import BaseModel, Field
>>> class Gauge(BaseModel):
...     current: int = Field(ge=0)
>>> class Sheet(BaseModel):
...     energy: Gauge
>>> try:
...     Sheet.model_validate({"energy": {"current": -1}})
... except ValidationError as error:
...     print(translate(error, Sheet).message())
energy.current: -1 — must be at least 0 (allowed: whole number, 0..)

A model's own validators raise `fail(kind, reason, allowed, **context)`: the reason and the allowed
values are English templates (marked with `N_`), translated and formatted when shown.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import UnionType
from typing import Annotated, Any

import annotated_types
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails, PydanticCustomError

from jdr.errors import InputError
from jdr.fields import choices_of, is_percent, item_choices, strip_optional
from jdr.i18n import N_, _, joined, labelled
from jdr.labels import choice_names, choice_spellings, declared, field_spellings, label
from jdr.names import hint

__all__ = ["ModelError", "describe_allowed", "fail", "translate", "worded"]

# What pydantic's own error kinds mean, in the words the rest of the project uses.
REASONS = {
    kind: text
    for kinds, text in (
        ("missing", N_("required")),
        ("greater_than_equal", N_("must be at least {limit}")),
        ("greater_than", N_("must be more than {limit}")),
        ("less_than_equal", N_("must be at most {limit}")),
        ("less_than", N_("must be less than {limit}")),
        ("int_parsing int_from_float int_type", N_("not a whole number")),
        ("float_parsing float_type", N_("not a number")),
        ("bool_parsing bool_type", N_("not yes or no")),
        ("literal_error enum", N_("not one of the choices")),
        ("extra_forbidden", N_("unknown key")),
        ("string_type", N_("not text")),
        ("list_type", N_("not a list")),
        ("model_type model_attributes_type dict_type", N_("not a table")),
        ("too_short", N_("too few items")),
        ("too_long", N_("too many items")),
    )
    for kind in kinds.split()
}
_LIMITS = ("ge", "gt", "le", "lt")


def fail(kind: str, reason: str, allowed: str, **context: Any) -> PydanticCustomError:
    """An error for a validator to raise: `reason` and `allowed` are English templates.

    `context` fills the templates; `value` is the value shown, `at` a last path part to add.
    """
    return PydanticCustomError(kind, reason, {"reason": reason, "allowed": allowed, **context})


class ModelError(InputError):
    """Every problem of a model at once; the first one is this error's field, value and reason."""

    code = "invalid_input"

    def __init__(self, problems: Sequence[InputError], source: str = "", code: str = "") -> None:
        first = problems[0]
        super().__init__(first.field, first.value, first.allowed, first.reason, first.label)
        self.problems = tuple(problems)
        self.source = source
        if code:
            self.code = code
        self.args = (self._join([str(p) for p in self.problems]),)

    def message(self) -> str:
        return self._join([p.message() for p in self.problems])

    def _join(self, parts: list[str]) -> str:
        text = joined(parts)
        return labelled(self.source, text) if self.source else text


def translate(
    error: ValidationError,
    model: type[BaseModel] | None = None,
    source: str = "",
    name: Callable[[str], str] = str,
    code: str = "",
) -> ModelError:
    """A `ValidationError` as a `ModelError`: each problem's dotted path, value, allowed, reason.

    `name` shows the first part of a path the way the user typed it (`--attack-dice`).
    """
    problems = [_problem(detail, model, name) for detail in error.errors()]
    return ModelError(problems, source, code)


@contextmanager
def worded(model: type[BaseModel]) -> Iterator[None]:
    """Name the field of an `InputError` raised inside by its display name, when it is one of
    `model`'s fields (an action's own checks name its parameters by their identifiers):

    >>> from pydantic import Field
    >>> from jdr.i18n import language
    >>> from jdr.labels import named
    >>> class Advise(BaseModel):
    ...     max_dice: int = Field(3, json_schema_extra=named("most dice", "dés au plus"))
    >>> with language("fr"):
    ...     try:
    ...         with worded(Advise):
    ...             raise InputError("max_dice", 40, "..12", "too many to weigh")
    ...     except InputError as error:
    ...         print(error.field, "|", error.message())
    max_dice | dés au plus\xa0: 40 — too many to weigh (permis\xa0: ..12)
    """
    try:
        yield
    except InputError as error:
        if error.label is None and error.field in model.model_fields:
            error.label = label(model, error.field)
        raise


def describe_allowed(info: FieldInfo) -> str:
    """What a field accepts, in words: `whole number, 1..30`, `one of poke, super`, `yes/no`."""
    annotation = strip_optional(info.annotation)
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
        shown = choice_names(info)
        return _("one of {choices}").format(choices=", ".join(shown.values()))
    if annotation is bool:
        return _("yes/no")
    kinds = {int: _("whole number"), float: _("number"), str: _("text")}
    kind = kinds.get(annotation, "") if isinstance(annotation, type) else ""
    if is_percent(info):
        kind = _("percentage")
    if typing.get_origin(annotation) in (list, tuple):
        kind = _("list: A,B or the option repeated")
        if item_choices(info):
            items = ", ".join(choice_names(info).values())
            kind = _("list of {choices}: A,B or the option repeated").format(choices=items)
    return ", ".join(part for part in (kind, bounds) if part)


def _problem(
    detail: ErrorDetails, model: type[BaseModel] | None, name: Callable[[str], str]
) -> InputError:
    kind = detail["type"]
    context: dict[str, Any] = dict(detail.get("ctx") or {})
    loc: list[str | int] = [part for part in detail["loc"] if part != "[key]"]
    if "at" in context:
        loc.append(context["at"])
    value = None if kind == "missing" else context.get("value", detail.get("input"))
    path = _path(loc, name) or _("parameters")
    # the reader's words for the path, unless the caller names it its own way (`--dice`)
    worded = _shown_path(loc, model) if name is str and model is not None else None
    if "reason" in context:  # one of ours, from `fail`
        texts = (_(context["reason"]), _(context["allowed"]) if context["allowed"] else "")
        reason, allowed = (text.format(**context) for text in texts)
        return InputError(path, value, allowed or "-", reason, label=worded)
    limit = next((context[key] for key in _LIMITS if key in context), None)
    reason = _(REASONS[kind]).format(limit=limit) if kind in REASONS else str(detail["msg"])
    reason = reason.removeprefix("Value error, ")
    owner, info, reached = _walk(model, loc)
    annotation = _bare(info.annotation) if info else None
    if kind == "extra_forbidden" and owner is not None:
        fields = owner.model_fields
        shown = {n: label(owner, n) if declared(i) else n for n, i in fields.items()}
        allowed = ", ".join(shown.values())
        if any(map(declared, fields.values())) and isinstance(loc[-1] if loc else None, str):
            spelt = {k: shown[v] for k, v in field_spellings(owner).items()}
            reason += hint(loc[-1], spelt)  # a model that names its keys: the closest
        value = value if isinstance(value, str | int | float) else None
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        keys = ", ".join(label(annotation, key) for key in annotation.model_fields)
        allowed = _("a table with {keys}").format(keys=keys)
    elif info is not None:
        allowed = describe_allowed(info)
        if kind in ("literal_error", "enum"):  # a choice mistyped: the closest one
            shown = choice_names(info)
            spelt = {k: shown.get(v, v) for k, v in choice_spellings(info).items()}
            reason += hint(value, spelt if spelt else choices_of(info.annotation))
    elif kind in ("literal_error", "enum") and (owner is not None or choices_of(reached)):
        # an item of a list (or a table) of choices: its field's names, else the item's type's
        named = next((part for part in reversed(loc) if isinstance(part, str)), "")
        field = owner.model_fields.get(named) if owner is not None else None
        shown = choice_names(field) if field is not None else {}
        if shown:
            allowed = _("one of {choices}").format(choices=", ".join(shown.values()))
            reason += hint(value, {k: shown.get(v, v) for k, v in choice_spellings(field).items()})
        else:
            choices = choices_of(reached)
            allowed = _("one of {choices}").format(choices=", ".join(choices))
            reason += hint(value, choices)
    else:
        allowed = f"{context.get('ge', '')}..{context.get('le', '')}" if limit is not None else ""
    return InputError(path, value, allowed or "-", reason, label=worded)


def _path(loc: Sequence[str | int], name: Callable[[str], str]) -> str:
    """`("moves", 1, "type")` → `moves[2].type`: list positions count from 1."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part + 1}]"
        else:
            text += f".{part}" if text else name(part)
    return text


def _shown_path(loc: Sequence[str | int], model: type[BaseModel]) -> str | None:
    """`("moves", 1, "type")` in the reader's words: each field by its display name
    (`jdr.labels.label`), list positions counting from 1; None for an empty path."""
    text, current = "", _bare(model)
    for part in loc:
        if isinstance(part, int):
            text += f"[{part + 1}]"
            current = _item(current)
            continue
        if isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(part)
            word = label(current, part) if info is not None else part
            current = _bare(info.annotation) if info is not None else None
        else:
            word, current = part, _item(current)
        text += f".{word}" if text else word
    return text or None


def _item(annotation: Any) -> Any:
    """The type of an item of a list (or a value of a table), None otherwise."""
    if typing.get_origin(annotation) in (list, dict):
        return _bare(typing.get_args(annotation)[-1])
    return None


def _walk(
    model: type[BaseModel] | None, loc: Sequence[str | int]
) -> tuple[type[BaseModel] | None, FieldInfo | None, Any]:
    """The model holding the field at `loc`, that field (None inside a list or a table), and
    the type found at `loc` (an item's inside a list: `Literal["a", "b"]`), None if unknown."""
    current: Any = model
    owner, info = model, None
    for part in loc:
        if isinstance(current, type) and issubclass(current, BaseModel) and isinstance(part, str):
            owner, info = current, current.model_fields.get(part)
            current = _bare(info.annotation) if info else None
        elif typing.get_origin(current) in (list, dict):
            current, info = _bare(typing.get_args(current)[-1]), None
        else:
            return owner, None, None
    return owner, info, current


def _bare(annotation: Any) -> Any:
    while typing.get_origin(annotation) is Annotated:
        annotation = typing.get_args(annotation)[0]
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, UnionType) and len(args) == 1:
        return _bare(args[0])
    return annotation
