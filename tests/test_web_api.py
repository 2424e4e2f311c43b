"""Issue 19: the JSON API fuzzed from its own OpenAPI document (no 500, every refusal in the
error shape), and `jdr serve` as a real process answering real HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jdr import table
from jdr.access import Viewer
from jdr.characters import service
from jdr.web.app import create_app
from live_helpers import free_port
from web_helpers import HOST, join, unique

EXAMPLES = Path(__file__).parents[1] / "src" / "jdr" / "systems" / "plus_ultra" / "examples"

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=False, allow_infinity=False),  # JSON has no infinity to send
    st.text(max_size=30),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)
FIELDS = ["willpower", "target_energy", "rank", "defending", "bonus", "a", "b", "first", "energy"]


def bodies(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Bodies near the document's schema (its own fields, with any values), and junk."""
    names = list(schema.get("properties", {}))
    near = st.fixed_dictionaries(
        {},
        optional={
            **{name: VALUES for name in names},
            "action": st.sampled_from(["attack", "protect", "rank", "duel", "atack", ""]),
            "command": st.sampled_from(["attack", "defend", "technique", "flee", "atk", ""]),
            "actor": st.sampled_from(["Kaito Arashi", "Maître Corbeau", "kaito", "Nobody"]),
            "keys": st.dictionaries(st.sampled_from(["target", "technique", "x"]), VALUES),
            "params": st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=5),
        },
    )
    return st.one_of(near, VALUES)


@pytest.fixture(scope="module")
def seat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    url = f"sqlite:///{tmp_path_factory.mktemp('api') / 'jdr.db'}"
    app = create_app(url, host_token=HOST, invite_attempts=1000)
    store = app.state.store
    campaign = store.create_campaign("plus-ultra", unique("Fuzz"))
    found = store.campaign_by_id(campaign)
    for name in ("hero", "villain"):
        service.add(store, found, tomllib.loads((EXAMPLES / f"{name}.toml").read_text()))
    names = [c.name for c in store.characters(campaign)]
    fight = table.start_fight(store, Viewer(campaign, "gm"), found, names)
    yield app, join(app, store, campaign, "gm"), campaign, fight
    store.close()


def answer_model(operation: dict[str, Any]) -> Any:
    """The model of a route's documented 200 answer (`jdr.web.schemas`), from its `$ref`."""
    from jdr.web import schemas

    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    return getattr(schemas, ref.rsplit("/", 1)[-1])


def test_pu_4_the_api_answers_every_body_without_a_500_in_its_schema(seat: Any) -> None:
    _app, gm, campaign, fight = seat
    document = gm.client.get("/api/openapi.json").json()
    schemas = document["components"]["schemas"]
    posts = [
        (
            path.replace("{campaign_id}", str(campaign)).replace("{fight_id}", str(fight)),
            schemas[ref.rsplit("/", 1)[-1]],
        )
        for path, item in document["paths"].items()
        if "post" in item
        for ref in [item["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]]
    ]
    assert len(posts) == 5  # roll, odds, advise, simulate, a fight command
    answers = {  # each route's documented 200 answer, checked on every answer below
        (method, path.replace("{campaign_id}", str(campaign)).replace("{fight_id}", str(fight))): (
            answer_model(operation)
        )
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }
    for (method, path), model in answers.items():
        if method == "get":
            got = gm.client.get(path)
            assert got.status_code == 200, got.text
            model.model_validate(got.json())

    @settings(
        max_examples=60,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(st.sampled_from(posts).flatmap(lambda p: st.tuples(st.just(p[0]), bodies(p[1]))))
    def check(case: tuple[str, Any]) -> None:
        path, body = case
        answer = gm.client.post(
            path,
            content=json.dumps(body),
            headers={"X-CSRF-Token": gm.csrf, "content-type": "application/json"},
        )
        assert answer.status_code != 500, answer.text
        payload = answer.json()
        if answer.status_code >= 400:
            error = payload["error"]
            assert isinstance(error["code"], str) and isinstance(error["message"], str)
            assert "Traceback" not in answer.text
        else:
            assert answer.status_code == 200 and ("params" in payload or "events" in payload)
            answers[("post", path)].model_validate(payload)  # no schema violation

    check()


def test_jdr_serve_prints_a_host_link_that_opens_in_a_real_server(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "JDR_LANG": "en"}
    command = [sys.executable, "-m", "jdr.cli.app", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp_path / 'jdr.db'}"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    ) as server:
        try:
            assert server.stdout is not None
            lines = [server.stdout.readline() for _ in range(2)]
            link = re.search(r"(http://127\.0\.0\.1:\d+/host/\S+)", lines[1])
            assert link, lines
            page, csp = "", ""
            for _attempt in range(100):  # bounded: the server is up within seconds
                try:
                    with urllib.request.urlopen(link.group(1), timeout=5) as answer:
                        page = answer.read().decode()
                        csp = answer.headers["content-security-policy"]
                    break
                except OSError:
                    time.sleep(0.1)
            assert 'name="system"' in page and "script-src 'self'" in csp
        finally:
            server.terminate()
            server.wait(timeout=10)


def test_pu_4_the_api_answers_what_the_clis_json_prints(
    seat: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli_run import answer

    app, gm, campaign, _shared = seat
    store = app.state.store
    found = store.campaign_by_id(campaign)
    name = found.name
    db = str(store.engine.url)
    # a fight of its own: the fuzz test before it may have played the shared one's turn
    fight = table.start_fight(
        store, Viewer(campaign, "gm"), found, [c.name for c in store.characters(campaign)]
    )
    shown = gm.client.get(f"/api/c/{campaign}").json()
    assert {k: v for k, v in shown.items() if k != "you"} == answer(
        capsys, "campaign", "show", name, "--db", db
    )
    assert shown["you"] == {"role": "gm", "character": None}
    journal = gm.client.get(f"/api/c/{campaign}/journal").json()
    assert journal == answer(capsys, "journal", "show", name, "--db", db)
    played = gm.api(
        f"/api/c/{campaign}/fights/{fight}",
        {"actor": "Kaito Arashi", "command": "attack", "keys": {"target": "Maître Corbeau"}},
    )
    assert played.status_code == 200, played.text
    assert played.json()["command"]["action"] == "attack"
    state = gm.client.get(f"/api/c/{campaign}/fights/{fight}").json()
    cli = answer(capsys, "fight", "show", str(fight), "--db", db)
    for key in ("fight", "campaign", "system", "participants", "version", "status", "view"):
        assert state[key] == cli[key], key
    assert state["legal_commands"] == sorted(cli["legal_commands"])


def test_pu_4_every_route_documents_its_answer_and_a_wrong_answer_fails_it(seat: Any) -> None:
    from pydantic import ValidationError

    _app, gm, campaign, _fight = seat
    document = gm.client.get("/api/openapi.json").json()
    operations = [op for item in document["paths"].values() for op in item.values()]
    assert len(operations) == 9
    models = [answer_model(op) for op in operations]  # a typed 200, never a free-form object
    assert len({m.__name__ for m in models}) == 9
    good = gm.client.get(f"/api/c/{campaign}").json()
    schemas_by_name = {m.__name__: m for m in models}
    schemas_by_name["CampaignAnswer"].model_validate(good)
    with pytest.raises(ValidationError):
        schemas_by_name["CampaignAnswer"].model_validate(good | {"you": {"role": "king"}})
    with pytest.raises(ValidationError):
        schemas_by_name["RollAnswer"].model_validate({"system": "x", "action": "y", "params": {}})
