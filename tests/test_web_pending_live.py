"""Issue 32: a sheet a player sends for the GM's approval reaches the open pages at once. Sending
it (and the GM's approval or refusal) is a change of kind `approval` on the campaign's live
stream; the change names no sheet, and the page part it refreshes shows the sheets waiting to
the GM only (the sender sees their own; a spectator, or another player, nothing). Over HTTP
(uvicorn on 127.0.0.1) and in a real browser (Playwright driving Debian's Chromium).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from live_helpers import WAIT_S, Client, running, seq_of, signed_in
from test_web_sheets import changed, form_of
from web_helpers import plus_ultra_table

KAITO = "Kaito Arashi"
CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT_MS = 30_000


def _creating(base: str, store: Any, campaign_id: int) -> Client:
    """A player who redeemed an invite asking them to create their character."""
    return signed_in(base, store, campaign_id, "player", None, creates=True)


def _send_sheet(player: Client, name: str) -> int:
    """The player's sheet (the hero example, renamed) sent as the form sends it: the status."""
    status, page = player.get(f"/c/{player.campaign}/sheets/new?start=example:hero")
    assert status == 200, page
    fields = [(k, v) for k, v in changed(form_of(page), s_name=name) if k not in ("csrf", "_op")]
    body = urlencode([("csrf", player.csrf), ("_op", "save"), *fields])
    conn = player._conn()
    headers = {"Cookie": player.cookie, "Content-Type": "application/x-www-form-urlencoded"}
    try:
        conn.request("POST", f"/c/{player.campaign}/sheets/new", body=body, headers=headers)
        answer = conn.getresponse()
        answer.read()
        return answer.status
    finally:
        conn.close()


def _heard(client: Client, after: int, count: int) -> tuple[threading.Thread, list[Any]]:
    found: list[Any] = []

    def run() -> None:
        found.extend(client.stream(after, count))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, found


def test_a_sheet_sent_and_approved_is_a_live_change_only_its_readers_see(
    database_url: str,
) -> None:
    app, store, campaign_id = plus_ultra_table(database_url, "Pending")
    try:
        with running(app) as base:
            gm = signed_in(base, store, campaign_id, "gm")
            spectator = signed_in(base, store, campaign_id, "spectator")
            other = signed_in(base, store, campaign_id, "player", KAITO)
            player = _creating(base, store, campaign_id)
            at = seq_of(gm.get(f"/c/{campaign_id}")[1])
            gm_thread, gm_heard = _heard(gm, at, 1)
            spectator_thread, spectator_heard = _heard(spectator, at, 1)
            time.sleep(0.5)  # both streams open
            assert _send_sheet(player, "Mei") == 303
            for thread in (gm_thread, spectator_thread):
                thread.join(WAIT_S)
            for heard in (gm_heard, spectator_heard):
                assert [e["data"]["kind"] for e in heard] == ["approval"]
                assert "Mei" not in json.dumps(heard)  # the change names no sheet
            part = f"/c/{campaign_id}/parts/sheets"
            status, shown = gm.get(part)
            assert status == 200 and 'data-testid="pending-Mei"' in shown
            assert 'hx-trigger="jdr-sheets from:body' in shown  # the part refreshes itself
            for reader in (spectator, other):
                assert "Mei" not in reader.get(part)[1]
                assert "Mei" not in reader.get(f"/c/{campaign_id}")[1]
            assert "waits for the GM" in player.get(part)[1]
            (pending,) = store.pending_sheets(campaign_id)
            at = seq_of(gm.get(f"/c/{campaign_id}")[1])
            assert gm.post(f"/c/{campaign_id}/pending/{pending.id}/approve")[0] == 303
            told = player.events(at, 2)
            assert [e["data"]["kind"] for e in told] == ["sheet", "approval"]
            mine = player.get(part)[1]
            assert 'data-testid="approved-character"' in mine and "Mei" in mine
            assert "waits for the GM" not in mine
            assert "Mei" not in spectator.get(part)[1]
    finally:
        store.close()


def test_a_refusal_is_a_live_change_too(database_url: str) -> None:
    app, store, campaign_id = plus_ultra_table(database_url, "Refused")
    try:
        with running(app) as base:
            gm = signed_in(base, store, campaign_id, "gm")
            player = _creating(base, store, campaign_id)
            assert _send_sheet(player, "Mei") == 303
            (pending,) = store.pending_sheets(campaign_id)
            at = seq_of(player.get(f"/c/{campaign_id}")[1])
            assert gm.post(f"/c/{campaign_id}/pending/{pending.id}/refuse")[0] == 303
            assert [e["data"]["kind"] for e in player.events(at, 1)] == ["approval"]
            assert "refused" in player.get(f"/c/{campaign_id}/parts/sheets")[1]
            again = store.change_heads([campaign_id])[campaign_id]
            assert not store.decide_pending(campaign_id, pending.id, None)  # decided already
            assert store.change_heads([campaign_id])[campaign_id] == again  # no change counted
    finally:
        store.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_the_gms_open_page_shows_a_sheet_sent_and_the_sender_sees_it_approved(
    tmp_path: Path,
) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    app, store, campaign_id = plus_ultra_table(f"sqlite:///{tmp_path / 'jdr.db'}", "Pending")
    problems: list[str] = []
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            with running(app) as base:
                pages = []
                for client in (signed_in(base, store, campaign_id, "gm"),
                               _creating(base, store, campaign_id)):  # fmt: skip
                    context = browser.new_context(viewport={"width": 390, "height": 844})
                    context.set_default_timeout(TIMEOUT_MS)
                    name, _sep, value = client.cookie.partition("=")
                    context.add_cookies([{"name": name, "value": value, "url": base}])
                    page = context.new_page()
                    page.on("pageerror", lambda error: problems.append(str(error)))
                    page.goto(f"{base}/c/{campaign_id}")
                    page.wait_for_selector("#live-status[data-state=on]")
                    pages.append(page)
                gm, player = pages
                assert gm.locator("[data-testid=pending-Mei]").count() == 0
                player.goto(f"{base}/c/{campaign_id}/sheets/new?start=example:hero")
                player.fill("#f-s-name", "Mei")
                player.click("#save-sheet")
                player.wait_for_selector("text=waits for the GM")
                player.wait_for_selector("#live-status[data-state=on]")
                started = time.monotonic()
                gm.wait_for_selector("[data-testid=pending-Mei]", timeout=5000)
                assert time.monotonic() - started < 5  # no reload: the live part
                gm.click("button[aria-label='Approve Mei']")
                player.wait_for_selector("[data-testid=approved-character]", timeout=5000)
                assert "waits for the GM" not in player.inner_text("#campaign-sheets")
        finally:
            browser.close()
            store.close()
    assert problems == []
