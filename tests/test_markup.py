"""User text escaped for each medium (jdr.markup)."""

from __future__ import annotations

import pytest

from jdr.markup import MEDIA, escape


@pytest.mark.parametrize("medium", MEDIA)
def test_plain_names_pass_unchanged(medium: str) -> None:
    assert escape("Maître Corbeau", medium) == "Maître Corbeau"


def test_terminal_markup_is_shown_as_text() -> None:
    from rich.console import Console

    console = Console(record=True, width=80, color_system=None)
    console.print(escape("[/bold][red]x", "terminal"))
    assert console.export_text().strip() == "[/bold][red]x"


def test_unknown_medium_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown medium"):
        escape("x", "rtf")
