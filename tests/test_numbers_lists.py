"""Numbers as people write them (`40,5`, `40%`, `40 %`) where a number or a percentage is asked,
list options taking commas, and choices typed in any case."""

from __future__ import annotations

import tomllib
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from cli_run import answer as run_json
from cli_run import run
from jdr.dice import GivenFaces
from jdr.errors import InputError
from jdr.fights import Fight
from jdr.fights.setup import parse_pairs
from jdr.i18n import language
from jdr.params import PERCENT, describe_allowed, read_number, read_percent, validate_params
from jdr.systems.passion.fight import fight_rules
from jdr.systems.passion.sheet_files import example_path
from jdr.systems.pokemon.sheets import Pokemon


class Model(BaseModel):
    share: Annotated[float, PERCENT] = Field(default=0, ge=0, le=100)
    chance: Annotated[int, PERCENT] = Field(default=0, ge=0, le=100)
    weight: float = 0
    count: int = 0
    items: list[str] = Field(default_factory=list)
    ball: Literal["poke", "super"] = "poke"


# --- the core --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "read"),
    [("40,5", "40.5"), ("40.5", "40.5"), (" 40 ", "40"), ("-1,25", "-1.25"), ("1,2,3", "1,2,3")],
)
def test_a_number_takes_a_decimal_comma(written: str, read: str) -> None:
    assert read_number(written) == read


@pytest.mark.parametrize(
    ("written", "read"),
    [("40%", "40"), ("40 %", "40"), ("40\u202f%", "40"), ("40,5 %", "40.5"), ("40", "40")],
)
def test_a_percentage_takes_a_percent_sign(written: str, read: str) -> None:
    assert read_percent(written) == read


@pytest.mark.parametrize("written", ["40,5", "40,5%", "40.5 %", " 40,5 % "])
def test_a_percentage_field_reads_every_form(written: str) -> None:
    assert validate_params(Model, {"share": written}).share == 40.5


def test_a_whole_percentage_reads_the_sign_and_refuses_a_decimal() -> None:
    assert validate_params(Model, {"chance": "30 %"}).chance == 30
    with pytest.raises(InputError, match="not a whole number"):
        validate_params(Model, {"chance": "30,5%"})


def test_a_number_field_reads_a_decimal_comma() -> None:
    assert validate_params(Model, {"weight": "6,5"}).weight == 6.5


def test_a_percent_sign_only_where_a_percentage_is_asked() -> None:
    with pytest.raises(InputError) as caught:
        validate_params(Model, {"weight": "6%"})
    assert (caught.value.field, caught.value.reason) == ("weight", "not a number")
    with pytest.raises(InputError, match="not a whole number"):
        validate_params(Model, {"count": "6%"})


def test_a_percentage_is_described_as_one_in_both_languages() -> None:
    assert describe_allowed(Model.model_fields["share"]) == "percentage, 0..100"
    with language("fr"):
        assert describe_allowed(Model.model_fields["share"]) == "pourcentage, 0..100"


def test_list_items_split_at_commas_and_repeat() -> None:
    given = {"items": ["Sommeil,Confusion", " Gel ", "Peur, Attirance"]}
    assert validate_params(Model, given).items == [
        "Sommeil",
        "Confusion",
        "Gel",
        "Peur",
        "Attirance",
    ]
    assert validate_params(Model, {"items": "a,b"}).items == ["a", "b"]


def test_a_choice_in_any_case_or_accents() -> None:
    assert validate_params(Model, {"ball": "SUPER"}).ball == "super"
    assert validate_params(Model, {"ball": "Poké"}).ball == "poke"
    with pytest.raises(InputError, match="not one of the choices"):
        validate_params(Model, {"ball": "hyper"})


def test_pk_16_a_sheet_s_inflict_chance_takes_a_percent_sign() -> None:
    from jdr.systems.pokemon.sheet_files import example_path as pokemon_example

    data = tomllib.loads(pokemon_example("pokemon").read_text(encoding="utf-8"))
    move = next(m for m in data["moves"] if m.get("inflicts"))
    move["inflicts"]["chance"] = "30 %"
    sheet = Pokemon.model_validate(data)
    chances = [m.inflicts.chance for m in sheet.moves if m.inflicts is not None]
    assert 30 in chances


def test_fight_values_read_decimals_with_a_point_and_lists_with_commas() -> None:
    assert parse_pairs(["x=2.5", "y=2,5", "z=Bob"]) == {"x": 2.5, "y": [2, 5], "z": "Bob"}


def test_ps_7_a_one_name_list_in_a_fight_command() -> None:
    """`npc_energy=Ninja` on the command line is the list `["Ninja"]`."""

    def sheet(example: str, side: str, **changes: Any) -> dict[str, Any]:
        data: dict[str, Any] = tomllib.loads(example_path(example).read_text(encoding="utf-8"))
        return data | {"side": side} | changes

    fight = Fight.start(
        fight_rules(),
        {"fighters": [sheet("romuald", "heroes"), sheet("cyber-ninja", "ninjas", name="Ninja")]},
        GivenFaces([]),
    )
    for name, marker in (("Romuald", 2), ("Ninja", 0)):
        fight.act({"action": "choose_marker", "actor": name, "marker": marker}, GivenFaces([]))
    attack = {"action": "attack", "actor": "Romuald", "target": "ninja", "dice": "2d6"}
    events = fight.act(attack | parse_pairs(["npc_energy=Ninja"]), GivenFaces([4, 6]))
    spent = next(e for e in events if e["type"] == "pool_spent")
    assert (spent["name"], spent["use"]) == ("Ninja", "score")


# --- the command line ------------------------------------------------------------------------

CAPTURE = ["pokemon", "capture", "--ball", "super", "--difficulty", "8"]


@pytest.mark.parametrize("written", ["40,5", "40.5", "40,5%", "40,5 %"])
def test_pk_20_vitality_pct_as_people_write_it(
    written: str, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = run_json(capsys, "odds", *CAPTURE, "--vitality-pct", written)
    assert payload["params"]["vitality_pct"] == 40.5
    assert payload["difficulty"] == 6  # PK-20: Vitalité ≤ 50 % lowers the difficulty by 2


@pytest.mark.parametrize("written", ["40%", "40 %"])
def test_pk_20_vitality_pct_with_a_percent_sign(
    written: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        run_json(capsys, "odds", *CAPTURE, "--vitality-pct", written)["params"]["vitality_pct"]
        == 40
    )


def test_pk_20_a_percent_sign_elsewhere_is_refused_in_both_languages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["roll", "pokemon", "capture", "--ball", "super", "--difficulty", "8%"]
    code, _out, err = run(capsys, *args)
    assert (code, err) == (
        2,
        "jdr: error: --difficulty: 8% — not a whole number (allowed: whole number, 1..100)\n",
    )
    code, _out, err = run(capsys, *args, "--lang", "fr")
    assert code == 2 and err.startswith("jdr : erreur : --difficulty : 8% — ")
    code, _out, err = run(capsys, "roll", *CAPTURE, "--vitality-pct", "beaucoup %", "--lang", "fr")
    assert code == 2 and "(permis : pourcentage, 0..100)" in err


def test_pk_20_conditions_take_commas_as_well_as_repeats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    comma = run_json(capsys, "odds", *CAPTURE, "--condition", "Sommeil,Confusion")
    repeat = run_json(
        capsys, "odds", *CAPTURE, "--condition", "Sommeil", "--condition", "Confusion"
    )
    assert comma["params"]["condition"] == ["Sommeil", "Confusion"]
    assert comma["difficulty"] == repeat["difficulty"] == 1  # 8 − 6 (sleep) − 2 (confusion) … ≥ 1
    assert comma["outcomes"] == repeat["outcomes"]
    english = run_json(capsys, "odds", *CAPTURE, "--condition", "sleep,CONFUSION")
    assert english["difficulty"] == 1 and english["outcomes"] == comma["outcomes"]


def test_pk_16_two_major_conditions_by_comma_named_in_the_reader_s_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["roll", *CAPTURE, "--condition", "Sommeil,Brûlure"]
    code, _out, err = run(capsys, *args)
    assert code == 2 and "--condition: sleep, burn — " in err and "(PK-16)" in err
    code, _out, err = run(capsys, *args, "--lang", "fr")
    assert code == 2 and "--condition : Sommeil, Brûlure — " in err


def test_an_unknown_condition_lists_french_names_in_french(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _out, err = run(capsys, "roll", *CAPTURE, "--condition", "Someil", "--lang", "fr")
    assert code == 2
    assert "altération Someil : introuvable — vouliez-vous dire Sommeil ?" in err
    assert "Brûlure, Empoisonnement, Empoisonnement grave" in err and "sleep" not in err
    code, _out, err = run(capsys, "roll", *CAPTURE, "--condition", "Someil")
    assert "unknown condition Someil — did you mean sleep? (known: burn, poison," in err


def test_ps_9_markers_and_poledemos_groups_mix_commas_and_repeats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    passion = run_json(
        capsys, "roll", "passion", "initiative", "--markers", "2,5", "--markers", "3",
        "--mobility", "1",
    )  # fmt: skip
    assert passion["params"]["markers"] == [2, 5, 3]
    poledemos = run_json(
        capsys, "odds", "poledemos", "activate", "--val", "3", "--dice", "2",
        "--group", "4+", "--group", "5+,5+",
    )  # fmt: skip
    assert poledemos["params"]["group"] == [4, 5, 5]


def test_a_choice_option_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(capsys, "odds", "pokemon", "capture", "--ball", "SUPER", "--difficulty", "8")
    assert payload["params"]["ball"] == "super"


def test_help_says_percentage_and_how_lists_are_given(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "roll", "pokemon", "capture", "--help")
    flat = " ".join(out.split())
    assert code == 0
    assert "[percentage, 0..100]" in flat and "[list: A,B or the option repeated]" in flat
    code, out, _err = run(capsys, "roll", "pokemon", "capture", "--help", "--lang", "fr")
    flat = " ".join(out.split())
    assert "[pourcentage, 0..100]" in flat and "[liste : A,B ou l'option répétée]" in flat


# --- English type names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("english", "french"),
    [
        ("electric", "electrik"),
        ("water", "eau"),
        ("fire", "feu"),
        ("grass", "plante"),
        ("dark", "tenebres"),
        ("fairy", "fee"),
        ("Fighting", "combat"),
        ("GHOST", "spectre"),
        ("bug", "insecte"),
    ],
)
def test_pk_11_english_type_names_map_to_the_chart_s_ids(
    english: str, french: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_json(capsys, "pokemon", "types", english, "normal")["move_type"] == french


def test_pk_11_english_types_in_an_attack_and_the_types_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    french = run_json(capsys, "pokemon", "types", "electrik", "eau/vol", "--user", "electrik")
    english = run_json(capsys, "pokemon", "types", "electric", "water/flying", "--user", "Electric")
    assert english["multiplier"] == french["multiplier"] == 6
    attack = run_json(
        capsys, "roll", "pokemon", "attack", "--attack-dice", "4", "--damage-dice", "3",
        "--move-type", "electric", "--defender-types", "water/flying",
        "--faces", ",".join("9" * 11),
    )  # fmt: skip
    assert (attack["multiplier"], attack["damage"]) == (4, 28)
    assert [r["against"] for r in attack["details"]["multiplier_reasons"]] == ["eau", "vol"]


def test_pk_11_an_unknown_type_lists_french_names_in_french(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _out, err = run(capsys, "pokemon", "types", "fir", "eau", "--lang", "fr")
    assert code == 2
    assert "type fir : introuvable — vouliez-vous dire Feu ? (au choix : Acier, Combat," in err
    assert "Électrik, Fée, Feu" in err
    code, _out, err = run(capsys, "pokemon", "types", "watr", "eau")
    assert "unknown type watr — did you mean eau? (known: acier, combat," in err
