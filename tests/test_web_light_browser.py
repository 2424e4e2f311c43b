"""A long fight and a long journal in a real browser (issue 32, part 6): Playwright driving
Debian's Chromium at a phone's width. The fight's page tells its last actions and says how many
came before; its recaps come at a button's press (HTMX), ready to copy; the journal page's link
opens the older entries. No script runs that the CSP forbids, nothing overflows the screen.
Screenshots in French and English go to `test-artefacts/`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser import TIMEOUT_MS, chromium, needs_chromium
from jdr import table
from jdr.access import Viewer
from jdr.web import contexts, live_pages, pages
from live_helpers import free_port, running, signed_in
from web_helpers import plus_ultra_table

pytestmark = needs_chromium
ARTEFACTS = Path(__file__).parents[1] / "test-artefacts"
KAITO, CORBEAU = "Kaito Arashi", "Maître Corbeau"
PHONE = {"width": 360, "height": 780}
ATTACK = {"willpower": 5, "target_energy": 6, "rank": "C"}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_long_fight_and_journal_stay_light_in_a_browser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    monkeypatch.setattr(contexts, "FIGHT_LOG_SHOWN", 2)
    for module in (pages, live_pages):
        monkeypatch.setattr(module, "JOURNAL_SHOWN", 3)
    app, store, campaign_id = plus_ultra_table(f"sqlite:///{tmp_path / 'jdr.db'}", "Long")
    gm = Viewer(campaign_id, "gm")
    campaign = store.campaign_by_id(campaign_id)
    fight = table.start_fight(store, gm, campaign, [KAITO, CORBEAU])
    for actor in (KAITO, CORBEAU, KAITO):
        table.play(store, gm, campaign, fight, actor, "defend", {}, None)
    for _ in range(3):
        table.roll(store, gm, campaign, table.RollAsked("attack", ATTACK))
    problems: list[str] = []
    with chromium() as browser:
        try:
            with running(app, free_port()) as base:
                cookie = signed_in(base, store, campaign_id, "player", KAITO).cookie
                context = browser.new_context(
                    locale="fr-FR" if lang == "fr" else "en-US", viewport=PHONE
                )
                context.set_default_timeout(TIMEOUT_MS)
                name, _sep, value = cookie.partition("=")
                context.add_cookies([{"name": name, "value": value, "url": base}])
                context.add_cookies([{"name": "jdr_lang", "value": lang, "url": base}])
                page = context.new_page()
                page.on("console", lambda m: _csp(m, problems))
                page.on("pageerror", lambda error: problems.append(str(error)))
                page.goto(f"{base}/c/{campaign_id}/fights/{fight}")
                earlier = page.inner_text("#log-earlier")
                assert "2" in earlier and ("journal" in earlier)
                assert page.locator("#recap-bbcode").count() == 0
                _no_overflow(page)
                _shot(page, f"light-fight-{lang}")
                page.click(".fight-recap summary")  # the recaps fold away under their heading
                page.click("#show-recaps")
                page.wait_for_selector("#recap-bbcode")
                assert "[b]" in page.input_value("#recap-bbcode")
                assert "**" in page.input_value("#recap-markdown")
                _no_overflow(page)
                _shot(page, f"light-fight-recaps-{lang}")
                page.goto(f"{base}/c/{campaign_id}/journal")
                assert page.locator("ol.journal > li").count() == 3
                page.click("#older-entries")
                page.wait_for_url("**/journal?before=*")
                assert page.locator("ol.journal > li").count() == 3
                _no_overflow(page)
                _shot(page, f"light-journal-older-{lang}")
                context.close()
        finally:
            store.close()
    assert problems == []


def _csp(message: Any, problems: list[str]) -> None:
    if "Content Security" in message.text:
        problems.append(message.text)


def _no_overflow(page: Any) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not wide, "the page scrolls sideways at a phone's width"


def _shot(page: Any, name: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)
