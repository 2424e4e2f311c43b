"""`jdr dice EXPRESSION`: roll generic dice notation, or print its exact distribution."""

from __future__ import annotations

from jdr.cli.render import console, decimal, distribution_table, emit_json, jsonable
from jdr.i18n import _


def dice(
    text: str,
    odds: bool = False,
    exact: bool = False,
    faces: str | None = None,
    seed: str | None = None,
    as_json: bool = False,
) -> None:
    from jdr.dice import notation
    from jdr.dice.source import GivenFaces, make_source

    expression = notation.parse(text)
    if odds:
        distribution = notation.odds(expression, exact=exact)
        mean = distribution.mean()
        rows = distribution.to_list()
        if as_json:
            emit_json(
                {
                    "expression": expression.text,
                    "distribution": jsonable([list(row) for row in rows], exact),
                    "mean": jsonable(mean, exact),
                }
            )
            return
        out = console()
        out.print(
            f"[bold]{expression.text}[/bold]  " + _("mean: {mean}").format(mean=decimal(mean))
        )
        out.print(distribution_table(rows, _("total"), exact))
        return
    rng = make_source(faces, seed)
    result = notation.roll(expression, rng)
    if isinstance(rng, GivenFaces):
        rng.finish()
    if as_json:
        emit_json(
            {
                "expression": expression.text,
                "faces": list(result.faces),
                "total": result.total,
                "explanation": result.explain(),
            }
        )
        return
    console().print(result.explain(), markup=False)
