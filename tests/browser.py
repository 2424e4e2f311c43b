"""The browser tests' one launcher: Playwright driving Debian's Chromium (headless, no sandbox: the
tests run as root in CI's containers), and pages at a phone's width signed in by a cookie or
opened bare. A test module imports it before anything of Playwright: without Playwright or the
browser, the module is skipped."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed"
)
"""The mark of a module of browser tests (`pytestmark = needs_chromium`)."""

TIMEOUT_MS = 30_000
"""The longest a page waits for what a test asks (a busy 2-core machine)."""
PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium until the block ends."""
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


def new_page(
    browser: Any,
    base: str = "",
    cookie: str | None = None,
    lang: str | None = None,
    viewport: dict[str, int] | None = None,
    problems: list[str] | None = None,
) -> Any:
    """A page in a browser context of its own (a person of its own): at `viewport` (a phone by
    default), its locale and `jdr_lang` cookie `lang`'s, signed in with `cookie` ("name=value",
    a session redeemed over HTTP) when given; CSP breaches and script errors go to `problems`."""
    locale = {"fr": "fr-FR", "en": "en-GB"}.get(lang or "", "en-US")
    context = browser.new_context(locale=locale, viewport=viewport or PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    if cookie is not None:
        name, _sep, value = cookie.partition("=")
        context.add_cookies([{"name": name, "value": value, "url": base}])
    if lang is not None and base:
        context.add_cookies([{"name": "jdr_lang", "value": lang, "url": base}])
    page = context.new_page()
    if problems is not None:
        seen = problems
        page.on("console", lambda m: seen.append(m.text) if "Content Security" in m.text else None)
        page.on("pageerror", lambda error: seen.append(str(error)))
    return page


def overflow(page: Any) -> int:
    """How many pixels the page is wider than its viewport (0 when it fits)."""
    width = int(page.evaluate("document.documentElement.scrollWidth"))
    return max(0, width - int(page.viewport_size["width"]))
