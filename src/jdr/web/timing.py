"""The phase recorder's middleware (`jdr.phases`): with `JDR_PHASES=1`, every HTTP answer says
where its time went in a `Server-Timing` header — the phases the services recorded, and `app`,
the whole request inside the application (guard, routes, the hub's poke)."""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jdr.phases import recording, server_timing


class Timing:
    """Outermost middleware (added last): records each HTTP request's phases."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        with recording() as times:

            async def timed_send(message: Message) -> None:
                if message["type"] == "http.response.start":
                    times["app"] = time.perf_counter() - start
                    header = server_timing(times).encode("latin-1")
                    message = {**message, "headers": [*message.get("headers", []),
                                                      (b"server-timing", header)]}  # fmt: skip
                await send(message)

            await self.app(scope, receive, timed_send)
