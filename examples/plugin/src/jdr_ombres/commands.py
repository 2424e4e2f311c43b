"""`jdr ombres outcomes`: the system's own command (it takes --lang without declaring it)."""

from __future__ import annotations

from typing import Any


def extra_commands() -> Any:
    import typer
    from jdr.i18n import _

    app = typer.Typer(help=_("Shadows: the system's own commands."), rich_markup_mode=None)

    @app.command("outcomes", help=_("What the kept die means (OM-2)."))
    def outcomes() -> None:
        rows = [
            ("6, 6", "critical_success"),
            ("6", "success"),
            ("4-5", "partial_success"),
            ("1-3", "failure"),
        ]
        for faces, outcome in rows:
            typer.echo(f"{faces:>5}  {_(outcome)}")

    @app.callback()
    def ombres() -> None:
        """A group, so that `outcomes` stays a sub-command."""

    return app
