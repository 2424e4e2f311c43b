"""`jdr demo`: a first real run, showing rolls, given faces, exact odds and short fights."""

from __future__ import annotations

from jdr.cli.render import console, outcomes_table
from jdr.i18n import _, current_language


def demo() -> None:
    from jdr.dice import GivenFaces, Seeded, notation
    from jdr.systems import default_registry

    out = console()
    out.rule(_("jdr — dice, exact odds and fights"))
    out.print(_("1. A roll from a seed (replay it with the same --seed):"))
    for text in ("2d6+3", "4d6kh3", "3d6!"):
        result = notation.roll(notation.parse(text), Seeded(5))
        out.print("   " + result.explain(), markup=False)

    out.print()
    out.print(
        _(
            "2. Dice the player already rolled (--faces 7,1,2,6): "
            "each face ≥ 6 is a success, each 1 removes one:"
        )
    )
    result = notation.roll(notation.parse("4d10>=6f1"), GivenFaces([7, 1, 2, 6]))
    out.print("   " + result.explain(), markup=False)

    out.print()
    out.print(_("3. What are my odds? The exact distribution of 4d10>=6f1:"))
    distribution = notation.odds(notation.parse("4d10>=6f1"), exact=True)
    outcomes = distribution.outcomes(
        lambda v: "success" if v[0] > 0 else "failure" if v[0] == 0 else "critical_failure"
    )
    out.print(outcomes_table(outcomes, exact=True))

    out.print()
    registry = default_registry()
    ids = registry.ids()
    out.print(_("4. Rule systems installed: {systems}").format(systems=", ".join(ids) or "—"))
    if "pokemon" in ids:
        from jdr.params import validate_params

        check = registry.get("pokemon").actions["check"]
        params = validate_params(check.params, {"dice": 4})
        record = check.roll(params, GivenFaces([7, 1, 2, 6]))
        out.print("   $ jdr roll pokemon check --dice 4 --faces 7,1,2,6")
        out.print("   " + record.explain(), markup=False)

    from jdr.cli.demo_fights import play_fights

    out.print()
    out.print(
        _(
            "5. A short fight in each system, in a throw-away database "
            "(fixed faces and seeds), with the odds of a decision:"
        )
    )
    play_fights(out, current_language())

    from jdr.cli.demo_journal import verifiable_rolls

    out.print()
    out.print(
        _(
            "6. Rolls anyone can verify: the dice derive from a seed committed in advance, every"
            " roll is journaled, re-asking gives the same roll, and a changed face is caught:"
        )
    )
    verifiable_rolls(out)
    out.print()
    out.print(
        _(
            "Next: jdr dice --help, jdr systems, jdr roll --help, jdr fight --help,"
            " jdr journal --help."
        )
    )
    out.print(
        _(
            "The web table (with the web extra, pip install 'jdr[web]'): jdr demo --serve opens a"
            " ready campaign in your browser; jdr serve prints the host link to create your own"
            " and invite the players."
        )
    )
