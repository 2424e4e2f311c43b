"""What `jdr fight …` prints: sentences, never a key=value dump. Every text comes from the core
(the systems' narration, views and command models); names are printed as they are, never read
as Rich markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from jdr.cli.click_words import placeholders
from jdr.cli.render import console
from jdr.i18n import _, current_language

if TYPE_CHECKING:
    from jdr.fights.commands import Commands
    from jdr.fights.narration import Told
    from jdr.fights.story import Chapter
    from jdr.fights.view import View
    from jdr.journal.entries import Entry
    from jdr.systems.protocol import RuleSystem

Json = dict[str, Any]


def print_events(
    told: Sequence[Told],
    system: RuleSystem,
    state: Json,
    legal: list[str],
    entry: Entry | None = None,
) -> None:
    """An action's sentences, its journal line, where the fight stands, what may be played."""
    from jdr.fights.narration import Words
    from jdr.fights.view import view_of
    from jdr.journal.words import journal_lines

    out = console()
    for each in told:
        out.print(each.text, markup=False)
    if entry is not None:
        for line in journal_lines(entry):
            out.print(line, markup=False, style="dim")
    from jdr.fights.ending import ending_of

    view = view_of(system, state, Words("text", state))
    out.print(view.status, markup=False)
    if ending_of(state) is None:  # an ended fight offers no command
        print_legal(legal, system)


def shown_commands(system: RuleSystem | None, names: Sequence[str]) -> list[str]:
    """Commands by their display names in the reader's language (a system without command
    models: its names, `_` read as spaces)."""
    commands: Commands | None = getattr(system, "fight_commands", None)
    if commands is None:
        return [name.replace("_", " ") for name in names]
    return commands.shown_names(list(names))


def print_legal(legal: list[str], system: RuleSystem | None = None) -> None:
    shown = shown_commands(system, legal)
    console().print(
        _("legal commands: {commands}").format(commands=", ".join(shown) or "-"), markup=False
    )


def print_state(
    fight: int,
    campaign: str,
    view: View,
    legal: list[str] | None,
    system: RuleSystem | None = None,
) -> None:
    """`jdr fight show`: the fight, where it stands, each fighter on one line, what may be
    played (`legal` None: nothing, the fight has ended)."""
    from rich.markup import escape

    out = console()
    title = _("fight {fight}").format(fight=fight)
    out.print(f"[bold]{escape(title)}[/bold] — {escape(campaign)}", markup=True)
    out.print(view.status, markup=False)
    for line in view.fighters:
        out.print(line, markup=False)
    if legal is not None:
        print_legal(legal, system)


def print_log(story: Sequence[Chapter]) -> None:
    """`jdr fight log`: every action, numbered within the fight (`#-` for an undo or a redo),
    in sentences; an action taken back says so."""
    out = console()
    for chapter in story:
        lines = chapter.lines()
        if chapter.undone:
            lines = [_("(undone) {line}").format(line=line) for line in lines]
        number = "-" if chapter.ordinal is None else str(chapter.ordinal)
        for index, line in enumerate(lines or ["-"]):
            head = f"#{number:<4}" if index == 0 else " " * 5
            out.print(f"{head} {line}", markup=False)


def print_commands(
    systems: Sequence[RuleSystem],
    fight: int | None = None,
    actor: str | None = None,
    state: Json | None = None,
    legal: list[str] | None = None,
    lines: dict[str, str | None] | None = None,
    names: list[str] | None = None,
) -> None:
    """`jdr fight commands`: the commands (those legal now in a fight), their help, an example
    line each."""
    from jdr.fights.narration import Words
    from jdr.fights.view import view_of
    from jdr.systems.protocol import display_name

    out = console()
    if fight is not None and state is not None:
        system = systems[0]
        view = view_of(system, state, Words("text", state))
        out.print(
            _("fight {fight} — {status}").format(fight=fight, status=view.status), markup=False
        )
        if actor is not None:
            out.print(
                _("{actor} may play: {commands}").format(
                    actor=actor, commands=", ".join(shown_commands(system, legal or [])) or "-"
                ),
                markup=False,
            )
    for system in systems:
        commands: Commands | None = getattr(system, "fight_commands", None)
        if fight is None:
            name = display_name(system, current_language())
            out.print(f"{name} ({system.id})", markup=False)
        if commands is None:
            for name in shown_commands(system, legal or []):
                out.print(f"  {name}", markup=False)
            continue
        for command in commands:
            if legal is not None and command.name not in legal:
                continue
            rule = f" ({command.rule})" if command.rule else ""
            out.print(f"  {command.shown()} — {_(command.help)}{rule}", markup=False)
            if command.owner.described(command.keys):
                out.print(f"      {command.owner.described(command.keys)}", markup=False)
            example = (
                (lines or {}).get(command.name)
                if fight is not None
                else (f"jdr fight act {placeholders('FIGHT ACTOR')} " + commands.line(command.name))
            )
            if example:
                out.print(f"      {example}", markup=False)
    if fight is not None:
        out.print(
            _("jdr fight act {fight} ACTOR COMMAND --help: a command's keys.").format(fight=fight),
            markup=False,
        )


def command_help(commands: Commands, name: str, example: str | None) -> None:
    """`jdr fight act FIGHT ACTOR COMMAND --help`: the command, its keys (name, type, allowed
    values, default) in the reader's language, and an example."""
    out = console()
    command = commands.get(name)
    rule = f" ({command.rule})" if command.rule else ""
    out.print(f"{command.shown()} — {_(command.help)}{rule}", markup=False)
    if command.owner.described(command.keys):
        out.print(command.owner.described(command.keys), markup=False)
    keys = commands.keys(name)
    if not keys:
        out.print(_("No key."), markup=False)
    else:
        out.print(_("Keys:"), markup=False)
    for each in keys:
        if each.required:
            default = _("required")
        else:
            default = _("default {value}").format(value=_default(each.default))
        allowed = each.kind
        if each.choices:
            allowed = _("one of {choices}").format(choices=each.allowed)
        line = _("{key}: {allowed}; {default}").format(
            key=each.shown, allowed=allowed or "-", default=default
        )
        out.print(f"  {line}", markup=False)
        if each.description:
            out.print(f"      {each.description}", markup=False)
        if each.owner:
            out.print(f"      {each.owner}", markup=False)
    if example:
        out.print(_("Example: {line}").format(line=example), markup=False)
    if command.sealed:
        out.print(_("Sealed: nobody sees the choice until every fighter has chosen."), markup=False)


def _default(value: Any) -> str:
    if value is None:
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list | dict) and not value:
        return _("none")
    return str(value)
