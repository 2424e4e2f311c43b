"""A long campaign's exported journal, made cheaply (issue 28): `write_journal(path, n)` writes
`n` generic dice rolls (`4d6kh3+2`, the entries `jdr dice … --campaign` writes, about 670 bytes
each: 100,000 make about 67 MB) in one revealed epoch, so `jdr verify` re-derives every die and
re-computes every total. Shared by tests/test_verify_streaming.py and
benchmarks/bench_verify.py."""

from __future__ import annotations

from pathlib import Path

from jdr.dice import notation
from jdr.dice.source import GivenFaces
from jdr.dice.verifiable import Derived, commitment
from jdr.journal.entries import GENESIS, dice, make_entry
from jdr.journal.replay import dice_result

SEED = bytes(range(32))
EXPRESSION = "4d6kh3+2"


def write_journal(path: Path, entries: int) -> Path:
    """Write the export of a journal of `entries` rolls to `path`, one entry a line, without
    holding the entries in memory."""
    pledged = commitment(SEED)
    parsed = notation.parse(EXPRESSION)
    header = {
        "format": "jdr-journal",
        "v": 2,
        "campaign": "Long",
        "system": "passion",
        "exported": "2026-12-03T10:00:00+00:00",
        "epochs": [
            {
                "number": 1,
                "commitment": pledged,
                "seed": SEED.hex(),
                "revealed": "2026-12-03T10:00:00+00:00",
            }
        ],
    }
    previous = GENESIS
    with path.open("w", encoding="utf-8") as out:
        out.write("{\n")
        for key, value in header.items():
            out.write(f"{_dumps(key)}: {_dumps(value)},\n")
        out.write('"entries": [\n')
        for seq in range(1, entries + 1):
            context = {
                "system": None,
                "action": "dice",
                "params": {"expression": EXPRESSION},
                "actor": f"player {seq % 7}",
                "campaign": "Long",
                "action_id": f"p-{seq}",
                "seq": seq,
                "v": 2,
            }
            faces = Derived(SEED, context).faces(6, 4)
            record = notation.roll(parsed, GivenFaces(faces))
            entry = make_entry(
                seq,
                previous,
                pledged,
                context,
                dice([[6, face] for face in faces]),
                dice_result(record),
                time="2026-12-03T10:00:00Z",
            )
            previous = entry.hash
            text = _dumps(entry.to_json())
            out.write(text + (",\n" if seq < entries else "\n"))
        out.write("],\n")
        out.write(f'"head": {_dumps({"seq": entries, "hash": previous})}\n')
        out.write("}\n")
    return path


def _dumps(value: object) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)
