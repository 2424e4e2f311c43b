"""Stored Pokémon sheets → the fight's setup (see `fight`): `{"pokemon": [{<sheet>, "side"}]}`.

Each Pokémon is named in the fight by its stored name; a trainer's sheet cannot fight.

>>> sheet = {"kind": "pokemon", "name": "Pikachu"}
>>> fight_setup([{"name": "Pika", "sheet": sheet, "side": "a"}], {})
{'pokemon': [{'kind': 'pokemon', 'name': 'Pika', 'side': 'a'}]}
"""

from __future__ import annotations

from jdr.errors import InputError
from jdr.i18n import _
from jdr.systems.protocol import Json

__all__ = ["fight_setup"]


def fight_setup(participants: list[Json], options: Json) -> Json:
    """One Pokémon per participant, on its side."""
    pokemon = []
    for participant in participants:
        sheet = participant["sheet"]
        if sheet.get("kind") == "trainer":
            raise InputError(
                "--with", participant["name"], _("a Pokémon"), _("a trainer does not fight")
            )
        pokemon.append({**sheet, "name": participant["name"], "side": participant["side"]})
    return {"pokemon": pokemon}
