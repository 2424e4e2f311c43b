"""Folds in linear time (issue 17): what an action, a load, `verify` and `journal show` cost as a
campaign grows, against the previous version measured in the same run.

    .venv/bin/python benchmarks/bench_folds.py [--previous SRC] [--sizes 100,10000,100000]
                                               [--entries 10000] [--repeat N]

`--previous SRC` is the `src` folder of the version to compare with (the pre-work one:
`git worktree add /tmp/old 4ed4214`, then `--previous /tmp/old/src`); without it, only this
version is measured. Each measure runs in a fresh process per version (`PYTHONPATH` set to that
version's `src` and `tests`), on a SQLite file in a temporary folder, the example Duel of the
tests (two fighters who never fall):

- **act**: one `service.act` (an attack: read, decide, append, journaled) on a fight of 100,
  10,000 and 100,000 events, median of `--repeat` actions; the target is the 100,000-event action
  within 2x of the one on a new fight. The long fights are written in batches of 1,000 events:
  through the journal here (each batch one entry binding its events, the fight's snapshot kept
  as an action keeps it), with `Store.append` for the previous version (it has no binding);
- **load + fold**: reading a 100,000-event log and folding it from scratch (target 0.5 s), and
  `service.state` (this version: the snapshot, checked against its journal entry);
- **verify with replay**: `verify` of an exported journal of `--entries` fight actions (one per
  entry, derived dice, the seed revealed), every result re-decided by the rules; at 1/10 of the
  entries too, to show the growth. Both versions verify the same file, written as the previous
  version wrote journals (format 1, without the binding fields, which it does not know); this
  version also verifies one written as it writes them (format 2, every `events_hash` and
  `state_hash` checked);
- **journal show**: `jdr journal show` on a journal of `--entries` entries, as a fresh process
  (the previous version prints them all in one table; this one, the last 50 in lines).

Prints one table; exit status 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import reduce
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
VITALITY = 10**9
BATCH = 1000


# --- workers: each runs in a process of its own, on one version's sources ----------------------


def _store(url: str) -> Any:
    from jdr.store import open_store

    return open_store(url)


def _rules() -> Any:
    import example_system

    return example_system.Duel()


def _new_fight(store: Any, label: str) -> int:
    from jdr.dice import GivenFaces
    from jdr.fights import service

    campaign = store.create_campaign("example", label)
    setup = {"fighters": ["Ana", "Bo"], "vitality": VITALITY}
    fight: int = service.start(store, campaign, _rules(), setup, GivenFaces([]))
    return fight


def _attacks(n: int, first: int) -> list[dict[str, Any]]:
    names = ["Ana", "Bo"]
    return [
        {
            "type": "attacked",
            "actor": names[(first + k) % 2],
            "target": names[1 - (first + k) % 2],
            "faces": [1 + (first + k) % 6, 1 + (first + 2 * k) % 6, 5],
            "damage": 1,
        }
        for k in range(n)
    ]


def _grow(store: Any, fight: int, events: int) -> None:
    """The fight up to `events` events, in batches: journaled with their binding where this
    version has one, else appended raw (the previous version checks nothing)."""
    import importlib.util

    version = store.fight(fight).version
    if importlib.util.find_spec("jdr.fights.binding") is None:
        while version < events:
            version = store.append(fight, version, _attacks(min(BATCH, events - version), version))
        return
    from jdr.fights import service
    from jdr.fights.binding import bound
    from jdr.journal.entries import dice, make_entry
    from jdr.store import FightAppend, JournalRow

    rules = _rules()
    record = store.fight(fight)
    campaign = store.campaign_by_id(record.campaign_id)
    state = service.state(store, fight, rules)
    while version < events:
        batch = _attacks(min(BATCH, events - version), version)
        after = reduce(rules.evolve, batch, state)
        head = store.journal_head(campaign.id)
        epoch = head.epoch or store.epoch(campaign.id)
        seq, prev = head.tail[0] + 1, head.tail[1]
        action_id = f"#fight{fight}.{version + 1}"
        context = {"system": "example", "fight": fight, "actor": None, "action": "bulk"}
        context |= {"params": {}, "campaign": campaign.name, "action_id": action_id, "seq": seq}
        entry = make_entry(seq, prev, epoch.commitment, context, dice([], "seeded"),
                           bound(batch, after))  # fmt: skip
        row = JournalRow(seq, action_id, epoch.number, False, True, entry.hash, entry.to_json())
        version = store.record(campaign.id, row, FightAppend(fight, version, batch, after)).version
        state = after


def work_act(url: str, sizes: list[int], repeat: int) -> dict[str, float]:
    from jdr.dice import Seeded
    from jdr.fights import service

    store = _store(url)
    rules, found = _rules(), {}
    for size in sizes:
        fight = _new_fight(store, f"act {size}")
        _grow(store, fight, size)
        times = []
        for k in range(repeat):
            turn = service.state(store, fight, rules)["turn"]
            command = {"actor": turn, "action": "attack", "dice": 3}
            start = time.perf_counter()
            service.act(store, fight, rules, command, Seeded(k))
            times.append(time.perf_counter() - start)
        found[str(size)] = statistics.median(times)
    store.close()
    return found


def work_fold(url: str, events: int, repeat: int) -> dict[str, float]:
    from jdr.fights import fold, service
    from jdr.fights.service import effective_events

    store = _store(url)
    rules = _rules()
    fight = _new_fight(store, "fold")
    _grow(store, fight, events)

    def scratch() -> Any:
        return fold(rules, effective_events(store.events(fight)))

    def state() -> Any:
        return service.state(store, fight, rules)

    found = {"scratch": _median(scratch, repeat), "state": _median(state, repeat)}
    assert scratch() == state()
    store.close()
    return found


def work_build_journal(url: str, entries: int, out: str, binding: bool) -> dict[str, float]:
    """A journal of `entries` fight actions (derived dice, seed revealed), exported to `out`."""
    from jdr.fights import service
    from jdr.journal.service import export

    if not binding:  # format 1, as the previous version wrote entries (binding taken out below)
        import jdr.journal.service as journal_service

        journal_service.entry_format = lambda *_args: 1
    store = _store(url)
    rules = _rules()
    fight = _new_fight(store, "verify")
    turn = "Ana"
    start = time.perf_counter()
    for _ in range(entries - 1):
        acted = service.act(store, fight, rules, {"actor": turn, "action": "attack", "dice": 3})
        turn = acted.events[0]["target"]
    built = time.perf_counter() - start
    campaign = store.campaign_of_fight(fight)
    store.reveal_epoch(campaign.id)
    exported = export(store, campaign)
    if not binding:
        _unbound(exported)
    Path(out).write_text(json.dumps(exported), encoding="utf-8")
    store.close()
    return {"built": built}


def _unbound(exported: dict[str, Any]) -> None:
    """An export as the previous version wrote it: file v 1, no `fights`, entries without the
    binding fields, their hashes and chain computed again (format 1). The dice derive from the
    contexts, which do not change."""
    from jdr.journal.entries import GENESIS, Entry

    exported["v"] = 1
    del exported["fights"]
    previous = GENESIS
    for item in exported["entries"]:
        for key in ("events_hash", "state_hash"):
            item["result"].pop(key, None)
        item["prev_hash"] = previous
        entry = Entry.from_json(item)
        item["body_hash"], item["hash"] = entry.body_hash, entry.hash
        previous = item["hash"]


def work_verify(journal: str, repeat: int) -> dict[str, float]:
    import example_system
    from jdr.journal.replay import SystemReplayer
    from jdr.journal.verify import verify

    data = json.loads(Path(journal).read_text(encoding="utf-8"))
    report = verify(data, lambda _system: SystemReplayer(example_system.SYSTEM))
    assert report.ok, [p.message() for p in report.problems][:3]
    assert report.results_checked == len(data["entries"]) - 1, report.results_checked
    return {
        "verify": _median(
            lambda: verify(data, lambda _s: SystemReplayer(example_system.SYSTEM)), repeat
        )
    }


def work_build_show(url: str, entries: int) -> dict[str, float]:
    """A poledemos campaign `Show` of `entries` generic dice rolls, written in one transaction
    (format 1, which both versions read)."""
    from jdr.journal.entries import GENESIS, dice, make_entry
    from jdr.store.models import journal

    store = _store(url)
    campaign = store.create_campaign("poledemos", "Show")
    epoch = store.epoch(campaign)
    rows, prev = [], GENESIS
    from datetime import UTC, datetime

    for seq in range(1, entries + 1):
        faces = [1 + seq % 6, 1 + (seq * 7) % 6]
        context: dict[str, Any] = {"system": None, "action": "dice"}
        context |= {
            "params": {"expression": "2d6"},
            "campaign": "Show",
            "action_id": f"#{seq}",
            "seq": seq,
            "actor": "Ana",
        }
        entry = make_entry(seq, prev, epoch.commitment, context,
                           dice([[6, f] for f in faces], "seeded"),
                           {"total": sum(faces), "faces": faces}, version=1)  # fmt: skip
        rows.append({"campaign_id": campaign, "seq": seq, "action_id": f"#{seq}",
                     "epoch": epoch.number, "hidden": False, "disclosed": True,
                     "hash": entry.hash, "entry": entry.to_json(),
                     "created": datetime.now(UTC)})  # fmt: skip
        prev = entry.hash
    with store.engine.begin() as conn:
        conn.execute(journal.insert(), rows)
    store.close()
    return {}


def _median(run: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# --- the driver ----------------------------------------------------------------------------------


def _env(src: Path) -> dict[str, str]:
    tests = src.parent / "tests"
    env = {k: v for k, v in os.environ.items() if k not in ("JDR_DATABASE_URL",)}
    env["PYTHONPATH"] = os.pathsep.join([str(src), str(tests), str(HERE)])
    return env


def _worker(src: Path, *args: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--worker", *args],
        env=_env(src),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"worker {args[0]} on {src} failed:\n{done.stderr[-3000:]}")
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def _show_seconds(src: Path, url: str, repeat: int) -> float:
    env = {**_env(src), "JDR_DATABASE_URL": url}
    run = [sys.executable, "-c", "import sys; from jdr.cli.app import main; sys.exit(main())"]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([*run, "journal", "show", "Show"], env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _add(rows: list[tuple[str, str, str]], row: tuple[str, str, str]) -> None:
    """Keep a row for the table, and show it at once (a long run shows its progress)."""
    rows.append(row)
    print(" | ".join(row).rstrip(), file=sys.stderr, flush=True)


def _older_schema(path: Path, target: Path) -> None:
    """A copy of a database of this version as the previous one reads it (revision 0002: no
    sheet revisions, no snapshots; the journal's table is the same)."""
    import sqlite3

    shutil.copy(path, target)
    conn = sqlite3.connect(target)
    for table in ("fight_snapshots", "fight_characters", "sheet_revisions"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
    conn.execute("UPDATE alembic_version SET version_num = '0002'")
    conn.commit()
    conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", help="the src folder of the version to compare with")
    parser.add_argument("--sizes", default="100,10000,100000", help="fight sizes for an action")
    parser.add_argument("--entries", type=int, default=10_000, help="journal entries")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--worker", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        kind, *rest = args.worker
        sizes = [int(s) for s in rest[1].split(",")] if kind == "act" else []
        works = {"act": lambda: work_act(rest[0], sizes, int(rest[2])),
                 "fold": lambda: work_fold(rest[0], int(rest[1]), int(rest[2])),
                 "journal": lambda: work_build_journal(rest[0], int(rest[1]), rest[2],
                                                       rest[3] == "1"),
                 "verify": lambda: work_verify(rest[0], int(rest[1])),
                 "show": lambda: work_build_show(rest[0], int(rest[1]))}  # fmt: skip
        print(json.dumps(works[kind]()))
        return 0

    versions = {"this version": SRC}
    if args.previous:
        versions["previous"] = Path(args.previous).resolve()
    sizes = args.sizes
    biggest = max(int(s) for s in sizes.split(","))
    rows: list[tuple[str, str, str]] = []
    verdicts: list[bool] = []
    with tempfile.TemporaryDirectory(prefix="jdr-folds-") as folder:
        root = Path(folder)
        acts: dict[str, dict[str, float]] = {}
        for name, src in versions.items():
            url = f"sqlite:///{root / (name.replace(' ', '-') + '-act.db')}"
            acts[name] = _worker(src, "act", url, sizes, str(args.repeat))
        for size in sizes.split(","):
            cells = [f"{name} {acts[name][size] * 1000:,.1f} ms" for name in versions]
            _add(rows, (f"one action on a fight of {int(size):,} events", *_pair(cells)))
        this = acts["this version"]
        ratio = this[str(biggest)] / this[min(this, key=int)]
        verdicts.append(ratio <= 2)
        _add(
            rows,
            (f"action at {biggest:,} events / on a new fight", f"{ratio:.2f}x (target <= 2x)", ""),
        )

        folds = {}
        for name, src in versions.items():
            url = f"sqlite:///{root / (name.replace(' ', '-') + '-fold.db')}"
            folds[name] = _worker(src, "fold", url, str(biggest), str(args.repeat))
        cells = [f"{name} {folds[name]['scratch']:.3f} s" for name in versions]
        _add(rows, (f"load + fold {biggest:,} events from scratch (target 0.5 s)", *_pair(cells)))
        verdicts.append(folds["this version"]["scratch"] < 0.5)
        cells = [f"{name} {folds[name]['state']:.4f} s" for name in versions]
        _add(rows, (f"service.state of a {biggest:,}-event fight", *_pair(cells)))

        for entries in (args.entries // 10, args.entries):
            plain_file = root / f"journal-{entries}.json"
            bound_file = root / f"journal-{entries}-bound.json"
            built = _worker(SRC, "journal", f"sqlite:///{root / f'j{entries}.db'}", str(entries),
                            str(plain_file), "0")  # fmt: skip
            _worker(SRC, "journal", f"sqlite:///{root / f'jb{entries}.db'}", str(entries),
                    str(bound_file), "1")  # fmt: skip
            cells = [
                f"{name} {_worker(src, 'verify', str(plain_file), '1')['verify']:.2f} s"
                for name, src in versions.items()
            ]
            _add(rows, (f"verify with replay, {entries:,} entries", *_pair(cells)))
            bound = _worker(SRC, "verify", str(bound_file), "1")["verify"]
            _add(
                rows, ("  the same, format 2 with events_hash and state_hash", f"{bound:.2f} s", "")
            )
            _add(
                rows,
                (
                    f"  writing those {entries:,} actions (service.act each)",
                    f"{built['built']:.1f} s",
                    "",
                ),
            )

        show_db = root / "show.db"
        _worker(SRC, "show", f"sqlite:///{show_db}", str(args.entries))
        cells = [f"this version {_show_seconds(SRC, f'sqlite:///{show_db}', 3):.2f} s"]
        if "previous" in versions:
            old_db = root / "show-0003.db"
            _older_schema(show_db, old_db)
            cells.append(
                f"previous {_show_seconds(versions['previous'], f'sqlite:///{old_db}', 3):.2f} s"
            )
        _add(rows, (f"jdr journal show, {args.entries:,} entries (a process)", *_pair(cells)))

    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    print("\n".join(" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                    for r in rows))  # fmt: skip
    return 0 if all(verdicts) else 1


def _pair(cells: list[str]) -> tuple[str, str]:
    return cells[0], cells[1] if len(cells) > 1 else ""


if __name__ == "__main__":
    sys.exit(main())
