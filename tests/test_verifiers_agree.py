"""Issue 18: three verifiers, one verdict.

`jdr verify` (Python, the library), the browser verifier (`src/jdr/web/static/verify.js`, run
here under Node.js) and a verifier written from docs/verifiable-rolls.md alone
(tests/reference_verifier.py, importing nothing from jdr) must name the same problems, in the same
order, on journals of both formats and on every kind of tampering.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import reference_verifier
from jdr.dice.source import GivenFaces
from jdr.journal import service
from jdr.journal.entries import GENESIS, Entry, frozen_time
from jdr.journal.verify import verify
from jdr.params import validate_params
from jdr.store import Store
from jdr.systems import default_registry

ROOT = Path(__file__).parents[1]
VERIFY_JS = ROOT / "src" / "jdr" / "web" / "static" / "verify.js"
RUNNER = ROOT / "tests" / "js" / "verify_cli.mjs"
FORMAT_1 = ROOT / "tests" / "fixtures" / "journal-format-1.json"
NODE = shutil.which("node")

Json = dict[str, Any]

needs_node = pytest.mark.skipif(
    NODE is None, reason="Node.js is not installed (.ci/run installs it)"
)


def roll(store: Store, name: str, action: str, params: Json, **options: Any) -> None:
    campaign = store.campaign(name)
    system = default_registry().get(campaign.system)
    chosen = system.actions[action]
    service.roll(store, campaign, system, chosen, validate_params(chosen.params, params), **options)


def format_2_journal(store: Store) -> Json:
    """Two epochs of a Pokémon campaign: a float-bearing capture, a client seed with control and
    non-BMP characters, a hidden roll disclosed, typed faces, generic dice."""
    store.create_campaign("pokemon", "Deux")
    with frozen_time("2026-12-01T20:00:00Z"):
        capture = {
            "ball": "super",
            "difficulty": "8",
            "vitality_pct": "40,5",
            "condition": "Sommeil",
        }
        roll(store, "Deux", "capture", capture, actor="Sacha", client_seed="tab\t😀 \x01 \u2028")
        roll(store, "Deux", "check", {"dice": "3"}, actor="MJ", hidden=True)
        roll(store, "Deux", "check", {"dice": "2"}, actor="Ondine", rng=GivenFaces([0, 4]))
        service.roll_dice(store, store.campaign("Deux"), _parse("4d10>=6f1"), service.Who("MJ"))
        campaign = store.campaign("Deux")
        store.disclose(campaign.id)
        store.reveal_epoch(campaign.id)
        roll(store, "Deux", "check", {"dice": "4"}, actor="Sacha")
    exported: Json = json.loads(json.dumps(service.export(store, store.campaign("Deux"))))
    return exported


def _parse(text: str) -> Any:
    from jdr.dice import notation

    return notation.parse(text)


def rehash(journal: Json, start: int = 0) -> Json:
    """A forger who knows the format: every hash and link recomputed from entry `start`."""
    entries = journal["entries"]
    previous = entries[start - 1]["hash"] if start else GENESIS
    for item in entries[start:]:
        item["prev_hash"] = previous
        item["body_hash"] = Entry.from_json(item).body_hash
        item["hash"] = Entry.from_json(item).hash
        previous = item["hash"]
    return journal


def _face(journal: Json) -> Json:
    item = next(e for e in journal["entries"] if e.get("dice", {}).get("source") == "derived")
    size, face = item["dice"]["rolls"][0]
    item["dice"]["rolls"][0][1] = face % size + 1
    return journal


def _delete(journal: Json) -> Json:
    del journal["entries"][1]
    return journal


def _swap(journal: Json) -> Json:
    entries = journal["entries"]
    entries[1], entries[2] = entries[2], entries[1]
    return journal


def _time(journal: Json) -> Json:
    item = next(e for e in journal["entries"] if "time" in e)
    item["time"] = "2020-01-01T00:00:00Z"
    return journal


def _seed(journal: Json) -> Json:
    journal["epochs"][0]["seed"] = bytes(32).hex()
    return journal


def _param(journal: Json) -> Json:
    item = next(e for e in journal["entries"] if e.get("dice", {}).get("source") == "derived")
    item["context"]["actor"] = "Quelqu'un d'autre"
    return rehash(journal)


def _context_seq(journal: Json) -> Json:
    journal["entries"][0]["context"]["seq"] = 9
    return journal


def _commitment(journal: Json) -> Json:
    journal["entries"][0]["commitment"] = "f" * 64
    return journal


def _body_hash(journal: Json) -> Json:
    journal["entries"][0]["body_hash"] = "e" * 64
    return journal


def _unbound_field(journal: Json) -> Json:
    """Issue 28: a field no hash binds, added to an entry."""
    journal["entries"][0]["comment"] = "re-rolled, the first was a misclick"
    return journal


def _resealed(journal: Json) -> Json:
    """Issue 28: a hidden roll disclosed before its epoch was revealed, put back as sealed."""
    item = next(e for e in journal["entries"] if e["hidden"])
    for key in ("context", "dice", "result", "salt"):
        del item[key]
    return journal


def _not_a_journal(journal: Json) -> Json:
    journal["format"] = "autre"
    return journal


TAMPERINGS: dict[str, Callable[[Json], Json]] = {
    "none": lambda journal: journal,
    "face": _face,
    "face, chain re-hashed": lambda journal: rehash(_face(journal)),
    "deleted entry": _delete,
    "deleted entry, re-linked": lambda journal: rehash(_delete(journal)),
    "swap": _swap,
    "time": _time,
    "seed": _seed,
    "parameter, re-hashed": _param,
    "context seq": _context_seq,
    "commitment": _commitment,
    "body hash": _body_hash,
    "not a journal": _not_a_journal,
    "unbound field": _unbound_field,
    "disclosed roll sealed again": _resealed,
}


def kinds_of_jdr(journal: Json) -> list[tuple[str, int | None]]:
    return [(p.kind, p.seq) for p in verify(journal).problems]


def kinds_of_js(journal: Json, tmp_path: Path) -> list[tuple[str, int | None]]:
    path = tmp_path / "journal.json"
    path.write_text(json.dumps(journal, ensure_ascii=False, indent=1), encoding="utf-8")
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(RUNNER), str(VERIFY_JS), str(path)], capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout)
    return [(p["kind"], p["seq"]) for p in report["problems"]]


@pytest.fixture(params=["format 1", "format 2"])
def journal(request: pytest.FixtureRequest, store: Store) -> Json:
    if request.param == "format 1":
        loaded: Json = json.loads(FORMAT_1.read_text(encoding="utf-8"))
        return loaded
    return format_2_journal(store)


@needs_node
@pytest.mark.parametrize("tampering", list(TAMPERINGS))
def test_the_three_verifiers_agree(journal: Json, tampering: str, tmp_path: Path) -> None:
    """Issue 18: `jdr verify`, the Node.js verifier and the document-only verifier agree."""
    if tampering == "time" and "time" not in journal["entries"][0]:
        pytest.skip("format-1 entries carry no time: that is what format 2 adds")
    tampered = TAMPERINGS[tampering](copy.deepcopy(journal))
    expected = kinds_of_jdr(tampered)
    assert (tampering == "none") == (expected == []), expected
    assert kinds_of_js(tampered, tmp_path) == expected
    assert reference_verifier.verify(copy.deepcopy(tampered)) == expected


def test_the_format_1_fixture_verifies_with_every_result_recomputed() -> None:
    """Journals written before format 2 still verify (tests/fixtures: written by jdr 4ed4214)."""
    from jdr.journal.replay import replayer_for

    journal = json.loads(FORMAT_1.read_text(encoding="utf-8"))
    report = verify(journal, replayer_for)
    assert report.ok, [p.message() for p in report.problems]
    assert (report.entries, report.dice_checked, report.results_checked) == (11, 7, 9)
    assert all("v" not in item and "time" not in item for item in journal["entries"])


def test_a_format_2_journal_hashes_rfc_8785_bytes_with_its_time(store: Store) -> None:
    import rfc8785

    journal = format_2_journal(store)
    first = journal["entries"][0]
    assert first["v"] == 2 and first["time"] == "2026-12-01T20:00:00Z"
    assert first["context"]["params"]["vitality_pct"] == 40.5 and first["context"]["v"] == 2
    header = {k: first[k] for k in ("seq", "prev_hash", "commitment", "hidden", "body_hash")}
    header.update(time=first["time"], v=2)
    import hashlib

    assert hashlib.sha256(rfc8785.dumps(header)).hexdigest() == first["hash"]
    changed = _time(copy.deepcopy(journal))
    assert [p.kind for p in verify(changed).problems][:1] == ["hash"]


# --- issue 18 item 4: the fights' stored events against the entries that recorded them --------


def fight_journal(store: Store) -> Json:
    """A Plus Ultra fight of four actions (one undone and redone, one undone), its seed revealed,
    exported with its stored events."""
    from test_journal import plus_ultra_fight, revealed_export

    with frozen_time("2026-12-01T21:00:00Z"):
        plus_ultra_fight(store)
        exported: Json = json.loads(json.dumps(revealed_export(store, "Jeudi")))
    return exported


def _second_action(journal: Json) -> list[Json]:
    events = journal["fights"][0]["events"]
    second = sorted({e["action"] for e in events})[1]
    return [e for e in events if e["action"] == second]


def _event_edited(journal: Json) -> Json:
    event = _second_action(journal)[-1]["event"]
    key = next(k for k, v in event.items() if isinstance(v, int) and not isinstance(v, bool))
    event[key] += 1
    return journal


def _event_added(journal: Json) -> Json:
    last = _second_action(journal)[-1]
    journal["fights"][0]["events"].insert(
        journal["fights"][0]["events"].index(last) + 1, copy.deepcopy(last)
    )
    return journal


def _action_added(journal: Json) -> Json:
    events = journal["fights"][0]["events"]
    seq = events[-1]["seq"] + 1
    events.append({"seq": seq, "action": seq, "event": {"type": "energy_lost", "amount": 3}})
    return journal


def _event_removed(journal: Json) -> Json:
    journal["fights"][0]["events"].remove(_second_action(journal)[-1])
    return journal


def _action_removed(journal: Json) -> Json:
    gone = _second_action(journal)
    journal["fights"][0]["events"] = [e for e in journal["fights"][0]["events"] if e not in gone]
    return journal


def _events_hash_rehashed(journal: Json) -> Json:
    item = next(e for e in journal["entries"] if "events_hash" in e.get("result", {}))
    item["result"]["events_hash"] = "0" * 64
    return rehash(journal)


def _renumbered(journal: Json) -> Json:
    _second_action(journal)[-1]["seq"] += 7
    return journal


FIGHT_TAMPERINGS: dict[str, Callable[[Json], Json]] = {
    "none": lambda journal: journal,
    "event edited": _event_edited,
    "event added to an action": _event_added,
    "action added": _action_added,
    "event removed": _event_removed,
    "action removed": _action_removed,
    "events_hash edited, chain re-hashed": _events_hash_rehashed,
    "event renumbered": _renumbered,
    "fights malformed": lambda journal: journal | {"fights": {"1": []}},
    "fight left out": lambda journal: journal | {"fights": []},
}


@needs_node
@pytest.mark.parametrize("tampering", list(FIGHT_TAMPERINGS))
def test_the_three_verifiers_agree_on_a_fights_events(
    store: Store, tampering: str, tmp_path: Path
) -> None:
    """Issue 18 item 4: an edited, added or removed fight event fails, naming the fight and the
    event, with the same verdict in the three verifiers."""
    tampered = FIGHT_TAMPERINGS[tampering](fight_journal(store))
    expected = kinds_of_jdr(tampered)
    assert (tampering == "none") == (expected == []), expected
    assert kinds_of_js(tampered, tmp_path) == expected
    assert reference_verifier.verify(copy.deepcopy(tampered)) == expected
    if tampering != "none":
        first = verify(tampered).problems[0]
        assert first.kind.startswith(("fight", "events_hash")), first.message()


def test_a_fight_event_edit_is_named_by_fight_and_event(store: Store) -> None:
    journal = fight_journal(store)
    edited = _event_edited(copy.deepcopy(journal))
    event = _second_action(edited)[-1]["seq"]
    [problem] = verify(edited).problems
    assert problem.kind == "fight_changed" and problem.data == {"fight": 1, "event": event}
    assert problem.message().startswith(f"fight 1: event {event} is not the one entry ")
    [added] = verify(_action_added(copy.deepcopy(journal))).problems
    assert added.kind == "fight_added" and added.seq is None


def test_a_fight_left_out_of_the_export_is_named(store: Store, tmp_path: Path) -> None:
    """An export whose `fights` leaves out a fight its entries record fails as removed events."""
    left_out = fight_journal(store) | {"fights": []}
    expected = kinds_of_jdr(left_out)
    assert expected and expected[0][0] == "fight_removed", expected
    assert reference_verifier.verify(copy.deepcopy(left_out)) == expected
    if NODE is not None:
        assert kinds_of_js(left_out, tmp_path) == expected
