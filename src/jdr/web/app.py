"""The web table's application: `create_app(url)` builds it; `jdr serve` runs it with uvicorn.

One application factory; the routes live in `jdr.web.pages` (HTML) and `jdr.web.api` (JSON), and
both call the services the CLI calls. Every refusal is the CLI's error shape with a 4xx status.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException

from jdr.access import ROLE_NAMES
from jdr.answers import error_json
from jdr.characters.revisions import kind_name
from jdr.errors import InputError, JdrError, NotFoundError
from jdr.i18n import _, current_language, ngettext, set_language
from jdr.journal.words import action_text
from jdr.labels import action_label
from jdr.numbers import decimal, percent
from jdr.phases import wanted
from jdr.store import open_store
from jdr.web.errors import from_validation, status_of
from jdr.web.guard import MAX_BODY, Guard, RateLimit, Scope, language_of
from jdr.web.timing import Timing

HERE = Path(__file__).parent
INVITE_ATTEMPTS = 10
"""Failed invite redemptions (or host links) a minute from one address, and of one invite."""
SWITCH_S = 0.001
"""How long a thread may keep Python's interpreter lock while others wait (5 ms by default): a
request holding a campaign's writer lock gets it back sooner after its disk write, so the
writers queued behind it wait less."""
FEED_READS = 60
"""Feed reads a minute from one address (a feed reader asks every few minutes)."""
TICK_S = 5.0
"""How often the table's clock looks for late turns and changes to announce."""


def templates() -> Jinja2Templates:
    found = Jinja2Templates(directory=str(HERE / "templates"))
    found.env.autoescape = True
    found.env.filters.update(percent=percent, decimal=decimal, button=button_label)
    found.env.globals.update(
        _=_,
        ngettext=ngettext,
        current_language=current_language,
        role_name=lambda role: _(ROLE_NAMES.get(role) or role),
        action_text=action_text,
        kind_name=kind_name,
        system_name=system_name,
        action_label=action_label,
    )
    return found


def button_label(text: str) -> str:
    """A display name as a button shows it: its first letter a capital, as every other button
    of the pages (« Attaque », "Attack"); the rest as declared (a name's own capitals kept).

    >>> button_label("attaque à distance"), button_label("use TM"), button_label("")
    ('Attaque à distance', 'Use TM', '')
    """
    return text[:1].upper() + text[1:]


def system_name(system_id: str) -> str:
    """An installed system's name in the reader's language (its id, when it is not installed)."""
    from jdr.systems import default_registry
    from jdr.systems.protocol import display_name

    try:
        return display_name(default_registry().get(system_id), current_language())
    except JdrError:
        return system_id


def create_app(
    url: str | None = None,
    host_token: str | None = None,
    invite_attempts: int = INVITE_ATTEMPTS,
    max_body: int = MAX_BODY,
    base_url: str | None = None,
    clock: Callable[[], datetime] | None = None,
    tick_s: float = TICK_S,
    webhook_hosts: tuple[str, ...] = (),
    discord_public_key: str | None = None,
    discord_api: str | None = None,
) -> FastAPI:
    """The application on the database at `url` (the CLI's default when None).

    `host_token` is the secret of the host link `jdr serve` prints (`/host/TOKEN`): whoever
    holds it may create campaigns in the browser. None makes one (shown by `jdr serve`).
    While it runs (its lifespan), it pushes each campaign's changes to its open pages
    (`jdr.web.live`) and, every `tick_s` seconds, plays late turns and announces changes to
    the webhooks (`jdr.web.background`; `clock` gives the time, for tests; `webhook_hosts`
    are hosts a webhook may call besides Discord's and Slack's).

    `discord_public_key` (hex) opens `/discord/interactions` to the Discord application it
    belongs to (`jdr.web.discord_route`); `discord_api` is where its follow-ups are posted
    (Discord's API unless a test says otherwise).
    """
    from jdr.web.background import Background
    from jdr.web.live import Hub, Poke

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        import sys

        sys.setswitchinterval(SWITCH_S)
        await app.state.hub.start()
        app.state.hub.on_stop_signals()
        await app.state.background.start()
        try:
            yield
        finally:
            await app.state.background.stop()
            await app.state.hub.stop()
            app.state.store.close()  # its pooled connections (the engine opens new ones if used)

    app = FastAPI(
        lifespan=lifespan,
        title="jdr",
        version="1",
        description="The web table of jdr: the same answers as the CLI's --json.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    discord = _discord(discord_public_key, discord_api)  # a malformed key: before the store
    app.state.store = open_store(url)
    app.state.hub = Hub(app.state.store)
    app.state.background = Background(
        app.state.store, app.state.hub, clock, tick_s, webhook_hosts, base_url
    )
    app.state.host_token = host_token or secrets.token_urlsafe(32)
    app.state.invite_limit = RateLimit(invite_attempts, 60.0)
    app.state.feed_limit = RateLimit(FEED_READS, 60.0, "feed")
    app.state.templates = templates()
    app.state.base_url = base_url
    app.state.discord = discord
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    _routes(app)

    @app.exception_handler(JdrError)
    async def jdr_error(request: Request, error: JdrError) -> Response:
        return render_error(request, error)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        return render_error(request, from_validation(list(error.errors())))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        if error.status_code == 404:
            found: JdrError = NotFoundError("path", request.url.path, _("a page of jdr"))
        else:
            found = InputError("request", request.method, _("a request this page answers"))
        response = render_error(request, found)
        if error.status_code == 405:
            response.status_code = 405  # with the methods the path allows (`Allow`)
            response.headers.update(error.headers or {})
        return response

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> Response:  # a bug, said plainly
        found = JdrError(_("the server failed to answer this request"))
        found.code = "internal"
        response = render_error(request, found)
        response.status_code = 500
        return response

    app.add_middleware(Poke, hub=lambda: app.state.hub)
    app.add_middleware(Guard, refuse=refuse_raw, max_body=max_body)
    if wanted():  # where each request's time goes, in a Server-Timing header (off by default)
        app.add_middleware(Timing)
    return app


def _discord(public_key: str | None, api: str | None) -> Any:
    """The Discord endpoint's settings (`jdr.discord.dispatch.Endpoint`), or None without a key."""
    if public_key is None:
        return None
    from jdr.discord.api import API_BASE, check_api_base
    from jdr.discord.dispatch import Endpoint
    from jdr.discord.signature import public_key as parsed

    return Endpoint(parsed(public_key), check_api_base(api or API_BASE))


JSON_PATHS = ("/api/", "/discord/")
"""Where refusals are JSON `{"error": …}` (the API, Discord's endpoint), not pages."""


def render_error(request: Request, error: JdrError) -> Response:
    """A refusal: JSON `{"error": …}` under /api/ (and /discord/), else the error page (or its
    HTMX partial)."""
    set_language(language_of(request.scope))
    status = status_of(error)
    payload = error_json(error)
    if request.url.path.startswith(JSON_PATHS):
        return JSONResponse({"error": payload}, status_code=status)
    page = "_error.html" if request.headers.get("hx-request") else "error.html"
    found: Jinja2Templates = request.app.state.templates
    shown = error.shown_field() if isinstance(error, InputError) else None
    context = {"error": payload, "shown_field": shown, "viewer": None}
    return found.TemplateResponse(request, page, context, status_code=status)


async def refuse_raw(scope: Scope, error: JdrError) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """A refusal from the guard, before any route: JSON under /api/ (and /discord/), else a
    small HTML page."""
    from markupsafe import escape

    status = status_of(error)
    payload = error_json(error)
    if scope["path"].startswith(JSON_PATHS):
        body = json.dumps({"error": payload}).encode()
        return status, [(b"content-type", b"application/json")], body
    text = "".join(  # the message names the field in the reader's words
        f"<p>{escape(str(payload.get(key)))}</p>"
        for key in ("message", "allowed")
        if payload.get(key) is not None
    )
    html = f'<!doctype html><html lang="{current_language()}"><title>jdr</title>{text}</html>'
    return status, [(b"content-type", b"text/html; charset=utf-8")], html.encode()


GRACE_S = 2
"""Seconds a stopping server gives open requests to finish; live streams are then cut (their
pages reconnect to the next server and catch up)."""
ENV_PREFIX = "JDR_SERVE_"
"""How `jdr serve --workers N` hands its settings to the worker processes (their environment)."""


def serve(
    host: str,
    port: int,
    url: str | None,
    base_url: str | None = None,
    intro: Callable[[str], None] | None = None,
    workers: int = 1,
    webhook_hosts: tuple[str, ...] = (),
    proxies: str = "127.0.0.1",
    discord_public_key: str | None = None,
) -> None:
    """`jdr serve`: print the host link, then run the app with uvicorn until interrupted.
    `intro(address)` says more once the app is made (`jdr demo --serve`: the seats' links).

    `workers` above 1 runs that many processes (PostgreSQL only: SQLite has one writer per
    file); they share the host link and the database, and each pushes every change to its own
    pages (`jdr.web.live`). `proxies` are the addresses whose `X-Forwarded-For` and
    `X-Forwarded-Proto` are believed (a reverse proxy's; `*` for any). `discord_public_key`
    (hex) answers Discord's interactions at `/discord/interactions` (docs/discord.md)."""
    import os

    import uvicorn

    from jdr.store.engine import resolve_url

    token = secrets.token_urlsafe(32)
    resolved = resolve_url(url)
    if discord_public_key is not None:  # a malformed key is said now, not in every worker
        from jdr.discord.signature import public_key

        public_key(discord_public_key)
    if workers > 1 and not resolved.startswith("postgresql"):
        raise InputError(
            "--workers",
            workers,
            _("1 on SQLite (one writer per file); more with --db postgresql+psycopg://…"),
            _("several workers need PostgreSQL"),
        )
    shown = base_url or f"http://{host}:{port}"
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "proxy_headers": True,
        "forwarded_allow_ips": proxies,
        "timeout_graceful_shutdown": GRACE_S,
    }
    if workers > 1:
        open_store(resolved).close()  # an unreachable or old database says so now, once
        os.environ.update(
            {
                f"{ENV_PREFIX}DATABASE": resolved,
                f"{ENV_PREFIX}HOST_TOKEN": token,
                f"{ENV_PREFIX}BASE_URL": base_url or "",
                f"{ENV_PREFIX}WEBHOOK_HOSTS": ",".join(webhook_hosts),
                f"{ENV_PREFIX}DISCORD_PUBLIC_KEY": discord_public_key or "",
            }
        )
        _announce(shown, token, intro, workers, discord_public_key is not None)
        uvicorn.run("jdr.web.app:from_environment", factory=True, workers=workers, **options)
        return
    app = create_app(
        resolved,
        host_token=token,
        base_url=base_url,
        webhook_hosts=webhook_hosts,
        discord_public_key=discord_public_key,
    )
    _announce(shown, token, intro, workers, discord_public_key is not None)
    uvicorn.run(app, **options)


def _announce(
    shown: str,
    token: str,
    intro: Callable[[str], None] | None,
    workers: int,
    discord: bool = False,
) -> None:
    print(_("jdr serves on {url}").format(url=shown), flush=True)
    print(
        _("Host link (create a campaign, keep it to yourself): {url}/host/{token}").format(
            url=shown, token=token
        ),
        flush=True,
    )
    if workers > 1:
        print(_("{n} worker processes on one PostgreSQL database").format(n=workers), flush=True)
    if discord:
        print(
            _("Discord interactions endpoint: {url}/discord/interactions").format(url=shown),
            flush=True,
        )
    if intro is not None:
        intro(shown)


def from_environment() -> FastAPI:
    """The app of one worker of `jdr serve --workers N`, from the settings its parent put in
    the environment (`ENV_PREFIX…`)."""
    import os

    hosts = os.environ.get(f"{ENV_PREFIX}WEBHOOK_HOSTS", "")
    return create_app(
        os.environ[f"{ENV_PREFIX}DATABASE"],
        host_token=os.environ[f"{ENV_PREFIX}HOST_TOKEN"],
        base_url=os.environ.get(f"{ENV_PREFIX}BASE_URL") or None,
        webhook_hosts=tuple(h for h in hosts.split(",") if h),
        discord_public_key=os.environ.get(f"{ENV_PREFIX}DISCORD_PUBLIC_KEY") or None,
    )


def _routes(app: FastAPI) -> None:
    """The app's routes, in the order they must be matched."""
    from jdr.web import api, discord_route, live_pages, pages, sheet_pages

    app.include_router(api.router)
    app.include_router(discord_route.router)
    app.include_router(sheet_pages.router)  # before pages: `sheets/new` before `sheets/{id}`
    app.include_router(pages.router)
    app.include_router(live_pages.router)  # after pages: `journal/{seq}` after `journal/export`
