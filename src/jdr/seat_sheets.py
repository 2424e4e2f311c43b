"""A seat's sheets: who may create, edit, undo and approve a character at a campaign's table.

The web's character pages call these, and these call `jdr.characters.service`, the service
`jdr sheet add|edit|undo` calls: every change is the same journaled revision. The GM creates,
edits and undoes any character or NPC; a player edits only their own; a player whose invite
asks them to create their character sends a sheet that waits for the GM (`propose`), usable
nowhere until the GM approves it (`approve`: it is stored, and becomes the seat's character)
or refuses it; a spectator only reads.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from jdr.access import AccessError, Viewer
from jdr.bounded import MAX_SHEET_BYTES, check_nesting
from jdr.characters import service
from jdr.characters.revisions import timeline
from jdr.errors import InputError, LimitError, NotFoundError
from jdr.i18n import _
from jdr.names import check_name, duplicate
from jdr.sheet_check import SYSTEM_KEY, check_sheet, example_text, installed, sheet_of
from jdr.store import Campaign, Character, Store
from jdr.store.pending import CreatingSeat, PendingSheet
from jdr.systems import default_registry
from jdr.systems.protocol import RuleSystem
from jdr.table import character_in, system_of
from jdr.toml_syntax import syntax_error
from jdr.toml_write import to_toml

__all__ = [
    "EMPTY",
    "Start",
    "approve",
    "create",
    "edit",
    "export_toml",
    "may_propose",
    "model_of",
    "pending_of",
    "propose",
    "read_toml",
    "refuse",
    "start_values",
    "starts",
    "undo",
    "undoable",
]

EMPTY = "empty:"
"""A start's prefix for an empty sheet of one kind (`empty:trainer`); an example's is
`example:`."""
EXAMPLE = "example:"


@dataclass(frozen=True)
class Start:
    """Where a new sheet's form starts: one of the system's examples, or an empty sheet of its
    kind. `value` is what the form sends back, `example` the example's own name."""

    value: str
    kind: str
    example: str
    empty: bool


def starts(system: RuleSystem) -> list[Start]:
    """Each example of the system (filled), then each of its kinds empty."""
    found = []
    for kind in getattr(system, "examples", {}) or {}:
        name = _example_name(system, kind)
        found.append(Start(EXAMPLE + kind, kind, name, False))
    for kind in getattr(system, "examples", {}) or {}:
        found.append(Start(EMPTY + kind, kind, _example_name(system, kind), True))
    return found


def _example_name(system: RuleSystem, kind: str) -> str:
    name = tomllib.loads(example_text(system, kind)[1]).get("name")
    return name if isinstance(name, str) and name.strip() else kind


def start_values(system: RuleSystem, start: str | None) -> tuple[type[BaseModel], dict[str, Any]]:
    """The sheet model and the values a new sheet's form starts from (`Start.value`; None:
    the first example): the example as its system reads it, or only its kind (an empty
    sheet's `kind` says which model it is)."""
    chosen = start or ""
    kinds = list(getattr(system, "examples", {}) or {})
    empty = chosen.startswith(EMPTY)
    kind = chosen.removeprefix(EMPTY).removeprefix(EXAMPLE) or (kinds[0] if kinds else None)
    if kind is None or kind not in kinds:
        raise InputError("start", start, ", ".join(s.value for s in starts(system)))
    table = tomllib.loads(example_text(system, kind)[1])
    example = sheet_of(system, table, kind).model_dump(mode="json")
    model = type(sheet_of(system, table, kind))
    if not empty:
        return model, example
    hidden = ("kind",)
    return model, {key: example[key] for key in hidden if key in example}


def model_of(system: RuleSystem, sheet: Mapping[str, Any]) -> type[BaseModel]:
    """The sheet model of a stored sheet (a Pokémon's, a trainer's …)."""
    return type(sheet_of(system, dict(sheet)))


def _systems() -> list[RuleSystem]:
    return installed(default_registry())


# --- the GM's and a player's changes ---------------------------------------------------------


def create(store: Store, viewer: Viewer, campaign: Campaign, data: Mapping[str, Any]) -> Character:
    """The GM adds a character or an NPC (`jdr sheet add`): revision 1, journaled."""
    viewer.require_campaign(campaign.id)
    viewer.require_gm("sheet")
    revised = service.add(store, campaign, dict(data), None, "", actor=None)
    assert revised.character is not None
    return revised.character


def _editable(store: Store, viewer: Viewer, campaign: Campaign, character_id: int) -> Character:
    character: Character = character_in(store, viewer, campaign, character_id)
    if not viewer.may_act_for(character.name):
        viewer.require_writer("sheet")
        raise AccessError(
            "sheet", character.name, viewer.character or "-", _("a player edits only their sheet")
        )
    return character


def edit(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    character_id: int,
    data: Mapping[str, Any],
    base_revision: int | None,
) -> service.Revised:
    """The sheet replaced by the form's (`jdr sheet edit`): the GM's any, a player's own;
    rebased onto revisions made since `base_revision`."""
    character = _editable(store, viewer, campaign, character_id)
    actor = None if viewer.is_gm else viewer.character
    return service.replace(store, campaign, character.name, dict(data), base_revision, actor)


def undo(store: Store, viewer: Viewer, campaign: Campaign, character_id: int) -> service.Revised:
    """The GM takes back the sheet's last revision (`jdr sheet undo`), a revision of its own."""
    character = character_in(store, viewer, campaign, character_id)
    viewer.require_gm("undo")
    return service.undo(store, campaign, character.name, actor=None)


def undoable(store: Store, character_id: int) -> bool:
    """Whether the sheet has a revision to undo (its creation never is)."""
    return timeline(store.revision_marks(character_id)).last_undoable() is not None


# --- TOML in and out ---------------------------------------------------------------------------


def read_toml(text: str, label: str = "") -> dict[str, Any]:
    """A sheet's TOML (pasted or uploaded) as a table, within the sheets' limits (size,
    nesting: `jdr.bounded`), never read as a file's name."""
    if not text.strip():
        raise InputError("toml", None, _("a TOML sheet"), _("nothing to import"))
    if len(text.encode("utf-8")) > MAX_SHEET_BYTES:
        raise LimitError("toml", "-", _("at most {n} bytes").format(n=MAX_SHEET_BYTES), None)
    check_nesting(text, "toml", _("sheet"), label or "-")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise syntax_error(error, text, label or _("sheet")) from None
    except ValueError as error:  # a whole number past Python's digits limit
        raise LimitError("toml", "-", _("a readable TOML file"), _("a number too long")) from error


def export_toml(campaign: Campaign, character: Character) -> str:
    """A stored sheet as the TOML file `jdr sheet add` reads back (its system named first)."""
    return to_toml({SYSTEM_KEY: campaign.system, **character.sheet})


# --- a player's own character, approved by the GM ----------------------------------------------


def may_propose(viewer: Viewer, seat: CreatingSeat | None) -> bool:
    """Whether the seat may send a sheet: a player's whose invite asks for one, who has no
    character yet."""
    return (
        seat is not None
        and viewer.role == "player"
        and seat.creates
        and seat.character_id is None
        and viewer.character is None
    )


def propose(
    store: Store,
    viewer: Viewer,
    campaign: Campaign,
    seat: CreatingSeat | None,
    data: Mapping[str, Any],
) -> int:
    """A player's own sheet sent to the GM: validated as `jdr sheet add` validates it (the
    same problems, beside the same fields), then waiting; its id."""
    viewer.require_campaign(campaign.id)
    if seat is None or not may_propose(viewer, seat):
        viewer.require_writer("sheet")
        raise AccessError(
            "sheet",
            None,
            _("a player whose invite asks them to create their character"),
            _("this seat does not create a character"),
        )
    system = system_of(campaign)
    model = check_sheet(dict(data), "", system, _systems, campaign.name)
    sheet = model.model_dump(mode="json")
    name = sheet.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError("name", None, _("a name"), _("the sheet has no name"))
    taken = duplicate(name, [c.name for c in store.characters(campaign.id)])
    if taken is not None:
        raise InputError(
            "name",
            name,
            _("a name no other character of the campaign has"),
            _("campaign {campaign} already has a character named {name}").format(
                campaign=campaign.name, name=taken
            ),
        )
    return store.add_pending(campaign.id, seat.seat_id, check_name("name", name), sheet)


def pending_of(store: Store, viewer: Viewer, campaign: Campaign, pending_id: int) -> PendingSheet:
    """A sheet waiting for the GM (the GM's only to read and decide)."""
    viewer.require_campaign(campaign.id)
    viewer.require_gm("approve")
    found = store.pending_sheet(campaign.id, pending_id)
    if found is None or found.state != "pending":
        raise NotFoundError("pending", pending_id, _("a sheet waiting for the GM"))
    return found


def approve(store: Store, viewer: Viewer, campaign: Campaign, pending_id: int) -> Character:
    """The GM approves a player's sheet: stored as `jdr sheet add` stores one (journaled), and
    the player's seat now plays it."""
    found = pending_of(store, viewer, campaign, pending_id)
    revised = service.add(store, campaign, found.sheet, found.name, "", actor=None)
    assert revised.character is not None
    store.decide_pending(campaign.id, pending_id, revised.character.id)
    return revised.character


def refuse(store: Store, viewer: Viewer, campaign: Campaign, pending_id: int) -> None:
    """The GM refuses a player's sheet: the player may send another."""
    pending_of(store, viewer, campaign, pending_id)
    store.decide_pending(campaign.id, pending_id, None)
