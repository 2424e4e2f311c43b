"""`jdr`: the command line.

Start-up stays light (`jdr --help` imports neither NumPy nor the rule systems): systems load when
a command names them, NumPy when a distribution is computed. `main()` renders every `JdrError` and
every usage error as one line on stderr and exit code 2 (plus `{"error": …}` on stdout with
`--json`). Every group is a `jdr.cli.shell.ShellGroup`: `--json` and `--lang` anywhere, a bare
group lists what it holds. Shell completion: `jdr --install-completion` (see `jdr.cli.complete`).
"""

import os
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from jdr.cli import complete
from jdr.cli.shell import ShellGroup
from jdr.cli.system_groups import AdviseGroup, OddsGroup, RollGroup, TopGroup
from jdr.errors import InputError, JdrError
from jdr.i18n import _, elide, resolve_language, set_language

# Typer's vendored click, for its exceptions.
_click = typer._click
COMPLETE_VAR = complete.COMPLETE_VAR


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"jdr {version('jdr')}")
        raise typer.Exit(0)


def _install_completion(ctx: Any, param: Any, value: Any) -> Any:
    """Typer's `--install-completion`, saying what it did in the reader's language."""
    if not value or ctx.resilient_parsing:
        return value
    from typer._completion_shared import install

    shell, path = install(shell=value if isinstance(value, str) else None)
    typer.echo(
        _("{shell} completion installed in {path}; it works in a new terminal.").format(
            shell=shell, path=path
        )
    )
    raise typer.Exit(0)


def _completion_options(command: Any) -> None:
    """Typer's completion options, with help in the reader's language."""
    helps = {
        "--install-completion": _("Install completion for the current shell."),
        "--show-completion": _("Show the completion script for the current shell."),
    }
    for param in command.params:
        name = param.opts[0] if param.opts else ""
        if name in helps:
            param.help = helps[name]
        if name == "--install-completion":
            param.callback = _install_completion


def _short_output(command: Any) -> Any:
    """One grammar for every file a command writes: its `--output FILE` answers to `-o FILE`
    too, in every group (`jdr journal export … -o FILE`, `jdr sheet export … -o FILE`)."""
    for sub in getattr(command, "commands", {}).values():
        _short_output(sub)
    for param in command.params:
        if "--output" in param.opts and "-o" not in param.opts:
            param.opts.insert(0, "-o")
    return command


def build_app() -> typer.Typer:
    """The Typer application, with help texts in the current language."""
    app = typer.Typer(
        name="jdr",
        cls=TopGroup,
        help=_(
            "Dice, exact odds and fights for five French homebrew tabletop RPGs. "
            "`jdr SYSTEM --help` lists a system's own commands."
        ),
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
    )

    @app.callback()
    def top(
        version: Annotated[
            bool,
            typer.Option(
                "--version",
                help=_("Print the version of jdr and exit."),
                callback=_show_version,
                is_eager=True,
                expose_value=False,
            ),
        ] = False,
    ) -> None:
        """Nothing to do before a command: the options above act on their own."""

    for mode, cls, text in (
        (
            "roll",
            RollGroup,
            _("Roll an action of a rule system: jdr roll SYSTEM ACTION [options]."),
        ),
        ("odds", OddsGroup, _("Exact odds of an action: jdr odds SYSTEM ACTION [options].")),
        (
            "advise",
            AdviseGroup,
            _("Ranked choices for an action: jdr advise SYSTEM ACTION [options]."),
        ),
    ):
        app.add_typer(
            typer.Typer(cls=cls, rich_markup_mode=None),
            name=mode,
            help=text,
            subcommand_metavar="SYSTEM ACTION [OPTIONS]",
        )

    from jdr.cli.campaign_commands import build_campaign
    from jdr.cli.db_commands import build_db
    from jdr.cli.discord_commands import build_discord
    from jdr.cli.fight_commands import build_fight
    from jdr.cli.journal_commands import build_journal
    from jdr.cli.store_commands import build_sheet

    for name, build in (
        ("campaign", build_campaign),
        ("sheet", build_sheet),
        ("fight", build_fight),
        ("journal", build_journal),
        ("db", build_db),
        ("discord", build_discord),
    ):
        app.add_typer(build(), name=name, cls=ShellGroup)

    from jdr.cli.simulate_commands import register as register_simulate

    register_simulate(app)

    from jdr.cli.top_commands import register as register_top

    register_top(app)

    return app


def _prescan(args: Sequence[str]) -> tuple[bool, str | None]:
    """`--json` and `--lang` are read before parsing, so even a parse error honours them.

    >>> _prescan(["--lang", "fr", "roll", "--json"])
    (True, 'fr')
    >>> _prescan(["dice", "2d6", "--lang=en", "--lang", "fr"])
    (False, 'fr')
    """
    want_json = "--json" in args
    lang = None
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            lang = args[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
    return want_json, lang


def main(argv: Sequence[str] | None = None) -> int:
    """The console script: run `jdr` on `argv` and return the exit code."""
    from jdr.cli import click_words

    args = list(sys.argv[1:] if argv is None else argv)
    want_json, lang = _prescan(args)
    if os.environ.get(COMPLETE_VAR):
        return _complete(lang)
    if lang is not None and lang.lower() not in ("fr", "en"):
        set_language(resolve_language(None))
        return _fail(InputError("--lang", lang, "fr, en"), want_json)
    set_language(resolve_language(lang))
    click_words.install()
    command = _short_output(typer.main.get_command(build_app()))
    _completion_options(command)
    try:
        result = command.main(args, prog_name="jdr", standalone_mode=False)
        sys.stdout.flush()  # a full disk or a closed pipe is known here, not at exit
    except OSError as error:
        return _output_failed(error)
    except SystemExit as done:  # click exits 1 by itself on a closed pipe: say so first
        if isinstance(done.__context__, OSError):
            return _output_failed(done.__context__)
        raise
    except JdrError as error:
        return _fail(error, want_json)
    except _click.exceptions.UsageError as error:
        return _fail(click_words.usage_error(error, args), want_json)
    except typer.Exit as done:
        return int(done.exit_code)
    except typer.Abort:
        sys.stderr.write(_("jdr: aborted") + "\n")
        return 1
    return result if isinstance(result, int) else 0


def _output_failed(error: OSError) -> int:
    """Standard output could not be written (a closed pipe, a full disk): one line, exit 1.

    Standard output is pointed at /dev/null first, so Python's own flush at exit has nothing
    left to fail on (and prints no second error)."""
    import errno

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file behind stdout (a test's)
        pass
    reason = error.strerror or str(error)
    if error.errno == errno.EPIPE:
        reason = _("the reader closed the pipe")
    sys.stderr.write(_("jdr: error: could not write the output: {reason}").format(reason=reason))
    sys.stderr.write("\n")
    return 1


def _complete(lang: str | None) -> int:
    """Answer the shell's completion request (`_JDR_COMPLETE=complete_bash` …): candidates on
    stdout, and never an error message or a traceback, whatever is typed."""
    from jdr.cli import click_words

    set_language(resolve_language(lang if lang in ("fr", "en") else None))
    click_words.install()  # the candidates' help, which zsh and fish show, in the reader's words
    try:
        command = _short_output(typer.main.get_command(build_app()))
        command.main([], prog_name="jdr", complete_var=COMPLETE_VAR, standalone_mode=False)
    except SystemExit as done:  # the completion answered
        return done.code if isinstance(done.code, int) else 0
    except Exception:  # a half-typed line: complete nothing rather than print an error
        return 0
    return 0


def _fail(error: JdrError, want_json: bool) -> int:
    from jdr.cli.render import emit_json

    message = elide(error.message())
    sys.stderr.write(_("jdr: error: {message}").format(message=message) + "\n")
    if want_json:
        from jdr.answers import error_json

        payload = error_json(error)
        emit_json({"error": payload})
    return int(getattr(error, "exit_status", 2))  # 1 for a stored fight its journal disowns


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
