"""What `jdr fight …` reads from its command line besides names and numbers: the words of
`--as`, `--on-late` and `--format` (English or French), `--faces`/`--seed`, comma lists of
names, and `act`'s `--help` after a command's name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from jdr.cli.click_words import Words
from jdr.i18n import _

if TYPE_CHECKING:
    from jdr.dice.source import RandomSource
    from jdr.fights.commands import Seat

__all__ = ["COMMAND_HELP", "FORMATS", "ON_LATE", "SEATS", "ActCommand", "dice", "names", "seat"]

COMMAND_HELP = "jdr.command_help"
"""`ctx.meta` key: `--help` was given after a fight command's name (its keys are shown)."""


class ActCommand(typer.core.TyperCommand):
    """`jdr fight act`: `--help` after a command's name shows that command's keys, not the
    options of `act` itself."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if "--help" in args:
            rest = [arg for arg in args if arg != "--help"]
            try:
                parsed = super().parse_args(ctx, rest)
            except typer._click.ClickException:  # too few words for a command's help: act's
                parsed = None
            if parsed is not None and ctx.params.get("command"):
                ctx.meta[COMMAND_HELP] = True
                return parsed
        return super().parse_args(ctx, args)


SEATS = Words("--as", {"gm": ("gm", "MJ", "meneur"), "player": ("player", "joueur", "joueuse")})
"""`jdr fight act --as`: who gives the command, in English or French."""
ON_LATE = Words("--on-late", {"default": ("default", "défaut"), "gm": ("gm", "MJ", "meneur")})
"""`jdr fight new|pace --on-late`: when a turn passes its deadline, the system's safe default
(`jdr.live.pace.DEFAULT`) or the GM decides (`GM`)."""
FORMATS = Words(
    "--format",
    {
        "text": ("text", "texte"),
        "bbcode": ("BBCode", "BBCode"),
        "markdown": ("Markdown", "Markdown"),
        "discord": ("Discord", "Discord"),
    },
)
"""`jdr fight recap --format`: the recap's format (`jdr.fights.recap`'s, and `discord`:
Markdown in messages of at most 2,000 characters)."""


def seat(text: str, actor: str) -> Seat:
    """`--as gm` (the default: the GM gives every decision) or `--as player` (ACTOR's player,
    who controls ACTOR only)."""
    from jdr.fights.commands import GM_SEAT, Seat

    found = SEATS(text)
    return GM_SEAT if found == "gm" else Seat(fighters=(actor,))


def dice(faces: str | None, seed: str | None) -> RandomSource | None:
    """`--faces` or `--seed` if given, else None: the dice derive from the campaign's seed."""
    from jdr.dice import make_source

    return make_source(faces=faces, seed=seed) if faces is not None or seed is not None else None


def names(option: str, text: str) -> list[str]:
    """`A,B,…` → the names; none, or one name twice (as people type it), is refused."""
    from jdr.errors import InputError
    from jdr.names import duplicate

    found = [name.strip() for name in text.split(",") if name.strip()]
    if not found:
        raise InputError(option, text, "A,B,…", _("no name given"))
    if any(duplicate(name, found[:index]) for index, name in enumerate(found)):
        raise InputError(option, text, "A,B,…", _("a name is given twice"))
    return found
