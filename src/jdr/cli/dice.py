"""`jdr dice EXPRESSION`: roll generic dice notation, or print its exact distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jdr.cli.render import (
    console,
    decimal,
    distribution_table,
    emit_json,
    exact_notice,
    jsonable,
    stream_json,
)
from jdr.i18n import _

if TYPE_CHECKING:
    from jdr.cli.options import Journal


def dice(
    text: str,
    odds: bool = False,
    exact: bool = False,
    faces: str | None = None,
    seed: str | None = None,
    as_json: bool = False,
    journal: Journal | None = None,
) -> None:
    """Roll (or give the odds of) each roll of `text`: one, or several separated by `;` or `,`.

    One roll prints as before (its JSON one object); several print one after the other, their
    JSON `{"rolls": [...]}`. A comparison jdr reads otherwise than Roll20 (`>7`) gets a note."""
    from jdr.dice import notation

    if journal is not None:
        journal.check()
    rolls = notation.parse_rolls(text)
    if odds and journal is not None and journal.campaign is not None:
        from jdr.errors import InputError

        raise InputError("--campaign", journal.campaign, "-", _("only for a roll, not --odds"))
    if len(rolls) > 1 and journal is not None and journal.action_id is not None:
        from jdr.errors import InputError

        raise InputError(
            "--action-id", journal.action_id, _("one roll"), _("one action id names one roll")
        )
    if odds:
        exact_notice(exact)
        _odds(rolls, exact, as_json)
        return
    payloads, lines = _roll_all(rolls, faces, seed, journal, as_json)
    if as_json:
        emit_json(payloads[0] if len(payloads) == 1 else {"rolls": payloads})
        return
    out = console()
    for line, style in lines:
        out.print(line, markup=False, style=style)


def _roll_all(
    rolls: tuple[Any, ...],
    faces: str | None,
    seed: str | None,
    journal: Journal | None,
    as_json: bool,
) -> tuple[list[dict[str, Any]], list[tuple[str, str | None]]]:
    """Roll each expression in turn from one source (or each through the journal)."""
    from jdr.dice import notation
    from jdr.dice.source import GivenFaces, make_source

    payloads: list[dict[str, Any]] = []
    lines: list[tuple[str, str | None]] = []
    rng = None
    if journal is None or journal.campaign is None:
        rng = make_source(faces, seed)
    for expression in rolls:
        extra: dict[str, Any] | None = None
        journal_text: list[str] = []
        if rng is None:
            from jdr.cli.journal_commands import journal_json, journal_lines, roll_dice_in_campaign

            assert journal is not None
            rolled = roll_dice_in_campaign(expression, faces, seed, journal, as_json)
            result = rolled.record
            journal_text = journal_lines(rolled.entry, rolled.replayed)
            extra = journal_json(rolled.campaign, rolled.entry, rolled.replayed)
        else:
            result = notation.roll(expression, rng)
        payload: dict[str, Any] = {
            "expression": expression.text,
            "faces": list(result.faces),
            "total": result.total,
            "explanation": result.explain(),
        }
        if expression.label:
            payload["label"] = expression.label
        labelled = result.labels()
        if labelled:
            payload["labels"] = labelled
        notes = notation.notes(expression)
        if notes:
            payload["notes"] = notes
        if extra is not None:
            payload["journal"] = extra
        payloads.append(payload)
        lines.append((result.explain(), None))
        lines.extend((note, "dim") for note in notes)
        lines.extend((line, "dim") for line in journal_text)
    if isinstance(rng, GivenFaces):
        rng.finish()
    return payloads, lines


def _odds(rolls: tuple[Any, ...], exact: bool, as_json: bool) -> None:
    """The exact distribution of each roll's total, one table (or JSON document) after another."""
    from jdr.dice import notation
    from jdr.markup import escape

    if as_json and len(rolls) > 1:
        emit_json(
            {
                "rolls": [
                    {
                        "expression": expression.text,
                        **({"label": expression.label} if expression.label else {}),
                        "mean": jsonable(distribution.mean(), exact),
                        "distribution": [
                            [value, jsonable(p, exact)] for value, p in _rows(distribution)
                        ],
                        **_notes_key(expression),
                    }
                    for expression in rolls
                    for distribution in [notation.odds(expression, exact=exact)]
                ]
            }
        )
        return
    for expression in rolls:
        distribution = notation.odds(expression, exact=exact)
        mean = distribution.mean()
        if as_json:
            head: dict[str, Any] = {"expression": expression.text}
            if expression.label:
                head["label"] = expression.label
            head.update(_notes_key(expression))
            head.update({"distribution": None, "mean": jsonable(mean, exact)})
            stream_json(head, "distribution", _rows(distribution), exact)
            return
        rows = list(_rows(distribution))
        out = console()
        out.print(
            f"[bold]{escape(expression.text, 'terminal')}[/bold]  "
            + escape(_("mean: {mean}").format(mean=decimal(mean)), "terminal"),
            markup=True,
        )
        for note in notation.notes(expression):
            out.print(note, markup=False, style="dim")
        out.print(distribution_table(rows, _("total"), exact))


def _notes_key(expression: Any) -> dict[str, Any]:
    from jdr.dice import notation

    notes = notation.notes(expression)
    return {"notes": notes} if notes else {}


def _rows(distribution: Any) -> Any:
    """`(value, probability)` for each possible total, in order (`Distribution.to_list`, lazily).
    One float component (the usual case) is read straight from NumPy's arrays: 2,000,000 rows in
    well under a second, and no list of one-element vectors on the way."""
    if distribution.exact or distribution.width != 1:
        width = distribution.width
        return ((v[0] if width == 1 else v, p) for v, p in distribution.items())
    import numpy as np

    (index,) = np.nonzero(distribution.weights)
    values = (index + distribution.offset[0]).tolist()
    chances = distribution.weights[index].astype(float).tolist()
    return zip(values, chances, strict=True)
