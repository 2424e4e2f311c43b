"""`jdr sheet …`, `jdr roll … --sheet`, `jdr fight end --apply`: living sheets from the command
line, as a game master uses them between sessions."""

from __future__ import annotations

import io
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer, run, run_json
from jdr.sheet_check import systems_example

EXAMPLES = [
    ("pokemon", "pokemon"),
    ("pokemon", "trainer"),
    ("plus-ultra", "hero"),
    ("plus-ultra", "villain"),
    ("poledemos", "warband"),
    ("ilvermorny", "wizard"),
    ("passion", "romuald"),
    ("passion", "cyber-ninja"),
]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def table(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, system: str, *sheets: str
) -> None:
    """Campaign `C` of `system` holding the example sheets `KIND[:NAME][:key=value;…]`."""
    assert run(capsys, "campaign", "new", "C", "--system", system, "--db", db)[0] == 0
    for spec in sheets:
        kind, _sep, rest = spec.partition(":")
        name, _sep, changes = rest.partition(":")
        data = tomllib.loads(systems_example(system, kind))
        for pair in filter(None, changes.split(";")):
            key, _eq, value = pair.partition("=")
            data[key] = tomllib.loads(f"v = {value}")["v"]
        if name:
            data["name"] = name
        path = tmp_path / f"{name or kind}.toml"
        from jdr.toml_write import to_toml

        path.write_text(to_toml(data), encoding="utf-8")
        code, _out, err = run(capsys, "sheet", "add", str(path), "--campaign", "C", "--db", db)
        assert code == 0, err


def sheet(capsys: pytest.CaptureFixture[str], db: str, name: str, *more: str) -> Any:
    return answer(capsys, "sheet", "show", name, "--campaign", "C", "--db", db, *more)


# --- reading: show --at, history ------------------------------------------------------------


def test_show_at_a_revision_and_the_history(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "pokemon", "pokemon")
    answer(
        capsys,
        "sheet",
        "set",
        "Pikachu",
        "xp=30",
        "--campaign",
        "C",
        "--reason",
        "gift",
        "--db",
        db,
    )
    now = sheet(capsys, db, "Pikachu")
    first = sheet(capsys, db, "pikachu", "--at", "1")
    assert (now["revision"], now["character"]["sheet"]["xp"]) == (2, 30)
    assert (first["revision"], first["character"]["sheet"]["xp"]) == (1, 4)
    code, out, _err = run(
        capsys, "sheet", "show", "Pikachu", "--campaign", "C", "--at", "1", "--db", db
    )
    assert code == 0 and "revision 1 of 2" in out
    history = answer(capsys, "sheet", "history", "Pikachu", "--campaign", "C", "--db", db)
    assert [(r["revision"], r["kind"], r["journal"]) for r in history["revisions"]] == [
        (1, "created", 1),
        (2, "set", 2),
    ]
    assert history["revisions"][1]["changes"] == [{"field": "xp", "before": 4, "after": 30}]
    assert history["revisions"][1]["reason"] == "gift"
    code, out, _err = run(capsys, "sheet", "history", "Pikachu", "--campaign", "C", "--db", db)
    assert code == 0 and "XP 4 → 30" in out and "gift" in out
    code, _out, err = run(
        capsys, "sheet", "show", "Pikachu", "--campaign", "C", "--at", "9", "--db", db
    )
    assert (code, err) == (2, "jdr: error: sheet Pikachu has no revision 9 (revisions: 1..2)\n")
    code, out, _err = run(
        capsys, "--lang", "fr", "sheet", "history", "Pikachu", "--campaign", "C", "--db", db
    )
    assert "création" in out and "champ modifié" in out  # each kind in words (issue 30)


def test_set_names_the_field_and_the_rule_in_one_line_or_json(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "pokemon", "pokemon")
    code, out, err = run(
        capsys, "sheet", "set", "Pikachu", "evs.dexterity=7", "--campaign", "C", "--db", db
    )
    assert (code, out) == (2, "")
    assert "evs.dexterity: 7 — more than 6 EVs in one stat (PK-22)" in err
    code, payload = run_json(
        capsys, "sheet", "set", "Pikachu", "moves[9].energy=1", "--campaign", "C", "--db", db
    )
    assert code == 2 and payload["error"]["field"] == "field"
    assert "no such position" in payload["error"]["message"]
    done = answer(
        capsys, "sheet", "set", "Pikachu", "moves[Éclair].energy=2", "--campaign", "C", "--db", db
    )
    assert done["changes"] == [{"field": "moves[Éclair].energy", "before": 1, "after": 2}]
    assert done["journal"]["seq"] == 2 and done["kind"] == "set"


def test_undo_redo_rename_and_rm(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "plus-ultra", "hero", "villain")
    renamed = answer(
        capsys, "sheet", "rename", "Kaito Arashi", "Kaito", "--campaign", "C", "--db", db
    )
    assert renamed["rename"] == ["Kaito Arashi", "Kaito"]
    assert renamed["changes"] == [{"field": "name", "before": "Kaito Arashi", "after": "Kaito"}]
    code, _out, err = run(
        capsys, "sheet", "rename", "Kaito", "maitre corbeau", "--campaign", "C", "--db", db
    )
    assert code == 2 and "already has a character named Maître Corbeau" in err
    code, out, _err = run(capsys, "sheet", "undo", "kaito", "--campaign", "C", "--db", db)
    assert code == 0 and out.startswith("Kaito Arashi: revision 3 (undone)\n")
    code, out, _err = run(capsys, "sheet", "redo", "Kaito Arashi", "--campaign", "C", "--db", db)
    assert code == 0 and out.startswith("Kaito: revision 4 (redone)\n")
    code, _out, err = run(capsys, "sheet", "redo", "Kaito", "--campaign", "C", "--db", db)
    assert (code, err) == (2, "jdr: error: nothing to redo on Kaito's sheet\n")
    gone = answer(capsys, "sheet", "rm", "Kaito", "--campaign", "C", "--db", db)
    assert gone["removed"] == "Kaito" and gone["journal"]["seq"] == 6
    listed = answer(capsys, "sheet", "list", "--campaign", "C", "--db", db)
    assert [c["name"] for c in listed["characters"]] == ["Maître Corbeau"]


def test_rm_is_refused_in_a_running_fight(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "plus-ultra", "hero", "villain")
    answer(
        capsys,
        "fight",
        "new",
        "--campaign",
        "C",
        "--with",
        "Kaito Arashi,Maître Corbeau",
        "--db",
        db,
    )
    code, _out, err = run(capsys, "sheet", "rm", "Kaito Arashi", "--campaign", "C", "--db", db)
    assert code == 2
    assert err == (
        "jdr: error: Kaito Arashi is in fight 1, which has not ended: end it first"
        " (jdr fight end 1)\n"
    )


def test_campaign_rm_asks_for_the_name(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table(capsys, db, tmp_path, "pokemon", "pokemon")
    monkeypatch.setattr(sys, "stdin", io.StringIO("Lundi\n"))
    code, out, err = run(capsys, "campaign", "rm", "C", "--db", db)
    assert code == 2 and "1 characters, 0 fights and 1 journal entries" in out
    assert "not the campaign's name: kept" in err
    code, payload = run_json(capsys, "campaign", "rm", "C", "--db", db)
    assert code == 2 and payload["error"]["field"] == "--yes"
    monkeypatch.setattr(sys, "stdin", io.StringIO("C\n"))
    code, out, _err = run(capsys, "campaign", "rm", "C", "--db", db)
    assert code == 0 and out.endswith("campaign C removed\n")
    assert answer(capsys, "campaign", "list", "--db", db) == {"campaigns": []}
    run(capsys, "campaign", "new", "D", "--system", "passion", "--db", db)
    assert answer(capsys, "campaign", "rm", "d", "--yes", "--db", db)["removed"] == "D"


# --- sheet new: a commented template ---------------------------------------------------------


@pytest.mark.parametrize(("system", "kind"), EXAMPLES)
def test_every_template_validates_and_documents_each_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, system: str, kind: str
) -> None:
    path = tmp_path / "new.toml"
    code, out, _err = run(capsys, "sheet", "new", system, kind, "--output", str(path))
    assert code == 0 and str(path) in out
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# A new ")
    checked = answer(capsys, "sheet", "validate", str(path))
    assert checked["system"] == system and checked["system_from"] == "system"
    from jdr.sheet_check import sheet_of
    from jdr.systems import default_registry

    model = type(sheet_of(default_registry().get(system), tomllib.loads(text)))
    for field in model.model_fields:
        assert f"# {field}" in text, field


def test_a_template_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "sheet", "new", "pokemon", "--lang", "fr")
    assert code == 0 and out.startswith("# Une nouvelle fiche Pokémon")
    assert "# energy: Énergie, dépensée par les capacités" in out


# --- sheet edit: $EDITOR, keeping what was typed ---------------------------------------------


EDITOR = """
import json, os, sys
path = sys.argv[-1]
text = open(path, encoding="utf-8").read()
for old, new in json.loads(os.environ["JDR_TEST_EDITS"]):
    text = text.replace(old, new)
open(path, "w", encoding="utf-8").write(text)
sys.exit(int(os.environ.get("JDR_TEST_EXIT", "0")))
"""


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """$EDITOR as a real process that makes the replacements it is given."""
    script = tmp_path / "editor.py"
    script.write_text(EDITOR, encoding="utf-8")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))

    def edits(*pairs: tuple[str, str], exit_code: int = 0) -> None:
        monkeypatch.setenv("JDR_TEST_EDITS", json.dumps(pairs))
        monkeypatch.setenv("JDR_TEST_EXIT", str(exit_code))

    return edits


def test_edit_keeps_a_refused_sheet_and_opens_it_again(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, editor: Any
) -> None:
    table(capsys, db, tmp_path, "ilvermorny", "wizard")
    name = "Seraphina Quill"
    editor(("magic = 7", "magic = 11"), ("year = 2", "year = 3"))
    code, _out, err = run(capsys, "sheet", "edit", name, "--campaign", "C", "--db", db)
    assert code == 2
    assert "stats.magic: 11" in err and "your edit is kept in " in err
    kept = Path(err.split("your edit is kept in ")[1].split(":")[0])
    assert "year = 3" in kept.read_text(encoding="utf-8")  # nothing typed is lost
    editor(("magic = 11", "magic = 8"))
    code, out, err = run(capsys, "sheet", "edit", name, "--campaign", "C", "--db", db)
    assert code == 0, err
    assert (
        "continuing the edit kept in" in out
        and "Stats › Magic 7 → 8" in out
        and "School year 2 → 3" in out
    )
    assert not kept.exists()
    shown = sheet(capsys, db, name)["character"]["sheet"]
    assert (shown["stats"]["magic"], shown["year"]) == (8, 3)
    editor()
    assert run(capsys, "sheet", "edit", name, "--campaign", "C", "--db", db)[1] == "no change\n"
    editor(("year = 3", "year = 4"), exit_code=1)
    code, _out, err = run(capsys, "sheet", "edit", name, "--campaign", "C", "--db", db)
    assert code == 2 and "it exited with 1" in err and kept.exists()
    editor(("year = 3", "year = 5"))
    done = answer(capsys, "sheet", "edit", name, "--campaign", "C", "--discard", "--db", db)
    assert done["changes"] == [{"field": "year", "before": 3, "after": 5}]


def test_an_edit_started_before_another_change_is_rebased(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, editor: Any
) -> None:
    table(capsys, db, tmp_path, "ilvermorny", "wizard")
    name = "Seraphina Quill"
    editor(("magic = 7", "magic = 99"))  # refused: kept, made on revision 1
    assert run(capsys, "sheet", "edit", name, "--campaign", "C", "--db", db)[0] == 2
    answer(capsys, "sheet", "grant", name, "Stupefix", "--campaign", "C", "--db", db)
    editor(("magic = 99", "magic = 9"))
    done = answer(capsys, "sheet", "edit", name, "--campaign", "C", "--db", db)
    assert done["revision"] == 3
    assert done["changes"] == [{"field": "stats.magic", "before": 7, "after": 9}]
    spells = sheet(capsys, db, name)["character"]["sheet"]["spells"]
    assert spells[4]["level"] == 1  # the grant made meanwhile is kept


# --- progression, with the rules' ids --------------------------------------------------------


def test_pk_21_buying_shows_the_cost_and_is_refused_when_xp_is_short(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "pokemon", "pokemon", "trainer")
    code, _out, err = run(
        capsys, "sheet", "buy", "Pikachu", "ev", "dexterity", "--campaign", "C", "--db", db
    )
    assert (code, err) == (2, "jdr: error: not enough XP: 11 needed, 4 left (PK-21)\n")
    answer(
        capsys,
        "sheet",
        "award",
        "Pikachu",
        "xp=20",
        "training",
        "with",
        "Léa",
        "--campaign",
        "C",
        "--db",
        db,
    )
    code, out, _err = run(
        capsys, "sheet", "buy", "Pikachu", "ev", "Dextérité", "--campaign", "C", "--db", db
    )
    assert code == 0
    assert (
        "Pikachu buys 1 EV in Dextérité for 11 XP: Dextérité 5 → 6, XP 24 → 13 (PK-21, PK-22)"
        in out
    )
    bought = answer(capsys, "sheet", "buy", "Pikachu", "level", "--campaign", "C", "--db", db)
    assert bought["cost"] == {"xp": 6} and bought["rules"] == ["PK-21"]
    assert bought["summary"] == "Pikachu buys 1 level for 6 XP: level 5 → 6, XP 13 → 7"
    answer(capsys, "sheet", "award", "Léa", "xp=2", "--campaign", "C", "--db", db)
    skill = answer(
        capsys, "sheet", "buy", "Léa", "skill", "Natation", "--campaign", "C", "--db", db
    )
    assert skill["changes"] == [
        {"field": "skills.Natation", "before": None, "after": 1},
        {"field": "xp", "before": 7, "after": 0},
    ]
    history = answer(capsys, "sheet", "history", "Pikachu", "--campaign", "C", "--db", db)
    assert history["revisions"][1]["reason"] == "training with Léa"


def test_pk_23_pk_24_awards(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    table(capsys, db, tmp_path, "pokemon", "pokemon", "trainer")
    human = answer(
        capsys, "sheet", "award", "Léa", "scenario=vital,heroic", "--campaign", "C", "--db", db
    )
    assert human["changes"] == [{"field": "xp", "before": 5, "after": 8}] and human["rules"] == [
        "PK-23"
    ]
    won = answer(capsys, "sheet", "award", "Pikachu", "defeated=7", "--campaign", "C", "--db", db)
    lost = answer(
        capsys, "sheet", "award", "Pikachu", "defeated=7", "won=no", "--campaign", "C", "--db", db
    )
    assert (won["changes"][0]["after"], lost["changes"][0]["after"]) == (7, 8)
    code, _out, err = run(
        capsys, "sheet", "award", "Pikachu", "scenario=vital", "--campaign", "C", "--db", db
    )
    assert code == 2 and "the end-of-scenario award is a human's (PK-23)" in err
    code, _out, err = run(
        capsys, "sheet", "award", "Pikachu", "xp=1", "defeated=3", "--campaign", "C", "--db", db
    )
    assert code == 2 and "an award is one of xp=N, scenario=… or defeated=LEVEL" in err


def test_pk_23_the_automatic_xp_alone_and_the_words_in_french(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    """« Un personnage acquière au minimum un PX à la fin d'un scénario »: `scenario=automatic`
    gives that 1 XP alone; the words read in French; an unknown one lists the words (issue 29)."""
    table(capsys, db, tmp_path, "pokemon", "pokemon", "trainer")
    award = ("sheet", "award", "Léa", "--campaign", "C", "--db", db)
    alone = answer(capsys, *award, "scenario=automatic")
    assert alone["changes"] == [{"field": "xp", "before": 5, "after": 6}]
    assert alone["rules"] == ["PK-23"]
    french = answer(capsys, *award, "scenario=Automatique")
    assert french["changes"] == [{"field": "xp", "before": 6, "after": 7}]
    every = answer(capsys, *award, "scenario=informations,Héroïque,échec,role-play")
    assert every["changes"] == [{"field": "xp", "before": 7, "after": 12}]  # 1 + 4
    words = "automatic, vital information, roleplay, heroic act, failure"
    code, out, err = run(capsys, *award, "scenario=vital,bravoure")
    assert (code, out) == (2, "")
    assert f"scenario[2]: bravoure — not one of the choices (allowed: one of {words})" in err
    code, _out, err = run(capsys, *award, "scenario=heroque", "--lang", "fr")
    assert code == 2 and "vouliez-vous dire acte héroïque\u202f?" in err
    mots = "automatique, informations capitales, jeu de rôle, acte héroïque, échec"
    assert f"(permis\u00a0: au choix\u00a0: {mots})" in err
    history = answer(capsys, "sheet", "history", "Léa", "--campaign", "C", "--db", db)
    assert len(history["revisions"]) == 4  # the refused awards wrote nothing


def test_il_4_il_8_year_grant_and_award(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "ilvermorny", "wizard")
    name = "Seraphina Quill"
    code, _out, err = run(capsys, "sheet", "year", name, "magic=1", "--campaign", "C", "--db", db)
    assert code == 2 and "a school year gives 2 points to split, 1 given (IL-4)" in err
    year = answer(
        capsys, "sheet", "year", name, "magie=1", "intuition=1", "--campaign", "C", "--db", db
    )
    assert year["summary"] == ("Seraphina Quill — school year 2 → 3: Magic 7 → 8, Intuition 6 → 7")
    code, _out, err = run(capsys, "sheet", "grant", name, "Lumos", "--campaign", "C", "--db", db)
    assert code == 2 and "Lumos is already at level 3: only level 0 → 1 is granted (IL-8)" in err
    award = answer(
        capsys, "sheet", "award", name, "tarentallegra", "xp=25", "--campaign", "C", "--db", db
    )
    assert award["summary"] == (
        "Seraphina Quill gains 25 XP — Tarentallegra: XP 0 → 25, level 1 → 2, XP 25 → 15"
    )


def test_ps_19_scenario_points_buy_passion_and_talents(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "passion", "romuald")
    answer(capsys, "sheet", "award", "Romuald", "points=5", "--campaign", "C", "--db", db)
    passion = answer(capsys, "sheet", "buy", "Romuald", "passion", "--campaign", "C", "--db", db)
    assert passion["cost"] == {"scenario_points": 2} and passion["rules"] == ["PS-19"]
    code, _out, err = run(
        capsys, "sheet", "buy", "Romuald", "talent", "Crochetage", "--campaign", "C", "--db", db
    )
    assert code == 2 and "the table sets what a point of talent costs" in err
    talent = answer(
        capsys,
        "sheet",
        "buy",
        "Romuald",
        "talent",
        "crochetage",
        "cost=3",
        "--campaign",
        "C",
        "--db",
        db,
    )
    assert talent["summary"] == (
        "Romuald buys 1 point of Crochetage for 3 scenario points: Crochetage 7 → 8, points 3 → 0"
    )


def test_pu_2_the_next_rank(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    table(capsys, db, tmp_path, "plus-ultra", "hero")
    ranked = answer(
        capsys, "sheet", "rank", "Kaito Arashi", "willpower", "--campaign", "C", "--db", db
    )
    assert ranked["summary"] == (
        "Kaito Arashi moves up from rank C to C+: Énergie 8 → 9, Volonté 8 → 10"
    )
    code, _out, err = run(
        capsys, "sheet", "buy", "Kaito Arashi", "ev", "--campaign", "C", "--db", db
    )
    assert code == 2 and "plus-ultra has no such progression step (allowed: rank)" in err


def test_poledemos_has_no_progression(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "poledemos", "warband")
    code, _out, err = run(
        capsys, "sheet", "award", "Section Perry", "xp=1", "--campaign", "C", "--db", db
    )
    assert code == 2 and "poledemos has no such progression step (allowed: -)" in err
