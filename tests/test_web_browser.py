"""Issue 19 end to end in a real browser: Playwright driving Debian's Chromium against `jdr serve`
running as a real process on 127.0.0.1, with its real SQLite database.

A GM creates a campaign (its name an XSS attempt) from the host link and invites two players;
each player, in their own browser context, opens the invite, sees exact odds beside the roll form
and rolls, then plays a Plus Ultra fight turn (PU-4); the GM makes a hidden roll the players
cannot see; a player verifies the journal in the browser (WebCrypto) and sees a tampered export
rejected; no injected script runs and the CSP reports no violation. Screenshots of each page go
to `test-artefacts/` (gitignored).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import TIMEOUT_MS, chromium, needs_chromium
from live_helpers import free_port

pytestmark = needs_chromium

ROOT = Path(__file__).parents[1]
ARTEFACTS = ROOT / "test-artefacts"
EXAMPLES = ROOT / "src" / "jdr" / "systems" / "plus_ultra" / "examples"
XSS = "<img src=x onerror=window.__xss=1>"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """`jdr serve` on a free port: (its host link, its database URL)."""
    url = f"sqlite:///{tmp_path / 'jdr.db'}"
    command = [sys.executable, "-m", "jdr.cli.app", "serve", "--port", str(free_port())]
    env = {**os.environ, "JDR_LANG": "en"}
    with subprocess.Popen(
        [*command, "--db", url],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    ) as server:
        try:
            assert server.stdout is not None
            lines = [server.stdout.readline() for _ in range(2)]
            found = re.search(r"(http://127\.0\.0\.1:\d+/host/\S+)", lines[1])
            assert found, lines
            yield found.group(1), url
        finally:
            server.terminate()
            server.wait(timeout=10)


def _jdr(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jdr.cli.app", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def _shot(page: Any, name: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


def _watched(browser: Any, problems: list[str]) -> Any:
    """A new browser context (its own cookies) whose page reports dialogs and CSP violations."""
    context = browser.new_context(locale="en-US")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()

    def dialog(opened: Any) -> None:  # an alert() would mean an injected script ran
        problems.append(f"dialog {opened.message}")
        opened.dismiss()

    def console(message: Any) -> None:
        if "Content Security Policy" in message.text:
            problems.append(message.text)

    page.on("dialog", dialog)
    page.on("console", console)
    return page


def _invite(gm: Any, character: str) -> str:
    gm.select_option("#invite-form select[name=role]", "player")
    gm.select_option("#invite-form select[name=character]", character)
    gm.click("#invite")
    link = str(gm.input_value("#invite-link"))
    gm.go_back()
    gm.reload()
    return link


def _roll_with_odds(page: Any, name: str) -> str:
    page.click("nav >> text=Roll")
    page.fill("input[name=willpower]", "10")
    page.fill("input[name=target_energy]", "20")
    page.wait_for_selector("#odds table.outcomes")
    assert "15.00 %" in page.inner_text("#odds")
    assert page.locator("#odds svg rect").count() >= 2
    page.fill("input[name=willpower]", "200")
    page.click("#roll")
    page.wait_for_selector("#result .error")  # refused in place, in the CLI's words
    assert "0..99" in page.inner_text("#result")
    page.fill("input[name=willpower]", "10")
    page.click("#roll")
    page.wait_for_selector("#result .explanation")
    _shot(page, name)
    return str(page.inner_text("#result .explanation"))


def test_pu_4_a_table_in_the_browser_from_the_host_link_to_a_verified_journal(
    served: tuple[str, str], tmp_path: Path
) -> None:
    host, url = served
    problems: list[str] = []
    with chromium() as browser:
        try:
            gm = _watched(browser, problems)
            gm.goto(host)
            name = f"{XSS} Mardi"
            gm.fill("input[name=name]", name)
            gm.select_option("select[name=system]", "plus-ultra")
            gm.click("#create")
            _shot(gm, "0-campaign-created")
            assert gm.inner_text("h1").startswith(XSS)  # shown as text
            for example in ("hero", "villain"):
                _jdr(
                    "sheet",
                    "add",
                    str(EXAMPLES / f"{example}.toml"),
                    "--campaign",
                    name,
                    "--db",
                    url,
                )
            gm.reload()
            _shot(gm, "1-campaign-gm")
            links = [_invite(gm, "Kaito Arashi"), _invite(gm, "Maître Corbeau")]

            kaito, corbeau = _watched(browser, problems), _watched(browser, problems)
            for page, link in ((kaito, links[0]), (corbeau, links[1])):
                page.goto(link)
                page.click("#join")
                assert page.inner_text("h1").startswith(XSS)
            _shot(kaito, "2-campaign-player")
            _roll_with_odds(kaito, "3-roll-kaito")
            _roll_with_odds(corbeau, "4-roll-corbeau")

            gm.check("#fight-form input[value='Kaito Arashi']")
            gm.check("#fight-form input[value='Maître Corbeau']")
            gm.click("#start-fight")
            fight = gm.url
            for page, me, other, shot in (
                (kaito, "Kaito Arashi", "Maître Corbeau", "5-fight-kaito"),
                (corbeau, "Maître Corbeau", "Kaito Arashi", "6-fight-corbeau"),
            ):
                page.goto(fight)
                assert page.locator(f"text={other} plays").count() == 0
                page.click("form[data-command=attack] button")
                page.wait_for_selector(f"ol.log >> text={me} attacks {other}.")
                _shot(page, shot)

            gm.goto(gm.url.split("/fights/")[0] + "/roll")
            gm.fill("input[name=willpower]", "10")
            gm.fill("input[name=target_energy]", "20")
            gm.fill("input[name=action_id]", "embuscade-secrete")
            gm.check("#hidden")
            gm.click("#roll")
            gm.wait_for_selector("#result .explanation")
            _shot(gm, "7-hidden-roll-gm")

            kaito.click("nav >> text=Journal")
            journal = kaito.inner_text("main")
            assert "embuscade-secrete" not in journal
            assert "hidden roll: only its hash is public until disclosed" in journal
            kaito.click("#verify")
            kaito.wait_for_selector("#verdict[data-result]")
            assert kaito.get_attribute("#verdict", "data-result") == "ok", kaito.inner_text(
                "#verdict"
            )
            _shot(kaito, "8-journal-verified")

            export = kaito.context.request.get(kaito.url + "/export").json()
            entry = next(e for e in export["entries"] if (e.get("dice") or {}).get("rolls"))
            size, face = entry["dice"]["rolls"][0]
            entry["dice"]["rolls"][0] = [size, face % size + 1]
            tampered = tmp_path / "tampered.json"
            tampered.write_text(json.dumps(export))
            kaito.set_input_files("#verify-file", str(tampered))
            kaito.wait_for_selector("#verdict[data-result=bad]")
            _shot(kaito, "9-journal-tampered")

            kaito.click("a[hreflang=fr]")
            assert "Vérifier dans mon navigateur" in kaito.inner_text("main")
            kaito.set_input_files("#verify-file", str(tampered))  # its failures in French
            kaito.wait_for_selector("#verdict[data-result=bad]")
            verdict = kaito.inner_text("#verdict")
            assert verdict.startswith("NON vérifié\u00a0: entrée "), verdict  # a space before « : »
            assert "entry" not in verdict and "hashes" not in verdict, verdict
            _shot(kaito, "10-journal-fr")
            for page in (gm, kaito, corbeau):
                assert page.evaluate("window.__xss") is None
        except BaseException:  # what each browser showed when it failed, for the artefacts
            for number, context in enumerate(browser.contexts):
                for page in context.pages:
                    _shot(page, f"failure-{number}")
            raise
    assert problems == []
