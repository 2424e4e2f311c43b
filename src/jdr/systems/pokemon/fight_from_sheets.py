"""Stored Pokémon sheets → the fight's setup (see `fight`): `{"pokemon": [{<sheet>, "side"}]}`.

Each Pokémon is named in the fight by its stored name; a trainer's sheet cannot fight. A stored
Pokémon enters a fight already started with `jdr fight act FIGHT NAME join side=b [item=…]`
(`join_command`).

>>> sheet = {"kind": "pokemon", "name": "Pikachu"}
>>> fight_setup([{"name": "Pika", "sheet": sheet, "side": "a"}], {})
{'pokemon': [{'kind': 'pokemon', 'name': 'Pika', 'side': 'a'}]}
"""

from __future__ import annotations

from jdr.errors import InputError
from jdr.i18n import _
from jdr.systems.protocol import Json

__all__ = ["fight_setup", "join_command"]


def fight_setup(participants: list[Json], options: Json) -> Json:
    """One Pokémon per participant, on its side."""
    pokemon = []
    for participant in participants:
        _refuse_trainer("--with", participant["name"], participant["sheet"])
        pokemon.append(
            {**participant["sheet"], "name": participant["name"], "side": participant["side"]}
        )
    setup: Json = {"pokemon": pokemon}
    if options.get("settings"):  # `jdr fight new --setting reactions=dodge` (`FightSettings`)
        setup["settings"] = dict(options["settings"])
    return setup


def join_command(name: str, sheet: Json, pairs: Json) -> Json:
    """The `join` command for the stored Pokémon `name`: its sheet, `side` (default "b") and
    an optional held `item` from the command's pairs.

    >>> join_command("Rattata", {"kind": "pokemon", "name": "R"}, {"side": "wild"})
    {'action': 'join', 'pokemon': {'kind': 'pokemon', 'name': 'Rattata', 'side': 'wild'}}
    """
    _refuse_trainer("ACTOR", name, sheet)
    unknown = sorted(set(pairs) - {"side", "item"})
    if unknown:
        raise InputError(unknown[0], pairs[unknown[0]], "side=…, item=…")
    entry = {**sheet, "name": name, "side": str(pairs.get("side", "b"))}
    if pairs.get("item"):
        entry["item"] = str(pairs["item"])
    return {"action": "join", "pokemon": entry}


def _refuse_trainer(field: str, name: str, sheet: Json) -> None:
    if sheet.get("kind") == "trainer":
        raise InputError(field, name, _("a Pokémon"), _("a trainer does not fight"))
