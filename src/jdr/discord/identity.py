"""Who a Discord user is at a campaign's table: channels bound by the GM, seats by invites.

The GM binds a channel to a campaign with a link code: `jdr discord link CAMPAIGN` prints one
(random, 256 bits, single use, a day unless `--expires` says otherwise; the store keeps its
SHA-256, as it does an invite's), and `/jdr campaign link code:…` in the channel redeems it:
the channel plays that campaign from then on, and whoever redeemed it is the campaign's GM on
Discord. A channel already bound is bound again only by its campaign's GM (a player cannot take
it away). A player or a spectator takes their seat with `/jdr join code:…`, redeeming an ordinary
invite (`jdr campaign invite`, the same single-use invites as the web's): the seat has the
invite's role and character, so the services hold the same rules on Discord as on the web.

`place(store, caller)` is what every command needs: the campaign of the caller's channel and the
caller's `Viewer` there (None without a seat).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from jdr.access import Viewer, new_token, parse_lifetime, token_hash, well_formed
from jdr.discord.types import Caller
from jdr.errors import AccessError
from jdr.i18n import _
from jdr.store import Campaign, Store

__all__ = ["LINK_LIFETIME", "LinkCode", "invite_code", "join", "link", "link_code", "place"]

LINK_LIFETIME = timedelta(days=1)
"""How long a link code works unless `--expires` says otherwise."""


@dataclass(frozen=True)
class LinkCode:
    """A new link code: its id, the code (shown once), its campaign's name and its expiry."""

    id: int
    code: str
    campaign: str
    expires: datetime


def link_code(store: Store, campaign_id: int, expires: str | None = None) -> LinkCode:
    """A new code that binds a channel to the campaign and seats its redeemer as GM."""
    lifetime = LINK_LIFETIME if expires is None else parse_lifetime(expires)
    campaign = store.campaign_by_id(campaign_id)
    code = new_token()
    until = datetime.now(UTC) + lifetime
    made = store.add_discord_link(campaign.id, token_hash(code), until)
    return LinkCode(made, code, campaign.name, until)


def place(store: Store, caller: Caller) -> tuple[Campaign | None, Viewer | None]:
    """The campaign the caller's channel is bound to (None if none) and the caller's seat there
    as a `Viewer` (None without one)."""
    campaign, seat, name = store.discord_place(caller.channel_id, caller.user_id)
    if campaign is None or seat is None:
        return campaign, None
    return campaign, Viewer(seat.campaign_id, seat.role, name, seat.character_id)


def link(store: Store, caller: Caller, code: str) -> tuple[Campaign, Viewer]:
    """`/jdr campaign link code:…`: bind the caller's channel to the code's campaign and seat the
    caller there as GM (see the module). The campaign and the caller's new `Viewer`."""
    bound, viewer = place(store, caller)
    if bound is not None and (viewer is None or not viewer.is_gm):
        raise AccessError(
            _("channel"),
            None,
            _("the GM of {campaign}").format(campaign=bound.name),
            _("this channel plays {campaign}: only its GM may link it again").format(
                campaign=bound.name
            ),
        )
    cleaned = code.strip()
    found = None
    if well_formed(cleaned):
        found = store.redeem_discord_link(
            token_hash(cleaned), caller.channel_id, caller.guild_id, caller.user_id
        )
    if found is None:
        raise AccessError(
            _("link code"),
            None,
            _("a fresh code from `jdr discord link CAMPAIGN`"),
            _("this link code is used, expired or unknown"),
        )
    campaign = store.campaign_by_id(found)
    return campaign, Viewer(campaign.id, "gm")


def invite_code(text: str) -> str:
    """The invite's token in what was typed: the token itself, or the whole invite link.

    >>> invite_code(" https://table.example/invite/abc_DEF-123/ ")
    'abc_DEF-123'
    >>> invite_code("abc")
    'abc'
    """
    cleaned = text.strip()
    if "/invite/" in cleaned:
        cleaned = cleaned.rsplit("/invite/", 1)[1].split("?")[0].split("#")[0].strip("/")
    return cleaned


def join(store: Store, caller: Caller, code: str) -> tuple[Campaign, Viewer]:
    """`/jdr join code:…`: redeem an invite (its token or its link) for the caller: a seat in
    its campaign with its role and character. The campaign and the caller's `Viewer` there."""
    token = invite_code(code)
    if well_formed(token):
        seat = store.redeem_discord_invite(token_hash(token), caller.user_id)
        if seat is not None:
            campaign = store.campaign_by_id(seat.campaign_id)
            found = store.discord_seat(seat.campaign_id, caller.user_id)
            name = None if found is None else found[1]
            return campaign, Viewer(seat.campaign_id, seat.role, name, seat.character_id)
        if store.invite_creates(token_hash(token)):
            raise AccessError(
                "invite",
                None,
                _("an invite that names your character"),
                _("this invite asks you to create your character: open its link in a browser"),
            )
    raise AccessError(
        "invite",
        None,
        _("an unused invite that has not expired: ask the GM for a new one"),
        _("this invite is used, revoked, expired or unknown"),
    )
