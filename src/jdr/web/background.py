"""The table's clock in a server (issue 20): every few seconds, play the turns gone late
(`jdr.live.pace.resolve_late`) and post what the webhooks have not announced yet
(`jdr.live.webhook.deliver`).

With several server processes on one PostgreSQL database, one of them does it at a time: the one
holding a session advisory lock on a connection of its own (`pg_try_advisory_lock`); when it
stops, the database releases the lock with the connection and another process takes over at its
next tick. Even so, every late turn is re-checked under the campaign's writer lock, so a terminal's
`jdr fight late` running at the same moment never plays it twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from starlette.concurrency import run_in_threadpool

from jdr.store import Store
from jdr.store.writers import NAMESPACE
from jdr.web.live import Hub

LEADER_KEY = 0
"""The second key of the clock's advisory lock (the first is jdr's `NAMESPACE`; campaigns' writer
locks use their ids as the second key, and campaign ids start at 1, so the clock uses 0)."""
log = logging.getLogger("jdr.web")


class Background:
    """The clock's task (see the module)."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        clock: Callable[[], datetime] | None,
        tick_s: float,
        webhook_hosts: tuple[str, ...],
        base_url: str | None,
    ) -> None:
        self.store = store
        self.hub = hub
        self.clock = clock or (lambda: datetime.now(UTC))
        self.tick_s = tick_s
        self.webhook_hosts = webhook_hosts
        self.base_url = base_url
        self._task: asyncio.Task[None] | None = None
        self._leader: Any = None
        self.ticks = 0

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._leader is not None:  # closing the connection itself gives the lock back
            with contextlib.suppress(Exception):
                await run_in_threadpool(self._leader.invalidate)
            self._leader = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick_s)
            try:
                await run_in_threadpool(self.tick)
            except Exception:  # a database away, a bug: said in the log, tried again next tick
                log.exception("the table's clock failed")

    def tick(self) -> None:
        """One round: late turns, then webhooks (if this process leads)."""
        from jdr.live.pace import resolve_late
        from jdr.live.webhook import deliver

        if not self._leads():
            return
        now = self.clock()
        for turn in resolve_late(self.store, now):
            self.hub.poke(turn.campaign_id)
        deliver(self.store, now, self.base_url, extra_hosts=self.webhook_hosts)
        self.ticks += 1

    def _leads(self) -> bool:
        """Whether this process runs the clock (always, on SQLite: one server per file)."""
        if self.store.engine.dialect.name != "postgresql":
            return True
        from sqlalchemy import text

        if self._leader is not None:
            try:
                self._leader.execute(text("SELECT 1"))
                return True
            except Exception:  # the connection was lost, and the lock with it
                with contextlib.suppress(Exception):
                    self._leader.invalidate()
                self._leader = None
        conn = self.store.engine.connect()
        try:
            got = conn.execute(
                text("SELECT pg_try_advisory_lock(:ns, :key)"), {"ns": NAMESPACE, "key": LEADER_KEY}
            ).scalar()
            conn.commit()
        except Exception:
            conn.close()
            return False
        if got:
            self._leader = conn
            return True
        conn.close()
        return False
