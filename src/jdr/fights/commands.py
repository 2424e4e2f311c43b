"""The shape every fight command shares: a table with an `action` and keys the action knows.

>>> action_of({"action": "attack", "actor": "Kai"}, {"attack": {"action", "actor"}}, "PU-4")
'attack'
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
