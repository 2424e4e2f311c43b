"""Who may do what at a campaign's web table: invites, sessions, and the checks every use makes.

A GM invites with a role: `gm` (everything), `player` (acts only for their own character), or
`spectator` (reads only). An invite is a random token shown once in a link; the store keeps its
SHA-256. Redeeming it (single use, before it expires, unless revoked) gives the browser a seat in
the campaign: in its session if it has one (a browser holds a seat in every campaign it joined),
else in a new session whose own random token goes in a cookie; the store keeps its hash too. The
CSRF token of a session is derived from its token, so a page can carry it while the cookie stays
HttpOnly.

>>> viewer = Viewer(campaign_id=1, role="player", character="Kaito")
>>> viewer.may_act_for("kaito")
True
>>> viewer.require_actor("Aiko")
Traceback (most recent call last):
...
jdr.errors.AccessError: actor: 'Aiko' (a player acts only for their own character; allowed: Kaito)
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from jdr.errors import AccessError, InputError
from jdr.i18n import N_, _
from jdr.store import Store
from jdr.store.access import Seat

__all__ = [
    "INVITE_LIFETIME",
    "MAX_INVITE_LIFETIME",
    "ROLES",
    "ROLE_NAMES",
    "SESSION_LIFETIME",
    "TOKEN_BYTES",
    "AccessError",
    "Invited",
    "Viewer",
    "csrf_matches",
    "csrf_token",
    "host_session",
    "invite",
    "new_token",
    "not_your_campaign",
    "parse_lifetime",
    "redeem",
    "token_hash",
    "well_formed",
]

ROLES = ("gm", "player", "spectator")
INVITE_LIFETIME = timedelta(days=7)
MAX_INVITE_LIFETIME = timedelta(days=365)
SESSION_LIFETIME = timedelta(days=30)
TOKEN_BYTES = 32
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,100}$")


def new_token() -> str:
    """A fresh random token for a link or a cookie (256 bits, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the store keeps of a token.

    >>> token_hash("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: a keyed hash of its secret token, never the token itself."""
    return hmac.new(session_token.encode(), b"jdr csrf", hashlib.sha256).hexdigest()


def csrf_matches(session_token: str, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(csrf_token(session_token), given)


def well_formed(token: str) -> bool:
    """Whether `token` could be one of ours (so garbage never reaches the database)."""
    return bool(_TOKEN.match(token))


def parse_lifetime(text: str | None) -> timedelta:
    """`--expires`: a number of days, hours or minutes (`7d`, `12h`, `30m`); a week by default.

    >>> parse_lifetime("12h")
    datetime.timedelta(seconds=43200)
    >>> parse_lifetime("0d")
    Traceback (most recent call last):
    ...
    jdr.errors.InputError: --expires: '0d' (not allowed; allowed: 1m..365d, e.g. 7d, 12h, 30m)
    """
    if text is None:
        return INVITE_LIFETIME
    from jdr.numbers import duration

    allowed = _("1m..365d, e.g. 7d, 12h, 30m")
    lifetime = duration(text)
    if lifetime is None or lifetime <= timedelta(0) or lifetime > MAX_INVITE_LIFETIME:
        raise InputError("--expires", text, allowed)
    return lifetime


@dataclass(frozen=True)
class Invited:
    """A new invite: its id, the token to put in the link (shown once), and when it expires."""

    id: int
    token: str
    role: str
    character: str | None
    expires: datetime
    creates: bool = False
    """The player creates their character (the GM approves it)."""


def invite(
    store: Store,
    campaign_id: int,
    role: str,
    character: str | None = None,
    expires: str | None = None,
    creates: bool = False,
) -> Invited:
    """A new invite into the campaign. A player's invite names their character (one of the
    campaign's), or asks them to create it (`creates`: the GM approves the sheet they send);
    a GM's or a spectator's names none."""
    if role not in ROLES:
        raise InputError("--role", role, ", ".join(ROLES))
    lifetime = parse_lifetime(expires)
    character_id = None
    name = None
    if creates and (role != "player" or (character is not None and character.strip())):
        raise InputError(
            "--create-character",
            True,
            _("a player's invite without --character"),
            _("the player creates their character: name none"),
        )
    if role == "player" and not creates:
        if character is None or not character.strip():
            raise InputError(
                "--character",
                None,
                _("one of the campaign's characters"),
                _("a player's invite names their character"),
            )
        found = store.character_named(campaign_id, character)
        character_id, name = found.id, found.name
    elif character is not None:
        raise InputError("--character", character, _("only with --role player"))
    token = new_token()
    until = datetime.now(UTC) + lifetime
    invite_id = store.add_invite(
        campaign_id, token_hash(token), role, character_id, until, creates=creates
    )
    return Invited(invite_id, token, role, name, until, creates)


def _session_hash(session: str | None) -> str | None:
    """The hash of the browser's session token, if it is well formed (the store checks it is
    live in the transaction that seats it)."""
    return token_hash(session) if session is not None and well_formed(session) else None


def redeem(store: Store, token: str, session: str | None = None) -> tuple[str, Seat]:
    """Use an invite: a seat in its campaign for the browser's live session `session` (its
    cookie's token; the browser keeps its other campaigns), else for a new session. The
    session's token (for the cookie) and the seat.

    Unknown, used, revoked and expired invites are refused alike."""
    if well_formed(token):
        fresh = new_token()
        until = datetime.now(UTC) + SESSION_LIFETIME
        found = store.redeem_invite(
            token_hash(token), _session_hash(session), token_hash(fresh), until
        )
        if found is not None:
            seat, started = found
            return (fresh if started or session is None else session), seat
    raise AccessError(
        "invite",
        None,
        _("an unused invite that has not expired: ask the GM for a new link"),
        _("this invite link is used, revoked, expired or unknown"),
    )


def host_session(store: Store, campaign_id: int, session: str | None = None) -> tuple[str, Seat]:
    """A GM seat for whoever created the campaign in the browser: in the browser's live session
    `session` (it keeps its other campaigns), else in a new one. The session's token and the
    seat."""
    fresh = new_token()
    until = datetime.now(UTC) + SESSION_LIFETIME
    seat, started = store.add_seat(
        _session_hash(session), token_hash(fresh), campaign_id, "gm", None, until
    )
    return (fresh if started or session is None else session), seat


ROLE_NAMES = {"gm": N_("GM"), "player": N_("player"), "spectator": N_("spectator")}


@dataclass(frozen=True)
class Viewer:
    """Who a request comes from: a session's seat in one campaign (its role and, a player's,
    character)."""

    campaign_id: int
    role: str
    character: str | None = None
    character_id: int | None = None

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    @property
    def may_write(self) -> bool:
        return self.role in ("gm", "player")

    def require_gm(self, what: str) -> None:
        if not self.is_gm:
            raise AccessError(what, None, _("the GM"), _("only the GM may do this"))

    def require_writer(self, what: str) -> None:
        if not self.may_write:
            raise AccessError(what, None, _("a GM or a player"), _("a spectator reads only"))

    def may_act_for(self, name: str | None) -> bool:
        from jdr.names import same

        if self.is_gm:
            return True
        if self.role != "player" or name is None or self.character is None:
            return False
        return same(name, self.character)

    def require_actor(self, name: str | None) -> str | None:
        """The actor a roll or a command is made for: anyone for the GM; for a player, their
        own character (the default); never anyone for a spectator."""
        self.require_writer("actor")
        if self.is_gm:
            return name
        if name is None or not name.strip():
            return self.character
        if not self.may_act_for(name):
            raise AccessError(
                "actor",
                name,
                self.character or "-",
                _("a player acts only for their own character"),
            )
        return self.character

    def require_campaign(self, campaign_id: int) -> None:
        """Every id a request names is checked against the seat's campaign."""
        if campaign_id != self.campaign_id:
            raise not_your_campaign()


def not_your_campaign() -> AccessError:
    """The refusal of a campaign the session holds no seat in."""
    return AccessError("campaign", None, _("the campaign of your invite"), _("not your campaign"))
