"""Sessions of a campaign in each system, where the sheets carry everything from one session to
the next: fights' outcomes reviewed and applied (or refused), progression, rolls through sheets,
history and undo, and the journal that verifies it all. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer, run
from test_cli_living_sheets import table


def act(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> dict[str, Any]:
    return answer(capsys, "fight", "act", "1", *args, "--db", db)


def sheet_of(capsys: pytest.CaptureFixture[str], db: str, name: str) -> dict[str, Any]:
    shown = answer(capsys, "sheet", "show", name, "--campaign", "C", "--db", db)
    return dict(shown["character"]["sheet"])


def verified(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> dict[str, Any]:
    """The campaign's seed revealed, its journal exported and verified."""
    run(capsys, "campaign", "reveal", "C", "--db", db)
    path = tmp_path / "journal.json"
    assert run(capsys, "journal", "export", "C", "--output", str(path), "--db", db)[0] == 0
    code, out, err = run(capsys, "verify", str(path), "--json")
    assert code == 0, out + err
    report: dict[str, Any] = json.loads(out)
    return report


def test_pk_24_a_pokemon_gains_xp_in_a_fight_then_buys_an_ev(
    capsys: pytest.CaptureFixture[str], database_url: str, tmp_path: Path
) -> None:
    db = database_url
    table(
        capsys, db, tmp_path, "pokemon", "pokemon",
        "pokemon:Rattata:types=['normal'];level=6;vitality={current = 3, max = 14}",
    )  # fmt: skip
    answer(
        capsys,
        "fight",
        "new",
        "--campaign",
        "C",
        "--with",
        "Pikachu,Rattata",
        "--faces",
        "9,2",
        "--db",
        db,
    )
    answer(capsys, "sheet", "set", "Pikachu", "species=Pika", "--campaign", "C", "--db", db)
    act(capsys, db, "Pikachu", "move", "move=Éclair", "target=Rattata", "--seed", "3")
    act(capsys, db, "Rattata", "respond", "response=none", "--seed", "3")  # PK-12: asked of it
    shown = answer(capsys, "fight", "show", "1", "--db", db)
    assert shown["state"]["over"] and shown["state"]["winner"] == "a"  # the fight kept its copy
    review = answer(capsys, "fight", "outcome", "1", "--db", db)["outcome"]
    assert [(o["sheet"], o["changes"]) for o in review] == [
        (
            "Pikachu",
            [
                {"field": "energy.current", "before": 10, "after": 9},
                {"field": "xp", "before": 4, "after": 7},
            ],
        ),
        (
            "Rattata",
            [
                {"field": "vitality.current", "before": 3, "after": 0},
                {"field": "xp", "before": 4, "after": 5},
            ],
        ),
    ]
    assert "PK-24" in review[0]["rules"]
    ended = answer(capsys, "fight", "end", "1", "--db", db)
    assert ended["applied"] and [o["revision"] for o in ended["outcome"]] == [3, 2]
    again = answer(capsys, "fight", "end", "1", "--db", db)
    assert again["outcome"] == []  # an outcome lands once
    pikachu = sheet_of(capsys, db, "Pikachu")
    assert (pikachu["xp"], pikachu["energy"]["current"], pikachu["species"]) == (7, 9, "Pika")
    answer(capsys, "sheet", "award", "Pikachu", "xp=4", "--campaign", "C", "--db", db)
    bought = answer(
        capsys, "sheet", "buy", "Pikachu", "ev", "dexterity", "--campaign", "C", "--db", db
    )
    assert bought["changes"] == [
        {"field": "evs.dexterity", "before": 1, "after": 2},
        {"field": "xp", "before": 11, "after": 0},
    ]
    history = answer(capsys, "sheet", "history", "Pikachu", "--campaign", "C", "--db", db)
    assert [r["kind"] for r in history["revisions"]] == ["created", "set", "fight", "award", "buy"]
    assert history["revisions"][2]["cause"] == {"fight": 1}
    undone = answer(capsys, "sheet", "undo", "Pikachu", "--campaign", "C", "--db", db)
    assert undone["target"] == 5 and sheet_of(capsys, db, "Pikachu")["xp"] == 11
    report = verified(capsys, db, tmp_path)
    assert report["ok"] and report["problems"] == []
    assert report["results_checked"] >= 8  # sheets, outcomes and purchases re-decided


def test_il_9_a_wizard_studies_casts_and_levels_a_spell_and_duels(
    capsys: pytest.CaptureFixture[str], database_url: str, tmp_path: Path
) -> None:
    db = database_url
    table(capsys, db, tmp_path, "ilvermorny", "wizard:Ann", "wizard:Bob")
    studied = answer(
        capsys, "roll", "ilvermorny", "study", "--sheet", "Ann", "--spell", "Expelliarmus",
        "--hours", "3", "--campaign", "C", "--faces", "2,3,1,4,2,2,2", "--db", db,
    )  # fmt: skip
    assert studied["xp"] == 25 and studied["sheets"][0]["rules"] == ["IL-9", "IL-8"]
    assert studied["sheets"][0]["changes"] == [
        {"field": "spells[Expelliarmus].level", "before": 2, "after": 3},
        {"field": "spells[Expelliarmus].xp", "before": 31, "after": 6},
    ]  # 31 + 25 = 56 XP, 50 of them buy level 3 (IL-8: 25 × difficulty 2)
    cast = answer(
        capsys, "roll", "ilvermorny", "cast", "--sheet", "Ann", "--spell", "Expelliarmus",
        "--campaign", "C", "--faces", "2", "--db", db,
    )  # fmt: skip
    assert cast["params"]["level"] == 3 and cast["xp"] == 9
    ann = sheet_of(capsys, db, "Ann")["spells"][1]
    assert (ann["level"], ann["xp"]) == (3, 9)
    answer(capsys, "fight", "new", "--campaign", "C", "--with", "Ann,Bob", "--db", db)
    act(capsys, db, "Ann", "cast", "spell=Lumos")
    act(capsys, db, "Bob", "cast", "spell=Expelliarmus", "--faces", "2,3,6,5")
    review = answer(capsys, "fight", "outcome", "1", "--db", db)["outcome"]
    assert {o["sheet"] for o in review} == {"Ann", "Bob"}
    assert all(o["rules"] == ["IL-7", "IL-8"] for o in review)
    state = answer(capsys, "fight", "show", "1", "--db", db)["state"]
    answer(capsys, "fight", "end", "1", "--db", db)
    for name, spell, position in (("Ann", "Lumos", 0), ("Bob", "Expelliarmus", 1)):
        kept = sheet_of(capsys, db, name)["spells"][position]
        fought = state["spells"][name][spell]
        assert (kept["level"], kept["xp"]) == (fought["level"], fought["xp"])
    assert verified(capsys, db, tmp_path)["ok"]


def test_ps_5_ps_17_a_passion_hero_ends_a_fight_with_less_passion_and_more_xp(
    capsys: pytest.CaptureFixture[str], database_url: str, tmp_path: Path
) -> None:
    db = database_url
    table(capsys, db, tmp_path, "passion", "romuald", "cyber-ninja")
    answer(
        capsys, "fight", "new", "--campaign", "C", "--with", "Romuald,Cyber-ninja",
        "--side", "Romuald=heroes,Cyber-ninja=ninjas", "--db", db,
    )  # fmt: skip
    act(capsys, db, "Romuald", "choose_marker", "marker=2")
    act(capsys, db, "Cyber-ninja", "choose_marker", "marker=0")
    act(capsys, db, "Romuald", "attack", "target=Cyber-ninja", "dice=2d6", "--faces", "4,6")
    act(capsys, db, "Romuald", "settle", "passion=1")
    ended = answer(capsys, "fight", "end", "1", "--no-apply", "--db", db)
    assert not ended["applied"] and ended["outcome"][0]["sheet"] == "Romuald"
    assert sheet_of(capsys, db, "Romuald")["passion"]["current"] == 5  # refused: nothing landed
    applied = answer(capsys, "fight", "end", "1", "--db", db)  # the GM changes their mind
    romuald = next(o for o in applied["outcome"] if o["sheet"] == "Romuald")
    assert {"field": "passion.current", "before": 5, "after": 4} in romuald["changes"]
    assert any(c["field"].startswith("xp.") and c["after"] == 1 for c in romuald["changes"])
    after = sheet_of(capsys, db, "Romuald")
    assert after["passion"]["current"] == 4 and after["xp"]["Coup de pied circulaire"] == 1
    undone = answer(capsys, "sheet", "undo", "Romuald", "--campaign", "C", "--db", db)
    assert undone["target"] == 2 and sheet_of(capsys, db, "Romuald")["passion"]["current"] == 5
    assert verified(capsys, db, tmp_path)["ok"]


def test_verify_finds_a_purchase_the_rules_would_not_have_allowed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    table(capsys, db, tmp_path, "pokemon", "pokemon")
    answer(capsys, "sheet", "award", "Pikachu", "xp=8", "--campaign", "C", "--db", db)
    with monkeypatch.context() as cheat:  # a server that charges 1 XP for an EV
        cheat.setattr("jdr.systems.pokemon.xp.ev_cost", lambda spent: 1)
        answer(capsys, "sheet", "buy", "Pikachu", "ev", "force", "--campaign", "C", "--db", db)
        answer(capsys, "sheet", "buy", "Pikachu", "ev", "force", "--campaign", "C", "--db", db)
    run(capsys, "campaign", "reveal", "C", "--db", db)
    path = tmp_path / "journal.json"
    assert run(capsys, "journal", "export", "C", "--output", str(path), "--db", db)[0] == 0
    code, out, _err = run(capsys, "verify", str(path), "--json")
    problems = json.loads(out)["problems"]
    assert code == 1 and [(p["seq"], p["kind"]) for p in problems] == [(3, "result"), (4, "replay")]
    assert problems[0]["where"] == "result.changes[1].after"  # 12 - 11 = 1 XP left, not 11
    assert problems[1]["detail"] == "not enough XP: 12 needed, 11 left (PK-21)"


def test_a_hidden_roll_through_a_sheet_leaves_verify_quiet_until_disclosed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    table(capsys, db, tmp_path, "ilvermorny", "wizard")
    name = "Seraphina Quill"
    hidden = answer(
        capsys, "roll", "ilvermorny", "cast", "--sheet", name, "--spell", "Lumos", "--hidden",
        "--campaign", "C", "--db", db,
    )  # fmt: skip
    assert hidden["journal"]["hidden"] and hidden["sheets"][0]["revision"] == 2
    answer(capsys, "sheet", "grant", name, "Stupefix", "--campaign", "C", "--db", db)
    path = tmp_path / "journal.json"
    assert run(capsys, "journal", "export", "C", "--output", str(path), "--db", db)[0] == 0
    code, out, _err = run(capsys, "verify", str(path), "--json")
    assert code == 0 and json.loads(out)["sealed"] == [2]  # the grant after it: not checked
    run(capsys, "journal", "disclose", "C", "--db", db)
    assert verified(capsys, db, tmp_path)["ok"]
