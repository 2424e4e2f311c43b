"""Names as people type them, on the command line: systems, campaigns, sheets and fighters
match without case, accents or spaces; an unknown one says "did you mean"; a loose duplicate is
refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, insert

from cli_run import answer as run_json
from cli_run import run
from jdr.store import open_store
from jdr.store.models import characters

SYSTEMS = Path(__file__).parent.parent / "src" / "jdr" / "systems"
HERO = SYSTEMS / "plus_ultra" / "examples" / "hero.toml"  # Kaito Arashi
VILLAIN = SYSTEMS / "plus_ultra" / "examples" / "villain.toml"  # Maître Corbeau
POKEMON = SYSTEMS / "pokemon" / "examples" / "pokemon.toml"
KNOWN_SYSTEMS = "ilvermorny, passion, plus-ultra, pokemon, poledemos"


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one-line error of a command that must fail with exit code 2."""
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1
    return err.strip()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


@pytest.fixture
def mardi(db: str, capsys: pytest.CaptureFixture[str]) -> str:
    """A Plus Ultra campaign `Mardi Soir` holding Kaito Arashi and Maître Corbeau."""
    assert (
        run(capsys, "campaign", "new", "Mardi Soir", "--system", "Plus Ultra", "--db", db)[0] == 0
    )
    for sheet in (HERO, VILLAIN):
        code, _out, err = run(
            capsys, "sheet", "add", str(sheet), "--campaign", "mardi soir", "--db", db
        )
        assert code == 0, err
    return db


# --- systems ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "system"),
    [
        ("pokémon", "pokemon"),
        ("Pokemon", "pokemon"),
        ("POKÉMON", "pokemon"),
        ("polédémos", "poledemos"),
        ("Polédémos", "poledemos"),
        ("plus_ultra", "plus-ultra"),
        ("Plus Ultra", "plus-ultra"),
        ("Ilvermorny", "ilvermorny"),
    ],
)
def test_a_system_is_named_as_people_type_it(
    typed: str, system: str, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = run_json(capsys, "odds", typed, *_ask(system))
    assert payload["system"] == system


def _ask(system: str) -> list[str]:
    return {
        "pokemon": ["check", "--dice", "2"],
        "poledemos": ["test", "--val", "3", "--dice", "2"],
        "plus-ultra": ["attack", "--willpower", "5", "--target-energy", "6"],
        "ilvermorny": ["test", "--stat", "5"],
    }[system]


def test_an_unknown_system_says_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "roll", "pokemn", "check") == (
        f"jdr: error: unknown system pokemn — did you mean pokemon? (known: {KNOWN_SYSTEMS})"
    )
    assert refused(capsys, "roll", "pokemn", "check", "--lang", "fr") == (
        "jdr\u00a0: erreur\u00a0: système pokemn\u00a0: introuvable — vouliez-vous dire"
        " pokemon\u202f?"
        f" (au choix\u00a0: {KNOWN_SYSTEMS})"
    )


def test_the_suggestion_is_in_the_json_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "roll", "pokemn", "check", "--json")
    error = json.loads(out)["error"]
    assert (code, error["code"], error["suggestion"]) == (2, "unknown_name", "pokemon")


def test_an_action_is_named_loosely_and_suggested(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "odds", "pokemon", "CHECK", "--dice", "2")["action"] == "check"
    assert refused(capsys, "roll", "pokemon", "chek") == (
        "jdr: error: unknown action chek — did you mean check?"
        " (known: attack, capture, check, counter, initiative)"
    )


def test_a_system_s_own_commands_under_its_typed_name(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(capsys, "Pokémon", "types", "combat", "tenebres")
    assert payload["multiplier"] == 2


def test_campaign_new_stores_the_system_id(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(capsys, "campaign", "new", "X", "--system", "polédémos", "--db", db)
    assert payload["campaign"]["system"] == "poledemos"


# --- campaigns and sheets --------------------------------------------------------------------


def test_campaigns_and_sheets_are_found_loosely_and_keep_their_spelling(
    mardi: str, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = run_json(capsys, "campaign", "show", "MARDI-SOIR", "--db", mardi)
    assert shown["campaign"]["name"] == "Mardi Soir"
    assert [c["name"] for c in shown["characters"]] == ["Kaito Arashi", "Maître Corbeau"]
    sheet = run_json(
        capsys, "sheet", "show", "maitre corbeau", "--campaign", "mardi_soir", "--db", mardi
    )
    assert sheet["character"]["name"] == "Maître Corbeau"
    exported = run_json(
        capsys, "sheet", "export", "KAITO-ARASHI", "--campaign", "Mardi Soir", "--db", mardi
    )
    assert exported["character"] == "Kaito Arashi"


def test_a_roll_through_a_campaign_typed_loosely(
    mardi: str, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = run_json(
        capsys, "roll", "plus-ultra", "attack", "--willpower", "5", "--target-energy", "6",
        "--faces", "15", "--campaign", "mardi soir", "--db", mardi,
    )  # fmt: skip
    assert payload["journal"]["campaign"] == "Mardi Soir"


def test_an_unknown_campaign_says_did_you_mean(
    mardi: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refused(capsys, "campaign", "show", "Mardi Soi", "--db", mardi) == (
        "jdr: error: unknown campaign Mardi Soi — did you mean Mardi Soir? (known: Mardi Soir)"
    )
    assert refused(capsys, "campaign", "show", "Mardi Soi", "--db", mardi, "--lang", "fr") == (
        "jdr\u00a0: erreur\u00a0: campagne Mardi Soi\u00a0: introuvable — vouliez-vous dire"
        " Mardi Soir\u202f?"
        " (au choix\u00a0: Mardi Soir)"
    )


def test_an_unknown_sheet_says_did_you_mean(mardi: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "sheet", "show", "Kaito", "--campaign", "Mardi Soir", "--db", mardi) == (
        "jdr: error: unknown character Kaito — did you mean Kaito Arashi?"
        " (known: Kaito Arashi, Maître Corbeau)"
    )
    french = refused(
        capsys,
        "sheet",
        "show",
        "Corbeau",
        "--campaign",
        "Mardi Soir",
        "--db",
        mardi,
        "--lang",
        "fr",
    )
    assert french == (
        "jdr\u00a0: erreur\u00a0: personnage Corbeau\u00a0: introuvable — vouliez-vous dire"
        " Maître Corbeau\u202f?"
        " (au choix\u00a0: Kaito Arashi, Maître Corbeau)"
    )


def test_a_loose_duplicate_campaign_is_refused(
    mardi: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(capsys, "campaign", "new", "mardi-soir", "--system", "passion", "--db", mardi)
    assert err == "jdr: error: a campaign named Mardi Soir already exists"
    err = refused(
        capsys,
        "campaign",
        "new",
        "MARDI SOIR",
        "--system",
        "passion",
        "--db",
        mardi,
        "--lang",
        "fr",
    )
    assert "Mardi Soir" in err and err.startswith("jdr\u00a0: erreur\u00a0: ")
    assert [c.name for c in open_store(mardi).campaigns()] == ["Mardi Soir"]


def test_a_loose_duplicate_sheet_is_refused(mardi: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(
        capsys, "sheet", "add", str(HERO), "--campaign", "Mardi Soir", "--name", "KAITO-arashi",
        "--db", mardi,
    )  # fmt: skip
    assert err.endswith("already has a character named Kaito Arashi")
    store = open_store(mardi)
    assert [c.name for c in store.characters(store.campaign("Mardi Soir").id)] == [
        "Kaito Arashi",
        "Maître Corbeau",
    ]


def test_an_ambiguous_stored_name_is_refused_listing_both(
    mardi: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two names that fold alike can only come from before loose matching: pick by exact name."""
    store = open_store(mardi)
    campaign_id = store.campaign("Mardi Soir").id
    engine = create_engine(mardi)
    with engine.begin() as conn:
        for name in ("Ana", "ANA"):
            row: dict[str, Any] = {
                "campaign_id": campaign_id,
                "name": name,
                "sheet": {},
                "version": 1,
            }
            conn.execute(insert(characters).values(row))
    engine.dispose()
    assert refused(capsys, "sheet", "show", "ana", "--campaign", "Mardi Soir", "--db", mardi) == (
        "jdr: error: character ana is ambiguous: it matches ANA and Ana"
    )
    assert refused(
        capsys, "sheet", "show", "ana", "--campaign", "Mardi Soir", "--db", mardi, "--lang", "fr"
    ) == ("jdr\u00a0: erreur\u00a0: personnage ana est ambigu\u00a0: correspond à ANA et Ana")
    exact = run_json(capsys, "sheet", "show", "Ana", "--campaign", "Mardi Soir", "--db", mardi)
    assert exact["character"]["name"] == "Ana"


# --- fighters --------------------------------------------------------------------------------


def test_fighters_are_named_loosely_in_a_fight(
    mardi: str, capsys: pytest.CaptureFixture[str]
) -> None:
    new = run_json(
        capsys, "fight", "new", "--campaign", "mardi soir", "--with", "kaito arashi,MAITRE CORBEAU",
        "--side", "maitre-corbeau=b", "--order", "maître corbeau,KAITO ARASHI", "--db", mardi,
    )  # fmt: skip
    assert new["participants"] == ["Kaito Arashi", "Maître Corbeau"]
    assert new["events"][0]["order"] == ["Maître Corbeau", "Kaito Arashi"]
    act = ["fight", "act", "1", "maitre_corbeau", "attack", "target=KAITO-ARASHI", "--faces", "15"]
    hit = run_json(capsys, *act, "--db", mardi)
    rolled = next(e for e in hit["events"] if e["type"] == "attack_rolled")
    assert (rolled["actor"], rolled["target"]) == ("Maître Corbeau", "Kaito Arashi")
    recap = run_json(capsys, "fight", "recap", "1", "--actor", "MAITRE CORBEAU", "--db", mardi)
    assert "Maître Corbeau" in recap["recap"]
    generic = run_json(capsys, "fight", "recap", "1", "--db", mardi)
    assert generic["events"]


def test_an_unknown_fighter_says_did_you_mean(
    mardi: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run_json(
        capsys,
        "fight",
        "new",
        "--campaign",
        "Mardi Soir",
        "--with",
        "Kaito Arashi,Maître Corbeau",
        "--db",
        mardi,
    )
    err = refused(capsys, "fight", "act", "1", "Kaito", "defend", "--db", mardi)
    assert "unknown character Kaito — did you mean Kaito Arashi?; legal commands now:" in err
    err = refused(
        capsys, "fight", "act", "1", "kaito arashi", "attack", "target=Corbeau", "--db", mardi
    )
    assert "unknown target Corbeau — did you mean Maître Corbeau?; legal commands now:" in err
    err = refused(capsys, "fight", "act", "1", "Kaito", "defend", "--db", mardi, "--lang", "fr")
    assert "vouliez-vous dire Kaito Arashi\u202f?" in err
    assert "Kaito" in err and err.startswith("jdr\u00a0: erreur\u00a0: ")


def test_fight_new_refuses_a_name_twice_as_people_type_it(
    mardi: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(
        capsys,
        "fight",
        "new",
        "--campaign",
        "Mardi Soir",
        "--with",
        "Kaito Arashi,kaito arashi",
        "--db",
        mardi,
    )
    assert "a name is given twice" in err
    err = refused(
        capsys, "fight", "new", "--campaign", "Mardi Soir", "--with", "Kaito Arashi,Maître Corbeau",
        "--side", "Corbeau=b", "--db", mardi,
    )  # fmt: skip
    assert err == (
        "jdr: error: --side: Corbeau — not in the fight — did you mean Maître Corbeau?"
        " (allowed: Kaito Arashi, Maître Corbeau)"
    )


def test_pk_5_pokemon_are_named_loosely_in_a_fight(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "campaign", "new", "Safari", "--system", "pokemon", "--db", db)[0] == 0
    for name in ("Pikachu Sauvage", "Électhor", "Raichu"):
        args = ["sheet", "add", str(POKEMON), "--campaign", "safari", "--name", name, "--db", db]
        assert run(capsys, *args)[0] == 0
    new = run_json(
        capsys, "fight", "new", "--campaign", "Safari", "--with", "pikachu sauvage,ELECTHOR",
        "--faces", "9,2", "--db", db,
    )  # fmt: skip
    assert new["participants"] == ["Pikachu Sauvage", "Électhor"]
    act = ["fight", "act", "1", "pikachu-sauvage", "move", "move=éclair", "target=electhor"]
    hit = run_json(capsys, *act, "--seed", "3", "--db", db)
    used = next(e for e in hit["events"] if e["type"] == "move_used")
    assert (used["pokemon"], used["target"]) == ("Pikachu Sauvage", "Électhor")
    answered = run_json(capsys, "fight", "act", "1", "ELECTHOR", "respond", "response=endure",
                        "--seed", "3", "--db", db)  # fmt: skip
    assert answered["events"][0]["pokemon"] == "Électhor"
    recap = run_json(capsys, "fight", "recap", "1", "--actor", "PIKACHU-SAUVAGE", "--db", db)
    assert recap["events"] and all("Pikachu Sauvage" in json.dumps(e) for e in recap["events"])
    joined = run_json(capsys, "fight", "act", "1", "RAICHU", "join", "side=wild", "--db", db)
    assert joined["events"][0]["pokemon"] == "Raichu"
    err = refused(capsys, "fight", "act", "1", "Electhorr", "wait", "--db", db)
    assert "unknown Pokémon Electhorr" in err and "did you mean Électhor?" in err


# --- choices, commands, options ---------------------------------------------------------------


def test_a_mistyped_choice_says_did_you_mean_in_both_languages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["roll", "pokemon", "capture", "--ball", "supr", "--difficulty", "8"]
    assert refused(capsys, *args) == (
        "jdr: error: --ball: supr — not one of the choices — did you mean Super Ball?"
        " (allowed: one of Poké Ball, Super Ball, Hyper Ball, Master Ball)"
    )
    assert "— vouliez-vous dire Super Ball\u202f?" in refused(capsys, *args, "--lang", "fr")


def test_il_10_a_mistyped_element_says_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["odds", "ilvermorny", "duel", "--magic-a", "6", "--element-a", "fue"]
    err = refused(capsys, *args, "--magic-b", "5", "--element-b", "vigne", "--lang", "fr")
    assert "--element-a\u00a0: fue — " in err and "vouliez-vous dire feu\u202f?" in err


def test_an_unknown_command_suggests_a_system_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert "unknown command pokemn — did you mean pokemon?" in refused(capsys, "pokemn", "types")
    assert "did you mean fight?" in refused(capsys, "fihgt", "show", "1")


def test_an_unknown_option_says_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, "roll", "pokemon", "capture", "--vitalty-pct", "40")
    assert "unknown option --vitalty-pct — did you mean --vitality-pct?" in err


def test_pins_take_commas_as_well_as_repeats() -> None:
    from jdr.cli.journal_commands import _pins

    assert _pins(["1:abcd,2:ef01", "3:0123"]) == {1: "abcd", 2: "ef01", 3: "0123"}
