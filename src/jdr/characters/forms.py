"""A sheet as a form: the inputs a system's sheet model asks for, and the form read back.

The form is the sheet model walked field by field (as `jdr.sheet_template` walks it for the
terminal): a plain value is a text, number, yes/no or choice input; a nested table is a group
(a gauge, `current/max`, is one row); a list of tables (moves, techniques, spells) is a list of
items the reader adds to and removes from; a table of free names (skills, talents) is a list
of name/value rows. Labels and choices are the system's sheet words (`jdr.sheet_words`), in the
reader's language; identifiers stay in the inputs' names only.

`read_form` turns a submitted form back into the table `jdr.characters.service` validates,
exactly as it validates a TOML file; `sheet_form` shows each of its problems beside its input.

>>> from pydantic import BaseModel, Field
>>> class Gauge(BaseModel):
...     current: int
...     max: int
>>> class Hero(BaseModel):
...     name: str
...     energy: Gauge
...     skills: dict[str, int] = Field(default_factory=dict)
>>> _ = Hero.model_rebuild()  # a doctest's names are not the module's
>>> form = sheet_form(Hero, {"name": "Kai", "energy": {"current": 3, "max": 5}})
>>> [(node.kind, node.name) for part in form.parts for node in part.nodes]
[('text', 's.name'), ('gauge', 's.energy'), ('pairs', 's.skills')]
>>> read_form(Hero, {"s.name": "Kai", "s.energy.current": "2", "s.energy.max": "5",
...                  "s.skills.0.key": "Escalade", "s.skills.0.value": "1",
...                  "s.skills.1.key": "", "s.skills.1.value": ""})
{'name': 'Kai', 'energy': {'current': 2, 'max': 5}, 'skills': {'Escalade': 1}}
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from jdr.errors import InputError, JdrError
from jdr.i18n import _
from jdr.labels import choice_names
from jdr.sheet_words import GENERIC, SheetWords, Word

__all__ = [
    "PREFIX",
    "FormNode",
    "FormPart",
    "SheetForm",
    "apply_op",
    "field_errors",
    "read_form",
    "sheet_form",
]

PREFIX = "s."
"""Every input of the sheet is named `s.` and its path (`s.moves.0.name`): the page's own
fields (`csrf`, `revision`, the button pressed) never meet a sheet's keys."""
MAX_ITEMS = 100
"""The most items (or rows) one list of a form holds: a form posted with more is cut there."""

Json = dict[str, Any]


@dataclass(frozen=True)
class FormNode:
    """One part of the form: an input (`text`, `number`, `flag`, `choice`, `choices`, `list`,
    `hidden`) or a group of them (`group`, `gauge`, `items`, `item`, `pairs`, `pair`)."""

    kind: str
    name: str
    label: str
    help: str = ""
    value: str = ""
    required: bool = False
    choices: tuple[tuple[str, str], ...] = ()
    """(value, display name) of a choice, for a `<select>` or check boxes."""
    chosen: tuple[str, ...] = ()
    """The values ticked among `choices` (`choices`)."""
    children: tuple[FormNode, ...] = ()
    error: str | None = None
    """The problem the sheet's system found with this input, in the reader's words."""
    key: str = ""
    """The problem path this node answers to (`moves[2].type`, `skills.Escalade`)."""
    titled: bool = False
    """Its section's title already names it (a section holding only this group)."""
    optional: bool = False
    """A group the sheet may leave out (a move's inflicted condition): shown folded when
    empty."""

    @property
    def input_id(self) -> str:
        """An HTML id for the input (its name, dots as dashes)."""
        return "f-" + re.sub(r"[^A-Za-z0-9_-]", "-", self.name)

    @property
    def leaves(self) -> tuple[FormNode, ...]:
        """Every node under this one, this one first."""
        found: tuple[FormNode, ...] = (self,)
        for child in self.children:
            found += child.leaves
        return found


@dataclass(frozen=True)
class FormPart:
    """A headed section of the form (the system's sheet sections)."""

    title: str
    nodes: tuple[FormNode, ...]


@dataclass(frozen=True)
class SheetForm:
    """The whole form: its sections, and the problems no input answers to."""

    parts: tuple[FormPart, ...]
    problems: tuple[str, ...] = ()

    @property
    def errors(self) -> int:
        """How many inputs show a problem."""
        return sum(1 for part in self.parts for n in part.nodes for leaf in n.leaves if leaf.error)


# --- the model's shapes ------------------------------------------------------------------------


def _bare(annotation: Any) -> tuple[Any, bool]:
    """The annotation without `Annotated` and `None` (`str | None` → `str`), and whether None
    was allowed."""
    optional = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            optional = optional or len(args) < len(typing.get_args(annotation))
            if len(args) == 1:
                annotation = args[0]
                continue
        return annotation, optional


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _literals(annotation: Any) -> tuple[str, ...]:
    return (
        tuple(str(v) for v in typing.get_args(annotation))
        if typing.get_origin(annotation) is Literal
        else ()
    )


def _shape(annotation: Any) -> tuple[str, Any, Any]:
    """What a field is: (`model`, the model, None), (`items`, the item model, None), (`list`,
    the item type, None), (`pairs`, the key type, the value type) or (`scalar`, its type,
    None)."""
    bare, _optional = _bare(annotation)
    origin = typing.get_origin(bare)
    if _is_model(bare):
        return "model", bare, None
    if origin in (list, tuple, set, frozenset, Sequence):
        args = typing.get_args(bare)
        item = _bare(args[0])[0] if args else str
        return ("items" if _is_model(item) else "list"), item, None
    if origin in (dict, Mapping):
        args = typing.get_args(bare)
        key = _bare(args[0])[0] if args else str
        value = _bare(args[1])[0] if len(args) > 1 else str
        return "pairs", key, value
    return "scalar", bare, None


def _is_gauge(model: type[BaseModel]) -> bool:
    return set(model.model_fields) == {"current", "max"}


def _required(info: FieldInfo) -> bool:
    return info.is_required()


def _optional(info: FieldInfo) -> bool:
    return not info.is_required() or _bare(info.annotation)[1]


# --- problems --------------------------------------------------------------------------------


def field_errors(error: JdrError) -> dict[str, str]:
    """Each problem of a refused sheet by its path (`moves[2].type`), in the reader's words;
    a problem without a path under `""`."""
    problems = getattr(error, "problems", None) or (
        [error] if isinstance(error, InputError) else []
    )
    found: dict[str, str] = {}
    for problem in problems:
        path = str(getattr(problem, "field", "") or "")
        text = problem.message() if isinstance(problem, JdrError) else str(problem)
        found[path] = f"{found[path]} · {text}" if path in found else text
    if not found:
        found[""] = error.message()
    return found


def _problem_key(path: Sequence[str | int]) -> str:
    """A path as problems name it: `("moves", 1, "type")` → `moves[2].type`."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part + 1}]"
        else:
            text += f".{part}" if text else str(part)
    return text


# --- the form from a sheet ---------------------------------------------------------------------


class _Walk:
    def __init__(self, words: SheetWords, errors: Mapping[str, str]) -> None:
        self.words = words
        self.errors = dict(errors)
        self.used: set[str] = set()

    def error(self, path: Sequence[str | int]) -> str | None:
        key = _problem_key(path)
        if key in self.errors:
            self.used.add(key)
            return self.errors[key]
        return None

    def node(
        self, key: str, info: FieldInfo, value: Any, path: list[str | int], parent: str | None
    ) -> FormNode:
        name = PREFIX + ".".join(str(p) for p in path)
        label = self.words.key(key, parent)
        help_text = _(info.description) if info.description else ""
        if help_text.casefold() == label.casefold():  # `Force`, said again
            help_text = ""
        shape, inner, second = _shape(info.annotation)
        error = self.error(path)
        common: dict[str, Any] = {"name": name, "label": label, "help": help_text}
        common.update(error=error, key=_problem_key(path))
        if key in self.words.hidden:
            return FormNode("hidden", value=_text(value), **common)
        if shape == "model":
            given = value if isinstance(value, Mapping) else {}
            children = self.children(inner, given, path, key)
            kind = "gauge" if _is_gauge(inner) else "group"
            folded = _bare(info.annotation)[1] and not any(
                leaf.value or leaf.chosen or leaf.error for c in children for leaf in c.leaves
            )
            return FormNode(
                kind, children=children, required=_required(info), optional=folded, **common
            )
        if shape == "items":
            rows = value if isinstance(value, list) else []
            items = []
            for index, row in enumerate(rows[:MAX_ITEMS]):
                given = row if isinstance(row, Mapping) else {}
                at = [*path, index]
                title = str(given.get("name") or "") or f"{label} {index + 1}"
                items.append(
                    FormNode(
                        "item",
                        PREFIX + ".".join(map(str, at)),
                        title,
                        children=self.children(inner, given, at, key),
                        error=self.error(at),
                        key=_problem_key(at),
                    )
                )
            return FormNode("items", children=tuple(items), **common)
        if shape == "pairs":
            return self.pairs(key, inner, second, value, path, common)
        if shape == "list":
            choices = self.options(key, inner, info)
            listed = [_text(v) for v in value] if isinstance(value, list) else []
            if choices:
                extra = tuple((v, v) for v in listed if v not in dict(choices))
                return FormNode("choices", choices=choices + extra, chosen=tuple(listed), **common)
            return FormNode("list", value=", ".join(listed), **common)
        return self.scalar(key, inner, info, value, common)

    def scalar(
        self, key: str, inner: Any, info: FieldInfo, value: Any, common: dict[str, Any]
    ) -> FormNode:
        required = _required(info)
        if inner is bool:
            return FormNode("flag", value="true" if value is True else "", **common)
        choices = self.options(key, inner, info)
        if choices:
            shown = _text(value)
            if shown and shown not in dict(choices):
                choices += ((shown, shown),)
            return FormNode("choice", value=shown, required=required, choices=choices, **common)
        kind = "number" if inner in (int, float) else "text"
        return FormNode(kind, value=_text(value), required=required, **common)

    def options(self, key: str, inner: Any, info: FieldInfo | None) -> tuple[tuple[str, str], ...]:
        """A choice's values and their names: the model's `Literal`, named by the sheet words
        (or the field's declared names); a free text the sheet words name every value of."""
        declared = self.words.values.get(key, {})
        literal = _literals(inner)
        if literal:
            named = choice_names(info) if info is not None else {}
            return tuple(
                (v, str(declared[v]) if v in declared else named.get(v) or self.words.key(v))
                for v in literal
            )
        if declared and inner is str:
            return tuple((v, str(word)) for v, word in declared.items())
        return ()

    def pairs(
        self,
        key: str,
        key_type: Any,
        value_type: Any,
        value: Any,
        path: list[str | int],
        common: dict[str, Any],
    ) -> FormNode:
        given = list(value.items()) if isinstance(value, Mapping) else []
        choices = tuple((v, self.words.key(v, key)) for v in _literals(key_type))
        rows = []
        for index, (name, amount) in enumerate([*given[:MAX_ITEMS], ("", "")]):
            at = f"{common['name']}.{index}"
            problem = self.error([*path, str(name)]) if name != "" else None
            key_node = FormNode(
                "choice" if choices else "text",
                at + ".key",
                _("name"),
                value=_text(name),
                choices=choices
                + (
                    ((str(name), str(name)),)
                    if name and choices and str(name) not in dict(choices)
                    else ()
                ),
            )
            kind = "number" if value_type in (int, float) else "text"
            amount_node = FormNode(kind, at + ".value", _("value"), value=_text(amount))
            rows.append(
                FormNode(
                    "pair",
                    at,
                    str(name) or _("new"),
                    children=(key_node, amount_node),
                    error=problem,
                    key=_problem_key([*path, str(name)]),
                )
            )
        return FormNode("pairs", children=tuple(rows), **common)

    def children(
        self, model: type[BaseModel], given: Mapping[str, Any], path: list[str | int], parent: str
    ) -> tuple[FormNode, ...]:
        return tuple(
            self.node(key, info, given.get(key), [*path, key], parent)
            for key, info in model.model_fields.items()
        )


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else ""
    return str(value)


def sheet_form(
    model: type[BaseModel],
    values: Mapping[str, Any],
    words: SheetWords = GENERIC,
    errors: Mapping[str, str] | None = None,
) -> SheetForm:
    """The form of `model` filled with `values` (a sheet, or a form read back as it was
    typed), laid out in `words`' sections, each problem of `errors` (`field_errors`) beside
    its input; a problem no input answers to is one of the form's `problems`."""
    walk = _Walk(words, errors or {})
    nodes = {
        key: walk.node(key, info, values.get(key), [key], None)
        for key, info in model.model_fields.items()
    }
    parts: list[FormPart] = []
    listed = {key for section in words.sections for key in section.keys}
    hidden = [n for k, n in nodes.items() if k in words.hidden]
    plain = [
        node
        for key, node in nodes.items()
        if key not in listed and key not in words.hidden and node.kind not in _NESTED
    ]
    parts.append(FormPart(str(Word("Character", "Personnage")), tuple(hidden + plain)))
    for section in words.sections:
        shown = tuple(nodes[key] for key in section.keys if key in nodes)
        if len(shown) == 1 and shown[0].kind in _NESTED:
            shown = (replace(shown[0], titled=True),)
        if shown and str(section.title) == parts[-1].title:
            parts[-1] = FormPart(parts[-1].title, parts[-1].nodes + shown)
        elif shown:
            parts.append(FormPart(str(section.title), shown))
    for key, node in nodes.items():
        if key not in listed and key not in words.hidden and node.kind in _NESTED:
            parts.append(FormPart(node.label, (replace(node, titled=True),)))
    left = tuple(text for key, text in walk.errors.items() if key not in walk.used)
    return SheetForm(tuple(parts), left)


_NESTED = ("group", "items", "pairs")


# --- the form read back --------------------------------------------------------------------------


def read_form(
    model: type[BaseModel],
    form: Mapping[str, Any],
    keep_blank: bool = False,
    drop: str | None = None,
) -> Json:
    """The table a submitted form holds for `model`: empty inputs left out (their default
    applies, or the system says they are missing), numbers as numbers (else as typed, for the
    system to refuse), blank items and rows left out unless `keep_blank` (the form shown again
    after "add"), the item or row named `drop` left out ("remove")."""
    return _read_model(model, form, [], keep_blank, drop)


def _read_model(
    model: type[BaseModel],
    form: Mapping[str, Any],
    path: list[str | int],
    keep_blank: bool,
    drop: str | None,
) -> Json:
    found: Json = {}
    for key, info in model.model_fields.items():
        at = [*path, key]
        name = PREFIX + ".".join(map(str, at))
        shape, inner, second = _shape(info.annotation)
        if shape == "model":
            value = _read_model(inner, form, at, keep_blank, drop)
            if value or not _optional(info):
                found[key] = value
        elif shape == "items":
            items = []
            for index in _indices(form, name):
                item_name = f"{name}.{index}"
                if item_name == drop:
                    continue
                item = _read_model(inner, form, [*at, index], keep_blank, drop)
                if item or keep_blank:
                    items.append(item)
            if items or name + ".present" in form:
                found[key] = items
        elif shape == "pairs":
            pairs: Json = {}
            for index in _indices(form, name):
                row = f"{name}.{index}"
                title = _form_text(form.get(row + ".key")).strip()
                if row == drop or not title:
                    continue
                pairs[title] = _typed(second, _form_text(form.get(row + ".value")))
            if pairs or name + ".present" in form:
                found[key] = pairs
        elif shape == "list":
            if _literal_or_named(form, name):
                chosen = [_form_text(v) for v in _all(form, name) if _form_text(v).strip()]
                found[key] = chosen
            else:
                text = _form_text(form.get(name))
                parts = [part.strip() for part in text.split(",") if part.strip()]
                if parts or name + ".present" in form:
                    found[key] = [_typed(inner, part) for part in parts]
        elif inner is bool:
            if name in form or name + ".present" in form:
                found[key] = name in form and _form_text(form.get(name)) not in ("", "false")
        else:
            text = _form_text(form.get(name)).strip()
            if text:
                found[key] = _typed(inner, text)
    return found


def _literal_or_named(form: Mapping[str, Any], name: str) -> bool:
    """Whether the list `name` came as check boxes (its `.choices` marker)."""
    return name + ".choices" in form


def _all(form: Mapping[str, Any], name: str) -> list[Any]:
    getlist = getattr(form, "getlist", None)
    if getlist is not None:
        return list(getlist(name))
    value = form.get(name)
    return list(value) if isinstance(value, list | tuple) else [] if value is None else [value]


def _indices(form: Mapping[str, Any], name: str) -> list[int]:
    """The item numbers the form holds under `name` (`name.3.…`), in order, at most
    `MAX_ITEMS`."""
    pattern = re.compile(re.escape(name) + r"\.([0-9]{1,4})(?:\.|$)")
    found = {int(m.group(1)) for key in form if (m := pattern.match(str(key)))}
    return sorted(found)[:MAX_ITEMS]


def _form_text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _typed(kind: Any, text: str) -> Any:
    """A typed number as a number (`" 3 "` → 3); anything else as it was typed."""
    if kind is int and re.fullmatch(r"\s*-?[0-9]{1,9}\s*", text):
        return int(text)
    if kind is float and re.fullmatch(r"\s*-?[0-9]{1,9}([.,][0-9]{1,9})?\s*", text):
        return float(text.replace(",", "."))
    return text


def apply_op(model: type[BaseModel], form: Mapping[str, Any], op: str) -> Json | None:
    """The form after the button `op` (`add:s.moves`, `remove:s.moves.2`), as typed, to show
    again; None for no such button."""
    action, _sep, target = op.partition(":")
    if action == "remove" and target.startswith(PREFIX):
        return read_form(model, form, keep_blank=True, drop=target)
    if action != "add" or not target.startswith(PREFIX):
        return None
    data = read_form(model, form, keep_blank=True)
    path = target[len(PREFIX) :].split(".")
    holder: Any = data
    current: Any = model
    for index, part in enumerate(path):
        last = index == len(path) - 1
        if not _is_model(current) or part not in current.model_fields:
            return None
        shape, inner, _second = _shape(current.model_fields[part].annotation)
        if last:
            if shape != "items":
                return None
            items = holder.setdefault(part, [])
            if len(items) < MAX_ITEMS:
                items.append({})
            return data
        if shape != "model":
            return None
        holder = holder.setdefault(part, {})
        current = inner
    return None
