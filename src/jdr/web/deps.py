"""What a route depends on: the store, and who is asking (`Viewer`, from the session cookie).

A browser's session holds one seat per campaign it joined; `CampaignOf` reads the campaign id in
a URL and gives the session's seat there (403 if it has none), so one campaign's ids never open
another's pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from jdr.access import (
    Viewer,
    csrf_token,
    not_your_campaign,
    token_hash,
    well_formed,
)
from jdr.errors import NotSignedInError
from jdr.i18n import _
from jdr.phases import phase
from jdr.store import Campaign, Store
from jdr.store.access import SeatSummary
from jdr.web.guard import SESSION_COOKIE

MAX_ID = 2**31 - 1
"""The largest id a URL may name (a 32-bit integer column's): beyond it, no campaign."""


def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


StoreDep = Annotated[Store, Depends(get_store)]


@dataclass(frozen=True)
class Signed:
    """A signed-in request: who (`viewer`), the campaign, and the CSRF token its pages carry."""

    viewer: Viewer
    campaign: Campaign
    csrf: str


def session_token(request: Request) -> str | None:
    """The session token of the request's cookie, if it could be one of ours."""
    token = request.cookies.get(SESSION_COOKIE)
    return token if token is not None and well_formed(token) else None


def seats_of(request: Request, store: Store) -> list[SeatSummary]:
    """The seats of the request's live session (none if it has no live session)."""
    token = session_token(request)
    return [] if token is None else store.seats(token_hash(token))


def in_campaign(campaign_id: int, request: Request, store: StoreDep) -> Signed:
    """The signed-in request's seat in `campaign_id`: 401 without a live session, 403 if the
    session holds no seat there."""
    token = session_token(request)
    asked = campaign_id if 0 < campaign_id <= MAX_ID else 0  # no seat, whatever the database
    with phase("session"):
        found = None if token is None else store.signed_in(token_hash(token), asked)
    if token is None or found is None:
        raise NotSignedInError(
            "session",
            None,
            _("a session: open the invite link the GM gave you"),
            _("not signed in"),
        )
    seat, name, campaign = found
    if seat is None:
        raise not_your_campaign()
    viewer = Viewer(seat.campaign_id, seat.role, name, seat.character_id)
    return Signed(viewer, Campaign(**campaign), csrf_token(token))


CampaignOf = Annotated[Signed, Depends(in_campaign)]
