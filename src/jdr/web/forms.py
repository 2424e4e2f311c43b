"""Web forms from the same parameter models the CLI reads its options from.

`fields_of(model)` describes one input per field (a number, a choice, a check box, a list typed
with commas); `raw_of(model, form)` reads a submitted form back into the raw values
`jdr.params.validate_params` checks, exactly as it checks the CLI's options.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jdr.fights.commands import ANY_FIGHTER, FIGHTER
from jdr.i18n import _
from jdr.labels import FLAG_WORDS, choice_names, field_label, schema_extra
from jdr.params import choices_of, describe_allowed, is_flag, is_list


@dataclass(frozen=True)
class FormField:
    name: str
    kind: str  # "number", "choice", "flag", "list" or "text"
    label: str
    help: str
    required: bool
    default: str
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str, ...] = ()
    """The display name of each of `choices`, in the reader's language."""
    fighter: str = ""
    """A key that names a fighter (`key(fighter=True)`): `standing` (a fighter still in the
    fight) or `any` (one out of it too); empty for another key."""

    def options(self) -> list[tuple[str, str]]:
        """(value, display name) of each choice, for a `<select>`."""
        return list(zip(self.choices, self.choice_labels or self.choices, strict=True))


def fields_of(model: Any, skip: frozenset[str] = frozenset()) -> list[FormField]:
    """One `FormField` per field of `model`, labels, choices and help in the reader's language
    (the display names a fight command's keys declare, `jdr.fights.commands.key`; a field
    that declares none shows its name with its `_` as spaces)."""
    found = []
    for name, info in model.model_fields.items():
        if name in skip:
            continue
        help_text = _(info.description) if info.description else ""
        named = choice_names(info)
        allowed = describe_allowed(info)
        if named:
            allowed = _("one of {choices}").format(choices=", ".join(named.values()))
        if allowed and not is_flag(info) and not _fighter(info):  # a fighter: a list to pick
            help_text = f"{help_text} [{allowed}]".strip()
        default = None if info.is_required() else info.get_default(call_default_factory=True)
        default = getattr(default, "value", default)
        shown = "" if default is None or isinstance(default, dict | list | tuple) else default
        if isinstance(shown, str) and shown in named:
            shown = named[shown]
        choices = tuple(choices_of(info.annotation))
        if is_flag(info):
            kind = "flag"
        elif is_list(info):
            kind = "list"
        elif choices:
            kind = "choice"
        elif str(shown).lstrip("-").isdigit() or "int" in repr(info.annotation):
            kind = "number"
        else:
            kind = "text"
        found.append(
            FormField(
                name=name,
                kind=kind,
                label=field_label(name, info),
                help=help_text,
                required=info.is_required(),
                default=str(shown).lower() if isinstance(shown, bool) else str(shown),
                choices=choices,
                choice_labels=tuple(named.get(c, c) for c in choices),
                fighter=_fighter(info),
            )
        )
    return found


def _fighter(info: Any) -> str:
    extra = schema_extra(info)
    if not extra.get(FIGHTER):
        return ""
    return "any" if extra.get(ANY_FIGHTER) else "standing"


def raw_of(model: Any, form: Mapping[str, Any]) -> dict[str, Any]:
    """The values a form gave for `model`'s fields: empty inputs are left to the defaults, a
    ticked box is True."""
    raw: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        value = form.get(name)
        if value is None:
            continue
        if is_flag(info):
            if not _no(value):
                raw[name] = True
            continue
        if isinstance(value, str) and not value.strip():
            continue
        raw[name] = value
    return raw


def _no(value: Any) -> bool:
    """Whether a check box's value says no (`non`, `false`, `off`, empty …), in any case."""
    from jdr.names import find

    if not isinstance(value, str):
        return not value
    if not value.strip():
        return True
    found = find(value, {word: str(flag) for word, flag in FLAG_WORDS.items()})
    return found == "False"
