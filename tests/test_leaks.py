"""The leak detector itself (tests/leaks.py): it finds the code's identifiers and the other
language's words, and lets proper names, dice notation, hashes, numbers and URLs be."""

from __future__ import annotations

import pytest

from leaks import (
    ENGLISH_WORDS,
    FRENCH_WORDS,
    SAME_IN_FRENCH,
    code_identifiers,
    example_names,
    find_leaks,
)


def test_identifiers_come_from_the_code() -> None:
    found = code_identifiers()
    # model fields, Literal values, fight commands and keys, event types, journal kinds
    for word in ("willpower", "no_dodge", "deus_ex_machina", "end_activation", "choose_marker",
                 "fight_started", "sheet.created", "undo", "start", "reactions", "max_dice",
                 "counter_move"):  # fmt: skip
        assert word in found, word
    assert "plus-ultra" not in found and "poledemos" not in found  # names as typed
    # the example plug-in's own (Ombres: `recover`, its sheet's `finesse`, `stress_max`)
    assert {"recover", "finesse", "stress_max"} <= found


def test_it_finds_identifiers_in_french_text() -> None:
    text = "entrée 3\u00a0: sheet.created — Pikachu (dodge ou no_dodge), willpower 4"
    assert find_leaks(text, "fr") == ["sheet.created", "dodge", "no_dodge", "willpower"]


def test_it_accepts_french_with_names_accents_and_french_words_the_code_also_uses() -> None:
    assert find_leaks("Pikachu attaque Évoli\u00a0: touché", "fr") == []
    assert find_leaks("Technique de Kaito\u00a0: score 12, passion 3, initiative 7", "fr") == []
    assert find_leaks("«\u00a0Éclair\u00a0» de Pikachu\u00a0: 45,00 %", "fr") == []


def test_dice_hashes_numbers_urls_and_options_are_not_words() -> None:
    text = (
        "2d6+3 → 10\u202f; 4d10>=6f1\u202f; 1d20\u202f; graine"
        " c1f58a145d5a4fa1f28db3bc52b3a5d2\u202f;"
        " https://example.org/fight_ended?no_dodge=1\u202f; --max-dice 3\u202f;"
        " -h\u202f; 3.5\u202f; 1,5"
    )
    assert find_leaks(text, "fr") == []


def test_proper_names_are_names() -> None:
    assert {"Sergent Perry", "Éclair", "Caporal", "Corvo"} <= example_names()
    assert "Les corbeaux aveuglent la cible." in example_names()  # a sheet's own text
    assert "target" not in example_names()  # a value of the code, in a sheet
    assert find_leaks("Sergent Perry et Maître Corbeau", "en") == ["et"]
    assert find_leaks("Attack de Kaito", "fr") == ["Attack"]
    assert find_leaks("Kaito est touché", "en", names=["Kaito"]) == ["est", "touché"]
    assert find_leaks("Shadows, TOML, PostgreSQL, JDR_DATABASE_URL, Super Ball", "fr") == []


def test_english_text_may_use_english_identifiers_but_not_snake_case_or_french() -> None:
    assert find_leaks("Kaito attacks: hit, 3 damage; Volonté 2, Énergie 4, DD 12", "en") == []
    assert find_leaks("Kaito: no_dodge, sheet.created, vitality.current", "en") == [
        "no_dodge",
        "sheet.created",
        "vitality.current",
    ]
    assert find_leaks("permis\u00a0: une valeur", "en") == ["permis", "une", "valeur"]
    assert find_leaks("category speciale", "en") == ["speciale"]
    assert find_leaks("jdr sheet rename NAME NEW_NAME", "en") == []
    assert find_leaks("jdr sheet rename NOM NEW_NAME", "fr") == ["NEW_NAME"]


def test_game_terms_are_words_as_the_game_writes_them() -> None:
    assert find_leaks("Sergent Perry (VAL 3+)\u00a0: 2 PA, DD 6, 3 PX", "fr") == []
    assert find_leaks("val\u00a0: 3+", "fr") == ["val"]


def test_typed_names_are_syntax() -> None:
    """A `jdr …` command line's command names, a help's list of commands, code in backticks,
    the systems' ids (their names as typed) and file paths are what a reader types."""
    text = "Exemple\u00a0: jdr fight act 1 Pika\u202f; voir `jdr systems` et /tmp/a_b/c.toml"
    assert find_leaks(text, "fr") == []
    assert find_leaks("  show      Montrer un combat.", "fr") == []
    assert (
        find_leaks("Systèmes\u00a0: ilvermorny, passion, plus-ultra, pokemon, poledemos", "fr")
        == []
    )
    assert find_leaks("Exemple\u00a0: jdr fight act 1 Pika move", "fr") == ["move"]


def test_pydantic_words_are_leaks() -> None:
    assert find_leaks("par défaut PydanticUndefined", "fr") == ["PydanticUndefined"]


@pytest.mark.parametrize(
    "text",
    ["size\u00a0: 0 — un dé a au moins une face", "reconnue à son kind", "fiche d'exemple warband"],
)
def test_the_issues_terminal_leaks_are_found(text: str) -> None:
    assert find_leaks(text, "fr") != []


def test_the_word_lists_do_not_overlap() -> None:
    assert not (ENGLISH_WORDS & SAME_IN_FRENCH)
    assert not (FRENCH_WORDS & {w.lower() for w in ENGLISH_WORDS})


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="de"):
        find_leaks("x", "de")
