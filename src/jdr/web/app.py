"""The web table's application: `create_app(url)` builds it; `jdr serve` runs it with uvicorn.

One application factory; the routes live in `jdr.web.pages` (HTML) and `jdr.web.api` (JSON), and
both call the services the CLI calls. Every refusal is the CLI's error shape with a 4xx status.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException

from jdr.access import ROLE_NAMES
from jdr.answers import error_json
from jdr.errors import InputError, JdrError
from jdr.i18n import _, current_language, ngettext, set_language
from jdr.numbers import decimal, percent
from jdr.store import open_store
from jdr.web.errors import NotFoundError, from_validation, status_of
from jdr.web.guard import MAX_BODY, Guard, RateLimit, Scope, language_of

HERE = Path(__file__).parent
INVITE_ATTEMPTS = 10
"""Invite redemptions (and invite pages) a minute from one address."""


def templates() -> Jinja2Templates:
    found = Jinja2Templates(directory=str(HERE / "templates"))
    found.env.autoescape = True
    found.env.filters.update(percent=percent, decimal=decimal)
    found.env.globals.update(
        _=_,
        ngettext=ngettext,
        current_language=current_language,
        role_name=lambda role: _(ROLE_NAMES.get(role) or role),
    )
    return found


def create_app(
    url: str | None = None,
    host_token: str | None = None,
    invite_attempts: int = INVITE_ATTEMPTS,
    max_body: int = MAX_BODY,
    base_url: str | None = None,
) -> FastAPI:
    """The application on the database at `url` (the CLI's default when None).

    `host_token` is the secret of the host link `jdr serve` prints (`/host/TOKEN`): whoever
    holds it may create campaigns in the browser. None makes one (shown by `jdr serve`).
    """
    from jdr.web import api, pages

    app = FastAPI(
        title="jdr",
        version="1",
        description="The web table of jdr: the same answers as the CLI's --json.",
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.store = open_store(url)
    app.state.host_token = host_token or secrets.token_urlsafe(32)
    app.state.invite_limit = RateLimit(invite_attempts, 60.0)
    app.state.templates = templates()
    app.state.base_url = base_url
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(api.router)
    app.include_router(pages.router)

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
            found = InputError("request", request.method, str(error.detail))
        response = render_error(request, found)
        if error.status_code == 405:
            response.status_code = 405
        return response

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> Response:  # a bug, said plainly
        found = JdrError(_("the server failed to answer this request"))
        found.code = "internal"
        response = render_error(request, found)
        response.status_code = 500
        return response

    app.add_middleware(Guard, refuse=refuse_raw, max_body=max_body)
    return app


def render_error(request: Request, error: JdrError) -> Response:
    """A refusal: JSON `{"error": …}` under /api/, else the error page (or its HTMX partial)."""
    set_language(language_of(request.scope))
    status = status_of(error)
    payload = error_json(error)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": payload}, status_code=status)
    page = "_error.html" if request.headers.get("hx-request") else "error.html"
    found: Jinja2Templates = request.app.state.templates
    return found.TemplateResponse(
        request, page, {"error": payload, "viewer": None}, status_code=status
    )


async def refuse_raw(scope: Scope, error: JdrError) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """A refusal from the guard, before any route: JSON under /api/, else a small HTML page."""
    from markupsafe import escape

    status = status_of(error)
    payload = error_json(error)
    if scope["path"].startswith("/api/"):
        body = json.dumps({"error": payload}).encode()
        return status, [(b"content-type", b"application/json")], body
    text = "".join(
        f"<p>{escape(str(payload.get(key)))}</p>"
        for key in ("message", "field", "allowed")
        if payload.get(key) is not None
    )
    html = f'<!doctype html><html lang="{current_language()}"><title>jdr</title>{text}</html>'
    return status, [(b"content-type", b"text/html; charset=utf-8")], html.encode()


def serve(
    host: str,
    port: int,
    url: str | None,
    base_url: str | None = None,
    intro: Callable[[str], None] | None = None,
) -> None:
    """`jdr serve`: print the host link, then run the app with uvicorn until interrupted.
    `intro(address)` says more once the app is made (`jdr demo --serve`: the seats' links)."""
    import uvicorn

    token = secrets.token_urlsafe(32)
    app = create_app(url, host_token=token, base_url=base_url)
    shown = base_url or f"http://{host}:{port}"
    print(_("jdr serves on {url}").format(url=shown), flush=True)
    print(
        _("Host link (create a campaign, keep it to yourself): {url}/host/{token}").format(
            url=shown, token=token
        ),
        flush=True,
    )
    if intro is not None:
        intro(shown)
    uvicorn.run(app, host=host, port=port, log_level="warning", proxy_headers=True)
