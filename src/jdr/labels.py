"""Display names: what a player reads in place of an identifier, in French and in English.

A model's field, a choice's value and an action keep their English identifiers in code, JSON
and the API (`target_energy`, `endure`, `attack`), and as option names (`--target-energy`); a
player reads their display names, declared once beside the model with `named`, and may type
either, in any case, with or without accents:

>>> from typing import Literal
>>> from pydantic import BaseModel, Field
>>> DEFENCES = {"endure": ("endure", "encaisser"), "dodge": ("dodge", "esquive", "esquiver")}
>>> class Attack(BaseModel):
...     target_energy: int = Field(1, json_schema_extra=named("target's Énergie",
...                                                          "Énergie de la cible"))
...     defence: Literal["endure", "dodge"] = Field(
...         "endure", json_schema_extra=named("defence", "défense", DEFENCES))
>>> _ = Attack.model_rebuild()  # a doctest's names are not the module's
>>> from jdr.i18n import language
>>> with language("fr"):
...     label(Attack, "target_energy"), choice_names(Attack.model_fields["defence"])
('Énergie de la cible', {'endure': 'encaisser', 'dodge': 'esquive'})
>>> label(Attack, "target_energy"), choice_names(Attack.model_fields["defence"])["dodge"]
("target's Énergie", 'dodge')
>>> from jdr.names import find
>>> find("ESQUIVER", choice_spellings(Attack.model_fields["defence"]))
'dodge'
>>> find("energie de la cible", field_spellings(Attack))
'target_energy'

`named(en, fr, choices)` is a field's `json_schema_extra`, in the shape fight command keys use
too (`jdr.fights.commands.key`: `fr`, `choices_fr`): a choice is `(English, French, more
French or English spellings accepted…)`. A field or a value declared by no one shows its
identifier with its `_` as spaces; the meta-tests require every built-in to declare them all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from jdr.fields import choices_of, item_choices
from jdr.i18n import current_language

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

__all__ = [
    "FLAG_WORDS",
    "Choices",
    "action_label",
    "choice_label",
    "choice_names",
    "choice_spellings",
    "declared",
    "field_label",
    "field_spellings",
    "label",
    "named",
    "plain",
    "schema_extra",
    "titled_schema",
]

Choices = Mapping[str, Sequence[str]]
"""Each value of a choice → `(English, French, other spellings accepted…)`."""

FLAG_WORDS = {
    "oui": True,
    "non": False,
    "vrai": True,
    "faux": False,
    "yes": True,
    "no": False,
    "true": True,
    "false": False,
    "on": True,
    "off": False,
    "1": True,
    "0": False,
}
"""How a yes/no value may be typed, in either language (`jdr.names.fold` compares them)."""


def named(en: str, fr: str, choices: Choices | None = None, **extra: Any) -> dict[str, Any]:
    """A field's `json_schema_extra`: its English and French display names, and for a choice
    each value's (`choices`); `extra` adds other entries (`display=True`, see `jdr.params`)."""
    found: dict[str, Any] = {"en": en, "fr": fr, **extra}
    if choices:
        found["choices_en"] = {value: [names[0], *names[2:]] for value, names in choices.items()}
        found["choices_fr"] = {value: list(names[1:]) for value, names in choices.items()}
    return found


def schema_extra(info: FieldInfo | None) -> dict[str, Any]:
    """A field's `json_schema_extra` as a dict (where its display names are declared)."""
    extra = info.json_schema_extra if info is not None else None
    return dict(extra) if isinstance(extra, dict) else {}


def _lang(lang: str | None) -> str:
    return lang or current_language()


def plain(identifier: str) -> str:
    """An identifier no one named, as words: `max_dice` → `max dice`."""
    return identifier.replace("_", " ").replace("-", " ")


def field_label(name: str, info: FieldInfo | None, lang: str | None = None) -> str:
    """The display name of the field `name` (`info`) in `lang` (default: the reader's)."""
    extra = schema_extra(info)
    shown = extra.get(_lang(lang)) or extra.get("en")
    return str(shown) if shown else plain(name)


def label(model: type[BaseModel], name: str, lang: str | None = None) -> str:
    """The display name of `model`'s field `name` in `lang` (default: the reader's)."""
    return field_label(name, model.model_fields.get(name), lang)


def declared(info: FieldInfo | None) -> bool:
    """Whether the field declares its display names in both languages."""
    extra = schema_extra(info)
    return bool(extra.get("en")) and bool(extra.get("fr"))


def choice_label(info: FieldInfo | None, value: Any, lang: str | None = None) -> str:
    """The display name of one value of a choice field, in `lang` (default: the reader's)."""
    raw = getattr(value, "value", value)
    extra = schema_extra(info)
    names = (extra.get(f"choices_{_lang(lang)}") or {}).get(str(raw))
    if not names:
        names = (extra.get("choices_en") or {}).get(str(raw))
    return str(names[0]) if names else plain(str(raw)) if isinstance(raw, str) else str(raw)


def choice_names(info: FieldInfo | None, lang: str | None = None) -> dict[str, str]:
    """A choice field's values → their display names in `lang` (default: the reader's)."""
    if info is None:
        return {}
    return {value: choice_label(info, value, lang) for value in _values(info)}


def choice_spellings(info: FieldInfo | None) -> dict[str, str]:
    """Every spelling a choice field accepts → its value: the value, and each of its names in
    both languages (`jdr.names.find` compares them as people type them)."""
    if info is None:
        return {}
    values = _values(info)
    found = {value: value for value in values}
    extra = schema_extra(info)
    for lang in ("en", "fr"):
        for value, names in (extra.get(f"choices_{lang}") or {}).items():
            if value in found:
                for spelt in names:
                    found.setdefault(str(spelt), value)
    for value in values:  # `no-failure` typed `no failure`
        found.setdefault(plain(value), value)
    return found


def _values(info: FieldInfo) -> list[str]:
    """A choice field's values, or a list of choices' (`list[Literal[...]]`)."""
    return choices_of(info.annotation) or item_choices(info)


def field_spellings(model: type[BaseModel]) -> dict[str, str]:
    """Every spelling of `model`'s field names → the field: its name and its display names."""
    found = {name: name for name in model.model_fields}
    for name, info in model.model_fields.items():
        extra = schema_extra(info)
        for lang in ("en", "fr"):
            if extra.get(lang):
                found.setdefault(str(extra[lang]), name)
        found.setdefault(plain(name), name)
    return found


def action_label(action: Any, lang: str | None = None) -> str:
    """An action's display name (`Action.names`) in `lang` (default: the reader's)."""
    names = getattr(action, "names", None) or {}
    shown = names.get(_lang(lang)) or names.get("en")
    return str(shown) if shown else plain(str(action.name))


def titled_schema(model: type[BaseModel], lang: str | None = None) -> dict[str, Any]:
    """`model`'s JSON schema, each property titled by its display name in `lang` (default: the
    reader's) and its choices' names given (`x-choice-names`); keys stay the identifiers."""
    schema = model.model_json_schema()
    properties = schema.get("properties") or {}
    for name, info in model.model_fields.items():
        prop = properties.get(name)
        if prop is None:
            continue
        prop["title"] = field_label(name, info, lang)
        prop["x-names"] = {each: field_label(name, info, each) for each in ("en", "fr")}
        shown = choice_names(info, lang)
        if shown:
            prop["x-choice-names"] = shown
    return schema
