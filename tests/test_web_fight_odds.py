"""Issue 29 at the web table: beside each fight command that rolls, the odds of the command with
the keys typed so far, asked of the one function its decider resolves with (`jdr.fights.odds`),
named ("chance to hit"), with their formula, in the reader's language (PU-4)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jdr.characters import service
from jdr.store import Store
from jdr.web.app import create_app
from web_helpers import HOST, join, unique

EXAMPLES = Path(__file__).parents[1] / "src" / "jdr" / "systems" / "plus_ultra" / "examples"


@pytest.fixture
def app(database_url: str) -> Iterator[Any]:
    made = create_app(database_url, host_token=HOST, invite_attempts=1000)
    yield made
    made.state.store.close()


def test_pu_4_the_fight_page_shows_each_commands_chance_to_hit(app: Any) -> None:
    store: Store = app.state.store
    campaign = store.create_campaign("plus-ultra", unique("Odds"))
    names = []
    for name in ("hero", "villain"):
        sheet = tomllib.loads((EXAMPLES / f"{name}.toml").read_text())
        added = service.add(store, store.campaign_by_id(campaign), sheet).character
        assert added is not None
        names.append(added.name)
    hero, villain = names
    gm = join(app, store, campaign, "gm")
    path = gm.post(f"/c/{campaign}/fights", data={"with": [hero, villain]}).headers["location"]
    page = gm.client.get(path).text
    assert f'hx-get="{path}/odds"' in page and 'class="odds"' in page
    asked = {"actor": hero, "command": "attack", "target": villain}
    odds = gm.client.get(f"{path}/odds", params=asked)
    # d20 + Volonté 8 against 8 + Énergie 12 = 20: faces 12 … 20
    assert odds.status_code == 200 and "chance to hit 45.00 %" in odds.text
    assert "first roll: d20 ≥ 12: 45.00 %" in odds.text
    french = gm.client.get(f"{path}/odds", params=asked, headers={"accept-language": "fr"})
    assert "chance de toucher 45,00 %" in french.text
    missing = gm.client.get(f"{path}/odds", params={"actor": hero, "command": "attack"})
    assert missing.status_code == 200 and "target" in missing.text
    none = gm.client.get(f"{path}/odds", params={"actor": hero, "command": "defend"})
    assert none.status_code == 200 and "chance" not in none.text
    unknown = gm.client.get(f"{path}/odds", params={"actor": hero, "command": "dance"})
    assert unknown.status_code == 200 and "dance" in unknown.text


def test_pk_9_jdr_fight_odds_shows_a_moves_chance_to_hit_as_the_product(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from cli_run import answer, run
    from test_cli_fight import campaign

    db = f"sqlite:///{tmp_path}/t.db"
    campaign(capsys, db, "pokemon", "pokemon.toml:Pika", "pokemon.toml:Chu")
    answer(capsys, "fight", "new", "--campaign", "C", "--with", "Pika,Chu", "--faces", "9,2",
           "--db", db)  # fmt: skip
    asked = ("fight", "odds", "1", "Pika", "move", "move=Fatal-Foudre", "réponse=aucune")
    found = answer(capsys, *asked, "--db", db)["odds"]
    sure = answer(capsys, *asked[:5], "move=Éclair", "response=none", "--db", db)["odds"]
    assert found["chance"] == pytest.approx(0.7 * sure["chance"])  # PK-9 × PK-10, 3 dice each
    assert found["outcomes"]["inaccurate"] == pytest.approx(0.3)
    code, out, _err = run(capsys, *asked, "--db", db, "--lang", "fr")
    assert code == 0 and out.startswith("chance de toucher 51,80 %\n")
    assert "précision 70 %\u00a0: un d100 au plus 70 (PK-9)" in out
    code, out, _err = run(capsys, "fight", "odds", "1", "Pika", "wait", "--db", db)
    assert code == 0 and "no odds" in out
