"""Checks every scripted-fight test uses: the events expected, the fold, a refused command."""

from __future__ import annotations

import json
from typing import Any

import pytest

from jdr.dice import GivenFaces
from jdr.errors import RulesError
from jdr.fights import Fight, fold

Expected = list[tuple[str, dict[str, Any]]]


def check(events: list[dict[str, Any]], expected: Expected) -> None:
    """The events' types in order, and the given fields of each."""
    assert [e["type"] for e in events] == [kind for kind, _ in expected]
    for index, (event, (kind, fields)) in enumerate(zip(events, expected, strict=True)):
        for key, value in fields.items():
            assert event[key] == value, (index, kind, key, event)


def finish(fight: Fight, source: GivenFaces | None = None) -> dict[str, Any]:
    """Every given face used; the state is the fold of the JSON-stored events."""
    if source is not None:
        source.finish()
    stored = json.loads(json.dumps(fight.events))
    state = fold(fight.rules, stored)
    assert state == fight.state
    assert json.loads(json.dumps(state)) == state
    return state


def refuse(fight: Fight, command: Any, rule: str | None, match: str) -> None:
    """Refused with `rule` and a reason matching `match`; no face rolled, nothing changed."""
    events, state = list(fight.events), fight.state
    with pytest.raises(RulesError, match=match) as refused:
        fight.act(command, GivenFaces([]))
    assert refused.value.rule == rule
    assert fight.events == events
    assert fight.state == state
