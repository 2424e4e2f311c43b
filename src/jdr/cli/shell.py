"""The shell around every command: the options any level takes, and what a bare group shows.

Every group of `jdr` is a `ShellGroup`:

- **Global options anywhere.** `--json` and `--lang` are accepted by every group, before the
  command, with the meaning they have after it: `jdr --lang fr roll pokemon check --dice 2` is
  `jdr roll pokemon check --dice 2 --lang fr`. A group remembers them (in the context's `meta`,
  shared down the chain) and hands them to the command it runs, which reads them as its own.
  (`jdr.cli.app.main` also reads both before parsing, so even a parse error honours them.)
- **Exploring.** A bare group (`jdr`, `jdr roll`, `jdr campaign` …) lists what it holds, one line
  each, and exits 0 (with `--json`: `{"command", "commands": [{"name", "help"}]}`).
- **Unknown names.** An unknown subcommand is refused with the names that exist; while the shell
  completes a word (resilient parsing), nothing is ever raised.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from jdr.cli import complete
from jdr.cli.stored import JSON_HELP, LANG_HELP
from jdr.errors import InputError, JdrError, UnknownNameError
from jdr.i18n import _, current_language

_click = typer._click

GLOBALS = "jdr.globals"
"""`ctx.meta` key: the global options given at a group's level, option → value."""


def _remember(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
    if value not in (None, False):
        ctx.meta.setdefault(GLOBALS, {})[param.opts[0]] = value
    return value


@cache
def global_params(lang: str) -> list[Any]:
    """The click options `--json` and `--lang` as a group takes them (help texts in `lang`)."""

    def options(
        json: Annotated[
            bool,
            typer.Option("--json", help=_(JSON_HELP), callback=_remember, expose_value=False),
        ] = False,
        lang: Annotated[
            str | None,
            typer.Option(
                "--lang",
                metavar="fr|en",
                help=_(LANG_HELP),
                callback=_remember,
                expose_value=False,
                autocompletion=complete.languages,
            ),
        ] = None,
    ) -> None:
        """Never called: its signature declares the options."""

    probe = typer.Typer(add_completion=False)
    probe.command()(options)
    return list(typer.main.get_command(probe).params)


def given_globals(ctx: Any) -> dict[str, Any]:
    """The global options given before the command, option → value."""
    return dict(ctx.meta.get(GLOBALS, {}))


def wants_json(ctx: Any) -> bool:
    return bool(given_globals(ctx).get("--json"))


class ShellGroup(TyperGroup):
    """A group of `jdr`: takes the global options, hands them down, lists itself when bare."""

    def __init__(self, **attrs: Any) -> None:
        attrs["no_args_is_help"] = False  # a bare group lists what it holds (exit 0)
        if attrs.get("subcommand_metavar") is None:
            attrs["subcommand_metavar"] = _("COMMAND [ARGS]...")
        super().__init__(**attrs)

    # --- global options ---------------------------------------------------------------------

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        help_option = self.get_help_option(ctx)
        own = {opt for param in params for opt in param.opts}
        extra = [p for p in global_params(current_language()) if p.opts[0] not in own]
        rest = [param for param in params if param is not help_option]
        return [*rest, *extra, *([help_option] if help_option is not None else [])]

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[Any, Any, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and not isinstance(command, TyperGroup):
            rest = [*_handed_down(ctx, command), *rest]
        return name, command, rest

    # --- names --------------------------------------------------------------------------------

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        try:
            command = self.find_command(ctx, cmd_name)
        except JdrError:
            if ctx.resilient_parsing:  # completing a word: never an error
                return None
            raise
        if command is None and not ctx.resilient_parsing:
            from jdr.names import closest

            known = sorted(self.list_commands(ctx))
            suggestion = closest(cmd_name, self.suggestions(ctx))
            raise UnknownNameError(self.item_name(), cmd_name, known, suggestion)
        return command

    def suggestions(self, ctx: Any) -> list[str]:
        """The names an unknown one may be a typo of (default: the subcommands)."""
        return list(self.list_commands(ctx))

    def item_name(self) -> str:
        """What this group's subcommands are, for an error message: command, action …"""
        return _("command")

    def find_command(self, ctx: Any, cmd_name: str) -> Any:
        """The subcommand `cmd_name`, or None (a subclass may raise a `JdrError` saying why)."""
        return super().get_command(ctx, cmd_name)

    # --- exploring ----------------------------------------------------------------------------

    def invoke(self, ctx: Any) -> Any:
        if not ctx._protected_args and not ctx.args:
            return self.explore(ctx)
        return super().invoke(ctx)

    def explore(self, ctx: Any) -> int:
        """List what this group holds, one line each (exit code 0)."""
        rows = self.listing(ctx)
        if wants_json(ctx):
            from jdr.cli.render import emit_json

            emit_json(
                {
                    "command": ctx.command_path,
                    "commands": [{"name": name, "help": text} for name, text in rows],
                }
            )
            return 0
        formatter = ctx.make_formatter()
        if self.help:
            formatter.write_text(self.help.split("\n\n")[0])
        with formatter.section(self.listing_title()):
            formatter.write_dl(rows)
        formatter.write_paragraph()
        formatter.write_text(self.hint(ctx))
        typer.echo(formatter.getvalue(), nl=False)
        return 0

    def listing(self, ctx: Any) -> list[tuple[str, str]]:
        """(name, one line) for each subcommand."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.find_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=60)))
        return rows

    def listing_title(self) -> str:
        return _("Commands")

    def hint(self, ctx: Any) -> str:
        return _("{command} COMMAND --help: a command's options.").format(command=ctx.command_path)


def _handed_down(ctx: Any, command: Any) -> list[str]:
    """The global options given at the groups' levels, as the command `command` takes them."""
    declared = {opt for param in command.params for opt in param.opts}
    tokens: list[str] = []
    for option, value in given_globals(ctx).items():
        if option in declared:
            tokens += [option] if value is True else [option, str(value)]
        elif option == "--json":
            reason = _("{command} has no JSON output").format(
                command=f"{ctx.command_path} {command.name}"
            )
            raise InputError("--json", None, _("the command without --json"), reason)
    return tokens


def as_shell_group(app: typer.Typer, name: str, cls: type[ShellGroup] = ShellGroup) -> Any:
    """The click group of the Typer `app` (a plug-in's, say), as a `cls`."""
    holder = typer.Typer(add_completion=False, rich_markup_mode=None)
    holder.add_typer(app, name=name, cls=cls)
    return typer.main.get_group(holder).commands[name]
