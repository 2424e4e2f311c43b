"""`/jdr fight act` and `/jdr fight show` on Discord: a fight command played as the web's fight
page plays it (`jdr.table.play`: the command and its keys read by the system's command models,
their names and values in French or English; who decides what, `jdr.fights.commands.Owner`),
and the fight at a glance through the system's own fighter view (`jdr fight show`'s).

A reply tells the action's sentences with their dice, where the fight stands after it (whose
turn it is, each fighter), and the journal line of the action.
"""

from __future__ import annotations

from typing import Any

from jdr.access import Viewer
from jdr.discord.reading import (
    fight_of,
    int_option,
    journal_notes,
    keyed,
    pairs,
    reply,
    text_option,
)
from jdr.discord.types import Options, Reply
from jdr.errors import InputError, JdrError
from jdr.i18n import _
from jdr.markup import escape
from jdr.store import Campaign, Store

__all__ = ["act", "show"]

ODDS_SHOWN = 12
"""The most commands `fight show` gives the odds of (each one decides its odds on the fight's
state: a dozen stay well under a second)."""


def act(store: Store, campaign: Campaign, viewer: Viewer, options: Options) -> Reply:
    """`/jdr fight act command:… target:… character:… options:…` (see the module)."""
    from jdr import table

    fight_id = fight_of(store, viewer, campaign, int_option(options, "fight"))
    system = table.system_of(campaign)
    command = text_option(options, "command")
    if command is None:
        raise InputError(_("command"), None, _("a fight command"), _("no command given"))
    actor = _actor(store, viewer, campaign, fight_id, text_option(options, "character"))
    given = pairs(text_option(options, "options"))
    target = text_option(options, "target")
    commands = getattr(system, "fight_commands", None)
    if target is not None:
        given.append(f"{_target_key(commands, command)}={target}")
    keys = _keys(commands, command, keyed(given))
    played = table.play(store, viewer, campaign, fight_id, actor, command, keys)
    acted = played.acted
    name = commands.shown(played.command.get("action", command)) if commands else command
    title = _("Fight {fight}").format(fight=fight_id)
    who = acted.entry.actor if acted.entry is not None and acted.entry.actor else actor
    said = " · ".join(escape(str(text), "markdown") for text in (who, name))
    lines = [f"**{escape(title, 'markdown')}** · {said}"]
    lines += _story(store, system, fight_id, acted.version)
    lines.append("")
    lines += _state(table.fight_page(store, viewer, campaign, fight_id, recaps=False, last=1))
    if acted.entry is not None:
        lines.append("")
        lines += journal_notes(acted.entry)
    return reply(lines)


def _actor(
    store: Store, viewer: Viewer, campaign: Campaign, fight_id: int, typed: str | None
) -> str:
    """Who plays: the character named (the GM's choice; a player's must be their own), else
    the player's own character, else (the GM) the one fighter the fight awaits."""
    from jdr import table

    if typed is not None:
        return typed
    if not viewer.is_gm:
        mine = viewer.require_actor(None)  # a spectator is refused
        if mine is None:
            raise InputError(
                _("character"), None, _("your character"), _("your seat has no character yet")
            )
        return mine
    page = table.fight_page(store, viewer, campaign, fight_id, recaps=False, last=1)
    awaited = list(page.awaited)
    if len(awaited) != 1:
        raise InputError(
            "character",
            None,
            ", ".join(awaited or page.participants),
            _("name the fighter who plays"),
        )
    return awaited[0]


def _keys(commands: Any, command: str, typed: dict[str, str]) -> dict[str, str]:
    """The keys typed, each by its name when `spelled` finds it (a key with a space typed with
    `_`); else as typed, for the service to read or refuse (naming it, and the closest)."""
    from jdr.discord.reading import spelled
    from jdr.labels import field_spellings

    if commands is None:
        return typed
    try:
        spellings = field_spellings(commands.get(command).keys)
    except JdrError:  # an unknown command: the service says so
        return typed
    return {spelled(key, spellings) or key: value for key, value in typed.items()}


def _target_key(commands: Any, command: str) -> str:
    """The key of `command` the `target` option fills: the one named `target`, else its first
    key naming a fighter (`key(fighter=True)`)."""
    from jdr.fights.commands import FIGHTER
    from jdr.labels import schema_extra

    if commands is None:
        return "target"
    fields = commands.get(command).keys.model_fields
    if "target" in fields:
        return "target"
    named = [n for n, info in fields.items() if schema_extra(info).get(FIGHTER)]
    if not named:
        raise InputError(
            "target", None, "-", _("this command names no fighter: leave the target out")
        )
    return str(named[0])


def _story(store: Store, system: Any, fight_id: int, version: int) -> list[str]:
    """The sentences of the action whose last event is `version`, each with its dice."""
    from jdr.fights.cards import dice_of
    from jdr.fights.story import chapters

    stored = store.events(fight_id)
    action = next((e.action for e in stored if e.seq == version), None)
    if action is None:
        return []
    told = [c for c in chapters(system, stored, only={action}) if c.number == action]
    lines = []
    for each in told[-1].told if told else []:
        dice = " ".join(str(die.face) for die in dice_of(each.event))
        line = escape(each.text, "markdown")
        lines.append(f"{line} 🎲 `{dice}`" if dice else line)
    return lines


def _state(page: Any) -> list[str]:
    """Where the fight stands (who won, or whose turn it is) and each fighter, as the system's
    view words them (`jdr fight show`), from its page (`jdr.table.fight_page`)."""
    lines = [f"**{escape(page.view.status, 'markdown')}**"]
    if page.ending is None and page.status != "ended" and page.pace.due is not None:
        lines.append(escape(page.pace.line(), "markdown"))  # by when
    lines += [f"- {escape(line, 'markdown')}" for line in page.view.fighters]
    if page.status == "ended":
        lines.append(_("this fight has ended"))
    return lines


def show(store: Store, campaign: Campaign, viewer: Viewer, options: Options) -> Reply:
    """`/jdr fight show fight:…`: the fight at a glance, and each command the caller may play
    now with an example to type and its odds."""
    from jdr import table

    fight_id = fight_of(store, viewer, campaign, int_option(options, "fight"))
    page = table.fight_page(store, viewer, campaign, fight_id, recaps=False, last=1)
    title = _("Fight {fight}").format(fight=fight_id)
    lines = [f"**{escape(title, 'markdown')}** — {escape(campaign.name, 'markdown')}"]
    lines += _state(page)
    mine = _commands(store, viewer, campaign, fight_id, page)
    if mine:
        head = _("Your commands now:")
        lines += ["", f"**{escape(head, 'markdown')}**", *mine]
    return reply(lines)


def _commands(
    store: Store, viewer: Viewer, campaign: Campaign, fight_id: int, page: Any
) -> list[str]:
    """`- Kaito · `attack` · `target=Corbeau` — chance to hit 52 %`, for each fighter the caller
    plays and each command it may play now (odds for the first `ODDS_SHOWN`)."""
    from jdr import table
    from jdr.fights.sealed import public
    from jdr.fights.service import state

    system = table.system_of(campaign)
    commands = getattr(system, "fight_commands", None)
    if commands is None or system.fight is None:
        return [f"- {escape(a, 'markdown')} · {', '.join(c)}" for a, c in page.mine.items()]
    seen = public(state(store, fight_id, system.fight))
    lines: list[str] = []
    for actor, offered in page.mine.items():
        for name in offered:
            typed = _typed(commands.line(name, seen, actor))
            said = ""
            if len(lines) < ODDS_SHOWN:
                said = _odds(store, viewer, campaign, fight_id, actor, name, page, commands)
            lines.append(f"- {escape(actor, 'markdown')} · {typed}{said}")
    return lines


def _typed(line: str) -> str:
    """A command's example line (`attack target="Maître Corbeau"`, as a shell reads it) as the
    `command` and `options` of `/jdr fight act` take it: `attack` · `target=Maître Corbeau`."""
    import shlex

    try:
        split = shlex.split(line)
    except ValueError:  # not as a shell reads it: the line as it is
        split = line.split()
    words = [word.replace("`", "'") for word in split] or ["-"]
    shown = f"`{words[0]}`"
    return f"{shown} · `{' '.join(words[1:])}`" if len(words) > 1 else shown


def _odds(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    fight_id: int,
    actor: str,
    name: str,
    page: Any,
    commands: Any,
) -> str:
    """` — chance to hit 52 %` for the command's example keys, or nothing (it rolls nothing,
    or its example is not enough to say)."""
    from jdr import table

    keys = page.examples.get(actor, {}).get(name)
    if keys is None:
        keys = commands.get(name).example_keys(None, actor)
    try:
        found = table.command_odds(store, viewer, campaign, fight_id, actor, name, keys)
    except JdrError:
        return ""
    return f" — {escape(found.said(), 'markdown')}" if found is not None else ""
