"""Characters in the browser: the sheet form, TOML in and out, undo, and the GM's approvals.

Each route parses the form (`jdr.characters.forms.read_form`), calls one use case of
`jdr.seat_sheets` (which calls `jdr.characters.service`, as `jdr sheet add|edit|undo` do) and
renders one template; a refused sheet is the form again, as typed, each problem beside its
input. The buttons that add or remove an item (a move, a technique, a skill) post the form
back and show it again, changed, without saving: the form works without JavaScript.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import ImmutableMultiDict, UploadFile

from jdr import seat_sheets
from jdr.access import AccessError, token_hash
from jdr.characters.forms import apply_op, field_errors, read_form, sheet_form
from jdr.errors import InputError, JdrError, LimitError
from jdr.i18n import _
from jdr.sheet_view import layout
from jdr.sheet_words import words_of
from jdr.store import Character, Store
from jdr.store.pending import CreatingSeat
from jdr.table import character_in, system_of
from jdr.web.deps import CampaignOf, Signed, StoreDep, session_token
from jdr.web.errors import status_of

router = APIRouter(include_in_schema=False)

MAX_UPLOAD = 64 * 1024
"""The most bytes of an uploaded TOML sheet read (a sheet is a few kilobytes; the request's own
limit, `jdr.web.guard.MAX_BODY`, holds first)."""


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    response: HTMLResponse = request.app.state.templates.TemplateResponse(
        request, name, {"viewer": None, "campaign": None, "csrf": None, **context}
    )
    response.status_code = status
    return response


def _signed(who: Signed) -> dict[str, Any]:
    return {"viewer": who.viewer, "campaign": who.campaign, "csrf": who.csrf}


def creating_seat(request: Request, store: Store, who: Signed) -> CreatingSeat | None:
    """The request's seat as character creation needs it (its invite, what it sent)."""
    token = session_token(request)
    return None if token is None else store.creating_seat(token_hash(token), who.campaign.id)


def campaign_sheets(request: Request, store: Store, who: Signed) -> dict[str, Any]:
    """What the campaign page shows of characters being made: the GM's sheets to approve, a
    player's invitation to create theirs (or the sheet they sent, and the GM's approval). Only
    the GM reads the sheets waiting; a player only their own; a spectator neither."""
    seat = None if who.viewer.is_gm else creating_seat(request, store, who)
    sent = seat.pending if seat is not None else None
    approved = (
        sent
        if seat is not None
        and sent is not None
        and sent.state == "approved"
        and sent.character_id == seat.character_id
        else None
    )
    return {
        "sheets": {
            "pending": store.pending_sheets(who.campaign.id) if who.viewer.is_gm else [],
            "may_create": who.viewer.is_gm,
            "may_propose": seat_sheets.may_propose(who.viewer, seat),
            "sent": sent,
            "approved": approved,
        }
    }


@router.get("/c/{campaign_id}/parts/sheets")
def campaign_sheets_part(request: Request, store: StoreDep, who: CampaignOf) -> Response:
    """The campaign page's sheets being made, asked for again when one is sent or decided (a
    change of kind `approval`: `jdr.web.static/live.js`)."""
    return _page(
        request, "_campaign_sheets.html", **_signed(who), **campaign_sheets(request, store, who)
    )


# --- the form ------------------------------------------------------------------------------------


def _form_page(
    request: Request,
    who: Signed,
    model: type[BaseModel],
    values: dict[str, Any],
    *,
    action: str,
    title: str,
    status: int = 200,
    errors: dict[str, str] | None = None,
    **more: Any,
) -> HTMLResponse:
    system = system_of(who.campaign)
    form = sheet_form(model, values, words_of(system), errors)
    return _page(
        request,
        "sheet_form.html",
        status,
        **_signed(who),
        form=form,
        action=action,
        title=title,
        **more,
    )


async def _form_of(request: Request) -> ImmutableMultiDict[str, str]:
    """The submitted form's text fields, and an uploaded file's text as the field `file`
    (refused past `MAX_UPLOAD` bytes or not UTF-8); the upload is closed at once."""
    form = await request.form(max_files=1, max_fields=2000)
    try:
        fields = [(k, v) for k, v in form.multi_items() if isinstance(v, str) and k != "file"]
        upload = form.get("file")
        if isinstance(upload, UploadFile) and upload.filename:
            fields.append(("file", await _read_upload(upload)))
    finally:
        await form.close()
    return ImmutableMultiDict(fields)


async def _read_upload(upload: UploadFile) -> str:
    raw = await upload.read(MAX_UPLOAD + 1)
    if len(raw) > MAX_UPLOAD:
        raise LimitError("file", len(raw), _("at most {n} bytes").format(n=MAX_UPLOAD))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("file", upload.filename, _("a TOML file in UTF-8")) from None


def _refused(error: JdrError) -> dict[str, str]:
    """A refusal's problems by field, or the refusal itself when it is not the sheet's (not
    signed in, not yours, not found: the plain refusal page)."""
    if status_of(error) in (401, 403, 404):
        raise error
    return field_errors(error)


@router.get("/c/{campaign_id}/sheets/new")
def new_sheet(
    request: Request, store: StoreDep, who: CampaignOf, start: str | None = None
) -> Response:
    """A new character's form (the GM's, or a player's own to send), from an example or
    empty."""
    _may_create(request, store, who)
    system = system_of(who.campaign)
    model, values = seat_sheets.start_values(system, start)
    return _new_page(request, who, model, values, start)


def _new_page(
    request: Request,
    who: Signed,
    model: type[BaseModel],
    values: dict[str, Any],
    start: str | None,
    status: int = 200,
    errors: dict[str, str] | None = None,
) -> HTMLResponse:
    system = system_of(who.campaign)
    chosen = start or seat_sheets.starts(system)[0].value
    return _form_page(
        request,
        who,
        model,
        values,
        action=f"/c/{who.campaign.id}/sheets/new",
        title=_("A new character") if who.viewer.is_gm else _("Create your character"),
        status=status,
        errors=errors,
        starts=seat_sheets.starts(system),
        start=chosen,
        character=None,
    )


def _may_create(request: Request, store: Store, who: Signed) -> CreatingSeat | None:
    """The GM, or a player whose invite asks for their character; else refused."""
    if who.viewer.is_gm:
        return None
    seat = creating_seat(request, store, who)
    if not seat_sheets.may_propose(who.viewer, seat):
        who.viewer.require_writer("sheet")
        raise AccessError(
            "sheet",
            None,
            _("the GM, or a player whose invite asks them to create their character"),
            _("only the GM adds characters"),
        )
    return seat


@router.post("/c/{campaign_id}/sheets/new")
async def new_sheet_save(request: Request, store: StoreDep, who: CampaignOf) -> Response:
    seat = await run_in_threadpool(_may_create, request, store, who)
    form = await _form_of(request)
    system = system_of(who.campaign)
    start = _text(form.get("start")) or None
    model, _values = seat_sheets.start_values(system, start)
    op = _text(form.get("_op"))
    if op.startswith(("add:", "remove:")):
        changed = apply_op(model, form, op)
        return _new_page(request, who, model, changed or read_form(model, form, True), start)
    data = read_form(model, form)
    try:
        if who.viewer.is_gm:
            character = await run_in_threadpool(
                seat_sheets.create, store, who.viewer, who.campaign, data
            )
        else:
            await run_in_threadpool(
                seat_sheets.propose, store, who.viewer, who.campaign, seat, data
            )
            return RedirectResponse(f"/c/{who.campaign.id}", status_code=303)
    except JdrError as error:
        return _new_page(request, who, model, data, start, status_of(error), _refused(error))
    return RedirectResponse(f"/c/{who.campaign.id}/sheets/{character.id}", status_code=303)


@router.get("/c/{campaign_id}/sheets/{character_id}/edit")
def edit_sheet(request: Request, store: StoreDep, who: CampaignOf, character_id: int) -> Response:
    character = character_in(store, who.viewer, who.campaign, character_id)
    _require_editor(who, character.name)
    system = system_of(who.campaign)
    model = seat_sheets.model_of(system, character.sheet)
    return _edit_page(request, who, character, model, dict(character.sheet), character.version)


def _require_editor(who: Signed, name: str) -> None:
    if not who.viewer.may_act_for(name):
        who.viewer.require_writer("sheet")
        raise AccessError(
            "sheet", name, who.viewer.character or "-", _("a player edits only their sheet")
        )


def _edit_page(
    request: Request,
    who: Signed,
    character: Any,
    model: type[BaseModel],
    values: dict[str, Any],
    revision: int,
    status: int = 200,
    errors: dict[str, str] | None = None,
) -> HTMLResponse:
    return _form_page(
        request,
        who,
        model,
        values,
        action=f"/c/{who.campaign.id}/sheets/{character.id}/edit",
        title=_("Edit {name}").format(name=character.name),
        status=status,
        errors=errors,
        character=character,
        revision=revision,
        starts=[],
        start=None,
    )


async def _editing(
    request: Request, store: Store, who: Signed, character_id: int
) -> tuple[Character, type[BaseModel], ImmutableMultiDict[str, str]]:
    """What a route that replaces a stored sheet starts from: the character (refused unless
    the viewer may edit it), its sheet's model and the submitted form."""
    character = character_in(store, who.viewer, who.campaign, character_id)
    _require_editor(who, character.name)
    form = await _form_of(request)
    return character, seat_sheets.model_of(system_of(who.campaign), character.sheet), form


@router.post("/c/{campaign_id}/sheets/{character_id}/edit")
async def edit_sheet_save(
    request: Request, store: StoreDep, who: CampaignOf, character_id: int
) -> Response:
    character, model, form = await _editing(request, store, who, character_id)
    base = _text(form.get("revision"))
    revision = int(base) if base.isdigit() and len(base) < 10 else None
    op = _text(form.get("_op"))
    if op.startswith(("add:", "remove:")):
        changed = apply_op(model, form, op) or read_form(model, form, True)
        return _edit_page(request, who, character, model, changed, revision or character.version)
    data = read_form(model, form)
    try:
        await run_in_threadpool(
            seat_sheets.edit, store, who.viewer, who.campaign, character_id, data, revision
        )
    except JdrError as error:
        errors = _refused(error)
        shown = revision or character.version
        return _edit_page(request, who, character, model, data, shown, status_of(error), errors)
    return RedirectResponse(f"/c/{who.campaign.id}/sheets/{character_id}", status_code=303)


# --- undo, TOML in and out ---------------------------------------------------------------------


@router.post("/c/{campaign_id}/sheets/{character_id}/undo")
def undo_sheet(store: StoreDep, who: CampaignOf, character_id: int) -> Response:
    seat_sheets.undo(store, who.viewer, who.campaign, character_id)
    return RedirectResponse(f"/c/{who.campaign.id}/sheets/{character_id}", status_code=303)


@router.get("/c/{campaign_id}/sheets/{character_id}/toml")
def export_sheet(store: StoreDep, who: CampaignOf, character_id: int) -> Response:
    """The sheet as a TOML file to download (`jdr sheet add` reads it back)."""
    character = character_in(store, who.viewer, who.campaign, character_id)
    text = seat_sheets.export_toml(who.campaign, character)
    filename = quote(f"{character.name}.toml")
    return Response(
        text,
        media_type="application/toml; charset=utf-8",
        headers={"content-disposition": f"attachment; filename*=UTF-8''{filename}"},
    )


def _uploaded(form: ImmutableMultiDict[str, str]) -> str:
    """The TOML the import form holds: the file chosen, else the text pasted."""
    return form.get("file") or _text(form.get("toml"), 200_000)


@router.post("/c/{campaign_id}/sheets/import")
async def import_new(request: Request, store: StoreDep, who: CampaignOf) -> Response:
    """A new character from a TOML file or text (the GM's), checked as `jdr sheet add` checks
    it; refused, the form shows the sheet as it was read, each problem beside its field."""
    who.viewer.require_gm("sheet")
    form = await _form_of(request)
    system = system_of(who.campaign)
    try:
        data = seat_sheets.read_toml(_uploaded(form))
    except JdrError as error:
        model, values = seat_sheets.start_values(system, None)
        return _new_page(request, who, model, values, None, status_of(error), field_errors(error))
    try:
        character = await run_in_threadpool(
            seat_sheets.create, store, who.viewer, who.campaign, data
        )
    except JdrError as error:
        model = _model_or_first(system, data)
        values = {k: v for k, v in data.items() if k != "system"}
        return _new_page(request, who, model, values, None, status_of(error), _refused(error))
    return RedirectResponse(f"/c/{who.campaign.id}/sheets/{character.id}", status_code=303)


def _model_or_first(system: Any, data: dict[str, Any]) -> type[BaseModel]:
    """The model a refused sheet's form is shown with: its kind's (`kind = "trainer"`), else
    the system's first."""
    kind = data.get("kind")
    kinds = list(getattr(system, "examples", {}) or {})
    start = seat_sheets.EMPTY + kind if isinstance(kind, str) and kind in kinds else None
    return seat_sheets.start_values(system, start)[0]


@router.post("/c/{campaign_id}/sheets/{character_id}/import")
async def import_over(
    request: Request, store: StoreDep, who: CampaignOf, character_id: int
) -> Response:
    """A stored sheet replaced by a TOML file or text (a journaled edit)."""
    character, model, form = await _editing(request, store, who, character_id)
    try:
        data = seat_sheets.read_toml(_uploaded(form))
    except JdrError as error:
        return _edit_page(
            request,
            who,
            character,
            model,
            dict(character.sheet),
            character.version,
            status_of(error),
            field_errors(error),
        )
    values = {k: v for k, v in data.items() if k != "system"}
    try:
        await run_in_threadpool(
            seat_sheets.edit, store, who.viewer, who.campaign, character_id, data, None
        )
    except JdrError as error:
        errors = _refused(error)
        return _edit_page(
            request, who, character, model, values, character.version, status_of(error), errors
        )
    return RedirectResponse(f"/c/{who.campaign.id}/sheets/{character_id}", status_code=303)


# --- the GM's approvals --------------------------------------------------------------------------


@router.get("/c/{campaign_id}/pending/{pending_id}")
def pending_page(request: Request, store: StoreDep, who: CampaignOf, pending_id: int) -> Response:
    """A player's sheet waiting for the GM, as its sheet page would show it."""
    found = seat_sheets.pending_of(store, who.viewer, who.campaign, pending_id)
    words = words_of(system_of(who.campaign))
    return _page(
        request,
        "pending.html",
        **_signed(who),
        pending=found,
        layout=layout({**found.sheet, "name": found.name}, words),
    )


@router.post("/c/{campaign_id}/pending/{pending_id}/approve")
def approve_sheet(request: Request, store: StoreDep, who: CampaignOf, pending_id: int) -> Response:
    character = seat_sheets.approve(store, who.viewer, who.campaign, pending_id)
    return RedirectResponse(f"/c/{who.campaign.id}/sheets/{character.id}", status_code=303)


@router.post("/c/{campaign_id}/pending/{pending_id}/refuse")
def refuse_sheet(store: StoreDep, who: CampaignOf, pending_id: int) -> Response:
    seat_sheets.refuse(store, who.viewer, who.campaign, pending_id)
    return RedirectResponse(f"/c/{who.campaign.id}", status_code=303)


def _text(value: object, limit: int = 500) -> str:
    """A form's text field (a file or nothing reads as empty), cut to `limit` characters."""
    return value[:limit] if isinstance(value, str) else ""
