"""Sealed choices: a choice made in secret (Passion's initiative markers, Ilvermorny's spells
cast at once) is committed with a salted hash, shown as "chosen", and opened with the others.

The event of a sealed choice carries its commitment, `sealed`, and the choice itself under
`secret` (the state needs it to open every choice together); `public` takes every `secret` out,
and every front end shows events, states and commands through it, so a sealed choice is never
shown before the event that opens it. The opening event lists each choice with its salt, so
anyone can check it against the commitment written before the others chose (`check`), and names
the commitments it opens under `unsealed`. The journal keeps a sealed choice's command in a
hidden entry, disclosed when it is opened (`jdr.fights.service`).

>>> sealed = seal({"marker": 2}, "5f1c")
>>> len(sealed), check({"marker": 2}, "5f1c", sealed), check({"marker": 3}, "5f1c", sealed)
(64, True, False)
>>> public({"type": "marker_chosen", "name": "Kai", "sealed": sealed,
...         "secret": {"marker": 2, "salt": "5f1c"}})["secret"]
Traceback (most recent call last):
...
KeyError: 'secret'
"""

from __future__ import annotations

import secrets
from typing import Any

from jdr.dice.verifiable import canonical_json, sha256_hex

SECRET = "secret"
"""The key of a sealed choice in an event or a state: never shown until opened."""
SEALED = "sealed"
"""An event's commitment to a sealed choice."""
UNSEALED = "unsealed"
"""An opening event's list of the commitments it opens."""
SALT = "salt"
"""The key of a sealed command's salt, which a front end adds (`new_salt`)."""


def seal(choice: Any, salt: str) -> str:
    """The commitment to `choice`: SHA-256 of the canonical JSON of `{"choice", "salt"}`."""
    return sha256_hex(canonical_json({"choice": choice, "salt": salt}, "sealed choice"))


def check(choice: Any, salt: str, sealed: str) -> bool:
    """Whether `choice` with `salt` is the one committed to as `sealed`."""
    return seal(choice, salt) == sealed


def new_salt() -> str:
    """A fresh salt for a sealed command: 16 random bytes, in hex (a short list of possible
    choices can then not be tried against the commitment)."""
    return secrets.token_hex(16)


def public(value: Any) -> Any:
    """`value` (an event, a state, a command, any JSON) without its `secret` parts.

    >>> public([{"name": "Kai", "secret": {"marker": 2}}, {"marker": 5}])
    [{'name': 'Kai'}, {'marker': 5}]
    """
    if isinstance(value, dict):
        return {key: public(item) for key, item in value.items() if key != SECRET}
    if isinstance(value, list):
        return [public(item) for item in value]
    return value


def sealing(events: list[dict[str, Any]]) -> bool:
    """Whether an action's events seal a choice that they do not open (its journal entry is
    then hidden until the choice is opened).

    >>> sealing([{"type": "marker_chosen", "sealed": "ab"}])
    True
    >>> sealing([{"type": "spell_chosen", "sealed": "ab"}, {"type": "spells_opened",
    ...          "unsealed": ["ab"]}])
    False
    """
    sealed = {e[SEALED] for e in events if e.get(SEALED)}
    opened = {h for e in events for h in e.get(UNSEALED, [])}
    return bool(sealed - opened)


def opened(events: list[dict[str, Any]]) -> set[str]:
    """The commitments an action's events open."""
    return {h for e in events for h in e.get(UNSEALED, [])}
