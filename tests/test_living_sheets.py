"""Living sheets in the store: revisions as a fold, journaled, undone, rebased, raced.

Runs on SQLite always and on PostgreSQL when `JDR_TEST_DATABASE_URL` is set (`store`,
`database_url` fixtures).
"""

from __future__ import annotations

import multiprocessing
import tomllib
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from jdr.characters import service
from jdr.characters.service import EditConflictError
from jdr.errors import InputError, RulesError
from jdr.sheet_check import systems_example
from jdr.sheets import SheetError
from jdr.store import SNAPSHOT_EVERY, Store, StoreError, open_store

ROUNDS = 15


def example(system: str, kind: str, **changes: Any) -> dict[str, Any]:
    return tomllib.loads(systems_example(system, kind)) | changes


def campaign_with(store: Store, system: str, *sheets: dict[str, Any]) -> Any:
    store.create_campaign(system, "Mardi")
    campaign = store.campaign("Mardi")
    for sheet in sheets:
        service.add(store, campaign, sheet)
    return campaign


def test_a_new_sheet_is_revision_1_journaled_with_the_whole_sheet(store: Store) -> None:
    campaign = campaign_with(store, "pokemon")
    added = service.add(store, campaign, example("pokemon", "pokemon"))
    assert added.character is not None
    assert (added.revision, added.kind, added.character.version) == (1, "created", 1)
    entry = store.journal(campaign.id)[-1].entry
    assert entry["context"]["action"] == "sheet.created" and entry["context"]["sheet"] == "Pikachu"
    assert entry["result"]["changes"] == [{"path": [], "after": added.character.sheet}]
    assert entry["dice"] == {"source": "derived", "rolls": []}
    with pytest.raises(StoreError, match="already has a character named Pikachu"):
        service.add(store, campaign, example("pokemon", "pokemon", name="PIKACHU"))


def test_set_checks_the_sheet_like_a_new_one_and_names_the_field(store: Store) -> None:
    campaign = campaign_with(store, "pokemon", example("pokemon", "pokemon"))
    done = service.set_fields(
        store, campaign, "pikachu", ["xp=20", "stats.Strength=3"], "MJ", "oops"
    )
    assert [c["path"] for c in done.changes] == [["stats", "strength"], ["xp"]]
    assert done.data["reason"] == "oops"
    with pytest.raises(SheetError) as refused:
        service.set_fields(store, campaign, "Pikachu", ["evs.dexterity=7"])
    assert refused.value.problems[0].field == "evs.dexterity"
    assert "PK-22" in refused.value.message()
    with pytest.raises(InputError, match="not a field=value pair"):
        service.set_fields(store, campaign, "Pikachu", ["xp"])
    removed = service.set_fields(store, campaign, "Pikachu", ["condition=Sommeil"])
    assert removed.character is not None and removed.character.sheet["condition"] == "sleep"
    cured = service.set_fields(store, campaign, "Pikachu", ["condition="])
    assert cured.character is not None and cured.character.sheet["condition"] is None
    with pytest.raises(RulesError, match="nothing changes"):
        service.set_fields(store, campaign, "Pikachu", ["xp=20"])
    assert store.character_named(campaign.id, "Pikachu").version == 4  # refusals wrote nothing


def test_undo_and_redo_are_revisions_and_the_creation_stays(store: Store) -> None:
    campaign = campaign_with(store, "plus-ultra", example("plus-ultra", "hero"))
    service.set_fields(store, campaign, "Kaito Arashi", ["techniques[Rafale].cooldown=2"])
    service.rename(store, campaign, "Kaito Arashi", "Kaito")
    assert store.character_named(campaign.id, "Kaito").sheet["name"] == "Kaito"
    undone = service.undo(store, campaign, "Kaito")
    assert undone.character is not None and undone.character.name == "Kaito Arashi"
    assert undone.character.sheet["name"] == "Kaito Arashi"
    undone = service.undo(store, campaign, "Kaito Arashi")
    assert undone.character is not None
    assert undone.character.sheet["techniques"][1]["cooldown"] == 1
    with pytest.raises(RulesError, match="nothing to undo"):
        service.undo(store, campaign, "Kaito Arashi")
    redone = service.redo(store, campaign, "Kaito Arashi")
    assert redone.character is not None
    assert redone.character.sheet["techniques"][1]["cooldown"] == 2
    service.set_fields(store, campaign, "Kaito Arashi", ["techniques[Rafale].cooldown=3"])
    with pytest.raises(RulesError, match="it changed since the last undo"):
        service.redo(store, campaign, "Kaito Arashi")
    character, lines = service.history(store, campaign, "Kaito Arashi")
    kinds = [(line.kind, line.undone) for line in lines]
    assert kinds == [
        ("created", False),
        ("set", False),
        ("renamed", True),
        ("undone", False),
        ("undone", False),
        ("redone", False),
        ("set", False),
    ]
    assert [line.journal_seq for line in lines] == list(range(1, 8))
    assert character.version == 7


def test_an_undone_rename_verifies(store: Store) -> None:
    """The verifier's ledger keeps each revision's rename, so taking one back re-decides to the
    name the sheet had (it re-decided the old sheet under the new name before)."""
    from jdr.journal.replay import replayer_for
    from jdr.journal.service import export
    from jdr.journal.verify import verify

    campaign = campaign_with(store, "plus-ultra", example("plus-ultra", "hero"))
    service.rename(store, campaign, "Kaito Arashi", "Kaito")
    service.undo(store, campaign, "Kaito")
    service.redo(store, campaign, "Kaito Arashi")
    store.reveal_epoch(campaign.id)
    report = verify(export(store, campaign), replayer_for)
    assert report.ok, [p.message() for p in report.problems]
    assert report.results_checked == 4


def test_a_sheet_at_any_revision_folds_from_its_snapshot(store: Store) -> None:
    campaign = campaign_with(store, "pokemon", example("pokemon", "pokemon", xp=0))
    character = store.character_named(campaign.id, "Pikachu")
    seen = {1: character.sheet}
    for n in range(1, SNAPSHOT_EVERY + 30):
        service.set_fields(store, campaign, "Pikachu", [f"xp={n}"])
        seen[n + 1] = store.character(character.id).sheet
    for revision in (1, 2, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, len(seen)):
        view = service.show(store, campaign, "Pikachu", revision)
        assert (view.sheet, view.revision, view.last) == (seen[revision], revision, len(seen))
    with pytest.raises(StoreError, match=f"no revision 0 .revisions: 1..{len(seen)}"):
        service.show(store, campaign, "Pikachu", 0)
    _character, last = service.history(store, campaign, "Pikachu", last=3)
    assert [line.revision for line in last] == [len(seen) - 2, len(seen) - 1, len(seen)]


def test_an_edit_made_on_an_older_revision_is_rebased_or_refused(store: Store) -> None:
    campaign = campaign_with(store, "ilvermorny", example("ilvermorny", "wizard"))
    name = "Seraphina Quill"
    base = store.character_named(campaign.id, name)
    edited = {**base.sheet, "year": 3}
    service.set_fields(store, campaign, name, ["spells[Lumos].xp=20"])  # meanwhile
    done = service.replace(store, campaign, name, edited, base_revision=base.version)
    assert done.character is not None
    assert done.character.sheet["year"] == 3 and done.character.sheet["spells"][0]["xp"] == 20
    clash = {
        **base.sheet,
        "spells": [{**base.sheet["spells"][0], "xp": 1}, *base.sheet["spells"][1:]],
    }
    with pytest.raises(EditConflictError, match=r"spells\[1\]\.xp"):
        service.replace(store, campaign, name, clash, base_revision=base.version)
    with pytest.raises(SheetError, match=r"stats\.magic"):
        service.replace(
            store, campaign, name, {**base.sheet, "stats": {**base.sheet["stats"], "magic": 11}}
        )


def test_rm_is_refused_while_the_character_fights_then_keeps_the_journal(store: Store) -> None:
    from jdr.characters.fights import record_start
    from jdr.fights.service import open_fight
    from jdr.fights.setup import build_setup
    from jdr.systems import default_registry

    campaign = campaign_with(
        store, "plus-ultra", example("plus-ultra", "hero"), example("plus-ultra", "villain")
    )
    system = default_registry().get("plus-ultra")
    fighters = [
        {"name": c.name, "sheet": c.sheet, "side": side}
        for c, side in zip(store.characters(campaign.id), "ab", strict=True)
    ]
    assert system.fight is not None
    fight = open_fight(store, campaign.id, system.fight, build_setup(system, fighters, {})).fight_id
    record_start(store, fight, store.characters(campaign.id))
    with pytest.raises(RulesError, match=f"is in fight {fight}, which has not ended"):
        service.remove(store, campaign, "Kaito Arashi")
    store.set_fight_status(fight, "ended")
    gone = service.remove(store, campaign, "Kaito Arashi")
    assert gone.character is None and gone.kind == "removed"
    assert [c.name for c in store.characters(campaign.id)] == ["Maître Corbeau"]
    actions = [r.entry["context"]["action"] for r in store.journal(campaign.id)]
    assert actions[-1] == "sheet.removed" and actions.count("sheet.created") == 2


def test_a_campaign_removed_takes_everything_with_it(store: Store) -> None:
    campaign = campaign_with(store, "pokemon", example("pokemon", "pokemon"))
    store.delete_campaign(campaign.id)
    assert store.campaigns() == []
    with pytest.raises(StoreError, match="no campaign"):
        store.delete_campaign(campaign.id)


def awarder(url: str, who: str, go: Any) -> int:
    """Award 1 XP ROUNDS times through the service; a refusal after its retries is tried again."""
    from jdr.store import SheetConflictError

    store = open_store(url)
    campaign = store.campaign("Mardi")
    go.wait()
    refusals = 0
    for _n in range(ROUNDS):
        while True:
            try:
                service.progress(store, campaign, "Pikachu", "award", [who], {"xp": "1"})
                break
            except SheetConflictError:
                refusals += 1
    store.close()
    return refusals


def test_two_processes_changing_one_sheet_never_lose_a_change(database_url: str) -> None:
    store = open_store(database_url)
    campaign = campaign_with(store, "pokemon", example("pokemon", "pokemon", xp=0))
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        go = manager.Event()
        with context.Pool(2) as pool:
            results = [pool.apply_async(awarder, (database_url, who, go)) for who in "AB"]
            go.set()
            [result.get(timeout=120) for result in results]
    character = store.character_named(campaign.id, "Pikachu")
    assert character.sheet["xp"] == 2 * ROUNDS
    revisions = store.revisions(character.id)
    assert [r.revision for r in revisions] == list(range(1, 2 * ROUNDS + 2))
    assert sorted(r.data["reason"] for r in revisions[1:]) == ["A"] * ROUNDS + ["B"] * ROUNDS
    assert [r.data["changes"][0]["after"] for r in revisions[1:]] == list(range(1, 2 * ROUNDS + 1))
    seqs = [r.journal_seq for r in revisions]
    assert len(set(seqs)) == len(seqs)  # one journal entry each
    store.close()


def test_a_database_from_revision_0002_upgrades_and_its_sheets_get_revision_1(
    tmp_path: Path,
) -> None:
    from alembic import command

    from jdr.store import upgrade
    from jdr.store.schema import alembic_config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002")
        conn.execute(
            text(
                "INSERT INTO campaigns (system, name, settings, created)"
                " VALUES ('plus-ultra', 'Ancienne', '{}', '2025-01-01 00:00:00')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO characters (campaign_id, name, sheet, version)"
                " VALUES (1, 'Kai', :sheet, 1)"
            ),
            {"sheet": '{"name": "Kai", "rank": "E", "energy": 2, "willpower": 2}'},
        )
    engine.dispose()
    upgrade(url)
    store = open_store(url)
    campaign = store.campaign("Ancienne")
    [revision] = store.revisions(1)
    assert (revision.revision, revision.kind, revision.journal_seq) == (1, "created", None)
    assert store.sheet_at(1, 1) == (
        "Kai",
        {"name": "Kai", "rank": "E", "energy": 2, "willpower": 2},
    )
    done = service.progress(store, campaign, "Kai", "rank", ["energy"], {})
    assert done.character is not None and done.character.sheet["rank"] == "E+"
    store.close()


def test_the_head_revision_opened_without_alembic_is_the_migrations_head() -> None:
    from jdr.store.schema import HEAD, head

    assert head() == HEAD
