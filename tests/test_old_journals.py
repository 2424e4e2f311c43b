"""Journals written before fights were narrated, asked of the defender and sealed (issue 15)
still verify: every fight action is re-decided by today's rules and gives the events it gave.

The fixtures are real exports: one fight per system played through a campaign with derived dice
by the code as it was before (Pokémon responses given in the attacker's command, Passion markers
and Ilvermorny spells in the clear), then the seed revealed, so every die and every result is
checked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jdr.journal.replay import replayer_for
from jdr.journal.verify import verify

FIXTURES = Path(__file__).parent / "fixtures" / "journals"
SYSTEMS = ("pokemon", "plus-ultra", "passion", "ilvermorny", "poledemos")


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_journal_from_before_issue_15_still_verifies(system: str) -> None:
    journal = json.loads((FIXTURES / f"{system}-before-15.json").read_text(encoding="utf-8"))
    report = verify(journal, replayer_for)
    assert report.ok, [p.message() for p in report.problems]
    fights = [e for e in journal["entries"] if "fight" in e["context"]]
    assert report.results_checked == len(fights) - 1  # all but the opening, whose setup it lacks
    assert report.dice_checked == sum(len(e["dice"]["rolls"]) for e in journal["entries"])
