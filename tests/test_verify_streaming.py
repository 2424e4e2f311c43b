"""Issue 28, part 2: journals of any size verify, and the tamperings the audit found fail.

`jdr verify` reads an export piece by piece (`jdr.journal.reading`) and keeps only what later
checks need (`jdr.journal.kept`): a journal over the old 8 MiB limit verifies, in time linear in
its length and memory that does not grow with it; one entry and the nesting stay limited. The
100,000-entry measure (about 67 MB) is `benchmarks/bench_verify.py`'s.
"""

from __future__ import annotations

import copy
import json
import sqlite3
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from big_journal import write_journal
from cli_run import answer, run, run_json
from jdr.journal.reading import MAX_ENTRY_BYTES, export_lines, pieces
from jdr.journal.replay import replayer_for
from jdr.journal.verify import Report, verify, verify_pieces
from jdr.store import Store
from test_sheet_binding import exported, romuald
from test_verifiers_agree import format_2_journal

Json = dict[str, Any]


def _verified(path: Path) -> tuple[Report, float, int]:
    """The report on the export at `path`, the processor time it took and the peak of Python
    memory while it ran."""
    tracemalloc.start()
    started = time.process_time()
    with path.open("rb") as handle:
        report = verify_pieces(pieces(handle, "FILE", str(path)), replayer_for)
    spent = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return report, spent, peak


def test_a_journal_over_the_old_limit_verifies_in_linear_time_and_bounded_memory(
    tmp_path: Path,
) -> None:
    """Issue 28: 13,000 entries (over the 8 MiB `jdr verify` refused) verify, every die and
    total re-checked; 13 times the entries take about 13 times the time, not more, and no more
    memory than 1,000 do (the 100,000-entry measure: benchmarks/bench_verify.py)."""
    small = write_journal(tmp_path / "small.json", 1_000)
    large = write_journal(tmp_path / "large.json", 13_000)
    assert large.stat().st_size > 8 * 1024 * 1024
    _verified(small)  # imports and caches, once
    report, small_time, small_peak = _verified(small)
    assert report.ok and report.entries == 1_000
    report, large_time, large_peak = _verified(large)
    assert report.ok and report.entries == report.results_checked == 13_000
    assert report.dice_checked == 4 * 13_000 and report.last is not None
    assert large_time < 13 * small_time * 2, (small_time, large_time)
    assert large_peak < small_peak + 1024 * 1024, (small_peak, large_peak)


def test_the_command_line_reads_the_journal_piece_by_piece(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_journal(tmp_path / "long.json", 300)
    code, report = run_json(capsys, "verify", str(path))
    assert code == 0 and report["ok"] and report["entries"] == report["results_checked"] == 300


def test_the_export_writes_one_entry_a_line_and_the_old_layout_reads_the_same(
    store: Store, tmp_path: Path
) -> None:
    """The export is one JSON document with one entry a line (stream-friendly); an export in
    the indented layout jdr wrote before verifies the same."""
    journal = format_2_journal(store)
    lines = "".join(export_lines(journal)).split("\n")  # not at U+2028, which a text holds
    assert json.loads(lines[lines.index('"entries": [') + 1].rstrip(",")) == journal["entries"][0]
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    new.write_text("".join(export_lines(journal)), encoding="utf-8")
    old.write_text(json.dumps(journal, ensure_ascii=False, indent=1), encoding="utf-8")
    reports = []
    for path in (new, old):
        with path.open("rb") as handle:
            reports.append(verify_pieces(pieces(handle, "FILE", str(path))).to_json())
    assert reports[0] == reports[1] == verify(journal).to_json()
    assert reports[0]["ok"] and reports[0]["entries"] == len(journal["entries"])


def test_one_entry_over_its_limit_is_refused(
    capsys: pytest.CaptureFixture[str], store: Store, tmp_path: Path
) -> None:
    journal = format_2_journal(store)
    journal["entries"][0]["context"]["note"] = "x" * MAX_ENTRY_BYTES
    path = tmp_path / "big-entry.json"
    path.write_text("".join(export_lines(journal)), encoding="utf-8")
    code, _out, err = run(capsys, "verify", str(path))
    assert code == 2 and err.count("\n") == 1 and "a piece larger than 1 MiB" in err


def test_nesting_past_the_limit_is_refused_before_it_is_built(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"format": "jdr-journal", "v": 2, "epochs": [], "entries": [' + "[" * 100_000)
    code, _out, err = run(capsys, "verify", str(path))
    assert code == 2 and "levels of nesting" in err and "Traceback" not in err


def test_a_file_that_is_not_a_journal_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "sheet.json"
    path.write_text('{"format": "jdr-sheet", "v": 1, "entries": []}')
    code, _out, err = run(capsys, "verify", str(path))
    assert code == 2 and "not a jdr journal (format jdr-sheet, v 1)" in err
    path.write_text('{"format": "jdr-journal", "v": 2, "epochs": []} trailing')
    code, _out, err = run(capsys, "verify", str(path))
    assert code == 2 and "not JSON (line 1, column 49)" in err


# --- the tamperings of the audit ---------------------------------------------------------------


def test_an_entry_with_a_field_no_hash_binds_fails_naming_the_field(store: Store) -> None:
    """Issue 28: `"comment"` added to an entry is bound by no hash: verify names it."""
    journal = format_2_journal(store)
    journal["entries"][2]["comment"] = "the GM's note"
    problems = verify(journal).problems
    assert [(p.kind, p.seq) for p in problems] == [("field", 3)]
    assert problems[0].message() == (
        "entry 3: its field comment is bound by no hash — it was added to the entry"
    )


def test_a_hidden_roll_disclosed_then_sealed_again_in_a_revealed_epoch_fails(
    store: Store,
) -> None:
    """Issue 28: an epoch is revealed only once its hidden rolls are disclosed, so a sealed
    entry in a revealed epoch had its body taken out."""
    journal = format_2_journal(store)
    item = next(e for e in journal["entries"] if e["hidden"])
    sealed = {k: v for k, v in item.items() if k not in ("context", "dice", "result", "salt")}
    journal["entries"][journal["entries"].index(item)] = sealed
    problems = verify(journal).problems
    assert [(p.kind, p.seq) for p in problems] == [("sealed_revealed", item["seq"])]
    assert "sealed in a revealed epoch" in problems[0].message()


def test_a_hidden_roll_sealed_in_an_open_epoch_is_counted_not_failed(store: Store) -> None:
    journal = format_2_journal(store)
    journal["epochs"][0]["seed"] = journal["epochs"][0]["revealed"] = None
    item = next(e for e in journal["entries"] if e["hidden"])
    for key in ("context", "dice", "result", "salt"):
        del item[key]
    report = verify(journal)
    assert report.ok and report.sealed == [item["seq"]]


def _sql(db: str, statement: str, *args: Any) -> list[Any]:
    with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
        return conn.execute(statement, args).fetchall()


def test_an_edited_sheet_pointed_at_another_entry_fails_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 28: with its real `seq`, an edited sheet is `sheet_changed`; pointed at an entry
    that recorded no revision of it, it is `sheet_entry`, not silence."""
    db = f"sqlite:///{tmp_path}/t.db"
    romuald(capsys, db, tmp_path)
    journal = exported(capsys, db)
    journal["sheets"][0]["sheet"]["passion"]["current"] += 1
    assert [(p.kind, p.seq) for p in verify(journal).problems] == [("sheet_changed", 2)]
    for elsewhere in (1, 99):
        moved = copy.deepcopy(journal)
        moved["sheets"][0]["seq"] = elsewhere
        problems = verify(moved).problems
        assert [(p.kind, p.seq) for p in problems] == [("sheet_entry", elsewhere)]
        assert problems[0].message() == (
            f"sheet Romuald: entry {elsewhere} recorded no revision 2 of it — the sheet names"
            " another entry than the one that recorded it"
        )


def test_an_edited_past_revision_snapshot_fails_verify(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 28: the whole sheet a revision keeps (what `sheet show --at` folds from) is in the
    export (`snapshots`) and checked against the `sheet_hash` its entry recorded."""
    db = f"sqlite:///{tmp_path}/t.db"
    romuald(capsys, db, tmp_path)
    journal = exported(capsys, db)
    assert [(s["revision"], s["seq"]) for s in journal["snapshots"]] == [(1, 1)]
    assert verify(journal).ok
    (raw,) = _sql(db, "SELECT snapshot FROM sheet_revisions WHERE revision = 1")[0]
    snapshot = json.loads(raw)
    snapshot["sheet"]["passion"]["current"] = 42
    _sql(db, "UPDATE sheet_revisions SET snapshot = ? WHERE revision = 1", json.dumps(snapshot))
    path = tmp_path / "journal.json"
    assert run(capsys, "journal", "export", "C", "--output", str(path), "--db", db)[0] == 0
    code, report = run_json(capsys, "verify", str(path))
    assert code == 1 and [(p["kind"], p["seq"]) for p in report["problems"]] == [
        ("snapshot_changed", 1)
    ]
    assert report["problems"][0]["message"] == (
        "sheet Romuald: the whole sheet kept at revision 1 is not the one entry 1 recorded — a"
        " past revision was changed"
    )


def test_sheet_history_shows_the_time_the_chain_binds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 28: the time `sheet history` shows is the revision's entry's (hashed in its
    header), not the row's `created`, which nothing binds: editing that row changes nothing."""
    db = f"sqlite:///{tmp_path}/t.db"
    romuald(capsys, db, tmp_path)
    journal = exported(capsys, db)
    times = {e["seq"]: e["time"] for e in journal["entries"]}
    _sql(db, "UPDATE sheet_revisions SET created = '2001-01-01 00:00:00'")
    shown = answer(capsys, "sheet", "history", "Romuald", "--campaign", "C", "--db", db)
    for revision in shown["revisions"]:
        expected = times[revision["journal"]].replace("Z", "+00:00")
        assert revision["created"] == expected
