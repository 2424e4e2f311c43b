"""Issue 29: a stored fight knows how it ended (KO, rout, the GM's end, a draw) or that it can no
longer end by its rules, and says so everywhere — `fight show`, the recaps, the log, the web
page, the API, the feed and the webhook's announcements — offering no command once it has
ended; and an action is numbered within its fight (1, 2, 3 …), not by its events' seq."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer, run
from jdr.fights.ending import ending_of
from jdr.i18n import language
from jdr.store import Store
from test_cli_fight import SYSTEMS
from test_fight_recaps import play

STUCK = "the fight can no longer end by its rules: nobody can hurt anybody any more"
HINT = "The GM may end it: jdr fight end 1 --draw (or --winner NAME)."
DRAW = "The GM ended the fight: a draw."


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def spent_pokemon() -> str:
    """The example Pokémon sheet at 0 Énergie: none of its moves can be paid for (PK-10)."""
    text = (SYSTEMS / "pokemon" / "examples" / "pokemon.toml").read_text(encoding="utf-8")
    spent = text.replace("[energy]  # Énergie\ncurrent = 10", "[energy]  # Énergie\ncurrent = 0")
    assert spent != text
    return spent


def stuck_fight(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    """Fight 1 of campaign `C`: two Pokémon at 0 Énergie, neither suffering a condition."""
    sheet = tmp_path / "spent.toml"
    sheet.write_text(spent_pokemon(), encoding="utf-8")
    assert run(capsys, "campaign", "new", "C", "--system", "pokemon", "--db", db)[0] == 0
    for name in ("Pika", "Chu"):
        added = run(
            capsys, "sheet", "add", str(sheet), "--campaign", "C", "--name", name, "--db", db
        )
        assert added[0] == 0, added[2]
    answer(capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Chu", "--faces", "9,2",
           "--db", db)  # fmt: skip


def text(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    return out


def recap_body(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> list[str]:
    """The recap's lines before its journal footnote."""
    out = text(capsys, "fight", "recap", "1", *args, "--db", db)
    lines = out.rstrip("\n").splitlines()
    return [line for line in lines if "journal" not in line and line.strip()]


def test_pk_10_pk_16_a_stored_fight_that_can_no_longer_end_says_so_and_offers_the_gm_its_end(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    stuck_fight(capsys, db, tmp_path)
    shown = text(capsys, "fight", "show", "1", "--db", db)
    assert STUCK in shown.splitlines()[1]
    assert shown.splitlines()[-1] == HINT
    french = text(capsys, "fight", "show", "1", "--db", db, "--lang", "fr")
    assert "le combat ne peut plus finir selon ses règles" in french
    assert "Le MJ peut y mettre fin\u00a0: jdr fight end 1 --draw (ou --winner NOM)." in french
    payload = answer(capsys, "fight", "show", "1", "--db", db)
    assert (payload["stuck"], payload["ending"]) == (True, None)
    assert STUCK in recap_body(capsys, db, "--all")[-1]


def test_the_gms_draw_ends_a_stuck_fight_everywhere_and_offers_no_command(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    stuck_fight(capsys, db, tmp_path)
    ended = text(capsys, "fight", "end", "1", "--draw", "--db", db)
    assert ended.startswith(f"fight 1 ended\n{DRAW}\njournal #")
    shown = text(capsys, "fight", "show", "1", "--db", db)
    assert shown.splitlines()[1] == DRAW
    assert "legal commands" not in shown and "to play" not in shown and STUCK not in shown
    french = text(capsys, "fight", "show", "1", "--db", db, "--lang", "fr")
    assert french.splitlines()[1] == "Le MJ a mis fin au combat\u00a0: match nul."
    assert "commandes permises" not in french and "à jouer" not in french
    payload = answer(capsys, "fight", "show", "1", "--db", db)
    assert payload["ending"] == {"how": "draw", "winners": []}
    assert (payload["legal_commands"], payload["stuck"], payload["status"]) == ([], False, "ended")
    assert payload["pace"]["awaited"] == {}
    assert recap_body(capsys, db, "--all")[-1] == DRAW
    assert recap_body(capsys, db)[-1] == DRAW  # the last action's recap: the end itself
    assert recap_body(capsys, db, "--all", "--format", "bbcode", "--lang", "fr")[-1] == (
        "[b]Le MJ a mis fin au combat\u00a0: match nul.[/b]"
    )
    log = text(capsys, "fight", "log", "1", "--db", db).splitlines()
    assert log[-2:] == [f"#1    {DRAW}", "this fight has ended"]
    code, _out, err = run(capsys, "fight", "act", "1", "Pika", "move", "move=Éclair", "--db", db)
    assert (code, "has ended" in err) == (2, True)
    code, _out, err = run(capsys, "fight", "end", "1", "--winner", "Pika", "--db", db)
    assert (code, err) == (2, f"jdr: error: --winner: the fight has ended already ({DRAW})\n")


def test_the_gms_end_is_journaled_and_verifies(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    stuck_fight(capsys, db, tmp_path)
    ended = answer(capsys, "fight", "end", "1", "--winner", "pika", "--db", db)
    assert ended["ending"] == {"how": "gm", "winners": ["Pika"]}
    assert isinstance(ended["journal"]["seq"], int)
    exported = tmp_path / "c.json"
    assert run(capsys, "journal", "export", "C", "--output", str(exported), "--db", db)[0] == 0
    code, out, err = run(capsys, "verify", str(exported))
    assert code == 0, out + err


def test_poledemos_the_gms_end_names_a_winner_shown_in_every_recap_and_language(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """Polédémos has no end but the GM's: `fight end --winner NAME` names it, as the players
    spell it (or `--draw`); a name not in the fight, or a winner and a draw, are refused and
    end nothing."""
    play(capsys, db, "poledemos")
    code, _out, err = run(capsys, "fight", "end", "1", "--winner", "Zed", "--db", db)
    assert (code, "--winner" in err, "Alice" in err) == (2, True, True)
    code, _out, err = run(capsys, "fight", "end", "1", "--winner", "Alice", "--draw", "--db", db)
    assert code == 2
    assert answer(capsys, "fight", "show", "1", "--db", db)["status"] == "open"
    assert text(capsys, "fight", "end", "1", "--winner", "alice", "--db", db).startswith(
        "fight 1 ended\nThe GM ended the fight: Alice wins.\n"
    )
    shown = text(capsys, "fight", "show", "1", "--db", db, "--lang", "fr").splitlines()
    assert shown[1] == "Le MJ a mis fin au combat\u00a0: Alice l'emporte."
    assert not any("joue" in line or "commandes permises" in line for line in shown)
    for fmt, last in (
        ("text", "The GM ended the fight: Alice wins."),
        ("markdown", "**The GM ended the fight: Alice wins.**"),
        ("bbcode", "[b]The GM ended the fight: Alice wins.[/b]"),
    ):
        assert recap_body(capsys, db, "--all", "--format", fmt)[-1] == last
    payload = answer(capsys, "fight", "show", "1", "--db", db)
    assert payload["ending"] == {"how": "gm", "winners": ["Alice"]}
    assert payload["legal_commands"] == []


@pytest.mark.parametrize(
    ("state", "english", "french"),
    [
        (
            {"over": True, "winner": "a", "pokemon": {
                "Pika": {"name": "Pika", "side": "a", "ko": False},
                "Chu": {"name": "Chu", "side": "b", "ko": True}}},
            "The fight is over: Pika wins by KO.",
            "Le combat est terminé\u00a0: Pika l'emporte par KO.",
        ),
        (
            {"over": True, "winner": "a", "characters": {
                "Kaito": {"name": "Kaito", "side": "a", "ko": False, "escaped": False},
                "Aiko": {"name": "Aiko", "side": "a", "ko": False, "escaped": False},
                "Corbeau": {"name": "Corbeau", "side": "b", "ko": False, "escaped": True}}},
            "The fight is over: Kaito and Aiko win, the other side fled.",
            "Le combat est terminé\u00a0: Kaito et Aiko l'emportent, l'autre camp a fui.",
        ),
        (
            {"over": True, "winner": "Ann", "wizards": ["Ann", "Bob"]},
            "The fight is over: Ann wins.",
            "Le combat est terminé\u00a0: Ann l'emporte.",
        ),
        (
            {"over": True, "winners": ["Ann"], "fighters": {
                "Ann": {"name": "Ann", "broken": False},
                "Bob": {"name": "Bob", "broken": True}}},
            "The fight is over: Ann wins.",
            "Le combat est terminé\u00a0: Ann l'emporte.",
        ),
        (
            {"over": True, "winner": None, "fighters": {
                "Ann": {"name": "Ann", "side": "a", "down": True},
                "Bob": {"name": "Bob", "side": "b", "down": True}}},
            "The fight is over: nobody is left standing.",
            "Le combat est terminé\u00a0: plus personne n'est debout.",
        ),
    ],
)  # fmt: skip
def test_pk_13_pu_9_how_a_fight_ended_by_its_rules_is_told(
    state: dict[str, Any], english: str, french: str
) -> None:
    """KO when every fighter of the other sides is down (PK-13, Passion's down), rout when one
    fled (PU-9), else who won as the rules say it (an Ilvermorny duel, a plug-in's flags)."""
    ending = ending_of(state)
    assert ending is not None
    with language("en"):
        assert ending.sentence() == english
    with language("fr"):
        assert ending.sentence() == french


def test_actions_are_numbered_within_their_fight_in_undo_recaps_and_the_log(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """Five actions played: the fifth is action 5 (its events start at seq 16), undone and
    redone as such; one played after an undo takes the next number."""
    play(capsys, db, "plus-ultra")
    assert recap_body(capsys, db)[0] == "Fight 1 — action 5"
    assert recap_body(capsys, db, "--lang", "fr")[0] == "Combat 1 — action 5"
    assert text(capsys, "fight", "undo", "1", "--db", db).startswith("Undone: action 5 (")
    assert text(capsys, "fight", "undo", "1", "--db", db, "--lang", "fr").startswith(
        "Annulée\u00a0: action 4 ("
    )
    assert text(capsys, "fight", "redo", "1", "--db", db).startswith("Redone: action 4 (")
    answer(capsys, "fight", "act", "1", "Kaito", "no_interrupt", "--db", db)
    assert recap_body(capsys, db)[0] == "Fight 1 — action 6"
    logged = answer(capsys, "fight", "log", "1", "--db", db)["actions"]
    assert [a["number"] for a in logged] == [0, 1, 2, 3, 4, 5, None, None, None, 6]
    keys = [a["action"] for a in logged]  # the keys stay the events' seqs
    assert keys[0] == 1 and keys[1] > 2 and keys == sorted(keys)
    made = answer(capsys, "fight", "recap", "1", "--db", db)
    assert made["numbers"] == [6] and made["actions"] != [6]


# --- the web table, the feed and the webhook's words -------------------------------------


@pytest.fixture
def stuck_table(database_url: str) -> Iterator[tuple[Any, Store, int, int]]:
    """The web application and a Pokémon campaign whose fight (Pika against Chu, both at 0
    Énergie) can no longer end: the app, its store, the campaign's id, the fight's id."""
    from jdr import table
    from jdr.access import Viewer
    from jdr.characters import service
    from jdr.web.app import create_app
    from web_helpers import HOST, unique

    app = create_app(database_url, host_token=HOST, invite_attempts=1000)
    store: Store = app.state.store
    campaign_id = store.create_campaign("pokemon", unique("Endings"))
    campaign = store.campaign_by_id(campaign_id)
    for name in ("Pika", "Chu"):
        service.add(store, campaign, tomllib.loads(spent_pokemon()) | {"name": name})
    gm = Viewer(campaign_id, "gm")
    fight = table.start_fight(store, gm, campaign, ["Pika", "Chu"])
    yield app, store, campaign_id, fight
    store.close()


def test_the_web_page_shows_a_stuck_fight_and_the_gm_ends_it_with_a_button(
    stuck_table: tuple[Any, Store, int, int],
) -> None:
    from web_helpers import join

    app, store, campaign_id, fight = stuck_table
    gm = join(app, store, campaign_id, "gm")
    player = join(app, store, campaign_id, "player", "Pika")
    page = gm.client.get(f"/c/{campaign_id}/fights/{fight}").text
    assert STUCK in page and 'id="end-fight"' in page
    assert 'id="end-fight"' not in player.client.get(f"/c/{campaign_id}/fights/{fight}").text
    path = f"/c/{campaign_id}/fights/{fight}/end"
    assert player.post(path, data={"draw": "1"}).status_code == 403
    assert gm.post(path, data={"draw": "1"}).status_code == 303
    for seat in (gm, player):
        page = seat.client.get(f"/c/{campaign_id}/fights/{fight}").text
        assert DRAW in page and STUCK not in page
        assert 'class="command"' not in page and 'id="pace"' not in page
        assert 'id="end-fight"' not in page
    french = player.client.get(
        f"/c/{campaign_id}/fights/{fight}", headers={"Accept-Language": "fr"}
    ).text
    assert "Le MJ a mis fin au combat\u00a0: match nul." in french
    api = player.client.get(f"/api/c/{campaign_id}/fights/{fight}").json()
    assert api["ending"] == {"how": "draw", "winners": []}
    assert (api["legal_commands"], api["awaited"], api["stuck"]) == ([], {}, False)


def test_the_feed_and_the_webhook_announce_the_gms_end_by_its_action_number(
    stuck_table: tuple[Any, Store, int, int],
) -> None:
    from jdr import table
    from jdr.access import Viewer
    from jdr.live.announce import announcements

    _app, store, campaign_id, fight = stuck_table
    campaign = store.campaign_by_id(campaign_id)
    before = announcements(store, campaign, store.changes_after(campaign_id, 0, 100))
    assert before[-1].awaited is not None and STUCK[1:] in before[-1].awaited
    assert before[-1].title == f"Fight {fight}"  # the opening: no action number
    table.end_fight(store, Viewer(campaign_id, "gm"), campaign, fight, ["chu"])
    told = announcements(store, campaign, store.changes_after(campaign_id, 0, 100))
    last = [a for a in told if a.fight == fight][-1]
    assert last.title == f"Fight {fight}, action 1"
    assert last.lines == ("The GM ended the fight: Chu wins.",)
    assert "To play" not in last.text()
    assert "**Fight" in last.markdown() and "Chu wins" in last.slack()
    with language("fr"):
        french = announcements(store, campaign, store.changes_after(campaign_id, 0, 100))[-1]
    assert french.title == f"Combat {fight}, action 1"
    assert french.lines == ("Le MJ a mis fin au combat\u00a0: Chu l'emporte.",)
