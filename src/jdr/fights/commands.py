"""Fight commands that explain themselves: each system declares its commands as models, as its
actions are, and one declaration gives the parsing of `key=value` words (French or English keys
and values, did you mean), `jdr fight act … COMMAND --help`, `jdr fight commands`, completion,
and the JSON schema a web table builds its forms from.

>>> from pydantic import BaseModel
>>> from typing import Literal
>>> class Respond(BaseModel):
...     response: Literal["none", "dodge"] = key(
...         "the defender's answer", fr="réponse", choices={"dodge": ["esquive", "esquiver"]}
...     )
>>> _ = Respond.model_rebuild()  # a doctest's names are not the module's
>>> COMMANDS = Commands([Command("respond", Respond, "Answer an attack.", fr="répondre",
...                              example={"response": "dodge"})])
>>> COMMANDS.parse("Répondre", ["réponse=esquive"])
('respond', {'response': 'dodge'})
>>> COMMANDS.parse("respond", ["reponse=dodge"])[1], COMMANDS.line("respond")
({'response': 'dodge'}, 'respond response=dodge')

The commands' own checks (whose turn, what a rule forbids) stay the decider's: a model checks the
shape of what is typed, before anything is decided.

>>> action_of({"action": "attack", "actor": "Kai"}, {"attack": {"action", "actor"}}, "PU-4")
'attack'
>>> as_list("Bob"), as_list("Bob, Cy"), as_list(["Bob"])
(['Bob'], ['Bob', 'Cy'], ['Bob'])
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from jdr.errors import InputError, RulesError, UnknownNameError
from jdr.fights.odds import CommandOddsFn, OutcomeOf
from jdr.i18n import _, current_language

Json = dict[str, Any]

__all__ = [
    "Command",
    "Commands",
    "action_of",
    "as_list",
    "key",
]

FIGHTER = "fighter"
"""`json_schema_extra` flag of a key that names a fighter (completion offers the fighters)."""


def key(
    description: str,
    fr: str,
    default: Any = ...,
    choices: Mapping[str, Sequence[str]] | None = None,
    fighter: bool = False,
    **constraints: Any,
) -> Any:
    """A command's key: its description (an `N_` message), its French name, and for a choice
    the French names of its values (`{"dodge": ["esquive", "esquiver"]}`); `fighter` marks a
    key that names a fighter. `default` … as pydantic's `Field` (none: required)."""
    extra: Json = {"fr": fr}
    if choices:
        extra["choices_fr"] = {value: list(names) for value, names in choices.items()}
    if fighter:
        extra[FIGHTER] = True
    if "default_factory" in constraints:
        return Field(description=description, json_schema_extra=extra, **constraints)
    return Field(default, description=description, json_schema_extra=extra, **constraints)


@dataclass(frozen=True)
class Command:
    """One fight command: `jdr fight act FIGHT ACTOR NAME key=value …`.

    `keys` is the model of the keys a player types (the actor is not one of them); `help` an
    `N_` message; `example` one example's keys, or `example(state, actor)` with real names;
    `rule` the rule's id; `fr` its French name; `sealed`, a secret choice: the front end adds a
    salt (`jdr.fights.sealed`) and the journal hides it until it is opened; `optional`, one
    that never makes the fight wait.
    """

    name: str
    keys: type[BaseModel]
    help: str
    example: Mapping[str, Any] | Callable[[Json, str | None], Mapping[str, Any]] = field(
        default_factory=dict
    )
    rule: str = ""
    fr: str | None = None
    sealed: bool = False
    optional: bool = False
    """Never makes the fight wait for its player (a deus ex machina, joining): a fighter who
    may play only such commands is not awaited (`jdr.live.pace`)."""
    odds: CommandOddsFn | None = None
    """`odds(state, actor, keys, exact)`: the exact distribution of the command's outcome as
    its decider resolves it (`jdr.fights.odds`); every odds view asks it. None: it never rolls."""
    outcome: OutcomeOf | None = None
    """`outcome(events)`: the outcome id one decision of the command shows (`jdr.fights.odds`),
    for the property test and the recaps."""

    def example_keys(self, state: Json | None = None, actor: str | None = None) -> Json:
        """The example's keys: with the fight's real names when it can, else each required
        key with its name in capitals (`target=TARGET`)."""
        if callable(self.example):
            try:
                return dict(self.example(state or {}, actor))
            except (KeyError, IndexError, TypeError, StopIteration):
                return {
                    name: name.upper()
                    for name, info in self.keys.model_fields.items()
                    if info.is_required()
                }
        return dict(self.example)


@dataclass(frozen=True)
class Key:
    """One key of a command, as `--help` and `jdr fight commands` show it."""

    name: str
    french: str
    kind: str
    allowed: str
    default: Any
    required: bool
    description: str


class Commands:
    """A system's fight commands: `System(fight_commands=Commands([...], legal=…))`.

    `legal(state, actor)` gives the names `actor` may play now; anyone's are the rules'
    `legal_commands(state)`, and so are `actor`'s when a system gives no `legal`.
    """

    def __init__(
        self,
        commands: Sequence[Command],
        legal: Callable[[Json, str], list[str]] | None = None,
    ) -> None:
        self.commands = {command.name: command for command in commands}
        self.legal = legal

    def __iter__(self) -> Any:
        return iter(self.commands.values())

    def names(self) -> list[str]:
        return list(self.commands)

    def get(self, name: str) -> Command:
        """The command `name` means (English or French, as people type it), or an
        `UnknownNameError` with the closest."""
        from jdr.names import match

        spellings = {c.name: c.name for c in self}
        spellings |= {c.fr: c.name for c in self if c.fr}
        return self.commands[match(_("command"), name, spellings, self.shown_names())]

    def shown_names(self) -> list[str]:
        """The commands' names in the reader's language (`attaque (attack)` in French)."""
        return [shown_name(c.name, c.fr) for c in self]

    def parse(self, name: str, pairs: Sequence[str]) -> tuple[str, Json]:
        """`key=value` words → the command's name and its keys as the decider takes them
        (the keys given, validated; `InputError` naming the key otherwise)."""
        command = self.get(name)
        return command.name, parse_keys(command.keys, pairs)

    def keys(self, name: str) -> list[Key]:
        """The keys of a command, for its help."""
        from jdr.params import describe_allowed

        found = []
        for key_name, info in self.get(name).keys.model_fields.items():
            extra = _extra(info)
            choices = _choice_names(info)
            allowed = ", ".join(choices.values()) if choices else describe_allowed(info)
            found.append(
                Key(
                    key_name,
                    str(extra.get("fr", key_name)),
                    describe_allowed(info) if not choices else _("one of"),
                    allowed,
                    None if info.is_required() else info.default,
                    info.is_required(),
                    _(info.description) if info.description else "",
                )
            )
        return found

    def line(self, name: str, state: Json | None = None, actor: str | None = None) -> str:
        """One example: `attack target=Corbeau` (with the fight's real names when it can)."""
        command = self.get(name)
        words = [command.name]
        for key_name, value in command.example_keys(state, actor).items():
            words.append(f"{key_name}={_typed(value)}")
        return " ".join(shlex.quote(word) for word in words)

    def schema(self) -> list[Json]:
        """Every command's JSON schema, for a web table's forms."""
        return [
            {
                "name": c.name,
                "names": {"en": c.name, "fr": c.fr or c.name},
                "help": _(c.help),
                "rule": c.rule or None,
                "sealed": c.sealed,
                "example": c.example_keys(),
                "schema": c.keys.model_json_schema(),
            }
            for c in self
        ]

    def legal_now(self, rules: Any, state: Json, actor: str | None) -> list[str]:
        """The commands `actor` (anyone, when None) may play now."""
        if self.legal is not None and state and actor is not None:
            return self.legal(state, actor)
        return list(rules.legal_commands(state))


def late_by_preference(*choices: tuple[str, Mapping[str, Any]]) -> Callable[..., Any]:
    """A system's `late` (`jdr.systems.protocol.System.late`) from a list of safe defaults:
    the first of `choices` (command, keys) the late fighter may play, else None (the GM
    decides).

    >>> late = late_by_preference(("no_interrupt", {}), ("defend", {}))
    >>> late({}, "Kaito", ["attack", "defend"]), late({}, "Kaito", ["attack"])
    (('defend', {}), None)
    """

    def late(state: Json, actor: str, legal: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
        for name, keys in choices:
            if name in legal:
                return name, dict(keys)
        return None

    return late


def shown_name(name: str, french: str | None) -> str:
    """`attack`, or `attaque (attack)` for a French reader."""
    if french and current_language() == "fr" and french != name:
        return f"{french} ({name})"
    return name


def parse_keys(model: type[BaseModel], pairs: Sequence[str]) -> Json:
    """`key=value` words → the keys of `model` that were given, validated (French or English
    key names and choice values, as people type them; a list at its commas; a table as JSON)."""
    from jdr.names import find
    from jdr.params import validate_params

    spellings: dict[str, str] = {}
    for key_name, info in model.model_fields.items():
        spellings[key_name] = key_name
        spellings[str(_extra(info).get("fr", key_name))] = key_name
    given: Json = {}
    for pair in pairs:
        raw_key, equals, value = pair.partition("=")
        if not equals or not raw_key.strip():
            raise InputError(_("option"), pair, "key=value", _("not a key=value pair"))
        found = find(raw_key.strip(), spellings, _("key"))
        if found is None:
            raise UnknownNameError(
                _("key"),
                raw_key.strip(),
                [shown_name(k, _fr(model, k)) for k in model.model_fields],
            )
        given[found] = _value(model.model_fields[found], value)
    validated = validate_params(model, given)
    data: Json = validated.model_dump(mode="json", exclude_unset=True)
    return data


def _fr(model: type[BaseModel], key_name: str) -> str | None:
    return str(_extra(model.model_fields[key_name]).get("fr") or "") or None


def _extra(info: FieldInfo) -> Json:
    extra = info.json_schema_extra
    return dict(extra) if isinstance(extra, dict) else {}


def _choice_names(info: FieldInfo) -> dict[str, str]:
    """A choice key's values as the reader names them: `esquive (dodge)` in French."""
    from jdr.params import choices_of

    french = _extra(info).get("choices_fr") or {}
    return {
        value: shown_name(value, (french.get(value) or [None])[0])
        for value in choices_of(info.annotation)
    }


def _value(info: FieldInfo, text: str) -> Any:
    """A typed value for the model: a choice's French name read as its value, a table or a list
    of tables as JSON, anything else as typed (the model reads numbers, yes/no and lists)."""
    from jdr.names import find
    from jdr.params import choices_of

    stripped = text.strip()
    choices = choices_of(info.annotation)
    if choices:
        spellings = {value: value for value in choices}
        for value, names in (_extra(info).get("choices_fr") or {}).items():
            spellings |= {name: value for name in names}
        return find(stripped, spellings, _("value")) or stripped
    if stripped.startswith(("{", "[")):
        try:
            return json.loads(stripped)
        except json.JSONDecodeError as error:
            raise InputError(_("value"), text, _("JSON"), error.msg) from None
    return stripped


def _typed(value: Any) -> str:
    """A value as one types it: a list at its commas, a table as JSON."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(isinstance(v, str | int) for v in value):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def action_of(command: Any, keys: Mapping[str, Collection[str]], rule: str) -> str:
    """The command's action, refused when it is unknown (`RulesError` citing `rule`) or carries
    a key its action does not know (`InputError`)."""
    if not isinstance(command, dict):
        raise InputError(_("command"), command, _("a table with action and actor"))
    action = command.get("action")
    if action not in keys:
        raise RulesError(
            _("unknown action {name} (known: {known})").format(name=action, known=", ".join(keys)),
            rule,
        )
    known = keys[str(action)]
    for name, value in command.items():
        if name not in known:
            raise InputError(str(name), value, ", ".join(sorted(known)), _("unknown key"))
    return str(action)


def keys_of(commands: Commands, *always: str) -> dict[str, set[str]]:
    """The keys each command may carry, for `action_of`: its model's and `always` (`action`,
    the actor's key, a sealed command's `salt`)."""
    from jdr.fights.sealed import SALT

    return {
        c.name: {*c.keys.model_fields, *always, *([SALT] if c.sealed else [])} for c in commands
    }


def as_list(value: Any) -> Any:
    """A list a command takes, as people give it (`targets=Bob`, `targets=Bob,Cy`, or a JSON
    list): a text is split at its commas; anything else is left for the rules to judge."""
    from jdr.params import split_items

    return split_items(value) if isinstance(value, str) else value
