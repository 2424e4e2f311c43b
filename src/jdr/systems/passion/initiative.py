"""Initiative markers (PS-9, PS-10, PS-12): the order of a round and the markers ticked off.

Pure functions: values in, values out; the only dice are a roll-off between fighters still tied.

- **PS-9** initiative = the marker chosen + the fighter's mobility potential; highest first; a tie
  goes to the higher mobility potential, then to a die roll-off.
- **PS-10** the marker is the minimum number of dice of the fighter's action roll; one Énergie point
  may stand in for one of those dice.
- **PS-12** after a failed action the marker used is ticked off for the rest of the fight; a marker
  ≥ the mobility potential is ticked off after use too; the last available marker never is.

>>> initiative(2, 3)
5
>>> from jdr.dice import GivenFaces
>>> fighters = [Entry("Romuald", marker=2, mobility=3), Entry("Ninja", marker=4, mobility=1)]
>>> order(fighters, GivenFaces([])).names
('Romuald', 'Ninja')
>>> tick((0, 1, 2, 5), marker=5, mobility=3, failed=False).available
(0, 1, 2)

Where the rules are silent, this module reads them so:

- The roll-off die is a d6 (`ROLL_OFF_DIE`), highest first; fighters still tied roll again among
  themselves until none is. Faces, in the order they are consumed: tied groups from the highest
  initiative down; in a group, one die per fighter in the order the fighters were listed; then the
  re-rolls of each group still tied, from the highest face down.
- "Failed" is the outcome `failure` (PS-6); a status quo ticks nothing unless a table says so
  (`tick(..., failed=True)` is the caller's choice).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, NamedTuple

from pydantic import BaseModel, BeforeValidator, Field, model_validator

from jdr.dice.source import RandomSource, Recording
from jdr.errors import RulesError
from jdr.i18n import N_, _, ngettext
from jdr.labels import named
from jdr.systems.protocol import Record
from jdr.validation import fail

__all__ = [
    "MARKERS",
    "ROLL_OFF_DIE",
    "Entry",
    "InitiativeParams",
    "Order",
    "Tick",
    "check_min_dice",
    "initiative",
    "initiative_roll",
    "order",
    "tick",
]

MARKERS = tuple(range(11))
"""PS-9: every sheet has the initiative markers 0 … 10."""
ROLL_OFF_DIE = 6
"""PS-9 (reading): ties that the mobility potential does not break are rolled off with a d6."""
MAX_POTENTIAL = 99


def initiative(marker: int, mobility: int) -> int:
    """PS-9: the marker chosen plus the fighter's mobility potential.

    >>> initiative(6, 2)
    8
    """
    return marker + mobility


class Entry(NamedTuple):
    """One fighter (or one part of a split attack, PS-13) at the reveal (a named tuple: light,
    a fight reveals every round)."""

    name: str
    marker: int
    mobility: int

    @property
    def initiative(self) -> int:
        return initiative(self.marker, self.mobility)


@dataclass(frozen=True)
class Order:
    """The order of play, highest first, and the faces each fighter rolled in roll-offs."""

    names: tuple[str, ...]
    roll_offs: dict[str, list[int]] = field(default_factory=dict)


def order(entries: Sequence[Entry], rng: RandomSource) -> Order:
    """PS-9: highest initiative first; ties to the higher mobility, then a d6 roll-off.

    >>> from jdr.dice import GivenFaces
    >>> tied = [Entry("A", 3, 2), Entry("B", 3, 2), Entry("C", 4, 1)]
    >>> result = order(tied, GivenFaces([2, 5]))
    >>> result.names, result.roll_offs
    (('B', 'A', 'C'), {'A': [2], 'B': [5]})
    """
    rolls: dict[str, list[int]] = {}
    groups: dict[tuple[int, int], list[str]] = {}
    for entry in entries:
        groups.setdefault((entry.initiative, entry.mobility), []).append(entry.name)
    names: list[str] = []
    for key in sorted(groups, reverse=True):
        names.extend(_roll_off(groups[key], rng, rolls))
    return Order(tuple(names), rolls)


def _roll_off(tied: list[str], rng: RandomSource, rolls: dict[str, list[int]]) -> list[str]:
    """The tied fighters in the order of a roll-off (re-rolled among those still tied)."""
    if len(tied) < 2:
        return list(tied)
    faces = rng.faces(ROLL_OFF_DIE, len(tied))
    by_face: dict[int, list[str]] = {}
    for name, face in zip(tied, faces, strict=True):
        rolls.setdefault(name, []).append(face)
        by_face.setdefault(face, []).append(name)
    ranked: list[str] = []
    for face in sorted(by_face, reverse=True):
        ranked.extend(_roll_off(by_face[face], rng, rolls))
    return ranked


def check_min_dice(dice: int, marker: int, energy_die: bool = False) -> None:
    """PS-10: an action roll in combat has at least `marker` dice; one Énergie point may stand in
    for one of them. A roll always has at least one real die.

    >>> check_min_dice(1, 2, energy_die=True)
    >>> check_min_dice(1, 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    jdr.errors.RulesError: 1 die: marker 2 asks for at least 2 (an Énergie point may ...) (PS-10)
    """
    if dice + int(energy_die) < marker:
        raise RulesError(
            ngettext(
                "{dice} die: marker {marker} asks for at least {marker} (an Énergie point may"
                " stand in for one)",
                "{dice} dice: marker {marker} asks for at least {marker} (an Énergie point may"
                " stand in for one)",
                dice,
            ).format(dice=dice, marker=marker),
            "PS-10",
        )


class Tick(NamedTuple):
    """What PS-12 does to the marker used: ticked off or not, why, and the markers left (a
    named tuple: light, a fight ticks every round)."""

    marker: int
    ticked: bool
    reasons: tuple[str, ...]
    """`failure` and/or `mobility` (the marker ≥ the mobility potential); empty: kept."""
    kept_last: bool
    """The marker should have been ticked off but was the last available one."""
    available: tuple[int, ...]


def tick(available: Sequence[int], marker: int, mobility: int, failed: bool) -> Tick:
    """PS-12: the marker used is ticked off after a failure, or when it is ≥ the mobility
    potential; the last available marker never is.

    >>> tick((2, 5), marker=2, mobility=3, failed=True)
    Tick(marker=2, ticked=True, reasons=('failure',), kept_last=False, available=(5,))
    >>> tick((5,), marker=5, mobility=3, failed=True).kept_last
    True
    """
    reasons: tuple[str, ...] = ("failure",) if failed else ()
    if marker >= mobility:
        reasons += ("mobility",)
    ordered = tuple(sorted(available))
    if not reasons or marker not in available:
        return Tick(marker, False, reasons, False, ordered)
    left = tuple(m for m in ordered if m != marker)
    if not left:
        return Tick(marker, False, reasons, True, ordered)
    return Tick(marker, True, reasons, False, left)


# --- the `initiative` action ------------------------------------------------------------------


def _numbers(value: Any) -> Any:
    """`"2,5"`, `["2", "5"]` (a repeated option) or `[2, 5]` → a list of the members."""
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    if isinstance(value, str):
        return [part.strip() for part in value.split(",")]
    if isinstance(value, list | tuple):
        return [p.strip() if isinstance(p, str) else p for v in value for p in _numbers(v)]
    return value


Numbers = Annotated[list[Annotated[int, Field(ge=0, le=MAX_POTENTIAL)]], BeforeValidator(_numbers)]


class InitiativeParams(BaseModel):
    """`initiative --markers "2,5" --mobility 3`: the markers revealed (one per fighter) and the
    mobility potential of all of them, or one each."""

    markers: Numbers = Field(
        min_length=1,
        max_length=20,
        description=N_("the markers revealed, e.g. 2,5 (0 … 10)"),
        json_schema_extra=named("markers", "marqueurs"),
    )
    mobility: Numbers = Field(
        min_length=1,
        max_length=20,
        description=N_("the mobility potential: one for all, or one per marker"),
        json_schema_extra=named("Mobilité", "Mobilité"),
    )

    @model_validator(mode="after")
    def _fits(self) -> InitiativeParams:
        for index, marker in enumerate(self.markers):
            if marker > MARKERS[-1]:
                raise fail(
                    "marker_range",
                    N_("not an initiative marker (PS-9)"),
                    "0..10",
                    value=marker,
                    at=f"markers[{index + 1}]",
                )
        if len(self.mobility) not in (1, len(self.markers)):
            raise fail(
                "mobility_count",
                N_("{given} mobility potentials for {markers} markers"),
                N_("one for all, or one per marker"),
                value=",".join(map(str, self.mobility)),
                at="mobility",
                given=len(self.mobility),
                markers=len(self.markers),
            )
        return self

    def entries(self) -> list[Entry]:
        """`#1`, `#2` … in the order given."""
        mobility = self.mobility * len(self.markers) if len(self.mobility) == 1 else self.mobility
        return [
            Entry(f"#{index}", marker, potential)
            for index, (marker, potential) in enumerate(
                zip(self.markers, mobility, strict=True), start=1
            )
        ]


def initiative_roll(params: InitiativeParams, rng: RandomSource) -> Record:
    """JSON `order`: each fighter (`#1` … in the order given) with its `marker`, `mobility`,
    `initiative`, `min_dice` (PS-10), `ticked_after_use` (PS-12: marker ≥ mobility; any marker is
    ticked off after a failure), `roll_off` (faces, when tied); outcome `initiative`. Rolls dice
    only for a roll-off.

    >>> from jdr.dice import GivenFaces
    >>> record = initiative_roll(InitiativeParams(markers="2,5", mobility=3), GivenFaces([]))
    >>> [(f["name"], f["initiative"]) for f in record.totals["order"]]
    [('#2', 8), ('#1', 5)]
    >>> print(record.explain())  # doctest: +NORMALIZE_WHITESPACE
    #2: marker 5 + mobility 3 = 8, at least 5 dice, ticked off after use
    · #1: marker 2 + mobility 3 = 5, at least 2 dice
    """
    entries = {entry.name: entry for entry in params.entries()}
    recording = Recording(rng)
    result = order(list(entries.values()), recording)
    rows = [
        {
            "name": name,
            "marker": entries[name].marker,
            "mobility": entries[name].mobility,
            "initiative": entries[name].initiative,
            "min_dice": entries[name].marker,
            "ticked_after_use": entries[name].marker >= entries[name].mobility,
            "roll_off": result.roll_offs.get(name),
        }
        for name in result.names
    ]
    return Record("initiative", {"order": rows}, recording.rolled, lambda: explain_initiative(rows))


def explain_initiative(rows: list[dict[str, Any]]) -> str:
    """One part per fighter, in the order of play."""
    parts = []
    for row in rows:
        name = str(row["name"])
        if name.startswith("#") and name[1:].isdigit():  # a fighter known by its place only
            name = _("#{number}").format(number=name[1:])
        text = _("{name}: marker {marker} + mobility {mobility} = {initiative}").format(
            **{**row, "name": name}
        )
        count = row["min_dice"]
        text += ", " + ngettext("at least {count} die", "at least {count} dice", count).format(
            count=count
        )
        if row["ticked_after_use"]:
            text += ", " + _("ticked off after use")
        if row["roll_off"]:
            faces = ", ".join(map(str, row["roll_off"]))
            text += ", " + _("roll-off {faces}").format(faces=faces)
        parts.append(text)
    return " · ".join(parts)
