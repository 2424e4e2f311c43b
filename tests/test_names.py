"""Names as people type them (`jdr.names`): one normaliser, loose matching, did-you-mean."""

from __future__ import annotations

import pytest

from jdr.errors import UnknownNameError
from jdr.i18n import language
from jdr.names import AmbiguousNameError, closest, duplicate, find, fold, hint, match, same
from jdr.systems import Registry
from jdr.systems.protocol import System

SYSTEMS = ["ilvermorny", "passion", "plus-ultra", "pokemon", "poledemos"]


@pytest.mark.parametrize(
    ("typed", "folded"),
    [
        ("pokémon", "pokemon"),
        ("Pokemon", "pokemon"),
        ("POKÉMON", "pokemon"),
        ("polédémos", "poledemos"),
        ("plus_ultra", "plusultra"),
        ("Plus Ultra", "plusultra"),
        ("plus-ultra", "plusultra"),
        ("  Maître   Corbeau ", "maitrecorbeau"),
        ("Électrik", "electrik"),
        ("Straße", "strasse"),
    ],
)
def test_fold_ignores_case_accents_spaces_and_separators(typed: str, folded: str) -> None:
    assert fold(typed) == folded


@pytest.mark.parametrize("typed", ["pokémon", "Pokemon", "POKEMON", " pokemon "])
def test_systems_match_as_people_type_them(typed: str) -> None:
    assert find(typed, SYSTEMS) == "pokemon"


@pytest.mark.parametrize("typed", ["plus_ultra", "Plus Ultra", "PLUS-ULTRA", "plusultra"])
def test_underscore_dash_and_space_are_alike(typed: str) -> None:
    assert find(typed, SYSTEMS) == "plus-ultra"


def test_poledemos_with_its_accents() -> None:
    assert match("system", "Polédémos", SYSTEMS) == "poledemos"


def test_stored_names_keep_their_spelling() -> None:
    assert find("kaito-arashi", ["Kaito Arashi", "Maître Corbeau"]) == "Kaito Arashi"
    assert find("maitre corbeau", ["Kaito Arashi", "Maître Corbeau"]) == "Maître Corbeau"


def test_a_part_of_a_name_is_not_a_match() -> None:
    assert find("Kaito", ["Kaito Arashi"]) is None


def test_a_mapping_gives_the_name_each_spelling_stands_for() -> None:
    spellings = {"Feu": "feu", "fire": "feu", "Eau": "eau", "water": "eau"}
    assert find("FIRE", spellings) == "feu"
    assert find("eau", spellings) == "eau"


def test_ambiguous_match_is_refused_listing_both() -> None:
    with pytest.raises(AmbiguousNameError) as caught:
        find("ana", ["Ana", "ANA", "Bo"], "character")
    assert caught.value.matches == ["Ana", "ANA"]
    assert caught.value.code == "ambiguous_name"
    assert caught.value.message() == "character ana is ambiguous: it matches Ana and ANA"
    with language("fr"):
        assert caught.value.message() == "character ana est ambigu\u00a0: correspond à Ana et ANA"


def test_an_exact_spelling_wins_over_a_loose_one() -> None:
    assert find("Ana", ["Ana", "ANA"]) == "Ana"


def test_two_spellings_of_one_name_are_not_ambiguous() -> None:
    assert find("FEU", {"Feu": "feu", "feu": "feu"}) == "feu"


def test_did_you_mean_takes_the_closest_folded_name() -> None:
    assert closest("pokemn", SYSTEMS) == "pokemon"
    assert closest("Plus-Ultr", SYSTEMS) == "plus-ultra"
    assert closest("corbeau", ["Kaito Arashi", "Maître Corbeau"]) == "Maître Corbeau"
    assert closest("zzz", SYSTEMS) is None
    assert closest("", SYSTEMS) is None


def test_did_you_mean_through_a_spelling_returns_the_name_shown() -> None:
    assert closest("electrc", {"Électrik": "Électrik", "electric": "Électrik"}) == "Électrik"


def test_unknown_name_says_did_you_mean_in_both_languages() -> None:
    with pytest.raises(UnknownNameError) as caught:
        match("system", "pokemn", SYSTEMS)
    error = caught.value
    assert error.suggestion == "pokemon"
    known = "ilvermorny, passion, plus-ultra, pokemon, poledemos"
    assert error.message() == f"unknown system pokemn — did you mean pokemon? (known: {known})"
    with language("fr"):
        assert error.message() == (
            f"system pokemn\u00a0: introuvable — vouliez-vous dire pokemon\u202f? (au"
            f" choix\u00a0: {known})"
        )


def test_unknown_name_without_a_close_one_only_lists() -> None:
    error = UnknownNameError("system", "zzz", SYSTEMS)
    assert error.suggestion is None
    assert error.message().startswith("unknown system zzz (known: ")


def test_every_unknown_name_error_gets_a_suggestion() -> None:
    assert UnknownNameError("ball", "supr", ["poke", "super", "hyper"]).suggestion == "super"


def test_match_lists_what_it_is_told_to_show() -> None:
    with pytest.raises(UnknownNameError) as caught:
        match("type", "fir", {"Feu": "Feu", "fire": "Feu"}, shown=["Feu"])
    assert caught.value.allowed == "Feu"
    assert caught.value.suggestion == "Feu"


def test_duplicate_and_same() -> None:
    assert duplicate("mardi soir", ["Mardi Soir"]) == "Mardi Soir"
    assert duplicate("Mardi", ["Mardi Soir"]) is None
    assert same("Maître Corbeau", "MAITRE_CORBEAU")


def test_hint_in_both_languages() -> None:
    assert hint("Kaito", ["Kaito Arashi"]) == " — did you mean Kaito Arashi?"
    with language("fr"):
        assert hint("Kaito", ["Kaito Arashi"]) == " — vouliez-vous dire Kaito Arashi\u202f?"
    assert hint("Zed", ["Kaito Arashi"]) == ""


def test_registry_finds_systems_loosely() -> None:
    coin = System("plus-ultra", {"en": "Plus Ultra"})
    registry = Registry({"plus-ultra": coin})
    assert registry.get("Plus Ultra") is coin
    assert registry.get("plus_ultra") is coin
    assert registry.find("PLUS ULTRA") == "plus-ultra"
    assert registry.find("pokemon") is None
    with pytest.raises(UnknownNameError) as caught:
        registry.get("plus-ultr")
    assert caught.value.suggestion == "plus-ultra"


def test_pu_2_a_plus_tells_ranks_apart() -> None:
    ranks = ["E", "E+", "D", "D+", "C", "C+"]
    assert fold("C+") == "c+"
    assert (find("e", ranks), find("c+", ranks), find(" D+ ", ranks)) == ("E", "C+", "D+")


def test_another_case_is_closer_than_a_loose_spelling() -> None:
    assert find("mardi soir", ["Mardi Soir", "mardi-soir"]) == "Mardi Soir"
