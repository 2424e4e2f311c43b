"""Issue 18 item 4, for sheets: each revision's journal entry binds the sheet it left
(`sheet_hash`), so a stored sheet changed behind jdr's back is refused by `sheet show` and by a
roll made through it, and named by the three verifiers from an export; a sheet put back to an
older revision is named too, and a sheet changed by a hidden roll stays out of the export."""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import reference_verifier
from cli_run import answer, run
from jdr.characters.binding import sheet_hash
from jdr.journal.verify import verify
from test_cli_living_sheets import table
from test_verifiers_agree import kinds_of_jdr, kinds_of_js, needs_node, rehash

Json = dict[str, Any]

ROLL = (
    "roll", "passion", "action", "--sheet", "Romuald", "--talent", "crochetage", "--dice", "3d6",
    "--difficulty", "8", "--passion", "2", "--energy", "--faces", "6,6,2", "--campaign", "C",
)  # fmt: skip


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def romuald(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    """Romuald created, then changed by a roll made through his sheet (revision 2)."""
    table(capsys, db, tmp_path, "passion", "romuald")
    code, _out, err = run(capsys, *ROLL, "--db", db)
    assert code == 0, err


def exported(capsys: pytest.CaptureFixture[str], db: str) -> Json:
    code, out, err = run(capsys, "journal", "export", "C", "--db", db)
    assert code == 0, err
    found: Json = json.loads(out)
    return found


def _sql(db: str, statement: str, *args: Any) -> list[Any]:
    with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
        return conn.execute(statement, args).fetchall()


def _edit_stored_sheet(db: str, change: Callable[[Json], None]) -> None:
    (raw,) = _sql(db, "SELECT sheet FROM characters WHERE name = 'Romuald'")[0]
    sheet = json.loads(raw)
    change(sheet)
    _sql(db, "UPDATE characters SET sheet = ? WHERE name = 'Romuald'", json.dumps(sheet))


def test_every_revision_entry_binds_the_sheet_it_left(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    romuald(capsys, db, tmp_path)
    journal = exported(capsys, db)
    created, rolled = journal["entries"]
    shown = answer(capsys, "sheet", "show", "Romuald", "--campaign", "C", "--db", db)
    sheet = shown["character"]["sheet"]
    first = answer(capsys, "sheet", "show", "Romuald", "--at", "1", "--campaign", "C", "--db", db)
    assert created["result"]["sheet_hash"] == sheet_hash("Romuald", first["character"]["sheet"])
    assert rolled["result"]["sheets"][0]["sheet_hash"] == sheet_hash("Romuald", sheet)
    assert journal["sheets"] == [
        {"character": 1, "name": "Romuald", "revision": 2, "seq": 2, "sheet": sheet}
    ]
    assert verify(journal).ok


def test_a_stored_sheet_changed_behind_jdrs_back_is_refused_and_named(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    romuald(capsys, db, tmp_path)
    _edit_stored_sheet(db, lambda sheet: sheet["passion"].update(current=99))
    code, out, err = run(capsys, "sheet", "show", "Romuald", "--campaign", "C", "--db", db)
    assert code == 1 and out == ""
    assert "sheet Romuald: revision 2 is not the one journal entry 2 recorded" in err
    code, _out, err = run(capsys, *ROLL, "--db", db)
    assert code == 1 and "the stored sheet was changed" in err
    code, _out, err = run(capsys, "sheet", "set", "Romuald", "xp.Combat=1", "--campaign", "C",
                          "--db", db)  # fmt: skip
    assert code == 1 and "the stored sheet was changed" in err
    assert len(exported(capsys, db)["entries"]) == 2  # nothing was rolled or written
    [problem] = verify(exported(capsys, db)).problems
    assert problem.kind == "sheet_changed" and problem.seq == 2
    assert problem.message() == (
        "sheet Romuald: revision 2 is not the one entry 2 recorded — the stored sheet was changed"
    )


def test_a_past_revision_changed_is_refused_when_shown(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    romuald(capsys, db, tmp_path)
    (raw,) = _sql(db, "SELECT snapshot FROM sheet_revisions WHERE revision = 1")[0]
    snapshot = json.loads(raw)
    snapshot["sheet"]["passion"]["current"] = 42
    _sql(db, "UPDATE sheet_revisions SET snapshot = ? WHERE revision = 1", json.dumps(snapshot))
    code, _out, err = run(
        capsys, "sheet", "show", "Romuald", "--at", "1", "--campaign", "C", "--db", db
    )
    assert code == 1 and "revision 1 is not the one journal entry 1 recorded" in err
    assert run(capsys, "sheet", "show", "Romuald", "--campaign", "C", "--db", db)[0] == 0


def test_a_sheet_put_back_to_an_older_revision_is_named_by_verify(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    romuald(capsys, db, tmp_path)
    first = answer(capsys, "sheet", "show", "Romuald", "--at", "1", "--campaign", "C", "--db", db)
    _sql(
        db,
        "UPDATE characters SET sheet = ?, version = 1 WHERE name = 'Romuald'",
        json.dumps(first["character"]["sheet"]),
    )
    _sql(db, "DELETE FROM sheet_revisions WHERE revision = 2")
    [problem] = verify(exported(capsys, db)).problems
    assert problem.kind == "sheet_behind" and problem.seq == 2
    assert "entry 2 recorded its revision 2, the stored sheet is at revision 1" in problem.message()


def test_a_sheet_changed_by_a_hidden_roll_stays_out_of_the_export_until_disclosed(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "passion", "romuald")
    assert run(capsys, *ROLL, "--hidden", "--db", db)[0] == 0
    journal = exported(capsys, db)
    assert journal["sheets"] == []  # its revision's entry is sealed: so is the sheet
    assert verify(journal).ok
    assert run(capsys, "journal", "disclose", "C", "--db", db)[0] == 0
    journal = exported(capsys, db)
    assert [s["revision"] for s in journal["sheets"]] == [2] and verify(journal).ok


# --- the three verifiers agree ----------------------------------------------------------------


def _sheet_edited(journal: Json) -> Json:
    journal["sheets"][0]["sheet"]["passion"]["current"] += 1
    return journal


def _sheet_renamed(journal: Json) -> Json:
    journal["sheets"][0]["name"] = "Romualdo"
    return journal


def _sheet_hash_rehashed(journal: Json) -> Json:
    journal["entries"][1]["result"]["sheets"][0]["sheet_hash"] = "0" * 64
    return rehash(journal)


def _sheet_put_back(journal: Json) -> Json:
    journal["sheets"][0].update(revision=1, seq=1)
    return journal


def _sheet_elsewhere(journal: Json) -> Json:
    """Issue 28: the stored sheet edited, and its `seq` pointed at an entry that recorded no
    revision of it (with the real seq, `sheet_changed` names it)."""
    journal["sheets"][0]["sheet"]["passion"]["current"] += 1
    journal["sheets"][0]["seq"] = 1
    return journal


def _snapshot_edited(journal: Json) -> Json:
    journal["snapshots"][0]["sheet"]["passion"]["current"] += 1
    return journal


SHEET_TAMPERINGS: dict[str, Callable[[Json], Json]] = {
    "none": lambda journal: journal,
    "sheet edited": _sheet_edited,
    "sheet renamed": _sheet_renamed,
    "sheet_hash edited, chain re-hashed": _sheet_hash_rehashed,
    "sheet put back": _sheet_put_back,
    "sheet edited, pointed at another entry": _sheet_elsewhere,
    "kept snapshot edited": _snapshot_edited,
    "snapshots malformed": lambda journal: journal | {"snapshots": [{"revision": 1}]},
    "sheets malformed": lambda journal: journal | {"sheets": {"1": {}}},
    "a sheet malformed": lambda journal: journal | {"sheets": [{"character": "one"}]},
}


@needs_node
@pytest.mark.parametrize("tampering", list(SHEET_TAMPERINGS))
def test_the_three_verifiers_agree_on_a_sheet(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, tampering: str
) -> None:
    romuald(capsys, db, tmp_path)
    tampered = SHEET_TAMPERINGS[tampering](exported(capsys, db))
    expected = kinds_of_jdr(tampered)
    assert (tampering == "none") == (expected == []), expected
    assert kinds_of_js(tampered, tmp_path) == expected
    assert reference_verifier.verify(copy.deepcopy(tampered)) == expected
    if tampering != "none":
        assert expected[-1][0].startswith(("sheet", "snapshot")), expected


def test_a_fight_is_not_set_up_with_a_changed_sheet(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "passion", "romuald", "romuald:Berthe")
    _edit_stored_sheet(db, lambda sheet: sheet["passion"].update(current=99))
    code, _out, err = run(
        capsys, "fight", "new", "--campaign", "C", "--with", "Romuald,Berthe", "--db", db
    )
    assert code == 1 and "sheet Romuald: revision 1 is not the one journal entry 1" in err
    code, _out, err = run(
        capsys, "simulate", "passion", "--campaign", "C", "--with", "Romuald", "--against",
        "Berthe", "--db", db,
    )  # fmt: skip
    assert code == 1 and "the stored sheet was changed" in err, err
