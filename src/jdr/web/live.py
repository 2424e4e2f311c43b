"""Live updates (issue 20): every open page of a campaign learns of each change within a second,
through server-sent events, and catches up after a dropped connection.

The store numbers each campaign's changes in commit order (`jdr.store.live`). One `Hub` per
server process knows each watched campaign's last change and wakes the streams waiting on it:

- a write through this process pokes it at once (`Poke`, after the response);
- on PostgreSQL, a thread LISTENs on `jdr_changes`: the database announces every commit, from
  any process (another worker, a terminal's `jdr fight act`), within milliseconds;
- a poll of the watched campaigns' heads (one small query for all of them) catches the rest:
  every `SQLITE_POLL_S` on SQLite (a terminal's writes there), every `POSTGRES_POLL_S` on
  PostgreSQL as a safety net while the listener reconnects.

The hub reads new changes once per campaign and keeps the latest `RECENT` of them, so a thousand
open pages cost one query per change, not a thousand. A stream sends each change as an SSE event
whose id is its seq; a browser that reconnects sends `Last-Event-ID` and gets every change after
it (more than `BACKLOG` behind: one `reset`, and the page refreshes every live part). Changes
say only what moved (a fight's id, a journal seq, characters' ids): each page then asks for its
own parts with its own session, so a stream never shows what its viewer may not read.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import re
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

from jdr.store import Store
from jdr.store.live import CHANNEL, Change
from jdr.web.guard import ASGIApp, Receive, Scope, Send

SQLITE_POLL_S = 0.5
POSTGRES_POLL_S = 2.0
KEEPALIVE_S = 15.0
"""A comment line this often keeps proxies from closing an idle stream; the session is checked
again at each one."""
RECENT = 256
BACKLOG = 200
RETRY_MS = 2000
MAX_STREAMS = 1000
"""Open streams per server process; more are refused (503) until some close."""
MAX_STREAMS_PER_SESSION = 8


class Hub:
    """What one server process knows of its watched campaigns' changes (see the module)."""

    def __init__(self, store: Store, poll_s: float | None = None) -> None:
        self.store = store
        postgres = store.engine.dialect.name == "postgresql"
        self.poll_s = poll_s or (POSTGRES_POLL_S if postgres else SQLITE_POLL_S)
        self.listen = postgres
        self.keepalive_s = KEEPALIVE_S
        self.heads: dict[int, int] = {}
        self.recent: dict[int, deque[Change]] = {}
        self.watchers: dict[int, int] = {}
        self.streams: dict[str, int] = {}
        self._waiting: dict[int, set[asyncio.Event]] = {}
        """Each watched campaign's streams, by the event each one waits on."""
        self._refreshing: set[int] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self.closing = asyncio.Event()

    # lifecycle

    async def start(self) -> None:
        """Start watching, on the running loop (a fresh start: an app served again after it
        stopped, as a test does, begins anew)."""
        self._loop = asyncio.get_running_loop()
        self.closing = asyncio.Event()
        self._stop = threading.Event()
        self._waiting = {}
        self._refreshing = set()
        self.heads, self.recent, self.watchers, self.streams = {}, {}, {}, {}
        self._tasks = [asyncio.create_task(self._poll()), asyncio.create_task(self._beat())]
        if self.listen:
            self._listener = threading.Thread(target=self._listen, name="jdr-listen", daemon=True)
            self._listener.start()

    async def stop(self) -> None:
        self._close()
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._listener is not None:
            await run_in_threadpool(self._listener.join, 5.0)

    def close_soon(self) -> None:
        """End every stream now (from any thread, or a signal handler): the server is about to
        stop, and its pages will reconnect to the next one."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._close)

    def _close(self) -> None:
        self.closing.set()
        self._wake_streams(list(self._waiting))

    def on_stop_signals(self) -> None:
        """Close the streams as soon as SIGTERM or SIGINT arrives, before the server's own
        handler (which then waits for open requests: a stream would hold it for its grace
        period). Only in the main thread, where signals are handled."""
        import signal

        if threading.current_thread() is not threading.main_thread():
            return
        for number in (signal.SIGTERM, signal.SIGINT):
            before = signal.getsignal(number)

            def handler(signum: int, frame: Any, before: Any = before) -> None:
                self.close_soon()
                if callable(before):
                    before(signum, frame)

            signal.signal(number, handler)

    # waking

    def poke(self, campaign_id: int) -> None:
        """A change of `campaign_id` may have landed (from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(self._wake, campaign_id)

    def _wake(self, campaign_id: int) -> None:
        if campaign_id not in self.watchers or campaign_id in self._refreshing:
            return
        self._refreshing.add(campaign_id)
        self._tasks.append(asyncio.create_task(self._refresh(campaign_id)))
        self._tasks = [t for t in self._tasks if not t.done()]

    async def _refresh(self, campaign_id: int) -> None:
        try:
            while True:
                head = self.heads.get(campaign_id, 0)
                found = await run_in_threadpool(self.store.changes_after, campaign_id, head, RECENT)
                if not found:
                    return
                kept = self.recent.setdefault(campaign_id, deque(maxlen=RECENT))
                kept.extend(found)
                self.heads[campaign_id] = found[-1].seq
                self._wake_streams([campaign_id])
                if len(found) < RECENT:
                    return
        except Exception:  # the database is away: the next poll tries again
            return
        finally:
            self._refreshing.discard(campaign_id)

    async def _poll(self) -> None:
        while not self.closing.is_set():
            await asyncio.sleep(self.poll_s)
            watched = list(self.watchers)
            if not watched:
                continue
            try:
                heads = await run_in_threadpool(self.store.change_heads, watched)
            except Exception:
                continue
            for campaign_id, head in heads.items():
                if head > self.heads.get(campaign_id, 0):
                    self._wake(campaign_id)

    def _listen(self) -> None:
        """PostgreSQL's announcements, on a connection of their own (reconnected when lost)."""
        import psycopg

        conninfo = self.store.engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False
        )
        while not self._stop.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    for campaign_id in list(self.watchers):  # what came while disconnected
                        self.poke(campaign_id)
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=1.0):
                            found = re.match(r"^(\d+):", notice.payload)
                            if found:
                                self.poke(int(found.group(1)))
            except Exception:
                self._stop.wait(1.0)

    # watching

    def _wake_streams(self, campaign_ids: list[int]) -> None:
        for campaign_id in campaign_ids:
            for event in self._waiting.get(campaign_id, ()):
                event.set()

    async def _beat(self) -> None:
        """Every `keepalive_s`, wake every stream: each then says it is alive (and checks its
        session) if nothing else woke it. One timer for them all, not one per stream."""
        while not self.closing.is_set():
            await asyncio.sleep(self.keepalive_s)
            self._wake_streams(list(self._waiting))

    async def watch(self, campaign_id: int, event: asyncio.Event) -> None:
        """One more stream on the campaign, waiting on `event` (counted before anything is
        awaited: a stream that ends meanwhile must not forget the others)."""
        self.watchers[campaign_id] = self.watchers.get(campaign_id, 0) + 1
        self._waiting.setdefault(campaign_id, set()).add(event)
        if campaign_id not in self.heads:
            heads = await run_in_threadpool(self.store.change_heads, [campaign_id])
            self.heads.setdefault(campaign_id, heads.get(campaign_id, 0))

    def unwatch(self, campaign_id: int, event: asyncio.Event) -> None:
        self._waiting.get(campaign_id, set()).discard(event)
        left = self.watchers.get(campaign_id, 1) - 1
        if left > 0:
            self.watchers[campaign_id] = left
            return
        self.watchers.pop(campaign_id, None)
        self.heads.pop(campaign_id, None)
        self.recent.pop(campaign_id, None)
        self._waiting.pop(campaign_id, None)

    async def changes(self, campaign_id: int, after: int) -> list[Change]:
        """The campaign's changes after `after` (at most `BACKLOG` + 1, so a caller sees it is
        further behind than that): from what the hub keeps, else from the database."""
        kept = self.recent.get(campaign_id)
        if kept and kept[0].seq <= after + 1:
            if kept[-1].seq - kept[0].seq == len(kept) - 1:  # they follow each other: no search
                start = max(0, after + 1 - kept[0].seq)
                return list(itertools.islice(kept, start, start + BACKLOG + 1))
            return [c for c in kept if c.seq > after][: BACKLOG + 1]
        if self.heads.get(campaign_id, 0) <= after:
            return []
        return await run_in_threadpool(self.store.changes_after, campaign_id, after, BACKLOG + 1)


@functools.lru_cache(maxsize=4096)
def told(change: Change) -> bytes:
    """A change as the event every stream sends (encoded once, however many pages listen)."""
    return sse("change", change.to_json(), change.seq)


def sse(event: str, data: Any, seq: int | None = None) -> bytes:
    """One server-sent event."""
    lines = [f"id: {seq}"] if seq is not None else []
    lines += [f"event: {event}", f"data: {json.dumps(data, separators=(',', ':'))}"]
    return ("\n".join(lines) + "\n\n").encode()


async def stream(
    hub: Hub,
    campaign_id: int,
    after: int,
    still_signed: Callable[[], bool],
    disconnected: Callable[[], Any],
) -> AsyncIterator[bytes]:
    """The campaign's changes after `after`, then each one as it comes, until the client goes,
    its session ends or the server stops. Each wake sends what came as one write."""
    woken = asyncio.Event()
    await hub.watch(campaign_id, woken)
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        cursor = after if after >= 0 else hub.heads.get(campaign_id, 0)
        while not hub.closing.is_set():
            found = await hub.changes(campaign_id, cursor)
            if len(found) > BACKLOG:  # too far behind: the page refreshes everything
                head = hub.heads.get(campaign_id, found[-1].seq)
                yield sse("reset", {"seq": head}, head)
                cursor = head
                continue
            if found:
                yield b"".join(told(change) for change in found)
                cursor = found[-1].seq
                continue
            head = hub.heads.get(campaign_id, 0)
            if head > cursor:  # changes counted but not kept (a campaign imported): refresh all
                yield sse("reset", {"seq": head}, head)
                cursor = head
                continue
            woken.clear()
            if hub.heads.get(campaign_id, 0) > cursor:  # came while this stream was writing
                continue
            await woken.wait()  # a change, the heartbeat or the end
            if hub.heads.get(campaign_id, 0) > cursor or hub.closing.is_set():
                continue
            if await disconnected():
                return
            if not await run_in_threadpool(still_signed):
                yield sse("signedout", {})
                return
            yield b": keep-alive\n\n"
    finally:
        hub.unwatch(campaign_id, woken)


_CAMPAIGN_PATH = re.compile(r"^/(?:api/)?c/(\d{1,18})(?:/|$)")


class Poke:
    """After a state change under `/c/ID/` (or `/api/c/ID/`) is answered, poke the hub for that
    campaign: its pages update at once, not at the next poll."""

    def __init__(self, app: ASGIApp, hub: Callable[[], Hub | None]) -> None:
        self.app = app
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return
        found = _CAMPAIGN_PATH.match(scope["path"])
        hub = self.hub()
        if found and hub is not None:
            hub.poke(int(found.group(1)))


def last_event_id(header: str | None, after: str | None) -> int:
    """Where a stream starts: the browser's `Last-Event-ID` (a reconnection), else the page's
    `after` (the change its content was read at), else now (-1)."""
    for text in (header, after):
        if text is not None and text.strip().isdigit() and len(text.strip()) <= 18:
            return int(text.strip())
    return -1
