"""`jdr`: the command line.

Start-up stays light (`jdr --help` imports neither NumPy nor the rule systems): systems load when
a command names them, NumPy when a distribution is computed. `main()` renders every `JdrError` and
every usage error as one line on stderr and exit code 2 (plus `{"error": …}` on stdout with
`--json`).
"""

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from jdr.cli.stored import (
    ACTION_ID_HELP,
    ACTOR_HELP,
    CAMPAIGN_ROLL_HELP,
    CLIENT_SEED_HELP,
    DB_HELP,
    HIDDEN_HELP,
)
from jdr.errors import InputError, JdrError, UnknownNameError
from jdr.i18n import _, resolve_language, set_language

# The group classes below are typed against Typer's vendored click through these aliases.
_click = typer._click


class _TopGroup(TyperGroup):
    """`jdr …`: the built-in commands, then `jdr SYSTEM …` for a system's own commands."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        from jdr.systems import default_registry

        registry = default_registry()
        system_id = registry.find(cmd_name)
        if system_id is not None:
            extra = registry.get(system_id).commands()
            if extra is not None:
                return typer.main.get_group(extra)
        from jdr.names import closest

        known = sorted(self.commands)
        suggestion = closest(cmd_name, [*known, *registry.ids()])  # `jdr pokemn types`
        raise UnknownNameError(_("command"), cmd_name, known, suggestion)


class _SystemsGroup(TyperGroup):
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

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        from jdr.cli.actions import system_group
        from jdr.systems import default_registry

        return system_group(default_registry().get(cmd_name), self.mode)


class _RollGroup(_SystemsGroup):
    mode = "roll"


class _OddsGroup(_SystemsGroup):
    mode = "odds"


class _AdviseGroup(_SystemsGroup):
    mode = "advise"


def build_app() -> typer.Typer:
    """The Typer application, with help texts in the current language."""
    app = typer.Typer(
        name="jdr",
        cls=_TopGroup,
        help=_(
            "Dice, exact odds and fights for five French homebrew tabletop RPGs. "
            "`jdr SYSTEM --help` lists a system's own commands."
        ),
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
    )
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
            typer.Typer(cls=cls, no_args_is_help=True, rich_markup_mode=None),
            name=mode,
            help=text,
            subcommand_metavar="SYSTEM ACTION [OPTIONS]",
        )

    from jdr.cli.fight_commands import build_fight
    from jdr.cli.journal_commands import build_journal
    from jdr.cli.store_commands import build_campaign, build_db, build_sheet

    app.add_typer(build_campaign(), name="campaign")
    app.add_typer(build_sheet(), name="sheet")
    app.add_typer(build_fight(), name="fight")
    app.add_typer(build_journal(), name="journal")
    app.add_typer(build_db(), name="db")

    json_help = _("Print one JSON object on stdout.")
    lang_help = _("Language of the output.")

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
        json: Annotated[bool, typer.Option("--json", help=json_help)] = False,
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
    ) -> int:
        from jdr.cli.journal_commands import verify_file

        code = verify_file(file, pin, json)
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
            str, typer.Argument(metavar="EXPRESSION", help=_("A dice expression, e.g. 4d10>=6f1."))
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
            str | None, typer.Option("--campaign", metavar="NAME", help=_(CAMPAIGN_ROLL_HELP))
        ] = None,
        actor: Annotated[
            str | None, typer.Option("--actor", metavar="NAME", help=_(ACTOR_HELP))
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

    @app.command("demo", help=_("Show what jdr does, on a few real rolls and odds."))
    def demo_command(
        lang: Annotated[str | None, typer.Option("--lang", metavar="fr|en", help=lang_help)] = None,
    ) -> None:
        from jdr.cli.demo import demo

        demo()

    return app


def _prescan(args: Sequence[str]) -> tuple[bool, str | None]:
    """`--json` and `--lang` are read before parsing, so even a parse error honours them."""
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
    args = list(sys.argv[1:] if argv is None else argv)
    want_json, lang = _prescan(args)
    if lang is not None and lang.lower() not in ("fr", "en"):
        set_language(resolve_language(None))
        return _fail(InputError("--lang", lang, "fr, en"), want_json)
    set_language(resolve_language(lang))
    command = typer.main.get_command(build_app())
    try:
        result = command.main(args, prog_name="jdr", standalone_mode=False)
    except JdrError as error:
        return _fail(error, want_json)
    except _click.exceptions.UsageError as error:
        return _fail(_usage_error(error), want_json)
    except typer.Exit as done:
        return int(done.exit_code)
    except typer.Abort:
        sys.stderr.write(_("jdr: aborted") + "\n")
        return 1
    return result if isinstance(result, int) else 0


def _usage_error(error: Any) -> JdrError:
    """Click's usage errors, in the project's words and language."""
    exceptions = _click.exceptions
    if isinstance(error, exceptions.NoSuchOption):
        known = sorted(error.possibilities or []) or _option_names(error.ctx)
        return UnknownNameError(_("option"), error.option_name, known)
    if isinstance(error, exceptions.MissingParameter) and error.param is not None:
        opts = getattr(error.param, "opts", None) or [error.param.name]
        hint = str(opts[0])
        field = hint if hint.startswith("-") else hint.upper()
        return InputError(field, None, _("a value"), _("required"))
    if isinstance(error, exceptions.BadParameter):
        hint = str(error.param_hint or (error.param.opts[0] if error.param is not None else ""))
        return InputError(hint.strip("'\""), "-", _("see --help"), error.message)
    return InputError(_("command line"), " ".join(sys.argv[1:]), _("see jdr --help"), error.message)


def _option_names(ctx: Any) -> list[str]:
    command = getattr(ctx, "command", None)
    names = [opt for param in getattr(command, "params", []) for opt in getattr(param, "opts", [])]
    return [*sorted(name for name in names if name.startswith("-")), "--help"]


def _fail(error: JdrError, want_json: bool) -> int:
    from jdr.cli.render import emit_json, jsonable

    message = error.message()
    sys.stderr.write(_("jdr: error: {message}").format(message=message) + "\n")
    if want_json:
        payload: dict[str, Any] = {"code": error.code, "message": message}
        if isinstance(error, InputError):
            payload.update(field=error.field, value=jsonable(error.value), allowed=error.allowed)
        if getattr(error, "suggestion", None) is not None:
            payload["suggestion"] = error.suggestion  # type: ignore[attr-defined]
        emit_json({"error": payload})
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
