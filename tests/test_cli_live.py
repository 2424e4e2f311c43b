"""Issue 20 from a terminal, through the real command line (SQLite and PostgreSQL): a fight
started with a turn deadline shows who is awaited and by when; `fight pace` changes it; `fight
late` plays the late turns (what a cron job runs for a table without a server); `campaign
webhook` and `campaign feed` set up the announcements; bad input is one clear line, exit 2."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cli_run import answer, run
from jdr.store import open_store
from test_cli_fight import campaign


def test_pu_5_a_paced_fight_from_the_terminal_and_its_late_turn(
    capsys: pytest.CaptureFixture[str], database_url: str
) -> None:
    db = database_url
    campaign(capsys, db, "plus-ultra", "hero.toml", "villain.toml")
    started = answer(capsys, "fight", "new", "--campaign", "C", "--with",
                     "Kaito Arashi,Maître Corbeau", "--deadline", "48h", "--db", db)  # fmt: skip
    fight = str(started["fight"])
    shown = answer(capsys, "fight", "show", fight, "--db", db)
    assert shown["pace"]["deadline"] == 172800 and shown["pace"]["on_late"] == "default"
    assert list(shown["pace"]["awaited"]) == ["Kaito Arashi"] and not shown["pace"]["late"]
    code, out, _err = run(capsys, "fight", "show", fight, "--db", db)
    assert code == 0 and "To play: Kaito Arashi — by" in out
    code, out, _err = run(capsys, "fight", "late", "--db", db)
    assert code == 0 and "No turn is late." in out
    code, out, _err = run(capsys, "fight", "pace", fight, "--deadline", "2j", "--on-late", "mj",
                          "--db", db, "--lang", "fr")  # fmt: skip
    assert code == 0 and "2 j par tour, puis le MJ décide" in out
    store = open_store(db)
    try:  # two days and an hour later
        record = store.fight(int(fight))
        assert record.turn_since is not None
        with store.engine.begin() as conn:
            from sqlalchemy import update

            from jdr.store.models import fights

            earlier = datetime.now(UTC) - timedelta(days=2, hours=1)
            conn.execute(update(fights).where(fights.c.id == int(fight)).values(turn_since=earlier))
    finally:
        store.close()
    late = answer(capsys, "fight", "late", "--campaign", "C", "--db", db)
    assert late == {"late": [{"fight": int(fight), "played": [], "gm_decides": ["Kaito Arashi"]}]}
    code, out, _err = run(capsys, "fight", "show", fight, "--db", db)
    assert "late since" in out and "the GM decides" in out
    answer(capsys, "fight", "pace", fight, "--on-late", "default", "--db", db)
    assert answer(capsys, "fight", "late", "--db", db) == {"late": []}  # its clock restarted


def test_bad_pace_input_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], database_url: str
) -> None:
    db = database_url
    campaign(capsys, db, "plus-ultra", "hero.toml", "villain.toml")
    fighters = "Kaito Arashi,Maître Corbeau"
    code, out, err = run(capsys, "fight", "new", "--campaign", "C", "--with", fighters,
                         "--deadline", "soon", "--db", db)  # fmt: skip
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "--deadline: soon is not allowed" in err and "48h" in err
    assert answer(capsys, "campaign", "show", "C", "--db", db)["fights"] == []  # nothing made
    answer(capsys, "fight", "new", "--campaign", "C", "--with", "Kaito Arashi,Maître Corbeau",
           "--db", db)  # fmt: skip
    code, _out, err = run(capsys, "fight", "pace", "1", "--on-late", "whenever", "--db", db)
    assert code == 2 and "--on-late" in err and "default, gm" in err


def test_the_webhook_and_the_feed_from_the_terminal(
    capsys: pytest.CaptureFixture[str], database_url: str
) -> None:
    db = database_url
    campaign(capsys, db, "plus-ultra", "hero.toml")
    hook = "https://discord.com/api/webhooks/1/secret"
    shown = answer(capsys, "campaign", "webhook", "C", hook, "--db", db)
    assert shown["webhook"]["host"] == "discord.com" and shown["webhook"]["format"] == "discord"
    code, out, _err = run(capsys, "campaign", "webhook", "C", "--db", db)
    assert code == 0 and "posting to discord.com (discord, en)" in out and "secret" not in out
    code, _out, err = run(capsys, "campaign", "webhook", "C", "http://10.0.0.2/x", "--db", db)
    assert code == 2 and "webhook" in err and "discord.com" in err
    allowed = answer(capsys, "campaign", "webhook", "C", "http://10.0.0.2/x", "--allow-host",
                     "10.0.0.2", "--format", "slack", "--db", db)  # fmt: skip
    assert allowed["webhook"]["host"] == "10.0.0.2" and allowed["webhook"]["format"] == "slack"
    assert answer(capsys, "campaign", "webhook", "C", "--remove", "--db", db)["webhook"] is None
    made = answer(capsys, "campaign", "feed", "C", "--url", "https://t.example", "--db", db)
    assert made["feed"]["link"].startswith("https://t.example/feeds/")
    code, out, _err = run(capsys, "campaign", "feed", "C", "--revoke", str(made["feed"]["id"]),
                          "--db", db)  # fmt: skip
    assert code == 0 and "revoked" in out
    code, _out, err = run(capsys, "campaign", "feed", "C", "--revoke", "99", "--db", db)
    assert code == 2 and "feed" in err
