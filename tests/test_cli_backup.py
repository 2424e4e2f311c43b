"""`jdr campaign export NAME FILE` and `jdr campaign import FILE`: a whole campaign as a backup,
brought back whole into a fresh database (SQLite to PostgreSQL and back), verified before
anything is written, its journal, fights, sheets and seed going on as before."""

from __future__ import annotations

import copy
import json
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer, run, run_json
from conftest import needs_pg, pg_schema
from jdr.backup.document import schemas
from jdr.journal.entries import GENESIS, Entry
from jdr.store import open_store
from jdr.store.backup import PARTS
from test_cli_fight import campaign

Json = dict[str, Any]
Capsys = pytest.CaptureFixture[str]


@contextmanager
def database(kind: str, folder: Path, name: str) -> Iterator[str]:
    """A fresh, empty database of `kind`: a SQLite file, or a throw-away PostgreSQL schema."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / name}.db"
    else:
        with pg_schema() as url:
            yield url


ROUTES = [
    pytest.param(("sqlite", "sqlite"), id="sqlite-to-sqlite"),
    pytest.param(("sqlite", "postgresql"), marks=needs_pg, id="sqlite-to-postgresql"),
    pytest.param(("postgresql", "sqlite"), marks=needs_pg, id="postgresql-to-sqlite"),
]


@pytest.fixture(params=ROUTES)
def route(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A source database and a fresh target one."""
    source_kind, target_kind = request.param
    with (
        database(source_kind, tmp_path, "source") as source,
        database(target_kind, tmp_path, "target") as target,
    ):
        yield source, target


def ok(capsys: Capsys, *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 0, out + err
    return out


def pokemon(capsys: Capsys, db: str) -> tuple[str, ...]:
    """Campaign C (Pokémon): two sheets with revisions (a set, an award undone), a roll through a
    sheet, a hidden roll, a fight with actions and an undo; the fight's next command."""
    campaign(capsys, db, "pokemon", "pokemon.toml:Pika", "pokemon.toml:Chu")
    ok(capsys, "sheet", "set", "Pika", "species=Pika", "--campaign", "C", "--db", db)
    ok(capsys, "roll", "pokemon", "check", "--sheet", "Pika", "--stat", "dexterity",
       "--campaign", "C", "--db", db)  # fmt: skip
    ok(capsys, "dice", "3d6", "--campaign", "C", "--hidden", "--db", db)
    ok(capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Chu", "--faces", "9,2",
       "--db", db)  # fmt: skip
    ok(capsys, "fight", "act", "1", "Pika", "move", "move=Éclair", "--db", db)
    ok(capsys, "fight", "act", "1", "Chu", "respond", "response=dodge", "--db", db)
    ok(capsys, "fight", "undo", "1", "--db", db)
    ok(capsys, "fight", "act", "1", "Chu", "respond", "response=none", "--db", db)
    ok(capsys, "sheet", "award", "Pika", "xp=4", "--campaign", "C", "--db", db)
    ok(capsys, "sheet", "undo", "Pika", "--campaign", "C", "--db", db)
    return ("Chu", "move", "move=Éclair")


def plus_ultra(capsys: Capsys, db: str) -> tuple[str, ...]:
    """Campaign C (Plus Ultra): a sheet renamed and put back, a character removed, rolls (one
    hidden), a fight with actions, an undo and a redo; the fight's next command."""
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau",
             "villain.toml:Sbire")  # fmt: skip
    ok(capsys, "sheet", "rename", "Kaito", "Kaito Arashi", "--campaign", "C", "--db", db)
    ok(capsys, "sheet", "undo", "Kaito Arashi", "--campaign", "C", "--db", db)
    answer(capsys, "sheet", "rm", "Sbire", "--campaign", "C", "--db", db)
    ok(capsys, "dice", "2d6+1", "--campaign", "C", "--actor", "Kaito", "--db", db)
    ok(capsys, "dice", "1d20", "--campaign", "C", "--hidden", "--db", db)
    ok(capsys, "fight", "new", "--campaign", "C", "--with", "Kaito,Corbeau", "--db", db)
    ok(capsys, "fight", "act", "1", "Kaito", "attack", "target=Corbeau", "--db", db)
    ok(capsys, "fight", "act", "1", "Corbeau", "defend", "--db", db)
    ok(capsys, "fight", "undo", "1", "--db", db)
    ok(capsys, "fight", "redo", "1", "--db", db)
    return ("Kaito", "attack", "target=Corbeau")


TABLES: dict[str, Callable[[Capsys, str], tuple[str, ...]]] = {
    "pokemon": pokemon,
    "plus-ultra": plus_ultra,
}


def exported(capsys: Capsys, db: str, folder: Path, name: str = "C") -> Json:
    path = folder / f"journal-{os.urandom(4).hex()}.json"
    ok(capsys, "journal", "export", name, "--output", str(path), "--db", db)
    data: Json = json.loads(path.read_text(encoding="utf-8"))
    return data


def verified(capsys: Capsys, db: str, folder: Path, name: str = "C") -> Json:
    """`jdr journal export` then `jdr verify --json`, which must pass."""
    path = folder / "journal.json"
    ok(capsys, "journal", "export", name, "--output", str(path), "--db", db)
    code, out, err = run(capsys, "verify", str(path), "--json")
    assert code == 0, out + err
    report: Json = json.loads(out)
    assert report["ok"] and report["problems"] == []
    return report


def rows(db: str, name: str = "C") -> Json:
    """Everything the store holds of campaign `name`, as a backup holds it."""
    store = open_store(db)
    try:
        return dict(store.dump_campaign(store.campaign(name).id))
    finally:
        store.close()


@pytest.mark.parametrize("system", sorted(TABLES))
def test_a_campaign_comes_back_whole_verifies_and_goes_on(
    capsys: Capsys, tmp_path: Path, route: tuple[str, str], system: str
) -> None:
    source, target = route
    then = TABLES[system](capsys, source)
    backup = tmp_path / "c.json"
    written = answer(capsys, "campaign", "export", "C", str(backup), "--db", source)
    assert written["format"] == "jdr-campaign" and written["v"] == 1
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    before = rows(source)
    assert written["rows"] == {name: len(found) for name, found in before["tables"].items()}
    imported = answer(capsys, "campaign", "import", str(backup), "--db", target)
    assert imported["campaign"]["name"] == "C" and imported["campaign"]["system"] == system
    assert imported["verified"]["ok"] and imported["verified"]["dice_checked"] > 0
    assert rows(target) == before  # every row, every value
    public = verified(capsys, target, tmp_path)
    assert public["sealed"] and public["unrevealed"]  # the hidden roll and the open seed, kept

    shown = [("sheet", "show", name, "--campaign", "C", "--at", "1") for name in ("Pika", "Kaito")]
    for command in shown[:1] if system == "pokemon" else shown[1:]:
        assert answer(capsys, *command, "--db", target) == answer(capsys, *command, "--db", source)
    assert answer(capsys, "fight", "show", "1", "--db", target) == answer(
        capsys, "fight", "show", "1", "--db", source
    )
    tail = exported(capsys, target, tmp_path)["head"]
    acted = answer(capsys, "fight", "act", "1", *then, "--db", target)
    assert acted["journal"]["seq"] == tail["seq"] + 1
    rolled = answer(capsys, "dice", "1d6", "--campaign", "C", "--db", target)
    entry = exported(capsys, target, tmp_path)["entries"][-1]
    assert entry["seq"] == rolled["journal"]["seq"] == tail["seq"] + 2
    assert entry["commitment"] == before["tables"]["epochs"][-1]["commitment"]  # the open seed
    assert entry["dice"]["source"] == "derived"

    ok(capsys, "journal", "disclose", "C", "--db", target)
    ok(capsys, "campaign", "reveal", "C", "--db", target)
    report = verified(capsys, target, tmp_path)
    assert report["unrevealed"] == [] and report["sealed"] == []
    assert report["dice_checked"] >= imported["verified"]["dice_checked"]  # the seed was the one


def test_a_sealed_choice_stays_sealed_across_a_backup_and_opens_after_it(
    capsys: Capsys, tmp_path: Path, route: tuple[str, str]
) -> None:
    source, target = route
    campaign(capsys, source, "passion", "romuald.toml", "cyber-ninja.toml")
    ok(capsys, "fight", "new", "--campaign", "C", "--with", "Romuald,Cyber-ninja",
       "--side", "Romuald=heroes,Cyber-ninja=ninjas", "--db", source)  # fmt: skip
    sealed = answer(capsys, "fight", "act", "1", "Romuald", "choose_marker", "marker=2",
                    "--db", source)  # fmt: skip
    assert sealed["journal"]["hidden"] is True
    backup = tmp_path / "c.json"
    ok(capsys, "campaign", "export", "C", str(backup), "--db", source)
    ok(capsys, "campaign", "import", str(backup), "--db", target)
    public = exported(capsys, target, tmp_path)["entries"][sealed["journal"]["seq"] - 1]
    assert "context" not in public  # still only its hash
    opened = answer(capsys, "fight", "act", "1", "Cyber-ninja", "choose_marker", "marker=0",
                    "--db", target)  # fmt: skip
    markers = next(e for e in opened["events"] if e["type"] == "markers_revealed")
    assert markers["fighters"]["Romuald"]["marker"] == 2
    ok(capsys, "campaign", "reveal", "C", "--db", target)
    assert verified(capsys, target, tmp_path)["sealed"] == []


def test_the_file_is_the_same_for_the_same_campaign_private_and_never_overwritten(
    capsys: Capsys, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    plus_ultra(capsys, db)
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    old = os.umask(0)  # whatever the umask: the file is its owner's only
    try:
        ok(capsys, "campaign", "export", "C", str(first), "--db", db)
    finally:
        os.umask(old)
    ok(capsys, "campaign", "export", "C", str(second), "--db", db)
    assert first.read_bytes() == second.read_bytes()
    assert stat.S_IMODE(first.stat().st_mode) == 0o600
    kept = first.read_bytes()
    code, out, err = run(capsys, "campaign", "export", "C", str(first), "--db", db)
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "the file exists (allowed: a new file, or --force to replace it)" in err
    code, _out, err = run(capsys, "campaign", "export", "C", str(first), "--db", db, "--lang", "fr")
    assert code == 2 and "le fichier existe" in err and "--force" in err
    assert first.read_bytes() == kept
    shared = tmp_path / "shared.json"
    shared.write_text("{}", encoding="utf-8")
    shared.chmod(0o644)
    ok(capsys, "campaign", "export", "C", str(shared), "--force", "--db", db)
    assert stat.S_IMODE(shared.stat().st_mode) == 0o600 and shared.read_bytes() == kept
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    code, payload = run_json(capsys, "campaign", "export", "C", "-", "--db", db)
    assert code == 2 and "standard output" in payload["error"]["message"]
    code, out, _err = run(capsys, "campaign", "export", "C", "-", "--db", db)
    assert code == 0 and out.encode("utf-8") == kept


def test_a_campaign_too_large_to_import_back_is_not_exported(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path}/t.db"
    pokemon(capsys, db)
    monkeypatch.setattr("jdr.bounded.MAX_BACKUP_BYTES", 16 * 1024)
    code, out, err = run(capsys, "campaign", "export", "C", str(tmp_path / "c.json"), "--db", db)
    assert (code, out) == (2, "")
    assert err == (
        "jdr: error: campaign: C — its backup would be larger than 16 KiB (allowed: a backup of"
        " at most 16 KiB, what `jdr campaign import` reads)\n"
    )
    assert not (tmp_path / "c.json").exists()


def test_the_help_says_the_file_is_a_secret(capsys: Capsys) -> None:
    code, out, _err = run(capsys, "campaign", "export", "--help")
    assert code == 0 and "secret" in out and "--force" in out and "invites" in out
    code, out, _err = run(capsys, "campaign", "export", "--help", "--lang", "fr")
    assert code == 0 and "secret" in out and "--force" in out and "invitations" in out
    code, out, _err = run(capsys, "campaign", "import", "--help")
    assert code == 0 and "--as" in out and "verified" in out


# --- refused ---------------------------------------------------------------------------------


@pytest.fixture
def backup_file(capsys: Capsys, tmp_path: Path) -> Path:
    """A Pokémon campaign's backup."""
    db = f"sqlite:///{tmp_path}/source.db"
    pokemon(capsys, db)
    path = tmp_path / "c.json"
    ok(capsys, "campaign", "export", "C", str(path), "--db", db)
    return path


def _load(path: Path) -> Json:
    data: Json = json.loads(path.read_text(encoding="utf-8"))
    return data


def rehash(tables: Json, start: int) -> None:
    """Recompute every journal hash and link from row `start` on: a forger who knows the format."""
    journal = tables["journal"]
    previous = journal[start - 1]["hash"] if start else GENESIS
    for row in journal[start:]:
        entry = row["entry"]
        entry["prev_hash"] = previous
        entry["body_hash"] = Entry.from_json(entry).body_hash
        entry["hash"] = row["hash"] = Entry.from_json(entry).hash
        previous = row["hash"]


def derived_roll(tables: Json) -> int:
    """The index of the first journal row with derived dice (not a sheet's creation)."""
    return next(
        i
        for i, row in enumerate(tables["journal"])
        if row["entry"]["dice"]["source"] == "derived" and row["entry"]["dice"]["rolls"]
    )


def _face_changed(tables: Json) -> None:
    rolls = tables["journal"][derived_roll(tables)]["entry"]["dice"]["rolls"]
    rolls[0][1] = rolls[0][1] % rolls[0][0] + 1


def _face_changed_and_rehashed(tables: Json) -> None:
    _face_changed(tables)
    rehash(tables, derived_roll(tables))


def _row_removed(tables: Json) -> None:
    del tables["journal"][3]


def _event_removed(tables: Json) -> None:
    del tables["fight_events"][-1]


def _revision_removed(tables: Json) -> None:
    del tables["sheet_revisions"][1]


def _sheet_changed(tables: Json) -> None:
    tables["characters"][0]["sheet"]["level"] = 99


def _history_changed(tables: Json) -> None:
    tables["sheet_revisions"][1]["data"]["changes"][0]["after"] = "Raichu"


def _state_changed(tables: Json) -> None:
    state = tables["fight_snapshots"][0]["state"]
    state["round"] = int(state.get("round", 1)) + 5


def _seed_changed(tables: Json) -> None:
    tables["epochs"][0]["seed"] = "0" * 64


def _flag_changed(tables: Json) -> None:
    hidden = next(row for row in tables["journal"] if row["hidden"])
    hidden["hidden"] = False


@pytest.mark.parametrize(
    ("tamper", "named"),
    [
        (_face_changed, "the entry was changed"),
        (_face_changed_and_rehashed, "derives to"),
        (_row_removed, "is missing"),
        (_event_removed, "no longer holds"),
        (_revision_removed, "not 1 to its version"),
        (_sheet_changed, "the sheet was changed"),
        (_history_changed, "history was changed"),
        (_state_changed, "the stored state was changed"),
        (_seed_changed, "hashes to"),
        (_flag_changed, "hidden flag"),
    ],
)
def test_a_tampered_backup_is_refused_and_nothing_is_written(
    capsys: Capsys,
    tmp_path: Path,
    backup_file: Path,
    database_url: str,
    tamper: Callable[[Json], None],
    named: str,
) -> None:
    data = _load(backup_file)
    tamper(data["tables"])
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "campaign", "import", str(forged), "--db", database_url)
    assert (code, out) == (1, "") and err.count("\n") == 1, err
    assert err.startswith("jdr: error: the backup does not verify: ")
    assert "nothing was imported" in err
    code, payload = run_json(capsys, "campaign", "import", str(forged), "--db", database_url)
    assert code == 1 and payload["error"]["code"] == "tampered"
    messages = [problem["message"] for problem in payload["error"]["problems"]]
    assert messages[0] in err and any(named in message for message in messages), messages
    code, out, err = run(
        capsys, "campaign", "import", str(forged), "--db", database_url, "--lang", "fr"
    )
    assert code == 1 and err.startswith("jdr\u00a0: erreur\u00a0: la sauvegarde ne se vérifie pas")
    assert answer(capsys, "campaign", "list", "--db", database_url)["campaigns"] == []
    store = open_store(database_url)
    try:
        with store.engine.connect() as conn:
            for each in PARTS:
                assert conn.execute(each.table.select()).first() is None, each.name
    finally:
        store.close()


def _not_json(path: Path, _data: Json) -> None:
    path.write_text('{"format": "jdr-campaign",', encoding="utf-8")


def _not_an_object(path: Path, _data: Json) -> None:
    path.write_text("[1, 2]", encoding="utf-8")


def _journal_export(path: Path, data: Json) -> None:
    path.write_text(json.dumps({"format": "jdr-journal", "v": 2, "entries": []}), encoding="utf-8")


def _other_format(path: Path, data: Json) -> None:
    path.write_text(json.dumps({**data, "format": "jdr-sheet"}), encoding="utf-8")


def _future(path: Path, data: Json) -> None:
    path.write_text(json.dumps({**data, "v": 2}), encoding="utf-8")


def _no_version(path: Path, data: Json) -> None:
    path.write_text(json.dumps({k: v for k, v in data.items() if k != "v"}), encoding="utf-8")


SCHEMAS = f"{schemas()[0]} to {schemas()[-1]}"
"""The database revisions this jdr reads backups of (`0005 to 0006`)."""


def _future_schema(path: Path, data: Json) -> None:
    """Issue 28: a backup of a database revision this jdr does not know."""
    path.write_text(json.dumps({**data, "schema": "9999"}), encoding="utf-8")


def _unknown_schema(path: Path, data: Json) -> None:
    path.write_text(json.dumps({**data, "schema": "0001"}), encoding="utf-8")


def _too_large(path: Path, data: Json) -> None:
    path.write_text(json.dumps(data) + " " * (32 * 1024 * 1024), encoding="utf-8")


def _wrong_type(path: Path, data: Json) -> None:
    data["tables"]["journal"][2]["seq"] = "three"
    path.write_text(json.dumps(data), encoding="utf-8")


def _missing_column(path: Path, data: Json) -> None:
    del data["tables"]["fights"][0]["status"]
    path.write_text(json.dumps(data), encoding="utf-8")


def _unknown_table(path: Path, data: Json) -> None:
    data["tables"]["invites"] = []
    path.write_text(json.dumps(data), encoding="utf-8")


def _orphan(path: Path, data: Json) -> None:
    data["tables"]["fight_events"][0]["fight_id"] = 7
    path.write_text(json.dumps(data), encoding="utf-8")


def _repeated(path: Path, data: Json) -> None:
    data["tables"]["journal"].append(data["tables"]["journal"][0])
    path.write_text(json.dumps(data), encoding="utf-8")


def _too_long(path: Path, data: Json) -> None:
    data["tables"]["journal"][0]["action_id"] = "x" * 201
    path.write_text(json.dumps(data), encoding="utf-8")


def _unknown_system(path: Path, data: Json) -> None:
    data["campaign"]["system"] = "pokemn"
    path.write_text(json.dumps(data), encoding="utf-8")


def _empty(path: Path, _data: Json) -> None:
    path.write_bytes(b"\xff\xfe")


@pytest.mark.parametrize(
    ("spoil", "english", "french"),
    [
        (_not_json, "not JSON (line 1, column 27)", "pas du JSON (ligne 1, colonne 27)"),
        (_not_an_object, "not an object", "pas un objet"),
        (_journal_export, "a journal export (`jdr verify` reads it)", "un export de journal"),
        (_other_format, 'not a jdr campaign backup (format "jdr-sheet")', "pas une sauvegarde"),
        (_future, "written by a newer jdr (backup format v 2); this jdr reads v 1", "plus récent"),
        (_no_version, "backup format v null is not one jdr wrote", "format de sauvegarde v null"),
        (_future_schema, f'written by a newer jdr (database schema "9999"); this jdr reads schema'
         f" {SCHEMAS}: upgrade jdr to import it", "plus récent (schéma"),
        (_unknown_schema, 'database schema "0001" is not one jdr wrote backups at (it reads schema'
         f" {SCHEMAS})", 'schéma de base "0001"'),
        (_too_large, "larger than 32 MiB (allowed: at most 32 MiB)", "plus de 32 Mio"),
        (_wrong_type, "tables.journal[2].seq: seq has the wrong type (allowed: a whole number",
         "tables.journal[2].seq\u00a0: seq"),
        (_missing_column, "tables.fights[0].status: missing (allowed: text)", "manquant"),
        (_unknown_table, "tables.invites: not a table of a backup (allowed: epochs, characters",
         "pas une table"),
        (_orphan, "tables.fight_events[0].fight_id: fight 7 is not in the backup (allowed: one",
         "combat 7"),
        (_repeated, "tables.journal[12]: repeats the key (seq) of an earlier row", "(seq)"),
        (_too_long, "tables.journal[0].action_id: 201 characters (allowed: at most 200", "201"),
        (_unknown_system, "unknown system pokemn — did you mean pokemon?", "pokemn"),
        (_empty, "not UTF-8 text", "UTF-8"),
    ],
)  # fmt: skip
def test_a_bad_file_is_refused_in_one_line_in_either_language(
    capsys: Capsys,
    tmp_path: Path,
    backup_file: Path,
    spoil: Callable[[Path, Json], None],
    english: str,
    french: str,
) -> None:
    db = f"sqlite:///{tmp_path}/target.db"
    bad = tmp_path / "bad.json"
    spoil(bad, _load(backup_file))
    code, out, err = run(capsys, "campaign", "import", str(bad), "--db", db)
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert err.startswith("jdr: error: ") and english in err, err
    assert "Traceback" not in err
    code, out, err = run(capsys, "campaign", "import", str(bad), "--db", db, "--lang", "fr")
    assert code == 2 and err.count("\n") == 1 and french in err, err
    assert err.startswith("jdr\u00a0: erreur\u00a0: ")
    code, payload = run_json(capsys, "campaign", "import", str(bad), "--db", db)
    assert code == 2 and english in payload["error"]["message"]
    assert answer(capsys, "campaign", "list", "--db", db)["campaigns"] == []


# --- names and ids ---------------------------------------------------------------------------


def test_a_name_in_use_is_refused_and_as_imports_under_another(
    capsys: Capsys, tmp_path: Path, backup_file: Path, database_url: str
) -> None:
    db = database_url
    ok(capsys, "campaign", "new", "c", "--system", "pokemon", "--db", db)  # C as people type it
    code, out, err = run(capsys, "campaign", "import", str(backup_file), "--db", db)
    assert (code, out) == (2, "")
    assert err == (
        "jdr: error: a campaign named c already exists: import it under another name:"
        " --as NEW_NAME\n"
    )
    code, _out, err = run(
        capsys, "campaign", "import", str(backup_file), "--db", db, "--lang", "fr"
    )
    assert code == 2 and "--as NOUVEAU_NOM" in err
    code, _out, err = run(capsys, "campaign", "import", str(backup_file), "--as", " C ",
                          "--db", db)  # fmt: skip
    assert code == 2 and "a campaign named c already exists" in err
    code, _out, err = run(capsys, "campaign", "import", str(backup_file), "--as", "",
                          "--db", db)  # fmt: skip
    assert code == 2 and err.startswith("jdr: error: --as: ")
    imported = answer(capsys, "campaign", "import", str(backup_file), "--as", "Mardi soir",
                      "--db", db)  # fmt: skip
    assert imported["campaign"]["name"] == "Mardi soir"
    copied = rows(db, "Mardi soir")
    assert copied["campaign"]["name"] == "Mardi soir"
    assert copied["tables"] == _load(backup_file)["tables"]
    verified(capsys, db, tmp_path, "Mardi soir")  # the entries keep the name they were rolled in
    rolled = answer(capsys, "dice", "2d6", "--campaign", "Mardi soir", "--db", db)
    ok(capsys, "fight", "act", "1", "Chu", "move", "move=Éclair", "--db", db)
    ok(capsys, "journal", "disclose", "Mardi soir", "--db", db)
    ok(capsys, "campaign", "reveal", "Mardi soir", "--db", db)
    entries = exported(capsys, db, tmp_path, "Mardi soir")["entries"]
    assert entries[0]["context"]["campaign"] == "C"
    assert entries[rolled["journal"]["seq"] - 1]["context"]["campaign"] == "Mardi soir"
    assert verified(capsys, db, tmp_path, "Mardi soir")["unrevealed"] == []


def test_ids_the_database_uses_are_refused_with_what_to_do(
    capsys: Capsys, tmp_path: Path, backup_file: Path, database_url: str
) -> None:
    db = database_url
    campaign(capsys, db, "pokemon", "pokemon.toml:Pika", "pokemon.toml:Chu")  # characters 1, 2
    ok(capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Chu", "--db", db)
    before = rows(db)
    code, out, err = run(capsys, "campaign", "import", str(backup_file), "--as", "D", "--db", db)
    assert (code, out) == (2, "")
    assert err == (
        "jdr: error: the database already uses ids the backup keeps (fights: 1; characters: 1, 2):"
        " its journal names them, so they cannot change; import it into a fresh database"
        " (--db URL), or where the campaign was removed\n"
    )
    code, _out, err = run(capsys, "campaign", "import", str(backup_file), "--as", "D",
                          "--db", db, "--lang", "fr")  # fmt: skip
    assert code == 2 and "combats\u00a0: 1" in err and "nouvelle base" in err
    listed = answer(capsys, "campaign", "list", "--db", db)["campaigns"]
    assert [c["name"] for c in listed] == ["C"]
    assert rows(db) == before


def test_a_removed_campaign_comes_back_where_it_was(
    capsys: Capsys, tmp_path: Path, database_url: str
) -> None:
    db = database_url
    pokemon(capsys, db)
    before = rows(db)
    backup = tmp_path / "c.json"
    ok(capsys, "campaign", "export", "C", str(backup), "--db", db)
    ok(capsys, "campaign", "rm", "C", "--yes", "--db", db)
    code, out, _err = run(capsys, "campaign", "import", str(backup), "--db", db)
    assert code == 0 and out.startswith("campaign C imported (pokemon): 2 sheets, 1 fight, 12 ")
    assert "invite the table again (jdr campaign invite C --role …)" in out
    assert rows(db) == before
    verified(capsys, db, tmp_path)


@needs_pg
def test_postgresql_gives_later_rows_ids_past_the_imported_ones(
    capsys: Capsys, tmp_path: Path
) -> None:
    """The sequences move past every imported id, a removed character's too (its id is in the
    journal): a sheet added or a fight opened after the import never takes one."""
    source = f"sqlite:///{tmp_path}/source.db"
    plus_ultra(capsys, source)  # characters 1 and 2, character 3 removed; fight 1
    backup = tmp_path / "c.json"
    ok(capsys, "campaign", "export", "C", str(backup), "--db", source)
    with pg_schema() as target:
        ok(capsys, "campaign", "import", str(backup), "--db", target)
        folder = Path(__file__).parents[1] / "src" / "jdr" / "systems" / "plus_ultra" / "examples"
        added = answer(capsys, "sheet", "add", str(folder / "hero.toml"), "--campaign", "C",
                       "--name", "Aiko", "--db", target)  # fmt: skip
        assert added["character"]["id"] == 4
        opened = answer(capsys, "fight", "new", "--campaign", "C", "--with", "Kaito,Aiko",
                        "--db", target)  # fmt: skip
        assert opened["fight"] == 2
        ok(capsys, "journal", "disclose", "C", "--db", target)
        ok(capsys, "campaign", "reveal", "C", "--db", target)
        verified(capsys, target, tmp_path)


def test_a_backup_reads_from_standard_input(
    capsys: Capsys, tmp_path: Path, backup_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(backup_file.read_text(encoding="utf-8")))
    db = f"sqlite:///{tmp_path}/target.db"
    imported = answer(capsys, "campaign", "import", "-", "--db", db)
    assert imported["rows"]["journal"] == 12


def test_a_tampered_backup_named_in_json_lists_every_problem(
    capsys: Capsys, tmp_path: Path, backup_file: Path
) -> None:
    data = _load(backup_file)
    _sheet_changed(data["tables"])
    _event_removed(data["tables"])
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(copy.deepcopy(data)), encoding="utf-8")
    db = f"sqlite:///{tmp_path}/target.db"
    code, payload = run_json(capsys, "campaign", "import", str(forged), "--db", db)
    assert code == 1
    problems = payload["error"]["problems"]
    # the rows that disagree first, then what the verifier found in the journal
    assert [p["kind"] for p in problems] == ["sheet", "events", "fight_removed", "sheet_changed"]
    assert all(p["message"] for p in problems)
    assert payload["error"]["message"].endswith("(and 3 more problems: --json lists them all)")
    code, _out, err = run(capsys, "campaign", "import", str(forged), "--db", db, "--lang", "fr")
    assert code == 1 and err.endswith("(et 3 autres problèmes\u00a0: --json les donne tous)\n")


BAD_VALUES: tuple[Any, ...] = (None, "x", -1, 2**40, 1.5, True, [], {}, "2026-13-45T00:00:00")


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, as the keys and indexes leading to it."""
    yield path
    if isinstance(value, dict | list):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, inner in items:
            yield from _paths(inner, (*path, key))


def test_any_value_changed_is_imported_or_refused_in_one_line(
    capsys: Capsys, tmp_path: Path, backup_file: Path
) -> None:
    """A backup spoiled anywhere (its header, a row, a value deep in a sheet or an entry) is
    imported when it still verifies, else refused with one line — never a traceback."""
    import random

    data = _load(backup_file)
    everywhere = [path for path in _paths(data) if path]
    shallow = [path for path in everywhere if len(path) <= 4]
    chance = random.Random(20)
    cases = chance.sample(shallow, 40) + chance.sample(everywhere, 40)
    seen = set()
    for number, path in enumerate(cases):
        spoiled = copy.deepcopy(data)
        place = spoiled
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = chance.choice(BAD_VALUES)
        file = tmp_path / "spoiled.json"
        file.write_text(json.dumps(spoiled), encoding="utf-8")
        db = f"sqlite:///{tmp_path}/target-{number}.db"
        code, out, err = run(capsys, "campaign", "import", str(file), "--db", db)
        seen.add(code)
        assert code in (0, 1, 2), (path, err)
        if code:
            assert out == "" and err.startswith("jdr: error: ") and err.count("\n") == 1, (
                path,
                err,
            )
    assert seen >= {1, 2}
