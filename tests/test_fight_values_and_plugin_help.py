"""Issue 28, parts 5 and 8: a fight key's value is read as JSON only where its type needs it
(a name that starts with `[` is a name; a bad table says where, in the reader's language);
`jdr sheet new` on a plug-in whose example is not a sheet is one clear line, not a traceback;
`jdr fight commands` offers `join` only to one who may join (PK-5, OM-4); and `jdr sheet buy
--help` shows each system's own purchase, a plug-in's as a built-in's."""

from __future__ import annotations

import re
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from cli_run import run, run_json
from jdr.errors import InputError
from jdr.fights.commands import key, parse_keys
from jdr.fights.setup import parse_value
from jdr.i18n import language
from jdr.sheet_check import systems_example
from jdr.systems import Progressed, Progression, Registry, System, set_default_registry
from jdr.systems.registry import ENTRY_POINT_GROUP

GUARD = "[PNJ] Garde"


class Keys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    target: str | None = key("the fighter aimed at", fr="cible", default=None, fighter=True)
    targets: list[str] | None = key("the fighters hit, A,B", fr="cibles", default=None)
    protection: dict[str, str] | None = key(
        "protections by fighter", fr="protections", default=None
    )
    parts: list[dict[str, Any]] | None = key("the blast's parts", fr="parties", default=None)


def test_a_text_key_takes_a_name_that_starts_with_a_bracket_as_typed() -> None:
    assert parse_keys(Keys, [f"target={GUARD}"]) == {"target": GUARD}
    assert parse_keys(Keys, ["cible={PNJ} Garde"]) == {"target": "{PNJ} Garde"}
    assert parse_keys(Keys, ['target=["Bob"]']) == {"target": '["Bob"]'}  # a name, never JSON


def test_a_list_key_splits_names_at_commas_or_reads_a_json_list() -> None:
    assert parse_keys(Keys, [f"targets={GUARD}, Bob"]) == {"targets": [GUARD, "Bob"]}
    assert parse_keys(Keys, [f"targets={GUARD}"]) == {"targets": [GUARD]}
    assert parse_keys(Keys, ['targets=["Bob", "Cy"]']) == {"targets": ["Bob", "Cy"]}


def test_a_table_key_reads_json_and_says_where_it_is_not_in_the_readers_language() -> None:
    assert parse_keys(Keys, ['protection={"Bob": "light"}']) == {"protection": {"Bob": "light"}}
    assert parse_keys(Keys, ['parts=[{"a": 1}]']) == {"parts": [{"a": 1}]}
    with pytest.raises(InputError) as refused:
        parse_keys(Keys, ["protection={Bob: light}"])
    english = refused.value.message()
    assert "not valid JSON at character 2" in english and '{"A": 1}' in english
    assert "Expecting" not in english  # Python's words never reach the reader
    with language("fr"), pytest.raises(InputError) as refused:
        parse_keys(Keys, ["parties=[{a}]"])
    french = refused.value.message()
    assert "JSON non valable au caractère 3" in french and '[{"name": "A"}]' in french


def test_an_untyped_value_is_json_only_when_it_reads_as_json() -> None:
    """`jdr fight new --setting`, a plug-in's commands without models: no JSON error for a
    name; a real JSON table or list still reads as one."""
    assert parse_value(GUARD) == GUARD and parse_value(f"{GUARD},Bob") == [GUARD, "Bob"]
    assert parse_value('{"A": 1}') == {"A": 1} and parse_value("[1, 2]") == [1, 2]


# --- plug-ins: a broken example, their own purchase help -------------------------------------


class Knight(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    honour: int = Field(ge=0, le=10)
    xp: int = Field(default=0, ge=0)
    skills: dict[str, int] = Field(default_factory=dict)


class Buy(BaseModel):
    skill: str = Field(description="the skill bought")


def _buy(sheet: dict[str, Any], params: Buy) -> Progressed:
    skills = {**sheet.get("skills", {}), params.skill: sheet.get("skills", {}).get(params.skill, 0)}
    skills[params.skill] += 1
    return Progressed({**sheet, "skills": skills, "xp": sheet["xp"] - 1}, lambda: "bought")


def homebrew(tmp_path: Path, example: str) -> System:
    """A plug-in with a sheet, the example `example` and a `buy NAME SKILL` step, installed
    next to the built-ins."""
    folder = tmp_path / "homebrew"
    folder.mkdir(exist_ok=True)
    (folder / "knight.toml").write_text(example, encoding="utf-8")
    system = System(
        "homebrew",
        {"fr": "Chevalerie", "en": "Chivalry"},
        sheet=Knight,
        examples={"knight": folder / "knight.toml"},
        progression={
            "buy": Progression(
                "buy", Buy, _buy, words=("skill",), help="Buy a skill point with 1 XP (HB-1)."
            )
        },
    )
    set_default_registry(
        Registry({"homebrew": system}, points=entry_points(group=ENTRY_POINT_GROUP))
    )
    return system


@pytest.mark.parametrize(
    "example",
    ['name = "Lancelot"\nhonour = 9\nrank = C\n', 'name = "Lancelot"\nhonour = 11\n'],
    ids=["not TOML", "not a sheet"],
)
def test_sheet_new_on_a_plugins_broken_example_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], example: str
) -> None:
    homebrew(tmp_path, example)
    code, out, err = run(capsys, "sheet", "new", "homebrew")
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith(
        "jdr: error: rule system homebrew cannot be used"
    )
    assert "its example sheet knight is not a valid sheet: knight.toml" in err
    code, out, err = run(capsys, "sheet", "new", "homebrew", "--lang", "fr")
    assert code == 2 and "sa fiche d'exemple knight n'est pas une fiche valable" in err


def test_sheet_new_on_a_plugins_good_example_writes_its_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    homebrew(tmp_path, 'name = "Lancelot"\nhonour = 9\n')
    code, out, err = run(capsys, "sheet", "new", "homebrew")
    assert code == 0 and 'name = "Lancelot"' in out, err


def test_sheet_buy_help_shows_each_systems_own_purchase_a_plugins_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    homebrew(tmp_path, 'name = "Lancelot"\nhonour = 9\n')
    code, out, _err = run(capsys, "sheet", "buy", "--help")
    assert code == 0 and "Each rule system's own:" in out
    flat = re.sub(r"\s+", " ", out)
    assert "homebrew: NAME SKILL Buy a skill point with 1 XP (HB-1)." in flat
    assert "pokemon: NAME WHAT-TO-BUY [WHICH-ONE]" in flat and "(PK-21, PK-22)" in flat
    code, out, _err = run(capsys, "sheet", "award", "--help", "--lang", "fr")
    assert "Propre à chaque système de règles" in out and "homebrew" not in out


def test_a_plugins_purchase_is_played_as_its_help_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    homebrew(tmp_path, 'name = "Lancelot"\nhonour = 9\nxp = 2\n')
    monkeypatch.setenv("JDR_DATABASE_URL", f"sqlite:///{tmp_path / 'jdr.db'}")
    assert run(capsys, "campaign", "new", "Table", "--system", "homebrew")[0] == 0
    knight = tmp_path / "homebrew" / "knight.toml"
    assert run(capsys, "sheet", "add", str(knight), "--campaign", "Table")[0] == 0
    code, _out, err = run(capsys, "sheet", "buy", "Lancelot", "epee", "--campaign", "Table")
    assert code == 0, err
    code, payload = run_json(capsys, "sheet", "show", "Lancelot", "--campaign", "Table")
    sheet = payload["character"]["sheet"]
    assert sheet["skills"] == {"epee": 1} and sheet["xp"] == 1


# --- PK-5: `join` is offered to one who may join ---------------------------------------------


def _pokemon(tmp_path: Path, capsys: pytest.CaptureFixture[str], *names: str) -> None:
    text = systems_example("pokemon", "pokemon")
    for name in names:
        sheet = tmp_path / f"{name}.toml"
        sheet.write_text(re.sub(r'^name = ".*"$', f'name = "{name}"', text, count=1, flags=re.M))
        code, _out, err = run(capsys, "sheet", "add", str(sheet), "--campaign", "T")
        assert code == 0, err


def test_pk_5_fight_commands_offers_join_to_one_outside_the_fight_never_a_fighter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JDR_DATABASE_URL", f"sqlite:///{tmp_path / 'jdr.db'}")
    assert run(capsys, "campaign", "new", "T", "--system", "pokemon")[0] == 0
    _pokemon(tmp_path, capsys, "Pika", "Bulbi")
    code, payload = run_json(capsys, "fight", "new", "--campaign", "T", "--with", "Pika,Bulbi")
    fight = str(payload["fight"])
    code, payload = run_json(capsys, "fight", "commands", fight)
    examples = {c["name"]: c["example"] for c in payload["commands"]}
    assert examples["join"] == f"jdr fight act {fight} ACTOR join side=b"  # nobody else stored
    assert all(" join" not in line for name, line in examples.items() if name != "join")
    _pokemon(tmp_path, capsys, "Carapuce")
    code, out, _err = run(capsys, "fight", "commands", fight)
    assert f"jdr fight act {fight} Carapuce join side=b" in out
    assert "Pika join" not in out and "Bulbi join" not in out
    for fighter in ("Pika", "bulbi"):  # a fighter, as people type the name
        code, payload = run_json(capsys, "fight", "commands", fight, fighter)
        assert "join" not in payload["legal_commands"]
        code, _out, err = run(capsys, "fight", "act", fight, fighter, "join")
        assert code == 2 and "PK-5" in err  # the decider says so too
    code, payload = run_json(capsys, "fight", "commands", fight, "Carapuce")
    assert payload["legal_commands"] == ["join"]
