"""The live table's routes (issue 20): the stream of a campaign's changes, the parts of each page
that a change refreshes (the same templates the full pages include), a fight's pace, the
campaign's webhook and feed links, each journal entry's permalink, and the Atom feed.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response, StreamingResponse

from jdr import access, table
from jdr.i18n import LANGUAGES, _, current_language, language
from jdr.live import seat
from jdr.web.contexts import (
    JOURNAL_SHOWN,
    campaign_live,
    fight_context,
    sheet_context,
    stable,
)
from jdr.web.deps import MAX_ID, CampaignOf, Signed, StoreDep
from jdr.web.guard import SESSION_COOKIE
from jdr.web.live import MAX_STREAMS, MAX_STREAMS_PER_SESSION, last_event_id, stream

router = APIRouter(include_in_schema=False)


def _page(request: Request, name: str, who: Signed | None = None, **context: Any) -> Response:
    signed: dict[str, Any] = {"viewer": None, "campaign": None, "csrf": None}
    if who is not None:
        signed = {"viewer": who.viewer, "campaign": who.campaign, "csrf": who.csrf}
    response: Response = request.app.state.templates.TemplateResponse(
        request, name, {**signed, **context}
    )
    return response


# --- the stream ------------------------------------------------------------------------------


@router.get("/c/{campaign_id}/live")
async def live(
    request: Request, store: StoreDep, who: CampaignOf, after: str | None = None
) -> Response:
    """The campaign's changes as server-sent events (`jdr.web.live`)."""
    from jdr.errors import TooManyError

    hub = request.app.state.hub
    token = request.cookies.get(SESSION_COOKIE, "")
    key = access.token_hash(token)
    if (
        sum(hub.streams.values()) >= MAX_STREAMS
        or hub.streams.get(key, 0) >= MAX_STREAMS_PER_SESSION
    ):
        raise TooManyError(
            "live",
            None,
            _("{n} open pages a session").format(n=MAX_STREAMS_PER_SESSION),
            _("too many open pages: close some"),
        )
    start = last_event_id(request.headers.get("last-event-id"), after)

    def still_signed() -> bool:
        return store.web_session(key) is not None

    async def counted() -> Any:
        hub.streams[key] = hub.streams.get(key, 0) + 1
        try:
            async for chunk in stream(
                hub, who.campaign.id, start, still_signed, request.is_disconnected
            ):
                yield chunk
        finally:
            hub.streams[key] -= 1
            if hub.streams[key] <= 0:
                del hub.streams[key]

    headers = {"X-Accel-Buffering": "no"}  # nginx: pass each event on at once
    return StreamingResponse(counted(), media_type="text/event-stream", headers=headers)


# --- the parts a change refreshes ------------------------------------------------------------


@router.get("/c/{campaign_id}/parts/campaign")
def campaign_part(request: Request, store: StoreDep, who: CampaignOf) -> Response:
    return _page(request, "_campaign_live.html", who, **campaign_live(store, who))


@router.get("/c/{campaign_id}/parts/journal")
def journal_part(
    request: Request, store: StoreDep, who: CampaignOf, before: int | None = None
) -> Response:
    before = before if before is None or 0 < before <= MAX_ID else None
    entries, older = table.journal_page(store, who.viewer, who.campaign, JOURNAL_SHOWN, before)
    first = entries[0].seq if older and entries else None
    return _page(request, "_journal_live.html", who, entries=entries, older=first, before=before)


@router.get("/c/{campaign_id}/fights/{fight_id}/parts/live")
def fight_part(request: Request, store: StoreDep, who: CampaignOf, fight_id: int) -> Response:
    return _page(request, "_fight_live.html", **fight_context(store, who, fight_id))


@router.get("/c/{campaign_id}/fights/{fight_id}/parts/recaps")
def fight_recaps_part(
    request: Request, store: StoreDep, who: CampaignOf, fight_id: int
) -> Response:
    """A long fight's recaps to copy, asked for with a button (its page leaves them out)."""
    recaps = table.fight_recaps(store, who.viewer, who.campaign, fight_id)
    return _page(request, "_fight_recaps.html", who, recaps=recaps)


@router.get("/c/{campaign_id}/fights/{fight_id}/parts/forms")
def fight_forms_part(
    request: Request, store: StoreDep, who: CampaignOf, fight_id: int, fp: str = ""
) -> Response:
    context = fight_context(store, who, fight_id)
    if fp and fp == context["fingerprint"]:
        return Response(status_code=204)
    return _page(request, "_fight_forms.html", **context)


@router.get("/c/{campaign_id}/sheets/{character_id}/parts/history")
def sheet_history_part(
    request: Request, store: StoreDep, who: CampaignOf, character_id: int, revision: int = 0
) -> Response:
    context = sheet_context(store, who, character_id)
    return _page(request, "_sheet_history.html", **context, shown_revision=revision)


# --- pace, webhook, feeds (the GM) -----------------------------------------------------------


@router.post("/c/{campaign_id}/fights/{fight_id}/pace")
def fight_pace(
    store: StoreDep,
    who: CampaignOf,
    fight_id: int,
    deadline: Annotated[str, Form(max_length=20)] = "",
    on_late: Annotated[str, Form(max_length=20)] = "default",
) -> Response:
    seat.set_pace(store, who.viewer, who.campaign, fight_id, deadline or "none", on_late)
    return RedirectResponse(f"/c/{who.campaign.id}/fights/{fight_id}", status_code=303)


@router.post("/c/{campaign_id}/fights/{fight_id}/end")
def fight_end(
    store: StoreDep,
    who: CampaignOf,
    fight_id: int,
    winner: Annotated[str, Form(max_length=200)] = "",
    draw: Annotated[str, Form(max_length=10)] = "",
) -> Response:
    """The GM ends a fight (`jdr fight end`), naming a winner or a draw when its rules have
    not ended it."""
    table.end_fight(
        store, who.viewer, who.campaign, fight_id, [winner] if winner else [], bool(draw)
    )
    return RedirectResponse(f"/c/{who.campaign.id}/fights/{fight_id}", status_code=303)


@router.post("/c/{campaign_id}/webhook")
def webhook_set(
    request: Request,
    store: StoreDep,
    who: CampaignOf,
    url: Annotated[str, Form(max_length=2000)],
    format: Annotated[str, Form(max_length=16)] = "discord",
    lang: Annotated[str, Form(max_length=8)] = "",
) -> Response:
    hosts = request.app.state.background.webhook_hosts
    chosen = lang if lang in LANGUAGES else current_language()
    seat.set_webhook(store, who.viewer, who.campaign, url, format, chosen, hosts)
    return RedirectResponse(f"/c/{who.campaign.id}/settings", status_code=303)


@router.post("/c/{campaign_id}/webhook/remove")
def webhook_remove(store: StoreDep, who: CampaignOf) -> Response:
    seat.remove_webhook(store, who.viewer, who.campaign)
    return RedirectResponse(f"/c/{who.campaign.id}/settings", status_code=303)


@router.post("/c/{campaign_id}/feeds")
def feed_make(
    request: Request,
    store: StoreDep,
    who: CampaignOf,
    lang: Annotated[str, Form(max_length=8)] = "",
) -> Response:
    made = seat.make_feed(store, who.viewer, who.campaign, lang or current_language())
    context = _settings(request, store, who)
    context.update(made=made, link=f"{_base(request)}/feeds/{made.token}")
    return _page(request, "settings.html", who, **context)


@router.post("/c/{campaign_id}/feeds/{feed_id}/revoke")
def feed_revoke(store: StoreDep, who: CampaignOf, feed_id: int) -> Response:
    seat.revoke_feed(store, who.viewer, who.campaign, feed_id)
    return RedirectResponse(f"/c/{who.campaign.id}/settings", status_code=303)


def _base(request: Request) -> str:
    return str(request.app.state.base_url or str(request.base_url).rstrip("/"))


def _settings(request: Request, store: Any, who: Signed) -> dict[str, Any]:
    who.viewer.require_gm("settings")
    return {
        "webhook": seat.webhook_shown(store, who.viewer, who.campaign),
        "feeds": store.feeds(who.campaign.id),
        "made": None,
        "link": None,
    }


@router.get("/c/{campaign_id}/settings")
def settings_page(request: Request, store: StoreDep, who: CampaignOf) -> Response:
    """The GM's table settings: the webhook, the feed links."""
    return _page(request, "settings.html", who, **_settings(request, store, who))


# --- permalinks and the feed -----------------------------------------------------------------


@router.get("/c/{campaign_id}/journal/{seq}")
def entry_page(request: Request, store: StoreDep, who: CampaignOf, seq: int) -> Response:
    """One journal entry as everyone may read it, with its post-ready snippets."""
    told = stable(  # told from the fight's start: kept till the journal is disclosed
        store,
        who,
        f"entry {seq} {current_language()}",
        lambda: seat.entry_announcement(store, who.campaign, seq),
        seat.alters_entries,
    )
    link = f"{_base(request)}/c/{who.campaign.id}/journal/{seq}"
    return _page(
        request, "entry.html", who, told=told, seq=seq, link=link,
        snippets={"bbcode": told.bbcode(link), "markdown": told.markdown(link)},
    )  # fmt: skip


@router.get("/feeds/{token}")
def feed(request: Request, store: StoreDep, token: str) -> Response:
    """The campaign's Atom feed, at the secret link the GM made (no session: a feed reader)."""
    from jdr.live.feed import campaign_feed

    request.app.state.feed_limit.check(request.client.host if request.client else "-")
    found = seat.feed_of(store, token)
    campaign = store.campaign_by_id(found.campaign_id)
    with language(found.lang):
        body = campaign_feed(store, campaign, f"{_base(request)}/feeds/{token}", _base(request))
    return Response(body, media_type="application/atom+xml; charset=utf-8")
