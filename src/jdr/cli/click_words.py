"""Click's own words — `Usage:`, `Options`, `[default: …]`, its usage errors — in the reader's
language.

Typer vendors click without its gettext calls: click's words are English literals, and only
`typer.core` still asks `gettext.gettext` (for `Options`, `Commands`, `Arguments`, `default:`,
`required` …). `install()` routes that one hook to our catalog and gives every context a help
formatter that translates the two literals a reader sees in every help page (`Usage: ` and the
`--help` option's text), and shows jdr's placeholders in the reader's language (`NAME` → `NOM`:
`placeholders`). `usage_error()` turns click's usage errors into our `JdrError`s, so a
mistyped command line reads like every other bad input: one line, in the reader's language.

>>> from jdr.i18n import language
>>> install()
>>> with language("fr"):
...     formatter = Formatter(width=60)
...     formatter.write_usage("jdr", "[OPTIONS] COMMAND")
...     formatter.write_dl([("NAME <str>", "A name."), ("--help", HELP_TEXT)])
>>> print(formatter.getvalue(), end="")
Utilisation : jdr [OPTIONS] COMMANDE
NOM     A name.
--help  Affiche ce message et quitte.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import typer.core

from jdr.errors import InputError, JdrError, UnknownNameError
from jdr.i18n import N_, _, current_language

if TYPE_CHECKING:
    from jdr.labels import Choices

_click = typer._click

HELP_TEXT = "Show this message and exit."  # click's literal for the help option
N_("Show this message and exit.")
N_("Usage: ")
# typer.core's words, translated through the hook `install()` sets:
N_("Arguments")
N_("Options")
N_("Commands")
N_("default: {default}")
N_("env var: {var}")
N_("(dynamic)")
N_("Missing command.")
N_("No such command {name!r}.")
N_("Aborted!")


_TYPE_LABEL = re.compile(r" <[^<>]+>$")

METAVARS = {
    "ACTOR": N_("ACTOR"),
    "ADDRESS": N_("ADDRESS"),
    "COMMAND": N_("COMMAND"),
    "DEFENDER": N_("DEFENDER"),
    "DEFENDER2": N_("DEFENDER2"),
    "FIELD": N_("FIELD"),
    "FIGHT": N_("FIGHT"),
    "FILE": N_("FILE"),
    "HASH": N_("HASH"),
    "HOST": N_("HOST"),
    "KEY": N_("KEY"),
    "KIND": N_("KIND"),
    "MOVE_TYPE": N_("MOVE_TYPE"),
    "NAME": N_("NAME"),
    "NEW_NAME": N_("NEW_NAME"),
    "OUT": N_("OUT"),
    "REVISION": N_("REVISION"),
    "SEQ": N_("SEQ"),
    "SIDE": N_("SIDE"),
    "SYSTEM": N_("SYSTEM"),
    "TEXT": N_("TEXT"),
    "VALUE": N_("VALUE"),
}
"""The placeholders of jdr's own options and arguments (`--campaign NAME`, `FIGHT`), shown in
the reader's language (`--campaign NOM`, `COMBAT`); an action's and a command's own come from
their models."""

_PLACEHOLDER = re.compile(r"(?<![\w-])[A-Z][A-Z0-9_]*(?![\w-])")


def placeholders(text: str) -> str:
    """`text` (a usage line, an option's or argument's name) with jdr's placeholders in the
    reader's language.

    >>> from jdr.i18n import language
    >>> with language("fr"):
    ...     placeholders("--campaign NAME"), placeholders("{FIGHT} {ACTOR} [KEY=VALUE]…")
    ('--campaign NOM', '{COMBAT} {ACTEUR} [CLÉ=VALEUR]…')
    """
    return _PLACEHOLDER.sub(
        lambda found: _(METAVARS[found.group()]) if found.group() in METAVARS else found.group(),
        text,
    )


class Words:
    """An option's choice of values (`--role player|gm|spectator`), shown by their display
    names in the reader's language (`--role joueur|MJ|spectateur`) and read in either language,
    in any case, with or without accents: the command gets the identifier.

    `choices` follows `jdr.labels.named`: each value → `(English, French, more spellings…)`.
    Give the option `metavar=words.metavar()` and `parser=words`:

    >>> from jdr.i18n import language
    >>> seats = Words("--as", {"gm": ("gm", "MJ", "meneur"), "player": ("player", "joueur")})
    >>> with language("fr"):
    ...     seats.metavar(), seats("Joueur"), seats("gm")
    ('MJ|joueur', 'player', 'gm')
    >>> seats.metavar(), seats.name("gm", "fr")
    ('gm|player', 'MJ')
    >>> with language("fr"):
    ...     seats("jouer")
    Traceback (most recent call last):
    ...
    jdr.errors.UnknownNameError: --as: 'jouer' (not allowed; allowed: MJ, joueur)
    """

    def __init__(self, option: str, choices: Choices) -> None:
        self.option = option
        self.choices = {value: tuple(names) for value, names in choices.items()}

    def name(self, value: str, lang: str | None = None) -> str:
        """The display name of `value` in `lang` (default: the reader's)."""
        names = self.choices[value]
        return names[1] if (lang or current_language()) == "fr" and len(names) > 1 else names[0]

    def names(self, lang: str | None = None) -> list[str]:
        """Every value's display name in `lang` (default: the reader's), in order."""
        return [self.name(value, lang) for value in self.choices]

    def metavar(self) -> str:
        """The option's placeholder: its values' names, `joueur|MJ|spectateur`."""
        return "|".join(self.names())

    def __call__(self, text: str) -> str:
        """The value `text` names, in either language; `UnknownNameError` listing the names in
        the reader's language otherwise."""
        from jdr.names import closest, find

        spellings = {value: value for value in self.choices}
        for value, names in self.choices.items():
            for spelt in names:
                spellings.setdefault(spelt, value)
        found = find(str(text), spellings, self.option)
        if found is None:
            near = closest(str(text), spellings)
            suggestion = self.name(near) if near is not None else None
            raise UnknownNameError(self.option, str(text), self.names(), suggestion)
        return found


class Formatter(_click.HelpFormatter):
    """Click's help formatter, with its own English literals translated, and an argument shown
    by its metavar alone (typer adds its Python type: `NAME <str>` → `NAME`)."""

    def write_heading(self, heading: str) -> None:
        self.write(f"{'':>{self.current_indent}}{_('{heading}:').format(heading=heading)}\n")

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, placeholders(args), _("Usage: ") if prefix is None else prefix)

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        rows = [
            (
                placeholders(first if first.startswith("-") else _TYPE_LABEL.sub("", first)),
                _(second) if second == HELP_TEXT else second,
            )
            for first, second in rows
        ]
        super().write_dl(rows, col_max, col_spacing)


def install() -> None:
    """Translate click's words from now on (idempotent; the CLI calls it at start-up)."""
    typer.core._ = _  # type: ignore[attr-defined]  # typer.core's `from gettext import gettext as _`
    _click.Context.formatter_class = Formatter


_EXTRA = re.compile(r"^Got unexpected extra argument\(s\) \((?P<value>.*)\)$")
_NO_VALUE = re.compile(r"^Option '(?P<option>[^']+)' does not take a value\.$")
_NEEDS_VALUE = re.compile(r"^Option '(?P<option>[^']+)' requires (an argument|\d+ arguments)\.$")


def usage_error(error: Any, argv: list[str]) -> JdrError:
    """Click's usage error `error` (on the command line `argv`) in the project's words and
    language: the option or argument, what was wrong, what is allowed."""
    exceptions = _click.exceptions
    ctx = getattr(error, "ctx", None)
    see = _("see {command} --help").format(command=_command_path(ctx))
    if isinstance(error, exceptions.NoSuchOption):
        known = sorted(error.possibilities or []) or _option_names(ctx)
        return UnknownNameError(_("option"), error.option_name, known)
    if isinstance(error, exceptions.MissingParameter) and error.param is not None:
        hint = _hint(error.param)
        wanted = _needed(error.param, see)
        return InputError(hint, None, wanted, _("required"), label=placeholders(hint))
    if isinstance(error, exceptions.BadParameter):
        refused = _refused(error)
        if refused is not None:  # a `Words` option's own refusal, names and all
            return refused
        param = error.param
        hint = str(error.param_hint or (_hint(param) if param is not None else ""))
        given = _given(param, argv)
        reason = None if given is not None else _("not a valid value")
        hint = hint.strip("'\"")
        return InputError(hint, given, _allowed(param, see), reason, label=placeholders(hint))
    message = str(getattr(error, "message", error))
    if found := _EXTRA.match(message):
        return InputError(_("extra argument"), found["value"], see, _("not expected here"))
    if found := _NO_VALUE.match(message):
        return InputError(found["option"], None, _("the option alone"), _("takes no value"))
    if found := _NEEDS_VALUE.match(message):
        return InputError(found["option"], None, see, _("needs a value"))
    return InputError(_("command line"), " ".join(argv), see, message)


def _refused(error: Any) -> JdrError | None:
    """The `JdrError` an option's parser raised (Typer wraps it in pydantic's error)."""
    cause = error.__cause__
    errors = getattr(cause, "errors", None)
    for each in errors() if callable(errors) else []:
        found = (each.get("ctx") or {}).get("error")
        if isinstance(found, JdrError):
            return found
    return None


def _command_path(ctx: Any) -> str:
    return str(getattr(ctx, "command_path", "") or "jdr")


def _hint(param: Any) -> str:
    """`--dice` for an option, `FIGHT` for an argument."""
    opts = getattr(param, "opts", None) or [param.name]
    name = str(opts[0])
    if name.startswith("-"):
        return name
    return str(getattr(param, "metavar", None) or name.upper())


def _given(param: Any, argv: list[str]) -> str | None:
    """The value the user gave an option (click's error does not keep it)."""
    options = [opt for opt in getattr(param, "opts", []) if opt.startswith("-")]
    for option in options:
        for i, arg in enumerate(argv):
            if arg == option and i + 1 < len(argv):
                return argv[i + 1]
            if arg.startswith(option + "="):
                return arg.split("=", 1)[1]
    return None


def _needed(param: Any, see: str) -> str:
    """What a missing option or argument takes: its kind of number, else its help (`the fight's
    number`), else where to read it (`see jdr fight act --help`) — never a bare "a value"."""
    allowed = _allowed(param, see)
    if allowed != see:
        return allowed
    text = str(getattr(param, "help", None) or "").strip().rstrip(".")
    if text[1:2].islower():  # a sentence's help, as a part of the message
        text = text[0].lower() + text[1:]
    return text or see


def _allowed(param: Any, see: str) -> str:
    """What a typed option or argument takes: a whole number, at least 1 …"""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or getattr(descriptor, "annotation", None) is not int:
        return see
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None and high is not None:
        return _("a whole number from {low} to {high}").format(low=low, high=high)
    if low is not None:
        return _("a whole number, at least {low}").format(low=low)
    if high is not None:
        return _("a whole number, at most {high}").format(high=high)
    return _("a whole number")


def _option_names(ctx: Any) -> list[str]:
    command = getattr(ctx, "command", None)
    params = command.get_params(ctx) if command is not None else []
    names = [opt for param in params for opt in getattr(param, "opts", [])]
    return sorted({name for name in names if name.startswith("-")})
