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
from jdr.cli.shell import ShellGroup, as_shell_group
from jdr.cli.stored import (
    ACTION_ID_HELP,
    ACTOR_HELP,
    CAMPAIGN_ROLL_HELP,
    CLIENT_SEED_HELP,
    DB_HELP,
    HIDDEN_HELP,
)
from jdr.errors import InputError, JdrError
from jdr.i18n import _, elide, resolve_language, set_language

# The group classes below are typed against Typer's vendored click through these aliases.
_click = typer._click
COMPLETE_VAR = complete.COMPLETE_VAR


class _TopGroup(ShellGroup):
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
                return _with_lang(as_shell_group(extra, cmd_name))
        return None

    def hint(self, ctx: Any) -> str:
        return _(
            "jdr COMMAND lists what a command holds; jdr COMMAND --help, its options; "
            "jdr SYSTEM --help, a system's own commands; jdr --help, every option."
        )

    def suggestions(self, ctx: Any) -> list[str]:
        from jdr.systems import default_registry

        return [*super().suggestions(ctx), *default_registry().ids()]  # `jdr pokemn types`


def _with_lang(command: Any, option: Any = None) -> Any:
    """A system's own commands take `--lang` as every jdr command does (`main` reads it before
    parsing), whether or not they declare it."""
    option = option if option is not None else _lang_option()
    for sub in getattr(command, "commands", {}).values():
        _with_lang(sub, option)
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


class _RollGroup(_SystemsGroup):
    mode = "roll"


class _OddsGroup(_SystemsGroup):
    mode = "odds"


class _AdviseGroup(_SystemsGroup):
    mode = "advise"


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


def build_app() -> typer.Typer:
    """The Typer application, with help texts in the current language."""
    app = typer.Typer(
        name="jdr",
        cls=_TopGroup,
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
            _RollGroup,
            _("Roll an action of a rule system: jdr roll SYSTEM ACTION [options]."),
        ),
        ("odds", _OddsGroup, _("Exact odds of an action: jdr odds SYSTEM ACTION [options].")),
        (
            "advise",
            _AdviseGroup,
            _("Ranked choices for an action: jdr advise SYSTEM ACTION [options]."),
        ),
    ):
        app.add_typer(
            typer.Typer(cls=cls, rich_markup_mode=None),
            name=mode,
            help=text,
            subcommand_metavar="SYSTEM ACTION [OPTIONS]",
        )

    from jdr.cli.fight_commands import build_fight
    from jdr.cli.journal_commands import build_journal
    from jdr.cli.store_commands import build_campaign, build_db, build_sheet

    for name, build in (
        ("campaign", build_campaign),
        ("sheet", build_sheet),
        ("fight", build_fight),
        ("journal", build_journal),
        ("db", build_db),
    ):
        app.add_typer(build(), name=name, cls=ShellGroup)

    from jdr.cli.simulate_commands import register as register_simulate

    register_simulate(app)

    json_help = _("Print one JSON object on stdout.")
    lang_help = _("Language of the output.")
    host_option = Annotated[
        str, typer.Option("--host", metavar="ADDRESS", help=_("Address to listen on."))
    ]
    port_option = Annotated[
        int, typer.Option("--port", metavar="PORT", min=1, max=65535, help=_("Port."))
    ]

    @app.command(
        "verify",
        help=_(
            "Check an exported journal offline: seeds, hash chain, every die and result."
            " Exit 1 at a discrepancy."
        ),
    )
    def verify_command(
        file: Annotated[
            str,
            typer.Argument(
                metavar="FILE.json", help=_("A journal from `jdr journal export` (- for stdin).")
            ),
        ],
        pin: Annotated[
            list[str] | None,
            typer.Option(
                "--pin",
                metavar="SEQ:HASH",
                help=_("An entry's hash seen elsewhere (a forum post): the journal must hold it."),
            ),
        ] = None,
        witness: Annotated[
            list[str] | None,
            typer.Option(
                "--witness",
                metavar="FILE",
                help=_(
                    "A saved text showing journal lines (a recap, a forum thread as text or"
                    " HTML): every head it shows must lie on the chain."
                ),
            ),
        ] = None,
        json: Annotated[bool, typer.Option("--json", help=json_help)] = False,
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
    ) -> int:
        from jdr.cli.journal_commands import verify_file

        code = verify_file(file, pin, json, witness)
        if code:
            raise typer.Exit(code)
        return 0

    @app.command("systems", help=_("List the installed rule systems and their actions."))
    def systems_command(
        json: Annotated[bool, typer.Option("--json", help=json_help)] = False,
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
    ) -> None:
        from jdr.cli.actions import show_systems

        show_systems(json)

    @app.command("dice", help=_('Roll dice notation: "2d6+3", "4d10>=6f1", "4d6kh3", "3d6!".'))
    def dice_command(
        expression: Annotated[
            str,
            typer.Argument(
                metavar="EXPRESSION",
                help=_(
                    "A dice expression, e.g. 4d10>=6f1, or several separated by ; (the forms of"
                    " Roll20, Rolisteam, Dice Maiden and Avrae too: 8d10k3, 1d20adv, 4dF)."
                ),
            ),
        ],
        odds: Annotated[
            bool, typer.Option("--odds", help=_("Print the exact distribution."))
        ] = False,
        exact: Annotated[
            bool, typer.Option("--exact", help=_('Exact probabilities, as "a/b" fractions.'))
        ] = False,
        faces: Annotated[
            str | None,
            typer.Option(
                "--faces", metavar="F,F,…", help=_("Faces already rolled, in roll order.")
            ),
        ] = None,
        seed: Annotated[
            str | None, typer.Option("--seed", metavar="N", help=_("Seed for a reproducible roll."))
        ] = None,
        campaign: Annotated[
            str | None,
            typer.Option(
                "--campaign",
                metavar="NAME",
                help=_(CAMPAIGN_ROLL_HELP),
                autocompletion=complete.campaigns,
            ),
        ] = None,
        actor: Annotated[
            str | None,
            typer.Option(
                "--actor", metavar="NAME", help=_(ACTOR_HELP), autocompletion=complete.characters
            ),
        ] = None,
        action_id: Annotated[
            str | None, typer.Option("--action-id", metavar="ID", help=_(ACTION_ID_HELP))
        ] = None,
        client_seed: Annotated[
            str | None, typer.Option("--client-seed", metavar="TEXT", help=_(CLIENT_SEED_HELP))
        ] = None,
        hidden: Annotated[bool, typer.Option("--hidden", help=_(HIDDEN_HELP))] = False,
        db: Annotated[
            str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
        ] = None,
        json: Annotated[bool, typer.Option("--json", help=json_help)] = False,
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
    ) -> None:
        from jdr.cli.dice import dice
        from jdr.cli.options import Journal

        journal = Journal(campaign, actor, action_id, client_seed, hidden, db)
        dice(
            expression,
            odds=odds,
            exact=exact,
            faces=faces,
            seed=seed,
            as_json=json,
            journal=journal,
        )

    @app.command(
        "serve",
        help=_("Serve the web table: campaigns, rolls with odds, journal, in a browser."),
    )
    def serve_command(
        host: host_option = "127.0.0.1",
        port: port_option = 8000,
        url: Annotated[
            str | None,
            typer.Option(
                "--url", metavar="URL", help=_("The address players reach (behind a proxy).")
            ),
        ] = None,
        db: Annotated[
            str | None, typer.Option("--db", metavar="URL", help=_(DB_HELP), show_default=False)
        ] = None,
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
        workers: Annotated[
            int,
            typer.Option(
                "--workers",
                metavar="N",
                min=1,
                max=64,
                help=_("Worker processes (more than 1 needs PostgreSQL)."),
            ),
        ] = 1,
        webhook_host: Annotated[
            list[str] | None,
            typer.Option(
                "--webhook-host",
                metavar="HOST",
                help=_(
                    "A host campaigns' webhooks may post to, besides Discord's and Slack's"
                    " (a self-hosted chat); repeat or separate with commas."
                ),
            ),
        ] = None,
        trusted_proxy: Annotated[
            str,
            typer.Option(
                "--trusted-proxy",
                metavar="ADDRESS",
                help=_(
                    "The reverse proxy whose X-Forwarded-For and X-Forwarded-Proto headers are"
                    " believed (addresses separated by commas, * for any)."
                ),
            ),
        ] = "127.0.0.1",
    ) -> None:
        from jdr.cli.serving import server

        hosts = tuple(
            h.strip() for given in webhook_host or [] for h in given.split(",") if h.strip()
        )
        serve = server()
        serve(host, port, db, url, workers=workers, webhook_hosts=hosts, proxies=trusted_proxy)

    @app.command("demo", help=_("Show what jdr does, on a few real rolls and odds."))
    def demo_command(
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
        serve: Annotated[
            bool,
            typer.Option(
                "--serve",
                help=_(
                    "Serve the web table on a ready campaign (a throw-away database) and open it"
                    " in the browser."
                ),
            ),
        ] = False,
        host: host_option = "127.0.0.1",
        port: port_option = 8000,
        no_open: Annotated[
            bool, typer.Option("--no-open", help=_("With --serve: print the links only."))
        ] = False,
    ) -> None:
        if serve:
            from jdr.cli.serving import demo_serve

            demo_serve(host, port, not no_open)
            return
        from jdr.cli.demo import demo

        demo()

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
    command = typer.main.get_command(build_app())
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
        command = typer.main.get_command(build_app())
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
