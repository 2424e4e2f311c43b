"""The live table in a test: the real application served by uvicorn on 127.0.0.1 (in a thread, so
a test can give it a clock), and a small HTTP client that signs in by invite, posts forms with
the page's CSRF token and reads a campaign's server-sent events."""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

import uvicorn

from jdr import access
from jdr.store import Store

WAIT_S = 20.0
"""The longest a test waits for a server or an event (a busy 2-core machine)."""


def free_port() -> int:
    """A port of 127.0.0.1 free now (for a server started as its own process)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(*args: str) -> Iterator[tuple[str, str]]:
    """`jdr serve ARGS` as a process of its own on a free port until the block ends: its base
    URL and host link (stopped with SIGTERM, as systemd stops it)."""
    import os
    import subprocess
    import sys

    port = free_port()
    command = [sys.executable, "-m", "jdr.cli.app", "serve", "--port", str(port), *args]
    env = {**os.environ, "JDR_LANG": "en"}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    ) as server:
        try:
            assert server.stdout is not None
            first, host = server.stdout.readline(), server.stdout.readline()
            assert "jdr serves on" in first, (first, server.poll())
            base = f"http://127.0.0.1:{port}"
            up(base)
            yield base, host.split(": ", 1)[-1].strip()
        finally:
            server.terminate()
            server.wait(timeout=WAIT_S)


def up(base: str) -> None:
    """Wait until the server at `base` answers."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            if Client(base).request("GET", "/")[0] == 200:
                return
        except OSError:
            assert time.monotonic() < deadline, f"{base} does not answer"
            time.sleep(0.1)


@contextmanager
def running(app: Any, port: int = 0) -> Iterator[str]:
    """`app` served on 127.0.0.1 (a free port, or `port`) until the block ends: its base URL."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_S
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        hub = getattr(app.state, "hub", None)
        if hub is not None:
            hub.close_soon()  # as a stop signal does in `jdr serve`
        server.should_exit = True
        thread.join(WAIT_S)


@dataclass
class Client:
    """One browser without a browser: its session cookie and the CSRF token of its pages."""

    base: str
    cookie: str = ""
    csrf: str = ""
    campaign: int = 0
    last: dict[str, Any] = field(default_factory=dict)

    def _conn(self, timeout: float = WAIT_S) -> http.client.HTTPConnection:
        parts = urlsplit(self.base)
        return http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)

    def request(
        self, method: str, path: str, form: dict[str, Any] | None = None, json_body: Any = None
    ) -> tuple[int, dict[str, str], str]:
        conn = self._conn()
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if form is not None:
            body = urlencode({"csrf": self.csrf, **form})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if json_body is not None:
            body = json.dumps(json_body)
            headers["Content-Type"] = "application/json"
            headers["X-CSRF-Token"] = self.csrf
        try:
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            text = answer.read().decode()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, text
        finally:
            conn.close()

    def get(self, path: str) -> tuple[int, str]:
        status, _headers, text = self.request("GET", path)
        return status, text

    def post(self, path: str, **form: Any) -> tuple[int, str]:
        status, _headers, text = self.request("POST", path, form=form)
        return status, text

    def api(self, path: str, payload: Any) -> tuple[int, Any]:
        status, _headers, text = self.request("POST", path, json_body=payload)
        return status, json.loads(text) if text else None

    def events(
        self, after: int, count: int, timeout: float = WAIT_S, last_event_id: int | None = None
    ) -> list[dict[str, Any]]:
        """The campaign's next `count` server-sent events after change `after` (`event`,
        `id`, `data`), read from its live stream."""
        return list(self.stream(after, count, timeout, last_event_id))

    def stream(
        self, after: int, count: int, timeout: float = WAIT_S, last_event_id: int | None = None
    ) -> Iterator[dict[str, Any]]:
        conn = self._conn(timeout)
        headers = {"Cookie": self.cookie, "Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        conn.request("GET", f"/c/{self.campaign}/live?after={after}", headers=headers)
        answer = conn.getresponse()
        assert answer.status == 200, answer.read()
        found = 0
        event: dict[str, Any] = {}
        try:
            while found < count:
                line = answer.fp.readline().decode()
                if not line:
                    return
                line = line.rstrip("\n")
                if not line:
                    if "event" in event:
                        found += 1
                        yield event
                    event = {}
                    continue
                key, _sep, value = line.partition(": ")
                if key == "data":
                    event["data"] = json.loads(value)
                elif key in ("event", "id"):
                    event[key] = value
        finally:
            conn.close()


def signed_in(
    base: str,
    store: Store,
    campaign_id: int,
    role: str,
    name: str | None = None,
    creates: bool = False,
) -> Client:
    """A client that redeemed a fresh invite of `role` (for `name`'s player; `creates`: one
    asking the player to create their character)."""
    made = access.invite(store, campaign_id, role, name, creates=creates)
    client = Client(base, campaign=campaign_id)
    status, headers, _text = client.request("POST", f"/invite/{made.token}")
    assert status == 303, status
    found = re.search(r"jdr_session=([^;]+)", headers.get("set-cookie", ""))
    assert found
    client.cookie = f"jdr_session={found.group(1)}"
    status, page = client.get(f"/c/{campaign_id}")
    assert status == 200
    token = re.search(r'name="csrf" value="([0-9a-f]{64})"', page)
    assert token
    client.csrf = token.group(1)
    return client


def seq_of(page: str) -> int:
    """The change a page was rendered at (`data-seq` on its body)."""
    found = re.search(r'data-seq="(-?\d+)"', page)
    assert found, "the page is live"
    return int(found.group(1))
