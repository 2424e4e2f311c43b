"""`POST /discord/interactions`: Discord's HTTP interactions, answered by `jdr.discord`.

Discord calls this URL (the application's Interactions Endpoint URL) for every `/jdr` command;
there is no gateway connection and no bot process. The route exists only when the server was
given the application's public key (`jdr serve --discord-public-key`, or
`JDR_DISCORD_PUBLIC_KEY`); otherwise it answers 404 like any unknown path.

Every request must carry Discord's Ed25519 signature over its timestamp and body, made within
five minutes and not seen before (`jdr.discord.signature`): anything else is refused 401, as
Discord requires (it sends unsigned and badly signed probes to check). The guard
(`jdr.web.guard`) lets it through without a CSRF token (the signature proves who sent it; a
browser cannot make one) and refuses a body over 64 KiB (413). Refusals have the API's JSON
shape `{"error": …}`.
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool

from jdr.discord.api import followups
from jdr.discord.dispatch import Endpoint, respond
from jdr.discord.signature import verify
from jdr.errors import InputError, NotFoundError
from jdr.i18n import _

router = APIRouter()
PATH = "/discord/interactions"


@router.post(PATH, include_in_schema=False)
async def interactions(request: Request) -> Response:
    endpoint: Endpoint | None = request.app.state.discord
    if endpoint is None:
        raise NotFoundError("path", request.url.path, _("a page of jdr"))
    body = await request.body()
    signature = request.headers.get("x-signature-ed25519")
    verify(
        endpoint.public_key,
        signature,
        request.headers.get("x-signature-timestamp"),
        body,
        endpoint.clock(),
    )
    assert signature is not None  # verify refuses a request without one
    endpoint.replays.refuse_replay(signature, endpoint.clock())
    try:
        payload = json.loads(body)
    except ValueError:
        raise InputError("JSON", None, _("an interaction as Discord sends it")) from None
    answered = await run_in_threadpool(respond, request.app.state.store, payload, endpoint.answer)
    if answered.campaign_id is not None:
        request.app.state.hub.poke(answered.campaign_id)  # its open pages update at once
    background = None
    if answered.followups:
        background = BackgroundTask(
            run_in_threadpool,
            followups,
            answered.application_id,
            answered.token,
            answered.followups,
            endpoint.api_base,
        )
    return JSONResponse(answered.response, background=background)
