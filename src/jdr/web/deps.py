"""What a route depends on: the store, and who is asking (`Viewer`, from the session cookie).

`CampaignOf` checks the campaign id in a URL against the session's campaign, so one campaign's
ids never open another's pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from jdr.access import NotSignedInError, Viewer, csrf_token, token_hash, well_formed
from jdr.i18n import _
from jdr.store import Campaign, Store
from jdr.web.guard import SESSION_COOKIE


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


def viewer_of(request: Request, store: Store) -> Signed | None:
    """The live session of the request's cookie, or None."""
    token = request.cookies.get(SESSION_COOKIE)
    if token is None or not well_formed(token):
        return None
    found = store.signed_in(token_hash(token))
    if found is None:
        return None
    session, name, campaign = found
    viewer = Viewer(session.campaign_id, session.role, name, session.character_id)
    return Signed(viewer, Campaign(**campaign), csrf_token(token))


def signed(request: Request, store: StoreDep) -> Signed:
    found = viewer_of(request, store)
    if found is None:
        raise NotSignedInError(
            "session",
            None,
            _("a session: open the invite link the GM gave you"),
            _("not signed in"),
        )
    return found


SignedDep = Annotated[Signed, Depends(signed)]


def in_campaign(campaign_id: int, who: SignedDep) -> Signed:
    """The signed-in request, if `campaign_id` is the session's campaign."""
    who.viewer.require_campaign(campaign_id)
    return who


CampaignOf = Annotated[Signed, Depends(in_campaign)]
