"""Issue 20, several server processes on one PostgreSQL database: two `jdr serve` processes (real
processes, real HTTP on 127.0.0.1); an action played through one reaches a page open on the
other at once (PostgreSQL's LISTEN/NOTIFY), and so does one played from a terminal; `jdr serve
--workers 2` serves the host link from both workers."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import needs_pg
from jdr.access import Viewer
from jdr.store import Store, open_store
from jdr.table import start_fight
from live_helpers import WAIT_S, Client, seq_of, serving, signed_in

pytestmark = needs_pg
KAITO, CORBEAU = "Kaito Arashi", "Maître Corbeau"


@pytest.fixture
def pg() -> Iterator[tuple[str, Store, int, int]]:
    """The test database, a Plus Ultra campaign with its two example characters and a fight."""
    import tomllib

    from jdr.characters import service
    from jdr.sheet_check import systems_example

    url = os.environ["JDR_TEST_DATABASE_URL"]
    store = open_store(url)
    campaign_id = store.create_campaign("plus-ultra", f"Workers {uuid.uuid4().hex[:8]}")
    campaign = store.campaign_by_id(campaign_id)
    for kind in ("hero", "villain"):
        service.add(store, campaign, tomllib.loads(systems_example("plus-ultra", kind)))
    fight = start_fight(store, Viewer(campaign_id, "gm"), campaign, [KAITO, CORBEAU])
    try:
        yield url, store, campaign_id, fight
    finally:
        store.close()


def test_pu_4_an_action_through_one_server_is_pushed_by_the_other(
    pg: tuple[str, Store, int, int],
) -> None:
    url, store, campaign_id, fight = pg
    with serving("--db", url) as (first, _host), serving("--db", url) as (second, _other):
        _pushed(store, campaign_id, fight, url, first, second)


def _pushed(store: Store, campaign_id: int, fight: int, url: str, first: str, second: str) -> None:
    gm = signed_in(first, store, campaign_id, "gm")
    player = signed_in(second, store, campaign_id, "player", CORBEAU)
    at = seq_of(player.get(f"/c/{campaign_id}/fights/{fight}")[1])
    heard: list[Any] = []

    def hear() -> None:
        for event in player.stream(at, 2):
            heard.append((time.monotonic(), event))

    thread = threading.Thread(target=hear, daemon=True)
    thread.start()
    time.sleep(0.5)
    sent = time.monotonic()
    assert gm.post(f"/c/{campaign_id}/fights/{fight}", actor=KAITO, command="defend")[0] == 303
    done = subprocess.run(  # and one from a terminal, on the same database
        [sys.executable, "-m", "jdr.cli.app", "fight", "act", str(fight), CORBEAU, "defend",
         "--db", url],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    thread.join(WAIT_S)
    assert [int(e["id"]) for _t, e in heard] == [at + 1, at + 2]
    assert heard[0][0] - sent < 1.0  # NOTIFY: well within a second
    page = player.get(f"/c/{campaign_id}/fights/{fight}/parts/live")[1]
    assert page.count("defends") >= 2


def test_jdr_serve_workers_2_serves_from_both_workers(pg: tuple[str, Store, int, int]) -> None:
    url, store, campaign_id, fight = pg
    with serving("--db", url, "--workers", "2") as (base, host):
        assert Client(base).request("GET", host.removeprefix(base))[0] == 200
        seats = [signed_in(base, store, campaign_id, "gm") for _ in range(6)]
        for n, seat in enumerate(seats):
            actor = KAITO if n % 2 == 0 else CORBEAU
            answer = seat.post(f"/c/{campaign_id}/fights/{fight}", actor=actor, command="defend")
            assert answer[0] == 303
        assert store.fight(fight).version > 2
        assert len(_workers()) >= 2


def _workers() -> list[int]:
    """The processes of this machine running uvicorn's worker code (spawned by a `jdr serve
    --workers`): their pids."""
    from pathlib import Path

    found = []
    for folder in Path("/proc").iterdir():
        if folder.name.isdigit():
            try:
                words = (folder / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if any(b"multiprocessing" in w or b"spawn_main" in w for w in words):
                found.append(int(folder.name))
    return found
