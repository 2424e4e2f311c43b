"""`jdr demo --serve` (issue 19, item 1): a ready campaign served in a real HTTP server on
127.0.0.1, one link per seat that opens in a browser-like client, and the throw-away database
gone when the server stops."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

from jdr.demo_table import prepare
from jdr.store import open_store
from live_helpers import free_port


def test_the_demo_table_is_a_ready_campaign() -> None:
    store = open_store("sqlite://")
    table = prepare(store)
    campaign = store.campaign_by_id(table.campaign_id)
    assert campaign.system == "plus-ultra"
    assert [c.name for c in store.characters(campaign.id)] == table.fighters
    assert store.fight(table.fight).participants == table.fighters
    kinds = [row.entry["context"]["action"] for row in store.journal(campaign.id)]
    assert kinds[:2] == ["sheet.created", "sheet.created"] and kinds[-1] == "dice"
    assert [(s.role, s.character) for s in table.seats] == [
        ("gm", None),
        ("player", "Kaito Arashi"),
        ("spectator", None),
    ]


class Browser:
    """A browser of its own: cookies kept, redirects followed."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def open(self, url: str, post: bool = False) -> tuple[int, str]:
        request = urllib.request.Request(url, data=b"" if post else None)
        try:
            with self.opener.open(request, timeout=10) as answer:
                status: int = answer.status
                return status, answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode()


def _redeem(link: str) -> Browser:
    """A new browser that opens an invite link and presses its button."""
    browser = Browser()
    assert "<form" in browser.open(link)[1]  # a link preview uses nothing: the button does
    status, page = browser.open(link, post=True)
    assert status == 200, page
    return browser


def _up(port: int) -> Any:
    for _attempt in range(100):  # bounded: the server is up within seconds
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
        except urllib.error.HTTPError:
            return None
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server did not answer")


def test_jdr_demo_serve_opens_each_seat_in_a_real_server(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "JDR_LANG": "en", "TMPDIR": str(tmp_path)}
    command = [sys.executable, "-m", "jdr.cli.app", "demo", "--serve", "--no-open"]
    command += ["--port", str(port)]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    ) as server:
        try:
            assert server.stdout is not None
            lines = [server.stdout.readline() for _ in range(7)]
            text = "".join(lines)
            assert "Campaign Demo table is ready: Kaito Arashi against Maître Corbeau" in text
            links = dict(
                re.findall(r"(GM|player|spectator):\s+(http://127\.0\.0\.1:\d+/\S+)", text)
            )
            assert set(links) == {"GM", "player", "spectator"}, text
            assert [p.name.startswith("jdr-demo-") for p in tmp_path.iterdir()] == [True]
            _up(port)
            base = f"http://127.0.0.1:{port}/c/1"
            gm = _redeem(links["GM"])
            status, page = gm.open(base)
            assert status == 200 and "Demo table" in page and "Maître Corbeau" in page
            status, fight = gm.open(f"{base}/fights/1")
            assert status == 200 and "Kaito Arashi" in fight
            player = _redeem(links["player"])
            assert "Kaito Arashi" in player.open(base)[1]
            assert _redeem(links["spectator"]).open(base)[0] == 200
            assert Browser().open(links["GM"], post=True)[0] >= 400  # single use
        finally:
            server.terminate()
            server.wait(timeout=20)
    assert list(tmp_path.iterdir()) == []  # the throw-away database is gone
