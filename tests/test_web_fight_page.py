"""Issue 32.2 and 32.3 at the HTTP level: the fight page shows each fighter as a card through its
system's own view (gauges with current/max, chips, knocked out greyed), the order of play, the
story in rounds with its dice; each command a button with its odds, targets among the standing
fighters enemies first; a refused command keeps what was typed; the GM undoes and redoes, the
players and the spectators may not."""

from __future__ import annotations

import html
import re
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest

from jdr.access import Viewer
from jdr.characters import service
from jdr.dice.source import GivenFaces
from jdr.fights import service as fights
from jdr.sheet_check import systems_example
from jdr.store import Store
from jdr.systems import default_registry
from jdr.table import command_odds
from web_helpers import Seat, example_table, join

KAITO, AIKO, CORBEAU, NOX = "Kaito Arashi", "Aiko", "Maître Corbeau", "Nox"


@pytest.fixture
def table(database_url: str) -> Iterator[tuple[Any, Store, int, str]]:
    """A Plus Ultra fight of Kaito and Aiko (side a) against Corbeau and Nox (side b), in which
    Corbeau was knocked out: the app, its store, the campaign, the fight's path."""
    app, store, campaign_id = example_table(database_url, "Page", "plus-ultra", ("hero", "villain"))
    campaign = store.campaign_by_id(campaign_id)
    service.add(
        store, campaign, tomllib.loads(systems_example("plus-ultra", "hero")) | {"name": AIKO}
    )
    villain = tomllib.loads(systems_example("plus-ultra", "villain"))
    service.add(store, campaign, villain | {"name": NOX})
    from jdr.table import start_fight

    sides = {KAITO: "a", AIKO: "a", CORBEAU: "b", NOX: "b"}
    fight = start_fight(store, Viewer(campaign_id, "gm"), campaign, list(sides), sides)
    knock_out(store, fight, CORBEAU)
    yield app, store, campaign_id, f"/c/{campaign_id}/fights/{fight}"
    store.close()


def knock_out(store: Store, fight: int, victim: str) -> None:
    """Side a attacks `victim` with 20s until it is knocked out, side b defends, until side a
    plays again."""
    rules = default_registry().get("plus-ultra").fight
    assert rules is not None
    for _ in range(20):
        state = fights.state(store, fight, rules)
        actor = state["turn"]
        if state["characters"][victim]["ko"] and state["characters"][actor]["side"] == "a":
            break
        if state["characters"][actor]["side"] == "a":
            command = {"action": "attack", "actor": actor, "target": victim}
            fights.act(store, fight, rules, command, rng=GivenFaces([20]))
        else:
            fights.act(store, fight, rules, {"action": "defend", "actor": actor})
    assert fights.state(store, fight, rules)["characters"][victim]["ko"]


def to_play(store: Store, path: str) -> str:
    rules = default_registry().get("plus-ultra").fight
    assert rules is not None
    return str(fights.state(store, int(path.rsplit("/", 1)[1]), rules)["turn"])


def card(page: str, name: str) -> str:
    found = re.search(
        rf'<li class="([^"]*)" data-fighter="{re.escape(name)}">(.*?)</li>\n', page, re.S
    )
    assert found, name
    return found.group(1) + found.group(2)


def form_of(page: str, actor: str, command: str) -> str:
    for form in re.findall(r"<form [^>]*class=\"command[^\"]*\".*?</form>", page, re.S):
        if f'data-command="{command}"' in form and f'name="actor" value="{actor}"' in form:
            return str(form)
    raise AssertionError((actor, command))


def test_each_fighter_is_a_card_with_gauges_chips_and_ko_greyed(table: Any) -> None:
    app, store, campaign_id, path = table
    page = join(app, store, campaign_id, "spectator").client.get(path).text
    kaito, corbeau = card(page, KAITO), card(page, CORBEAU)
    assert "card fighter" in kaito and " ko" not in kaito.split(">")[0]
    assert "card fighter ko" in corbeau, "a knocked-out fighter is greyed"
    # PU-1: Énergie and Volonté as bars, their numbers beside them
    assert 'role="meter" aria-valuemin="0" aria-valuemax="8" aria-valuenow="8"' in kaito
    assert "Énergie 8/8" in kaito and "Volonté 8/8" in kaito
    assert 'aria-valuenow="0"' in corbeau and 'class="v-0"' in corbeau
    # PU-7: techniques as chips, ready or cooling; KO as a condition
    assert '<li class="chip ready">Poing Tempête ready</li>' in kaito
    assert re.search(r'<li class="chip cooling">Bec d&#39;acier \d/3</li>', corbeau) or (
        '<li class="chip ready">Bec d&#39;acier ready</li>' in corbeau
    )
    assert '<li class="chip condition">KO</li>' in corbeau
    assert "side a" in kaito and "side b" in corbeau
    # the order of play, the one to play highlighted, the knocked-out struck
    strip = page[page.index('class="strip order"') : page.index("</ol>", page.index("strip order"))]
    assert f'<li class="current" aria-current="step">{to_play(store, path)}</li>' in strip
    assert f'<li class="ko">{CORBEAU}</li>' in strip
    # the story in rounds, each attack's die beside its sentence, marked a hit
    assert '<section class="round" data-round="1">' in page and "Round 1" in page
    assert re.search(
        r'<span class="dice"[^>]*><span class="die success" aria-hidden="true">20</span>', page
    )
    french = join(app, store, campaign_id, "spectator").client.get(
        path, headers={"accept-language": "fr"}
    )
    assert "camp a" in french.text and "Manche 1" in french.text and "Ordre de jeu" in french.text


def test_targets_are_standing_fighters_enemies_first_never_an_ally_by_default(table: Any) -> None:
    app, store, campaign_id, path = table
    page = join(app, store, campaign_id, "gm").client.get(path).text
    actor = to_play(store, path)
    assert actor in (KAITO, AIKO)
    ally = AIKO if actor == KAITO else KAITO
    attack = form_of(page, actor, "attack")
    target = re.search(r'<select name="target">(.*?)</select>', attack, re.S)
    assert target
    options = re.findall(r"<option( selected)?>([^<]*)</option>", target.group(1))
    assert [html.unescape(name) for _s, name in options] == [NOX, ally]  # not Corbeau, not itself
    assert options[0][0] == " selected", "the first enemy standing is chosen"
    protector = re.search(r'<select name="protector">(.*?)</select>', attack, re.S)
    assert protector and " selected" not in protector.group(1), "no protector chosen for you"
    # a technique is filled in with one the sheet holds: one tap plays it
    technique = form_of(page, actor, "technique")
    assert re.search(r'name="technique" value="[^"]+"', technique)


def test_each_rolling_command_shows_its_exact_odds(table: Any) -> None:
    app, store, campaign_id, path = table
    gm = join(app, store, campaign_id, "gm")
    page = gm.client.get(path).text
    actor = to_play(store, path)
    commands: Any = getattr(default_registry().get("plus-ultra"), "fight_commands", None)
    rolling = {c.name for c in commands if c.odds}
    offered = set(re.findall(r'data-command="([^"]+)"', page))
    assert offered & rolling
    for command in offered:
        form = form_of(page, actor, command)
        assert ('class="odds"' in form) == (command in rolling), command
        assert f'hx-get="{path}/odds"' in form or command not in rolling
    asked = {"actor": actor, "command": "attack", "target": NOX}
    shown = gm.client.get(f"{path}/odds", params=asked)
    campaign = store.campaign_by_id(campaign_id)
    fight = int(path.rsplit("/", 1)[1])
    expected = command_odds(
        store, Viewer(campaign_id, "gm"), campaign, fight, actor, "attack", {"target": NOX}
    )
    assert shown.status_code == 200 and html.escape(expected.said()) in shown.text
    assert "chance to hit" in shown.text


def test_a_refused_command_keeps_what_was_typed_and_says_why_beside_it(table: Any) -> None:
    app, store, campaign_id, path = table
    gm = join(app, store, campaign_id, "gm")
    page = gm.client.get(path).text
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version
    actor = to_play(store, path)
    typed = {"actor": actor, "command": "technique", "technique": "Tornade Imaginaire",
             "target": NOX, "version": version.group(1)}  # fmt: skip
    swapped = gm.post(path, data=typed, headers={"HX-Request": "true"})
    assert swapped.status_code in (409, 422), swapped.text
    assert "<html" not in swapped.text and swapped.text.startswith('<div id="fight-forms"')
    refused = form_of(swapped.text, actor, "technique")
    assert 'class="command refused"' in refused and 'role="alert"' in refused
    assert 'value="Tornade Imaginaire"' in refused
    assert f"<option selected>{NOX}</option>" in refused
    whole = gm.post(path, data=typed)  # without htmx: the whole page, the input kept
    assert whole.status_code == swapped.status_code and "<html" in whole.text
    assert 'value="Tornade Imaginaire"' in form_of(whole.text, actor, "technique")


def test_a_command_played_with_htmx_answers_the_forms_and_refreshes_the_board(table: Any) -> None:
    app, store, campaign_id, path = table
    gm = join(app, store, campaign_id, "gm")
    actor = to_play(store, path)
    played = gm.post(
        path, data={"actor": actor, "command": "defend"}, headers={"HX-Request": "true"}
    )
    assert played.status_code == 200 and played.text.startswith('<div id="fight-forms"')
    assert played.headers["HX-Trigger"] == f"jdr-fight-{path.rsplit('/', 1)[1]}"
    assert to_play(store, path) != actor


def undo_count(store: Store, path: str) -> int:
    return sum(e.event.get("type") == "undone" for e in store.events(int(path.rsplit("/", 1)[1])))


def test_the_gm_undoes_and_redoes_from_the_page_journaled(table: Any) -> None:
    app, store, campaign_id, path = table
    gm = join(app, store, campaign_id, "gm")
    assert 'id="undo"' in gm.client.get(path).text and 'id="redo"' in gm.client.get(path).text
    entries = store.journal_length(campaign_id)
    for _ in range(2):  # Nox's defence, then the knock-out
        undone = gm.post(f"{path}/undo")
        assert undone.status_code == 303
    assert undo_count(store, path) == 2
    assert store.journal_length(campaign_id) == entries + 2, "an undo is journaled"
    page = gm.client.get(path).text
    assert 'class="undone"' in page and "Undone: action" in page
    assert "card fighter ko" not in card(page, CORBEAU), "the knock-out was taken back"
    for _ in range(2):
        redone = gm.post(f"{path}/redo")
        assert redone.status_code == 303
    assert "card fighter ko" in card(gm.client.get(path).text, CORBEAU)
    nothing = gm.post(f"{path}/redo")
    assert nothing.status_code == 409 and "nothing to redo" in nothing.text
    assert 'id="undo"' in nothing.text, "the page, with why beside the buttons"


@pytest.mark.parametrize("role", ["player", "spectator"])
def test_players_and_spectators_may_not_undo_or_redo(table: Any, role: str) -> None:
    app, store, campaign_id, path = table
    seat: Seat = join(app, store, campaign_id, role, KAITO if role == "player" else None)
    assert 'id="undo"' not in seat.client.get(path).text
    before = len(store.events(int(path.rsplit("/", 1)[1])))
    for move in ("undo", "redo"):
        refused = seat.post(f"{path}/{move}")
        assert refused.status_code == 403, (role, move, refused.text)
        assert "only the GM may do this" in refused.text
    assert len(store.events(int(path.rsplit("/", 1)[1]))) == before


def test_undo_needs_the_pages_csrf_token(table: Any) -> None:
    app, store, campaign_id, path = table
    gm = join(app, store, campaign_id, "gm")
    forged = gm.client.post(f"{path}/undo", data={"csrf": "0" * 64}, follow_redirects=False)
    assert forged.status_code == 403 and undo_count(store, path) == 0


def test_a_plugins_fighter_is_a_card_through_its_own_view(database_url: str) -> None:
    from jdr.web.app import create_app
    from web_helpers import HOST, unique
    from web_leak_tables import play_table, with_plugin

    with_plugin()
    app = create_app(database_url, host_token=HOST, invite_attempts=1000)
    store: Store = app.state.store
    played = play_table(store, "ombres", unique("Ombres"))
    page = (
        join(app, store, played.campaign_id, "gm")
        .client.get(f"/c/{played.campaign_id}/fights/{played.fight}")
        .text
    )
    corvo = card(page, "Corvo")
    assert 'role="meter"' in corvo and 'aria-valuemax="9"' in corvo  # its stress gauge
    assert "stress_max" not in page and "in_fight" not in page
    store.close()


def as_tapped(form: str) -> dict[str, str]:
    """What a form sends when its button is tapped as the page shows it (nothing typed): each
    input's value, each select's selected option (else its first), checkboxes left unticked."""
    sent = {}
    for tag in re.findall(r"<input [^>]*>", form):
        name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
        if name and 'type="checkbox"' not in tag:
            sent[name.group(1)] = html.unescape(value.group(1)) if value else ""
    for name, options in re.findall(r'<select name="([^"]+)">(.*?)</select>', form, re.S):
        chosen = re.search(r"<option[^>]*selected[^>]*>([^<]*)</option>", options)
        first = re.search(r'<option(?: value="([^"]*)")?[^>]*>([^<]*)</option>', options)
        if chosen:
            sent[name] = html.unescape(chosen.group(1))
        elif first:
            sent[name] = html.unescape(
                first.group(1) if first.group(1) is not None else first.group(2)
            )
    sent.pop("csrf", None)
    return sent


def test_ps_1_a_players_passion_attack_is_played_as_the_page_offers_it(database_url: str) -> None:
    """PS-1: a player's character rolls the dice its player says; the attack form says them
    already (its marker's worth of d6, the command's example), so one tap plays it — it was
    refused ("say which dice") when the page left the optional key empty. The initiative
    markers too are offered filled."""
    app, store, campaign_id = example_table(database_url, "Dés", "passion", ("cyber-ninja",))
    try:
        _mei_attacks(app, store, campaign_id)
    finally:
        store.close()


def _mei_attacks(app: Any, store: Store, campaign_id: int) -> None:
    campaign = store.campaign_by_id(campaign_id)
    service.add(store, campaign, tomllib.loads(systems_example("passion", "romuald")), name="Mei")
    from jdr.table import start_fight

    names = [c.name for c in store.characters(campaign_id)]
    fight = start_fight(store, Viewer(campaign_id, "gm"), campaign, names)
    path = f"/c/{campaign_id}/fights/{fight}"
    gm, player = join(app, store, campaign_id, "gm"), join(app, store, campaign_id, "player", "Mei")
    rules = default_registry().get("passion").fight
    assert rules is not None
    for _step in range(12):
        for seat in (player, gm):
            page = seat.client.get(path).text
            offered = re.findall(
                r'data-command="(choose_marker|attack|no_dodge|soak|settle)".*?'
                r'name="actor" value="([^"]+)"',
                page,
                re.S,
            )
            if offered:
                command, actor = offered[0]
                sent = as_tapped(form_of(page, actor, command))
                if command == "attack" and actor == "Mei":
                    assert re.fullmatch(r"\d+d6", sent["dice"]), sent
                played = seat.post(path, data=sent, headers={"HX-Request": "true"})
                assert played.status_code == 200, played.text
                if command == "attack" and actor == "Mei":
                    return
                break
    raise AssertionError("Mei never attacked")
