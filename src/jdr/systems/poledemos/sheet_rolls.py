"""Polédémos actions rolled from a stored warband: `jdr roll|odds poledemos … --sheet WARBAND`.

- `test --figure NAME`: the figure's VAL (PD-1).
- `activate --figure LEADER [--followers all|A,B]`: the figure's VAL, and its group's (PD-8,
  PD-9): the followers named, or all the leader's followers with `all`.
- `hand`: every figure's VAL, in the warband's order (PD-4, PD-5).

A roll changes nothing on a warband: Polédémos keeps no gauge between games.

>>> import tomllib
>>> from jdr.sheet_check import systems_example
>>> band = tomllib.loads(systems_example("poledemos", "warband"))
>>> uses = FigureUses(figure="sergent perry", followers=["all"])
>>> bind_activate("Perry", band, uses, None).values
{'val': 3, 'group': '4,5,5'}
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from jdr.errors import InputError
from jdr.i18n import N_, _
from jdr.labels import named
from jdr.sheets import validate_sheet
from jdr.systems.poledemos.warband import Figure, Warband
from jdr.systems.protocol import Bound, Json, Lookup, SheetRoll

__all__ = ["SHEET_ROLLS", "FigureUses", "bind_activate"]


class FigureUses(BaseModel):
    """Which figure of the warband rolls, and which followers go along (PD-8)."""

    figure: str | None = Field(
        default=None,
        description=N_("the figure, as the warband names it"),
        json_schema_extra=named("figure", "figurine"),
    )
    followers: list[str] = Field(
        default_factory=list,
        description=N_("the leader's followers that go along (PD-8), or all"),
        json_schema_extra=named("followers", "suivants"),
    )


def _figure(band: Warband, uses: FigureUses) -> Figure:
    if uses.figure is None:
        known = ", ".join(f.name for f in band.figures)
        raise InputError("--figure", None, known, _("which figure of the warband rolls"))
    return band.figure(uses.figure)


def bind_test(name: str, sheet: Json, uses: FigureUses, lookup: Lookup | None) -> Bound:
    """PD-1: the figure's VAL."""
    figure = _figure(validate_sheet(Warband, sheet), uses)
    return Bound({"val": figure.val}, {"val": f"{figure.name} {figure.val}+ (PD-1)"})


def bind_activate(name: str, sheet: Json, uses: FigureUses, lookup: Lookup | None) -> Bound:
    """PD-8, PD-9: the leader's VAL and its group's."""
    band = validate_sheet(Warband, sheet)
    figure = _figure(band, uses)
    values: dict[str, Any] = {"val": figure.val}
    sources = {"val": f"{figure.name} {figure.val}+ (PD-1)"}
    if uses.followers:
        everyone = band.followers_of(figure.name)
        if [f.casefold() for f in uses.followers] == ["all"]:
            group = everyone
        else:
            group = [band.figure(follower) for follower in uses.followers]
            allowed = {f.name for f in everyone}
            for member in group:
                if member.name not in allowed:
                    raise InputError(
                        "--followers",
                        member.name,
                        ", ".join(sorted(allowed)) or "-",
                        _("not a follower of {leader} (PD-8)").format(leader=figure.name),
                    )
        values["group"] = ",".join(str(member.val) for member in group)
        sources["group"] = ", ".join(f"{m.name} {m.val}+" for m in group) + " (PD-8)"
    return Bound(values, sources)


def bind_hand(name: str, sheet: Json, uses: BaseModel, lookup: Lookup | None) -> Bound:
    """PD-4, PD-5: every figure's VAL, in the warband's order."""
    band = validate_sheet(Warband, sheet)
    vals = ",".join(str(figure.val) for figure in band.figures)
    shown = ", ".join(f"{f.name} {f.val}+" for f in band.figures)
    return Bound({"figures": vals}, {"figures": shown})


class NoUses(BaseModel):
    """An action that reads only the warband."""


SHEET_ROLLS: dict[str, SheetRoll[Any]] = {
    "test": SheetRoll(FigureUses, bind_test),
    "activate": SheetRoll(FigureUses, bind_activate),
    "hand": SheetRoll(NoUses, bind_hand),
}
