"""The store finds campaigns and characters by name as people type them, on SQLite and
PostgreSQL, keeps their spelling, and refuses a name that matches an existing one loosely."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from jdr.errors import UnknownNameError
from jdr.names import AmbiguousNameError
from jdr.store import Store, StoreError, open_store


def test_a_campaign_is_found_loosely_and_keeps_its_spelling(store: Store) -> None:
    created = store.create_campaign("pokemon", "Mardi Soir")
    for typed in ("Mardi Soir", "mardi soir", "MARDI-SOIR", "mardi_soir", "MardiSoir"):
        found = store.campaign(typed)
        assert (found.id, found.name) == (created, "Mardi Soir")


def test_an_unknown_campaign_names_the_closest(store: Store) -> None:
    store.create_campaign("pokemon", "Mardi Soir")
    store.create_campaign("passion", "Jeudi")
    with pytest.raises(UnknownNameError) as caught:
        store.campaign("Mardi So")
    assert caught.value.suggestion == "Mardi Soir"
    assert caught.value.allowed == "Jeudi, Mardi Soir"


def test_a_loose_duplicate_campaign_is_refused_and_nothing_is_written(store: Store) -> None:
    store.create_campaign("pokemon", "Mardi Soir")
    with pytest.raises(StoreError) as caught:
        store.create_campaign("passion", "mardi-soir")
    assert caught.value.message() == "a campaign named Mardi Soir already exists"
    assert [c.name for c in store.campaigns()] == ["Mardi Soir"]


def test_a_character_is_found_loosely_and_a_loose_duplicate_refused(store: Store) -> None:
    campaign = store.create_campaign("plus-ultra", "Mardi")
    other = store.create_campaign("plus-ultra", "Jeudi")
    added = store.add_character(campaign, "Maître Corbeau", {"name": "Maître Corbeau"})
    assert store.character_named(campaign, "maitre corbeau").id == added
    assert store.character_named(campaign, "MAITRE-CORBEAU").name == "Maître Corbeau"
    with pytest.raises(StoreError, match="already has a character named Maître Corbeau"):
        store.add_character(campaign, "maitre_corbeau", {})
    assert [c.name for c in store.characters(campaign)] == ["Maître Corbeau"]
    store.add_character(other, "maitre corbeau", {})  # another campaign: another name space
    with pytest.raises(UnknownNameError) as caught:
        store.character_named(campaign, "Corbeau")
    assert caught.value.suggestion == "Maître Corbeau"


def test_names_that_fold_alike_from_before_are_ambiguous_unless_exact(store: Store) -> None:
    from sqlalchemy import insert

    from jdr.store.models import characters

    campaign = store.create_campaign("plus-ultra", "Mardi")
    with store.engine.begin() as conn:
        for name in ("Ana", "ANA"):
            row: dict[str, Any] = {"campaign_id": campaign, "name": name, "sheet": {}, "version": 1}
            conn.execute(insert(characters).values(row))
    with pytest.raises(AmbiguousNameError) as caught:
        store.character_named(campaign, "ana")
    assert sorted(caught.value.matches) == ["ANA", "Ana"]
    assert store.character_named(campaign, "ANA").name == "ANA"


@pytest.mark.parametrize("kind", ["campaign", "character"])
def test_two_processes_adding_one_name_two_ways_keep_one(database_url: str, kind: str) -> None:
    """Two writers at once, `Mardi` and `mardi`: one is stored, the other refused."""
    setup = open_store(database_url)
    campaign = setup.create_campaign("passion", "Base")
    setup.close()
    for attempt in range(5):
        stores = [open_store(database_url) for _ in range(2)]
        barrier = threading.Barrier(2)
        outcomes: list[str] = []

        def add(store: Store, name: str, barrier: threading.Barrier, outcomes: list[str]) -> None:
            barrier.wait()
            try:
                if kind == "campaign":
                    store.create_campaign("passion", name)
                else:
                    store.add_character(campaign, name, {})
                outcomes.append("added")
            except StoreError as error:
                outcomes.append(error.problem)

        base = f"Nom {attempt}"
        threads = [
            threading.Thread(target=add, args=(store, spelt, barrier, outcomes))
            for store, spelt in zip(stores, (base, base.upper()), strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for store in stores:
            store.close()
        assert sorted(outcomes) == ["added", f"duplicate_{kind}"]
