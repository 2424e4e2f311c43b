"""Renderers: records, odds and advice as JSON (one object on stdout) or as Rich text.

Nothing here computes a rule: it only shows what the core returned.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from rich.table import Table

from jdr.answers import fraction_text, jsonable, probability_json
from jdr.i18n import _, ngettext
from jdr.numbers import decimal, percent
from jdr.terminal import console, emit_json

# `decimal` and `percent` live in the core (`jdr.numbers`) so rules can word numbers too;
# `console` and `emit_json` in `jdr.terminal`, so a system's own commands print without the CLI.
__all__ = [
    "choices_table",
    "command_line",
    "console",
    "decimal",
    "distribution_table",
    "emit_json",
    "exact_notice",
    "exact_text",
    "extra_lines",
    "fraction_text",
    "jsonable",
    "outcomes_table",
    "percent",
    "probability_json",
]


def stream_json(
    payload: Mapping[str, Any], key: str, items: Iterable[Any], exact: bool, chunk: int = 10_000
) -> None:
    """`emit_json(payload)` with `payload[key]` the list of `items`, written `chunk` items at a
    time: a 2,000,000-row distribution is never one Python list of lists nor one string.

    >>> stream_json({"a": 1, "rows": None, "z": 2}, "rows", iter([[1, 0.5], [2, 0.5]]), False)
    {"a": 1, "rows": [[1, 0.5], [2, 0.5]], "z": 2}
    """
    from itertools import islice

    head, _sep, tail = json.dumps({**payload, key: "\0"}, ensure_ascii=False).partition('"\\u0000"')
    write = sys.stdout.write
    write(head + "[")
    first = True
    iterator = iter(items)
    while block := list(islice(iterator, chunk)):
        ready = jsonable(block, exact) if exact else block  # floats and ints are JSON already
        text = json.dumps(ready, ensure_ascii=False, default=jsonable)[1:-1]
        write(text if first else ", " + text)
        first = False
    write("]" + tail + "\n")


def exact_notice(exact: bool) -> None:
    """Before exact odds: one line on stderr if they must run without FLINT (slower)."""
    if not exact:
        return
    from jdr.prob.exact import fallback_notice

    notice = fallback_notice()
    if notice is not None:
        sys.stderr.write(notice + "\n")


def command_line(*words: object) -> str:
    """A command as a shell takes it, each word quoted if it needs to be.

    >>> command_line("jdr", "journal", "export", "Mardi soir")
    "jdr journal export 'Mardi soir'"
    """
    return " ".join(shlex.quote(str(word)) for word in words)


def exact_text(value: Any) -> str:
    if isinstance(value, Fraction):
        return fraction_text(value)
    return percent(value)


def outcomes_table(outcomes: Mapping[str, Any], exact: bool) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column(_("outcome"))
    table.add_column(_("probability"), justify="right")
    if exact:
        table.add_column(_("exact"), justify="right")
    for key, p in outcomes.items():
        row = [_(str(key)), percent(p)]
        if exact:
            row.append(exact_text(p))
        table.add_row(*row)
    return table


def distribution_table(
    distribution: Sequence[tuple[Any, Any]], label: str, exact: bool, limit: int = 60
) -> Table:
    """value, P(=), P(≥), a bar: the way AnyDice shows a distribution."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column(_(label) if label else _("value"), justify="right")
    table.add_column("P(=)", justify="right")
    table.add_column("P(≥)", justify="right")
    if exact:
        table.add_column(_("exact"), justify="right")
    table.add_column("")
    from jdr.prob.shown import shown_rows, tails_text

    rows = list(distribution)
    top = max((float(p) for _v, p in rows), default=1.0) or 1.0
    held = shown_rows(rows, floor=0, limit=limit)
    tail: Any = sum(
        (p for _v, p in rows), Fraction(0) if rows and isinstance(rows[0][1], Fraction) else 0.0
    )
    shown = {value for value, _p in held.rows}
    for value, p in rows:  # P(≥) counts every value, shown or not
        if value in shown:
            cells = [_value_text(value), percent(p), percent(tail)]
            if exact:
                cells.append(exact_text(p))
            cells.append("█" * round(30 * float(p) / top))
            table.add_row(*cells)
        tail -= p
    if held.left_out:
        table.caption = ngettext(
            "… {count} more row, too unlikely to show: {tails} (--json lists every row)",
            "… {count} more rows, too unlikely to show: {tails} (--json lists every row)",
            held.left_out,
        ).format(count=held.left_out, tails=tails_text(held))
        table.caption_justify = "left"
    return table


def _value_text(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(map(str, value)) + ")"
    return str(value)


def choices_table(choices: Sequence[Mapping[str, Any]]) -> Table:
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    if not choices:
        return table
    keys = list(choices[0])
    table.add_column("#", justify="right")
    for key in keys:
        table.add_column(_(key), justify="right")
    for rank, choice in enumerate(choices, start=1):
        cells = [str(rank)]
        for key in keys:
            value = choice.get(key)
            if isinstance(value, bool):
                cells.append("✓" if value else "")
            elif isinstance(value, Fraction | float) and key.startswith("p_"):
                cells.append(percent(value))
            elif isinstance(value, Fraction | float):
                cells.append(decimal(value, 3))
            else:
                cells.append(str(value))
        table.add_row(*cells)
    return table


def extra_lines(extra: Mapping[str, Any]) -> list[Table | str]:
    """A system's own odds keys as text: tables for `{name: {column: value}}`, lines for numbers.

    Lists (long series, also in the JSON) are left to `--json`.
    """
    shown: list[Table | str] = []
    for key, value in extra.items():
        if (
            isinstance(value, Mapping)
            and value
            and all(isinstance(row, Mapping) for row in value.values())
        ):
            columns = list(dict.fromkeys(column for row in value.values() for column in row))
            table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
            table.add_column(_(key))
            for column in columns:
                table.add_column(_(column), justify="right")
            for name, row in value.items():
                cells = (_cell(row.get(column), column) for column in columns)
                table.add_row(_(str(name)), *cells)
            shown.append(table)
        elif isinstance(value, bool | int | float | Fraction | str):
            shown.append(_("{label}: {value}").format(label=_(key), value=_cell(value, key)))
    return shown


def _cell(value: Any, key: str) -> str:
    """A value of an extra table: numbers named `mean…`/`expected…` as decimals, the others in
    0..1 as probabilities."""
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, Fraction | float):
        averaged = key.startswith(("mean", "expected"))
        return percent(value) if 0 <= float(value) <= 1 and not averaged else decimal(value)
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return "" if value is None else str(value)
