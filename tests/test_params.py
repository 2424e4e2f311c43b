"""Parameter models: one definition, the project's own messages."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, Field

from jdr.errors import InputError
from jdr.i18n import language
from jdr.params import choices_of, describe_allowed, validate_params


class Params(BaseModel):
    dice: int = Field(ge=1, le=30)
    ball: Literal["poke", "super"] = "poke"
    ratio: float = Field(default=0.5, gt=0, lt=1)
    sharp: bool = False
    tags: list[str] = []


def test_strings_are_coerced() -> None:
    params = validate_params(Params, {"dice": "4", "ratio": "0.25", "sharp": True, "tags": ["a"]})
    assert (params.dice, params.ratio, params.sharp, params.tags) == (4, 0.25, True, ["a"])


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        ({"dice": "0"}, "dice", "at least 1"),
        ({"dice": "31"}, "dice", "at most 30"),
        ({"dice": "x"}, "dice", "not a whole number"),
        ({}, "dice", "required"),
        ({"dice": "1", "ball": "ultra"}, "ball", "poke, super"),
        ({"dice": "1", "ratio": "2"}, "ratio", "less than 1"),
    ],
)
def test_bad_values_name_field_value_and_allowed(
    raw: dict[str, str], field: str, words: str
) -> None:
    with pytest.raises(InputError) as caught:
        validate_params(Params, raw, lambda name: "--" + name)
    assert caught.value.field == "--" + field
    assert words in caught.value.message()


def test_describe_allowed() -> None:
    fields = Params.model_fields
    assert describe_allowed(fields["dice"]) == "whole number, 1..30"
    assert describe_allowed(fields["ball"]) == "one of poke, super"
    assert describe_allowed(fields["sharp"]) == "yes/no"
    assert choices_of(fields["ball"].annotation) == ["poke", "super"]


def test_messages_in_french() -> None:
    with language("fr"), pytest.raises(InputError) as caught:
        validate_params(Params, {"dice": "0"})
    assert "au moins 1" in caught.value.message()


class Listed(BaseModel):
    balls: list[Literal["poke", "super"]] = []
    by_name: dict[str, Literal["poke", "super"]] = {}


@pytest.mark.parametrize(
    ("raw", "field"),
    [({"balls": ["poke", "supper"]}, "balls[2]"), ({"by_name": {"A": "ultra"}}, "by_name.A")],
)
def test_a_choice_inside_a_list_or_a_table_lists_the_choices(
    raw: dict[str, object], field: str
) -> None:
    """Issue 29: an item of a list (`scenario=vital,bravoure`) said "allowed: -"."""
    with pytest.raises(InputError) as caught:
        validate_params(Listed, raw)
    assert caught.value.field == field
    assert caught.value.allowed == "one of poke, super"
    with language("fr"):
        with pytest.raises(InputError) as caught:
            validate_params(Listed, raw)
        assert "(permis\u00a0: au choix\u00a0: poke, super)" in caught.value.message()
