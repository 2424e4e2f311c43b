"""The shape every fight command shares: a table with an `action` and keys the action knows.

>>> action_of({"action": "attack", "actor": "Kai"}, {"attack": {"action", "actor"}}, "PU-4")
'attack'
>>> as_list("Bob"), as_list("Bob, Cy"), as_list(["Bob"])
(['Bob'], ['Bob', 'Cy'], ['Bob'])
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from jdr.errors import InputError, RulesError
from jdr.i18n import _


def action_of(command: Any, keys: Mapping[str, Collection[str]], rule: str) -> str:
    """The command's action, refused when it is unknown (`RulesError` citing `rule`) or carries
    a key its action does not know (`InputError`)."""
    if not isinstance(command, dict):
        raise InputError(_("command"), command, _("a table with action and actor"))
    action = command.get("action")
    if action not in keys:
        raise RulesError(
            _("unknown action {name} (known: {known})").format(name=action, known=", ".join(keys)),
            rule,
        )
    known = keys[str(action)]
    for name, value in command.items():
        if name not in known:
            raise InputError(str(name), value, ", ".join(sorted(known)), _("unknown key"))
    return str(action)


def as_list(value: Any) -> Any:
    """A list a command takes, as people give it (`targets=Bob`, `targets=Bob,Cy`, or a JSON
    list): a text is split at its commas; anything else is left for the rules to judge."""
    from jdr.params import split_items

    return split_items(value) if isinstance(value, str) else value
