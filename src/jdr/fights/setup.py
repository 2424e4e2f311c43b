"""From stored sheets to a running fight, and from command-line words to a decider's command.

A system that can be played from stored sheets gives `System.fight_setup(participants, options)`:
each participant is `{"name", "sheet", "side"}` (the stored name, the stored sheet, a side), the
options carry `order`. The module that defines it may also define `make_command(actor, action,
pairs)` when its commands do not name the actor `actor` (Polédémos: `player`), and
`join_command(name, sheet, pairs)` when a stored character can enter a running fight (Pokémon:
`jdr fight act FIGHT NAME join side=…`).

>>> parse_pairs(["target=Bob", "dice=2", "energy=false", "group=A,B", 'members={"A": 1}'])
{'target': 'Bob', 'dice': 2, 'energy': False, 'group': ['A', 'B'], 'members': {'A': 1}}

In `key=value`, a comma separates a list's items (`targets=Bob,Cy`); a decimal is written with a
point (`2.5`: `2,5` is the list `[2, 5]`), and no fight command takes a percentage, so `%` is not
read there.
>>> participants(["Ann", "Bob", "Cy"], {"cy": "a"})
[('Ann', 'a'), ('Bob', 'b'), ('Cy', 'a')]

Fighters are named as people type them (`jdr.names`): `--side cy=a` and `--order BOB,ann` name the
fighters `Cy`, `Bob` and `Ann`.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from jdr.errors import InputError
from jdr.i18n import _
from jdr.names import find, hint
from jdr.systems.protocol import Json, RuleSystem

__all__ = [
    "build_setup",
    "can_fight",
    "fighters_named",
    "make_command",
    "parse_pairs",
    "parse_value",
    "participants",
    "per_participant",
    "setup_hook",
    "to_play",
]

_INT = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?\d+\.\d+")


def parse_value(text: str) -> Any:
    """An int or a decimal when it looks like one, `true`/`false` as bools, JSON when it is a
    JSON table or list, `a,b` as a list (of such values), else the text: a name that starts
    with `[` (`[PNJ] Garde`) is a name;
    within `jdr.bounded`'s limits (nesting, whole numbers' digits: `LimitError`).

    >>> parse_value("3"), parse_value("2.5"), parse_value("2,5"), parse_value("TRUE")
    (3, 2.5, [2, 5], True)
    >>> parse_value('{"Bob": 1}'), parse_value("[PNJ] Garde"), parse_value("[PNJ] Garde,Bob")
    ({'Bob': 1}, '[PNJ] Garde', ['[PNJ] Garde', 'Bob'])
    """
    from jdr.bounded import loads_json, whole_number

    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        try:
            return loads_json(stripped, _("value"), text)
        except json.JSONDecodeError:
            pass  # not JSON: text, as any other (the rules judge it)
    if "," in stripped:
        return [parse_value(part) for part in stripped.split(",") if part.strip()]
    if _INT.fullmatch(stripped):
        return whole_number(stripped, _("value"), text)
    if _DECIMAL.fullmatch(stripped):
        return float(stripped)
    if stripped.lower() in ("true", "false"):
        return stripped.lower() == "true"
    return stripped


def parse_pairs(pairs: Sequence[str]) -> Json:
    """`key=value` words → a dict (`parse_value` reads each value)."""
    parsed: Json = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise InputError(_("option"), pair, "key=value", _("not a key=value pair"))
        parsed[key.strip()] = parse_value(value)
    return parsed


def participants(names: Sequence[str], sides: Mapping[str, str]) -> list[tuple[str, str]]:
    """Each name with its side: as given, else "a" for the first and "b" for the others."""
    given = dict(zip(fighters_named("--side", list(sides), names), sides.values(), strict=True))
    return [(name, given.get(name, "a" if i == 0 else "b")) for i, name in enumerate(names)]


def fighters_named(
    option: str, given: Sequence[str], names: Sequence[str], keep_unknown: bool = False
) -> list[str]:
    """Each of `given` as `names` spell it (`jdr.names`); one that is none of them is refused,
    with the closest, or kept as given with `keep_unknown` (for the system to judge).

    >>> fighters_named("--order", ["bob", "ANN", "Dan"], ["Ann", "Bob"], keep_unknown=True)
    ['Bob', 'Ann', 'Dan']
    """
    found = []
    for name in given:
        fighter = find(name, names, option)
        if fighter is None and keep_unknown:
            fighter = name
        elif fighter is None:
            reason = _("not in the fight") + hint(name, names)
            raise InputError(option, name, ", ".join(names), reason)
        found.append(fighter)
    return found


def build_setup(system: RuleSystem, fighters: list[Json], options: Json) -> Json:
    """The decider's setup from the participants, by the system's `fight_setup`."""
    builder = getattr(system, "fight_setup", None)
    if builder is None or system.fight is None:
        raise InputError(
            "--campaign",
            system.id,
            "-",
            _("this rule system cannot start a fight from stored sheets"),
        )
    setup: Json = builder(fighters, options)
    return setup


def can_fight(system: RuleSystem, name: str, sheet: Json) -> bool:
    """Whether the stored sheet `sheet` may be a fighter of `system` (a Pokémon trainer may not):
    what the fight and simulate forms offer.

    >>> from jdr.systems import default_registry
    >>> pokemon = default_registry().get("pokemon")
    >>> can_fight(pokemon, "Léa", {"kind": "trainer"}), can_fight(pokemon, "P", {"kind": "pokemon"})
    (False, True)
    """
    try:
        build_setup(system, [{"name": name, "sheet": sheet, "side": "a"}], {})
    except InputError:
        return False
    return True


def setup_hook(system: RuleSystem, name: str) -> Any:
    """A function `name` of the module that holds the system's `fight_setup`, if it has one:
    `make_command(actor, action, pairs)`, `join_command(name, sheet, pairs)`."""
    builder = getattr(system, "fight_setup", None)
    module = sys.modules.get(getattr(builder, "__module__", "")) if builder else None
    return getattr(module, name, None)


def make_command(system: RuleSystem, actor: str, action: str, pairs: Json) -> Json:
    """The decider's command: the system's `make_command` if its setup module has one, else
    `{"action": action, "actor": actor, **pairs}`."""
    custom = setup_hook(system, "make_command")
    if custom is not None:
        command: Json = custom(actor, action, pairs)
        return command
    return {"action": action, "actor": actor, **pairs}


def per_participant(state: Json) -> dict[str, Json] | None:
    """The state's per-participant mapping (name → a dict with a `name`), if it has one."""
    for value in state.values():
        if (
            isinstance(value, dict)
            and value
            and all(isinstance(v, dict) and "name" in v for v in value.values())
        ):
            return value
    return None


def to_play(state: Json) -> Any:
    """Whose turn it is, as the state says (`turn`, `to_play` or `hand`), else None."""
    for key in ("turn", "to_play", "hand"):
        if state.get(key) is not None:
            return state[key]
    return None
