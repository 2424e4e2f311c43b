"""Issue 18: the format-2 test vectors of docs/verifiable-rolls.md, computed twice — by jdr and by
the verifier written from the document alone (tests/reference_verifier.py) — and found in the
document, so the page cannot drift from the code."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path
from typing import Any

import pytest

import reference_verifier as ref
from jdr.dice.verifiable import canonical, commitment, derive_faces
from jdr.journal.entries import GENESIS, Entry

DOC = (Path(__file__).parents[1] / "docs" / "verifiable-rolls.md").read_text(encoding="utf-8")
SEED, SEED2 = bytes(range(32)), bytes(range(32, 64))
CONTEXT_C: dict[str, Any] = {
    "campaign": "demo",
    "action_id": "post-7",
    "actor": "Éloïse",
    "action": "capture",
    "system": "pokemon",
    "params": {
        "ball": "super",
        "difficulty": 8,
        "vitality_pct": 40.5,
        "condition": ["Sommeil"],
        "lowered_stats": 0,
        "other": 0,
    },
    "seq": 1,
    "client_seed": "tab\t😀 \u0001",
    "v": 2,
}


def entries() -> list[Entry]:
    """The document's four format-2 entries, two epochs."""
    rolls = [[10, face] for face in derive_faces(SEED, CONTEXT_C, [10] * 5)]
    result = {"outcome": "captured", "totals": {"difficulty": 2}, "details": {}}
    first = Entry(
        1, GENESIS, commitment(SEED), CONTEXT_C, {"source": "derived", "rolls": rolls},
        {**result, "faces": [face for _size, face in rolls]}, v=2, time="2026-12-01T20:00:00Z",
    )  # fmt: skip
    check = {"campaign": "demo", "action_id": "#2", "actor": "MJ", "action": "check", "seq": 2,
             "system": "pokemon", "params": {"dice": 1, "difficulty": 6}, "v": 2}  # fmt: skip
    face = derive_faces(SEED, check, [10])[0]
    second = Entry(
        2, first.hash, commitment(SEED), check, {"source": "derived", "rolls": [[10, face]]},
        {"outcome": "success"}, hidden=True, salt="00" * 16, v=2, time="2026-12-01T20:01:00Z",
    )  # fmt: skip
    dice = {"campaign": "demo", "action_id": "#3", "actor": None, "action": "dice",
            "system": None, "params": {"expression": "2d6"}, "seq": 3, "v": 2}  # fmt: skip
    faces = derive_faces(SEED2, dice, [6, 6])
    rolled = {"source": "derived", "rolls": [[6, face] for face in faces]}
    third = Entry(
        3, second.hash, commitment(SEED2), dice, rolled,
        {"total": sum(faces), "faces": faces}, v=2, time="2026-12-02T19:30:00Z",
    )  # fmt: skip
    undo: dict[str, Any] = {"campaign": "demo", "action_id": "#fight1.9", "actor": None,
                            "action": "undo", "fight": 1, "system": "plus-ultra", "params": {},
                            "seq": 4, "v": 2}  # fmt: skip
    fourth = Entry(
        4, third.hash, commitment(SEED2), undo, {"source": "derived", "rolls": []},
        {"events": [{"type": "undone", "seq": 5}]}, v=2, time="2026-12-02T19:31:00Z",
    )  # fmt: skip
    return [first, second, third, fourth]


def test_context_c_bytes_block_and_faces_are_the_documents() -> None:
    message = canonical(CONTEXT_C)
    assert message == ref.canon(CONTEXT_C, 2)
    assert f"`M` = `{message.decode()}`".replace("\t", "\\t") in DOC.replace("\\\\", "\\")
    assert message.hex() in DOC
    block = hmac.new(SEED, message + bytes(8), hashlib.sha256).hexdigest()
    assert f"`block(0)` = `{block}`" in DOC
    ten = derive_faces(SEED, CONTEXT_C, [10] * 10)
    assert ten == ref.faces(SEED, CONTEXT_C, [10] * 10)
    assert "ten d10: `" + ", ".join(map(str, ten)) + "`" in DOC
    mixed = derive_faces(SEED, CONTEXT_C, [6, 10, 20, 100, 7])
    assert "one stream: `" + ", ".join(map(str, mixed)) + "`" in DOC
    assert commitment(SEED2) in DOC


@pytest.mark.parametrize("index", range(4))
def test_the_four_entries_hash_as_the_document_says(index: int) -> None:
    entry = entries()[index]
    header = entry.header
    assert f"`body_hash` = `{entry.body_hash}`" in DOC
    assert f"`hash` = `{entry.hash}`" in DOC
    # the document-only verifier agrees, from the JSON a file holds
    assert ref.sha(ref.canon(entry.body, 2)) == entry.body_hash
    assert ref.sha(ref.canon(header, 2)) == entry.hash


def test_a_journal_of_the_four_entries_verifies_everywhere() -> None:
    journal = {
        "format": "jdr-journal",
        "v": 2,
        "epochs": [
            {"number": 1, "commitment": commitment(SEED), "seed": SEED.hex(), "revealed": "x"},
            {"number": 2, "commitment": commitment(SEED2), "seed": SEED2.hex(), "revealed": "y"},
        ],
        "entries": [entry.to_json() for entry in entries()],
    }
    from jdr.journal.verify import verify

    report = verify(journal)
    assert report.ok and report.dice_checked == 8, [p.message() for p in report.problems]
    assert ref.verify(journal) == []


def test_the_fight_binding_vector_is_the_documents() -> None:
    """Issue 18 item 4: `events_hash` and `state_hash` as the document computes them."""
    from jdr.fights.binding import events_hash, json_hash

    events = [{"type": "attacked", "actor": "Kaito", "target": "Corbeau", "damage": 4.0,
               "note": "Éclair ⚡"}]  # fmt: skip
    shown = '[{"actor":"Kaito","damage":4,"note":"Éclair ⚡","target":"Corbeau","type":"attacked"}]'
    assert ref.canon([{**events[0], "damage": 4}], 2).decode() == shown and shown in DOC
    assert f"`events_hash` = `{events_hash(events)}`" in DOC
    assert ref.sha(shown.encode()) == events_hash(events)
    state = {"fighters": {"Kaito": {"energy": 12}, "Corbeau": {"energy": 8}}, "round": 1,
             "turn": "Corbeau"}  # fmt: skip
    assert f"`state_hash` = `{json_hash(state)}`" in DOC
    assert ref.sha(ref.canon(state, 2)) == json_hash(state)
