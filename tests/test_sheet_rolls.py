"""`jdr roll|odds|advise SYSTEM ACTION --sheet NAME --campaign C`: parameters read from stored
sheets, options given overriding them, and what the roll changes written back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli_run import answer, run, run_json
from test_cli_living_sheets import table


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def roll(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> dict[str, Any]:
    return answer(capsys, "roll", *args, "--campaign", "C", "--db", db)


def shown(capsys: pytest.CaptureFixture[str], db: str, name: str) -> dict[str, Any]:
    found = answer(capsys, "sheet", "show", name, "--campaign", "C", "--db", db)
    return dict(found["character"]["sheet"])


# --- Pokémon ---------------------------------------------------------------------------------


def test_pk_1_a_check_rolls_the_stat_with_its_evs_and_the_skill(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "pokemon", "pokemon")
    rolled = roll(
        capsys, db, "pokemon", "check", "--sheet", "pikachu", "--stat", "Dextérité",
        "--skill", "athlétisme", "--faces", "6,6,1,2,3,4",
    )  # fmt: skip
    assert rolled["params"]["dice"] == 6 and rolled["score"] == 1
    assert rolled["sheet"]["used"] == {
        "dice": {"value": 6, "from": "dexterity 5 (4 + 1 EV) + Athlétisme 1 (PK-1)"}
    }
    assert rolled["sheets"] == [] and rolled["journal"]["seq"] == 2
    assert rolled["explanation"].startswith("6d10 DD6")
    given = roll(
        capsys, db, "pokemon", "check", "--sheet", "pikachu", "--stat", "force", "--dice", "2"
    )
    assert given["params"]["dice"] == 2 and given["sheet"]["used"] == {}  # the option overrides
    code, out, _err = run(
        capsys, "roll", "pokemon", "check", "--sheet", "Pikachu", "--stat", "dexterity",
        "--campaign", "C", "--db", db, "--lang", "fr",
    )  # fmt: skip
    assert (
        code == 0
        and "d'après la fiche de Pikachu\u00a0:\n  --dice 5\u00a0: Dextérité 5 (4 + 1 EV) (PK-1)\n"
        in out
    )


def test_pk_10_pk_12_an_attack_pays_its_energy_and_hurts_its_target(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "pokemon", "pokemon", "pokemon:Carapuce:types=['eau']")
    rolled = roll(
        capsys, db, "pokemon", "attack", "--sheet", "Pikachu", "--move", "fatal-foudre",
        "--target", "carapuce", "--defence", "endure",
        "--faces", "42,6,7,8,9,9,9,9,9,9,9,9,1,2",
    )  # fmt: skip
    assert rolled["params"]["attack_dice"] == 3 and rolled["params"]["endure_dice"] == 2
    assert rolled["params"]["accuracy"] == 70 and rolled["accuracy_roll"] == 42  # PK-9 first
    assert rolled["params"]["defender_types"] == "eau" and rolled["multiplier"] == 3.0
    lost = rolled["vitality_lost"]
    assert lost > 0
    assert [(s["sheet"], s["rules"]) for s in rolled["sheets"]] == [
        ("Pikachu", ["PK-10"]),
        ("Carapuce", ["PK-10", "PK-11", "PK-12"]),
    ]
    assert rolled["sheets"][0]["changes"] == [{"field": "energy.current", "before": 10, "after": 6}]
    assert shown(capsys, db, "Carapuce")["vitality"]["current"] == max(0, 14 - lost)
    for _ in range(1):  # 6 Énergie left, Fatal-Foudre costs 4: once more, then refused
        roll(capsys, db, "pokemon", "attack", "--sheet", "Pikachu", "--move", "Fatal-Foudre")
    code, _out, err = run(
        capsys, "roll", "pokemon", "attack", "--sheet", "Pikachu", "--move", "Fatal-Foudre",
        "--campaign", "C", "--db", db,
    )  # fmt: skip
    assert (code, err) == (
        2,
        "jdr: error: Pikachu has 2 Énergie left, Fatal-Foudre costs 4 (PK-10)\n",
    )
    entries = answer(capsys, "journal", "show", "C", "--db", db)["entries"]
    assert len(entries) == 4  # the refused roll rolled nothing and wrote nothing


def test_pk_20_a_capture_reads_its_target_and_the_trainer_keeps_it(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(
        capsys, db, tmp_path, "pokemon", "trainer",
        "pokemon:Rattata:condition='Sommeil';vitality={current = 3, max = 12}",
    )  # fmt: skip
    rolled = roll(
        capsys, db, "pokemon", "capture", "--sheet", "Léa", "--target", "rattata",
        "--ball", "master", "--difficulty", "9", "--faces", ",".join(["10"] * 45),
    )  # fmt: skip
    assert rolled["params"]["vitality_pct"] == 25.0 and rolled["params"]["condition"] == ["sleep"]
    assert rolled["difficulty"] == 1 and rolled["outcome"] == "captured"
    assert rolled["sheets"][0]["changes"] == [
        {"field": "pokemon", "before": ["Pikachu"], "after": ["Pikachu", "Rattata"]}
    ]


def test_what_to_use_needs_a_sheet_and_a_sheet_needs_its_campaign(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "pokemon", "pokemon")
    code, _out, err = run(capsys, "roll", "pokemon", "check", "--stat", "force", "--dice", "2")
    assert (code, err) == (
        2,
        "jdr: error: --stat: force — only with --sheet NAME (allowed: --sheet NAME)\n",
    )
    code, _out, err = run(
        capsys, "roll", "pokemon", "check", "--sheet", "Pikachu", "--stat", "force"
    )
    assert code == 2 and "a sheet is stored in a campaign" in err
    code, payload = run_json(
        capsys, "roll", "pokemon", "check", "--sheet", "Pikachu", "--campaign", "C", "--db", db
    )
    assert code == 2 and payload["error"]["field"] == "--stat"
    code, _out, err = run(
        capsys, "roll", "pokemon", "counter", "--sheet", "Pikachu", "--campaign", "C", "--db", db
    )
    assert code == 2 and "unknown option --sheet" in err
    code, _out, err = run(
        capsys, "roll", "pokemon", "check", "--sheet", "Pikachu", "--stat", "chance",
        "--campaign", "C", "--db", db,
    )  # fmt: skip
    assert code == 2 and "unknown stat chance" in err


def test_odds_and_advice_read_the_sheet_too(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "pokemon", "pokemon")
    odds = answer(
        capsys, "odds", "pokemon", "check", "--sheet", "Pikachu", "--stat", "dexterity",
        "--campaign", "C", "--db", db,
    )  # fmt: skip
    plain = answer(capsys, "odds", "pokemon", "check", "--dice", "5")
    assert odds["outcomes"] == plain["outcomes"] and odds["sheet"]["used"]["dice"]["value"] == 5


def test_pk_9_the_odds_of_an_attack_from_the_sheet_are_accuracy_times_the_attack_roll(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "pokemon", "pokemon")
    odds = answer(
        capsys, "odds", "pokemon", "attack", "--sheet", "Pikachu", "--move", "fatal-foudre",
        "--campaign", "C", "--db", db,
    )  # fmt: skip
    sure = answer(capsys, "odds", "pokemon", "attack", "--attack-dice", "3", "--damage-dice", "5")
    assert odds["sheet"]["used"]["accuracy"]["value"] == 70
    assert odds["outcomes"]["inaccurate"] == pytest.approx(0.3)
    touched = sure["outcomes"]["hit"]  # 74 %: the roll alone, what the odds said before
    assert odds["outcomes"]["hit"] == pytest.approx(0.7 * touched)
    assert odds["chance_to_hit"] == pytest.approx(0.518)
    code, out, _err = run(
        capsys, "odds", "pokemon", "attack", "--sheet", "Pikachu", "--move", "fatal-foudre",
        "--campaign", "C", "--db", db, "--lang", "fr",
    )  # fmt: skip
    assert code == 0 and "chance de toucher\u00a0: 51,80 %" in out
    assert "--accuracy 70\u00a0: Fatal-Foudre\u00a0: précision 70 % (PK-9)" in out


# --- Ilvermorny ------------------------------------------------------------------------------


def test_il_6_il_7_il_8_casting_through_the_sheet_levels_the_spell(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "ilvermorny", "wizard")
    name = "Seraphina Quill"
    rolled = roll(
        capsys,
        db,
        "ilvermorny",
        "cast",
        "--sheet",
        name,
        "--spell",
        "Tarentallegra",
        "--faces",
        "6",
    )
    assert rolled["params"] == {"magic": 7, "level": 1, "difficulty_of_spell": 1, "xp": 0}
    assert rolled["outcome"] == "failure" and rolled["xp_gained"] == 1
    for _ in range(2):  # a natural 2 less 3 (Magie 7) is a success: +3 each
        roll(
            capsys,
            db,
            "ilvermorny",
            "cast",
            "--sheet",
            name,
            "--spell",
            "tarentallegra",
            "--faces",
            "2",
        )
    levelled = roll(
        capsys,
        db,
        "ilvermorny",
        "cast",
        "--sheet",
        name,
        "--spell",
        "tarentallegra",
        "--faces",
        "2",
    )
    assert levelled["level_ups"] == [{"level": 2, "xp_spent": 10}]
    assert levelled["sheets"][0]["rules"] == ["IL-7", "IL-8"]
    spell = shown(capsys, db, name)["spells"][3]
    assert (spell["level"], spell["xp"]) == (2, 1 + 3 * 3 - 10)
    code, _out, err = run(
        capsys, "roll", "ilvermorny", "cast", "--sheet", name, "--spell", "Stupefix",
        "--campaign", "C", "--db", db,
    )  # fmt: skip
    assert code == 2 and "(IL-5)" in err
    studied = roll(
        capsys, db, "ilvermorny", "study", "--sheet", name, "--spell", "protego", "--hours", "1",
        "--faces", "2,3",
    )  # fmt: skip
    assert studied["params"]["comprehension"] == 6 and studied["xp"] == 5
    assert studied["sheets"][0]["changes"] == [
        {"field": "spells[Protego].xp", "before": 8, "after": 13}
    ]


def test_il_11_a_duel_reads_both_wizards(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "ilvermorny", "wizard:Ann", "wizard:Bob")
    odds = answer(
        capsys, "odds", "ilvermorny", "duel", "--sheet", "Ann", "--spell", "expelliarmus",
        "--target", "bob", "--target-spell", "protego", "--campaign", "C", "--db", db,
    )  # fmt: skip
    assert odds["params"]["element_a"] == "feu" and odds["params"]["element_b"] == "eau"


# --- Passion ---------------------------------------------------------------------------------


def test_ps_4_ps_5_ps_17_a_roll_spends_what_it_used_and_gains_xp(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "passion", "romuald")
    rolled = roll(
        capsys, db, "passion", "action", "--sheet", "Romuald", "--talent", "crochetage",
        "--dice", "3d6", "--difficulty", "8", "--passion", "2", "--energy", "--faces", "6,6,2",
    )  # fmt: skip
    assert rolled["params"]["talent"] == 7 and rolled["outcome"] == "success"
    assert rolled["sheets"][0]["changes"] == [
        {"field": "passion.current", "before": 5, "after": 4},  # 1 of the 2 was needed
        {"field": "energy.current", "before": 6, "after": 5},
        {"field": "xp.Crochetage", "before": 2, "after": 3},
    ]
    assert rolled["sheets"][0]["rules"] == ["PS-5", "PS-17"]
    code, _out, err = run(
        capsys, "roll", "passion", "action", "--sheet", "Romuald", "--talent", "Blast",
        "--dice", "2d6", "--passion", "9", "--campaign", "C", "--db", db,
    )  # fmt: skip
    assert (code, err) == (2, "jdr: error: Romuald has 4 Passion left, 9 asked (PS-5)\n")
    used = roll(
        capsys, db, "passion", "action", "--sheet", "Romuald", "--talent", "Combat",
        "--potential", "Corps", "--dice", "1d6", "--faces", "4",
    )  # fmt: skip
    assert used["sheet"]["used"]["talent"]["from"] == "no talent Combat: potential Corps 3 (PS-4)"
    number = answer(
        capsys, "roll", "passion", "action", "--talent", "3", "--dice", "1d6", "--faces", "4"
    )
    assert number["params"]["talent"] == 3  # without --sheet, --talent is the score


def test_ps_18_a_talent_levels_up_through_rolls(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "passion", "romuald")
    for _ in range(6):  # Crochetage 7 at 2 XP: 6 successes against difficulty 8 raise it
        last = roll(
            capsys, db, "passion", "action", "--sheet", "Romuald", "--talent", "Crochetage",
            "--dice", "2d6", "--difficulty", "8", "--faces", "6,6",
        )  # fmt: skip
    assert last["sheets"][0]["rules"] == ["PS-17", "PS-18"]
    romuald = shown(capsys, db, "Romuald")
    assert (romuald["talents"]["Crochetage"], romuald["xp"]["Crochetage"]) == (8, 0)


def test_advice_from_the_sheet(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    table(capsys, db, tmp_path, "passion", "romuald")
    advice = answer(
        capsys, "advise", "passion", "action", "--sheet", "Romuald", "--talent", "blast",
        "--difficulty", "3", "--top", "1", "--campaign", "C", "--db", db,
    )  # fmt: skip
    assert advice["params"]["talent"] == 7 and advice["sheet"]["name"] == "Romuald"


# --- Plus Ultra and Polédémos ----------------------------------------------------------------


def test_pu_1_pu_4_an_attack_reads_both_sheets_and_changes_neither(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "plus-ultra", "hero", "villain")
    rolled = roll(
        capsys, db, "plus-ultra", "attack", "--sheet", "Kaito Arashi", "--target", "maître corbeau",
        "--faces", "15",
    )  # fmt: skip
    assert rolled["params"]["willpower"] == 8 and rolled["params"]["rank"] == "C"
    assert rolled["params"]["target"] == "Maître Corbeau" and rolled["sheets"] == []
    odds = answer(
        capsys, "odds", "plus-ultra", "duel", "--sheet", "Kaito Arashi",
        "--target", "Maître Corbeau", "--campaign", "C", "--db", db,
    )  # fmt: skip
    assert odds["params"]["a"] == {"rank": "C", "energy": 8, "willpower": 8}


def test_pd_8_pd_9_a_leader_activates_with_its_followers(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    table(capsys, db, tmp_path, "poledemos", "warband")
    rolled = roll(
        capsys, db, "poledemos", "activate", "--sheet", "Section Perry",
        "--figure", "sergent perry", "--followers", "all", "--dice", "3", "--faces", "6,4,3",
    )  # fmt: skip
    assert rolled["params"]["val"] == 3 and rolled["params"]["group"] == [4, 5, 5]
    code, _out, err = run(
        capsys, "roll", "poledemos", "activate", "--sheet", "Section Perry", "--figure",
        "Sergent Perry", "--followers", "Tireur", "--campaign", "C", "--db", db,
    )  # fmt: skip
    assert code == 2 and "not a follower of Sergent Perry (PD-8)" in err
    hand = answer(
        capsys,
        "odds",
        "poledemos",
        "hand",
        "--sheet",
        "Section Perry",
        "--campaign",
        "C",
        "--db",
        db,
    )
    assert len(hand["params"]["figures"]) == 8
