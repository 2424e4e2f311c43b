"""Issue 32.2 and 32.3 in a real browser (Playwright, Debian's Chromium) on a phone 360 px wide:
the GM plays a Plus Ultra fight by tapping — an attack (its target chosen already, its odds
beside it), a defence — sees a refused technique keep what was typed without a reload, undoes
and redoes; the page never overflows sideways and no script breaks the CSP. Screenshots in
French and English go to `test-artefacts/`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser import PHONE, chromium, needs_chromium, new_page
from jdr.access import Viewer
from jdr.fights.service import state
from jdr.systems import default_registry
from jdr.table import start_fight
from live_helpers import free_port, running, signed_in
from web_helpers import plus_ultra_table

pytestmark = needs_chromium
ARTEFACTS = Path(__file__).parents[1] / "test-artefacts"
KAITO, CORBEAU = "Kaito Arashi", "Maître Corbeau"


def _page(browser: Any, base: str, cookie: str, problems: list[str], lang: str = "en") -> Any:
    return new_page(browser, base, cookie, lang, PHONE, problems)


def _shot(page: Any, name: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"fight-{name}.png"), full_page=True)


def _no_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"


def _lines(page: Any) -> int:
    return int(page.locator("ol.log li").count())


def test_the_gm_plays_a_fight_by_tapping_on_a_phone(tmp_path: Path) -> None:
    app, store, campaign_id = plus_ultra_table(f"sqlite:///{tmp_path / 'jdr.db'}", "Taps")
    campaign = store.campaign_by_id(campaign_id)
    fight = start_fight(store, Viewer(campaign_id, "gm"), campaign, [KAITO, CORBEAU])
    rules = default_registry().get("plus-ultra").fight
    assert rules is not None
    first = str(state(store, fight, rules)["turn"])
    second = CORBEAU if first == KAITO else KAITO
    problems: list[str] = []
    with chromium() as browser:
        try:
            with running(app, free_port()) as base:
                cookie = signed_in(base, store, campaign_id, "gm").cookie
                gm = _page(browser, base, cookie, problems, "en")
                gm.goto(f"{base}/c/{campaign_id}/fights/{fight}")
                gm.wait_for_selector("#live-status[data-state=on]")
                mine = f":has(input[name=actor][value='{first}'])"
                attack = gm.locator(f"form[data-command=attack]{mine}")
                assert attack.locator("select[name=target]").input_value() == second
                attack.locator(".odds .chance").wait_for()
                assert "chance to hit" in attack.locator(".odds").inner_text()
                assert gm.locator(".card.fighter").count() == 2
                assert gm.locator(".strip .current").inner_text() == first
                _no_overflow(gm)
                _shot(gm, "1-gm-en-360")
                gm.evaluate("window.jdrMarker = 1")  # gone if the page reloads
                before = _lines(gm)
                attack.locator("button").click()  # one tap
                gm.locator("ol.log li").nth(before).wait_for()
                gm.locator(".strip .current", has_text=second).wait_for()
                defend = gm.locator(
                    f"form[data-command=defend]:has(input[name=actor][value='{second}'])"
                )
                before = _lines(gm)
                defend.locator("button").click()
                gm.locator("ol.log li").nth(before).wait_for()
                gm.locator(".strip .current", has_text=first).wait_for()
                # a refused technique: the page stays, what was typed too, why beside it
                technique = gm.locator(f"form[data-command=technique]{mine}")
                technique.locator("input[name=technique]").fill("Tornade Imaginaire")
                technique.locator("button").click()
                refused = gm.locator("form.command.refused [role=alert]")
                refused.wait_for()
                field = gm.locator("form.command.refused input[name=technique]")
                assert field.input_value() == "Tornade Imaginaire"
                assert gm.evaluate("window.jdrMarker") == 1, "no reload lost the input"
                _no_overflow(gm)
                _shot(gm, "2-refused-en-360")
                # the GM undoes the defence, then puts it back
                gm.click("#undo")
                gm.locator("ol.log li.undone").first.wait_for()
                assert gm.locator(".strip .current").inner_text() == second
                gm.click("#redo")
                gm.locator(".strip .current", has_text=first).wait_for()
                gm.click("a[hreflang=fr]")
                gm.locator("h1", has_text="combat").wait_for()
                _no_overflow(gm)
                _shot(gm, "3-gm-fr-360")
        finally:
            store.close()
    assert problems == []
