"""Who fights in a simulation: the names typed for each side (`--with A,B --against X,Y`), each a
stored character of the campaign or a sheet file `NAME.toml`, turned into fighters; and the
variants asked for (`--vary NAME.FIELD=+1`, `--vary NAME=OTHER.toml`).

A front end passes in how it reads a sheet file (`read`), so nothing here touches a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jdr.errors import InputError
from jdr.i18n import _
from jdr.simulate.service import sheet_fighter, sides_checked, stored_fighter

if TYPE_CHECKING:
    from jdr.store import Campaign, Store
    from jdr.systems.protocol import RuleSystem

Json = dict[str, Any]
SheetReader = Callable[[Path], tuple[dict[str, Any], str]]
"""How a front end reads a sheet file: its table and its label."""


def is_file(typed: str) -> bool:
    """Whether a `--with`/`--against` item is a sheet file rather than a stored name.

    >>> is_file("Pikachu.TOML"), is_file("Pikachu")
    (True, False)
    """
    return typed.lower().endswith(".toml")


def names(text: str) -> list[str]:
    """The names of a comma-separated list, blanks left out.

    >>> names("Pikachu, ,Salamèche")
    ['Pikachu', 'Salamèche']
    """
    return [name.strip() for name in text.split(",") if name.strip()]


def sides_typed(with_: str, against: str) -> list[tuple[str, str]]:
    """`(name or file, side)` for each fighter typed: side "a" for `with_`, "b" for `against`."""
    given = ((with_, "a"), (against, "b"))
    return [(typed, side) for text, side in given for typed in names(text)]


def stored_names(sides: Sequence[tuple[str, str]]) -> list[str]:
    """The names typed that are not sheet files: stored characters of a campaign."""
    return [typed for typed, _side in sides if not is_file(typed)]


def needs_campaign(sides: Sequence[tuple[str, str]], campaign: str | None) -> None:
    """Refuse stored characters without a campaign to find them in."""
    stored = stored_names(sides)
    if stored and campaign is None:
        raise InputError(
            "--campaign",
            None,
            _("a campaign's name"),
            _("{name} is no sheet file (NAME.toml): a stored character needs --campaign").format(
                name=stored[0]
            ),
        )


def stored_fighters(
    store: Store, campaign: Campaign, sides: Sequence[tuple[str, str]]
) -> dict[str, Json]:
    """The stored characters of `campaign` among `sides`, by the name typed, as fighters."""
    return {
        typed: stored_fighter(store, campaign.id, typed, side)
        for typed, side in sides
        if not is_file(typed)
    }


def line_up(
    system: RuleSystem,
    sides: Sequence[tuple[str, str]],
    stored: dict[str, Json],
    read: SheetReader,
) -> list[Json]:
    """Every fighter, in the order typed: a stored one from `stored`, a sheet file read with
    `read` and checked by `system`; then the sides checked (`sides_checked`)."""
    fighters: list[Json] = []
    for typed, side in sides:
        if is_file(typed):
            data, label = read(Path(typed))
            fighters.append(sheet_fighter(system, data, label, side))
        else:
            fighters.append(stored[typed])
    return sides_checked(fighters)


def variants(
    system: RuleSystem, vary: Sequence[str], read: SheetReader
) -> tuple[list[str], list[Json]]:
    """`(changes, swaps)` of `--vary`: a changed field stays a change (`NAME.FIELD=+1`); a
    fighter's other sheet (`NAME=FILE.toml`) is read and becomes a swap named as that fighter."""
    changes: list[str] = []
    swaps: list[Json] = []
    for change in vary:
        name, equals, value = change.partition("=")
        if equals and "." not in name and is_file(value.strip()):
            data, label = read(Path(value.strip()))
            swaps.append(sheet_fighter(system, data, label, "-") | {"name": name.strip()})
        else:
            changes.append(change)
    return changes, swaps
