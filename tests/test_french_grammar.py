"""Issue 30, part 4: French as a French reader writes it — typography (no-break spaces before
« : », narrow ones before « ; ! ? », inside « »), names in a French dictionary's order, one word
per concept (a round is a « manche », a fighter's turn a « tour »), and sentences that need no
agreement with a character's gender (« Coup au but sur Rosalie », « Rafale disponible »)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from cli_run import run
from jdr.dice import GivenFaces
from jdr.i18n import NBSP, NNBSP, _, labelled, language, typeset
from jdr.store import Store
from jdr.systems.ilvermorny.actions import StudyParams, roll_study

SRC = Path(__file__).resolve().parents[1] / "src" / "jdr"
EXAMPLES = SRC / "systems"
PO = SRC / "locale" / "fr" / "LC_MESSAGES" / "jdr.po"


def test_every_french_message_is_typeset() -> None:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    loose = []
    for message in catalog:
        if not message.id:
            continue  # the header
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        loose += [s for s in strings if isinstance(s, str) and s and typeset(s) != s]
    assert loose == []


def test_typeset_spaces_the_marks_and_leaves_code_alone() -> None:
    assert typeset("Énergie : 8 ; Volonté? « oui »") == (
        f"Énergie{NBSP}: 8{NNBSP}; Volonté{NNBSP}? «{NBSP}oui{NBSP}»"
    )
    assert typeset('{"PNJ": "objet"} à 12:30, 2d6!') == '{"PNJ": "objet"} à 12:30, 2d6!'
    with language("fr"):
        assert labelled("Carapuce", "Dextérité 3") == f"Carapuce{NBSP}: Dextérité 3"
    assert labelled("Carapuce", "Dextérité 3") == "Carapuce: Dextérité 3"


def _no_loose_mark(text: str) -> None:
    """No ordinary space before a French mark, and no mark glued to a word (dice notation and
    times aside)."""
    assert not re.search(r" [:;!?](\s|$)", text), text
    assert not re.search(r"[A-Za-zÀ-ÿ)][:;?](\s|$)", text), text


def test_pk_1_a_check_from_the_command_line_is_typeset_in_french(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("roll", "pokemon", "check", "--dice", "4", "--difficulty", "6", "--faces", "7,1,2,6")
    code, out, err = run(capsys, *args, "--lang", "fr")
    assert code == 0, err
    assert f"4d10 DD6{NBSP}: " in out
    _no_loose_mark(out)
    code, out, _err = run(capsys, *args)
    assert "4d10 DD6: " in out


def test_a_french_error_is_typeset(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "roll", "pokemn", "check", "--lang", "fr")
    assert code == 2
    assert err.startswith(f"jdr{NBSP}: erreur{NBSP}: ")
    assert f"pokemon{NNBSP}?" in err
    _no_loose_mark(err)


def test_names_are_listed_in_french_dictionary_order(store: Store) -> None:
    campaign = store.create_campaign("example", "Mardi")
    for name in ("Pikachu", "Zoé", "Évoli", "léa", "Eve"):
        store.add_character(campaign, name, {"vitality": 3})
    expected = ["Eve", "Évoli", "léa", "Pikachu", "Zoé"]
    assert [c.name for c in store.characters(campaign)] == expected
    assert [c.name for c in store.roster(campaign)] == expected
    store.create_campaign("example", "Été")
    store.create_campaign("example", "Automne")
    assert [c.name for c in store.campaigns()] == ["Automne", "Été", "Mardi"]


def _campaign(capsys: pytest.CaptureFixture[str], db: str, system: str, *sheets: str) -> None:
    assert run(capsys, "campaign", "new", "C", "--system", system, "--db", db)[0] == 0
    folder = EXAMPLES / system.replace("-", "_") / "examples"
    for sheet in sheets:
        file, _colon, name = sheet.partition(":")
        code, _out, err = run(
            capsys,
            "sheet",
            "add",
            str(folder / file),
            "--campaign",
            "C",
            "--name",
            name,
            "--db",
            db,
        )
        assert code == 0, err


def test_pu_8_a_ready_technique_and_the_round_read_without_agreement(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A technique is « disponible » (never « Rafale prêt »); a round is a « manche »."""
    db = f"sqlite:///{tmp_path}/t.db"
    _campaign(capsys, db, "plus-ultra", "hero.toml:Rosalie", "villain.toml:Corbeau")
    assert (
        run(capsys, "fight", "new", "--campaign", "C", "--with", "Rosalie,Corbeau", "--db", db)[0]
        == 0
    )
    code, out, _err = run(capsys, "fight", "show", "1", "--db", db, "--lang", "fr")
    assert code == 0
    assert f"Manche 1 — à jouer{NBSP}: Rosalie" in out
    assert "Rafale disponible" in out and "prêt" not in out
    assert not re.search(r"\btours? \d", out)


def test_ps_13_a_hit_names_its_target_without_agreeing_with_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """« Rosalie est touché » could not be right for both genders: « Coup au but sur Rosalie »,
    and the damage's type agrees with « dégâts » (« dégâts physiques »)."""
    db = f"sqlite:///{tmp_path}/t.db"
    _campaign(capsys, db, "passion", "romuald.toml:Romuald", "cyber-ninja.toml:Rosalie")
    with language("fr"):
        from jdr.systems.passion.damage import kind_words

        assert [kind_words(k) for k in ("physique", "mental", "energetique")] == [
            "dégâts physiques",
            "dégâts mentaux",
            "dégâts énergétiques",
        ]
    with language("fr"):
        said = _("{target} is hit: damage {damage} {type} against resistance {resistance}.")
    assert "touché" not in said and said.startswith("Coup au but sur {target}")


def test_il_9_no_hour_and_one_hour_are_singular_in_french() -> None:
    with language("fr"):
        failed_first = roll_study(
            StudyParams(comprehension=1, resolution=1, hours=3), GivenFaces([11])
        ).explain()
        assert "0 heure accomplie sur 3, 0 PX" in failed_first
        one = roll_study(
            StudyParams(comprehension=6, resolution=7, hours=2), GivenFaces([3, 4, 9])
        ).explain()
        assert "1 heure accomplie sur 2" in one
        both = roll_study(
            StudyParams(comprehension=10, resolution=10, hours=2), GivenFaces([1, 1, 1, 1])
        ).explain()
        assert "2 heures accomplies sur 2" in both
    assert (
        "0 hours of 3 completed"
        in roll_study(
            StudyParams(comprehension=1, resolution=1, hours=3), GivenFaces([11])
        ).explain()
    )
