"""Issue 32, part 5: every page of the web table reachable by everyone, in a real browser.

For each rule system that has fights, a seeded campaign (`web_tables`) is walked page by page as
each role sees it — the GM, a player, a spectator, and someone signed out where a page has a
signed-out face — in Debian's Chromium driven by Playwright:
- axe-core finds no serious or critical violation (WCAG A/AA rules, colour contrast included; the
  GM's pages in the dark theme too);
- nothing overflows horizontally at a phone's 360 px (`document.scrollingElement.scrollWidth`);
- every button and link of a form or of the navigation is a tap target of at least 44 × 44 px.
A keyboard test tabs through the campaign and roll pages: the skip link first, then the main
actions, each with a visible focus ring.

The run saves screenshots of each page (phone 360 px and desktop 1280 px, French and English) to
`$JDR_SCREENSHOTS` (default: a `jdr-screenshots` folder in the temporary directory):
`scripts/screenshots.py` picks the documentation's from there.

axe-core comes from npm (`.ci/run` installs it in `.tools/`); without it the axe checks skip,
saying why, and the overflow, tap-target and keyboard checks still run.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import TIMEOUT_MS, chromium, needs_chromium
from jdr import access
from jdr.systems import default_registry
from live_helpers import Client, running, signed_in
from web_helpers import HOST
from web_tables import SEEDS, Table, seeded_table

pytestmark = needs_chromium

ROOT = Path(__file__).parents[1]
AXE = ROOT / ".tools" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = Path(os.environ.get("JDR_SCREENSHOTS") or Path(tempfile.gettempdir()) / "jdr-screenshots")
PHONE = {"width": 360, "height": 800}
DESKTOP = {"width": 1280, "height": 900}
TAP = 44
DESKTOP_SYSTEM = "plus-ultra"
"""The system whose pages are also shot at a desktop's width."""

AXE_RUN = """async () => {
  const found = await axe.run(document, {
    runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
    resultTypes: ["violations"],
  });
  return found.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ` +
      v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | "));
}"""

SMALL_TARGETS = """(tap) => {
  const small = [];
  const targets = "form button, form a[href], form input[type=submit], " +
    "nav a[href], header a[href], header button";
  for (const el of document.querySelectorAll(targets)) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;  // not shown (a closed <details>)
    if (box.height < tap - 0.5 || box.width < tap - 0.5)
      small.push(`${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 30)}" ` +
        `${Math.round(box.width)}x${Math.round(box.height)}`);
  }
  return small;
}"""

WIDEST = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll("body *")]
    .filter((el) => el.getBoundingClientRect().right > width + 1)
    .slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
}"""


def _axe_missing() -> str | None:
    if not AXE.exists():
        where = AXE.relative_to(ROOT)
        return f"axe-core is not installed at {where} (npm install --prefix .tools axe-core@4)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def _context(browser: Any, base: str, cookie: str | None, lang: str, **options: Any) -> Any:
    context = browser.new_context(locale="fr-FR" if lang == "fr" else "en-US", **options)
    context.set_default_timeout(TIMEOUT_MS)
    cookies = [{"name": "jdr_lang", "value": lang, "url": base}]
    if cookie:
        name, _sep, value = cookie.partition("=")
        cookies.append({"name": name, "value": value, "url": base})
    context.add_cookies(cookies)
    if AXE.exists():  # injected by the browser itself: the page's CSP forbids inline scripts
        context.add_init_script(path=str(AXE))
    return context


def _journaled(gm: Client, table: Table) -> None:
    """Journal lines: each of the system's first actions rolled with its example, one hidden."""
    system = default_registry().get(table.system)
    rolled = [(name, a) for name, a in system.actions.items() if a.example][:2]
    for i, (name, action) in enumerate(rolled):
        form = {k: str(v) for k, v in action.example.items()}
        if i == 1:
            form["hidden"] = "on"
        status, _text = gm.post(f"/c/{table.campaign_id}/roll", action=name, **form)
        assert status == 200, (name, _text[:500])


def _pages(table: Table, role: str, invite: str) -> dict[str, str]:
    """The pages `role` opens, by name: path."""
    c = f"/c/{table.campaign_id}"
    if role == "signed-out":  # and a campaign's page refused: the error page
        return {"home": "/", "invite": f"/invite/{invite}", "host": f"/host/{HOST}", "error": c}
    a, b = table.names[0], table.names[1]
    pages = {
        "home": "/",
        "campaign": c,
        "roll": f"{c}/roll",
        "journal": f"{c}/journal",
        "entry": f"{c}/journal/1",
        "luck": f"{c}/luck",
        "simulate": f"{c}/simulate?with={a}&against={b}&runs=20",
        "fight": f"{c}/fights/{table.fight_id}",
        "sheet": f"{c}/sheets/{table.character_ids[a]}",
    }
    if role == "gm":
        pages["settings"] = f"{c}/settings"
    return pages


def _settled(page: Any) -> None:
    """Wait for the page's HTMX loads (live odds) to land."""
    page.wait_for_load_state("load")
    page.wait_for_timeout(100)
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.wait_for_timeout(100)


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _audit(page: Any, label: str, axe: bool) -> list[str]:
    """What is wrong with the page shown: axe-core's serious and critical violations, a
    horizontal overflow, tap targets under 44 px."""
    problems = []
    if axe:
        problems += [f"{label}: axe {v}" for v in page.evaluate(AXE_RUN)]
    width = page.evaluate("document.scrollingElement.scrollWidth")
    viewport = page.viewport_size["width"]
    if width > viewport:
        problems.append(f"{label}: {width} px wide at {viewport} px: {page.evaluate(WIDEST)}")
    problems += [f"{label}: tap target {t}" for t in page.evaluate(SMALL_TARGETS, TAP)]
    return problems


def _rolled(page: Any, table: Table, label: str) -> list[str]:
    """Roll the system's first action with its example from the roll page: the result swapped
    in (HTMX), then the same form posted without script (the result page), each audited."""
    system = default_registry().get(table.system)
    name, action = next((n, a) for n, a in system.actions.items() if a.example)
    page.goto(page.url.split("?")[0] + f"?action={name}")
    _settled(page)
    for key, value in action.example.items():
        field = page.locator(f"#roll-form [name={key}]").first
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        elif field.get_attribute("type") == "checkbox":
            field.set_checked(bool(value))
        else:
            field.fill(str(value))
    page.click("#roll")
    page.wait_for_selector("#result .explanation")
    _settled(page)
    problems = _audit(page, f"{label} rolled", _axe_missing() is None)
    page.evaluate("document.getElementById('roll-form').submit()")  # no HTMX: the whole page
    page.wait_for_selector("main .result .explanation")
    _settled(page)
    return problems + _audit(page, f"{label} result page", _axe_missing() is None)


def _seats(base: str, table: Table) -> dict[str, str | None]:
    """A signed-in cookie per role (None: signed out)."""
    seats: dict[str, str | None] = {"signed-out": None}
    for role, name in (("gm", None), ("player", table.player), ("spectator", None)):
        seats[role] = signed_in(base, table.store, table.campaign_id, role, name).cookie
    return seats


@pytest.mark.parametrize("system", sorted(SEEDS))
def test_every_page_and_role_passes_axe_fits_a_phone_and_has_tap_sized_targets(
    browser: Any, tmp_path: Path, system: str
) -> None:
    table = seeded_table(f"sqlite:///{tmp_path / 'jdr.db'}", system)
    axe = _axe_missing() is None
    problems: list[str] = []
    try:
        with running(table.app) as base:
            seats = _seats(base, table)
            _journaled(signed_in(base, table.store, table.campaign_id, "gm"), table)
            invite = access.invite(table.store, table.campaign_id, "spectator").token
            for role, cookie in seats.items():
                context = _context(browser, base, cookie, "en", viewport=PHONE)
                page = context.new_page()
                page.on("pageerror", lambda error, seen=problems: seen.append(f"script: {error}"))
                for name, path in _pages(table, role, invite).items():
                    page.goto(base + path)
                    _settled(page)
                    problems += _audit(page, f"{system} {role} {name}", axe)
                    if role == "gm" and name == "campaign":  # the invite link's page
                        page.click("#invite")
                        _settled(page)
                        problems += _audit(page, f"{system} gm invited", axe)
                        page.go_back()
                    if role == "gm" and name == "roll":  # a result, in place and as a page
                        problems += _rolled(page, table, f"{system} gm")
                context.close()
            problems += _dark_and_screens(browser, base, table, seats, axe)
    finally:
        table.store.close()
    if not axe:
        problems = [p for p in problems if ": axe " not in p]
    assert problems == [], "\n".join(problems)
    if not axe:
        pytest.skip(f"overflow and tap targets checked; {_axe_missing()}")


def _dark_and_screens(
    browser: Any, base: str, table: Table, seats: dict[str, str | None], axe: bool
) -> list[str]:
    """The GM's pages in the dark theme through axe (contrast), and every page's screenshots:
    phone in French and English (light) and English (dark); desktop too for one system."""
    problems: list[str] = []
    pages = _pages(table, "gm", "")
    variants = [("en", PHONE, "dark"), ("fr", PHONE, "light"), ("en", PHONE, "light")]
    if table.system == DESKTOP_SYSTEM:  # the same layout in every system: one is enough
        variants += [("fr", DESKTOP, "light"), ("en", DESKTOP, "light")]
    for lang, size, scheme in variants:
        context = _context(browser, base, seats["gm"], lang, viewport=size, color_scheme=scheme)
        page = context.new_page()
        for name, path in pages.items():
            page.goto(base + path)
            _settled(page)
            label = f"{table.system} gm {name} {scheme} {size['width']} {lang}"
            if scheme == "dark" or (lang == "fr" and size is PHONE):
                problems += _audit(page, label, axe)
            suffix = "-dark" if scheme == "dark" else ""
            _shot(page, f"{table.system}-{name}-{size['width']}-{lang}{suffix}")
        context.close()
    return problems


def test_the_keyboard_alone_reaches_the_main_actions_with_a_visible_focus(
    browser: Any, tmp_path: Path
) -> None:
    table = seeded_table(f"sqlite:///{tmp_path / 'jdr.db'}", "plus-ultra")
    try:
        with running(table.app) as base:
            cookie = signed_in(base, table.store, table.campaign_id, "gm").cookie
            context = _context(browser, base, cookie, "en", viewport=PHONE)
            page = context.new_page()
            page.goto(f"{base}/c/{table.campaign_id}")
            _settled(page)
            seen = _tab_through(page, 80)
            assert seen[0]["text"] == "Skip to the content", seen[0]
            reached = {s["id"] for s in seen}
            assert {"start-fight", "invite"} <= reached, reached
            assert [s for s in seen if not s["visible"]] == []
            page.goto(f"{base}/c/{table.campaign_id}/roll")
            _settled(page)
            seen = _tab_through(page, 80)
            assert "roll" in {s["id"] for s in seen}
            assert [s for s in seen if not s["visible"]] == []
            context.close()
    finally:
        table.store.close()


FOCUSED = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  return {id: el.id, tag: el.tagName.toLowerCase(), text: el.textContent.trim().slice(0, 40),
          visible: ring || style.boxShadow !== "none"};
}"""


def _tab_through(page: Any, presses: int) -> list[dict[str, Any]]:
    """What the Tab key focuses, in order, `presses` times (or until it leaves the page)."""
    seen = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused["tag"] == "body":
            break
        seen.append(focused)
    return seen


def test_screenshot_names_are_what_the_docs_script_reads() -> None:
    """scripts/screenshots.py picks `{system}-{page}-{width}-{lang}.png` from SHOTS."""
    script = (ROOT / "scripts" / "screenshots.py").read_text(encoding="utf-8")
    assert "JDR_SCREENSHOTS" in script and "test_web_a11y.py" in script
    assert json.dumps("campaign") in script.replace("'", '"')


COMPONENTS = """() => {
  const main = document.querySelector("main");
  main.insertAdjacentHTML("beforeend", `<ol id="story"><li class="undone">Kaito attacks</li></ol>
    <div class="card ko" id="ko">out</div><a class="btn" id="btn" href="#">Go</a>
    <div class="meter" role="meter" aria-valuenow="62" aria-valuemin="0" aria-valuemax="100"
      aria-label="test" id="meter"><span class="v-62"></span></div>
    <span class="die dropped" id="die">3</span>`);
  const style = (id) => getComputedStyle(document.getElementById(id));
  const meter = document.getElementById("meter");
  return {
    undone: getComputedStyle(document.querySelector("#story .undone")).textDecorationLine,
    undoneColor: getComputedStyle(document.querySelector("#story .undone")).color,
    muted: getComputedStyle(document.querySelector(".muted") || main).color,
    ko: style("ko").filter,
    btn: document.getElementById("btn").getBoundingClientRect().height,
    fill: meter.firstElementChild.offsetWidth / meter.offsetWidth,
    die: style("die").textDecorationLine,
  };
}"""


def test_the_design_systems_components_look_as_named(browser: Any, tmp_path: Path) -> None:
    """Undone lines struck through and muted, a KO card greyed, a button a tap high, a gauge
    filled by its class (the CSP forbids inline styles), a dropped die struck through."""
    table = seeded_table(f"sqlite:///{tmp_path / 'jdr.db'}", "plus-ultra")
    try:
        with running(table.app) as base:
            cookie = signed_in(base, table.store, table.campaign_id, "gm").cookie
            for scheme in ("light", "dark"):
                options = {"viewport": PHONE, "color_scheme": scheme}
                context = _context(browser, base, cookie, "en", **options)
                page = context.new_page()
                page.goto(f"{base}/c/{table.campaign_id}")
                seen = page.evaluate(COMPONENTS)
                assert seen["undone"] == "line-through" and seen["die"] == "line-through", seen
                assert seen["undoneColor"] == seen["muted"], seen
                assert "grayscale" in seen["ko"] and seen["btn"] >= TAP, seen
                assert abs(seen["fill"] - 0.62) < 0.01, seen
                context.close()
    finally:
        table.store.close()
