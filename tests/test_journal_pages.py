"""`jdr journal show` pages (issue 17): the last 50 entries by default, `--last N`, `--from SEQ`,
one plain line an entry, fight actions told in sentences even when their fight began before the
page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_run import run
from jdr.dice import Seeded
from jdr.journal.service import Who, roll_dice
from jdr.store import open_store

Json = dict[str, object]


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'pages.db'}"
    store = open_store(url)
    campaign_id = store.create_campaign("poledemos", "Pages")
    campaign = store.campaign_by_id(campaign_id)
    from jdr.dice import notation

    for n in range(60):
        roll_dice(store, campaign, notation.parse(f"{1 + n % 3}d6"), Who("Ana"), Seeded(n))
    store.close()
    return url


def _lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("#")]


def test_journal_show_lists_the_last_50_entries_one_plain_line_each(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = run(capsys, "journal", "show", "Pages", "--db", db)
    lines = _lines(out)
    assert code == 0 and len(lines) == 50
    assert lines[0].startswith("#11 ") and lines[-1].startswith("#60 ")
    assert "┃" not in out and "│" not in out  # no table drawn
    assert "entries 11 to 60 of 60 · earlier: --from 1" in out


def test_journal_show_from_a_seq_and_a_count(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(
        capsys, "journal", "show", "Pages", "--from", "5", "--last", "3", "--db", db
    )
    assert code == 0 and [line.split()[0] for line in _lines(out)] == ["#5", "#6", "#7"]
    assert "entries 5 to 7 of 60 · earlier: --from 2 · later: --from 8" in out
    code, out, _err = run(capsys, "journal", "show", "Pages", "--from", "99", "--db", db)
    assert code == 0 and "No entry from 99 on." in out
    code, out, _err = run(capsys, "journal", "show", "Pages", "--last", "2", "--json", "--db", db)
    shown = json.loads(out)
    assert [e["seq"] for e in shown["entries"]] == [59, 60] and shown["total"] == 60


@pytest.mark.parametrize("bad", ["0", "-3", "x"])
def test_journal_show_refuses_a_bad_page(
    db: str, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    for option in ("--from", "--last"):
        code, _out, err = run(capsys, "journal", "show", "Pages", option, bad, "--db", db)
        assert code == 2 and option in err and "Traceback" not in err


def test_journal_show_tells_a_fight_action_whose_fight_began_before_the_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'fight.db'}"
    hero = Path(__file__).parent.parent / "src/jdr/systems/plus_ultra/examples"
    run(capsys, "campaign", "new", "Duel", "--system", "plus-ultra", "--db", db)
    run(
        capsys,
        "sheet",
        "add",
        str(hero / "hero.toml"),
        "--campaign",
        "Duel",
        "--name",
        "Kaito",
        "--db",
        db,
    )
    run(
        capsys,
        "sheet",
        "add",
        str(hero / "villain.toml"),
        "--campaign",
        "Duel",
        "--name",
        "Corbeau",
        "--db",
        db,
    )
    code, _out, err = run(
        capsys,
        "fight",
        "new",
        "--campaign",
        "Duel",
        "--with",
        "Kaito,Corbeau",
        "--seed",
        "1",
        "--db",
        db,
    )
    assert code == 0, err
    code, out, err = run(
        capsys,
        "fight",
        "act",
        "1",
        "Kaito",
        "attack",
        "target=Corbeau",
        "--faces",
        "15",
        "--db",
        db,
    )
    assert code == 0, err
    code, out, _err = run(capsys, "journal", "show", "Duel", "--last", "1", "--db", db)
    [line] = _lines(out)
    assert "fight 1" in line and "Kaito" in line and "Corbeau" in line
    full = json.loads(run(capsys, "journal", "show", "Duel", "--json", "--db", db)[1])
    paged = json.loads(
        run(capsys, "journal", "show", "Duel", "--last", "1", "--json", "--db", db)[1]
    )
    last = str(full["entries"][-1]["seq"])
    assert paged["summaries"] == {last: full["summaries"][last]}
