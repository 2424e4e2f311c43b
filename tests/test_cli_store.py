"""`jdr db|campaign|sheet …`: campaigns and sheets kept in a database, from the command line."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from cli_run import run, run_json
from jdr.cli.store_commands import to_toml
from jdr.store import head, open_store

SYSTEMS = Path(__file__).parent.parent / "src" / "jdr" / "systems"
EXAMPLES = sorted(SYSTEMS.glob("*/examples/*.toml"))
HERO = SYSTEMS / "plus_ultra" / "examples" / "hero.toml"


def _system_of(example: Path) -> str:
    return example.parent.parent.name.replace("_", "-")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


@pytest.fixture
def table(db: str, capsys: pytest.CaptureFixture[str]) -> str:
    """A Plus Ultra campaign `Mardi` holding the example hero."""
    assert run(capsys, "campaign", "new", "Mardi", "--system", "plus-ultra", "--db", db)[0] == 0
    assert run(capsys, "sheet", "add", str(HERO), "--campaign", "Mardi", "--db", db)[0] == 0
    return db


# --- db --------------------------------------------------------------------------------------


def test_db_upgrade_prints_the_revision(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = run_json(capsys, "db", "upgrade", "--db", db)
    assert code == 0
    assert payload == {"database": db, "revision": head()}
    code, out, _err = run(capsys, "db", "upgrade", "--db", db)
    assert code == 0
    assert head() in out
    open_store(db).close()  # an upgraded database opens


def test_database_from_the_environment(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JDR_DATABASE_URL", db)
    assert run(capsys, "campaign", "new", "Env", "--system", "passion")[0] == 0
    assert [c.name for c in open_store(db).campaigns()] == ["Env"]


# --- campaign --------------------------------------------------------------------------------


def test_campaign_new_json(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = run_json(
        capsys, "campaign", "new", "Mardi", "--system", "Plus-Ultra", "--db", db
    )
    assert code == 0
    campaign = payload["campaign"]
    assert (campaign["name"], campaign["system"], campaign["settings"]) == (
        "Mardi",
        "plus-ultra",
        {},
    )
    assert isinstance(campaign["id"], int)
    assert isinstance(campaign["created"], str)


def test_campaign_new_text(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "campaign", "new", "Mardi", "--system", "pokemon", "--db", db)
    assert code == 0
    created, pledged = out.strip().splitlines()
    assert created == "campaign Mardi created (Pokémon)"
    store = open_store(db)
    epoch = store.epochs(store.campaign("Mardi").id)[0]
    store.close()
    assert pledged == f"seed commitment (epoch 1): {epoch.commitment}"


def test_unknown_system_lists_the_known_ones(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "campaign", "new", "X", "--system", "nope", "--db", db)
    assert code == 2
    assert out == ""
    assert "unknown system nope" in err
    assert "plus-ultra" in err and "pokemon" in err
    assert open_store(db).campaigns() == []


def test_duplicate_campaign_is_refused(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "campaign", "new", "Mardi", "--system", "passion", "--db", db)
    code, _out, err = run(capsys, "campaign", "new", "Mardi", "--system", "passion", "--db", db)
    assert code == 2
    assert "a campaign named Mardi already exists" in err
    assert err.count("\n") == 1


def test_campaign_list(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "campaign", "new", "Jeudi", "--system", "poledemos", "--db", table)
    code, payload = run_json(capsys, "campaign", "list", "--db", table)
    assert code == 0
    shown = [(c["name"], c["system"], c["characters"]) for c in payload["campaigns"]]
    assert shown == [("Jeudi", "poledemos", 0), ("Mardi", "plus-ultra", 1)]
    code, out, _err = run(capsys, "campaign", "list", "--db", table)
    assert code == 0
    assert "Mardi" in out and "plus-ultra" in out and "Jeudi" in out


def test_campaign_list_empty(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "campaign", "list", "--db", db) == (0, {"campaigns": []})
    assert "No campaign yet" in run(capsys, "campaign", "list", "--db", db)[1]


def test_campaign_show(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    store = open_store(table)
    campaign = store.campaign("Mardi")
    fight = store.create_fight(campaign.id, ["Kaito Arashi"])
    store.close()
    code, payload = run_json(capsys, "campaign", "show", "Mardi", "--db", table)
    assert code == 0
    assert payload["campaign"]["name"] == "Mardi"
    assert payload["campaign"]["settings"] == {}
    assert [c["name"] for c in payload["characters"]] == ["Kaito Arashi"]
    assert payload["characters"][0]["version"] == 1
    assert payload["fights"] == [
        {"id": fight, "participants": ["Kaito Arashi"], "status": "open", "version": 0}
    ]
    code, out, _err = run(capsys, "campaign", "show", "Mardi", "--db", table)
    assert code == 0
    assert "Kaito Arashi" in out and "under way" in out
    code, out, _err = run(capsys, "campaign", "show", "Mardi", "--db", table, "--lang", "fr")
    assert "Kaito Arashi" in out and "en cours" in out


def test_unknown_campaign(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ("campaign", "show", "Nope"),
        ("sheet", "list", "--campaign", "Nope"),
        ("sheet", "add", str(HERO), "--campaign", "Nope"),
    ):
        code, _out, err = run(capsys, *args, "--db", db)
        assert code == 2, args
        assert "unknown campaign Nope (known: -)" in err


# --- sheet -----------------------------------------------------------------------------------


def test_sheet_add_json(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "campaign", "new", "Mardi", "--system", "plus-ultra", "--db", db)
    code, payload = run_json(capsys, "sheet", "add", str(HERO), "--campaign", "Mardi", "--db", db)
    assert code == 0
    assert payload["campaign"] == "Mardi"
    character = payload["character"]
    assert (character["name"], character["version"]) == ("Kaito Arashi", 1)
    assert character["sheet"]["rank"] == "C"
    assert character["sheet"]["willpower"] == 8


def test_sheet_add_under_another_name(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(
        capsys, "sheet", "add", str(HERO), "--campaign", "Mardi", "--name", "Kai", "--db", table
    )
    assert code == 0
    assert out.strip() == "sheet Kai added to campaign Mardi"
    _code, payload = run_json(capsys, "sheet", "list", "--campaign", "Mardi", "--db", table)
    assert [c["name"] for c in payload["characters"]] == ["Kai", "Kaito Arashi"]


def test_duplicate_sheet_is_refused(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "sheet", "add", str(HERO), "--campaign", "Mardi", "--db", table)
    assert code == 2
    assert "already has a character named Kaito Arashi" in err


def test_bad_sheet_is_refused_with_its_rule(
    table: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        HERO.read_text("utf-8").replace("willpower = 8", "willpower = 9"), encoding="utf-8"
    )
    code, out, err = run(
        capsys, "sheet", "add", str(bad), "--campaign", "Mardi", "--name", "Bad", "--db", table
    )
    assert code == 2
    assert out == ""
    assert "willpower: 9" in err and "(PU-2)" in err
    _code, payload = run_json(capsys, "sheet", "list", "--campaign", "Mardi", "--db", table)
    assert [c["name"] for c in payload["characters"]] == ["Kaito Arashi"], "nothing stored"


def test_sheet_of_another_system_is_refused(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    wizard = SYSTEMS / "ilvermorny" / "examples" / "wizard.toml"
    code, _out, err = run(capsys, "sheet", "add", str(wizard), "--campaign", "Mardi", "--db", table)
    assert code == 2
    assert (
        err
        == f"jdr: error: {wizard}: this sheet is for ilvermorny; campaign Mardi plays plus-ultra\n"
    )


def test_missing_file(table: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "missing.toml")
    code, _out, err = run(capsys, "sheet", "add", missing, "--campaign", "Mardi", "--db", table)
    assert code == 2
    assert "missing.toml" in err


def test_sheet_list(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, payload = run_json(capsys, "sheet", "list", "--campaign", "Mardi", "--db", table)
    assert code == 0
    assert payload["campaign"] == "Mardi"
    assert [(c["name"], c["version"]) for c in payload["characters"]] == [("Kaito Arashi", 1)]
    assert "Kaito Arashi" in run(capsys, "sheet", "list", "--campaign", "Mardi", "--db", table)[1]


def test_sheet_show(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("sheet", "show", "Kaito Arashi", "--campaign", "Mardi", "--db", table)
    code, payload = run_json(capsys, *args)
    assert code == 0
    assert payload["character"]["sheet"]["name"] == "Kaito Arashi"
    code, out, _err = run(capsys, *args)
    assert code == 0
    assert "Rank  C" in out and "Volonté  8" in out and "• Poing Tempête — costs 3 Volonté" in out
    assert "willpower" not in out and "{" not in out


def test_unknown_sheet(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "sheet", "show", "Nobody", "--campaign", "Mardi", "--db", table)
    assert code == 2
    assert "unknown character Nobody (known: Kaito Arashi)" in err


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.stem)
def test_every_example_validates(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    system = _system_of(example)
    code, payload = run_json(capsys, "sheet", "validate", str(example), "--system", system)
    assert code == 0, payload
    assert payload["valid"] is True and payload["problems"] == []
    code, out, _err = run(capsys, "sheet", "validate", str(example), "--system", system)
    assert code == 0
    assert ": OK (" in out


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.stem)
def test_every_example_is_stored_and_exported(
    example: Path, db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Add, export to TOML, validate the export: the sheet survives the round trip."""
    system = _system_of(example)
    run(capsys, "campaign", "new", "C", "--system", system, "--db", db)
    code, added = run_json(capsys, "sheet", "add", str(example), "--campaign", "C", "--db", db)
    assert code == 0
    name = added["character"]["name"]
    exported = tmp_path / "export.toml"
    code, payload = run_json(
        capsys, "sheet", "export", name, "--campaign", "C", "--output", str(exported), "--db", db
    )
    assert code == 0
    assert payload["output"] == str(exported)
    assert exported.read_text("utf-8") == payload["toml"]
    assert run(capsys, "sheet", "validate", str(exported), "--system", system)[0] == 0
    run(capsys, "sheet", "add", str(exported), "--campaign", "C", "--name", "Again", "--db", db)
    listed = run_json(capsys, "campaign", "show", "C", "--db", db)[1]["characters"]
    assert {c["name"] for c in listed} == {name, "Again"}
    shown = run_json(capsys, "sheet", "show", "Again", "--campaign", "C", "--db", db)[1]
    before = added["character"]["sheet"]  # stored under --name, the sheet says that name
    assert shown["character"]["sheet"] == (
        {**before, "name": "Again"} if "name" in before else before
    )


def test_export_to_stdout(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(
        capsys, "sheet", "export", "Kaito Arashi", "--campaign", "Mardi", "--db", table
    )
    assert code == 0
    data = tomllib.loads(out)
    assert data["name"] == "Kaito Arashi"
    assert data["techniques"][0]["name"] == "Poing Tempête"


def test_validate_reports_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    text = HERO.read_text("utf-8").replace('rank = "C"', 'rank = "Z"\ncolour = "red"')
    bad.write_text(text, encoding="utf-8")
    code, _out, err = run(capsys, "sheet", "validate", str(bad), "--system", "plus-ultra")
    assert code == 2
    assert err.splitlines() == [
        f"jdr: error: {bad}: 2 problems",
        "  rank: Z — unknown rank (allowed: E, E+, D, D+, C, C+, B, B+, A, A+, S, S+)",
        "  colour: red — unknown key (allowed: name, rank, energy, willpower, techniques)",
    ], "one problem per line, each with its field"
    code, payload = run_json(capsys, "sheet", "validate", str(bad), "--system", "plus-ultra")
    assert code == 2
    assert payload["valid"] is False
    assert [(p["field"], p["value"]) for p in payload["problems"]] == [
        ("rank", "Z"),
        ("colour", "red"),
    ]
    assert all(p["allowed"] for p in payload["problems"])
    assert payload["error"]["code"] == "invalid_sheet"


def test_validate_names_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        HERO.read_text("utf-8").replace("willpower = 8", "willpower = 9"), encoding="utf-8"
    )
    code, payload = run_json(capsys, "sheet", "validate", str(bad), "--system", "plus-ultra")
    assert code == 2
    [problem] = payload["problems"]
    assert (problem["field"], problem["value"]) == ("willpower", 9)
    assert "(PU-2)" in problem["reason"]


def test_validate_unknown_system(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "sheet", "validate", str(HERO), "--system", "nope")
    assert code == 2
    assert "unknown system nope" in err


def test_pokemon_trainer_and_pokemon_both_fit(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "campaign", "new", "Kanto", "--system", "pokemon", "--db", db)
    for name in ("pokemon", "trainer"):
        example = SYSTEMS / "pokemon" / "examples" / f"{name}.toml"
        assert run(capsys, "sheet", "add", str(example), "--campaign", "Kanto", "--db", db)[0] == 0
    _code, payload = run_json(capsys, "campaign", "show", "Kanto", "--db", db)
    assert len(payload["characters"]) == 2
    store = open_store(db)
    kinds = set()
    for character in payload["characters"]:
        kinds.add(store.character(character["id"]).sheet["kind"])
    store.close()
    assert kinds == {"pokemon", "trainer"}


# --- the TOML writer -------------------------------------------------------------------------


def test_toml_round_trip() -> None:
    data: dict[str, Any] = {
        "name": 'Maître "Corbeau"\\\n\t',
        "odd key": 1,
        "ratio": 0.25,
        "big": 1e300,
        "yes": True,
        "empty": {},
        "nothing": [],
        "tags": ["a", "b"],
        "grid": [[1, 2], [3]],
        "mixed": [1, {"a": 1}],
        "stats": {"force": 3, "inner": {"deep": ["x"]}},
        "moves": [{"name": "Éclair", "effects": {"damage": 2}}, {"name": "Tranche"}],
    }
    assert tomllib.loads(to_toml(data)) == data


def test_toml_leaves_out_none() -> None:
    assert tomllib.loads(to_toml({"a": None, "b": {"c": None, "d": 1}})) == {"b": {"d": 1}}
    with pytest.raises(ValueError):
        to_toml({"a": [1, None]})
