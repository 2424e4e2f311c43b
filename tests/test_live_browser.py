"""Issue 20 in real browsers: Playwright driving Debian's Chromium, two people on one fight of a
web table served on 127.0.0.1 (its real SQLite database). What the GM plays appears on the
player's page without a reload, within a second; the player's connection drops (the server
stops), a turn is played meanwhile, and when the server is back the page catches up by itself;
no script runs that the CSP forbids. Screenshots in French and English, at a phone's width, go
to `test-artefacts/`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from browser import chromium, needs_chromium, new_page
from jdr.access import Viewer
from jdr.fights.service import play
from jdr.systems import default_registry
from jdr.table import start_fight
from live_helpers import free_port, running, signed_in
from web_helpers import plus_ultra_table

pytestmark = needs_chromium
ARTEFACTS = Path(__file__).parents[1] / "test-artefacts"
KAITO, CORBEAU = "Kaito Arashi", "Maître Corbeau"
PHONE = {"width": 390, "height": 844}


def _page(browser: Any, base: str, cookie: str, problems: list[str], lang: str = "en") -> Any:
    return new_page(browser, base, cookie, lang, PHONE, problems)


def _shot(page: Any, name: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"live-{name}.png"), full_page=True)


def test_pu_5_what_one_plays_appears_on_the_others_page_and_a_dropped_page_catches_up(
    tmp_path: Path,
) -> None:
    app, store, campaign_id = plus_ultra_table(f"sqlite:///{tmp_path / 'jdr.db'}", "Live")
    campaign = store.campaign_by_id(campaign_id)
    fight = start_fight(store, Viewer(campaign_id, "gm"), campaign, [KAITO, CORBEAU])
    store.set_pace(fight, 48 * 3600, "default")
    port = free_port()
    problems: list[str] = []
    system = default_registry().get("plus-ultra")
    with chromium() as browser:
        try:
            with running(app, port) as base:
                gm_cookie = signed_in(base, store, campaign_id, "gm").cookie
                player_cookie = signed_in(base, store, campaign_id, "player", CORBEAU).cookie
                gm = _page(browser, base, gm_cookie, problems)
                player = _page(browser, base, player_cookie, problems, "fr")
                url = f"{base}/c/{campaign_id}/fights/{fight}"
                gm.goto(url)
                player.goto(url)
                player.wait_for_selector("#live-status[data-state=on]")
                assert "Kaito Arashi" in player.inner_text("#pace")
                _shot(player, "1-fight-player-fr")
                started = time.monotonic()
                gm.click(f"form[data-command=defend]:has(input[value='{KAITO}']) button")
                player.wait_for_selector(f"ol.log >> text={KAITO} se défend", timeout=5000)
                assert time.monotonic() - started < 5  # seen here well under a second
                player.wait_for_selector("form[data-command=attack]")  # its turn: its forms
                assert CORBEAU in player.inner_text("#pace")
                _shot(player, "2-fight-player-its-turn-fr")
                _shot(gm, "3-fight-gm-en")
            player.wait_for_selector("#live-status[data-state=off]")  # the server is gone
            _shot(player, "4-dropped-fr")
            play(store, fight, system, CORBEAU, "attack", [f"target={KAITO}"])  # meanwhile
            with running(app, port):  # back, on the same address
                player.wait_for_selector("#live-status[data-state=on]", timeout=15_000)
                player.wait_for_selector(f"ol.log >> text={CORBEAU} attaque {KAITO}")
                assert KAITO in player.inner_text("#pace")
                _shot(player, "5-caught-up-fr")
                gm.goto(f"{base}/c/{campaign_id}")
                assert "Kaito Arashi" in gm.inner_text("#campaign-live")
                _shot(gm, "6-campaign-gm-en")
        finally:
            store.close()
    assert problems == []
