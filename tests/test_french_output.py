"""French output reads as French: no identifier left in English, decimal commas, `n°`."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from jdr.cli.app import main
from jdr.i18n import _, language
from jdr.numbers import significant
from jdr.params import validate_params
from jdr.systems import default_registry

IDENTIFIER = re.compile(r"(?<![\w/.-])[a-z]+_[a-z_]+\b")
DOT_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
SAME_IN_FRENCH = {"a", "b", "score", "initiative", "poke", "super", "hyper", "master", ""}
"""Words a French reader reads as they are: the duel's two sides, French words, ball names."""


def _shown_keys(extra: Mapping[str, Any]) -> Iterator[str]:
    """The keys an odds answer shows as words: its own keys, and the rows and columns of its
    tables (`{name: {column: value}}`)."""
    for key, value in extra.items():
        yield key
        rows = value.values() if isinstance(value, Mapping) else ()
        if rows and all(isinstance(row, Mapping) for row in rows):
            for name, row in value.items():
                yield str(name)
                yield from map(str, row)


def _examples() -> Iterator[tuple[str, str, Any]]:
    registry = default_registry()
    for system_id in registry.ids():
        for name, action in registry.get(system_id).actions.items():
            yield system_id, name, action


@pytest.mark.parametrize(("system_id", "name", "action"), list(_examples()))
def test_every_word_an_odds_answer_shows_has_french(system_id: str, name: str, action: Any) -> None:
    if action.odds is None:
        pytest.skip("no odds")
    odds = action.odds(validate_params(action.params, dict(action.example)), False)
    words = {*map(str, odds.outcomes), odds.label, *_shown_keys(odds.extra)}
    with language("fr"):
        english = sorted(w for w in words - SAME_IN_FRENCH if _(w) == w and not w.isdigit())
    assert english == [], f"{system_id} {name}: no French for {english}"


def _options(example: Mapping[str, Any]) -> list[str]:
    words: list[str] = []
    for key, value in example.items():
        option = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            words += [option] if value else []
        elif isinstance(value, list):
            words += [w for item in value for w in (option, str(item))]
        else:
            words += [option, str(value)]
    return words


@pytest.mark.parametrize(("system_id", "name", "action"), list(_examples()))
def test_french_roll_and_odds_text_has_no_identifier_and_no_decimal_point(
    system_id: str, name: str, action: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    modes = ["roll"] + ["odds"] * (action.odds is not None)
    for mode in modes:
        extra = ["--seed", "3"] if mode == "roll" else []
        code = main([mode, system_id, name, *_options(action.example), *extra, "--lang", "fr"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert IDENTIFIER.findall(out) == [], out
        assert DOT_DECIMAL.findall(out) == [], out


def test_numbers_in_explanations_take_the_decimal_comma_in_french(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["pokemon", "types", "feu", "eau", "--lang", "fr"]) == 0
    assert capsys.readouterr().out.strip() == "Feu → Eau\u00a0: Eau ×0,5 → ×0,5"
    with language("fr"):
        assert significant(1.5) == "1,5" and significant(-0.0) == "0"
    with language("en"):
        assert significant(1.5) == "1.5"


def test_numero_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "passion", "initiative", "--markers", "2,5", "--mobility", "3",
                 "--lang", "fr"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "n°2\u00a0: marqueur 5" in out and "#" not in out


def test_french_elides_before_a_name_that_starts_with_a_vowel() -> None:
    from jdr.fights.narration import Words

    waits = "the fight waits for {name}'s answer to {move}: respond first"
    with language("fr"):
        said = Words().say(waits, name="Aiko", move="Éclair")
        assert said.startswith("le combat attend la réponse d'Aiko")
        said = Words().say(waits, name="Kaito", move="Éclair")
        assert said.startswith("le combat attend la réponse de Kaito")
    with language("en"):
        assert "Aiko's answer" in Words().say(waits, name="Aiko", move="x")
