"""Issue 28 in a real browser (Playwright driving Debian's Chromium): one browser joins two
campaigns and keeps both; the live odds ask with the CSRF token in a header, never in the URL;
an action without odds says so and asks nothing. Screenshots of the pages, in French and English,
at 360 px and on a desktop, go to `test-artefacts/` (gitignored).

Rules touched: PU-4 (the Plus Ultra attack's odds), PU-2 (a rank: no odds).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser import TIMEOUT_MS, chromium, needs_chromium
from jdr import access
from live_helpers import running
from web_helpers import HOST, example_table

pytestmark = needs_chromium

ARTEFACTS = Path(__file__).parents[1] / "test-artefacts"
SIZES = {"360": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}


def _shot(page: Any, name: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"seats-{name}.png"), full_page=True)


def test_pu_4_one_browser_in_two_campaigns_with_live_odds_asked_by_header(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'jdr.db'}"
    app, store, first = example_table(url, "Lundi", "plus-ultra", ("hero", "villain"))
    second = store.create_campaign("passion", "Jeudi")
    links = [
        f"/invite/{access.invite(store, first, 'player', 'Kaito Arashi').token}",
        f"/invite/{access.invite(store, second, 'spectator').token}",
    ]
    odds_urls: list[str] = []
    odds_headers: list[dict[str, str]] = []
    with running(app) as base, chromium() as browser:
        try:
            context = browser.new_context(locale="en-US", viewport=SIZES["desktop"])
            context.set_default_timeout(TIMEOUT_MS)
            page = context.new_page()

            def seen(request: Any) -> None:
                if "/odds" in request.url:
                    odds_urls.append(request.url)
                    odds_headers.append(request.headers)

            page.on("request", seen)
            for link in links:
                page.goto(base + link)
                page.click("#join")
            page.goto(base + "/")
            assert page.locator("ul.seats li").count() == 2
            page.goto(f"{base}/c/{first}/roll?action=attack")
            page.fill("input[name=willpower]", "10")
            page.fill("input[name=target_energy]", "20")
            page.wait_for_selector("#odds table.outcomes")
            assert "15.00 %" in page.inner_text("#odds")
            page.click("#roll")
            page.wait_for_selector("#result .explanation")  # the POST's token: the header
            assert odds_urls and all("csrf" not in url for url in odds_urls)
            assert all(h.get("x-csrf-token") for h in odds_headers)
            asked = len(odds_urls)
            page.goto(f"{base}/c/{first}/roll?action=rank")
            page.wait_for_selector("#odds .no-odds")
            page.select_option("select[name=rank]", "B")
            page.wait_for_timeout(600)
            assert len(odds_urls) == asked  # an action without odds never asks
            page.goto(f"{base}/c/{second}")
            assert page.inner_text("h1").startswith("Jeudi")
            spare = f"/invite/{access.invite(store, first, 'spectator').token}"
            for language in ("en", "fr"):
                page.goto(f"{base}/lang/{language}?next=/")
                for size, viewport in SIZES.items():
                    page.set_viewport_size(viewport)
                    page.goto(base + "/")
                    _shot(page, f"home-{language}-{size}")
                    page.goto(base + spare)
                    _shot(page, f"invite-{language}-{size}")
                    page.goto(f"{base}/host/{HOST}")
                    _shot(page, f"host-{language}-{size}")
                    page.goto(f"{base}/c/{first}/roll?action=rank")
                    page.wait_for_selector("#odds .no-odds")
                    _shot(page, f"roll-no-odds-{language}-{size}")
                    page.goto(f"{base}/c/{first}/roll?action=attack")
                    page.fill("input[name=willpower]", "10")
                    page.fill("input[name=target_energy]", "20")
                    page.wait_for_selector("#odds table.outcomes")
                    _shot(page, f"roll-odds-{language}-{size}")
            assert page.locator("html").get_attribute("lang") == "fr"
            assert "Pas de chances calculées" not in page.inner_text("main")  # the attack has odds
        finally:
            store.close()
