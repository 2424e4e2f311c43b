"""Numbers as a reader reads them, in the current language: decimal commas in French, and never a
negative zero (a float sum a hair below 0 shows as 0).

>>> from jdr.i18n import language
>>> percent(0.8005), decimal(-1e-17, 3), decimal(-0.0)
('80.05 %', '0.000', '0.0000')
>>> with language("fr"):
...     percent(0.8005), decimal(2.5, 3), significant(10.5)
('80,05 %', '2,500', '10,5')
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from jdr.i18n import current_language

__all__ = ["decimal", "percent", "significant"]


def percent(value: Any) -> str:
    """`80.05 %`, or `80,05 %` in French; a possibility is never rounded to 0 or 100 %.

    >>> percent(0), percent(1), percent(0.00001), percent(0.999999)
    ('0 %', '100 %', '1.00e-03 %', '99.9999 %')
    """
    p = float(value)
    if p == 0:
        text = "0"
    elif p == 1:
        text = "100"
    elif 0 < p < 0.0001:
        text = f"{p * 100:.2e}"
    else:
        text = f"{p * 100:.2f}"
        if text in ("100.00", "0.00"):  # never round a possibility to certainty, or away
            text = f"{p * 100:.6g}"
    return _localised(_unsigned_zero(text)) + " %"


def decimal(value: Any, places: int = 4) -> str:
    """A number to read with `places` decimals: `0.5000`, or `0,5000` in French.

    >>> decimal(-0.0004, 3), decimal(-0.0006, 3)
    ('0.000', '-0.001')
    """
    return _localised(_unsigned_zero(f"{float(value):.{places}f}"))


def significant(value: Any, digits: int = 4) -> str:
    """A number to `digits` significant digits: `10.5`, `10,5` in French.

    >>> significant(10.5), significant(2 / 3), significant(-1e-20, 2)
    ('10.5', '0.6667', '-1e-20')
    >>> significant(-0.0)
    '0'
    """
    return _localised(_unsigned_zero(f"{float(value):.{digits}g}"))


def _unsigned_zero(text: str) -> str:
    """`-0.000` → `0.000`: a number whose digits are all zeros has no sign."""
    mantissa = text.split("e", maxsplit=1)[0]
    if text.startswith("-") and not any(char in "123456789" for char in mantissa):
        return text[1:]
    return text


def _localised(text: str) -> str:
    return text.replace(".", ",") if current_language() == "fr" else text


_DURATION = re.compile(r"^\s*(\d{1,6})\s*(d|j|h|m|min)\s*$", re.IGNORECASE)


def duration(text: str) -> timedelta | None:
    """A number of days, hours or minutes as people type it (`7d`, `2j` in French, `12h`,
    `30m`, `30 min`); None if it is not one.

    >>> duration("48h"), duration("2 j"), duration("30 min"), duration("soon")
    (datetime.timedelta(days=2), datetime.timedelta(days=2), datetime.timedelta(seconds=1800), None)
    """
    found = _DURATION.match(text)
    if found is None:
        return None
    number, unit = int(found.group(1)), found.group(2).lower()
    if unit in ("d", "j"):
        return timedelta(days=number)
    return timedelta(hours=number) if unit == "h" else timedelta(minutes=number)
