"""`jdr pokemon …`: the system's own commands (the type chart)."""

from typing import Annotated

import typer

from jdr.i18n import _, labelled
from jdr.terminal import console, emit_json


def build() -> typer.Typer:
    app = typer.Typer(
        help=_("Pokémon: the system's own commands."),
        no_args_is_help=True,
        rich_markup_mode=None,
    )

    @app.command(
        "types", help=_("The damage multiplier of a move's type against a defender (PK-11).")
    )
    def types_command(
        move_type: Annotated[
            str,
            typer.Argument(
                metavar="MOVE_TYPE", help=_("The move's type, French or English (feu, fire).")
            ),
        ],
        defender: Annotated[
            str, typer.Argument(metavar="DEFENDER[/DEFENDER2]", help=_("The defender's types."))
        ],
        user: Annotated[
            str | None, typer.Option("--user", metavar="T[/T]", help=_("The user's types (STAB)."))
        ] = None,
        chart: Annotated[
            str | None,
            typer.Option("--chart", metavar="FILE", help=_("Another type chart (TOML).")),
        ] = None,
        json: Annotated[
            bool, typer.Option("--json", help=_("Print one JSON object on stdout."))
        ] = False,
        lang: Annotated[
            str | None, typer.Option("--lang", metavar="fr|en", help=_("Language of the output."))
        ] = None,
    ) -> None:
        from pathlib import Path

        from jdr.systems.pokemon.types import TypeChart, chart_json, default_chart

        table = TypeChart.from_file(Path(chart)) if chart else default_chart()
        defenders = table.parse(defender)
        users = table.parse(user) if user else []
        result = table.multiplier(move_type, defenders, users)
        if json:
            emit_json(
                {
                    "move_type": table.normalize(move_type),
                    "defender_types": defenders,
                    "user_types": users,
                    **chart_json(result, table),
                }
            )
            return
        names = "/".join(table.name(t) for t in defenders)
        console().print(
            labelled(f"{table.name(table.normalize(move_type))} → {names}", result.explain(table)),
            markup=False,
        )

    return app
