"""One grammar on the command line (issue 31): every command that writes a file takes
`--output FILE` or `-o FILE` (`campaign export` its FILE argument too), and a command given
`--campaign` plays the campaign's system when SYSTEM is left out — in French as in English,
a wrong combination refused in one line, exit 2, saying what was wrong and what is allowed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_run import answer, run, run_json

Capsys = pytest.CaptureFixture[str]
EXAMPLES = Path(__file__).parent.parent / "src" / "jdr" / "systems"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/grammar.db"


def duel(capsys: Capsys, db: str) -> None:
    """Campaign `Duel` (Plus Ultra) holding Kaito and Corbeau."""
    assert run(capsys, "campaign", "new", "Duel", "--system", "plus-ultra", "--db", db)[0] == 0
    folder = EXAMPLES / "plus_ultra" / "examples"
    for file, name in (("hero.toml", "Kaito"), ("villain.toml", "Corbeau")):
        code, _out, err = run(
            capsys, "sheet", "add", str(folder / file), "--campaign", "Duel", "--name", name,
            "--db", db,
        )  # fmt: skip
        assert code == 0, err


# --- --output FILE / -o FILE ----------------------------------------------------------------


def test_campaign_export_writes_to_output_as_to_its_file_argument(
    capsys: Capsys, db: str, tmp_path: Path
) -> None:
    duel(capsys, db)
    by_option = answer(capsys, "campaign", "export", "Duel", "--output", str(tmp_path / "a.json"),
                       "--db", db)  # fmt: skip
    by_short = answer(capsys, "campaign", "export", "Duel", "-o", str(tmp_path / "b.json"),
                      "--db", db)  # fmt: skip
    by_argument = answer(capsys, "campaign", "export", "Duel", str(tmp_path / "c.json"),
                         "--db", db)  # fmt: skip
    same = answer(capsys, "campaign", "export", "Duel", str(tmp_path / "d.json"),
                  "-o", str(tmp_path / "d.json"), "--db", db)  # fmt: skip
    for payload, name in ((by_option, "a"), (by_short, "b"), (by_argument, "c"), (same, "d")):
        assert payload["file"] == str(tmp_path / f"{name}.json")
        written = json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))
        assert written["campaign"]["name"] == "Duel"


@pytest.mark.parametrize(
    ("lang", "wrong", "allowed"),
    [
        ("en", "--output names another file", "FILE or --output FILE, not both"),
        ("fr", "--output nomme un autre fichier\u00a0:", "ou --output FILE, pas les deux"),
    ],
)
def test_campaign_export_refuses_two_different_files(
    capsys: Capsys, db: str, tmp_path: Path, lang: str, wrong: str, allowed: str
) -> None:
    duel(capsys, db)
    a, b = str(tmp_path / "a.json"), str(tmp_path / "b.json")
    code, out, err = run(
        capsys, "campaign", "export", "Duel", a, "--output", b, "--db", db, "--lang", lang
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert wrong in err and allowed in err and "b.json" in err
    assert not (tmp_path / "a.json").exists() and not (tmp_path / "b.json").exists()


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["where to write the backup is missing", "--output FILE, or - for standard"]),
        ("fr", ["il manque où écrire la sauvegarde", "--output FICHIER, ou - pour la sortie"]),
    ],
)
def test_campaign_export_without_a_file_says_where_it_may_write(
    capsys: Capsys, db: str, lang: str, words: list[str]
) -> None:
    duel(capsys, db)
    code, payload = run_json(capsys, "campaign", "export", "Duel", "--db", db, "--lang", lang)
    assert code == 2
    message = payload["error"]["message"]
    assert all(word in message for word in words), message


def test_every_command_writing_a_file_takes_output_and_o(
    capsys: Capsys, db: str, tmp_path: Path
) -> None:
    duel(capsys, db)
    for args, file in (
        (["sheet", "export", "Kaito", "--campaign", "Duel", "--db", db], "kaito.toml"),
        (["sheet", "new", "plus-ultra"], "new.toml"),
        (["sheet", "example", "plus-ultra"], "example.toml"),
        (["journal", "export", "Duel", "--db", db], "journal.json"),
    ):
        assert run(capsys, *args, "-o", str(tmp_path / file))[0] == 0, args
        assert (tmp_path / file).stat().st_size > 0
        code, out, _err = run(capsys, *args, "--help")
        assert code == 0 and "-o, --output" in out, args


# --- SYSTEM from --campaign -----------------------------------------------------------------


def test_simulate_takes_the_system_from_the_campaign(capsys: Capsys, db: str) -> None:
    duel(capsys, db)
    sides = ["--with", "Kaito", "--against", "Corbeau", "--runs", "40", "--workers", "1"]
    left_out = answer(capsys, "simulate", "--campaign", "Duel", *sides, "--db", db)
    given = answer(capsys, "simulate", "plus-ultra", "--campaign", "Duel", *sides, "--db", db)
    assert left_out["system"] == given["system"] == "plus-ultra"
    assert left_out["wins"] == given["wins"]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["campaign Duel plays plus-ultra", "plus-ultra, or no SYSTEM with --campaign"]),
        ("fr", ["la campagne Duel joue à plus-ultra", "ou pas de SYSTÈME avec --campaign"]),
    ],
)
def test_simulate_refuses_a_system_the_campaign_does_not_play(
    capsys: Capsys, db: str, lang: str, words: list[str]
) -> None:
    duel(capsys, db)
    code, out, err = run(capsys, "simulate", "pokemon", "--campaign", "Duel", "--with", "Kaito",
                         "--against", "Corbeau", "--db", db, "--lang", lang)  # fmt: skip
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "pokemon" in err and all(word in err for word in words), err


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["no rule system given", "a rule system's id, or --campaign NAME"]),
        ("fr", ["aucun système de règles donné", "ou --campaign NOM (son système)"]),
    ],
)
def test_simulate_without_system_nor_campaign_says_what_it_needs(
    capsys: Capsys, lang: str, words: list[str]
) -> None:
    folder = EXAMPLES / "plus_ultra" / "examples"
    code, out, err = run(capsys, "simulate", "--with", str(folder / "hero.toml"), "--against",
                         str(folder / "villain.toml"), "--lang", lang)  # fmt: skip
    assert code == 2 and out == "" and err.count("\n") == 1
    assert all(word in err for word in words), err


def test_roll_odds_advise_take_the_system_from_the_campaign(capsys: Capsys, db: str) -> None:
    duel(capsys, db)
    rolled = answer(capsys, "roll", "attack", "--campaign", "Duel", "--sheet", "Kaito",
                    "--target-energy", "10", "--db", db)  # fmt: skip
    assert rolled["system"] == "plus-ultra" and rolled["journal"]["campaign"] == "Duel"
    assert rolled["params"]["attacker"] == "Kaito"
    for mode in ("odds",):  # Plus Ultra has no advisor
        left_out = answer(capsys, mode, "attack", "--campaign", "Duel", "--sheet", "Kaito",
                          "--target-energy", "10", f"--db={db}")  # fmt: skip
        given = answer(capsys, mode, "plus-ultra", "attack", "--campaign", "Duel", "--sheet",
                       "Kaito", "--target-energy", "10", "--db", db)  # fmt: skip
        assert left_out == given


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ["this campaign plays plus-ultra"]), ("fr", ["cette campagne joue à plus-ultra"])],
)
def test_roll_refuses_a_system_the_campaign_does_not_play(
    capsys: Capsys, db: str, lang: str, words: list[str]
) -> None:
    duel(capsys, db)
    code, out, err = run(capsys, "roll", "pokemon", "initiative", "--dexterity", "3",
                         "--campaign", "Duel", "--db", db, "--lang", lang)  # fmt: skip
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "pokemon" in err and all(word in err for word in words), err


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ["unknown campaign Nope", "Duel"]), ("fr", ["Nope", "Duel"])],
)
def test_roll_without_system_needs_a_campaign_that_exists(
    capsys: Capsys, db: str, lang: str, words: list[str]
) -> None:
    duel(capsys, db)
    code, _out, err = run(capsys, "roll", "attack", "--campaign", "Nope", "--db", db,
                          "--lang", lang)  # fmt: skip
    assert code == 2 and err.count("\n") == 1
    assert all(word in err for word in words), err
