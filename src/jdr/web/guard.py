"""The web table's guard, one ASGI middleware in front of every route.

For every request it sets the reader's language (a `lang` cookie set by the switch, else
Accept-Language), adds the security headers (a Content-Security-Policy without inline scripts,
`X-Content-Type-Options`, `Referrer-Policy`, no framing), and refuses in the CLI's error shape:
- a body over `max_body` bytes (413), counted as it arrives, whatever Content-Length says;
- a state change (any method but GET, HEAD, OPTIONS) from another origin, or without the
  session's CSRF token (`X-CSRF-Token` header or `csrf` form field); the only exceptions are the
  routes whose URL itself holds a secret the attacker cannot know (an invite, the host link),
  and Discord's interactions endpoint, whose every request is signed (`jdr.web.discord_route`;
  its bodies are held to `jdr.discord.signature.MAX_BODY`).
"""

from __future__ import annotations

import json
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qs

from jdr.access import csrf_matches
from jdr.errors import JdrError, LimitError, TooManyError
from jdr.i18n import _, normalize_language, set_language

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SESSION_COOKIE = "jdr_session"
LANG_COOKIE = "jdr_lang"
MAX_BODY = 256 * 1024
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]
_SECRET_URLS = (re.compile(r"^/invite/[^/]+$"), re.compile(r"^/host/[^/]+$"))
SIGNED_PATHS = ("/discord/interactions",)
"""Routes whose requests carry a signature the route checks (no cookie, no CSRF token)."""


def cookies(scope: Scope) -> dict[str, str]:
    """The request's cookies."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _sep, text = part.strip().partition("=")
                if key and key not in found:
                    found[key] = text
    return found


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def language_of(scope: Scope) -> str:
    """The `lang` cookie (the page's switch), else the first language of Accept-Language that
    jdr speaks, else English."""
    chosen = normalize_language(cookies(scope).get(LANG_COOKIE))
    if chosen:
        return chosen
    for part in (header(scope, b"accept-language") or "").split(","):
        found = normalize_language(part.split(";")[0].strip())
        if found:
            return found
    return "en"


class RateLimit:
    """At most `limit` attempts per `window` seconds from one address (in this process).

    `allow` counts every attempt (feed reads); `refuse_if_spent` and `spent` count only the
    attempts that failed (joining: a table of friends behind one address all join, a guesser
    is stopped).

    >>> limit = RateLimit(2, 60.0)
    >>> limit.allow("a", 0.0), limit.allow("a", 1.0), limit.allow("a", 2.0), limit.allow("a", 61.0)
    (True, True, False, True)
    >>> failures = RateLimit(1, 60.0)
    >>> failures.blocked("a", 0.0), failures.spent("a", 0.0), failures.blocked("a", 1.0)
    (False, None, True)
    """

    def __init__(self, limit: int, window: float, field: str = "invite") -> None:
        self.limit = limit
        self.window = window
        self.field = field
        self._seen: dict[str, deque[float]] = {}

    def _recent(self, who: str, at: float) -> deque[float]:
        if len(self._seen) > 10_000:  # bounded memory: forget the idle
            self._seen = {k: v for k, v in self._seen.items() if v and v[-1] > at - self.window}
        seen = self._seen.setdefault(who, deque())
        while seen and seen[0] <= at - self.window:
            seen.popleft()
        return seen

    def allow(self, who: str, at: float | None = None) -> bool:
        at = time.monotonic() if at is None else at
        seen = self._recent(who, at)
        if len(seen) >= self.limit:
            return False
        seen.append(at)
        return True

    def blocked(self, who: str, at: float | None = None) -> bool:
        """Whether `who` spent its attempts of the window (without counting this one)."""
        at = time.monotonic() if at is None else at
        return len(self._recent(who, at)) >= self.limit

    def spent(self, who: str, at: float | None = None) -> None:
        """Count one failed attempt of `who`."""
        at = time.monotonic() if at is None else at
        self._recent(who, at).append(at)

    def check(self, who: str) -> None:
        """Count this attempt; refuse it if `who` has made `limit` in the window."""
        if not self.allow(who):
            raise self.refusal()

    def refuse_if_spent(self, *who: str) -> None:
        """Refuse an attempt if any of `who` (an address, an invite) failed `limit` times in the
        window; the caller counts a failure with `spent`."""
        if any(self.blocked(one) for one in who):
            raise self.refusal(_("{n} failed attempts a minute").format(n=self.limit))

    def refusal(self, allowed: str | None = None) -> TooManyError:
        return TooManyError(
            self.field,
            None,
            allowed or _("{n} attempts a minute").format(n=self.limit),
            _("too many attempts: wait a minute"),
        )


Refuse = Callable[[Scope, JdrError], Awaitable[tuple[int, list[tuple[bytes, bytes]], bytes]]]


class Guard:
    """The middleware (see the module's docstring); `refuse` renders an error response."""

    def __init__(self, app: ASGIApp, refuse: Refuse, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.refuse = refuse
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        set_language(language_of(scope))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _value in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in names]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        try:
            body = await self._body(scope, receive)
            self._check_state_change(scope, body)
        except JdrError as error:
            status, headers, content = await self.refuse(scope, error)
            await send_with_headers(
                {"type": "http.response.start", "status": status, "headers": headers}
            )
            await send_with_headers({"type": "http.response.body", "body": content})
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send_with_headers)

    def _limit(self, scope: Scope) -> int:
        if scope["path"] in SIGNED_PATHS:
            from jdr.discord.signature import MAX_BODY as SIGNED_MAX

            return min(self.max_body, SIGNED_MAX)
        return self.max_body

    async def _body(self, scope: Scope, receive: Receive) -> bytes:
        limit = self._limit(scope)
        declared = header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            raise self._too_big(declared, limit)
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise self._too_big(size, limit)
            chunks.append(chunk)
            more = message.get("more_body", False)
        return b"".join(chunks)

    def _too_big(self, size: object, limit: int) -> LimitError:
        return LimitError(
            "body", size, _("at most {n} bytes").format(n=limit), _("request too large")
        )

    def _check_state_change(self, scope: Scope, body: bytes) -> None:
        from jdr.access import AccessError

        if scope["method"] in SAFE_METHODS:
            return
        origin = header(scope, b"origin")
        host = header(scope, b"host")
        if origin is not None and origin != "null" and host is not None:
            if origin.split("://", 1)[-1] != host:
                raise AccessError(
                    "origin", origin, _("this site"), _("a request from another site")
                )
        elif origin == "null":
            raise AccessError("origin", origin, _("this site"), _("a request from another site"))
        if any(pattern.match(scope["path"]) for pattern in _SECRET_URLS):
            return
        if scope["path"] in SIGNED_PATHS:  # the route refuses (401) what Discord did not sign
            return
        session = cookies(scope).get(SESSION_COOKIE)
        given = header(scope, b"x-csrf-token") or _form_field(scope, body, "csrf")
        if session is None or not csrf_matches(session, given):
            raise AccessError(
                "csrf",
                None,
                _("the token of the page this form came from"),
                _("missing or wrong CSRF token: reload the page"),
            )


def _form_field(scope: Scope, body: bytes, name: str) -> str | None:
    kind = (header(scope, b"content-type") or "").split(";")[0].strip().lower()
    if kind == "application/x-www-form-urlencoded":
        values = parse_qs(body.decode("utf-8", "replace")).get(name)
        return values[0] if values else None
    if kind == "multipart/form-data":  # a form with a file (a sheet to import)
        return _multipart_field(scope, body, name)
    if kind == "application/json":
        try:
            data = json.loads(body or b"null")
        except ValueError:
            return None
        value = data.get(name) if isinstance(data, dict) else None
        return value if isinstance(value, str) else None
    return None


def _multipart_field(scope: Scope, body: bytes, name: str) -> str | None:
    """A text field of a `multipart/form-data` body (the body is already within `max_body`)."""
    kind = header(scope, b"content-type") or ""
    message = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + kind.encode("latin-1") + b"\r\n\r\n" + body
    )
    if not message.is_multipart():
        return None
    for part in message.iter_parts():
        if part.get_param("name", header="content-disposition") == name:
            value = part.get_payload(decode=True)
            return value.decode("utf-8", "replace").strip() if isinstance(value, bytes) else None
    return None
