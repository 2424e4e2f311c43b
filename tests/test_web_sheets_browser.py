"""Issue 32's "done when", in a real browser at 360 px (Playwright driving Debian's Chromium),
for each of the five systems: a GM creates a campaign from the host page, adds a character and
an NPC with the sheet form, makes a player invite that asks for a character; the player opens
it in a second browser, creates their character; the GM approves it, opens a fight between the
NPC and the player's character from the campaign page and plays it to its end through the fight
page's buttons. Nobody touches a terminal. Screenshots go to the test's tmp folder.

The fight page is another helper's design: it is driven through its stable parts only (the
command forms' `data-command`, the end form's `#end-form`); the sheet pages through their
`data-testid` attributes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jdr.web.app import create_app
from live_helpers import running
from web_helpers import HOST

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")

TIMEOUT_MS = 30_000
PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}
PLAYS = 8
"""Commands the GM plays through the fight page's buttons before ending the fight by hand."""
PREFERRED = (
    "end",
    "attack",
    "move",
    "respond",
    "cast",
    "activate",
    "choose_marker",
    "no_dodge",
    "soak",
    "settle",
    "no_interrupt",
    "action",
    "end_activation",
)
"""The commands tried first (those that move a fight towards its end); then any other."""

# system: (its display name on the host page, the GM's character, the NPC, the player's)
# each a (start, name typed over the example's, or None to keep it)
TABLES = {
    "plus-ultra": ("Plus Ultra", ("example:hero", None), ("example:villain", None), "example:hero"),
    "pokemon": (
        "Pokémon",
        ("example:trainer", None),
        ("example:pokemon", "Rattata"),
        "example:pokemon",
    ),
    "passion": (
        "Passion",
        ("example:romuald", None),
        ("example:cyber-ninja", None),
        "example:romuald",
    ),
    "ilvermorny": (
        "Ilvermorny",
        ("example:wizard", None),
        ("example:wizard", "Drago Vane"),
        "example:wizard",
    ),
    "poledemos": (
        "Polédémos",
        ("example:warband", None),
        ("example:warband", "Bande noire"),
        "example:warband",
    ),
}
PLAYER = "Mei"


class Shots:
    """Screenshots of one run, numbered in order, in the test's tmp folder."""

    def __init__(self, folder: Path, system: str) -> None:
        self.folder = folder
        self.system = system
        self.count = 0

    def __call__(self, page: Any, name: str) -> None:
        self.count += 1
        path = self.folder / f"{self.system}-{self.count:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)


def _no_overflow(page: Any) -> None:
    """The page fits its width (checked on the sheet pages; the others have their own test)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} overflows: {width}px"


def _add_sheet(page: Any, start: str, name: str | None, shots: Shots, label: str) -> str:
    """Fill the sheet form from `start` (renamed `name`), save: the name stored."""
    page.select_option("#start", start)
    page.click("[data-testid=start-form] button")
    page.wait_for_selector("[data-testid=save-sheet]")
    if name is not None:
        page.fill("#f-s-name", name)
    shown = str(page.input_value("#f-s-name"))
    _no_overflow(page)
    shots(page, f"{label}-form")
    page.click("[data-testid=save-sheet]")
    page.wait_for_load_state()
    return shown


def _play(page: Any, shots: Shots) -> None:
    """Play the fight through its command buttons, the GM deciding for everyone; end it with
    the end form if its rules have not ended it after `PLAYS` commands."""
    fight_url = page.url
    tried: set[tuple[str, str, str]] = set()
    for _step in range(PLAYS):
        page.goto(fight_url)
        if page.locator("#end-form").count() == 0:
            break  # ended by its rules
        forms = page.locator("form.command[data-command]")
        version = forms.first.locator("input[name=version]").input_value() if forms.count() else ""
        candidates = []
        for index in range(forms.count()):
            form = forms.nth(index)
            command = form.get_attribute("data-command") or ""
            actor = form.locator("input[name=actor]").input_value()
            if (version, actor, command) in tried:
                continue
            rank = PREFERRED.index(command) if command in PREFERRED else len(PREFERRED)
            candidates.append((rank, index, actor, command))
        if not candidates:
            break
        _rank, index, actor, command = min(candidates)
        tried.add((version, actor, command))
        form = forms.nth(index)
        form.locator("button").last.click()
        page.wait_for_load_state("networkidle")
    page.goto(fight_url)
    if page.locator("#end-form").count():
        winner = page.locator("#end-form select[name=winner]")
        if winner.count():
            winner.select_option(index=1)
        page.click("#end-fight")
        page.wait_for_load_state()
    page.goto(fight_url)
    assert page.locator("#end-form").count() == 0, "the fight has ended"
    shots(page, "fight-ended")


@pytest.mark.parametrize("system", list(TABLES))
def test_a_gm_runs_a_table_from_the_browser_alone(tmp_path: Path, system: str) -> None:
    shown_name, character, npc, player_start = TABLES[system]
    app = create_app(f"sqlite:///{tmp_path / 'jdr.db'}", host_token=HOST)
    shots = Shots(tmp_path, system)
    with running(app) as base, playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            gm_context = browser.new_context(locale="fr-FR", viewport=PHONE)
            gm_context.set_default_timeout(TIMEOUT_MS)
            gm = gm_context.new_page()
            # the host page: a new campaign, the system chosen by its display name
            gm.goto(f"{base}/host/{HOST}")
            gm.fill("input[name=name]", f"Table {system}")
            options = gm.locator("select[name=system] option")
            labels = [options.nth(i).inner_text() for i in range(options.count())]
            chosen = next(label for label in labels if label.startswith(shown_name))
            gm.select_option("select[name=system]", label=chosen)
            gm.click("#create")
            gm.wait_for_selector("[data-testid=add-character]")
            campaign = gm.url.rstrip("/")
            shots(gm, "campaign-empty")
            # a character and an NPC, with the form
            names = []
            for start, name in (character, npc):
                gm.goto(campaign)
                gm.click("[data-testid=add-character]")
                names.append(_add_sheet(gm, start, name, shots, "gm-sheet"))
                gm.wait_for_selector("[data-testid=sheet-actions]")
                _no_overflow(gm)
                shots(gm, "sheet")
            # an invite that asks the player to create their character
            gm.goto(campaign)
            gm.select_option("#invite-form select[name=role]", "player")
            gm.check("[data-testid=invite-creates]")
            gm.click("#invite")
            link = gm.input_value("#invite-link")
            # the player, in a second browser
            player_context = browser.new_context(locale="en-GB", viewport=PHONE)
            player_context.set_default_timeout(TIMEOUT_MS)
            player = player_context.new_page()
            player.goto(link)
            player.click("#join")
            player.click("[data-testid=create-character]")
            _add_sheet(player, player_start, PLAYER, shots, "player-sheet")
            assert "waits for the GM" in player.inner_text("main")
            shots(player, "player-waits")
            # the GM approves it
            gm.goto(campaign)
            gm.click(f"[data-testid='pending-{PLAYER}']")
            _no_overflow(gm)
            shots(gm, "pending")
            gm.click("[data-testid=approve]")
            gm.wait_for_selector("[data-testid=sheet-actions]")
            player.goto(campaign)
            assert PLAYER in player.inner_text("header")
            # a fight between the NPC and the player's character, played to its end
            gm.goto(campaign)
            for fighter in (names[1], PLAYER):
                gm.check(f"#fight-form input[name=with][value='{fighter}']")
            gm.click("#start-fight")
            gm.wait_for_url("**/fights/*")
            shots(gm, "fight")
            _play(gm, shots)
            player_context.close()
            gm_context.close()
        finally:
            browser.close()
            app.state.store.close()


def test_the_sheet_pages_at_360_px_and_on_a_desktop_in_french_and_english(
    tmp_path: Path,
) -> None:
    """The sheet pages as a reader sees them (the form, a refused form, a sheet, a sheet
    waiting for the GM), in both languages and both sizes: nothing overflows."""
    from fastapi.testclient import TestClient

    from web_helpers import csrf_of

    app = create_app(f"sqlite:///{tmp_path / 'jdr.db'}", host_token=HOST)
    client = TestClient(app)
    made = client.post(f"/host/{HOST}", data={"name": "Vitrine", "system": "pokemon"})
    campaign = made.url.path
    with running(app) as base, playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            context = browser.new_context(viewport=PHONE)
            context.set_default_timeout(TIMEOUT_MS)
            context.add_cookies(
                [
                    {"name": k, "value": v, "url": base}
                    for k, v in client.cookies.items()
                    if k == "jdr_session"
                ]
            )
            page = context.new_page()
            page.goto(f"{base}{campaign}/sheets/new?start=example:pokemon")
            page.click("[data-testid=save-sheet]")
            page.wait_for_selector("[data-testid=sheet-actions]")
            sheet = page.url
            assert csrf_of(page.content())
            for language in ("en", "fr"):
                page.goto(f"{base}/lang/{language}?next=/")
                for size, viewport in (("360", PHONE), ("desktop", DESKTOP)):
                    page.set_viewport_size(viewport)
                    for name, url in (
                        ("form", f"{base}{campaign}/sheets/new?start=example:pokemon"),
                        ("form-trainer", f"{base}{campaign}/sheets/new?start=empty:trainer"),
                        ("sheet", sheet),
                        ("edit", f"{sheet}/edit"),
                    ):
                        page.goto(url)
                        _no_overflow(page)
                        page.screenshot(
                            path=str(tmp_path / f"pages-{name}-{language}-{size}.png"),
                            full_page=True,
                        )
                    page.goto(f"{base}{campaign}/sheets/new?start=example:pokemon")
                    page.fill("#f-s-stats-strength", "x")
                    page.fill("#f-s-vitality-current", "99")
                    page.click("[data-testid=save-sheet]")
                    page.wait_for_selector("#form-problems")
                    _no_overflow(page)
                    page.screenshot(
                        path=str(tmp_path / f"pages-refused-{language}-{size}.png"),
                        full_page=True,
                    )
        finally:
            browser.close()
            app.state.store.close()
