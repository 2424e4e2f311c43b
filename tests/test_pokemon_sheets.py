"""Pokémon sheets: the models, their validation (PK-8, PK-16, PK-22) and the TOML loaders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from jdr.errors import InputError, UnknownNameError
from jdr.systems.pokemon.sheet_files import (
    SheetError,
    example_path,
    input_error,
    load_example,
    load_pokemon,
    load_sheet,
    load_trainer,
)
from jdr.systems.pokemon.sheets import (
    MAX_MOVES,
    Gauge,
    Pokemon,
    Stats,
    Trainer,
    change_stat,
    condition_id,
    effective_stats,
    stat_id,
    total_evs,
)

POKEMON_TOML = example_path("pokemon").read_text(encoding="utf-8")
TRAINER_TOML = example_path("trainer").read_text(encoding="utf-8")


def pokemon_data(**changes: Any) -> dict[str, Any]:
    """The example Pokémon as plain data, with `changes` applied."""
    data: dict[str, Any] = load_example("pokemon").model_dump()
    data.update(changes)
    return data


def problem(data: dict[str, Any], model: type[Pokemon] | type[Trainer] = Pokemon) -> SheetError:
    """The error validating `data` gives, as the loaders raise it."""
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return input_error(caught.value)


# The example sheets


def test_example_pokemon_loads_with_four_varied_moves() -> None:
    pikachu = load_example("pokemon")
    assert isinstance(pikachu, Pokemon)
    assert pikachu.types == ["electrik"]
    assert len(pikachu.moves) == 4
    assert {move.category for move in pikachu.moves} == {"physique", "speciale", "statut"}
    assert [move.name for move in pikachu.moves if move.high_crit] == ["Tranche"]
    inflicting = [move for move in pikachu.moves if move.inflicts]
    assert [(m.inflicts.condition, m.inflicts.chance) for m in inflicting if m.inflicts] == [
        ("paralysis", 30)
    ]
    status = [move for move in pikachu.moves if move.category == "statut"]
    assert status[0].stat_change is not None
    assert status[0].stat_change.stat == "constitution"
    assert all(move.type in {"electrik", "normal"} for move in pikachu.moves)
    assert pikachu.vitality.current <= pikachu.vitality.max


def test_example_trainer_loads() -> None:
    lea = load_example("trainer")
    assert isinstance(lea, Trainer)
    assert lea.pokemon == ["Pikachu"]
    assert lea.skills["Athlétisme"] == 2


@pytest.mark.parametrize("name", ["pokemon", "trainer"])
def test_example_sheets_round_trip(name: str) -> None:
    sheet = load_example(name)
    assert type(sheet).model_validate(sheet.model_dump()) == sheet


def test_unknown_example_names_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match="pokemon, trainer"):
        example_path("dragon")


def test_load_sheet_from_a_path_or_a_path_string(tmp_path: Path) -> None:
    file = tmp_path / "pikachu.toml"
    file.write_text(POKEMON_TOML, encoding="utf-8")
    assert load_sheet(file) == load_sheet(str(file)) == load_example("pokemon")


def test_load_sheet_detects_the_kind_without_a_kind_key() -> None:
    assert load_sheet(POKEMON_TOML.replace('kind = "pokemon"', "")).kind == "pokemon"
    assert load_sheet(TRAINER_TOML.replace('kind = "trainer"', "")).kind == "trainer"
    assert load_sheet(POKEMON_TOML.replace('kind = "pokemon"', 'kind = "Pokémon"')).kind == (
        "pokemon"
    )


def test_loaders_refuse_a_sheet_of_another_kind() -> None:
    with pytest.raises(InputError) as caught:
        load_trainer(POKEMON_TOML)
    assert caught.value.field == "kind"
    assert load_pokemon(POKEMON_TOML).name == "Pikachu"
    assert load_trainer(TRAINER_TOML).name == "Léa"


def test_unknown_kind_names_the_known_ones() -> None:
    with pytest.raises(InputError, match="pokemon, trainer"):
        load_sheet(POKEMON_TOML.replace('kind = "pokemon"', 'kind = "dresseur"'))


# Bad files and values: InputError naming the field path


def test_bad_toml_is_an_input_error_with_the_line() -> None:
    with pytest.raises(InputError, match="line 2") as caught:
        load_sheet('name = "Pikachu"\nlevel = = 5\n')
    assert caught.value.message() == (
        "sheet, line 2, column 9: not a TOML value (one = between a key and its value)"
    )


def test_missing_or_unreadable_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"missing\.toml"):
        load_sheet(tmp_path / "missing.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfename")
    with pytest.raises(InputError, match="not UTF-8 text"):
        load_sheet(binary)


def test_bad_value_names_the_field_path_and_what_is_allowed() -> None:
    with pytest.raises(SheetError) as caught:
        load_sheet(POKEMON_TOML.replace("accuracy = 70", "accuracy = 170"))
    assert caught.value.field == "moves[2].accuracy"
    assert caught.value.value == 170
    assert caught.value.message() == (
        "moves[2].accuracy: 170 — must be at most 100 (allowed: whole number, 1..100)"
    )


def test_wrong_kind_of_value_and_unknown_key() -> None:
    error = problem(pokemon_data(level="five"))
    assert (error.field, error.reason) == ("level", "not a whole number")
    stats = {"strength": 2, "concentration": 3, "constitution": 2, "willpower": 2, "dexterite": 4}
    error = problem(pokemon_data(stats=stats))
    assert [p.field for p in error.problems] == ["stats.dexterity", "stats.dexterite"]
    assert error.problems[1].reason == "unknown key"
    assert "dexterity" in error.problems[1].allowed


def test_every_problem_is_listed_with_the_source() -> None:
    with pytest.raises(SheetError) as caught:
        load_sheet('kind = "trainer"\nname = "Léa"\n')
    fields = [p.field for p in caught.value.problems]
    assert fields == ["stats", "vitality", "energy"]
    text = caught.value.message()
    first, *lines = text.splitlines()
    assert first == "3 problems"
    assert lines[0].startswith("  stats: required (allowed: a table with strength, concentration")
    assert [line.split(":")[0].strip() for line in lines] == fields, "one problem per line"


def test_input_error_works_on_a_model_built_in_code() -> None:
    with pytest.raises(ValidationError) as caught:
        Gauge(current=9, max=8)
    assert input_error(caught.value).field == "current"


def test_names_may_not_be_blank() -> None:
    assert problem(pokemon_data(name="  ")).field == "name"


# PK-8: a stat never below 1


def test_pk_8_a_stat_below_1_is_refused_with_the_rule() -> None:
    with pytest.raises(SheetError) as caught:
        load_sheet(POKEMON_TOML.replace("strength = 2 ", "strength = 0 "))
    assert caught.value.field == "stats.strength"
    assert "stats.strength: 0" in caught.value.message()
    assert "(PK-8)" in caught.value.message()


def test_pk_8_a_lowered_stat_stops_at_1() -> None:
    stats = Stats(strength=2, concentration=3, constitution=1, willpower=2, dexterity=4)
    assert change_stat(stats, "Force", -2).strength == 1
    assert change_stat(stats, "constitution", -1).constitution == 1
    assert change_stat(stats, "Dextérité", 2).dexterity == 6
    assert stats.strength == 2


# PK-16, PK-17: conditions


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("Brûlure", "burn"),
        ("brulure", "burn"),
        ("Empoisonnement", "poison"),
        ("EMPOISONNEMENT GRAVE", "bad_poison"),
        ("bad_poison", "bad_poison"),
        ("Paralysie", "paralysis"),
        ("Gel", "freeze"),
        ("sleep", "sleep"),
        ("Sommeil", "sleep"),
        (None, None),
    ],
)
def test_pk_16_major_condition_in_french_or_english(given: str | None, stored: str | None) -> None:
    assert Pokemon.model_validate(pokemon_data(condition=given)).condition == stored


def test_pk_16_at_most_one_major_condition() -> None:
    error = problem(pokemon_data(condition=["Brûlure", "Sommeil"]))
    assert error.field == "condition"
    assert "PK-16" in error.message()
    assert Pokemon.model_validate(pokemon_data(condition=["gel"])).condition == "freeze"


def test_pk_16_a_major_condition_is_not_a_volatile_one() -> None:
    error = problem(pokemon_data(condition="burn", volatile=["Confusion", "Sommeil"]))
    assert error.field == "volatile[2]"
    assert "PK-16" in error.message()


def test_pk_16_a_volatile_condition_is_not_the_major_one() -> None:
    error = problem(pokemon_data(condition="Confusion"))
    assert (error.field, error.value) == ("condition", "Confusion")
    assert "PK-17" in error.message()


def test_pk_17_volatile_conditions_in_french_or_english_once_each() -> None:
    volatile = ["Confusion", "Attirance", "curse", "Peur", "peur"]
    pikachu = Pokemon.model_validate(pokemon_data(condition="Paralysie", volatile=volatile))
    assert pikachu.volatile == ["confusion", "infatuation", "curse", "flinch"]


def test_unknown_condition_names_the_known_ones() -> None:
    error = problem(pokemon_data(condition="Brûlé"))
    assert (error.field, error.reason) == ("condition", "unknown condition")
    assert "bad_poison" in error.allowed
    with pytest.raises(UnknownNameError):
        condition_id("Brûlé")
    assert condition_id("Malédiction") == "curse"


# PK-22: EV limits; each EV raises its stat by 1


def test_pk_22_at_most_6_evs_in_one_stat() -> None:
    assert Pokemon.model_validate(pokemon_data(evs={"strength": 6})).evs == {"strength": 6}
    error = problem(pokemon_data(evs={"strength": 7}))
    assert error.field == "evs.strength"
    assert str(error).startswith("evs.strength: 7 (more than 6 EVs in one stat (PK-22)")


def test_pk_22_at_most_18_evs_in_total() -> None:
    evs = {"strength": 6, "concentration": 6, "willpower": 6}
    assert total_evs(Pokemon.model_validate(pokemon_data(evs=evs))) == 18
    error = problem(pokemon_data(evs={**evs, "dexterity": 1}))
    assert (error.field, error.value) == ("evs", 19)
    assert "PK-22" in error.message()


def test_pk_22_trainers_have_the_same_limits() -> None:
    data = load_example("trainer").model_dump()
    assert problem({**data, "evs": {"dexterity": 7}}, Trainer).field == "evs.dexterity"


def test_pk_22_ev_keys_in_french_or_english_and_never_negative() -> None:
    pikachu = Pokemon.model_validate(pokemon_data(evs={"Volonté": 2, "FORCE": 1}))
    assert pikachu.evs == {"willpower": 2, "strength": 1}
    error = problem(pokemon_data(evs={"vitesse": 1}))
    assert (error.field, error.reason) == ("evs.vitesse", "unknown stat")
    error = problem(pokemon_data(evs={"strength": -1}))
    assert (error.field, error.allowed) == ("evs.strength", "0..")


def test_pk_22_each_ev_raises_its_stat_by_1() -> None:
    pikachu = Pokemon.model_validate(pokemon_data(evs={"dexterity": 2, "strength": 1}))
    effective = effective_stats(pikachu)
    assert (effective.dexterity, effective.strength) == (6, 3)
    assert effective.willpower == pikachu.stats.willpower


def test_stat_names_in_french_or_english() -> None:
    assert stat_id("Volonté") == "willpower"
    with pytest.raises(UnknownNameError):
        stat_id("vitesse")


# Types, moves, gauges


def test_types_are_stored_as_ids() -> None:
    pikachu = Pokemon.model_validate(pokemon_data(types=["ELECTR", "Fée"]))
    assert pikachu.types == ["electrik", "fee"]


@pytest.mark.parametrize(
    ("types", "field", "reason"),
    [
        (["Électrik", "Lumière"], "types[2]", "unknown type"),
        (["Eau", "eau"], "types", "the same type twice"),
        ([], "types", "too few items"),
        (["Eau", "Vol", "Feu"], "types", "too many items"),
    ],
)
def test_bad_types(types: list[str], field: str, reason: str) -> None:
    error = problem(pokemon_data(types=types))
    assert (error.field, error.reason) == (field, reason)


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("spéciale", "speciale"),
        ("speciale", "speciale"),
        ("Special", "speciale"),
        ("PHYSIQUE", "physique"),
        ("physical", "physique"),
        ("status", "statut"),
    ],
)
def test_move_category_spellings(given: str, stored: str) -> None:
    move = {"name": "Charge", "type": "Normal", "category": given}
    assert Pokemon.model_validate(pokemon_data(moves=[move])).moves[0].category == stored


def test_move_type_and_category_errors_name_the_move() -> None:
    move = {"name": "Charge", "type": "Lumière", "category": "attaque"}
    fields = [p.field for p in problem(pokemon_data(moves=[move])).problems]
    assert fields == ["moves[1].type", "moves[1].category"]


def test_at_most_four_moves_unless_the_table_lifts_it() -> None:
    moves = [{"name": f"Move {i}", "type": "normal", "category": "physique"} for i in range(5)]
    error = problem(pokemon_data(moves=moves))
    assert (error.field, error.value) == ("moves", 5)
    assert error.allowed == f"0..{MAX_MOVES}"
    extra = '\n[[moves]]\nname = "Vive-Attaque"\ntype = "Normal"\ncategory = "physique"\n'
    with pytest.raises(SheetError):
        load_pokemon(POKEMON_TOML + extra)
    assert len(load_pokemon(POKEMON_TOML + extra, max_moves=None).moves) == 5


def test_the_same_move_twice_is_refused() -> None:
    move = {"name": "Charge", "type": "normal", "category": "physique"}
    error = problem(pokemon_data(moves=[move, {**move, "name": "CHARGE"}]))
    assert (error.field, error.value) == ("moves[2]", "CHARGE")


def test_gauge_current_at_most_max() -> None:
    error = problem(pokemon_data(vitality={"current": 15, "max": 14}))
    assert error.message() == "vitality.current: 15 — more than the maximum 14 (allowed: 0..14)"
    assert problem(pokemon_data(energy={"current": -1, "max": 10})).field == "energy.current"
