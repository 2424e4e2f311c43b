"""The store: tables, migrations, optimistic appends, undo/redo through the service, and errors.

Every test runs on SQLite; the `postgresql` ones also run when `JDR_TEST_DATABASE_URL` is set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

import example_system
from jdr.dice import GivenFaces
from jdr.errors import JdrError, RulesError, UnknownNameError
from jdr.fights import fold, service
from jdr.store import (
    ConflictError,
    FightAppend,
    JournalRow,
    Store,
    StoreError,
    head,
    open_store,
    upgrade,
)
from jdr.store.engine import default_url, resolve_url

RULES = example_system.Duel()
SETUP = {"fighters": ["Ana", "Bo"], "vitality": 9}


def new_fight(store: Store) -> int:
    campaign = store.create_campaign("example", "Tuesday table")
    return service.start(store, campaign, RULES, SETUP, GivenFaces([]))


# 1. Store and migrations


def test_campaigns_and_characters_round_trip(store: Store) -> None:
    campaign = store.create_campaign("example", "Tuesday table", {"house_rule": True})
    assert store.campaign("Tuesday table").settings == {"house_rule": True}
    character = store.add_character(campaign, "Ana", {"vitality": 3})
    assert store.character(character).sheet == {"vitality": 3}
    assert store.character(character).version == 1
    assert [c.name for c in store.campaigns()] == ["Tuesday table"]


def test_duplicate_names_are_refused_clearly(store: Store) -> None:
    campaign = store.create_campaign("example", "Tuesday table")
    with pytest.raises(StoreError, match="a campaign named Tuesday table already exists"):
        store.create_campaign("example", "Tuesday table")
    store.add_character(campaign, "Ana", {})
    with pytest.raises(StoreError, match="already has a character named Ana"):
        store.add_character(campaign, "Ana", {})


def test_unknown_rows_are_store_errors(store: Store) -> None:
    with pytest.raises(UnknownNameError, match="campaign: 'Nope'"):
        store.campaign("Nope")  # a name: an unknown name, with the closest (jdr.names)
    with pytest.raises(StoreError, match="no fight 99"):
        store.fight(99)
    with pytest.raises(StoreError, match="no fight 99"):
        store.append(99, 0, [{"type": "x"}])


def test_a_fight_survives_a_new_process_worth_of_store(database_url: str) -> None:
    first = open_store(database_url)
    fight = new_fight(first)
    service.act(first, fight, RULES, {"actor": "Ana", "action": "attack"}, GivenFaces([6, 6]))
    first.close()
    again = open_store(database_url)
    assert service.state(again, fight, RULES)["vitality"] == {"Ana": 9, "Bo": 7}
    assert [e.seq for e in again.events(fight)] == [1, 2]
    again.close()


def test_set_fight_status(store: Store) -> None:
    fight = new_fight(store)
    assert store.fight(fight).status == "open"
    store.set_fight_status(fight, "ended")
    assert store.fight(fight).status == "ended"
    assert store.fight(fight).version == 1
    with pytest.raises(StoreError, match="no fight 99"):
        store.set_fight_status(99, "ended")


def test_new_database_is_at_head_and_upgrade_is_idempotent(database_url: str) -> None:
    open_store(database_url).close()
    assert upgrade(database_url) == head()
    engine = create_engine(database_url)
    with engine.begin() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head()
    engine.dispose()


def test_upgrade_creates_a_database_from_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    assert upgrade(url) == head()
    open_store(url).close()


def test_database_from_a_newer_jdr_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    open_store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
    engine.dispose()
    with pytest.raises(StoreError, match=r"written by a newer version of jdr \(revision f00d\)"):
        open_store(url)
    with pytest.raises(StoreError, match="newer version"):
        upgrade(url)


def test_older_database_is_refused_until_upgraded(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    open_store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:  # pretend the latest revision is still to come
        conn.execute(text("DELETE FROM alembic_version"))
        conn.execute(text("DROP TABLE fight_events"))
    engine.dispose()
    with pytest.raises(StoreError, match="not jdr's"):
        open_store(url)


def test_sqlite_file_is_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'jdr.db'}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    with pytest.raises(StoreError, match="no campaign 42"):
        store.create_fight(42, [])
    store.close()


def test_url_comes_from_argument_then_environment_then_user_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert resolve_url("sqlite:///a.db", {"JDR_DATABASE_URL": "sqlite:///b.db"}) == "sqlite:///a.db"
    assert resolve_url(None, {"JDR_DATABASE_URL": "sqlite:///b.db"}) == "sqlite:///b.db"
    assert default_url() == f"sqlite:///{tmp_path / 'jdr' / 'jdr.db'}"
    monkeypatch.setenv("JDR_DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    open_store().close()
    assert (tmp_path / "env.db").exists()


# 2. Optimistic appends


def test_append_numbers_events_and_returns_the_new_version(store: Store) -> None:
    fight = store.create_fight(store.create_campaign("example", "T"), ["Ana", "Bo"])
    assert store.append(fight, 0, [{"type": "a"}, {"type": "b"}]) == 2
    assert store.append(fight, 2, [{"type": "c"}]) == 3
    assert [(e.seq, e.action) for e in store.events(fight)] == [(1, 1), (2, 1), (3, 3)]
    assert store.fight(fight).version == 3


def test_append_on_a_stale_version_is_a_conflict_and_writes_nothing(store: Store) -> None:
    fight = store.create_fight(store.create_campaign("example", "T"), [])
    store.append(fight, 0, [{"type": "a"}])
    with pytest.raises(ConflictError, match="decided on version 0, the fight is at version 1"):
        store.append(fight, 0, [{"type": "b"}])
    assert [e.event for e in store.events(fight)] == [{"type": "a"}]


def test_act_redecides_after_a_conflict(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    fight = new_fight(store)
    real_record = store.record
    sneaked: list[int] = []

    def record_after_a_rival(
        campaign: int, row: JournalRow, append: FightAppend, sheets: Any = (), disclose: Any = ()
    ) -> Any:
        if not sneaked:  # Ana's first decision loses the race to another process's attack
            sneaked.append(append.expected_version)  # (journaled: a bare event would be refused)
            service.act(store, append.fight_id, RULES, rival_attack, GivenFaces([1]))
        return real_record(campaign, row, append, sheets, disclose)

    rival_attack = {"actor": "Ana", "action": "attack", "dice": 1}
    monkeypatch.setattr(store, "record", record_after_a_rival)
    with pytest.raises(RulesError, match="Bo's turn"):  # re-decided on the new state: refused
        command = {"actor": "Ana", "action": "attack", "dice": 1}
        service.act(store, fight, RULES, command, GivenFaces([6]))
    assert len(store.events(fight)) == 2


def test_act_gives_up_clearly_after_its_retries(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    fight = new_fight(store)

    def always_late(campaign: int, row: JournalRow, append: FightAppend, *_sheets: Any) -> int:
        raise ConflictError(append.fight_id, append.expected_version, append.expected_version + 1)

    monkeypatch.setattr(store, "record", always_late)
    command = {"actor": "Ana", "action": "attack", "dice": 3}
    with pytest.raises(ConflictError, match=r"kept changing .* \(3 attempts\): try again"):
        service.act(store, fight, RULES, command, GivenFaces([6, 6, 6]), retries=2)


# 3. Undo and redo


def attack(store: Store, fight: int, actor: str, faces: list[int]) -> None:
    command = {"actor": actor, "action": "attack", "dice": len(faces)}
    service.act(store, fight, RULES, command, GivenFaces(faces))


def test_undo_then_redo_gives_back_the_same_state(store: Store) -> None:
    fight = new_fight(store)
    attack(store, fight, "Ana", [6, 6])
    before = service.state(store, fight, RULES)
    service.undo(store, fight)
    assert service.state(store, fight, RULES)["vitality"] == {"Ana": 9, "Bo": 9}
    assert service.state(store, fight, RULES)["turn"] == "Ana"
    service.redo(store, fight)
    assert service.state(store, fight, RULES) == before
    kinds = [e.event["type"] for e in store.events(fight)]
    assert kinds == ["started", "attacked", "undone", "redone"]  # the log only grew


def test_undo_twice_takes_back_two_actions_and_redo_restores_in_order(store: Store) -> None:
    fight = new_fight(store)
    attack(store, fight, "Ana", [6, 6])
    after_one = service.state(store, fight, RULES)
    attack(store, fight, "Bo", [6])
    after_two = service.state(store, fight, RULES)
    service.undo(store, fight)
    assert service.state(store, fight, RULES) == after_one
    service.undo(store, fight)
    assert service.state(store, fight, RULES)["vitality"] == {"Ana": 9, "Bo": 9}
    with pytest.raises(RulesError, match="nothing to undo"):
        service.undo(store, fight)
    service.redo(store, fight)
    assert service.state(store, fight, RULES) == after_one
    service.redo(store, fight)
    assert service.state(store, fight, RULES) == after_two
    with pytest.raises(RulesError, match="nothing to redo"):
        service.redo(store, fight)


def test_redo_after_a_new_action_is_refused(store: Store) -> None:
    fight = new_fight(store)
    attack(store, fight, "Ana", [6, 6])
    service.undo(store, fight)
    attack(store, fight, "Ana", [1])
    with pytest.raises(RulesError, match="cannot redo: an action was played since the last undo"):
        service.redo(store, fight)
    state = service.state(store, fight, RULES)
    assert state["vitality"] == {"Ana": 9, "Bo": 9} and state["turn"] == "Bo"


def test_effective_events_fold_like_a_fight_never_undone(store: Store) -> None:
    fight = new_fight(store)
    attack(store, fight, "Ana", [6, 6, 6])
    service.undo(store, fight)
    attack(store, fight, "Ana", [6])
    effective = service.effective_events(store.events(fight))
    assert [e["type"] for e in effective] == ["started", "attacked"]
    assert fold(RULES, effective)["vitality"]["Bo"] == 8


# 4. Errors from the database


def test_read_only_database_is_a_clear_store_error(tmp_path: Path) -> None:
    path = tmp_path / "jdr.db"
    writable = open_store(f"sqlite:///{path}")
    fight = new_fight(writable)
    writable.close()
    read_only = open_store(f"sqlite:///file:{path}?mode=ro&uri=true")
    assert len(read_only.events(fight)) == 1  # reading still works
    with pytest.raises(StoreError, match="the database is read-only") as caught:
        read_only.append(fight, 1, [{"type": "x"}])
    assert isinstance(caught.value, JdrError) and caught.value.problem == "read_only"
    read_only.close()


def test_unreachable_server_is_a_clear_store_error() -> None:
    url = "postgresql+psycopg://nobody:secret@127.0.0.1:1/none?connect_timeout=2"
    with pytest.raises(StoreError, match="cannot reach the database") as caught:
        open_store(url)
    assert "secret" not in caught.value.message()


def test_disk_full_is_a_clear_store_error(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'jdr.db'}")
    fight = new_fight(store)
    with store.engine.connect() as conn:  # cap the file at its current size
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
    store.engine.dispose()

    from sqlalchemy import event

    @event.listens_for(store.engine, "connect")
    def cap(dbapi_connection: object, _record: object) -> None:
        dbapi_connection.execute(f"PRAGMA max_page_count={pages}")  # type: ignore[attr-defined]

    with pytest.raises(StoreError, match="the disk holding the database is full"):
        for _ in range(200):
            version = store.fight(fight).version
            store.append(fight, version, [{"type": "note", "text": "x" * 4000}])
    store.close()
