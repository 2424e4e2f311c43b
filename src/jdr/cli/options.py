"""Command-line options from a parameter model, plus the options every command shares.

A system declares its action's parameters once, as a pydantic model; this module turns each field
into a `--kebab-case` option (flags for booleans, repeatable options for lists) and hands the raw
strings to `jdr.params.validate_params`, so the messages are the project's own, in both languages.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Annotated, Any

import typer

from jdr.cli import complete
from jdr.cli.stored import (
    ACTION_ID_HELP,
    ACTOR_HELP,
    CAMPAIGN_ROLL_HELP,
    CLIENT_SEED_HELP,
    DB_HELP,
    HIDDEN_HELP,
)
from jdr.i18n import N_, _

TOP_CHOICES = 5
"""How many of an advisor's ranked choices `jdr advise` shows unless told (`--top N`, `--all`)."""


@dataclass(frozen=True)
class Common:
    """The options every command shares."""

    faces: str | None = None
    seed: str | None = None
    json: bool = False
    lang: str | None = None
    exact: bool = False
    top: int | None = None
    """(advise) How many of the best choices to show; `--all` shows every one."""
    all: bool = False
    journal: Journal | None = None
    sheet: str | None = None
    uses: dict[str, Any] | None = None
    """What to use of the sheet (`--stat`, `--move` …), as given: the options a system's
    `SheetRoll.uses` adds."""


@dataclass(frozen=True)
class Journal:
    """The options of a roll made through a campaign's journal (`jdr roll … --campaign NAME`)."""

    campaign: str | None = None
    actor: str | None = None
    action_id: str | None = None
    client_seed: str | None = None
    hidden: bool = False
    db: str | None = None

    def check(self) -> None:
        """Refuse journal options given without `--campaign`."""
        from jdr.errors import InputError

        if self.campaign is not None:
            return
        for option, value in (
            ("--actor", self.actor),
            ("--action-id", self.action_id),
            ("--client-seed", self.client_seed),
            ("--hidden", self.hidden or None),
            ("--db", self.db),
        ):
            if value is not None:
                raise InputError(
                    option, value, "--campaign NAME", _("only for a roll made through a campaign")
                )


_JOURNAL_OPTIONS = (
    ("campaign", "--campaign", "NAME", CAMPAIGN_ROLL_HELP, complete.campaigns),
    ("actor", "--actor", "NAME", ACTOR_HELP, complete.characters),
    ("action_id", "--action-id", "ID", ACTION_ID_HELP, None),
    ("client_seed", "--client-seed", "TEXT", CLIENT_SEED_HELP, None),
    ("db", "--db", "URL", DB_HELP, None),
)


SHEET_CAMPAIGN_HELP = N_("The campaign the sheet (--sheet) is in.")
USE = "jdr_use_"
"""The prefix of a "what to use" option's parameter (`--stat` is `jdr_use_stat`)."""


def sheet_parameters(uses: Any, model: Any, mode: str) -> list[inspect.Parameter]:
    """`--sheet NAME` and the options of `uses` (what to use of the sheet) that the action's
    `model` does not have already (an option both have, such as Passion's `--talent`, names
    the sheet's score with `--sheet` and gives the number without); for odds and advice also
    `--campaign` and `--db`, which a roll has already."""
    kw = inspect.Parameter.KEYWORD_ONLY
    own = [p for p in model_parameters(uses) if p.name not in model.model_fields]
    shown = ", ".join(option_name(name) for name in uses.model_fields) or "-"
    params = [
        inspect.Parameter(
            "jdr_sheet",
            kw,
            default=None,
            annotation=Annotated[
                str | None,
                typer.Option(
                    "--sheet",
                    metavar="NAME",
                    help=_(
                        "Read the options from this stored character (with --campaign); options"
                        " given override it. What to use: {options}."
                    ).format(options=shown),
                    autocompletion=complete.characters,
                ),
            ],
        ),
        *(p.replace(name=USE + p.name) for p in own),
    ]
    if mode != "roll":  # a roll has these already, as the journal's options
        params += [
            _text_option("campaign", "--campaign", "NAME", SHEET_CAMPAIGN_HELP, complete.campaigns),
            _text_option("db", "--db", "URL", DB_HELP, None),
        ]
    return params


def _text_option(
    name: str, option: str, metavar: str, help_text: str, completer: Any
) -> inspect.Parameter:
    """A `--option TEXT` the command gets as `jdr_<name>` (None when not given)."""
    return inspect.Parameter(
        f"jdr_{name}",
        inspect.Parameter.KEYWORD_ONLY,
        default=None,
        annotation=Annotated[
            str | None,
            typer.Option(option, metavar=metavar, help=_(help_text), autocompletion=completer),
        ],
    )


def option_name(field: str) -> str:
    return "--" + field.replace("_", "-")


def common_parameters(rolls: bool, exact: bool, ranked: bool = False) -> list[inspect.Parameter]:
    """`--faces`, `--seed` and the journal's options (for rolls), `--exact` (for odds),
    `--top` and `--all` (for advice), `--json`, `--lang`."""
    kw = inspect.Parameter.KEYWORD_ONLY
    params = []
    if rolls:
        params += [
            inspect.Parameter(
                "jdr_faces",
                kw,
                default=None,
                annotation=Annotated[
                    str | None,
                    typer.Option(
                        "--faces",
                        metavar="F,F,…",
                        help=_("Faces already rolled, in roll order (e.g. 7,1,2,6)."),
                    ),
                ],
            ),
            inspect.Parameter(
                "jdr_seed",
                kw,
                default=None,
                annotation=Annotated[
                    str | None,
                    typer.Option("--seed", metavar="N", help=_("Seed for a reproducible roll.")),
                ],
            ),
        ]
    if rolls:
        params += [_text_option(*spec) for spec in _JOURNAL_OPTIONS]
        params.append(
            inspect.Parameter(
                "jdr_hidden",
                kw,
                default=False,
                annotation=Annotated[bool, typer.Option("--hidden", help=_(HIDDEN_HELP))],
            )
        )
    if exact:
        params.append(
            inspect.Parameter(
                "jdr_exact",
                kw,
                default=False,
                annotation=Annotated[
                    bool,
                    typer.Option("--exact", help=_('Exact probabilities, as "a/b" fractions.')),
                ],
            )
        )
    if ranked:
        params += [
            inspect.Parameter(
                "jdr_top",
                kw,
                default=None,
                annotation=Annotated[
                    int | None,
                    typer.Option(
                        "--top",
                        metavar="N",
                        min=1,
                        help=_("Show the N best choices (default: {n}).").format(n=TOP_CHOICES),
                    ),
                ],
            ),
            inspect.Parameter(
                "jdr_all",
                kw,
                default=False,
                annotation=Annotated[
                    bool, typer.Option("--all", help=_("Show every choice, best first."))
                ],
            ),
        ]
    params += [
        inspect.Parameter(
            "jdr_json",
            kw,
            default=False,
            annotation=Annotated[
                bool, typer.Option("--json", help=_("Print one JSON object on stdout."))
            ],
        ),
        inspect.Parameter(
            "jdr_lang",
            kw,
            default=None,
            annotation=Annotated[
                str | None,
                typer.Option("--lang", metavar="fr|en", help=_("Language of the output.")),
            ],
        ),
    ]
    return params


def model_parameters(model: Any) -> list[inspect.Parameter]:
    """One keyword parameter per model field, typed as text so validation stays in one place."""
    from jdr.labels import choice_names
    from jdr.params import describe_allowed, is_flag, is_list

    params = []
    for name, info in model.model_fields.items():
        help_text = _(info.description) if info.description else ""
        allowed = describe_allowed(info)
        if allowed and not is_flag(info):
            help_text = f"{help_text} [{allowed}]".strip()
        shown = None if info.is_required() else info.get_default(call_default_factory=True)
        names = choice_names(info)
        if names and shown is not None:
            shown = names.get(str(getattr(shown, "value", shown)), shown)
        default_text = "" if is_flag(info) else _default_text(shown)
        if default_text:
            help_text += " " + _("(default: {value})").format(value=default_text)
        decl = option_name(name)
        annotation: Any
        if is_flag(info):
            annotation = Annotated[bool, typer.Option(decl, help=help_text)]
            default: Any = False
        elif is_list(info):
            annotation = Annotated[
                list[str] | None, typer.Option(decl, help=help_text, metavar=_metavar(name, info))
            ]
            default = None
        else:
            choices = list(names.values())
            metavar = "|".join(choices) if choices and len(choices) <= 6 else _metavar(name, info)
            annotation = Annotated[str | None, typer.Option(decl, help=help_text, metavar=metavar)]
            default = None
        params.append(
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
            )
        )
    return params


def _metavar(name: str, info: Any) -> str:
    """What an option takes, for its help: `N` for a number, `A,B,…` for a list, else the
    field's display name in capitals (`CIBLE`)."""
    from jdr.labels import field_label
    from jdr.params import choices_of, describe_allowed, is_list

    if is_list(info):
        return "A,B,…"
    kind = describe_allowed(info)
    if not choices_of(info.annotation) and kind.startswith(
        (_("whole number"), _("number"), _("percentage"))
    ):
        return "N"
    return field_label(name, info).upper().replace(" ", "-")


def _default_text(value: Any) -> str:
    """A default as a player would type it; nothing for an empty one.

    >>> _default_text({"magic": 2, "strength": -1}), _default_text([2, 5]), _default_text({})
    ('magic=2,strength=-1', '2,5', '')
    >>> from jdr.i18n import language
    >>> with language("fr"):
    ...     _default_text(0.5)
    '0,5'
    """
    from jdr.i18n import current_language

    value = getattr(value, "value", value)
    if value is None:
        return ""
    if isinstance(value, dict):
        return ",".join(f"{key}={_default_text(item)}" for key, item in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return ",".join(_default_text(item) for item in value)
    if isinstance(value, float):
        text = f"{value:g}"
        return text.replace(".", ",") if current_language() == "fr" else text
    return str(value)


def raw_values(model: Any, values: dict[str, Any]) -> dict[str, Any]:
    """The values the user actually gave (unset options are left to the model's defaults)."""
    from jdr.params import is_flag

    raw = {}
    for name, info in model.model_fields.items():
        value = values.get(name)
        if value is None or (is_flag(info) and value is False) or value == []:
            continue
        raw[name] = value
    return raw


def _taken(cls: Any, values: dict[str, Any]) -> Any:
    """`cls` from the `jdr_<field>` values the command got (removed from `values`); a field the
    command has no option for keeps its default."""
    given = {f.name: values.pop(f"jdr_{f.name}") for f in fields(cls) if f"jdr_{f.name}" in values}
    return cls(**given)


def make_command(
    parameters: list[inspect.Parameter], run: Callable[[Common, dict[str, Any]], None]
) -> Callable[..., None]:
    """A function Typer can read: its signature is `parameters`; it calls `run(common, values)`."""

    def command(**values: Any) -> None:
        journal = _taken(Journal, values)
        uses = {k.removeprefix(USE): values.pop(k) for k in list(values) if k.startswith(USE)}
        common = _taken(Common, values)
        run(replace(common, journal=journal, uses=uses), values)

    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    return command
