"""A campaign's characters in the store: each one's sheet, name and revision count as they are
now (the fold of its revisions, `jdr.store.revisions`, kept up to date), found by name as people
type them (`jdr.names`).

>>> from jdr.store import open_store
>>> store = open_store("sqlite://")
>>> campaign = store.create_campaign("example", "Mardi")
>>> store.add_character(campaign, "Évoli", {"xp": 1}), store.add_character(campaign, "Ana", {})
(1, 2)
>>> [c.name for c in store.characters(campaign)], store.character_named(campaign, "evoli").id
(['Ana', 'Évoli'], 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from jdr.i18n import _
from jdr.names import check_name, collation_key, match
from jdr.store.changes import SHEET, changed
from jdr.store.errors import StoreError
from jdr.store.models import changes, characters
from jdr.store.revisions import Revisions, SheetWrite
from jdr.store.rows import storable as _storable

Json = dict[str, Any]


@dataclass(frozen=True)
class Character:
    id: int
    campaign_id: int
    name: str
    sheet: Json
    version: int


@dataclass(frozen=True)
class CharacterRef:
    """A character as a list shows it: its id and name."""

    id: int
    name: str


class Characters(Revisions):
    """The store's characters (a part of `Store`; their revisions are `Revisions`')."""

    def add_character(self, campaign_id: int, name: str, sheet: Json) -> int:
        """A new character, its revision 1 (`created`) not journaled; refused (`StoreError`)
        when the campaign has one of that name, as people type it (`Kaito` and `kaito` are one
        name). The sheet service (`jdr.characters.service.add`) journals it instead."""
        name = check_name(_("character"), name)
        data = {"changes": [{"path": [], "after": sheet}], "name": name}
        write = SheetWrite(campaign_id, None, 0, "created", data, name, sheet)
        try:
            with self._translated(), self.engine.begin() as conn:
                seq = changed(conn, campaign_id, SHEET)
                character_id = self.write_sheet(conn, write, seq=None)[0]
                conn.execute(
                    update(changes)
                    .where(changes.c.campaign_id == campaign_id, changes.c.seq == seq)
                    .values(characters=[character_id])
                )
                return character_id
        except IntegrityError:
            raise StoreError("duplicate_character", campaign=campaign_id, name=name) from None

    def character(self, character_id: int) -> Character:
        if not _storable(character_id):
            raise StoreError("no_character", character=character_id)
        with self._translated(), self._reading() as conn:
            query = select(characters).where(characters.c.id == character_id)
            row = conn.execute(query).one_or_none()
        if row is None:
            raise StoreError("no_character", character=character_id)
        return Character(**row._asdict())

    def characters(self, campaign_id: int) -> list[Character]:
        """A campaign's characters, by name (`jdr.names.collation_key`: `Évoli` among the E)."""
        query = select(characters).where(characters.c.campaign_id == campaign_id)
        with self._translated(), self._reading() as conn:
            found = [Character(**row._asdict()) for row in conn.execute(query)]
        return sorted(found, key=lambda character: collation_key(character.name))

    def roster(self, campaign_id: int) -> list[CharacterRef]:
        """A campaign's characters by name (`collation_key`), their ids and names only (no sheet
        read)."""
        query = select(characters.c.id, characters.c.name).where(
            characters.c.campaign_id == campaign_id
        )
        with self._translated(), self._reading() as conn:
            found = [CharacterRef(int(row.id), str(row.name)) for row in conn.execute(query)]
        return sorted(found, key=lambda ref: collation_key(ref.name))

    def character_named(self, campaign_id: int, name: str) -> Character:
        """The campaign's character `name` names (`jdr.names`); `UnknownNameError` with the
        closest name and the campaign's characters, `AmbiguousNameError` if two match loosely."""
        of_campaign = characters.c.campaign_id == campaign_id
        with self._translated(), self._reading() as conn:
            query = select(characters.c.name).where(of_campaign).order_by(characters.c.name)
            found = match(_("character"), name, list(conn.execute(query).scalars()))
            query = select(characters).where(of_campaign, characters.c.name == found)
            row = conn.execute(query).one()
        return Character(**row._asdict())

    def character_counts(self) -> dict[int, int]:
        """How many characters each campaign holds, by campaign id."""
        query = select(characters.c.campaign_id, func.count()).group_by(characters.c.campaign_id)
        with self._translated(), self._reading() as conn:
            return {int(campaign): int(count) for campaign, count in conn.execute(query)}

    def delete_character(self, character_id: int) -> None:
        """Remove a character and its revisions (its journal entries stay)."""
        owner = select(characters.c.campaign_id).where(characters.c.id == character_id)
        with self._translated(), self.engine.begin() as conn:
            campaign_id = conn.execute(owner).scalar()
            if campaign_id is not None:
                changed(conn, int(campaign_id), SHEET, characters=[character_id])
            conn.execute(delete(characters).where(characters.c.id == character_id))
