"""The groups at the top of `jdr`: `jdr …` itself (the built-in commands, then a system's own
commands as `jdr SYSTEM …`) and `jdr roll|odds|advise SYSTEM ACTION`, whose SYSTEM is built
only when named (`jdr --help` loads no system). With `--campaign NAME` the SYSTEM may be left
out: `jdr roll ACTION --campaign NAME` plays the campaign's own system."""

from collections.abc import Sequence
from typing import Annotated, Any

import typer

from jdr.cli.shell import ShellGroup, as_shell_group
from jdr.i18n import _

# The group classes below are typed against Typer's vendored click through this alias.
_click = typer._click


class TopGroup(ShellGroup):
    """`jdr …`: the built-in commands, then `jdr SYSTEM …` for a system's own commands."""

    def find_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().find_command(ctx, cmd_name)
        if command is not None:
            return command
        from jdr.systems import default_registry

        registry = default_registry()
        system_id = registry.find(cmd_name)
        if system_id is not None:
            extra = registry.get(system_id).commands()
            if extra is not None:
                return with_lang(as_shell_group(extra, cmd_name))
        return None

    def hint(self, ctx: Any) -> str:
        return _(
            "jdr COMMAND lists what a command holds; jdr COMMAND --help, its options; "
            "jdr SYSTEM --help, a system's own commands; jdr --help, every option."
        )

    def suggestions(self, ctx: Any) -> list[str]:
        from jdr.systems import default_registry

        return [*super().suggestions(ctx), *default_registry().ids()]  # `jdr pokemn types`


def with_lang(command: Any, option: Any = None) -> Any:
    """A system's own commands take `--lang` as every jdr command does (`main` reads it before
    parsing), whether or not they declare it."""
    option = option if option is not None else _lang_option()
    for sub in getattr(command, "commands", {}).values():
        with_lang(sub, option)
    if not any("--lang" in param.opts for param in command.params):
        command.params.append(option)
    return command


def _lang_option() -> Any:
    """The `--lang` option as Typer builds it, its value left out of the command's arguments."""
    probe = typer.Typer(rich_markup_mode=None)

    @probe.command()
    def probe_command(
        lang: Annotated[
            str | None,
            typer.Option("--lang", metavar="fr|en", help=_("Language of the output.")),
        ] = None,
    ) -> None:
        """Never run: only its option is taken."""

    option = typer.main.get_command(probe).params[0]
    option.expose_value = False
    return option


class _SystemsGroup(ShellGroup):
    """`jdr roll|odds|advise SYSTEM ACTION`: one sub-group per system, built when named."""

    mode = "roll"

    def list_commands(self, ctx: Any) -> list[str]:
        from jdr.systems import default_registry

        return default_registry().ids()

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """List system ids only: naming a system loads it, listing them must not (fast help)."""
        ids = self.list_commands(ctx)
        with formatter.section(_("Systems")):
            formatter.write_text(", ".join(ids) if ids else _("No rule system is installed."))
            formatter.write_text(_("`jdr systems` lists their names and actions."))

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[Any, Any, list[str]]:
        """`SYSTEM ACTION …`, or `ACTION … --campaign NAME` when the first word names no
        system: the campaign's own system plays the action."""
        if args and not args[0].startswith("-") and not ctx.resilient_parsing:
            campaign, db = given_options(args[1:], "--campaign", "--db")
            if campaign is not None and not _names_system(args[0]):
                from jdr.cli.stored import campaign_system

                system_id = campaign_system(campaign, db)
                return system_id, self.find_command(ctx, system_id), list(args)
        return super().resolve_command(ctx, args)

    def find_command(self, ctx: Any, cmd_name: str) -> Any:
        from jdr.cli.actions import system_group
        from jdr.systems import default_registry

        return system_group(default_registry().get(cmd_name), self.mode)

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        """The system ids (without loading a system: completion stays fast), or the options."""
        from typer._click.shell_completion import CompletionItem

        ids = [CompletionItem(i) for i in self.list_commands(ctx) if i.startswith(incomplete)]
        return ids + _click.Command.shell_complete(self, ctx, incomplete)

    def listing(self, ctx: Any) -> list[tuple[str, str]]:
        """Each system that offers this mode, with its name (loading each one)."""
        from jdr.cli.actions import system_lines

        return system_lines(self.mode)

    def listing_title(self) -> str:
        return _("Systems")

    def hint(self, ctx: Any) -> str:
        return _(
            "{command} SYSTEM lists a system's actions; {command} SYSTEM ACTION --help, "
            "an action's options."
        ).format(command=ctx.command_path)


class RollGroup(_SystemsGroup):
    mode = "roll"


class OddsGroup(_SystemsGroup):
    mode = "odds"


class AdviseGroup(_SystemsGroup):
    mode = "advise"


def _names_system(word: str) -> bool:
    """Whether `word` names an installed rule system (loosely, as `jdr roll` reads it)."""
    from jdr.errors import JdrError
    from jdr.systems import default_registry

    try:
        return default_registry().find(word) is not None
    except JdrError:  # several systems spelt like it: a system's name all the same
        return True


def given_options(args: Sequence[str], *names: str) -> tuple[str | None, ...]:
    """The values of the options `names` in `args` as typed (`--db URL` or `--db=URL`; the last
    one given wins), None for one not given: read before the command that declares them is
    built.

    >>> given_options(["attack", "--campaign", "Duel", "--db=x.db"], "--campaign", "--db")
    ('Duel', 'x.db')
    """
    found: dict[str, str] = {}
    for i, arg in enumerate(args):
        name, equals, value = arg.partition("=")
        if name in names and equals:
            found[name] = value
        elif arg in names and i + 1 < len(args):
            found[arg] = args[i + 1]
    return tuple(found.get(name) for name in names)
