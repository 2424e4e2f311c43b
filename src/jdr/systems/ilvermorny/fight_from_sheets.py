"""Stored Ilvermorny sheets → the duel's setup (see `fight`): `{"wizards": [<sheet>, <sheet>]}`.

Each wizard is named in the duel by its stored name (the same sheet may duel itself under two
names); sides mean nothing in a duel. Commands name the caster `wizard`; the GM's `end` names none.

>>> fight_setup([{"name": "Ann", "sheet": {"name": "S"}, "side": "a"}], {})
{'wizards': [{'name': 'Ann'}]}
>>> make_command("Ann", "cast", {"spell": "Lumos"})
{'action': 'cast', 'wizard': 'Ann', 'spell': 'Lumos'}
>>> make_command("GM", "end", {"winner": "Ann"})
{'action': 'end', 'winner': 'Ann'}
"""

from __future__ import annotations

from jdr.errors import InputError
from jdr.i18n import _
from jdr.systems.protocol import Json

__all__ = ["fight_setup", "make_command"]


def fight_setup(participants: list[Json], options: Json) -> Json:
    """The wizards, in the order given; a duel has no setting to set."""
    if options.get("settings"):
        setting = next(iter(options["settings"]))
        raise InputError("--setting", setting, "-", _("a duel has no setting"))
    return {"wizards": [{**p["sheet"], "name": p["name"]} for p in participants]}


def make_command(actor: str, action: str, pairs: Json) -> Json:
    """`cast` is the actor's (`wizard`); `end` is the GM's and names no wizard."""
    if action == "end":
        return {"action": action, **pairs}
    return {"action": action, "wizard": actor, **pairs}
