"""Issue 18 item 4: the chain covers what players see. A stored fight event edited, added or
removed, or the state a fight keeps edited, makes `fight show` / `fight act` refuse the fight
(exit 1, naming the fight and the event) and `jdr verify` fail on an export, naming them too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, delete, select, update

from cli_run import run
from jdr.store.models import fight_events, fight_snapshots

EXAMPLES = Path(__file__).parent.parent / "src/jdr/systems/plus_ultra/examples"


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A Plus Ultra campaign, a fight of three actions (its seed still secret)."""
    url = f"sqlite:///{tmp_path / 'bound.db'}"
    run(capsys, "campaign", "new", "Jeudi", "--system", "plus-ultra", "--db", url)
    for file, name in (("hero.toml", "Kaito"), ("villain.toml", "Corbeau")):
        code, _out, err = run(
            capsys, "sheet", "add", str(EXAMPLES / file), "--campaign", "Jeudi", "--name", name,
            "--db", url,
        )  # fmt: skip
        assert code == 0, err
    code, _out, err = run(capsys, "fight", "new", "--campaign", "Jeudi", "--with",
                          "Kaito,Corbeau", "--seed", "1", "--db", url)  # fmt: skip
    assert code == 0, err
    for actor, target in (("Kaito", "Corbeau"), ("Corbeau", "Kaito")):
        code, _out, err = run(capsys, "fight", "act", "1", actor, "attack", f"target={target}",
                              "--db", url)  # fmt: skip
        assert code == 0, err
    return url


def _edit(url: str, change: Any) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        change(conn)
    engine.dispose()


def _exported_verdict(capsys: pytest.CaptureFixture[str], url: str, tmp_path: Path) -> Any:
    code, out, err = run(capsys, "journal", "export", "Jeudi", "--db", url)
    assert code == 0, err
    path = tmp_path / "journal.json"
    path.write_text(out, encoding="utf-8")
    code, out, _err = run(capsys, "verify", str(path), "--json")
    return code, json.loads(out)


def _last_event(conn: Any) -> Any:
    return conn.execute(
        select(fight_events.c.seq, fight_events.c.event).order_by(fight_events.c.seq.desc())
    ).first()


def test_an_untouched_fight_shows_and_verifies(
    db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(capsys, "fight", "show", "1", "--db", db)[0] == 0
    code, report = _exported_verdict(capsys, db, tmp_path)
    assert code == 0 and report["ok"], report["problems"]


def test_an_edited_fight_event_is_refused_and_named_by_verify(
    db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def edit(conn: Any) -> None:
        seq, event = _last_event(conn)
        event = dict(event)
        event["edited"] = True
        conn.execute(update(fight_events).where(fight_events.c.seq == seq).values(event=event))

    _edit(db, edit)
    _edit(db, lambda conn: conn.execute(delete(fight_snapshots)))  # no cache to hide behind
    engine = create_engine(db)
    with engine.connect() as conn:
        seq = _last_event(conn)[0]
    engine.dispose()
    for command in (("fight", "show", "1"), ("fight", "act", "1", "Kaito", "defend")):
        code, _out, err = run(capsys, *command, "--db", db)
        assert code == 1, err
        assert f"fight 1: event {seq} is not the one journal entry" in err
        assert "Traceback" not in err
    code, report = _exported_verdict(capsys, db, tmp_path)
    assert code == 1
    [problem] = report["problems"]
    assert problem["kind"] == "fight_changed" and (problem["fight"], problem["event"]) == (1, seq)


def test_an_added_fight_event_is_refused_and_named_by_verify(
    db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def add(conn: Any) -> None:
        seq, event = _last_event(conn)
        from datetime import UTC, datetime

        conn.execute(
            fight_events.insert().values(
                fight_id=1, seq=seq + 1, action=seq + 1, event=event, created=datetime.now(UTC)
            )
        )
        conn.execute(update(fight_snapshots).values(version=seq + 1))

    _edit(db, add)
    code, _out, err = run(capsys, "fight", "show", "1", "--db", db)
    assert code == 1 and "is in no journal entry" in err
    code, report = _exported_verdict(capsys, db, tmp_path)
    assert code == 1 and report["problems"][0]["kind"] == "fight_added"


def test_a_removed_fight_event_is_refused_and_named_by_verify(
    db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def remove(conn: Any) -> None:
        seq, _event = _last_event(conn)
        conn.execute(delete(fight_events).where(fight_events.c.seq == seq))

    _edit(db, remove)
    code, _out, err = run(capsys, "fight", "log", "1", "--db", db)
    assert code == 1 and "no longer holds" in err
    code, report = _exported_verdict(capsys, db, tmp_path)
    assert code == 1 and report["problems"][0]["kind"] == "fight_removed"


def test_an_edited_kept_state_is_refused(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    def edit(conn: Any) -> None:
        state = dict(conn.execute(select(fight_snapshots.c.state)).scalar_one())
        state["edited"] = True
        conn.execute(update(fight_snapshots).values(state=state))

    _edit(db, edit)
    code, _out, err = run(capsys, "fight", "show", "1", "--json", "--db", db)
    assert code == 1 and "the state it keeps is not the one journal entry" in err
    assert json.loads(_out)["error"]["code"] == "tampered"
