"""Issue 32's "done when", in a real browser (Playwright driving Debian's Chromium), for each of
the five systems: a GM on a phone 360 px wide creates a campaign from the host page, adds a
character and an NPC with the sheet form (a weak NPC, so that the fight is short), makes a player
invite that asks for a character; the player opens it in a browser of their own (390 px wide),
creates their character; the GM approves it, opens a fight between the NPC and the player's
character from the campaign page, and the fight is played to its end by its rules through the
fight page's command buttons: the player taps for their character on their own page, the GM for
the NPC, until the page says the fight is over — by KO (Plus Ultra, Pokémon, Passion), by the
GM's `end` command (an Ilvermorny duel, IL-11), by the GM's end form once each player has had
the hand (Polédémos, whose rules end no game: PD-7). Nobody touches a terminal. Screenshots go
to the test's tmp folder.

One server and one browser serve the module; every campaign's dice seed is fixed (`SEED`), so
the fights go the same way at every run of the module. A fight that has not ended after
`MOST_ACTIONS` commands fails with the commands played and the page's text.

The pages are driven through their stable parts only: the command forms' `data-command` and
fields, the fight's `#fight-status` (`.ended` once over), the end form's `#end-form`; the sheet
pages through their `data-testid` attributes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import DESKTOP, PHONE, chromium, needs_chromium, new_page, overflow
from jdr.web.app import create_app
from live_helpers import running
from web_helpers import HOST

pytestmark = needs_chromium
SEED = bytes(range(32))
"""Every campaign's dice seed in this module: the fights' dice are the same at every run."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any, Any]]:
    """One server and one browser for the module's tests (each makes its own campaign): the
    base URL, the application, the browser. New campaigns get `SEED` for their dice."""
    folder = tmp_path_factory.mktemp("served")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("jdr.store.epochs.new_seed", lambda: SEED)
        app = create_app(f"sqlite:///{folder / 'jdr.db'}", host_token=HOST)
        try:
            with running(app) as base, chromium() as browser:
                yield base, app, browser
        finally:
            app.state.store.close()


# system: (its display name on the host page, the GM's character, the NPC, the player's
# character), each a (start, name typed over the example's or None to keep it, fields typed
# over the example's by id: weak NPCs and strong characters, so that fights end in a few rounds)
TABLES: dict[str, tuple[str, Any, Any, Any]] = {
    "plus-ultra": (
        "Plus Ultra",
        ("example:hero", None, {}),
        ("example:villain", None, {}),
        ("example:hero", {}),
    ),
    "pokemon": (
        "Pokémon",
        ("example:trainer", None, {}),
        ("example:pokemon", "Rattata", {"f-s-vitality-current": "1"}),
        ("example:pokemon", {}),
    ),
    "passion": (
        "Passion",
        ("example:romuald", None, {}),
        (
            "example:cyber-ninja",
            None,
            {
                "f-s-energy-current": "1",
                "f-s-energy-max": "1",
                "f-s-protections-0-score": "0",
                "f-s-protections-1-score": "0",
            },
        ),
        ("example:romuald", {}),
    ),
    "ilvermorny": (
        "Ilvermorny",
        ("example:wizard", None, {}),
        ("example:wizard", "Drago Vane", {}),
        ("example:wizard", {}),
    ),
    "poledemos": (
        "Polédémos",
        ("example:warband", None, {}),
        ("example:warband", "Bande noire", {}),
        ("example:warband", {}),
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
    assert not overflow(page), f"{page.url} overflows by {overflow(page)} px"


def _add_sheet(
    page: Any, start: str, name: str | None, fills: dict[str, str], shots: Shots, label: str
) -> str:
    """Fill the sheet form from `start` (renamed `name`, its fields `fills` typed over the
    example's, by id), save: the name stored."""
    page.select_option("#start", start)
    page.click("[data-testid=start-form] button")
    page.wait_for_selector("[data-testid=save-sheet]")
    if name is not None:
        page.fill("#f-s-name", name)
    for field, value in fills.items():
        page.fill(f"#{field}", value)
    shown = str(page.input_value("#f-s-name"))
    _no_overflow(page)
    if fills:
        shots(page, f"{label}-form")
    page.click("[data-testid=save-sheet]")
    page.wait_for_load_state()
    return shown


MOST_ACTIONS = 40
"""The most commands a fight may take before the test fails (each system's ends in far fewer)."""

# system: (the commands its fighters try first, best first; the fields filled when the page
# leaves them empty, by command: a list is gone through, one value at each use)
STRATEGIES: dict[str, tuple[tuple[str, ...], dict[str, dict[str, Any]]]] = {
    "plus-ultra": (("attack", "no_interrupt", "defend"), {}),
    "pokemon": (("move", "respond", "wait", "pass"), {"respond": {"response": "none"}}),
    "passion": (
        ("choose_marker", "attack", "no_dodge", "soak", "settle", "pass"),
        {},
    ),
    "ilvermorny": (("cast",), {}),
    "poledemos": (
        ("activate", "action", "end_activation", "pass"),
        {"activate": {"dice": "3"}, "action": {"kind": ["melee", "shoot", "move"]}},
    ),
}
CASTS = 4
"""Ilvermorny: the spells cast (two rounds) before the GM ends the duel with its `end` command
(IL-11: a duel has no KO; the GM says who won)."""
LIVE_MS = 10_000
"""How long a page open on the fight may take to show what another seat played, by itself."""
HANDS = 2
"""Polédémos: its rules end no game (PD-7 leaves the outcome of shots and melee to the table);
the GM ends it from the fight page once each player has had the hand (the system's simulated
game, `tactic.over`)."""


def _forms(page: Any) -> list[tuple[str, str]]:
    """The (actor, command) of each command form the page offers."""
    found = page.eval_on_selector_all(
        "#fight-forms form.command[data-command]",
        "forms => forms.map(f => [f.querySelector('input[name=actor]').value, f.dataset.command])",
    )
    return [(str(actor), str(command)) for actor, command in found]


def _over(page: Any) -> bool:
    return bool(page.locator("#fight-status.ended").count())


def _tap(page: Any, actor: str, command: str, fills: dict[str, str]) -> None:
    """Play `command` for `actor` on `page` as a person does: fill what is empty, tap its button,
    wait for the forms to come back; a refusal fails the test with its message."""
    form = page.locator(
        f"#fight-forms form.command[data-command={command}]:has(input[name=actor][value='{actor}'])"
    ).first
    version = form.locator("input[name=version]").input_value()
    for name, value in fills.items():
        field = form.locator(f"[name={name}]")
        if not field.count():
            continue
        if field.evaluate("e => e.tagName") == "SELECT":
            if not field.input_value():
                field.select_option(value)
        elif not field.input_value():
            field.fill(value)
    form.locator(".command-go button").click()
    page.wait_for_function(
        'v => !document.querySelector(`#fight-forms input[name=version][value="${v}"]`)'
        " || document.querySelector('#fight-forms [role=alert]')",
        arg=version,
    )
    refused = page.locator("#fight-forms [role=alert]")
    assert not refused.count(), f"{command} of {actor} refused: {refused.first.inner_text()}"


def _hand(page: Any) -> int:
    """Polédémos: the number of the hand being played, as the fight's status says it."""
    found = re.search(r"\d+", page.inner_text("#fight-status"))
    return int(found.group()) if found else 0


def _play(system: str, fight_url: str, gm: Any, player: Any, shots: Shots) -> int:
    """Play the fight to its end by its rules through the fight page's command buttons: the
    player taps for their character on their own page, the GM for the NPCs; the number of
    commands played."""
    preferred, fills = STRATEGIES[system]
    rank = {command: index for index, command in enumerate(preferred)}
    history: list[str] = []
    """Each command played, as `actor:command`."""
    uses: dict[str, int] = {}
    for _step in range(MOST_ACTIONS):
        gm.goto(fight_url)
        if _over(gm):
            return len(history)
        offered = _forms(gm)
        if system == "ilvermorny" and len(history) >= CASTS:
            actor = next(a for a, c in offered if c == "end")
            _tap(gm, actor, "end", {"winner": PLAYER})
            return len(history) + 1
        if system == "poledemos" and _hand(gm) > HANDS:
            gm.select_option("#end-form select[name=winner]", PLAYER)
            gm.click("#end-fight")
            gm.wait_for_selector("#fight-status.ended")
            return len(history)
        choices = []
        if any(actor == PLAYER for actor, _c in offered):
            player.goto(fight_url)
            choices = [(player, a, c) for a, c in _forms(player) if a == PLAYER and c in rank]
        if not choices:
            choices = [(gm, a, c) for a, c in offered if a != PLAYER and c in rank]
        assert choices, f"{system}: nobody may play {preferred} ({' '.join(history)})"
        seat, actor, command = min(choices, key=lambda choice: rank[choice[2]])
        given = {}
        for name, value in fills.get(command, {}).items():
            given[name] = (
                value[uses.get(command, 0) % len(value)] if isinstance(value, list) else value
            )
        uses[command] = uses.get(command, 0) + 1
        history.append(f"{actor}:{command}")
        _tap(seat, actor, command, given)
        if len(history) == 1:
            shots(seat, "fight-first-action")
    raise AssertionError(
        f"{system}: the fight has not ended after {MOST_ACTIONS} commands ({' '.join(history)}):"
        f" {gm.inner_text('main')}"
    )


@pytest.mark.parametrize("system", list(TABLES))
def test_a_gm_runs_a_table_from_the_browser_alone(
    served: tuple[str, Any, Any], tmp_path: Path, system: str
) -> None:
    base, _app, browser = served
    shown_name, character, npc, player_start = TABLES[system]
    shots = Shots(tmp_path, system)
    gm = new_page(browser, viewport=PHONE, lang="fr")
    player = new_page(browser, viewport={"width": 390, "height": 844}, lang="en")
    try:
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
        # a character and an NPC, with the form
        names = []
        for start, name, fills in (character, npc):
            gm.goto(campaign)
            gm.click("[data-testid=add-character]")
            names.append(_add_sheet(gm, start, name, fills, shots, "gm-sheet"))
            gm.wait_for_selector("[data-testid=sheet-actions]")
            _no_overflow(gm)
        # an invite that asks the player to create their character
        gm.goto(campaign)
        gm.select_option("#invite-form select[name=role]", "player")
        gm.check("[data-testid=invite-creates]")
        gm.click("#invite")
        link = gm.input_value("#invite-link")
        # the player, in a browser of their own
        player.goto(link)
        player.click("#join")
        player.click("[data-testid=create-character]")
        start, fills = player_start
        _add_sheet(player, start, PLAYER, fills, shots, "player-sheet")
        assert "waits for the GM" in player.inner_text("main")
        shots(player, "player-waits")
        # the GM approves it
        gm.goto(campaign)
        gm.click(f"[data-testid='pending-{PLAYER}']")
        _no_overflow(gm)
        gm.click("[data-testid=approve]")
        gm.wait_for_selector("[data-testid=sheet-actions]")
        player.goto(campaign)
        assert PLAYER in player.inner_text("header")
        # a fight between the NPC and the player's character, played to its end by its rules
        gm.goto(campaign)
        for fighter in (names[1], PLAYER):
            gm.check(f"#fight-form input[name=with][value='{fighter}']")
        gm.click("#start-fight")
        gm.wait_for_url("**/fights/*")
        shots(gm, "fight")
        began = time.monotonic()
        played = _play(system, gm.url, gm, player, shots)
        seconds = time.monotonic() - began
        # the player's page, open since their last command, shows the end by itself (live)
        status = player.locator("#fight-status.ended")
        status.wait_for(timeout=LIVE_MS)
        player.locator("#fight-forms form.command").first.wait_for(state="detached")
        for seat in (gm, player):
            seat.reload()
            status = seat.locator("#fight-status.ended")
            assert status.count(), f"{system}: the end is not shown: {seat.inner_text('main')}"
            assert not seat.locator("#fight-forms form.command").count(), "no command is left"
            _no_overflow(seat)
        shots(gm, "fight-over-gm")
        shots(player, "fight-over-player")
        print(f"{system}: {played} commands in {seconds:.1f} s: {status.inner_text()}")
    finally:
        gm.context.close()
        player.context.close()


def test_the_sheet_pages_at_360_px_and_on_a_desktop_in_french_and_english(
    served: tuple[str, Any, Any], tmp_path: Path
) -> None:
    """The sheet pages as a reader sees them (the form, a refused form, a sheet, a sheet
    waiting for the GM), in both languages and both sizes: nothing overflows."""
    from fastapi.testclient import TestClient

    from web_helpers import csrf_of

    base, app, browser = served
    client = TestClient(app)
    made = client.post(f"/host/{HOST}", data={"name": "Vitrine", "system": "pokemon"})
    campaign = made.url.path
    session = client.cookies.get("jdr_session")
    page = new_page(browser, base, f"jdr_session={session}")
    try:
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
        page.context.close()
