"""The slash command jdr registers on Discord: `/jdr` and its subcommands, with their options.

Each name and description exists in English (Discord's base) and French (its `fr`
localization): a French client shows and accepts `/jdr dés expression:2d6`, and Discord sends the
English names either way, so the code reads only those (`jdr.discord.replies` reads exactly the
option names declared here). `definitions()` is what `jdr discord commands --json` prints and
`jdr discord register` sends (a bulk overwrite of the application's commands).

>>> [" ".join(path) for path in paths()][:4]
['dice', 'roll', 'odds', 'fight act']
>>> [o.name for o in option_list(("fight", "act"))]
['command', 'target', 'character', 'options']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jdr.i18n import N_, _, language

__all__ = [
    "BOOLEAN",
    "COMMAND",
    "INTEGER",
    "STRING",
    "Group",
    "Option",
    "definitions",
    "option_list",
    "paths",
]

SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5
"""Discord's application command option types."""
CHAT_INPUT = 1
NAME = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for a command's or an option's name (lowercase letters, digits, - and _)."""
MAX_TEXT = 500
"""The longest text option accepted (Discord's own limit is 6000)."""


@dataclass(frozen=True)
class Option:
    """An option of a subcommand: its English and French names, its type, its description."""

    name: str
    fr: str
    kind: int
    description: str
    required: bool = False
    min_value: int | None = None

    def definition(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            **_named(self.name, self.fr, self.description),
            "type": self.kind,
            "required": self.required,
        }
        if self.kind == STRING:
            found["max_length"] = MAX_TEXT
        if self.min_value is not None:
            found["min_value"] = self.min_value
        return found


@dataclass(frozen=True)
class Group:
    """A subcommand (`options` are its options) or a group of subcommands (`subs`)."""

    name: str
    fr: str
    description: str
    options: tuple[Option, ...] = ()
    subs: tuple[Group, ...] = field(default=())

    def definition(self) -> dict[str, Any]:
        if self.subs:
            inner = [sub.definition() for sub in self.subs]
            kind = SUB_COMMAND_GROUP
        else:
            inner = [option.definition() for option in self.options]
            kind = SUB_COMMAND
        return {**_named(self.name, self.fr, self.description), "type": kind, "options": inner}


def _named(name: str, fr: str, description: str) -> dict[str, Any]:
    """A name and a description, with their French localizations."""
    with language("en"):
        english = _(description)
    with language("fr"):
        french = _(description)
    return {
        "name": name,
        "name_localizations": {"fr": fr},
        "description": english,
        "description_localizations": {"fr": french},
    }


_CHARACTER = Option(
    "character", "personnage", STRING, N_("Who acts (the GM names anyone; a player, their own)")
)
_PARAMS = Option("options", "options", STRING, N_("The action's parameters: key=value key=value …"))

COMMAND = Group(
    "jdr",
    "jdr",
    N_("Dice, odds and fights of the campaign this channel plays"),
    subs=(
        Group(
            "dice",
            "dés",
            N_("Roll dice: 2d6+3, 4d6kh3, 1d20 …"),
            (Option("expression", "expression", STRING, N_("The dice to roll"), required=True),),
        ),
        Group(
            "roll",
            "jet",
            N_("Roll an action of the campaign's rule system"),
            (
                Option("action", "action", STRING, N_("The action to roll"), required=True),
                _CHARACTER,
                Option("hidden", "caché", BOOLEAN, N_("Only the GM sees it (GM only)")),
                _PARAMS,
            ),
        ),
        Group(
            "odds",
            "chances",
            N_("Exact odds of an action, before rolling it"),
            (
                Option("action", "action", STRING, N_("The action"), required=True),
                _CHARACTER,
                _PARAMS,
            ),
        ),
        Group(
            "fight",
            "combat",
            N_("The campaign's fight"),
            subs=(
                Group(
                    "act",
                    "agir",
                    N_("Play a command in the current fight"),
                    (
                        Option(
                            "command", "commande", STRING, N_("The command to play"), required=True
                        ),
                        Option("target", "cible", STRING, N_("Whom it aims at")),
                        _CHARACTER,
                        _PARAMS,
                    ),
                ),
                Group(
                    "show",
                    "voir",
                    N_("Show a fight: fighters, turn, what each may do"),
                    (Option("fight", "combat", INTEGER, N_("The fight's number"), min_value=1),),
                ),
            ),
        ),
        Group(
            "recap",
            "résumé",
            N_("The recap of a fight or of one of its rounds"),
            (
                Option("fight", "combat", INTEGER, N_("The fight's number"), min_value=1),
                Option("round", "tour", INTEGER, N_("One round only"), min_value=1),
            ),
        ),
        Group(
            "campaign",
            "campagne",
            N_("This channel's campaign"),
            subs=(
                Group(
                    "link",
                    "lier",
                    N_("Play a campaign in this channel (GM: a code from jdr discord link)"),
                    (
                        Option(
                            "code",
                            "code",
                            STRING,
                            N_("The code jdr discord link printed"),
                            required=True,
                        ),
                    ),
                ),
            ),
        ),
        Group(
            "join",
            "rejoindre",
            N_("Take your seat at the table with the GM's invite"),
            (
                Option(
                    "code", "code", STRING, N_("The invite (its code or its link)"), required=True
                ),
            ),
        ),
    ),
)
"""`/jdr` and everything below it."""


def definitions() -> list[dict[str, Any]]:
    """The application's commands as Discord's API takes them (a list of one: `/jdr`)."""
    top = COMMAND.definition()
    return [{**top, "type": CHAT_INPUT}]


def _walk(group: Group, above: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Group]]:
    for sub in group.subs:
        if sub.subs:
            yield from _walk(sub, (*above, sub.name))
        else:
            yield (*above, sub.name), sub


def paths() -> list[tuple[str, ...]]:
    """Every subcommand's path below `/jdr`: `("dice",)`, `("fight", "act")` …"""
    return [path for path, _sub in _walk(COMMAND, ())]


def option_list(path: tuple[str, ...]) -> tuple[Option, ...]:
    """The options of the subcommand at `path` (`KeyError` for an unknown path)."""
    for found, sub in _walk(COMMAND, ()):
        if found == path:
            return sub.options
    raise KeyError(path)
