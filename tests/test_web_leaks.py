"""Issue 30.5: the web table never shows a player an identifier of the code, nor a word of the
other language.

For each of the five systems and the example plug-in (examples/plugin, `ombres`), a campaign is
played (`web_leak_tables`: the example characters, every action's example roll, a hidden roll,
generic dice, a sheet renamed and the renaming undone, a fight played by the system's tactic),
then every page is read by each role — the GM, a player, a spectator and a browser signed in to
no campaign — in French and in English: the campaign, journal (and each entry's permalink),
luck, roll form (each action), odds, a roll's result, settings, simulation, every sheet, the
fight, their live parts, the Atom feed, the invite and host pages and the refusals a seat meets.
Their visible text (`visible_text`: no tag, script or style; the attributes a reader sees:
`title`, `aria-label`, `placeholder`, `alt`, a button's `value`, the verdicts' words) goes through
the shared detector (`leaks.find_leaks`) with the campaign's and characters' names as proper
names. No identifier is allowed here: a leak is fixed where the word is declared.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from jdr import access
from jdr.access import Viewer
from jdr.live import seat
from jdr.store import Store
from leaks import find_leaks
from web_helpers import HOST, Seat, csrf_of, join
from web_leak_tables import SYSTEMS, Played, play_table, with_plugin

CAMPAIGN = "Mardi soir"
ROLES = ("gm", "player", "spectator", "signed-out")
SHOWN_ATTRIBUTES = {
    "title", "aria-label", "placeholder", "alt", "data-ok", "data-bad", "data-on", "data-off",
    "data-out",
}  # fmt: skip
"""Attributes a reader sees: tooltips, labels read aloud, placeholders, and the verifier's
verdicts (`data-ok`, `data-bad`, written into the page by its script)."""
HIDDEN_TAGS = {"script", "style", "template", "textarea"}
"""Not read: code, and a `<textarea>`'s content — the sheet's TOML, data in its file's format
(its keys stay the stable identifiers `--toml` and the API keep, as JSON's do)."""


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in HIDDEN_TAGS:
            self.hidden += 1
        found = dict(attrs)
        for name, value in attrs:
            if value and name in SHOWN_ATTRIBUTES:
                self.parts.append(value)
        button = tag == "button" or found.get("type") in ("submit", "button", "reset")
        if button and found.get("value") and tag == "input":
            self.parts.append(str(found["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN_TAGS and self.hidden:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """What a reader of the page sees (see the module).

    >>> visible_text('<p title="Aide">Jet <b>caché</b></p><script>let kind = 1</script>')
    'Aide\\nJet\\ncaché'
    """
    parser = _Visible()
    parser.feed(html)
    parser.close()
    lines = (re.sub(r"\s+", " ", part).strip() for part in parser.parts)
    return "\n".join(line for line in lines if line)


@dataclass
class Table:
    """A played campaign, its app and store, and one browser per role."""

    app: Any
    store: Store
    system: str
    played: Played
    names: list[str]
    seats: dict[str, Seat] = field(default_factory=dict)


@pytest.fixture(params=SYSTEMS)
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Table]:
    from jdr.web.app import create_app

    with_plugin()
    app = create_app(f"sqlite:///{tmp_path / 'leaks.db'}", host_token=HOST, invite_attempts=1000)
    store: Store = app.state.store
    played = play_table(store, request.param, CAMPAIGN)
    names = [CAMPAIGN, *(c.name for c in store.characters(played.campaign_id))]
    found = Table(app, store, request.param, played, names)
    player = store.characters(played.campaign_id)[0].name
    for role in ("gm", "player", "spectator"):
        found.seats[role] = join(
            app, store, played.campaign_id, role, player if role == "player" else None
        )
    yield found
    store.close()


def _pages(table: Table) -> list[str]:
    """Every page of the campaign a browser may ask for (each role gets its own answer)."""
    from jdr.systems import default_registry

    c = table.played.campaign_id
    system = default_registry().get(table.system)
    pages = [
        "/",
        f"/c/{c}",
        f"/c/{c}/journal",
        f"/c/{c}/luck",
        f"/c/{c}/roll",
        f"/c/{c}/settings",
        f"/c/{c}/simulate",
        f"/c/{c}/parts/campaign",
        f"/c/{c}/parts/journal",
        "/nowhere",  # the refusals a browser meets: an unknown page, sheet, fight, entry
        f"/c/{c}/sheets/999999",
        f"/c/{c}/fights/999999",
        f"/c/{c}/journal/999999",
        f"/c/{c}/invites",  # a page that takes only a POST
    ]
    pages += [f"/c/{c}/journal/{row.seq}" for row in table.store.journal(c)]
    for name, action in system.actions.items():
        pages.append(f"/c/{c}/roll?action={name}")
        query = "&".join(f"{k}={v}" for k, v in action.example.items())
        pages.append(f"/c/{c}/odds?action={name}&{query}")
        pages.append(f"/c/{c}/odds?action={name}")  # unfinished: says what is missing
    for character in table.played.characters:
        pages += [f"/c/{c}/sheets/{character}", f"/c/{c}/sheets/{character}/parts/history"]
    fight = table.played.fight
    if fight is not None:
        pages += [
            f"/c/{c}/fights/{fight}",
            f"/c/{c}/fights/{fight}/parts/live",
            f"/c/{c}/fights/{fight}/parts/forms",
        ]
    return pages


def _client(table: Table, role: str, lang: str) -> TestClient:
    client = (
        TestClient(table.app) if role == "signed-out" else table.seats[role].client
    )  # a browser signed in to nothing meets the sign-in refusals
    client.get(f"/lang/{lang}", follow_redirects=False)
    return client


def _read(client: TestClient, path: str) -> str:
    answer = client.get(path, follow_redirects=True)
    assert answer.status_code < 500, (path, answer.text[-2000:])
    if "xml" in answer.headers.get("content-type", ""):
        return feed_text(answer.text)
    return visible_text(answer.text)


def feed_text(xml: str) -> str:
    """What a feed reader shows of an Atom feed: its titles, subtitle, contents and author (not
    its `urn:` ids, links and times)."""
    from xml.etree import ElementTree

    shown = {"title", "subtitle", "content", "name"}
    root = ElementTree.fromstring(xml)
    return "\n".join(
        node.text for node in root.iter() if node.text and node.tag.rsplit("}", 1)[-1] in shown
    )


BBCODE = re.compile(r"\[/?[a-z]+(?:=[^\]]*)?\]")
"""A BBCode tag of a post-ready snippet (`[b]`, `[size=85]`): the forum's syntax, not words."""


@cache
def _typed() -> re.Pattern[str]:
    """A command line a page tells the reader to type: in backticks, or `jdr` and the words of
    one of its real commands (`jdr fight new`, `jdr campaign invite`), read from the CLI."""
    import typer

    from jdr.cli.app import build_app

    paths: list[str] = []

    def walk(command: Any, prefix: str) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            paths.append(f"{prefix} {name}")
            walk(sub, f"{prefix} {name}")

    walk(typer.main.get_command(build_app()), "jdr")
    spelled = "|".join(re.escape(p) for p in sorted(paths, key=len, reverse=True))
    return re.compile(rf"`[^`\n]*`|\b(?:{spelled})\b")


def shown_words(text: str) -> str:
    """The text the detector reads: BBCode tags and command lines to type left out."""
    return _typed().sub(" ", BBCODE.sub(" ", text))


def _posted(table: Table, role: str, lang: str) -> dict[str, str]:
    """The pages a seat reaches by posting: a roll's result (and its refusal), a new invite,
    a feed link made, a refused fight."""
    from jdr.systems import default_registry

    if role == "signed-out":
        return {}
    c = table.played.campaign_id
    seated = table.seats[role]
    page = seated.client.get(f"/c/{c}")
    seated.csrf = csrf_of(page.text) if 'name="csrf"' in page.text else seated.csrf
    action = next(iter(default_registry().get(table.system).actions.values()))
    found = {}
    data = {"action": action.name, **{k: str(v) for k, v in action.example.items()}}
    found["roll result"] = seated.post(f"/c/{c}/roll", data=data)
    found["roll refused"] = seated.post(f"/c/{c}/roll", data={"action": action.name, "x": "1"})
    bad = {k: "abc" for k in action.example} | {"action": action.name}
    found["roll with bad values"] = seated.post(f"/c/{c}/roll", data=bad)
    found["fight refused"] = seated.post(f"/c/{c}/fights", data={"with": [table.names[1]]})
    if role == "gm":
        found["invite made"] = seated.post(
            f"/c/{c}/invites", data={"role": "player", "character": table.names[1]}
        )
        found["feed made"] = seated.post(f"/c/{c}/feeds", data={"lang": lang})
    return {
        name: visible_text(answer.text)
        for name, answer in found.items()
        if answer.status_code != 303
    }


def _leaks_of(table: Table, lang: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}

    def check(where: str, text: str) -> None:
        leaked = find_leaks(shown_words(text), lang, table.names)
        if leaked:
            found[where] = leaked

    for role in ROLES:
        client = _client(table, role, lang)
        for path in _pages(table):
            check(f"{role} {path}", _read(client, path))
        for name, text in _posted(table, role, lang).items():
            check(f"{role} {name}", text)
    invite = access.invite(table.store, table.played.campaign_id, "player", table.names[1])
    stranger = _client(table, "signed-out", lang)
    check(f"invite page /invite/{invite.token}", _read(stranger, f"/invite/{invite.token}"))
    check("host page", _read(stranger, f"/host/{HOST}"))
    check("a used invite", visible_text(stranger.post("/invite/" + "x" * 43).text))
    campaign = table.store.campaign_by_id(table.played.campaign_id)
    made = seat.make_feed(table.store, Viewer(campaign.id, "gm"), campaign, lang)
    check("feed", _read(stranger, f"/feeds/{made.token}"))  # in the language it was made in
    return found


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_web_page_for_every_role_speaks_one_language(table: Table, lang: str) -> None:
    """Issue 30.5: no identifier of the code, no word of the other language, on any page any
    role reads, in French and in English, for each system and the example plug-in."""
    found = _leaks_of(table, lang)
    words = sorted({word for leaked in found.values() for word in leaked})
    shown = "\n".join(f"  {where}: {', '.join(leaked)}" for where, leaked in found.items())
    assert not found, f"{table.system}, {lang}: {len(words)} leaked: {words}\n{shown}"
