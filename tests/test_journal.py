"""Issue 9: the campaign journal — committed seeds, one roll per action id, a hash chain, hidden
rolls, reveal, export and offline verification that names the first discrepancy.

Runs on SQLite always and on PostgreSQL when `JDR_TEST_DATABASE_URL` is set.
"""

from __future__ import annotations

import copy
import hashlib
import io
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from cli_run import run
from jdr.dice.source import GivenFaces
from jdr.dice.verifiable import commitment, derive_faces
from jdr.errors import InputError, RulesError
from jdr.fights import service as fights
from jdr.journal import service
from jdr.journal.entries import GENESIS, Entry, dice, make_entry
from jdr.journal.replay import replayer_for as replayer
from jdr.journal.verify import verify
from jdr.params import validate_params
from jdr.store import Store, StoreError, open_store
from jdr.systems import default_registry
from test_verifiable import CONTEXT_A, SEED

SYSTEMS = Path(__file__).parent.parent / "src" / "jdr" / "systems"
HERO = SYSTEMS / "plus_ultra" / "examples" / "hero.toml"
VILLAIN = SYSTEMS / "plus_ultra" / "examples" / "villain.toml"

Json = dict[str, Any]


def roll_via(store: Store, campaign: str, action: str, **options: Any) -> service.Rolled:
    """A roll through `campaign` with raw parameters (`params`) and journal options."""
    found = store.campaign(campaign)
    system = default_registry().get(found.system)
    chosen = system.actions[action]
    params = validate_params(chosen.params, options.pop("params"))
    return service.roll(store, found, system, chosen, params, **options)


def poledemos_table(store: Store) -> str:
    """A Polédémos campaign with eight rolls by two players, one hidden (disclosed), one typed."""
    store.create_campaign("poledemos", "Mardi")
    for n in range(6):
        roll_via(
            store,
            "Mardi",
            "test",
            params={"val": "3+", "dice": 1 + n % 3},
            actor="Ana" if n % 2 else "Bo",
            action_id=f"post-{n}",
        )
    hidden = roll_via(store, "Mardi", "activate", params={"val": "4", "dice": 2}, hidden=True)
    roll_via(
        store, "Mardi", "test", params={"val": "4", "dice": 2}, actor="Bo", rng=GivenFaces([6, 1])
    )
    store.disclose(store.campaign("Mardi").id, [hidden.entry.seq])
    return "Mardi"


def revealed_export(store: Store, name: str) -> Json:
    campaign = store.campaign(name)
    store.reveal_epoch(campaign.id)
    return service.export(store, campaign)


# --- the roll: derived, journaled, one per action id -----------------------------------------


def test_a_campaign_roll_derives_its_dice_from_the_committed_seed(store: Store) -> None:
    store.create_campaign("poledemos", "Mardi")
    rolled = roll_via(store, "Mardi", "test", params={"val": "3+", "dice": 3}, actor="Ana")
    epoch = store.epoch(store.campaign("Mardi").id)
    entry = rolled.entry
    assert entry.commitment == epoch.commitment == commitment(epoch.seed)
    assert derive_faces(epoch.seed, entry.context or {}, [6, 6, 6]) == list(rolled.record.faces)
    assert entry.context == {
        "system": "poledemos",
        "actor": "Ana",
        "action": "test",
        "params": {"val": 3, "dice": 3},
        "campaign": "Mardi",
        "action_id": "#1",
        "seq": 1,
        "v": 2,
    }
    assert entry.result is not None and entry.result["faces"] == list(rolled.record.faces)
    assert (entry.seq, entry.prev_hash, entry.v) == (1, GENESIS, 2)
    assert entry.time is not None and entry.to_json()["time"] == entry.time


def test_the_same_action_id_gives_the_same_roll_and_other_parameters_are_refused(
    store: Store,
) -> None:
    store.create_campaign("poledemos", "Mardi")
    params = {"val": "3+", "dice": 3}
    first = roll_via(store, "Mardi", "test", params=params, actor="Ana", action_id="post-1")
    again = roll_via(store, "Mardi", "test", params=params, actor="Ana", action_id="post-1")
    assert again.replayed and not first.replayed
    assert again.entry == first.entry and again.record.faces == first.record.faces
    assert again.record.explain() == first.record.explain()
    with pytest.raises(RulesError, match="action id post-1 was already rolled"):
        roll_via(store, "Mardi", "test", params={"val": "4", "dice": 3}, action_id="post-1")
    with pytest.raises(RulesError, match="already rolled"):
        roll_via(store, "Mardi", "test", params=params, actor="Bo", action_id="post-1")
    assert len(store.journal(store.campaign("Mardi").id)) == 1


def test_action_ids_are_checked(store: Store) -> None:
    store.create_campaign("poledemos", "Mardi")
    for bad in ("", "  ", "#3", "x" * 201):
        with pytest.raises(InputError, match="--action-id"):
            roll_via(store, "Mardi", "test", params={"val": "3", "dice": 1}, action_id=bad)


def test_a_roll_through_another_systems_campaign_is_refused(store: Store) -> None:
    store.create_campaign("plus-ultra", "Mardi")
    system = default_registry().get("poledemos")
    action = system.actions["test"]
    params = validate_params(action.params, {"val": "3", "dice": 1})
    with pytest.raises(InputError, match="this campaign plays plus-ultra"):
        service.roll(store, store.campaign("Mardi"), system, action, params)


def test_entries_chain_and_each_epoch_has_a_fresh_seed(store: Store) -> None:
    name = poledemos_table(store)
    campaign = store.campaign(name)
    rows = store.journal(campaign.id)
    entries = [Entry.from_json(r.entry) for r in rows]
    assert [e.seq for e in entries] == list(range(1, 9))
    assert entries[0].prev_hash == GENESIS
    for before, after in itertools.pairwise(entries):
        assert after.prev_hash == before.hash
    assert all(r.hash == e.hash for r, e in zip(rows, entries, strict=True))
    first = store.epoch(campaign.id)
    revealed, opened = store.reveal_epoch(campaign.id)
    assert revealed.seed == first.seed and revealed.revealed is not None
    assert opened.number == 2 and opened.seed != first.seed and opened.revealed is None
    later = roll_via(store, name, "test", params={"val": "3", "dice": 1})
    assert later.entry.commitment == opened.commitment
    assert later.entry.prev_hash == entries[-1].hash


# --- hidden rolls ----------------------------------------------------------------------------


def test_a_hidden_roll_is_sealed_until_disclosed_and_blocks_the_reveal(store: Store) -> None:
    store.create_campaign("poledemos", "Mardi")
    campaign = store.campaign("Mardi")
    roll_via(store, "Mardi", "test", params={"val": "3", "dice": 1}, actor="Ana")
    hidden = roll_via(store, "Mardi", "test", params={"val": "5", "dice": 2}, hidden=True)
    sealed = service.export(store, campaign)["entries"][1]
    header = {"seq", "prev_hash", "commitment", "hidden", "body_hash", "time", "v"}
    assert set(sealed) == {*header, "hash"}
    assert sealed["hash"] == hidden.entry.hash and sealed["hidden"] is True
    with pytest.raises(StoreError, match="hidden rolls not disclosed yet: 2; disclose them"):
        store.reveal_epoch(campaign.id)
    assert store.epochs(campaign.id)[-1].revealed is None  # nothing changed
    report = verify(service.export(store, campaign), replayer)
    assert report.ok and report.sealed == [2] and report.unrevealed == [1]
    with pytest.raises(StoreError, match="entry 1 is not a hidden roll"):
        store.disclose(campaign.id, [1])
    assert store.disclose(campaign.id) == [2]
    assert store.disclose(campaign.id) == []
    report = verify(revealed_export(store, "Mardi"), replayer)
    assert report.ok and report.sealed == [] and report.results_checked == 2


def test_a_hidden_body_is_salted_so_it_cannot_be_guessed() -> None:
    one = make_entry(1, GENESIS, "c" * 64, {"seq": 1}, dice([[6, 3]]), {"n": 3}, hidden=True)
    two = make_entry(1, GENESIS, "c" * 64, {"seq": 1}, dice([[6, 3]]), {"n": 3}, hidden=True)
    assert one.salt != two.salt and one.body_hash != two.body_hash
    assert Entry.from_json(one.sealed().to_json()).hash == one.hash


# --- round trip: rolls and a fight, revealed, exported, verified -----------------------------


def plus_ultra_fight(store: Store) -> int:
    """A Plus Ultra campaign: a fight of four actions, one undone and redone, one undone."""
    from jdr.cli.store_commands import validate_file
    from jdr.fights.setup import build_setup, participants, to_play

    system = default_registry().get("plus-ultra")
    campaign = store.create_campaign("plus-ultra", "Jeudi")
    for path in (HERO, VILLAIN):
        sheet = validate_file(system, path)
        store.add_character(campaign, sheet.name, sheet.model_dump(mode="json"))  # type: ignore[attr-defined]
    names = [c.name for c in store.characters(campaign)]
    fighters = [
        {"name": n, "sheet": store.character_named(campaign, n).sheet, "side": s}
        for n, s in participants(names, {})
    ]
    assert system.fight is not None
    setup = build_setup(system, fighters, {"order": names})
    fight = fights.open_fight(store, campaign, system.fight, setup, names).fight_id
    for turn in range(4):
        state = fights.state(store, fight, system.fight)
        actor = to_play(state)
        target = names[1] if actor == names[0] else names[0]
        fights.act(
            store, fight, system.fight, {"action": "attack", "actor": actor, "target": target}
        )
        if turn == 1:
            fights.undo(store, fight)
            fights.redo(store, fight)
    fights.undo(store, fight)
    return fight


def test_a_whole_campaign_journal_verifies_offline(store: Store, tmp_path: Path) -> None:
    plus_ultra_fight(store)
    journal = revealed_export(store, "Jeudi")
    assert [e["context"]["action"] for e in journal["entries"]] == [
        "start",
        "attack",
        "attack",
        "undo",
        "redo",
        "attack",
        "attack",
        "undo",
    ]
    report = verify(json.loads(json.dumps(journal)), replayer)
    assert report.ok, [p.message() for p in report.problems]
    assert report.entries == 8 and report.dice_checked >= 4
    assert report.results_checked == 7  # every action but the opening is decided again
    assert report.not_replayed == [1]


def test_a_rolls_journal_verifies_and_re_computes_every_result(store: Store) -> None:
    journal = revealed_export(store, poledemos_table(store))
    report = verify(journal, replayer)
    assert report.ok, [p.message() for p in report.problems]
    assert report.entries == 8 and report.results_checked == 8
    assert report.not_derived == [8]  # faces typed in: recorded, not derived
    assert report.last == (8, journal["entries"][-1]["hash"])


def test_verify_without_the_rules_still_checks_seeds_chain_and_dice(store: Store) -> None:
    journal = revealed_export(store, poledemos_table(store))
    report = verify(journal)
    assert report.ok and report.results_checked == 0 and len(report.not_replayed) == 8


# --- tampering: each case caught and named ---------------------------------------------------


def rehash(journal: Json, start: int = 0) -> Json:
    """Recompute every hash and link from entry `start` on: a forger who knows the format."""
    entries = journal["entries"]
    previous = entries[start - 1]["hash"] if start else GENESIS
    for item in entries[start:]:
        item["prev_hash"] = previous
        item["body_hash"] = Entry.from_json(item).body_hash
        item["hash"] = Entry.from_json(item).hash
        previous = item["hash"]
    return journal


@pytest.fixture
def journal(store: Store) -> Json:
    return revealed_export(store, poledemos_table(store))


def first(journal: Json, forge: bool = False) -> str:
    report = verify(journal, replayer)
    assert not report.ok
    return report.problems[0].message()


def test_issue_9_a_changed_face_is_named(journal: Json) -> None:
    tampered = copy.deepcopy(journal)
    size, face = tampered["entries"][2]["dice"]["rolls"][0]
    tampered["entries"][2]["dice"]["rolls"][0][1] = face % size + 1
    assert first(tampered).startswith(f"entry 3: die 1 (d{size}) derives to {face}")
    assert "entry 3: its content hashes to" in verify(tampered).problems[-1].message()
    forged = rehash(copy.deepcopy(tampered))  # hashes recomputed: the dice still tell
    assert first(forged).startswith(f"entry 3: die 1 (d{size}) derives to {face}")


def test_issue_9_a_changed_parameter_is_named(journal: Json) -> None:
    tampered = copy.deepcopy(journal)
    assert tampered["entries"][2]["context"]["params"]["dice"] == 3
    tampered["entries"][2]["context"]["params"]["dice"] = 2
    # a die re-derives differently (the context changed), or if by chance all three agree, the
    # rules use two dice where the journal lists three
    report = verify(rehash(tampered, 2), replayer)
    assert report.problems[0].seq == 3 and report.problems[0].kind in ("die", "dice_count")
    assert report.problems[0].message().startswith("entry 3: ")


def test_issue_9_a_changed_result_is_named_even_with_hashes_recomputed(journal: Json) -> None:
    tampered = copy.deepcopy(journal)
    tampered["entries"][1]["result"]["outcome"] = "critical_success"
    message = first(copy.deepcopy(tampered))
    assert message.startswith("entry 2: at result.outcome, the rules give ")
    assert message.endswith(' from these dice, the journal shows "critical_success"')
    assert first(rehash(copy.deepcopy(tampered), 1)) == message
    # the chain alone (no rules installed) still catches the unforged change
    problems = verify(tampered).problems
    assert problems[0].message().startswith("entry 2: its body hashes to ")
    assert problems[1].message().startswith("entry 2: its content hashes to ")


def test_issue_9_a_deleted_entry_is_named(journal: Json) -> None:
    tampered = copy.deepcopy(journal)
    del tampered["entries"][4]
    message = first(tampered)
    assert message == "entry 6: expected entry 5 here — entry 5 is missing"
    assert first(rehash(tampered)) == message  # relinking does not hide the gap


def test_issue_9_two_entries_swapped_are_named(journal: Json) -> None:
    tampered = copy.deepcopy(journal)
    entries = tampered["entries"]
    entries[2], entries[3] = entries[3], entries[2]
    assert first(tampered) == "entries 3 and 4 are out of order: 4 comes before 3"
    problems = [p.kind for p in verify(tampered).problems]
    assert "swap" in problems and "link" in problems
    assert "missing" not in problems and "missing_one" not in problems and "order" not in problems


def test_verify_names_two_missing_entries_and_an_entry_moved_far(journal: Json) -> None:
    tampered = copy.deepcopy(journal)
    del tampered["entries"][2:4]
    assert first(tampered) == "entry 5: expected entry 3 here — entries 3 to 4 are missing"
    moved = copy.deepcopy(journal)
    entries = moved["entries"]
    entries.insert(5, entries.pop(1))  # 1, 3, 4, 5, 6, 2, 7 …
    kinds = [(p.kind, p.seq) for p in verify(moved).problems if p.kind != "link"]
    assert kinds[:2] == [("missing_one", 3), ("order", 2)], kinds


def test_issue_9_a_swapped_seed_is_named(journal: Json) -> None:
    tampered = copy.deepcopy(journal)
    other = bytes(32)
    tampered["epochs"][0]["seed"] = other.hex()
    assert first(tampered) == (
        f"epoch 1: the revealed seed hashes to {commitment(other)}, its commitment is "
        f"{journal['epochs'][0]['commitment']}"
    )
    tampered["epochs"][0]["commitment"] = commitment(other)  # and the commitment with it
    message = first(tampered)
    assert message.startswith("entry 1: commitment ") and "is not one of the journal's" in message


def test_issue_9_a_row_changed_in_the_database_shows_in_the_export(store: Store) -> None:
    name = poledemos_table(store)
    campaign = store.campaign(name)
    row = store.journal(campaign.id)[0]
    entry = dict(row.entry)
    entry["result"] = {**entry["result"], "outcome": "forged"}
    with store.engine.begin() as conn:
        conn.execute(
            text("UPDATE journal SET entry = :entry WHERE campaign_id = :c AND seq = 1"),
            {"entry": json.dumps(entry), "c": campaign.id},
        )
    report = verify(revealed_export(store, name), replayer)
    assert report.problems[0].message().startswith("entry 1: at result.outcome, the rules give ")
    assert any(p.kind == "hash" and p.seq == 1 for p in report.problems)


def test_issue_9_a_fight_event_rewritten_is_named(store: Store) -> None:
    plus_ultra_fight(store)
    journal = revealed_export(store, "Jeudi")
    tampered = copy.deepcopy(journal)
    events = tampered["entries"][1]["result"]["events"]
    rolled = next(e for e in events if e["type"] == "attack_rolled")
    rolled["hit"], rolled["outcome"] = (not rolled["hit"]), "forged"
    message = first(rehash(tampered, 1))
    assert message.startswith("entry 2: at result.events[1].outcome, the rules give ")
    assert message.endswith(' from these dice, the journal shows "forged"')


def test_pins_tie_the_journal_to_hashes_seen_on_a_forum(journal: Json) -> None:
    third = journal["entries"][2]["hash"]
    assert verify(journal, replayer, {3: third[:10]}).ok
    wrong = verify(journal, replayer, {3: "0123456789"}).problems[0].message()
    assert wrong == f"entry 3: its hash is {third[:10]}, the pinned hash is 0123456789"
    truncated = copy.deepcopy(journal)
    del truncated["entries"][-1]  # removing the last entry leaves no gap: a pin catches it
    assert verify(truncated, replayer).ok
    missing = verify(truncated, replayer, {8: journal["entries"][-1]["hash"][:10]})
    assert (
        missing.problems[0].message() == "entry 8 is pinned but not in the journal (last entry: 7)"
    )


def test_malformed_entries_are_named_not_a_traceback(journal: Json) -> None:
    tampered = copy.deepcopy(journal)
    del tampered["entries"][2]["prev_hash"]
    message = verify(tampered).problems[0].message()
    assert message == "entry at position 3 is malformed: missing field prev_hash"
    tampered = copy.deepcopy(journal)
    tampered["entries"][1]["context"]["params"] = {"val": float("nan")}
    assert "malformed" in verify(tampered).problems[0].message()
    tampered = copy.deepcopy(journal)
    tampered["epochs"][0]["seed"] = "zz"
    assert verify(tampered).problems[0].message() == (
        "epoch 1: the revealed seed is not 32 bytes of hex: zz"
    )


# --- the entry hash: documented vectors ------------------------------------------------------


def reference_entry_hash(entry: Json) -> str:
    """docs/verifiable-rolls.md, re-implemented from the page with hashlib and json only."""

    def canon(value: Any) -> bytes:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

    body = {k: entry[k] for k in ("context", "dice", "result")}
    if entry["hidden"]:
        body["salt"] = entry["salt"]
    header = {k: entry[k] for k in ("seq", "prev_hash", "commitment", "hidden")}
    header["body_hash"] = hashlib.sha256(canon(body)).hexdigest()
    return hashlib.sha256(canon(header)).hexdigest()


def test_entry_hash_vectors_match_the_doc_and_an_independent_implementation() -> None:
    faces = derive_faces(SEED, CONTEXT_A, [20, 6])
    assert faces == [11, 1]
    one = Entry(
        1,
        GENESIS,
        commitment(SEED),
        CONTEXT_A,
        dice([[20, 11], [6, 1]]),
        {"outcome": "hit", "damage": 3},
    )
    assert one.body_hash == "9e5b48cbd74d5db600e448d2397fe450939ea90489bed5077218568bf5c450c2"
    assert one.hash == "83c7eb264197805cd8a312f97edd0dcf022c090ed3c49f80eb659bb4d63ceb35"
    two = Entry(
        2,
        one.hash,
        commitment(SEED),
        {"action": "test", "seq": 2, "campaign": "demo", "action_id": "#2", "actor": None},
        dice([]),
        {"outcome": "success"},
        hidden=True,
        salt="00" * 16,
    )
    assert two.body_hash == "204cbb988c0e5d2f14ceb024f150b8e1bc7fc28206afcc7be82b8012664ff7fe"
    assert two.hash == "43538e94b4ad9227f57afc5bae05601fd7a10fc15103e960dae253c25306efc4"
    for entry in (one, two):
        assert reference_entry_hash(entry.to_json()) == entry.hash
    docs = (Path(__file__).parent.parent / "docs" / "verifiable-rolls.md").read_text()
    for digest in (one.body_hash, one.hash, two.body_hash, two.hash):
        assert digest in docs


# --- migration -------------------------------------------------------------------------------


def test_a_database_from_revision_0001_upgrades_and_its_campaigns_get_a_seed(
    tmp_path: Path,
) -> None:
    from alembic import command

    from jdr.store import upgrade
    from jdr.store.schema import alembic_config

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0001")
        conn.execute(
            text(
                "INSERT INTO campaigns (system, name, settings, created)"
                " VALUES ('poledemos', 'Ancienne', '{}', '2025-01-01 00:00:00')"
            )
        )
    engine.dispose()
    with pytest.raises(StoreError, match="older revision"):
        open_store(url)
    upgrade(url)
    store = open_store(url)
    campaign = store.campaign("Ancienne")
    assert store.epochs(campaign.id) == []
    rolled = roll_via(store, "Ancienne", "test", params={"val": "3", "dice": 2})
    assert rolled.entry.commitment == store.epochs(campaign.id)[0].commitment
    store.close()


# --- the command line ------------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def test_cli_campaign_roll_reveal_export_verify(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "campaign", "new", "Mardi", "--system", "poledemos", "--db", db)
    assert code == 0 and "seed commitment (epoch 1): " in out
    pledged = out.split("seed commitment (epoch 1): ")[1].split()[0]
    roll = ["roll", "poledemos", "test", "--val", "3+", "--dice", "3", "--campaign", "Mardi"]
    code, out, _ = run(capsys, *roll, "--actor", "Ana", "--action-id", "post-7", "--db", db)
    assert code == 0 and "journal #1 · " in out and pledged[:16] in out
    code, again, _ = run(capsys, *roll, "--actor", "Ana", "--action-id", "post-7", "--db", db)
    assert code == 0 and "the same roll again" in again
    assert again.splitlines()[1] == out.splitlines()[1]  # the same explanation, same faces
    code, out, err = run(capsys, *roll[:4], "4", *roll[5:], "--action-id", "post-7", "--db", db)
    assert code == 2 and "already rolled" in err
    code, out, _ = run(capsys, *roll, "--hidden", "--json", "--db", db)
    payload = json.loads(out)
    assert payload["journal"]["hidden"] is True and payload["journal"]["seq"] == 2
    code, out, err = run(capsys, "campaign", "reveal", "Mardi", "--db", db)
    assert code == 2 and "hidden rolls not disclosed yet: 2" in err
    assert run(capsys, "journal", "disclose", "Mardi", "--db", db)[0] == 0
    code, out, _ = run(capsys, "campaign", "reveal", "Mardi", "--json", "--db", db)
    revealed = json.loads(out)
    assert revealed["revealed"]["commitment"] == pledged
    assert commitment(bytes.fromhex(revealed["revealed"]["seed"])) == pledged
    path = tmp_path / "journal.json"
    code, out, _ = run(capsys, "journal", "export", "Mardi", "--output", str(path), "--db", db)
    assert code == 0
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 0 and "OK: the journal verifies" in out
    data = json.loads(path.read_text())
    data["entries"][0]["dice"]["rolls"][0][1] = data["entries"][0]["dice"]["rolls"][0][1] % 6 + 1
    path.write_text(json.dumps(data))
    code, out, _ = run(capsys, "verify", str(path), "--lang", "fr")
    assert code == 1 and "ÉCHEC\u00a0: entrée 1\u00a0: le dé 1 (d6)" in out
    code, out, _ = run(capsys, "verify", str(path), "--json")
    assert code == 1 and json.loads(out)["problems"][0]["kind"] == "die"


def test_cli_fight_lines_and_recap_show_the_journal(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "campaign", "new", "Jeudi", "--system", "plus-ultra", "--db", db)
    for sheet in (HERO, VILLAIN):
        run(capsys, "sheet", "add", str(sheet), "--campaign", "Jeudi", "--db", db)
    names = "Kaito Arashi,Maître Corbeau"
    code, out, _ = run(
        capsys, "fight", "new", "--campaign", "Jeudi", "--with", names, "--order", names, "--db", db
    )
    assert code == 0 and "journal #3 · " in out  # #1 and #2: the sheets added (issue 16)
    code, out, _ = run(
        capsys,
        "fight",
        "act",
        "1",
        "Kaito Arashi",
        "attack",
        "target=Maître Corbeau",
        "--json",
        "--db",
        db,
    )
    acted = json.loads(out)["journal"]
    assert acted["seq"] == 4 and acted["action_id"] == "#fight1.4" and acted["source"] == "derived"
    code, out, _ = run(capsys, "fight", "recap", "1", "--format", "bbcode", "--db", db)
    assert (
        f"[i]journal #4 {acted['short']} · seed commitment {acted['commitment'][:16]}…[/i]" in out
    )
    code, out, _ = run(
        capsys, "fight", "recap", "1", "--actor", "Kaito Arashi", "--format", "markdown", "--db", db
    )
    assert f"_journal #4 {acted['short']}" in out
    code, out, _ = run(capsys, "journal", "show", "Jeudi", "--db", db)
    assert "fight 1" in out and acted["short"] in out
    summaries = json.loads(run(capsys, "journal", "show", "Jeudi", "--json", "--db", db)[1])
    assert summaries["summaries"]["4"].startswith("Kaito Arashi attacks Maître Corbeau. d20 ")
    code, out, _ = run(
        capsys, "fight", "act", "1", "Maître Corbeau", "attack", "target=Kaito Arashi",
        "--client-seed", "mon jet à moi", "--json", "--db", db,
    )  # fmt: skip
    assert code == 0
    code, out, _ = run(capsys, "journal", "show", "Jeudi", "--last", "1", "--json", "--db", db)
    [entry] = json.loads(out)["entries"]
    assert entry["context"]["client_seed"] == "mon jet à moi" and entry["seq"] == 5


def test_cli_journal_luck_reports_exact_percentiles(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "campaign", "new", "Mardi", "--system", "poledemos", "--db", db)
    roll = ["roll", "poledemos", "test", "--val", "3+", "--campaign", "Mardi", "--db", db]
    run(capsys, *roll, "--dice", "2", "--actor", "Ana")
    run(capsys, *roll, "--dice", "1", "--actor", "Ana")
    run(capsys, *roll, "--dice", "3", "--actor", "Bo", "--faces", "6,6,6")  # typed: not counted
    code, out, _ = run(capsys, "journal", "luck", "Mardi", "--exact", "--json", "--db", db)
    payload = json.loads(out)
    assert code == 0 and [a["actor"] for a in payload["actors"]] == ["Ana"]
    ana = payload["actors"][0]
    assert ana["dice"] == 3 and ana["rolls"] == 2 and ana["mean"] == "21/2"
    faces = [
        face
        for entry in service.public_entries(open_store(db), open_store(db).campaign("Mardi"))
        for _size, face in (entry.dice or {}).get("rolls", [])
        if entry.actor == "Ana"
    ]
    below = sum(
        1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c < sum(faces)
    )
    equal = sum(
        1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c == sum(faces)
    )
    from fractions import Fraction

    assert Fraction(ana["percentile"]) == Fraction(2 * below + equal, 2 * 216)
    code, out, _ = run(capsys, "journal", "luck", "Mardi", "--actor", "Bo", "--db", db)
    assert code == 0 and out == "No derived dice for Bo.\n"


def test_cli_bad_input_is_one_line_and_exit_2(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(capsys, "roll", "poledemos", "test", "--val", "3", "--actor", "Ana")
    assert code == 2 and "--actor" in err and "--campaign NAME" in err
    code, _out, err = run(capsys, "roll", "poledemos", "test", "--val", "3", "--hidden")
    assert code == 2 and "--hidden" in err
    not_json = tmp_path / "x.json"
    not_json.write_text("{nope")
    code, _out, err = run(capsys, "verify", str(not_json))
    assert code == 2 and "not JSON (line 1, column 2)" in err and err.count("\n") == 1
    not_journal = tmp_path / "y.json"
    not_journal.write_text("{}")
    code, _out, err = run(capsys, "verify", str(not_journal))
    assert code == 2 and "not a jdr journal" in err
    code, _out, err = run(capsys, "verify", str(tmp_path / "missing.json"))
    assert code == 2 and "a readable journal file" in err
    code, _out, err = run(capsys, "verify", str(not_journal), "--pin", "x")
    assert code == 2 and "SEQ:HASH" in err
    code, _out, err = run(capsys, "journal", "show", "Nope", "--db", db)
    assert code == 2 and "unknown campaign Nope" in err
    run(capsys, "campaign", "new", "Mardi", "--system", "poledemos", "--db", db)
    code, _out, err = run(capsys, "journal", "disclose", "Mardi", "7", "--db", db)
    assert code == 2 and "entry 7 is not a hidden roll" in err


# --- every action and every fight of the five systems replays -----------------------------


def test_every_action_of_every_system_replays_from_the_journal(store: Store) -> None:
    """Each action's example, rolled three times through a campaign: every result re-computes."""
    registry = default_registry()
    total = 0
    for system_id in registry.ids():
        system = registry.get(system_id)
        store.create_campaign(system_id, f"all-{system_id}")
        campaign = store.campaign(f"all-{system_id}")
        for action in system.actions.values():
            params = validate_params(action.params, dict(action.example))
            for n in range(3):
                service.roll(store, campaign, system, action, params, actor=f"P{n}")
                total += 1
        report = verify(revealed_export(store, campaign.name), replayer)
        assert report.ok, (system_id, [p.message() for p in report.problems])
        assert report.results_checked == report.entries == 3 * len(system.actions)
    assert total >= 60


def test_the_demo_fights_of_the_five_systems_replay_from_the_journal(store: Store) -> None:
    """The demo's scripted fights (faces given or seeded): every action re-decides the same."""
    from rich.console import Console

    from jdr.cli.demo_fights import SCRIPTS, _play

    quiet = Console(file=io.StringIO(), width=100)
    for script in SCRIPTS:
        _play(quiet, store, script, "en")
    for campaign in store.campaigns():
        journal = revealed_export(store, campaign.name)
        report = verify(journal, replayer)
        assert report.ok, (campaign.name, [p.message() for p in report.problems])
        assert report.results_checked == report.entries - 1  # all but the opening
        assert report.not_replayed == [1]


# --- two processes rolling at once -----------------------------------------------------------

ROLLS = 25


def roller(url: str, who: str, go: Any) -> int:
    """Roll ROLLS times through the campaign `Mardi`; count the rolls retried after a race."""
    from jdr.store import JournalConflictError

    store = open_store(url)
    go.wait()
    retried = 0
    for n in range(ROLLS):
        while True:
            try:
                roll_via(
                    store,
                    "Mardi",
                    "test",
                    params={"val": "4", "dice": 2},
                    actor=who,
                    action_id=f"{who}-{n}",
                )
                break
            except JournalConflictError:
                retried += 1
    store.close()
    return retried


def test_two_processes_rolling_at_once_keep_one_unbroken_chain(database_url: str) -> None:
    import multiprocessing

    store = open_store(database_url)
    store.create_campaign("poledemos", "Mardi")
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        go = manager.Event()
        with context.Pool(2) as pool:
            results = [pool.apply_async(roller, (database_url, who, go)) for who in ("A", "B")]
            go.set()
            [result.get(timeout=120) for result in results]
    rows = store.journal(store.campaign("Mardi").id)
    assert [r.seq for r in rows] == list(range(1, 2 * ROLLS + 1))
    assert sorted(r.action_id for r in rows) == sorted(
        f"{who}-{n}" for who in "AB" for n in range(ROLLS)
    )
    report = verify(revealed_export(store, "Mardi"), replayer)
    assert report.ok and report.results_checked == 2 * ROLLS
    store.close()


# --- a hostile file: every mutation gives a report, never a traceback -----------------------

MUTATIONS: list[Any] = [None, True, -1, 0, 10**7, "x", "", [], {}, [1], [[0, 1]], 1.5, ["6", 1]]


def test_any_mutation_of_a_journal_gives_a_report_not_a_traceback(store: Store) -> None:
    import random

    plus_ultra_fight(store)
    journal = revealed_export(store, "Jeudi")
    rng = random.Random(9)

    def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
        yield path
        if isinstance(value, dict):
            for key, item in value.items():
                yield from places(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from places(item, (*path, index))

    spots = [p for p in places(journal) if p]
    for _trial in range(400):
        tampered = copy.deepcopy(journal)
        path = rng.choice(spots)
        parent = tampered
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = copy.deepcopy(rng.choice(MUTATIONS))
        report = verify(tampered, replayer)  # must not raise
        assert all(p.message() for p in report.problems)
        unhashed = {"campaign", "system", "exported", "revealed", "number", "head"}  # shown only
        empty_epoch = path[:2] == ("epochs", 1)  # the new epoch: no entry refers to it yet
        file_version = path == ("v",) and parent["v"] in (1, 2)  # either reads the entries
        file_version |= path[-1] == "seed" and parent["seed"] is None  # as if not yet revealed
        changed = parent[path[-1]] != _at(journal, path)
        if not unhashed & set(path) and not empty_epoch and not file_version and changed:
            assert not report.ok, path


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def test_cli_verify_reads_stdin_and_export_refuses_an_unwritable_file(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run(capsys, "campaign", "new", "Mardi", "--system", "poledemos", "--db", db)
    run(capsys, "roll", "poledemos", "test", "--val", "4", "--campaign", "Mardi", "--db", db)
    code, out, _err = run(capsys, "journal", "export", "Mardi", "--db", db)
    assert code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    code, shown, _err = run(capsys, "verify", "-", "--lang", "fr")
    assert code == 0 and "entrées en attente de la révélation de leur graine\u00a0: 1" in shown
    code, _out, err = run(
        capsys,
        "journal",
        "export",
        "Mardi",
        "--output",
        str(tmp_path / "no" / "j.json"),
        "--db",
        db,
    )
    assert code == 2 and "--output" in err and err.count("\n") == 1


def test_an_entry_never_joins_an_epoch_revealed_while_it_was_rolled(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.create_campaign("poledemos", "Mardi")
    campaign = store.campaign("Mardi")
    real_record = store.record
    revealed: list[int] = []

    def record_after_a_reveal(*args: Any) -> Any:
        if not revealed:  # the GM reveals the seed while the roll is being made
            revealed.append(store.reveal_epoch(campaign.id)[0].number)
        return real_record(*args)

    monkeypatch.setattr(store, "record", record_after_a_reveal)
    rolled = roll_via(store, "Mardi", "test", params={"val": "4", "dice": 2})
    assert revealed == [1]
    assert rolled.entry.commitment == store.epochs(campaign.id)[1].commitment  # rolled again
    assert [row.epoch for row in store.journal(campaign.id)] == [2]


@pytest.mark.parametrize(
    ("fmt", "line"),
    [("bbcode", r"\[i\]journal #1 · [0-9a-f]{10} · seed commitment [0-9a-f]{16}…\[/i\]"),
     ("markdown", r"\n\n_journal #1 · [0-9a-f]{10} · seed commitment [0-9a-f]{16}…_"),
     ("text", r"Volonté: 5\njournal #1 · [0-9a-f]{10} · seed commitment [0-9a-f]{16}…\n")],
)  # fmt: skip
def test_cli_a_roll_recap_carries_its_journal_line_in_its_format(
    db: str, capsys: pytest.CaptureFixture[str], fmt: str, line: str
) -> None:
    import re

    run(capsys, "campaign", "new", "Jeudi", "--system", "plus-ultra", "--db", db)
    code, out, _err = run(
        capsys, "roll", "plus-ultra", "attack", "--willpower", "5", "--target-energy", "3",
        "--recap", fmt, "--attacker", "Izuku", "--target", "Shoto", "--campaign", "Jeudi",
        "--actor", "Izuku", "--db", db,
    )  # fmt: skip
    assert code == 0 and re.search(line, out), out


def test_generic_dice_roll_through_a_campaign_and_replay(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "campaign", "new", "Mardi", "--system", "pokemon", "--db", db)
    dice = ["dice", "4d10>=6f1", "--campaign", "Mardi", "--db", db, "--json"]
    code, out, _ = run(capsys, *dice, "--actor", "MJ", "--action-id", "evt-1")
    first = json.loads(out)
    assert code == 0 and first["journal"]["source"] == "derived"
    code, out, _ = run(capsys, *dice, "--actor", "MJ", "--action-id", "evt-1")
    again = json.loads(out)
    assert again["faces"] == first["faces"] and again["journal"]["replayed"] is True
    code, _out, err = run(capsys, "dice", "2d6", "--campaign", "Mardi", "--action-id", "evt-1",
                          "--db", db)  # fmt: skip
    assert code == 2 and "already rolled" in err
    run(capsys, "dice", "2d6+1", "--campaign", "Mardi", "--hidden", "--db", db)
    run(capsys, "journal", "disclose", "Mardi", "--db", db)
    run(capsys, "campaign", "reveal", "Mardi", "--db", db)
    path = tmp_path / "journal.json"
    run(capsys, "journal", "export", "Mardi", "--output", str(path), "--db", db)
    journal = json.loads(path.read_text())
    assert journal["entries"][0]["context"]["system"] is None
    report = verify(journal, replayer)
    assert report.ok and report.results_checked == 2
    journal["entries"][0]["result"]["total"] += 1
    assert first_problem(rehash(journal)).startswith("entry 1: at result.total, the rules give ")
    code, _out, err = run(capsys, "dice", "2d6", "--odds", "--campaign", "Mardi", "--db", db)
    assert code == 2 and "only for a roll" in err


def first_problem(journal: Json) -> str:
    return verify(journal, replayer).problems[0].message()


def test_pk_2_a_typed_in_0_on_a_d10_is_journaled_as_10(store: Store) -> None:
    """« parfois, un 0 remplace le 10, mais il compte toujours pour 10 »: the entry keeps the
    face the die counts, so the journal verifies with the same rules as any other roll."""
    from jdr.dice import make_source

    store.create_campaign("pokemon", "Mardi")
    rolled = roll_via(store, "Mardi", "check", params={"dice": 2}, rng=make_source("0, 1"))
    assert rolled.record.faces == [10, 1]
    assert rolled.entry.dice == {"source": "given", "rolls": [[10, 10], [10, 1]]}
    assert rolled.entry.result is not None and rolled.entry.result["outcome"] == "failure"


def test_an_actor_naming_a_character_loosely_is_journaled_under_its_name(store: Store) -> None:
    found = store.create_campaign("poledemos", "Mardi")
    store.add_character(found, "Élodie Martin", {"name": "Élodie Martin"})
    params = {"val": "3", "dice": 1}
    rolled = roll_via(store, "Mardi", "test", params=params, actor="elodie martin")
    assert (rolled.entry.context or {})["actor"] == "Élodie Martin"
    other = roll_via(store, "Mardi", "test", params=params, actor=" Bob ")
    assert (other.entry.context or {})["actor"] == "Bob"
