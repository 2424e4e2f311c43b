"""How fast the web table answers, over real HTTP on 127.0.0.1 (uvicorn, one worker).

    .venv/bin/python benchmarks/bench_web.py [--entries N] [--repeat N]

Starts the application (`jdr.web.app.create_app`) under uvicorn in a thread, on a SQLite file in a
temporary folder, signs a player in through a real invite, writes `--entries` journal entries
through the API (one Plus Ultra attack each), then times, median of `--repeat` requests over one
keep-alive connection:

- the odds partial the roll form asks for as the player types (HTMX `GET /c/ID/odds`);
- a roll through the API (`POST /api/c/ID/roll`: validation, the journal's transaction);
- the roll page, the campaign page and the journal page (with `--entries` entries);
- the journal export that "verify in my browser" downloads.

Each figure is a whole request: parsing, the session lookup (one indexed query), the guard
(CSRF, headers), the service and the template.
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from timing import median_time


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=51)
    args = parser.parse_args()

    import uvicorn

    from jdr import access
    from jdr.web.app import create_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'bench.db'}", invite_attempts=10**6)
        store = app.state.store
        campaign = store.create_campaign("plus-ultra", "Bench")
        store.add_character(campaign, "Kaito", {})
        port = _free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        for _attempt in range(200):
            if server.started:
                break
            time.sleep(0.05)
        link = access.invite(store, campaign, "player", "Kaito").token
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("POST", f"/invite/{link}", headers={"Content-Length": "0"})
        answer = conn.getresponse()
        answer.read()
        cookie = answer.getheader("set-cookie", "").split(";")[0]
        token = cookie.split("=", 1)[1]
        headers = {"Cookie": cookie, "X-CSRF-Token": access.csrf_token(token)}
        body = json.dumps({"action": "attack", "params": {"willpower": 10, "target_energy": 20}})

        def ask(method: str, path: str, data: str | None = None) -> Any:
            sent = {**headers, "Content-Type": "application/json"} if data else headers
            conn.request(method, path, body=data, headers=sent)
            got = conn.getresponse()
            content = got.read()
            assert got.status == 200, (path, got.status, content[:200])
            return content

        roll_path = f"/api/c/{campaign}/roll"
        for _ in range(args.entries):
            ask("POST", roll_path, body)
        odds = f"/c/{campaign}/odds?action=attack&willpower=10&target_energy=20"
        rows = [
            ("odds partial (HTMX, as the player types)", lambda: ask("GET", odds)),
            ("roll through the API (journaled)", lambda: ask("POST", roll_path, body)),
            ("roll page", lambda: ask("GET", f"/c/{campaign}/roll?action=attack")),
            ("campaign page", lambda: ask("GET", f"/c/{campaign}")),
            (
                f"journal page ({args.entries}+ entries)",
                lambda: ask("GET", f"/c/{campaign}/journal"),
            ),
            ("journal export", lambda: ask("GET", f"/c/{campaign}/journal/export")),
        ]
        print(f"web table on 127.0.0.1, uvicorn, SQLite; median of {args.repeat} requests")
        for name, run in rows:
            print(f"  {name:45} {median_time(run, args.repeat) * 1000:8.1f} ms")
        conn.close()
        server.should_exit = True
        thread.join(timeout=10)
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
