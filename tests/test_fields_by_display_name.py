"""Issue 30: a refused parameter is named the way the reader reads it, never by the code's
identifier: the web's roll and odds pages (and the API's message) say `dés`/`dice`, `Volonté`,
`VAL des figurines`; the JSON answer keeps `field` as the identifier; the command line names
the option the player typed (`--dice`). A yes/no value reads oui/non, yes/no."""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

import pytest

from cli_run import run, run_json
from jdr.errors import InputError
from jdr.i18n import language
from jdr.params import validate_params
from jdr.systems import default_registry
from web_helpers import HOST, join, unique


def _params(system: str, action: str) -> Any:
    return default_registry().get(system).actions[action].params


@pytest.mark.parametrize(
    ("system", "action", "raw", "field", "fr", "en"),
    [
        ("pokemon", "check", {}, "dice", "dés\u00a0: obligatoire", "dice: required"),
        (
            "pokemon",
            "attack",
            {},
            "attack_dice",
            "dés d'attaque\u00a0: obligatoire",
            "attack dice:",
        ),
        ("pokemon", "capture", {}, "ball", "Ball\u00a0: obligatoire", "ball: required"),
        (
            "plus-ultra",
            "attack",
            {},
            "willpower",
            "Volonté\u00a0: obligatoire",
            "Volonté: required",
        ),
        ("plus-ultra", "protect", {}, "protector_energy", "Énergie du protecteur\u00a0:", ""),
        ("poledemos", "test", {"val": "abc"}, "val", "VAL\u00a0: abc — ", "VAL: abc — "),
        ("poledemos", "hand", {}, "figures", "VAL des figurines\u00a0:", "figures' VALs:"),
        ("ilvermorny", "study", {}, "comprehension", "Compréhension\u00a0:", "Compréhension:"),
        ("ilvermorny", "duel", {}, "magic_a", "Magie du duelliste a\u00a0:", "duelist a's Magie:"),
        ("passion", "damage", {}, "damage", "dégâts\u00a0: obligatoire", "damage: required"),
    ],
)
def test_a_refused_parameter_is_named_by_its_display_name(
    system: str, action: str, raw: dict[str, str], field: str, fr: str, en: str
) -> None:
    for lang, expected in (("fr", fr), ("en", en)):
        with language(lang):
            with pytest.raises(InputError) as caught:
                validate_params(_params(system, action), raw)
            message = caught.value.message()
        assert caught.value.field == field  # the JSON answer's key stays the identifier
        assert message.startswith(expected), message
        if lang == "fr" and "_" in field:
            assert field not in message


def test_a_duelist_spec_is_named_in_the_readers_words() -> None:
    """PU-4: a side of a Plus Ultra duel that misses a gauge lists the gauges in French."""
    with language("fr"):
        with pytest.raises(InputError) as caught:
            validate_params(_params("plus-ultra", "duel"), {"a": "rang=C", "b": "rang=D"})
        message = caught.value.message()
        assert caught.value.field == "a.energy" and message.startswith("camp a.Énergie\u00a0: ")
        with pytest.raises(InputError) as caught:
            validate_params(_params("plus-ultra", "duel"), {"a": "rang=C,force=2", "b": "rang=D"})
        assert "(permis\u00a0: rang, énergie, volonté)" in caught.value.message()


def test_il_4_an_unknown_stat_lists_the_stats_by_their_names() -> None:
    with language("fr"):
        with pytest.raises(InputError) as caught:
            validate_params(_params("ilvermorny", "create"), {"questionnaire": "chance=2"})
        message = caught.value.message()
    assert "Magie" in message and "Force physique" in message and "magic" not in message


def test_pd_8_all_followers_is_tous_in_french() -> None:
    """PD-8: the French help offers `tous`, and `tous` takes every follower along as `all` does."""
    import tomllib

    from jdr.i18n import _
    from jdr.sheet_check import systems_example
    from jdr.systems.poledemos.sheet_rolls import FigureUses, bind_activate

    with language("fr"):
        help_text = _(FigureUses.model_fields["followers"].description or "")
    assert help_text.endswith("ou tous") and "all" not in help_text
    sheet = tomllib.loads(systems_example("poledemos", "warband"))
    groups = {
        word: bind_activate(
            "activate", sheet, FigureUses(figure="Sergent Perry", followers=[word]), None
        ).values["group"]
        for word in ("all", "Tous")
    }
    assert groups == {"all": "4,5,5", "Tous": "4,5,5"}


def test_the_cli_names_the_option_the_player_typed(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "odds", "pokemon", "check", "--lang", "fr")
    assert code == 2 and "--dice\u00a0: obligatoire" in err
    code, payload = run_json(capsys, "odds", "pokemon", "check")
    assert code == 2 and payload["error"]["field"] == "--dice"


@pytest.fixture
def web(database_url: str) -> Iterator[tuple[Any, Any]]:
    from jdr.web.app import create_app

    app = create_app(database_url, host_token=HOST, invite_attempts=1000)
    store = app.state.store
    yield app, store
    store.close()


@pytest.mark.parametrize(
    ("system", "action", "query", "fr", "en"),
    [
        ("pokemon", "check", {}, "dés\u00a0: obligatoire", "dice: required"),
        ("pokemon", "counter", {}, "dés de l'attaquant\u00a0: obligatoire", "attacker's dice:"),
        ("plus-ultra", "protect", {}, "Énergie du protecteur\u00a0:", "protector's Énergie:"),
        ("ilvermorny", "cast", {"magic": "x"}, "Magie\u00a0: x — ", "Magie: x — "),
    ],
)
def test_the_odds_page_names_what_is_missing_in_the_readers_words(
    web: tuple[Any, Any], system: str, action: str, query: dict[str, str], fr: str, en: str
) -> None:
    app, store = web
    campaign = store.create_campaign(system, unique("Mardi"))
    player = join(app, store, campaign, "spectator")
    for lang, expected in (("fr", fr), ("en", en)):
        player.client.get(f"/lang/{lang}", follow_redirects=False)
        page = player.client.get(f"/c/{campaign}/odds", params={"action": action, **query})
        assert page.status_code == 200 and expected in html.unescape(page.text), page.text


def test_the_api_keeps_the_identifier_and_words_the_message(web: tuple[Any, Any]) -> None:
    app, store = web
    campaign = store.create_campaign("pokemon", unique("Mardi"))
    gm = join(app, store, campaign, "gm")
    gm.client.get("/lang/fr", follow_redirects=False)
    answer = gm.api(f"/api/c/{campaign}/roll", {"action": "attack", "params": {}})
    error = answer.json()["error"]
    assert answer.status_code == 422 and error["field"] == "attack_dice"
    assert error["message"].startswith("dés d'attaque\u00a0: obligatoire")


def test_ps_advice_shows_yes_or_no_never_a_raw_boolean(web: tuple[Any, Any]) -> None:
    """Passion's advice table has a yes/no column (sure to succeed): oui/non, yes/no."""
    app, store = web
    campaign = store.create_campaign("passion", unique("Mardi"))
    player = join(app, store, campaign, "spectator")
    query = {"action": "action", "dice": "4d6", "talent": "3", "difficulty": "2"}
    for lang, words in (("fr", ("non", "oui")), ("en", ("no", "yes"))):
        player.client.get(f"/lang/{lang}", follow_redirects=False)
        page = player.client.get(f"/c/{campaign}/odds", params=query)
        cells = page.text.split('<table class="advice">', 1)[1].split("</table>", 1)[0]
        assert page.status_code == 200 and "False" not in cells and "True" not in cells
        assert f"<td>{words[0]}</td>" in cells or f"<td>{words[1]}</td>" in cells
