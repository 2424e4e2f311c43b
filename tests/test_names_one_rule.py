"""Issue 28, part 5: one rule for every name (`jdr.names.check_name`: trimmed, not blank, at
most `MAX_NAME` characters, no control character), on every path that names something — a sheet
added (its own `name`, `--name`, a Pokémon's moves), renamed, `set name=`, edited, a campaign on
the command line and on the web's host page, a fighter joining — each refusal one clear line
with the escape shown, never sent raw. And a name that starts with `[` is a name: `[PNJ] Garde`
is a target like any other, from `jdr fight act` and from the web's form and API (PU-4)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_run import run, run_json
from jdr.characters import service
from jdr.names import MAX_NAME
from jdr.sheet_check import systems_example
from jdr.store import Store
from web_helpers import HOST, join, plus_ultra_table

ESCAPES = ["\x1b]0;x\x07", "\x1b[31m", "Kai\x1b[31mred", "two\nlines"]
BAD = [*ESCAPES, "a" * 300]
GUARD = "[PNJ] Garde"
HERO, VILLAIN = "Kaito Arashi", "Maître Corbeau"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'jdr.db'}"
    monkeypatch.setenv("JDR_DATABASE_URL", url)
    return url


@pytest.fixture
def pikachu(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A Pokémon campaign `T` holding the example Pikachu; the example's file."""
    assert run(capsys, "campaign", "new", "T", "--system", "pokemon")[0] == 0
    sheet = tmp_path / "pikachu.toml"
    sheet.write_text(systems_example("pokemon", "pokemon"), encoding="utf-8")
    assert run(capsys, "sheet", "add", str(sheet), "--campaign", "T")[0] == 0
    return sheet


def refused(err: str, field: str) -> None:
    """One line naming `field`, with the rule, no escape sent raw and no traceback."""
    assert err.count("\n") == 1 and f"{field}: " in err, err
    assert "control character" in err or "characters" in err or "empty" in err, err
    assert "\x1b" not in err and "\x07" not in err and "Traceback" not in err


def named(text: str, name: str) -> str:
    """A sheet's TOML with its own (first) `name` set to `name`."""
    quoted = name.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    quoted = quoted.replace("\x1b", "\\u001b").replace("\x07", "\\u0007")
    return re.sub(r'^name = ".*"$', lambda _m: f'name = "{quoted}"', text, count=1, flags=re.M)


def versions(capsys: pytest.CaptureFixture[str]) -> dict[str, int]:
    code, payload = run_json(capsys, "sheet", "list", "--campaign", "T")
    assert code == 0
    return {c["name"]: c["version"] for c in payload["characters"]}


@pytest.mark.parametrize("name", BAD)
def test_sheet_add_holds_the_sheets_own_name_to_the_rule(
    pikachu: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    sheet = tmp_path / "bad.toml"
    sheet.write_text(named(pikachu.read_text("utf-8"), name), encoding="utf-8")
    code, _out, err = run(capsys, "sheet", "add", str(sheet), "--campaign", "T", "--name", "Bis")
    assert code == 2
    refused(err, "name")
    code, _out, err = run(capsys, "sheet", "validate", str(sheet))
    assert code == 2 and "\x1b" not in err
    assert versions(capsys) == {"Pikachu": 1}


@pytest.mark.parametrize("name", [*BAD, "   "])
def test_sheet_add_holds_the_name_given_to_the_rule(
    pikachu: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, _out, err = run(capsys, "sheet", "add", str(pikachu), "--campaign", "T", "--name", name)
    assert code == 2 and "\x1b" not in err and "Traceback" not in err
    assert "--name: " in err
    assert versions(capsys) == {"Pikachu": 1}


def test_sheet_add_holds_every_name_in_the_sheet_to_the_rule(
    pikachu: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A move's name is a name too: it is shown in every fight's narration."""
    data = tomllib.loads(pikachu.read_text("utf-8"))
    move = data["moves"][0]["name"]
    sheet = tmp_path / "move.toml"
    text = pikachu.read_text("utf-8").replace(f'name = "{move}"', 'name = "\\u001b[2J"', 1)
    sheet.write_text(text, encoding="utf-8")
    code, _out, err = run(capsys, "sheet", "add", str(sheet), "--campaign", "T", "--name", "Bis")
    assert code == 2 and "moves[1].name: " in err and "\x1b" not in err


@pytest.mark.parametrize("name", BAD)
def test_sheet_set_name_follows_the_rule_as_rename_does(
    pikachu: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, _out, err = run(capsys, "sheet", "set", "Pikachu", f"name={name}", "--campaign", "T")
    assert code == 2
    refused(err, "name")
    code, _out, err = run(capsys, "sheet", "rename", "Pikachu", name, "--campaign", "T")
    assert code == 2
    refused(err, "NEW_NAME")
    assert versions(capsys) == {"Pikachu": 1}  # nothing was written


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_name_is_refused_by_rename_and_campaign_new(
    pikachu: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, _out, err = run(capsys, "sheet", "rename", "Pikachu", name, "--campaign", "T")
    assert code == 2 and "NEW_NAME: " in err and "empty or blank" in err
    code, _out, err = run(capsys, "campaign", "new", name, "--system", "pokemon")
    assert code == 2 and "empty or blank" in err


def test_the_name_limit_is_one_for_set_rename_and_campaign_new(
    pikachu: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    longest, over = "P" * MAX_NAME, "P" * (MAX_NAME + 1)
    for args in (
        ("sheet", "set", "Pikachu", f"name={over}", "--campaign", "T"),
        ("sheet", "rename", "Pikachu", over, "--campaign", "T"),
        ("campaign", "new", over, "--system", "pokemon"),
    ):
        code, _out, err = run(capsys, *args)
        assert code == 2 and f"1 to {MAX_NAME} characters" in err, args
    assert run(capsys, "sheet", "set", "Pikachu", f"name={longest}", "--campaign", "T")[0] == 0
    assert run(capsys, "sheet", "rename", "Pikachu", longest, "--campaign", "T")[0] == 0
    assert run(capsys, "campaign", "new", longest, "--system", "pokemon")[0] == 0


def test_the_rule_speaks_french(pikachu: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("sheet", "set", "Pikachu", "name=a\x1b[31m", "--campaign", "T", "--lang", "fr")
    code, _out, err = run(capsys, *args)
    assert code == 2 and "caractère de contrôle" in err and "\\x1b" in err


def test_a_fighter_joining_is_a_stored_name_never_an_escape(
    pikachu: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "bulbi.toml"
    other.write_text(named(pikachu.read_text("utf-8"), "Bulbi"), encoding="utf-8")
    assert run(capsys, "sheet", "add", str(other), "--campaign", "T")[0] == 0
    code, payload = run_json(capsys, "fight", "new", "--campaign", "T", "--with", "Pikachu,Bulbi")
    assert code == 0
    fight = str(payload["fight"])
    for name in ESCAPES:
        code, _out, err = run(capsys, "fight", "act", fight, name, "join", "side=b")
        assert code == 2 and "\x1b" not in err and "Traceback" not in err, err


@pytest.mark.parametrize("name", [*BAD, ""])
def test_the_web_host_page_holds_a_campaign_name_to_the_rule(database_url: str, name: str) -> None:
    from fastapi.testclient import TestClient

    from jdr.web.app import create_app

    app = create_app(database_url, host_token=HOST, invite_attempts=1000)
    try:
        answer = TestClient(app).post(
            f"/host/{HOST}", data={"name": name, "system": "plus-ultra"}, follow_redirects=False
        )
        assert answer.status_code == 422, answer.text  # the error page, never a 500
        assert f"1 to {MAX_NAME} characters, no control character" in answer.text
        assert app.state.store.campaigns() == []
    finally:
        app.state.store.close()


# --- `[PNJ] Garde` is a name, on the command line and on the web -------------------------------


@pytest.fixture
def guard_table(database_url: str) -> Iterator[tuple[Any, Store, int]]:
    """A Plus Ultra campaign where the villain is `[PNJ] Garde`, in a fight Kaito opens."""
    app, store, campaign_id = plus_ultra_table(database_url, "Garde")
    campaign = store.campaign_by_id(campaign_id)
    service.rename(store, campaign, VILLAIN, GUARD)
    yield app, store, campaign_id
    store.close()


def _fight(gm: Any, campaign_id: int) -> int:
    answer = gm.post(
        f"/c/{campaign_id}/fights", data={"with": [HERO, GUARD], "order": f"{HERO}, {GUARD}"}
    )
    assert answer.status_code == 303, answer.text
    return int(answer.headers["location"].rsplit("/", 1)[1])


def _targets(store: Store, fight: int) -> list[Any]:
    return [e.event["target"] for e in store.events(fight) if e.event["type"] == "attack_rolled"]


def test_pu_4_a_name_starting_with_a_bracket_is_a_target_in_the_web_form_and_api(
    guard_table: tuple[Any, Store, int],
) -> None:
    app, store, campaign_id = guard_table
    gm = join(app, store, campaign_id, "gm")
    fight = _fight(gm, campaign_id)
    played = gm.post(
        f"/c/{campaign_id}/fights/{fight}",
        data={"actor": HERO, "command": "attack", "target": GUARD},
    )
    assert played.status_code == 303, played.text
    assert _targets(store, fight) == [GUARD]
    answer = gm.api(
        f"/api/c/{campaign_id}/fights/{fight}",
        {"actor": GUARD, "command": "attack", "keys": {"target": HERO}},
    )
    assert answer.status_code == 200, answer.text
    assert _targets(store, fight) == [GUARD, HERO]
    answer = gm.api(
        f"/api/c/{campaign_id}/fights/{fight}",
        {"actor": HERO, "command": "attack", "keys": {"target": "{PNJ} Garde"}},
    )  # a brace is no JSON either: the name as people type it
    assert answer.status_code == 200, answer.text
    assert _targets(store, fight) == [GUARD, HERO, GUARD]


def test_pu_4_a_name_starting_with_a_bracket_is_a_target_from_fight_act(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], db: str
) -> None:
    assert run(capsys, "campaign", "new", "PU", "--system", "plus-ultra")[0] == 0
    for kind, name in (("hero", HERO), ("villain", GUARD)):
        sheet = tmp_path / f"{kind}.toml"
        sheet.write_text(named(systems_example("plus-ultra", kind), name), encoding="utf-8")
        code, _out, err = run(capsys, "sheet", "add", str(sheet), "--campaign", "PU")
        assert code == 0, err
    code, payload = run_json(
        capsys, "fight", "new", "--campaign", "PU", "--with", f"{HERO},{GUARD}", "--order",
        f"{HERO},{GUARD}",
    )  # fmt: skip
    assert code == 0
    fight = str(payload["fight"])
    code, out, err = run(capsys, "fight", "act", fight, HERO, "attack", f"target={GUARD}")
    assert code == 0, err
    assert f"attacks {GUARD}" in out
    code, out, err = run(capsys, "fight", "act", fight, GUARD, "attack", f"target={HERO}")
    assert code == 0, err
