"""How light and quick the web table's pages are, over real HTTP on 127.0.0.1 (uvicorn, one
worker, SQLite), for a big table: a Pokémon campaign of 50 characters and a fight of 1,000
actions.

    .venv/bin/python benchmarks/bench_web.py [--characters 50] [--actions 1000] [--repeat 25]

Starts the application (`jdr.web.app.create_app`) under uvicorn in a thread, on a SQLite file
in a temporary folder. Untimed setup: the characters (each journaled), a duel between two of
them played `--actions` commands through the fight service (every command one journal entry),
and a GM's session (the GM reads the most). Then, over one keep-alive connection, each page of
the table is asked `--repeat` times after a first request (`cold`: what a page keeps — a long
fight's told log, a fight action's permalink, the luck audit — is computed then, once per
change of the campaign or the fight; the timed requests read it kept): its size (the body as sent,
and with the stylesheets and scripts it links, htmx.min.js aside: what a first visit
transfers) and its p50 / p99 latency (each a whole request: parsing, the guard, the session
lookup, the service and the template). Then each page is asked once right after one new roll
(`after roll`: a dice roll through the JSON API, a new journal entry) and once right after one
new fight action (`after action`: the long fight one action longer), each change made just
before that page's request: the first request after a change, when what a page keeps is out of
date (issue 32: it extends what it kept by the change, instead of reading everything again).

Targets (issue 32): every page under 100 KB transferred (htmx aside), no request over 100 ms
(on a quiet machine). Downloads and the JSON API (the journal's export, `/api/…`) are listed
for their time but are not pages: their size is what the journal holds. Exit status 1 if a
page misses a target.
"""

from __future__ import annotations

import argparse
import http.client
import random
import re
import secrets
import socket
import sys
import tempfile
import threading
import time
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

PAGE_BYTES_TARGET = 100_000
LATENCY_TARGET_S = 0.100
HUGE = 10**6
ASSET = re.compile(rb'(?:href|src)="(/static/[^"]+\.(?:css|js))"')


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def build(store: Any, characters: int, actions: int) -> tuple[int, int, int]:
    """The campaign, its characters and the long fight: (campaign id, fight id, a character id)."""
    from jdr.characters import service
    from jdr.fights.playing import act_in, begin
    from jdr.sheet_check import systems_example

    campaign_id = store.create_campaign("pokemon", "Bench")
    campaign = store.campaign_by_id(campaign_id)
    example = tomllib.loads(systems_example("pokemon", "pokemon"))
    for n in range(1, characters + 1):
        sheet = dict(example, name=f"Mon {n}")
        sheet["vitality"] = {"current": HUGE, "max": HUGE}
        sheet["energy"] = {"current": HUGE, "max": HUGE}
        service.add(store, campaign, sheet)
    begun = begin(store, campaign, ["Mon 1", "Mon 2"], sides={"Mon 1": "a", "Mon 2": "b"})
    choose = random.Random(32)
    moves = [m["name"] for m in example["moves"]]
    state = begun.state
    for _ in range(actions):
        if state.get("reaction"):
            actor = state["reaction"]["pokemon"]
            pairs = [f"response={choose.choice(['none', 'endure', 'dodge'])}"]
            command = "respond"
        else:
            actor = state["to_play"][0]
            command, pairs = "move", [f"move={choose.choice(moves)}"]
            if choose.random() < 0.2:
                command, pairs = "wait", []
        state = act_in(store, begun.fight_id, actor, command, pairs).state
    character = store.character_named(campaign_id, "Mon 1").id
    return campaign_id, begun.fight_id, character


def percentile(found: list[float], q: float) -> float:
    ordered = sorted(found)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=50)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=25)
    args = parser.parse_args()

    import uvicorn

    from jdr import access
    from jdr.web.app import create_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'bench.db'}", invite_attempts=10**6)
        store = app.state.store
        start = time.perf_counter()
        campaign, fight, character = build(store, args.characters, args.actions)
        built = time.perf_counter() - start
        token = secrets.token_urlsafe(32)
        expires = datetime.now(UTC) + timedelta(days=1)
        store.add_session(campaign, access.token_hash(token), "gm", None, expires)
        port = _free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        for _attempt in range(200):
            if server.started:
                break
            time.sleep(0.05)
        conn = http.client.HTTPConnection("127.0.0.1", port)
        headers = {"Cookie": f"jdr_session={token}", "X-CSRF-Token": access.csrf_token(token)}

        def ask(path: str) -> bytes:
            conn.request("GET", path, headers=headers)
            got = conn.getresponse()
            content = got.read()
            assert got.status == 200, (path, got.status, content[:300])
            return content

        assets: dict[str, int] = {}

        def linked(content: bytes) -> int:
            total = 0
            for found in ASSET.findall(content):
                path = found.decode()
                if path.endswith("htmx.min.js"):
                    continue
                if path not in assets:
                    assets[path] = len(ask(path))
                total += assets[path]
            return total

        c = f"/c/{campaign}"
        seq = store.journal(campaign)[-1].seq
        pages = [
            ("home", "/"),
            ("campaign", c),
            ("roll form", f"{c}/roll"),
            ("roll form (an action)", f"{c}/roll?action=attack"),
            ("odds partial (HTMX)", f"{c}/odds?action=check&dice=3&difficulty=4"),
            ("journal", f"{c}/journal"),
            ("journal entry", f"{c}/journal/{seq}"),
            (f"fight ({args.actions} actions)", f"{c}/fights/{fight}"),
            ("fight live part (HTMX)", f"{c}/fights/{fight}/parts/live"),
            ("fight forms part (HTMX)", f"{c}/fights/{fight}/parts/forms"),
            ("sheet", f"{c}/sheets/{character}"),
            ("sheet history part (HTMX)", f"{c}/sheets/{character}/parts/history"),
            ("campaign part (HTMX)", f"{c}/parts/campaign"),
            ("journal part (HTMX)", f"{c}/parts/journal"),
            ("luck", f"{c}/luck"),
            ("simulate (form)", f"{c}/simulate"),
            ("settings", f"{c}/settings"),
        ]
        other = [
            ("journal export (download)", f"{c}/journal/export"),
            ("API: campaign", f"/api{c}"),
            ("API: journal", f"/api{c}/journal"),
            ("API: fight", f"/api{c}/fights/{fight}"),
        ]

        def one_roll() -> None:
            roll = b'{"action": "check", "params": {"dice": 3, "difficulty": 4}}'
            sent = {**headers, "Content-Type": "application/json"}
            conn.request("POST", f"/api{c}/roll", body=roll, headers=sent)
            got = conn.getresponse()
            content = got.read()
            assert got.status in (200, 201), (got.status, content[:300])

        def one_action() -> None:
            from jdr.fights.playing import act_in
            from jdr.fights.service import state
            from jdr.systems import default_registry

            rules = default_registry().get("pokemon").fight
            assert rules is not None
            now = state(store, fight, rules)
            if now.get("reaction"):
                act_in(store, fight, now["reaction"]["pokemon"], "respond", ["response=none"])
            else:
                act_in(store, fight, now["to_play"][0], "wait", [])

        def after(change: Any, path: str) -> float:
            change()
            began = time.perf_counter()
            ask(path)
            return time.perf_counter() - began

        rows, missed = [], []
        for kind, listed in (("page", pages), ("other", other)):
            for name, path in listed:
                try:
                    began = time.perf_counter()
                    body = ask(path)  # the first request: what is kept is computed now
                    cold = time.perf_counter() - began
                except AssertionError as failed:
                    print(f"  {name}: {failed}", file=sys.stderr)
                    missed.append(name)
                    continue
                times = []
                for _ in range(args.repeat):
                    began = time.perf_counter()
                    ask(path)
                    times.append(time.perf_counter() - began)
                changed = (after(one_roll, path), after(one_action, path))
                first = len(body) + linked(body)
                p50, p99 = percentile(times, 50), percentile(times, 99)
                slowest = max(*times, *changed)
                ok = kind != "page" or (first < PAGE_BYTES_TARGET and slowest < LATENCY_TARGET_S)
                if not ok:
                    missed.append(name)
                rows.append(
                    (name, len(body), first, cold, *changed, p50, p99, max(times), kind, ok)
                )
        print(
            f"web table on 127.0.0.1, uvicorn, SQLite: {args.characters} characters, a fight of "
            f"{args.actions} actions (built in {built:.0f} s); {args.repeat} requests per page"
        )
        print(f"  {'page':32} {'body KB':>8} {'1st visit KB':>12} {'cold ms':>8} "
              f"{'after roll':>10} {'after action':>12} {'p50 ms':>8} {'p99 ms':>8} "
              f"{'max ms':>8}")  # fmt: skip
        for name, size, first, cold, rolled, acted, p50, p99, most, kind, ok in rows:
            mark = "" if kind != "page" else ("  ok" if ok else "  MISSED")
            print(
                f"  {name:32} {size / 1000:8.1f} {first / 1000:12.1f} {cold * 1000:8.1f} "
                f"{rolled * 1000:10.1f} {acted * 1000:12.1f} "
                f"{p50 * 1000:8.1f} {p99 * 1000:8.1f} {most * 1000:8.1f}{mark}"
            )
        print(f"  static assets linked (htmx.min.js aside): {sum(assets.values()) / 1000:.1f} KB")
        conn.close()
        server.should_exit = True
        thread.join(timeout=10)
        store.close()
    if missed:
        print(f"missed: {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
