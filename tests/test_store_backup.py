"""A campaign's rows out of the store and back in (`jdr.store.backup`), on SQLite and PostgreSQL:
every table placed, every value kept, the ids the journal names kept or refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from jdr.store import Store, StoreError, open_store
from jdr.store.backup import (
    LEFT_OUT,
    PARTS,
    Malformed,
    backed_up_tables,
    check_rows,
    time_text,
)
from jdr.store.models import campaigns


def test_every_table_is_in_a_backup_or_left_out_on_purpose() -> None:
    """A table added to the schema must be placed: in `PARTS` (how its rows belong to a
    campaign), or in `LEFT_OUT` with the reason."""
    where = backed_up_tables()
    assert "unknown" not in where.values(), where
    assert {name for name, kind in where.items() if kind == "left out"} == set(LEFT_OUT)
    assert [kind for name, kind in where.items() if name == "campaigns"] == ["header"]


def _table(store: Store) -> int:
    campaign = store.create_campaign("example", "Mardi", {"house": "rule"}, seed=bytes(32))
    store.add_character(campaign, "Ana", {"xp": 1, "notes": {"b": 2, "a": 1}})
    fight = store.create_fight(campaign, ["Ana", "Bo"])
    store.append(fight, 0, [{"type": "started"}], snapshot={"round": 1})
    store.append(fight, 1, [{"type": "hit", "damage": 2.5}])
    return campaign


def test_rows_come_back_equal_in_another_database(store: Store) -> None:
    campaign = _table(store)
    dumped = store.dump_campaign(campaign)
    assert [len(dumped["tables"][p.name]) for p in PARTS] == [1, 1, 1, 1, 0, 2, 1, 0]
    created = datetime.fromisoformat(dumped["campaign"]["created"])
    assert created.tzinfo is not None and created.utcoffset() == timedelta(0)
    check_rows(dumped["campaign"], dumped["tables"])
    other = open_store("sqlite://")
    copied = other.load_campaign(dumped["campaign"], dumped["tables"], "Mardi")
    assert other.dump_campaign(copied) == dumped
    assert other.character(1).sheet == {"xp": 1, "notes": {"b": 2, "a": 1}}
    assert list(other.character(1).sheet["notes"]) == ["b", "a"]  # keys in their stored order
    assert other.fight(1).version == 2
    kept, was = other.campaign_by_id(copied).created, store.campaign_by_id(campaign).created
    assert time_text(kept) == time_text(was)  # to the microsecond (SQLite keeps no zone)


def test_times_in_another_zone_are_kept_as_utc() -> None:
    store = open_store("sqlite://")
    dumped = store.dump_campaign(_table(store))
    paris = timezone(timedelta(hours=1))
    moment = datetime(2026, 12, 1, 11, 0, tzinfo=paris)
    dumped["campaign"]["created"] = moment.isoformat()
    other = open_store("sqlite://")
    copied = other.load_campaign(dumped["campaign"], dumped["tables"], "Mardi")
    assert other.dump_campaign(copied)["campaign"]["created"] == "2026-12-01T10:00:00+00:00"
    assert other.campaign_by_id(copied).created.replace(tzinfo=UTC) == moment


def test_kept_ids_in_use_and_a_name_in_use_are_refused_and_nothing_is_written(
    store: Store,
) -> None:
    source = open_store("sqlite://")
    dumped = source.dump_campaign(_table(source))
    _table(store)  # character 1 and fight 1 taken, and the name
    with pytest.raises(StoreError, match="a campaign named Mardi already exists"):
        store.load_campaign(dumped["campaign"], dumped["tables"], "mardi")
    with pytest.raises(StoreError) as refused:
        store.load_campaign(dumped["campaign"], dumped["tables"], "Jeudi")
    assert refused.value.problem == "backup_ids"
    assert refused.value.data == {"fights": "1", "characters": "1"}
    with store.engine.connect() as conn:
        assert conn.execute(campaigns.select()).all()[0].name == "Mardi"
        assert len(conn.execute(campaigns.select()).all()) == 1


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda t: t["characters"][0].update(id=-1), "tables.characters[0].id"),
        (lambda t: t["fights"][0].update(version=True), "tables.fights[0].version"),
        (lambda t: t["epochs"][0].update(created="yesterday"), "tables.epochs[0].created"),
        (lambda t: t["epochs"][0].update(seed=None), "tables.epochs[0].seed"),
        (lambda t: t["fight_events"][1].update(seq=1), "tables.fight_events[1]"),
        (lambda t: t["sheet_revisions"][0].update(character_id=9), "sheet_revisions[0].character"),
        (lambda t: t["fight_snapshots"][0].pop("state"), "tables.fight_snapshots[0].state"),
        (lambda t: t["journal"].append(5), "tables.journal[0]"),
        (lambda t: t.update(fights={}), "tables.fights"),
    ],
)
def test_rows_the_store_cannot_take_are_named(change: object, where: str) -> None:
    store = open_store("sqlite://")
    dumped = store.dump_campaign(_table(store))
    change(dumped["tables"])  # type: ignore[operator]
    with pytest.raises(Malformed) as refused:
        check_rows(dumped["campaign"], dumped["tables"])
    assert where in refused.value.where, refused.value
