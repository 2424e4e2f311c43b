"""Numbers as a reader reads them (`jdr.numbers`, shown through `jdr.cli.render`): decimal commas
in French, and never a negative zero."""

from __future__ import annotations

from fractions import Fraction

import pytest

from jdr.cli.render import choices_table, console, decimal, percent
from jdr.i18n import language


@pytest.mark.parametrize("value", [-0.0, -1e-17, -0.00004, Fraction(-1, 10**9)])
def test_a_negative_zero_prints_as_zero(value: float | Fraction) -> None:
    assert decimal(value, 3) == "0.000"
    assert decimal(value) == "0.0000"
    with language("fr"):
        assert decimal(value, 3) == "0,000"


def test_a_negative_number_keeps_its_sign() -> None:
    assert decimal(-0.0006, 3) == "-0.001"
    assert decimal(-2) == "-2.0000"
    with language("fr"):
        assert decimal(-2.5, 1) == "-2,5"


def test_percent_of_zero_and_negative_zero() -> None:
    assert percent(-0.0) == percent(0) == "0 %"
    assert percent(0.5) == "50.00 %"
    with language("fr"):
        assert percent(0.5) == "50,00 %"
        assert percent(-0.0) == "0 %"


def test_the_advice_table_shows_no_negative_zero() -> None:
    out = console()
    with out.capture() as captured:
        out.print(choices_table([{"dice": "1d12", "p_success": 0.5, "mean_margin": -1e-17}]))
    assert "-0" not in captured.get() and "0.000" in captured.get()
