"""Issue 32: the first page after a change is quick because what a server process read is
extended by the change, not read again (`jdr.journal.growing`, `jdr.web.contexts.stable`, the
luck audit's kept distributions). These tests check only that the answers are right: after
every action, roll, undo and disclosure, each page read from the kept answers is the page a
process that kept nothing computes (no timing here: `benchmarks/bench_web.py` measures)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from jdr import access, table
from jdr.access import Viewer
from jdr.journal import growing
from jdr.journal.service import public_entries
from jdr.store import Store
from jdr.web import contexts
from jdr.web.app import create_app
from web_helpers import HOST, plus_ultra_table

KAITO, CORBEAU = "Kaito Arashi", "Maître Corbeau"
ATTACK = {"willpower": 5, "target_energy": 6, "rank": "C"}


def _forget(store: Store) -> None:
    """Everything kept for `store`, forgotten: its next pages are computed cold."""
    for kept in (contexts._REREAD, contexts._STABLE, table._TOLD, table._FOLDED, growing._FIGHTS,
                 growing._JOURNALS):  # fmt: skip
        kept.pop(store, None)


@pytest.fixture
def two(database_url: str) -> Iterator[Any]:
    """Two processes' worth of the web table on one database: one keeps and extends what it
    read, the other is made to forget before each page; both signed in as one GM."""
    app, store, campaign_id = plus_ultra_table(database_url, "Kept")
    cold = create_app(database_url, host_token=HOST, invite_attempts=1000)
    made = access.invite(store, campaign_id, "gm", None)
    warm_client, cold_client = TestClient(app), TestClient(cold)
    answer = warm_client.post(f"/invite/{made.token}", follow_redirects=False)
    assert answer.status_code == 303
    cold_client.cookies.set("jdr_session", warm_client.cookies["jdr_session"])
    page = warm_client.get(f"/c/{campaign_id}").text
    token = re.search(r'name="csrf" value="([0-9a-f]{64})"', page)
    assert token
    yield warm_client, cold_client, cold.state.store, store, campaign_id, token.group(1)
    cold.state.store.close()
    store.close()


def _same(two: Any, paths: list[str]) -> None:
    warm, cold, cold_store, _store, _campaign, _csrf = two
    for path in paths:
        kept = warm.get(path)
        _forget(cold_store)
        fresh = cold.get(path)
        assert kept.status_code == fresh.status_code == 200, (path, kept.text[:300])
        assert kept.text == fresh.text, path


def test_pages_read_from_kept_answers_are_the_pages_computed_cold(
    two: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    warm, _cold, _cold_store, store, campaign_id, csrf = two
    monkeypatch.setattr(contexts, "FIGHT_LOG_SHOWN", 3)  # most of the fight folded, not told
    gm = Viewer(campaign_id, "gm")
    campaign = store.campaign_by_id(campaign_id)
    fight = table.start_fight(store, gm, campaign, [KAITO, CORBEAU])
    c = f"/c/{campaign_id}"
    path = f"{c}/fights/{fight}"
    first = store.journal(campaign_id)[-1].seq
    pages = [path, f"{path}/parts/live", f"{path}/parts/recaps", f"{c}/luck",
             f"{c}/journal/{first}"]  # fmt: skip
    _same(two, pages)
    hidden = table.RollAsked("attack", ATTACK, hidden=True)
    for step in range(8):
        actor = (KAITO, CORBEAU)[step % 2]
        answer = warm.post(path, data={"csrf": csrf, "actor": actor, "command": "defend"},
                           follow_redirects=False)  # fmt: skip
        assert answer.status_code == 303, answer.text
        if step in (3, 5):  # undone, then put back: the log only grows, the page tells them
            deep = 1 if step == 3 else 3  # three: actions before the page's first undone
            for control in ("undo",) * deep + ("redo",) * deep:
                done = warm.post(f"{path}/{control}", data={"csrf": csrf}, follow_redirects=False)
                assert done.status_code == 303, done.text
                _same(two, pages)
        now = store.campaign_by_id(campaign_id)
        table.roll(store, gm, now, hidden if step % 3 == 0 else table.RollAsked("attack", ATTACK))
        last = store.journal(campaign_id)[-1].seq
        _same(two, [*pages, f"{c}/journal/{last}", f"{c}/journal/{last - 1}"])
    sealed = [r.seq for r in store.journal(campaign_id) if r.hidden]
    before = warm.get(f"{c}/journal/{sealed[0]}").text
    store.disclose(campaign_id)  # entries already kept are told again, disclosed
    _same(two, [*pages, *(f"{c}/journal/{seq}" for seq in sealed)])
    assert warm.get(f"{c}/journal/{sealed[0]}").text != before


def test_kept_fight_events_and_public_journal_match_the_store(store: Store) -> None:
    from jdr.characters import service
    from jdr.sheet_check import systems_example

    campaign_id = store.create_campaign("plus-ultra", "Grows")
    campaign = store.campaign_by_id(campaign_id)
    import tomllib

    for kind in ("hero", "villain"):
        service.add(store, campaign, tomllib.loads(systems_example("plus-ultra", kind)))
    gm = Viewer(campaign_id, "gm")
    fight = table.start_fight(store, gm, store.campaign_by_id(campaign_id), [KAITO, CORBEAU])
    for n in range(4):
        now = store.campaign_by_id(campaign_id)
        table.roll(store, gm, now, table.RollAsked("attack", ATTACK, hidden=n % 2 == 0))
        table.play(store, gm, now, fight, (KAITO, CORBEAU)[n % 2], "defend", {})
        assert growing.fight_events(store, fight) == store.events(fight)
        now = store.campaign_by_id(campaign_id)
        assert growing.public_journal(store, now) == public_entries(store, now)
    store.disclose(campaign_id)
    now = store.campaign_by_id(campaign_id)
    kept = growing.public_journal(store, now)
    assert kept == public_entries(store, now) and all(e.disclosed for e in kept)
    assert growing.verifiable_journal_rolls(store, now)  # the disclosed rolls count
    unknown = store.campaign_by_id(campaign_id)
    object.__setattr__(unknown, "changes", 0)  # a campaign that counts no change: read whole
    assert growing.public_journal(store, unknown) == public_entries(store, unknown)


def test_a_kept_fold_tells_the_last_actions_as_a_whole_fold_does(store: Store) -> None:
    """`table._last_chapters` read at each version of a fight (actions, undos reaching before
    the actions shown, redos) gives the chapters, with their states, that folding the whole
    fight gives."""
    import tomllib

    from jdr.characters import service
    from jdr.fights import service as fights
    from jdr.fights.story import chapters
    from jdr.sheet_check import systems_example
    from jdr.systems import default_registry

    campaign_id = store.create_campaign("plus-ultra", "Folds")
    campaign = store.campaign_by_id(campaign_id)
    for kind in ("hero", "villain"):
        service.add(store, campaign, tomllib.loads(systems_example("plus-ultra", kind)))
    gm = Viewer(campaign_id, "gm")
    fight = table.start_fight(store, gm, store.campaign_by_id(campaign_id), [KAITO, CORBEAU])
    system = default_registry().get("plus-ultra")
    targets = [CORBEAU, KAITO] * 3
    steps = [*targets[:4], "undo", "undo", "undo", "redo", "redo", "redo", *targets[4:]]
    for move in steps:
        if move == "undo":
            fights.undo(store, fight)
        elif move == "redo":
            fights.redo(store, fight)
        else:
            now = store.campaign_by_id(campaign_id)
            actor = KAITO if move == CORBEAU else CORBEAU
            table.play(store, gm, now, fight, actor, "attack", {"target": move})
        stored = store.events(fight)
        actions = sorted({item.action for item in stored})
        shown = set(actions[-2:])
        kept = table._last_chapters(store, system, fight, stored, shown)
        whole = [c for c in chapters(system, stored, only=shown) if c.number in shown]
        assert kept == whole, move
