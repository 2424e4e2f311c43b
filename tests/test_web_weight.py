"""Issue 32, part 6 as the design system keeps it: every page of the web table weighs under
100 KB besides htmx — its HTML as the GM reads it (the most a page shows) plus every stylesheet
and script it loads, the modules those import included — in each system that has fights."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jdr.systems import default_registry
from web_helpers import join
from web_tables import SEEDS, seeded_table

STATIC = Path(__file__).parents[1] / "src" / "jdr" / "web" / "static"
MOST = 100_000
"""Bytes a page may weigh, htmx aside."""
LOADED = re.compile(r'(?:src|href)="/static/([\w.-]+\.(?:js|css))"')
IMPORTED = re.compile(r'from "\./([\w.-]+\.js)"')


def _assets(html: str) -> set[str]:
    """The static files a page loads, and the modules those import (htmx left out)."""
    found = set(LOADED.findall(html)) - {"htmx.min.js"}
    todo = list(found)
    while todo:
        name = todo.pop()
        for imported in IMPORTED.findall((STATIC / name).read_text(encoding="utf-8")):
            if imported not in found:
                found.add(imported)
                todo.append(imported)
    return found


def weight(html: str) -> int:
    """A page's bytes: its HTML and its assets'."""
    size = len(html.encode("utf-8"))
    return size + sum((STATIC / name).stat().st_size for name in _assets(html))


@pytest.mark.parametrize("system", sorted(SEEDS))
def test_every_page_weighs_under_100_kb_besides_htmx(tmp_path: Path, system: str) -> None:
    table = seeded_table(f"sqlite:///{tmp_path / 'jdr.db'}", system)
    try:
        gm = join(table.app, table.store, table.campaign_id, "gm")
        actions = default_registry().get(system).actions
        for name, action in list(actions.items())[:3]:
            if action.example:
                form = {k: str(v) for k, v in action.example.items()}
                gm.post(f"/c/{table.campaign_id}/roll", data={"action": name, **form})
        c = f"/c/{table.campaign_id}"
        a, b = table.names[0], table.names[1]
        pages = [
            "/",
            c,
            f"{c}/journal",
            f"{c}/journal/1",
            f"{c}/luck",
            f"{c}/settings",
            f"{c}/simulate?with={a}&against={b}&runs=20",
            f"{c}/fights/{table.fight_id}",
            f"{c}/sheets/{table.character_ids[a]}",
            *(f"{c}/roll?action={name}" for name in actions),
        ]
        heavy = {}
        for path in pages:
            answer = gm.client.get(path)
            assert answer.status_code == 200, (path, answer.text[:300])
            if weight(answer.text) >= MOST:
                heavy[path] = weight(answer.text)
        assert heavy == {}
    finally:
        table.store.close()


def test_the_weight_counts_the_modules_a_script_imports() -> None:
    html = '<link rel="stylesheet" href="/static/jdr.css"><script src="/static/verify-page.js">'
    assert _assets(html) == {"jdr.css", "verify-page.js", "verify.js"}
    assert _assets('<script src="/static/htmx.min.js"></script>') == set()
