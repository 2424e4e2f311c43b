"""Characters in the browser (issue 32, part 4): the sheet form of every system, validated as
`jdr sheet add` validates a file with each problem beside its field; the GM's characters and
NPCs made, edited and undone as journaled revisions; TOML in and out; a player's own character
waiting for the GM's approval; and who may do what, each refusal tested.

The forms are submitted as a browser would submit them: every input the page holds, with its
value (`FormReader`), and the button pressed."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.testclient import TestClient

from jdr import access
from jdr.characters import service
from jdr.errors import InputError
from jdr.sheet_check import systems_example
from jdr.store import Store
from jdr.web.app import create_app
from web_helpers import HOST, Seat, csrf_of, join, unique

SYSTEMS = ("plus-ultra", "pokemon", "passion", "ilvermorny", "poledemos")


class FormReader(HTMLParser):
    """The fields of one form of a page (by its id), as a browser submits them: text inputs,
    hidden inputs, ticked boxes, each select's chosen option, textareas."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._first: str | None = None
        self._chosen: str | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = found.get("id") == self.form_id
        if not self.inside:
            return
        name = found.get("name")
        if tag == "input" and name:
            kind = found.get("type", "text")
            if kind == "checkbox":
                if "checked" in found:
                    self.fields.append((name, found.get("value") or "on"))
            elif kind not in ("submit", "file"):
                self.fields.append((name, found.get("value", "")))
        elif tag == "select" and name:
            self._select, self._first, self._chosen = name, None, None
        elif tag == "option" and self._select is not None:
            value = found.get("value", "")
            if self._first is None:
                self._first = value
            if "selected" in found:
                self._chosen = value
        elif tag == "textarea" and name:
            self._textarea, self._text = name, ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        if tag == "select" and self._select is not None:
            self.fields.append((self._select, self._chosen or self._first or ""))
            self._select = None
        if tag == "textarea" and self._textarea is not None:
            self.fields.append((self._textarea, self._text))
            self._textarea = None


def form_of(html: str, form_id: str = "sheet-form") -> list[tuple[str, str]]:
    reader = FormReader(form_id)
    reader.feed(html)
    assert reader.fields, f"the page has a form #{form_id}"
    return reader.fields


def changed(fields: list[tuple[str, str]], **values: str) -> list[tuple[str, str]]:
    """The form with some inputs typed anew (`s_stats_strength` → `s.stats.strength`)."""
    wanted = {key.replace("__", "-").replace("_", "."): value for key, value in values.items()}
    return [(name, wanted.get(name, value)) for name, value in fields]


def visible(html: str) -> str:
    """The text a reader sees (tags, scripts and attribute values left out)."""
    body = html.split("<main", 1)[-1]
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", body, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


@pytest.fixture
def app(database_url: str) -> Iterator[Any]:
    made = create_app(database_url, host_token=HOST, invite_attempts=1000)
    yield made
    made.state.store.close()


def _gm(app: Any, system: str, lang: str = "en") -> tuple[Seat, int]:
    """A GM who created a campaign of `system` from the host page."""
    client = TestClient(app)
    client.cookies.set("jdr_lang", lang)
    made = client.post(
        f"/host/{HOST}", data={"name": unique("Mardi"), "system": system}, follow_redirects=False
    )
    assert made.status_code == 303, made.text
    campaign = int(made.headers["location"].rsplit("/", 1)[1])
    page = client.get(f"/c/{campaign}")
    return Seat(client, csrf_of(page.text)), campaign


def _submit(seat: Seat, path: str, fields: list[tuple[str, str]], op: str = "save") -> Any:
    body: dict[str, list[str]] = {"csrf": [seat.csrf], "_op": [op]}
    for name, value in fields:
        if name not in ("csrf", "_op"):
            body.setdefault(name, []).append(value)
    return seat.client.post(path, data=body, follow_redirects=False)


def _add_example(seat: Seat, campaign: int, start: str | None = None, **typed: str) -> Any:
    query = f"?start={start}" if start else ""
    page = seat.client.get(f"/c/{campaign}/sheets/new{query}")
    assert page.status_code == 200, page.text
    return _submit(seat, f"/c/{campaign}/sheets/new", changed(form_of(page.text), **typed))


# --- the form of every system ----------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_form_of_each_system_shows_display_names_and_no_identifier(
    app: Any, system: str, lang: str
) -> None:
    from jdr.systems import default_registry

    gm, campaign = _gm(app, system, lang)
    rules = default_registry().get(system)
    identifiers = set()
    for kind in getattr(rules, "examples", {}):
        for start in (f"example:{kind}", f"empty:{kind}"):
            page = gm.client.get(f"/c/{campaign}/sheets/new?start={start}")
            assert page.status_code == 200, page.text
            text = visible(page.text)
            identifiers |= {word for word in re.findall(r"\b[a-z]+_[a-z_]+\b", text)}
    assert not identifiers, f"identifiers shown to a reader: {sorted(identifiers)}"
    first = gm.client.get(f"/c/{campaign}/sheets/new").text
    words = {
        "plus-ultra": ("Techniques", "Volonté"),
        "pokemon": (("Moves", "Vitalité") if lang == "en" else ("Capacités", "Vitalité")),
        "passion": (("Weapons", "Talents") if lang == "en" else ("Armes", "Talents")),
        "ilvermorny": (("Spells",) if lang == "en" else ("Sorts",)),
        "poledemos": (("Figures",) if lang == "en" else ("Figurines",)),
    }[system]
    for word in words:
        assert word in first
    assert ("Add the character" if lang == "en" else "Ajouter le personnage") in first


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_systems_example_submitted_as_shown_is_the_example_stored(
    app: Any, system: str
) -> None:
    from jdr.sheet_check import sheet_of
    from jdr.systems import default_registry

    gm, campaign = _gm(app, system)
    rules = default_registry().get(system)
    store: Store = app.state.store
    for kind in getattr(rules, "examples", {}):
        table = tomllib.loads(systems_example(system, kind))
        name = f"{table.get('name') or kind} {kind}"
        added = _add_example(gm, campaign, f"example:{kind}", s_name=name)
        assert added.status_code == 303, added.text
        character = store.character_named(campaign, name)
        expected = sheet_of(rules, {**table, "name": name}).model_dump(mode="json")
        assert character.sheet == expected
        assert character.version == 1


def test_a_refused_sheet_shows_each_problem_beside_its_field_in_english(app: Any) -> None:
    gm, campaign = _gm(app, "pokemon")
    answer = _add_example(
        gm, campaign, "example:pokemon", s_stats_strength="x", s_vitality_current="99"
    )
    assert answer.status_code == 422
    html = answer.text
    assert 'id="f-s-stats-strength-error"' in html
    strength = html.split('id="f-s-stats-strength"', 1)[1].split("</div>", 1)[0]
    assert "whole number" in strength
    assert 'id="f-s-vitality-current-error"' in html
    assert 'value="x"' in html  # what was typed stays
    assert "The sheet has 2 problems" in html
    assert not app.state.store.characters(campaign)


def test_a_refused_sheet_speaks_french_beside_its_field(app: Any) -> None:
    gm, campaign = _gm(app, "plus-ultra", "fr")
    answer = _add_example(gm, campaign, "example:hero", s_willpower="12")
    assert answer.status_code == 422
    problem = re.search(r'id="f-s-willpower-error">([^<]+)<', answer.text)
    assert problem is not None
    assert "PU-2" in problem.group(1) and "Volonté" in problem.group(1)
    assert "problème" in answer.text


def test_an_empty_form_says_what_is_missing_beside_each_field(app: Any) -> None:
    gm, campaign = _gm(app, "ilvermorny")
    answer = _add_example(gm, campaign, "empty:wizard")
    assert answer.status_code == 422
    assert 'id="f-s-name-error"' in answer.text
    assert 'id="f-s-stats-magic-error"' in answer.text


def test_add_and_remove_change_the_form_without_saving(app: Any) -> None:
    gm, campaign = _gm(app, "plus-ultra")
    page = gm.client.get(f"/c/{campaign}/sheets/new?start=example:hero")
    fields = form_of(page.text)
    before = page.text.count('class="card sheet-item')
    more = _submit(gm, f"/c/{campaign}/sheets/new", fields, "add:s.techniques")
    assert more.status_code == 200
    assert more.text.count('class="card sheet-item') == before + 1
    less = _submit(gm, f"/c/{campaign}/sheets/new", form_of(more.text), "remove:s.techniques.0")
    assert less.text.count('class="card sheet-item') == before
    assert "Poing Tempête" not in less.text  # the first technique left
    assert not app.state.store.characters(campaign)
    saved = _submit(gm, f"/c/{campaign}/sheets/new", form_of(less.text))
    assert saved.status_code == 303, saved.text  # the added blank item is left out
    sheet = app.state.store.characters(campaign)[0].sheet
    assert [t["name"] for t in sheet["techniques"]] == ["Rafale", "Gantelets lestés"]


def test_skills_are_rows_a_gm_adds_and_removes(app: Any) -> None:
    gm, campaign = _gm(app, "pokemon")
    page = gm.client.get(f"/c/{campaign}/sheets/new?start=example:trainer")
    fields = form_of(page.text)
    keys = [v for k, v in fields if k.startswith("s.skills.") and k.endswith(".key")]
    assert keys == ["Escalade", "Athlétisme", "Dressage", ""]  # a blank row to add one
    fields = changed(fields, s_skills_3_key="Pêche", s_skills_3_value="2")
    fields = [(k, "" if k == "s.skills.0.key" else v) for k, v in fields]  # one removed
    saved = _submit(gm, f"/c/{campaign}/sheets/new", fields)
    assert saved.status_code == 303, saved.text
    skills = app.state.store.characters(campaign)[0].sheet["skills"]
    assert skills == {"Athlétisme": 2, "Dressage": 1, "Pêche": 2}


# --- edit, undo, TOML ------------------------------------------------------------------------


def _history(app: Any, campaign: int, name: str) -> list[str]:
    from jdr.characters.views import history

    store: Store = app.state.store
    found = store.campaign_by_id(campaign)
    return [line.kind for line in history(store, found, name)[1]]


def test_the_gm_edits_and_undoes_as_journaled_revisions(app: Any) -> None:
    gm, campaign = _gm(app, "ilvermorny")
    added = _add_example(gm, campaign)
    character_id = int(added.headers["location"].rsplit("/", 1)[1])
    edit = gm.client.get(f"/c/{campaign}/sheets/{character_id}/edit")
    assert edit.status_code == 200
    first = gm.client.get(f"/c/{campaign}/sheets/{character_id}")
    assert 'data-testid="undo-sheet"' not in first.text  # nothing to undo yet
    saved = _submit(
        gm, f"/c/{campaign}/sheets/{character_id}/edit", changed(form_of(edit.text), s_year="3")
    )
    assert saved.status_code == 303, saved.text
    store: Store = app.state.store
    assert store.character(character_id).sheet["year"] == 3
    sheet_page = gm.client.get(f"/c/{campaign}/sheets/{character_id}")
    assert 'data-testid="undo-sheet"' in sheet_page.text
    undone = gm.post(f"/c/{campaign}/sheets/{character_id}/undo")
    assert undone.status_code == 303
    assert store.character(character_id).sheet["year"] == 2
    assert _history(app, campaign, "Seraphina Quill") == ["created", "edited", "undone"]
    kinds = [row.entry["context"]["action"] for row in store.journal(campaign)]
    assert kinds == ["sheet.created", "sheet.edited", "sheet.undone"]


def test_a_refused_edit_keeps_the_sheet_and_says_why_beside_the_field(app: Any) -> None:
    gm, campaign = _gm(app, "poledemos")
    character_id = int(_add_example(gm, campaign).headers["location"].rsplit("/", 1)[1])
    edit = gm.client.get(f"/c/{campaign}/sheets/{character_id}/edit")
    refused = _submit(
        gm,
        f"/c/{campaign}/sheets/{character_id}/edit",
        changed(form_of(edit.text), s_figures_0_val="9+"),
    )
    assert refused.status_code == 422
    assert 'id="f-s-figures-0-val-error"' in refused.text
    assert app.state.store.character(character_id).version == 1


def test_toml_exported_and_imported_is_the_same_sheet(app: Any) -> None:
    gm, campaign = _gm(app, "passion")
    character_id = int(_add_example(gm, campaign).headers["location"].rsplit("/", 1)[1])
    exported = gm.client.get(f"/c/{campaign}/sheets/{character_id}/toml")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["content-disposition"]
    text = exported.text
    assert tomllib.loads(text)["system"] == "passion"
    other, second = _gm(app, "passion")
    uploaded = other.client.post(
        f"/c/{second}/sheets/import",
        data={"csrf": other.csrf},
        files={"file": ("romuald.toml", text.encode(), "application/toml")},
        follow_redirects=False,
    )
    assert uploaded.status_code == 303, uploaded.text
    store: Store = app.state.store
    assert store.characters(second)[0].sheet == store.character(character_id).sheet
    pasted = other.post(
        f"/c/{second}/sheets/import", data={"toml": text.replace("Romuald", "Romualda")}
    )
    assert pasted.status_code == 303, pasted.text
    over = other.client.post(
        f"/c/{second}/sheets/{store.characters(second)[0].id}/import",
        data={"csrf": other.csrf},
        files={"file": ("x.toml", text.replace("Blast = 7", "Blast = 8").encode(), "text/plain")},
        follow_redirects=False,
    )
    assert over.status_code == 303, over.text
    assert store.characters(second)[0].sheet["talents"]["Blast"] == 8
    assert store.characters(second)[0].version == 2


def test_a_broken_toml_import_says_where(app: Any) -> None:
    gm, campaign = _gm(app, "plus-ultra")
    refused = gm.post(f"/c/{campaign}/sheets/import", data={"toml": 'name = "Kai\nrank = C'})
    assert refused.status_code == 422
    assert "line" in refused.text
    wrong = gm.post(
        f"/c/{campaign}/sheets/import", data={"toml": systems_example("pokemon", "pokemon")}
    )
    assert wrong.status_code == 422
    assert "pokemon" in wrong.text and not app.state.store.characters(campaign)


# --- a player's own character ----------------------------------------------------------------


def _invite_creating(gm: Seat, campaign: int) -> str:
    made = gm.post(f"/c/{campaign}/invites", data={"role": "player", "creates": "true"})
    assert made.status_code == 200, made.text
    link = re.search(r'value="[^"]*/invite/([^"]+)"', made.text)
    assert link is not None
    return link.group(1)


def test_a_player_creates_their_character_and_the_gm_approves_it(app: Any) -> None:
    gm, campaign = _gm(app, "plus-ultra")
    assert 'data-testid="add-character"' in gm.client.get(f"/c/{campaign}").text
    _add_example(gm, campaign, "example:villain")
    token = _invite_creating(gm, campaign)
    player = TestClient(app)
    assert player.post(f"/invite/{token}", follow_redirects=False).status_code == 303
    home = player.get(f"/c/{campaign}")
    assert 'data-testid="create-character"' in home.text
    seat = Seat(player, csrf_of(home.text))
    taken = _add_example(seat, campaign, "example:hero", s_name="maitre corbeau")
    assert taken.status_code == 422 and 'id="f-s-name-error"' in taken.text
    sent = _add_example(seat, campaign, "example:hero", s_name="Mei")
    assert sent.status_code == 303, sent.text
    store: Store = app.state.store
    assert [c.name for c in store.characters(campaign)] == ["Maître Corbeau"]  # not usable yet
    assert "waits for the GM" in player.get(f"/c/{campaign}").text
    fight = gm.post(f"/c/{campaign}/fights", data={"with": ["Maître Corbeau", "Mei"]})
    assert fight.status_code >= 400  # a waiting sheet is in no fight
    pending = store.pending_sheets(campaign)
    assert [p.name for p in pending] == ["Mei"]
    board = gm.client.get(f"/c/{campaign}").text
    assert 'data-testid="pending-Mei"' in board
    shown = gm.client.get(f"/c/{campaign}/pending/{pending[0].id}")
    assert shown.status_code == 200 and "Poing Tempête" in shown.text
    approved = gm.post(f"/c/{campaign}/pending/{pending[0].id}/approve")
    assert approved.status_code == 303
    mei = store.character_named(campaign, "Mei")
    assert _history(app, campaign, "Mei") == ["created"]
    page = player.get(f"/c/{campaign}").text
    assert "Mei" in page.split("<main", 1)[0]  # the header names the player's character
    assert 'data-testid="create-character"' not in page
    edit = player.get(f"/c/{campaign}/sheets/{mei.id}/edit")
    assert edit.status_code == 200
    again = gm.post(f"/c/{campaign}/pending/{pending[0].id}/approve")
    assert again.status_code == 404


def test_a_refused_sheet_lets_the_player_send_another(app: Any) -> None:
    gm, campaign = _gm(app, "pokemon")
    player = TestClient(app)
    player.post(f"/invite/{_invite_creating(gm, campaign)}", follow_redirects=False)
    seat = Seat(player, csrf_of(player.get(f"/c/{campaign}").text))
    assert _add_example(seat, campaign, "example:trainer").status_code == 303
    store: Store = app.state.store
    pending = store.pending_sheets(campaign)[0]
    assert gm.post(f"/c/{campaign}/pending/{pending.id}/refuse").status_code == 303
    assert not store.pending_sheets(campaign) and not store.characters(campaign)
    page = player.get(f"/c/{campaign}").text
    assert "refused" in page and 'data-testid="create-character"' in page
    invalid = _add_example(seat, campaign, "example:trainer", s_stats_strength="0")
    assert invalid.status_code == 422 and 'id="f-s-stats-strength-error"' in invalid.text


def test_the_cli_invite_asks_for_a_character(app: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from cli_run import answer, run_json

    store: Store = app.state.store
    name = unique("Mardi")
    campaign = store.create_campaign("plus-ultra", name)
    db = str(store.engine.url.render_as_string(hide_password=False))
    made = answer(
        capsys, "campaign", "invite", name, "--role", "player", "--create-character", "--db", db
    )["invite"]
    assert made["creates"] is True and made["character"] is None
    assert store.invites(campaign)[0].creates
    player = TestClient(app)
    token = made["link"].rsplit("/", 1)[1]
    assert player.post(f"/invite/{token}", follow_redirects=False).status_code == 303
    assert 'data-testid="create-character"' in player.get(f"/c/{campaign}").text
    code, refused = run_json(
        capsys, "campaign", "invite", name, "--role", "spectator", "--create-character", "--db", db
    )
    assert code == 2 and refused["error"]["field"] == "--create-character"
    with pytest.raises(InputError):
        access.invite(store, campaign, "player", "Kaito", creates=True)


# --- who may do what -------------------------------------------------------------------------


def test_each_role_is_refused_what_is_not_theirs(app: Any) -> None:
    gm, campaign = _gm(app, "plus-ultra")
    hero = int(_add_example(gm, campaign, "example:hero").headers["location"].rsplit("/", 1)[1])
    villain = int(
        _add_example(gm, campaign, "example:villain").headers["location"].rsplit("/", 1)[1]
    )
    store: Store = app.state.store
    kaito = join(app, store, campaign, "player", "Kaito Arashi")
    spectator = join(app, store, campaign, "spectator")
    creator = TestClient(app)
    creator.post(f"/invite/{_invite_creating(gm, campaign)}", follow_redirects=False)
    creating = Seat(creator, csrf_of(creator.get(f"/c/{campaign}").text))
    assert _add_example(creating, campaign, "example:hero", s_name="Mei").status_code == 303
    pending = store.pending_sheets(campaign)[0].id
    edit_form = form_of(gm.client.get(f"/c/{campaign}/sheets/{villain}/edit").text)
    # a player: not another's sheet, no undo, no approval, no new character
    assert kaito.client.get(f"/c/{campaign}/sheets/{villain}/edit").status_code == 403
    assert _submit(kaito, f"/c/{campaign}/sheets/{villain}/edit", edit_form).status_code == 403
    assert kaito.post(f"/c/{campaign}/sheets/{hero}/undo").status_code == 403
    assert kaito.post(f"/c/{campaign}/pending/{pending}/approve").status_code == 403
    assert kaito.post(f"/c/{campaign}/pending/{pending}/refuse").status_code == 403
    assert kaito.client.get(f"/c/{campaign}/pending/{pending}").status_code == 403
    assert kaito.client.get(f"/c/{campaign}/sheets/new").status_code == 403
    assert kaito.post(f"/c/{campaign}/sheets/import", data={"toml": "x"}).status_code == 403
    assert kaito.client.get(f"/c/{campaign}/sheets/{hero}/edit").status_code == 200  # their own
    # the creating player: no second character once approved, no one else's sheet
    assert creating.post(f"/c/{campaign}/pending/{pending}/approve").status_code == 403
    # a spectator reads only
    assert spectator.client.get(f"/c/{campaign}/sheets/new").status_code == 403
    assert _add_example(gm, campaign, "example:hero", s_name="X").status_code == 303
    assert _submit(spectator, f"/c/{campaign}/sheets/new", [("s.name", "Y")]).status_code == 403
    assert spectator.client.get(f"/c/{campaign}/sheets/{hero}/edit").status_code == 403
    assert spectator.post(f"/c/{campaign}/sheets/{hero}/undo").status_code == 403
    assert (
        spectator.post(f"/c/{campaign}/sheets/{hero}/import", data={"toml": "x"}).status_code == 403
    )
    assert spectator.client.get(f"/c/{campaign}/sheets/{hero}/toml").status_code == 200
    # another campaign's GM sees nothing of this one
    stranger, _other = _gm(app, "plus-ultra")
    assert stranger.client.get(f"/c/{campaign}/sheets/{hero}/edit").status_code == 403
    assert stranger.post(f"/c/{campaign}/pending/{pending}/approve").status_code == 403
    assert store.character(hero).version == 1 and store.character(villain).version == 1


@pytest.mark.parametrize(
    "path",
    [
        "sheets/new",
        "sheets/import",
        "sheets/{id}/edit",
        "sheets/{id}/undo",
        "sheets/{id}/import",
        "pending/{pending}/approve",
        "pending/{pending}/refuse",
    ],
)
def test_every_state_change_needs_the_csrf_token(app: Any, path: str) -> None:
    gm, campaign = _gm(app, "plus-ultra")
    hero = int(_add_example(gm, campaign).headers["location"].rsplit("/", 1)[1])
    store: Store = app.state.store
    player = TestClient(app)
    player.post(f"/invite/{_invite_creating(gm, campaign)}", follow_redirects=False)
    seat = Seat(player, csrf_of(player.get(f"/c/{campaign}").text))
    _add_example(seat, campaign, "example:villain")
    pending = store.pending_sheets(campaign)[0].id
    url = f"/c/{campaign}/" + path.format(id=hero, pending=pending)
    answer = gm.client.post(url, data={"s.name": "Kai", "toml": "x"}, follow_redirects=False)
    assert answer.status_code == 403
    assert "CSRF" in answer.text
    multipart = gm.client.post(
        url, files={"file": ("x.toml", b"x")}, data={"csrf": "0" * 64}, follow_redirects=False
    )
    assert multipart.status_code == 403
    assert store.character(hero).version == 1 and store.pending_sheets(campaign)


def test_a_body_over_the_limit_is_refused_before_any_route(database_url: str) -> None:
    app = create_app(database_url, host_token=HOST, max_body=4096)
    try:
        gm, campaign = _gm(app, "plus-ultra")
        big = gm.client.post(
            f"/c/{campaign}/sheets/import",
            data={"csrf": gm.csrf},
            files={"file": ("x.toml", b"a" * 10_000)},
        )
        assert big.status_code == 413
        assert not app.state.store.characters(campaign)
    finally:
        app.state.store.close()


# --- the host page, and a name given at `sheet add` ------------------------------------------


def test_the_host_page_creates_a_campaign_by_the_systems_display_name(app: Any) -> None:
    client = TestClient(app)
    client.cookies.set("jdr_lang", "fr")
    page = client.get(f"/host/{HOST}")
    assert page.status_code == 200
    assert "Pokémon" in page.text
    gm, campaign = _gm(app, "pokemon", "fr")
    board = gm.client.get(f"/c/{campaign}").text
    assert "Ajouter un personnage" in board and "MJ" in board.split("<main", 1)[0]


def test_a_sheet_added_under_another_name_says_that_name(app: Any) -> None:
    store: Store = app.state.store
    campaign = store.campaign_by_id(store.create_campaign("pokemon", unique("Mardi")))
    table = tomllib.loads(systems_example("pokemon", "pokemon"))
    revised = service.add(store, campaign, table, "Évoli")
    assert revised.character is not None
    assert revised.character.name == "Évoli"
    assert revised.character.sheet["name"] == "Évoli"
    assert revised.character.sheet["species"] == "Pikachu"
