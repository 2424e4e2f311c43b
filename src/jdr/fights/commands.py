"""Fight commands that explain themselves: each system declares its commands as models, as its
actions are, and one declaration gives the parsing of `key=value` words (French or English keys
and values, did you mean), `jdr fight act … COMMAND --help`, `jdr fight commands`, completion,
and the JSON schema a web table builds its forms from.

>>> from pydantic import BaseModel
>>> from typing import Literal
>>> class Respond(BaseModel):
...     response: Literal["none", "dodge"] = key(
...         "the defender's answer",
...         fr="réponse",
...         choices={"none": Word("no answer", "aucune"), "dodge": Word("dodge", "esquive")},
...     )
>>> _ = Respond.model_rebuild()  # a doctest's names are not the module's
>>> COMMANDS = Commands([Command("respond", Respond, "Answer an attack.", fr="répondre",
...                              example={"response": "dodge"})])
>>> COMMANDS.parse("Répondre", ["réponse=esquive"])
('respond', {'response': 'dodge'})
>>> COMMANDS.parse("respond", ["REPONSE=no answer"])[1], COMMANDS.line("respond")
({'response': 'none'}, 'respond response=dodge')

Each command, key and choice value has a display name in each language, declared beside its
model (`Command(…, fr=…, en=…)`, `key(…, fr=…, en=…, choices={value: Word(en, fr)})`): the
help, the forms, the lists of commands and the JSON schema's titles show them; the JSON and the
API keep the identifiers.

>>> from jdr.i18n import language
>>> with language("fr"):
...     COMMANDS.shown("respond"), COMMANDS.line("respond"), COMMANDS.keys("respond")[0].choices
('répondre', 'répondre réponse=esquive', ('aucune', 'esquive'))

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
from typing import Any, ClassVar

from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from jdr.errors import AccessError, InputError, RulesError, UnknownNameError
from jdr.fights.odds import CommandOddsFn, OutcomeOf
from jdr.i18n import _, current_language
from jdr.labels import (
    FLAG_WORDS,
    choice_label,
    choice_names,
    choice_spellings,
    field_label,
    field_spellings,
    plain,
    schema_extra,
    titled_schema,
)

Json = dict[str, Any]

__all__ = [
    "GM_SEAT",
    "Command",
    "Commands",
    "Owner",
    "Seat",
    "Word",
    "action_of",
    "as_list",
    "choice_label",
    "choice_names",
    "choice_spellings",
    "field_label",
    "key",
    "key_label",
    "key_spellings",
    "titled_schema",
]

FIGHTER = "fighter"
"""`json_schema_extra` flag of a key that names a fighter (completion offers the fighters)."""
ANY_FIGHTER = "any_fighter"
"""`json_schema_extra` flag of a fighter key that may name a fighter out of the fight
(`key(fighter=True, standing=False)`): a table offers the knocked-out too."""
OWNER = "owner"
"""`json_schema_extra` entry of a key that is not its actor's controller's decision
(`Owner.text`: `gm`, `target:KEY`)."""


@dataclass(frozen=True)
class Owner:
    """Whose decision a command, or one of its keys, is: the controller of the fighter who acts
    (`Owner.ACTOR`, the default), the GM (`Owner.GM`), or the controller of the fighter(s) a key
    names (`Owner.target("target")`: a reaction given with the command, such as the defender's
    answer to an attack). The service refuses a key given by anyone else (`refuse_unowned`).

    >>> Owner.target("target").text(), Owner.of_text("gm") == Owner.GM, Owner.ACTOR.text()
    ('target:target', True, 'actor')
    >>> seat = Seat(fighters=("Pikachu",))
    >>> Owner.ACTOR.allows(seat, "pikachu", {}), Owner.GM.allows(seat, "Pikachu", {})
    (True, False)
    >>> Owner.target("target").allows(seat, "Pikachu", {"target": "Évoli"})
    False
    >>> Owner.target("target").chooser("Pikachu", {"target": "Évoli"})
    'Évoli'
    """

    kind: str
    key: str | None = None

    ACTOR: ClassVar[Owner]
    GM: ClassVar[Owner]

    @staticmethod
    def target(key_name: str) -> Owner:
        """The controller of the fighter(s) named by the key `key_name` (a list names several:
        each one's controller must agree, so only a seat controlling them all may give it)."""
        return Owner("target", key_name)

    def text(self) -> str:
        """As `Commands.schema()` and the models' JSON schema say it."""
        return f"target:{self.key}" if self.kind == "target" else self.kind

    @staticmethod
    def of_text(text: str) -> Owner:
        kind, _colon, key_name = text.partition(":")
        return Owner.target(key_name) if kind == "target" else Owner(kind)

    def fighters(
        self, actor: str, keys: Mapping[str, Any], others: Sequence[str] = ()
    ) -> list[str] | None:
        """The fighters whose controller decides (None: the GM, or a key that names nobody, so
        no player can be asked). A key left out names the one fighter of `others` (the fight's
        other fighters) when there is just one: the opponent standing, in a duel."""
        if self.kind == "actor":
            return [actor]
        if self.kind == "target" and self.key is not None:
            named = as_list(keys.get(self.key))
            if named is None and len(others) == 1:
                return [others[0]]
            if isinstance(named, list) and named and all(isinstance(n, str) for n in named):
                return [str(n) for n in named]
        return None

    def allows(
        self, seat: Seat, actor: str, keys: Mapping[str, Any], others: Sequence[str] = ()
    ) -> bool:
        """Whether `seat` may give this decision when `actor` plays with `keys`."""
        if seat.gm:
            return True
        named = self.fighters(actor, keys, others)
        return named is not None and all(seat.controls(name) for name in named)

    def chooser(
        self,
        actor: str,
        keys: Mapping[str, Any],
        seat: Seat | None = None,
        others: Sequence[str] = (),
    ) -> str | None:
        """The fighter whose player decides (the first `seat` does not control), or None for
        the GM."""
        named = self.fighters(actor, keys, others)
        if named is None:
            return None
        return next((n for n in named if seat is None or not seat.controls(n)), named[0])

    def whose(
        self,
        actor: str,
        keys: Mapping[str, Any],
        seat: Seat | None = None,
        others: Sequence[str] = (),
    ) -> str:
        """`the GM's choice`, `Évoli's player's choice` (in the reader's language)."""
        if self.kind == "gm":
            return _("the GM's choice")
        name = self.chooser(actor, keys, seat, others)
        if name is None:
            return _("the targeted fighter's player's choice")
        return _("{name}'s player's choice").format(name=name)

    def described(self, model: type[BaseModel] | None = None) -> str:
        """Whose choice, for a command's help: empty for the actor's own."""
        if self.kind == "gm":
            return _("the GM's choice")
        if self.kind == "target" and self.key is not None:
            shown = key_label(model, self.key) if model is not None else plain(self.key)
            return _("the choice of the player of the fighter named by {key}").format(key=shown)
        return ""


Owner.ACTOR = Owner("actor")
Owner.GM = Owner("gm")


@dataclass(frozen=True)
class Seat:
    """Who gives a command: the GM (every decision is theirs to give), or a player who controls
    `fighters` (a web player's one character; `jdr fight act --as player`'s actor).

    >>> Seat(fighters=("Évoli",)).controls("evoli"), GM_SEAT.controls("anyone")
    (True, True)
    """

    fighters: tuple[str, ...] = ()
    gm: bool = False

    def controls(self, name: str) -> bool:
        from jdr.names import same

        return self.gm or any(same(name, mine) for mine in self.fighters)


GM_SEAT = Seat(gm=True)
"""The GM's seat: the terminal's, unless `jdr fight act --as player`."""


@dataclass(frozen=True, init=False)
class Word:
    """One choice value's display names: `Word("dodge", "esquive", "esquiver")` is shown
    `dodge` in English and `esquive` in French, and `esquiver` (any `also`) is accepted too.

    >>> Word("no answer", "aucune", "rien").also
    ('rien',)
    """

    en: str
    fr: str
    also: tuple[str, ...]

    def __init__(self, en: str, fr: str, *also: str) -> None:
        object.__setattr__(self, "en", en)
        object.__setattr__(self, "fr", fr)
        object.__setattr__(self, "also", tuple(also))


def key(
    description: str,
    fr: str,
    default: Any = ...,
    choices: Mapping[str, Word | Sequence[str]] | None = None,
    fighter: bool = False,
    owner: Owner | None = None,
    en: str | None = None,
    standing: bool = True,
    table: Mapping[str, Sequence[str]] | None = None,
    **constraints: Any,
) -> Any:
    """A command's key: its description (an `N_` message), its French display name `fr` and
    its English one `en` (default: its identifier, `_` read as spaces: `counter_move` is shown
    `counter move`), and for a choice each value's names, `Word(en, fr, *also)`
    (`{"none": Word("no answer", "aucune", "rien")}`; a list of French names alone,
    `{"dodge": ["esquive", "esquiver"]}`, keeps the value as its English name); `fighter`
    marks a key that names a fighter (`standing` False: one out of the fight too, a table
    offers only those standing otherwise); `owner`, whose decision it is when not the actor's
    controller's (`Owner.GM`, `Owner.target("target")`). `default` … as pydantic's `Field`
    (none: required); `table`, for a table or a list of tables given as JSON, each of its
    keys' names, `(English, French, more spellings…)` (`{"target": ("target", "cible")}`).
    Identifiers stay the JSON's and the API's; a reader sees, and may type, the display names
    (in any case, with or without accents)."""
    extra: Json = {"fr": fr}
    if table:
        extra[TABLE_KEYS] = {name: list(names) for name, names in table.items()}
    if en:
        extra["en"] = en
    if choices:
        extra["choices_fr"] = {}
        extra["choices_en"] = {}
        for value, names in choices.items():
            if isinstance(names, Word):
                extra["choices_fr"][value] = [names.fr, *names.also]
                extra["choices_en"][value] = [names.en, *names.also]
            else:
                extra["choices_fr"][value] = list(names)
    if fighter:
        extra[FIGHTER] = True
        if not standing:
            extra[ANY_FIGHTER] = True
    if owner is not None and owner != Owner.ACTOR:
        extra[OWNER] = owner.text()
    if "default_factory" in constraints:
        return Field(description=description, json_schema_extra=extra, **constraints)
    return Field(default, description=description, json_schema_extra=extra, **constraints)


@dataclass(frozen=True)
class Command:
    """One fight command: `jdr fight act FIGHT ACTOR NAME key=value …`.

    `keys` is the model of the keys a player types (the actor is not one of them); `help` an
    `N_` message; `example` one example's keys, or `example(state, actor)` with real names;
    `rule` the rule's id; `fr` its French display name (and `en` its English one, by
    default the name with its `_` as spaces); `sealed`, a secret choice: the front end adds a
    salt (`jdr.fights.sealed`) and the journal hides it until it is opened; `optional`, one
    that never makes the fight wait; `owner`, whose decision the whole command is (default:
    the actor's controller; each key may name its own, `key(owner=…)`).
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
    owner: Owner = Owner.ACTOR

    odds: CommandOddsFn | None = None
    """`odds(state, actor, keys, exact)`: the exact distribution of the command's outcome as
    its decider resolves it (`jdr.fights.odds`); every odds view asks it. None: it never rolls."""
    outcome: OutcomeOf | None = None
    """`outcome(events)`: the outcome id one decision of the command shows (`jdr.fights.odds`),
    for the property test and the recaps."""
    en: str | None = None
    """Its English display name (default: its name, `_` read as spaces: `no_dodge` is shown
    `no dodge`); `fr` is its French one. The name itself stays the JSON's and the API's."""

    def shown(self, lang: str | None = None) -> str:
        """Its display name in `lang` (default: the reader's language)."""
        if (lang or current_language()) == "fr" and self.fr:
            return plain(self.fr)
        return self.en or plain(self.name)

    def spellings(self) -> dict[str, str]:
        """Every spelling that means it → its name: the name, and its display names."""
        return {self.name: self.name, self.shown("en"): self.name, self.shown("fr"): self.name}

    def owner_of(self, key_name: str) -> Owner:
        """Whose decision the key `key_name` is (`key(owner=…)`; the actor's controller's when
        it declares none)."""
        info = self.keys.model_fields.get(key_name)
        text = schema_extra(info).get(OWNER) if info is not None else None
        return Owner.of_text(str(text)) if text else Owner.ACTOR

    def theirs(self, seat: Seat, actor: str) -> list[str]:
        """The keys `seat` may give when `actor` plays this command, as a form shows them:
        every key for the GM; a player's own (a key a targeted fighter's player decides is left
        out: the one who controls it is asked, or the GM gives it)."""
        if not self.owner.allows(seat, actor, {}):
            return []
        return [n for n in self.keys.model_fields if self.owner_of(n).allows(seat, actor, {})]

    def example_keys(self, state: Json | None = None, actor: str | None = None) -> Json:
        """The example's keys: with the fight's real names when it can, else each required
        key with its display name in capitals, in the reader's language (`target=TARGET`,
        `cible=CIBLE` in French)."""
        if callable(self.example):
            try:
                return dict(self.example(state or {}, actor))
            except (KeyError, IndexError, TypeError, StopIteration):
                return {
                    name: field_label(name, info).upper().replace(" ", "-")
                    for name, info in self.keys.model_fields.items()
                    if info.is_required()
                }
        return dict(self.example)


@dataclass(frozen=True)
class Key:
    """One key of a command, as `--help` and `jdr fight commands` show it."""

    name: str
    shown: str
    """Its display name in the reader's language."""
    kind: str
    allowed: str
    default: Any
    required: bool
    description: str
    owner: str = ""
    """Whose choice, when not the actor's player's (`the GM's choice`)."""
    choices: tuple[str, ...] = ()
    """A choice's values' display names, in the reader's language."""


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
        """The command `name` means (its name or a display name in either language, in any
        case, with or without accents), or an `UnknownNameError` listing the commands and the
        closest by their display names in the reader's language."""
        from jdr.names import find

        spellings: dict[str, str] = {}
        for command in self:
            spellings |= command.spellings()
        found = find(name, spellings, _("command"))
        if found is None:
            raise _unknown(_("command"), name, spellings, self.shown)
        return self.commands[found]

    def shown(self, name: str, lang: str | None = None) -> str:
        """The display name of the command `name` in `lang` (default: the reader's); a name
        no command has is shown with its `_` as spaces."""
        command = self.commands.get(name)
        return command.shown(lang) if command is not None else plain(name)

    def shown_names(self, names: Sequence[str] | None = None) -> list[str]:
        """The display names of `names` (default: every command) in the reader's language."""
        return [self.shown(n) for n in (self.names() if names is None else names)]

    def parse(self, name: str, pairs: Sequence[str]) -> tuple[str, Json]:
        """`key=value` words → the command's name and its keys as the decider takes them
        (the keys given, validated; `InputError` naming the key otherwise)."""
        command = self.get(name)
        return command.name, parse_keys(command.keys, pairs)

    def keys(self, name: str) -> list[Key]:
        """The keys of a command, for its help, in the reader's language."""
        found = []
        command = self.get(name)
        for key_name, info in command.keys.model_fields.items():
            choices = choice_names(info)
            default = None if info.is_required() else info.get_default(call_default_factory=True)
            if choices and isinstance(default, str):
                default = choices.get(default, default)
            found.append(
                Key(
                    key_name,
                    field_label(key_name, info),
                    _("one of") if choices else allowed_words(info),
                    ", ".join(choices.values()),
                    default,
                    info.is_required(),
                    _(info.description) if info.description else "",
                    command.owner_of(key_name).described(command.keys),
                    tuple(choices.values()),
                )
            )
        return found

    def line(self, name: str, state: Json | None = None, actor: str | None = None) -> str:
        """One example, as the reader types it: `attack target=Corbeau` (`attaque
        cible=Corbeau` in French), with the fight's real names when it can."""
        command = self.get(name)
        words = [command.shown()]
        for key_name, value in command.example_keys(state, actor).items():
            info = command.keys.model_fields.get(key_name)
            shown = choice_names(info).get(value, value) if isinstance(value, str) else value
            words.append(f"{field_label(key_name, info)}={_typed(table_shown(info, shown))}")
        return " ".join(typed_word(word) for word in words)

    def schema(self) -> list[Json]:
        """Every command's JSON schema, for a web table's forms: names stay the identifiers,
        `title`s are the display names in the reader's language, and `names`, `x-names` and
        `x-choice-names` give them in both languages."""
        return [
            {
                "name": c.name,
                "names": {"en": c.shown("en"), "fr": c.shown("fr")},
                "title": c.shown(),
                "help": _(c.help),
                "rule": c.rule or None,
                "sealed": c.sealed,
                "owner": c.owner.text(),
                "owner_text": c.owner.described(c.keys) or None,
                "example": c.example_keys(),
                "schema": titled_schema(c.keys),
            }
            for c in self
        ]

    def refuse_unowned(
        self,
        name: str,
        keys: Mapping[str, Any],
        seat: Seat,
        actor: str,
        fighters: Sequence[str] = (),
    ) -> None:
        """Refuse, before anything is decided, a command `seat` may not give when `actor`
        plays it, or any key given that is someone else's decision (`AccessError` naming the
        command or the key, in the reader's language, and whose choice it is); `fighters`,
        the fight's."""
        refuse_unowned(self.get(name), keys, seat, actor, fighters)

    def legal_now(self, rules: Any, state: Json, actor: str | None) -> list[str]:
        """The commands `actor` (anyone, when None) may play now."""
        if self.legal is not None and state and actor is not None:
            return self.legal(state, actor)
        return list(rules.legal_commands(state))


def refuse_unowned(
    command: Command | None,
    keys: Mapping[str, Any],
    seat: Seat,
    actor: str,
    fighters: Sequence[str] = (),
) -> None:
    """`Commands.refuse_unowned`; a system without command models (`command` None) declares
    no owner but the actor's controller."""
    from jdr.names import same

    others = [name for name in fighters if not same(name, actor)]
    owner = command.owner if command is not None else Owner.ACTOR
    if not owner.allows(seat, actor, keys, others):
        if owner == Owner.ACTOR:  # a player acts only for their own fighter
            raise AccessError(
                "actor",
                actor,
                ", ".join(seat.fighters) or "-",
                _("a player acts only for their own character"),
            )
        assert command is not None
        raise AccessError(
            command.shown(),
            None,
            _asked(owner, actor, keys, seat, others, True),
            owner.whose(actor, keys, seat, others),
        )
    if command is None:
        return
    for key_name, value in keys.items():
        owner = command.owner_of(key_name)
        if owner.allows(seat, actor, keys, others):
            continue
        required = command.keys.model_fields[key_name].is_required()
        raise AccessError(
            key_label(command.keys, key_name),
            value,
            _asked(owner, actor, keys, seat, others, required),
            owner.whose(actor, keys, seat, others),
        )


def _asked(
    owner: Owner,
    actor: str,
    keys: Mapping[str, Any],
    seat: Seat,
    others: Sequence[str],
    required: bool,
) -> str:
    """What the seat may do instead: ask whoever decides (`ask the GM`, `ask Évoli's player`),
    or, for a key with a default, leave it out."""
    name = owner.chooser(actor, keys, seat, others)
    if name is None:
        return _("ask the GM") if required else _("leave it out, or ask the GM")
    if required:
        return _("ask {name}'s player").format(name=name)
    return _("leave it out, or ask {name}'s player").format(name=name)


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


def key_label(model: type[BaseModel], name: str, lang: str | None = None) -> str:
    """The display name of `model`'s key `name` in `lang` (default: the reader's)."""
    return field_label(name, model.model_fields.get(name), lang)


def key_spellings(model: type[BaseModel]) -> dict[str, str]:
    """Every spelling of `model`'s keys → the key: its name and its display names."""
    return field_spellings(model)


def allowed_words(info: FieldInfo) -> str:
    """What a key accepts, in the reader's words (`yes/no`, `whole number, 0..10`, a table:
    `JSON, e.g. {"A": 1}`)."""
    from jdr.params import describe_allowed

    if _shapes(info.annotation) == {TABLE}:  # a table, or a list of tables: JSON only
        return _("JSON, e.g. {example}").format(example=_json_example(info.annotation, info))
    return describe_allowed(info)


TABLE_KEYS = "table_keys"
"""A key's `json_schema_extra` entry naming the keys of the table(s) it takes (`key(table=…)`)."""


def table_names(info: FieldInfo | None, lang: str | None = None) -> dict[str, str]:
    """The keys of the table(s) a key takes → their names in `lang` (default: the reader's)."""
    french = (lang or current_language()) == "fr"
    declared = schema_extra(info).get(TABLE_KEYS) or {}
    return {k: str(n[1] if french and len(n) > 1 else n[0]) for k, n in declared.items()}


def table_shown(info: FieldInfo | None, value: Any) -> Any:
    """`value` (a table or a list of tables) with its keys by their names in the reader's
    language; anything else as it is."""
    names = table_names(info)
    if not names:
        return value
    if isinstance(value, dict):
        return {names.get(k, k): v for k, v in value.items()}
    if isinstance(value, list):
        return [table_shown(info, item) for item in value]
    return value


def table_read(info: FieldInfo | None, value: Any) -> Any:
    """`value` (a table or a list of tables as typed) with its keys read as their identifiers,
    typed by their names in either language (any case, with or without accents)."""
    from jdr.names import find

    declared = schema_extra(info).get(TABLE_KEYS) or {}
    if not declared:
        return value
    spellings = {k: k for k in declared} | {
        str(name): k for k, names in declared.items() for name in names
    }
    if isinstance(value, dict):
        return {(find(str(k), spellings, _("key")) or k): v for k, v in value.items()}
    if isinstance(value, list):
        return [table_read(info, item) for item in value]
    return value


def typed_word(word: str) -> str:
    """A word of an example line as a shell takes it: as is when it can be (accents are
    fine), else in double quotes, else in single quotes.

    >>> print(typed_word("énergie=oui"), typed_word("pas d'esquive"), typed_word('say="hi"'))
    énergie=oui "pas d'esquive" 'say="hi"'
    """
    if word and not any(char.isspace() or char in SHELL_SPECIAL for char in word):
        return word
    if not any(char in word for char in '"$`\\!'):
        return f'"{word}"'
    return shlex.quote(word)


SHELL_SPECIAL = frozenset("'\"$`\\!&;|<>()*?[]#~{}")
"""Characters a shell reads as more than a letter (`typed_word` quotes a word holding one)."""


def _unknown(
    field: str, value: str, spellings: Mapping[str, str], shown: Callable[[str], str]
) -> UnknownNameError:
    """An unknown name, listing the known ones and the closest by their display names in the
    reader's language (`shown(identifier)`)."""
    from jdr.names import closest

    known = list(dict.fromkeys(spellings.values()))
    suggestion = closest(value, spellings)
    return UnknownNameError(
        field,
        value,
        [shown(name) for name in known],
        shown(suggestion) if suggestion is not None else None,
    )


def parse_keys(model: type[BaseModel], pairs: Sequence[str]) -> Json:
    """`key=value` words → the keys of `model` that were given, validated (key names and
    choice values by their identifiers or their display names in either language, yes/no in
    either, as people type them; a list at its commas; a table as JSON).

    >>> from pydantic import BaseModel
    >>> class Keys(BaseModel):
    ...     energy: bool = key("…", fr="énergie", default=False)
    >>> parse_keys(Keys, ["Énergie=oui"]), parse_keys(Keys, ["energy=Faux"])
    ({'energy': True}, {'energy': False})
    """
    from jdr.names import find
    from jdr.params import validate_params

    spellings = key_spellings(model)
    given: Json = {}
    for pair in pairs:
        raw_key, equals, value = pair.partition("=")
        if not equals or not raw_key.strip():
            raise InputError(_("option"), pair, "key=value", _("not a key=value pair"))
        found = find(raw_key.strip(), spellings, _("key"))
        if found is None:
            raise _unknown(
                _("key"), raw_key.strip(), spellings, lambda name: key_label(model, name)
            )
        info = model.model_fields[found]
        given[found] = table_read(info, _value(found, info, value))
    validated = validate_params(model, given, name=lambda name: key_label(model, name))
    data: Json = validated.model_dump(mode="json", exclude_unset=True)
    return data


def _value(name: str, info: FieldInfo, text: str) -> Any:
    """A typed value for the model: a choice's display name or yes/no (in either language)
    read as its value, JSON only where the key's type needs it (a table, a list of tables; a
    list when the text is a JSON list), anything else as typed (the model reads numbers and a
    list at its commas). A name is a name: `target=[PNJ] Garde` is the fighter `[PNJ] Garde`,
    never JSON.

    >>> from pydantic import BaseModel
    >>> class Keys(BaseModel):
    ...     target: str
    ...     targets: list[str]
    ...     protection: dict[str, str]
    >>> fields = Keys.model_fields
    >>> _value("target", fields["target"], "[PNJ] Garde")
    '[PNJ] Garde'
    >>> _value("targets", fields["targets"], "[PNJ] Garde, Bob")
    '[PNJ] Garde, Bob'
    >>> _value("targets", fields["targets"], '["A, B", "C"]')
    ['A, B', 'C']
    >>> _value("protection", fields["protection"], '{"Bob": "x"}')
    {'Bob': 'x'}
    >>> _value("protection", fields["protection"], "{Bob: x}")
    Traceback (most recent call last):
    ...
    jdr.errors.InputError: value: '{Bob: x}' (not valid JSON at character 2; allowed: ...)
    """
    from jdr.names import find
    from jdr.params import choices_of, is_flag

    stripped = text.strip()
    if choices_of(info.annotation):
        spellings = choice_spellings(info)
        found = find(stripped, spellings, _("value"))
        if found is None:
            raise _unknown(
                field_label(name, info), stripped, spellings, lambda v: choice_label(info, v)
            )
        return found
    if is_flag(info):
        found = find(stripped, {word: str(flag) for word, flag in FLAG_WORDS.items()}, _("value"))
        if found is None:
            raise InputError(field_label(name, info), text, _("yes/no"), _("not yes or no"))
        return found == "True"
    shapes = _shapes(info.annotation)
    if not shapes & {TABLE, LIST} or not stripped.startswith(("{", "[")):
        return stripped
    try:
        from jdr.bounded import loads_json

        value = loads_json(stripped, _("value"), text)  # nesting and digits bounded
    except json.JSONDecodeError as error:
        if shapes <= {TABLE}:  # nothing but JSON can be meant
            allowed = _("JSON, e.g. {example}").format(example=_json_example(info.annotation, info))
            reason = _("not valid JSON at character {at}").format(at=error.pos + 1)
            raise InputError(_("value"), text, allowed, reason) from None
        return stripped  # text, or a list at its commas: `[PNJ] Garde, Bob`
    if isinstance(value, dict) and TABLE not in shapes:
        return stripped
    return value


TABLE, LIST, TEXT = "table", "list", "text"
"""What a key's type may be given as (`_shapes`): JSON only (a table, a list of tables), a list
(JSON or at its commas), or text (a name, a number, yes/no: never JSON)."""


def _shapes(annotation: Any) -> set[str]:
    """The shapes a key of type `annotation` takes (`TABLE`, `LIST`, `TEXT`).

    >>> from typing import Any, Optional
    >>> sorted(_shapes(dict[str, int])), sorted(_shapes(list[dict[str, Any]]))
    (['table'], ['table'])
    >>> sorted(_shapes(Optional[list[str]])), sorted(_shapes(str | None)), sorted(_shapes(Any))
    (['list'], ['text'], ['list', 'table', 'text'])
    """
    import types
    import typing
    from collections.abc import Mapping as MappingType
    from collections.abc import Sequence as SequenceType

    if annotation is Any:
        return {TABLE, LIST, TEXT}
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _shapes(args[0])
    if origin in (typing.Union, types.UnionType):
        return set().union(*(_shapes(arg) for arg in args if arg is not type(None)))
    if origin in (list, tuple, set, frozenset, SequenceType):
        items = set().union(*(_shapes(arg) for arg in args if arg is not Ellipsis))
        return {TABLE} if items and items <= {TABLE} else {LIST}
    if origin in (dict, MappingType) or annotation is dict:
        return {TABLE}
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {TABLE}
    return {TEXT}


def _json_example(annotation: Any, info: FieldInfo | None = None) -> str:
    """A JSON value of the kind `annotation` takes, for a message: a list of tables, or a table;
    with the names of its keys in the reader's language when the key declares them (`info`).

    >>> _json_example(list[dict[str, int]]), _json_example(dict[str, int] | None)
    ('[{"name": "A"}]', '{"A": 1}')
    """
    import types
    import typing

    origin = typing.get_origin(annotation)
    args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    if origin is typing.Annotated or (origin in (typing.Union, types.UnionType) and args):
        return _json_example(args[0], info)
    names = table_names(info)
    if names:
        table = "{" + ", ".join(f'"{name}": …' for name in names.values()) + "}"
        return f"[{table}, …]" if origin in (list, tuple, set, frozenset) else table
    return '[{"name": "A"}]' if origin in (list, tuple, set, frozenset) else '{"A": 1}'


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
