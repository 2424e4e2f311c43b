"""Reactions asked of the one who reacts and choices kept sealed, as the journal keeps them: a
defender's dice are journaled as theirs and counted for them by the luck audit; a sealed choice
is a hidden entry until it is opened, then disclosed, and the journal proves it was not changed.
Played through the real command line on a campaign's derived dice (SQLite and PostgreSQL).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer, run
from jdr.fights.sealed import check
from jdr.journal.replay import replayer_for
from jdr.journal.verify import verify
from test_cli_fight import campaign
from test_journal import rehash

Json = dict[str, Any]


def exported(capsys: pytest.CaptureFixture[str], db: str) -> Json:
    code, out, err = run(capsys, "journal", "export", "C", "--db", db)
    assert code == 0, err
    data: Json = json.loads(out)
    return data


def revealed(capsys: pytest.CaptureFixture[str], db: str) -> Json:
    code, _out, err = run(capsys, "campaign", "reveal", "C", "--db", db)
    assert code == 0, err
    return exported(capsys, db)


def test_ps_9_a_sealed_marker_is_a_hidden_entry_until_every_fighter_has_chosen(
    capsys: pytest.CaptureFixture[str], database_url: str
) -> None:
    db = database_url
    campaign(capsys, db, "passion", "romuald.toml", "cyber-ninja.toml")
    answer(capsys, "fight", "new", "--campaign", "C", "--with", "Romuald,Cyber-ninja",
           "--side", "Romuald=heroes,Cyber-ninja=ninjas", "--db", db)  # fmt: skip
    first = answer(capsys, "fight", "act", "1", "Romuald", "choose_marker", "marker=2",
                   "--db", db)  # fmt: skip
    assert first["journal"]["hidden"] is True
    assert first["command"] == {"action": "choose_marker", "actor": "Romuald"}
    assert "marker" not in first["events"][0] and "secret" not in first["events"][0]
    code, _out, _err = run(capsys, "fight", "act", "1", "Romuald", "choose_marker", "marker=2",
                          "--db", db)  # fmt: skip
    assert code == 2  # chosen once: asking again does not show it either
    at = first["journal"]["seq"] - 1  # after the sheets' creation entries
    sealed = exported(capsys, db)["entries"][at]
    assert "context" not in sealed and sealed["hidden"] is True  # only the hash is public
    shown = run(capsys, "journal", "show", "C", "--db", db)[1]
    assert "sealed choice" in shown and "marker=2" not in shown
    code, _out, err = run(capsys, "campaign", "reveal", "C", "--db", db)
    assert code == 2 and "hidden" in err  # not before the choice is opened
    opening = answer(capsys, "fight", "act", "1", "Cyber-ninja", "choose_marker", "marker=0",
                     "--db", db)  # fmt: skip
    assert opening["journal"]["hidden"] is False
    revealed_markers = next(e for e in opening["events"] if e["type"] == "markers_revealed")
    entries = revealed(capsys, db)["entries"]
    chosen = entries[at]  # disclosed with the opening: its command, salt and commitment
    assert chosen["context"]["params"]["marker"] == 2 and chosen["context"]["params"]["salt"]
    commitment = chosen["result"]["events"][0]["sealed"]
    opened = revealed_markers["fighters"]["Romuald"]
    choice = {key: opened[key] for key in ("marker", "potential", "mobility")}
    assert opened["sealed"] == commitment and check(choice, opened["salt"], commitment)
    assert commitment in revealed_markers["unsealed"]
    report = verify(revealed(capsys, db) | {"entries": entries}, replayer_for)
    assert report.ok, [p.message() for p in report.problems]
    assert report.results_checked == len(entries) - 1  # every action but the opening


def test_a_sealed_choice_taken_back_is_disclosed_with_the_others(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    campaign(capsys, db, "ilvermorny", "wizard.toml:Ann", "wizard.toml:Bob")
    answer(capsys, "fight", "new", "--campaign", "C", "--with", "Ann,Bob", "--db", db)
    answer(capsys, "fight", "act", "1", "Ann", "cast", "spell=Lumos", "--db", db)
    answer(capsys, "fight", "undo", "1", "--db", db)
    answer(capsys, "fight", "act", "1", "Ann", "cast", "spell=Protego", "--db", db)
    opened = answer(capsys, "fight", "act", "1", "Bob", "cast", "spell=Lumos", "--db", db)
    spells = next(e for e in opened["events"] if e["type"] == "spells_opened")
    assert spells["choices"]["Ann"]["spell"] == "Protego"
    journal = revealed(capsys, db)
    assert all("context" in e for e in journal["entries"])  # nothing left sealed
    report = verify(journal, replayer_for)
    assert report.ok, [p.message() for p in report.problems]


def test_il_11_each_wizards_dice_are_theirs_in_the_journal_and_the_luck_audit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    campaign(capsys, db, "ilvermorny", "wizard.toml:Ann", "wizard.toml:Bob")
    answer(capsys, "fight", "new", "--campaign", "C", "--with", "Ann,Bob", "--db", db)
    answer(capsys, "fight", "act", "1", "Ann", "cast", "spell=Lumos", "--db", db)
    answer(capsys, "fight", "act", "1", "Bob", "cast", "spell=Expelliarmus", "--db", db)
    entry = exported(capsys, db)["entries"][-1]
    assert entry["context"]["actor"] == "Bob"
    rolls = entry["dice"]["rolls"]
    assert entry["dice"]["by"] == ["Ann", None, "Ann", None][: len(rolls)]
    luck = answer(capsys, "journal", "luck", "C", "--db", db)["actors"]
    assert {a["actor"]: a["dice"] for a in luck} == {"Ann": (len(rolls) + 1) // 2,
                                                     "Bob": len(rolls) // 2}  # fmt: skip


def test_pk_12_a_defenders_dice_count_for_the_defender(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    campaign(capsys, db, "pokemon", "pokemon.toml:Pika", "pokemon.toml:Chu")
    answer(capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Chu", "--faces", "9,2",
           "--db", db)  # fmt: skip
    answer(capsys, "fight", "act", "1", "Pika", "move", "move=Éclair", "--db", db)
    answered = answer(capsys, "fight", "act", "1", "Chu", "respond", "response=dodge", "--db", db)
    rolled = [e for e in answered["events"] if "faces" in e and e["type"].endswith("_rolled")]
    entry = exported(capsys, db)["entries"][-1]
    assert entry["context"]["actor"] == "Chu"
    by = entry["dice"]["by"]
    attack = sum(len(e["faces"]) for e in rolled if e["pokemon"] == "Pika")
    assert by[:attack] == ["Pika"] * attack and set(by[attack:]) <= {None}
    dodged = sum(len(e["faces"]) for e in rolled if e["pokemon"] == "Chu")
    luck = {a["actor"]: a["dice"] for a in answer(capsys, "journal", "luck", "C", "--db", db)
            ["actors"]}  # fmt: skip
    assert luck.get("Pika") == attack and luck.get("Chu", 0) == dodged
    journal = revealed(capsys, db)
    assert verify(journal, replayer_for).ok
    # a journal saying a defender's die was the attacker's is caught, even rehashed
    forged = copy.deepcopy(journal)
    forged["entries"][-1]["dice"]["by"] = [None] * len(by)
    del forged["entries"][-1]["dice"]["by"]
    report = verify(rehash(forged, len(forged["entries"]) - 1), replayer_for)
    assert [p.kind for p in report.problems] == ["roller"]
    assert "luck audit would count it for the wrong player" in report.problems[0].message()
