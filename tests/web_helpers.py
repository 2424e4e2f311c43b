"""The web table in a test: the real application on a real database, through Starlette's test
client (real HTTP semantics: cookies, redirects, headers), with helpers to sign in by invite."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient

from jdr import access
from jdr.store import Store

HOST = "h" * 43


@dataclass
class Seat:
    """A signed-in browser: its client and the CSRF token its pages carry."""

    client: TestClient
    csrf: str

    def post(self, path: str, **kwargs: Any) -> Any:
        data = {"csrf": self.csrf, **kwargs.pop("data", {})}
        return self.client.post(path, data=data, follow_redirects=False, **kwargs)

    def api(self, path: str, payload: dict[str, Any]) -> Any:
        return self.client.post(path, json=payload, headers={"X-CSRF-Token": self.csrf})


def unique(name: str) -> str:
    """A campaign name no other test (or engineer) on a shared database uses."""
    return f"{name} {uuid.uuid4().hex[:8]}"


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]{64})"', html)
    assert found, "the page carries a CSRF token"
    return found.group(1)


def join(app: Any, store: Store, campaign_id: int, role: str, character: str | None = None) -> Seat:
    """A new browser that redeems a fresh invite of `role`."""
    made = access.invite(store, campaign_id, role, character)
    client = TestClient(app)
    answer = client.post(f"/invite/{made.token}", follow_redirects=False)
    assert answer.status_code == 303, answer.text
    page = client.get(f"/c/{campaign_id}")
    assert page.status_code == 200
    return Seat(client, csrf_of(page.text))


def plus_ultra_table(database_url: str, name: str) -> tuple[Any, Store, int]:
    """The web application on `database_url` and a new Plus Ultra campaign holding the two
    example characters (Kaito Arashi, Maître Corbeau): the app, its store, the campaign's id."""
    return example_table(database_url, name, "plus-ultra", ("hero", "villain"))


def example_table(
    database_url: str, name: str, system: str, examples: tuple[str, ...]
) -> tuple[Any, Store, int]:
    """The web application on `database_url` and a new campaign of `system` holding its shipped
    example sheets `examples`: the app, its store, the campaign's id."""
    import tomllib

    from jdr.characters import service
    from jdr.sheet_check import systems_example
    from jdr.web.app import create_app

    app = create_app(database_url, host_token=HOST, invite_attempts=1000)
    store: Store = app.state.store
    campaign_id = store.create_campaign(system, unique(name))
    campaign = store.campaign_by_id(campaign_id)
    for kind in examples:
        service.add(store, campaign, tomllib.loads(systems_example(system, kind)))
    return app, store, campaign_id
