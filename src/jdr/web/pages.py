"""The HTML pages: each route parses, calls one service, renders one template.

The partials an HTMX swap asks for (`_odds.html`, `_result.html`) are the same templates the full
pages include.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from jdr import access, table
from jdr.errors import InputError, JdrError
from jdr.i18n import LANGUAGES, _
from jdr.journal.words import recap_texts
from jdr.store import Campaign, Character, Store
from jdr.web.contexts import (
    JOURNAL_SHOWN,
    campaign_live,
    fight_context,
    reread,
    sheet_context,
    signed_context,
)
from jdr.web.deps import MAX_ID, CampaignOf, Signed, StoreDep, seats_of, session_token
from jdr.web.forms import fields_of, raw_of
from jdr.web.guard import LANG_COOKIE, SESSION_COOKIE
from jdr.web.sheet_pages import campaign_sheets
from jdr.web.views import chart

router = APIRouter(include_in_schema=False)


def _page(request: Request, name: str, **context: Any) -> HTMLResponse:
    response: HTMLResponse = request.app.state.templates.TemplateResponse(
        request, name, {"viewer": None, "campaign": None, "csrf": None, **context}
    )
    return response


def _start_session(request: Request, token: str, campaign_id: int) -> Response:
    response = RedirectResponse(f"/c/{campaign_id}", status_code=303)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(access.SESSION_LIFETIME.total_seconds()),
        httponly=True,
        samesite="lax",
        secure=secure(request),
        path="/",
    )
    return response


def secure(request: Request) -> bool:
    """Whether cookies are `Secure`: the request came over HTTPS (as a trusted proxy says, with
    `X-Forwarded-Proto`), or the address players reach is an `https://` one (`jdr serve --url`)."""
    base = request.app.state.base_url or ""
    return request.url.scheme == "https" or base.startswith("https://")


@router.get("/")
def home(request: Request, store: StoreDep) -> Response:
    """The campaigns this browser holds a seat in (each opens its own pages), or how to join."""
    seats = seats_of(request, store)
    token = session_token(request)
    csrf = access.csrf_token(token) if seats and token is not None else None
    return _page(request, "home.html", seats=seats, csrf=csrf)


@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> Response:
    if code not in LANGUAGES:
        raise InputError("lang", code, ", ".join(LANGUAGES))
    local = next.startswith("/") and not next.startswith("//") and "\\" not in next
    target = next if local else "/"  # never another site (`//host`, `/\\host`)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(LANG_COOKIE, code, max_age=365 * 86400, samesite="lax", path="/")
    return response


def _address(request: Request) -> str:
    return request.client.host if request.client else "-"


def _check_host(request: Request, token: str) -> None:
    """The host link's token, or a refusal; only wrong tokens count against the address's
    attempts."""
    import hmac

    limit = request.app.state.invite_limit
    address = _address(request)
    limit.refuse_if_spent(address)
    if not hmac.compare_digest(token.encode(), request.app.state.host_token.encode()):
        limit.spent(address)
        raise access.AccessError(
            "host", None, _("the host link `jdr serve` printed"), _("not the host link")
        )


@router.get("/host/{token}")
def host_page(request: Request, token: str) -> Response:
    _check_host(request, token)
    from jdr.systems import default_registry

    return _page(request, "host.html", token=token, systems=default_registry().ids())


@router.post("/host/{token}")
def host_create(
    request: Request,
    store: StoreDep,
    token: str,
    system: Annotated[str, Form(max_length=64)],
    name: Annotated[str, Form(max_length=1000)] = "",  # a bound; the rule of names says the rest
) -> Response:
    _check_host(request, token)
    from jdr.systems import default_registry

    registry = default_registry()
    found = registry.find(system)
    if found is None:
        from jdr.errors import UnknownNameError

        raise UnknownNameError("system", system, registry.ids())
    from jdr.names import check_name

    campaign_id = store.create_campaign(found, check_name("name", name))
    session, _seat = access.host_session(store, campaign_id, session_token(request))
    return _start_session(request, session, campaign_id)


@router.get("/invite/{token}")
def invite_page(request: Request, store: StoreDep, token: str) -> Response:
    """A link preview (a chat server fetching the URL) must not use the invite: GET only shows
    a button; the POST redeems. Showing it counts against nothing."""
    return _page(request, "invite.html", token=token, seats=seats_of(request, store))


@router.post("/invite/{token}")
def invite_redeem(request: Request, store: StoreDep, token: str) -> Response:
    """A seat in the invite's campaign for this browser (beside the seats it holds already).
    Failed redemptions count against the address and the invite (a table behind one address
    joins at once; a guesser is stopped)."""
    limit = request.app.state.invite_limit
    address, invite = _address(request), "invite:" + access.token_hash(token[:200])
    limit.refuse_if_spent(address, invite)
    try:
        session, seat = access.redeem(store, token, session_token(request))
    except access.AccessError:
        limit.spent(address)
        limit.spent(invite)
        raise
    return _start_session(request, session, seat.campaign_id)


@router.post("/signout")
def sign_out(request: Request, store: StoreDep) -> Response:
    token = request.cookies.get(SESSION_COOKIE)
    if token is not None and access.well_formed(token):
        store.end_session(access.token_hash(token))
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/c/{campaign_id}")
def campaign_page(request: Request, store: StoreDep, who: CampaignOf) -> Response:
    invites = store.invites(who.campaign.id) if who.viewer.is_gm else []
    live = campaign_live(store, who)
    names = {c.id: c.name for c in live["characters"]}
    return _page(
        request,
        "campaign.html",
        **signed_context(who),
        **live,
        **campaign_sheets(request, store, who),
        invites=invites,
        names=names,
        link=None,
    )


@router.post("/c/{campaign_id}/invites")
def create_invite(
    request: Request,
    store: StoreDep,
    who: CampaignOf,
    role: Annotated[str, Form(max_length=16)],
    character: Annotated[str | None, Form(max_length=200)] = None,
    expires: Annotated[str | None, Form(max_length=20)] = None,
    creates: Annotated[str | None, Form(max_length=10)] = None,
) -> Response:
    who.viewer.require_gm("invite")
    made = access.invite(
        store,
        who.campaign.id,
        role,
        character or None if role == "player" else None,
        expires,
        creates=bool(creates) and role == "player",
    )
    base = request.app.state.base_url or str(request.base_url).rstrip("/")
    return _page(
        request,
        "invited.html",
        **signed_context(who),
        made=made,
        link=f"{base}/invite/{made.token}",
    )


@router.post("/c/{campaign_id}/invites/{invite_id}/revoke")
def revoke_invite(store: StoreDep, who: CampaignOf, invite_id: int) -> Response:
    who.viewer.require_gm("invite")
    if not store.revoke_invite(who.campaign.id, invite_id):
        from jdr.errors import NotFoundError

        raise NotFoundError("invite", invite_id, _("an unused invite of this campaign"))
    return RedirectResponse(f"/c/{who.campaign.id}", status_code=303)


def _roll_context(
    request: Request, store: Store, who: Signed, action: str | None
) -> dict[str, Any]:
    system = table.system_of(who.campaign)
    chosen = table.action_of(system, action) if action else next(iter(system.actions.values()))
    skip = frozenset({"recap"})
    uses = table.sheet_uses(system, chosen)
    return {
        "uses_fields": fields_of(uses) if uses is not None else None,
        **signed_context(who),
        "system": system,
        "action": chosen,
        "fields": fields_of(chosen.params, skip),
        "advise_fields": fields_of(chosen.advise.params, skip) if chosen.advise else [],
        "values": dict(request.query_params),
        "characters": store.characters(who.campaign.id),
    }


def _sheet_of(form: dict[str, Any], uses: Any) -> tuple[str | None, dict[str, Any]]:
    """The sheet a roll is made from (the form's `sheet`, empty for none) and what it uses of
    it (the binding's fields, prefixed `use_` in the form: `use_target`)."""
    sheet = str(form.get("sheet") or "").strip() or None
    if sheet is None or uses is None:
        return None, {}
    given = {name[4:]: value for name, value in form.items() if name.startswith("use_")}
    return sheet, raw_of(uses, given)


@router.get("/c/{campaign_id}/roll")
def roll_page(
    request: Request, store: StoreDep, who: CampaignOf, action: str | None = None
) -> Response:
    return _page(request, "roll.html", **_roll_context(request, store, who, action))


@router.get("/c/{campaign_id}/odds")
def odds_partial(request: Request, store: StoreDep, who: CampaignOf, action: str) -> Response:
    """The exact odds beside the roll form, recomputed as the player changes it (HTMX). An
    unfinished form shows what is missing instead, in place; an action without odds says so
    (its form never asks)."""
    system = table.system_of(who.campaign)
    chosen = table.action_of(system, action)
    form = dict(request.query_params)
    context: dict[str, Any] = {"odds": None, "problem": None, "advice": None}
    if chosen.odds is None:
        return _page(request, "_odds.html", **context, no_odds=True)
    try:
        sheet, uses = _sheet_of(form, table.sheet_uses(system, chosen))
        raw = raw_of(chosen.params, form)
        found = table.odds(who.campaign, chosen.name, raw, store, sheet, uses)[2]
        context.update(odds=found, chart=chart(found.distribution) if found.distribution else None)
        if chosen.advise is not None:
            raw = raw_of(chosen.advise.params, form)
            advice = table.advise(who.campaign, chosen.name, raw, store, sheet, uses)
            context["advice"] = advice[2]
    except JdrError as error:
        from jdr.answers import error_json

        context["problem"] = error_json(error)
    return _page(request, "_odds.html", **context, no_odds=False)


@router.post("/c/{campaign_id}/roll")
async def roll_submit(request: Request, store: StoreDep, who: CampaignOf) -> Response:
    from starlette.concurrency import run_in_threadpool

    form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    system = table.system_of(who.campaign)
    chosen = table.action_of(system, form.get("action"))
    sheet, uses = _sheet_of(form, table.sheet_uses(system, chosen))
    asked = table.RollAsked(
        sheet=sheet,
        uses=uses,
        action=chosen.name,
        params=raw_of(chosen.params, form),
        actor=form.get("actor") or None,
        hidden=form.get("hidden") in ("on", "true", "1"),
        action_id=form.get("action_id") or None,
        client_seed=form.get("client_seed") or None,
    )
    rolled = await run_in_threadpool(table.roll, store, who.viewer, who.campaign, asked)
    explanation = rolled.record.explain()
    context = {
        **signed_context(who),
        "system": system,
        "action": chosen,
        "rolled": rolled,
        "explanation": explanation,
        "recaps": recap_texts(system, chosen, explanation, rolled.entry),
    }
    name = "_result.html" if request.headers.get("hx-request") else "result.html"
    return _page(request, name, **context)


@router.get("/c/{campaign_id}/journal")
def journal_page(
    request: Request, store: StoreDep, who: CampaignOf, before: int | None = None
) -> Response:
    from jdr.journal.verify import browser_messages

    before = before if before is None or 0 < before <= MAX_ID else None
    entries, older = table.journal_page(store, who.viewer, who.campaign, JOURNAL_SHOWN, before)
    hidden_left = who.viewer.is_gm and store.hidden_left(who.campaign.id)
    return _page(
        request,
        "journal.html",
        **signed_context(who),
        entries=entries,
        older=entries[0].seq if older and entries else None,
        before=before,
        hidden_left=hidden_left,
        verify_messages=browser_messages(),
    )


@router.get("/c/{campaign_id}/journal/export")
def journal_export(store: StoreDep, who: CampaignOf) -> Response:
    """The export "verify in my browser" downloads: hidden rolls sealed, seeds once revealed."""
    from fastapi.responses import JSONResponse

    from jdr.journal.service import export

    return JSONResponse(export(store, who.campaign))


@router.post("/c/{campaign_id}/fights")
async def fight_start(request: Request, store: StoreDep, who: CampaignOf) -> Response:
    from starlette.concurrency import run_in_threadpool

    from jdr.fights.setup import parse_pairs

    form = await request.form()
    names = [str(v) for v in form.getlist("with") if isinstance(v, str)][:20]
    characters = {str(c.id): c.name for c in store.characters(who.campaign.id)}
    picked = {
        key.removeprefix("side-"): value
        for key, value in form.multi_items()
        if key.startswith("side-")
    }
    sides = {
        name: str(picked[key])
        for key, name in characters.items()
        if name in names and picked.get(key) in ("a", "b", "c")
    }
    order = [n.strip() for n in _text(form.get("order")).split(",") if n.strip()]
    settings = parse_pairs([p for p in _text(form.get("settings")).split(",") if p.strip()])
    deadline = _text(form.get("deadline"), 20).strip() or None
    on_late = _text(form.get("on_late"), 20).strip() or None
    fight_id = await run_in_threadpool(
        table.start_fight,
        store,
        who.viewer,
        who.campaign,
        names,
        sides,
        order or None,
        settings,
        deadline,
        on_late,
    )
    return RedirectResponse(f"/c/{who.campaign.id}/fights/{fight_id}", status_code=303)


@router.get("/c/{campaign_id}/fights/{fight_id}/odds")
def fight_odds_partial(
    request: Request, store: StoreDep, who: CampaignOf, fight_id: int, actor: str, command: str
) -> Response:
    """The odds beside a fight command's form, recomputed as the player fills it in (HTMX):
    the command's own odds (`jdr.fights.odds`), what they measure and their formula; what is
    missing, in place, for an unfinished form."""
    system = table.system_of(who.campaign)
    commands = getattr(system, "fight_commands", None)
    context: dict[str, Any] = {"odds": None, "problem": None}
    try:
        keys = raw_of(commands.get(command).keys, request.query_params) if commands else {}
        context["odds"] = table.command_odds(
            store, who.viewer, who.campaign, fight_id, actor, command, keys
        )
    except JdrError as error:
        from jdr.answers import error_json

        context["problem"] = error_json(error)
    return _page(request, "_command_odds.html", **context)


def _text(value: object, limit: int = 500) -> str:
    """A form's text field (a file or nothing reads as empty), cut to `limit` characters."""
    return value[:limit] if isinstance(value, str) else ""


@router.get("/c/{campaign_id}/fights/{fight_id}")
def fight_page(request: Request, store: StoreDep, who: CampaignOf, fight_id: int) -> Response:
    return _page(request, "fight.html", **fight_context(store, who, fight_id))


@router.post("/c/{campaign_id}/fights/{fight_id}")
async def fight_act(request: Request, store: StoreDep, who: CampaignOf, fight_id: int) -> Response:
    from starlette.concurrency import run_in_threadpool

    form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    actor, command = form.get("actor", ""), form.get("command", "")
    system = table.system_of(who.campaign)
    commands = getattr(system, "fight_commands", None)
    keys: dict[str, Any] = {}
    if commands is not None and command:
        keys = raw_of(commands.get(command).keys, form)
    version = form.get("version", "")
    seen = int(version) if version.isdigit() and len(version) < 18 else None
    try:
        await run_in_threadpool(
            table.play, store, who.viewer, who.campaign, fight_id, actor, command, keys, seen
        )
    except JdrError as error:
        return await run_in_threadpool(_fight_refused, request, store, who, fight_id, form, error)
    if request.headers.get("HX-Request"):  # one tap: the forms again, the board refreshed
        context = await run_in_threadpool(fight_context, store, who, fight_id)
        response = _page(request, "_fight_forms.html", **context)
        response.headers["HX-Trigger"] = f"jdr-fight-{fight_id}"
        return response
    return RedirectResponse(f"/c/{who.campaign.id}/fights/{fight_id}", status_code=303)


@router.post("/c/{campaign_id}/fights/{fight_id}/undo")
def fight_undo(request: Request, store: StoreDep, who: CampaignOf, fight_id: int) -> Response:
    """The GM takes back the fight's last action (`jdr fight undo`)."""
    return _undo_redo(request, store, who, fight_id, redo=False)


@router.post("/c/{campaign_id}/fights/{fight_id}/redo")
def fight_redo(request: Request, store: StoreDep, who: CampaignOf, fight_id: int) -> Response:
    """The GM puts back the action undone last (`jdr fight redo`)."""
    return _undo_redo(request, store, who, fight_id, redo=True)


def _undo_redo(request: Request, store: Store, who: Signed, fight_id: int, redo: bool) -> Response:
    """Undo or redo as `table.undo_fight` may; refused (a player, a spectator, nothing to
    undo): the fight's page with why beside the buttons, answered with the refusal's status."""
    from jdr.answers import error_json
    from jdr.web.errors import status_of

    try:
        table.undo_fight(store, who.viewer, who.campaign, fight_id, redo)
    except JdrError as error:
        status = status_of(error)
        if status in (401, 404):
            raise
        context = fight_context(store, who, fight_id)
        context["undo_error"] = error_json(error)
        response = _page(request, "fight.html", **context)
        response.status_code = status
        return response
    return RedirectResponse(f"/c/{who.campaign.id}/fights/{fight_id}", status_code=303)


def _fight_refused(
    request: Request,
    store: Store,
    who: Signed,
    fight_id: int,
    form: dict[str, str],
    error: JdrError,
) -> Response:
    """A refused command (someone else's decision, a rule, a typo): the fight's page again,
    with what was typed kept in its form and why beside it, answered with the refusal's status
    (a page that cannot be shown, not signed in or not found, is the plain refusal)."""
    from jdr.answers import error_json
    from jdr.web.errors import status_of

    status = status_of(error)
    if status in (401, 404):
        raise error
    context = fight_context(store, who, fight_id)
    context["error"] = error_json(error)
    context["values"] = {k: v for k, v in form.items() if k not in ("csrf", "version")}
    context["refused"] = (form.get("actor", ""), form.get("command", ""))
    page = "_fight_forms.html" if request.headers.get("HX-Request") else "fight.html"
    response = _page(request, page, **context)
    response.status_code = status
    return response


@router.get("/c/{campaign_id}/sheets/{character_id}")
def sheet_page(request: Request, store: StoreDep, who: CampaignOf, character_id: int) -> Response:
    return _page(request, "sheet.html", **sheet_context(store, who, character_id))


@router.post("/c/{campaign_id}/sheets/{character_id}")
async def sheet_edit(
    request: Request, store: StoreDep, who: CampaignOf, character_id: int
) -> Response:
    """The edited sheet; refused with every problem shown in place, the text kept as typed."""
    from starlette.concurrency import run_in_threadpool

    from jdr.answers import error_json
    from jdr.web.errors import status_of

    form = await request.form()
    text = str(form.get("sheet") or "")
    base = str(form.get("revision") or "")
    revision = int(base) if base.isdigit() else None
    try:
        await run_in_threadpool(
            table.edit_sheet, store, who.viewer, who.campaign, character_id, text, revision
        )
    except JdrError as error:
        if status_of(error) in (401, 403, 404):
            raise
        context = sheet_context(store, who, character_id, text)
        context["error"] = error_json(error)
        response = _page(request, "sheet.html", **context)
        response.status_code = status_of(error)
        return response
    return RedirectResponse(f"/c/{who.campaign.id}/sheets/{character_id}", status_code=303)


@router.get("/c/{campaign_id}/luck")
def luck_page(request: Request, store: StoreDep, who: CampaignOf) -> Response:
    from jdr.web.views import luck_bars

    report = reread(store, who, "luck", lambda: table.luck(store, who.viewer, who.campaign))
    return _page(request, "luck.html", **signed_context(who), bars=luck_bars(report))


@router.get("/c/{campaign_id}/simulate")
async def simulate_page(request: Request, store: StoreDep, who: CampaignOf) -> Response:
    """Who wins, and how often: the fight of the characters ticked on each side played many
    times (`jdr simulate`); a GET, so a report is a link to share."""
    from starlette.concurrency import run_in_threadpool

    from jdr.simulate import view

    query = request.query_params
    with_ = [str(v) for v in query.getlist("with")][:20]
    against = [str(v) for v in query.getlist("against")][:20]
    runs = _whole("runs", query.get("runs"), 1000)
    seed = _whole("seed", query.get("seed"), 0)
    tactic = str(query.get("tactic") or "").strip()[:100] or None
    as_is = str(query.get("as_is") or "") not in ("", "0", "false")
    names = {key: str(query.get(f"side_{key}") or "").strip()[:200] for key in ("a", "b")}
    report = None
    if with_ or against:
        report = await run_in_threadpool(
            table.simulate,
            store,
            who.viewer,
            who.campaign,
            with_,
            against,
            runs,
            seed,
            tactic,
            as_is,
            names,
        )
    return _page(
        request,
        "simulate.html",
        **signed_context(who),
        characters=fighters_of(store, who.campaign),
        chosen={"a": with_, "b": against},
        runs=runs,
        seed=seed,
        tactics=table.simulation_tactics(who.campaign),
        tactic=report.tactic if report else (tactic or "default"),
        most=table.WEB_MAX_RUNS,
        report=report,
        as_is=as_is,
        names=names,
        sides=view.side_rows(report) if report else [],
        start_note=view.start_note(report) if report else "",
        start=view.start_rows(report) if report else [],
        warnings=view.start_warnings(report) if report else [],
        headers=view.fighter_headers(report) if report else [],
        rounds_header=view.rounds_header(report) if report else "",
        fighters=view.fighter_rows(report) if report else [],
        rounds=view.round_rows(report) if report else [],
        mean=view.mean_rounds(report) if report else "",
        heading=view.heading(report) if report else "",
        undecided=view.undecided_note(report) if report else "",
        tactic_label=view.tactic_label,
    )


def fighters_of(store: Store, campaign: Campaign) -> list[Character]:
    """The campaign's characters that may fight (not a Pokémon trainer): what a form offers."""
    from jdr.fights.setup import can_fight
    from jdr.systems import default_registry

    system = default_registry().get(campaign.system)
    return [c for c in store.characters(campaign.id) if can_fight(system, c.name, c.sheet)]


def _whole(field: str, text: str | None, default: int) -> int:
    """A whole number typed in a query (`InputError` naming the field otherwise)."""
    if text is None or not text.strip():
        return default
    if re.fullmatch(r"-?[0-9]{1,12}", text.strip()) is None:
        raise InputError(field, text[:40], _("a whole number"))
    return int(text)


@router.post("/c/{campaign_id}/journal/disclose")
def journal_disclose(store: StoreDep, who: CampaignOf) -> Response:
    table.disclose(store, who.viewer, who.campaign)
    return RedirectResponse(f"/c/{who.campaign.id}/journal", status_code=303)


@router.post("/c/{campaign_id}/journal/reveal")
def journal_reveal(store: StoreDep, who: CampaignOf) -> Response:
    table.reveal(store, who.viewer, who.campaign)
    return RedirectResponse(f"/c/{who.campaign.id}/journal", status_code=303)
