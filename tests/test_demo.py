"""`jdr demo`: rolls, odds and a short fight per system, all in a throw-away database."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import jdr.store.engine
from jdr.cli.app import main


@pytest.fixture
def no_real_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The user's data dir is out of reach: the demo must use only its temporary database."""

    def refused() -> str:
        raise AssertionError("the demo opened the user's database")

    monkeypatch.delenv("JDR_DATABASE_URL", raising=False)
    monkeypatch.setattr(jdr.store.engine, "default_url", refused)
    for variable in ("HOME", "XDG_DATA_HOME", "APPDATA", "LOCALAPPDATA"):
        monkeypatch.setenv(variable, str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path.parent / f"{tmp_path.name}-cache"))
    return tmp_path


def only_the_parser_cache(home: Path) -> None:
    """A command may keep the dice notation's parser in the user's cache folder (never data)."""
    cache = home.parent / f"{home.name}-cache"
    found = cache.rglob("*") if cache.exists() else iter(())
    kept = sorted(p.relative_to(cache).as_posix() for p in found)
    assert all(k == "jdr" or k.startswith("jdr/notation-") for k in kept), kept


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        (
            "en",
            [
                "3d6! (5, 3, 6!+3) = 17",
                "Plus Ultra forum combat",
                "Pokémon tabletop RPG",
                "Passion superhero game",
                "Ilvermorny wizard school",
                "Polédémos skirmish",
                "$ jdr fight act 1 Kaito attack target=Corbeau --faces 15",
                "  Corbeau loses 2 Énergie.",
                "  Pika's initiative: d10 9 + Dextérité 5 = 14.",
                "  Chu must answer Pika's Éclair: none, endure, dodge, counter.",
                "  Chu tries to dodge.",
                "  Romuald has chosen a marker (sealed: ",
                "  Markers revealed: Romuald 2 + Mobilité 2 = 4; Cyber-ninja 0 + Mobilité 3 = 3;",
                "  Round 1 is over: the spells cancelled each other.",
                "  Alice has the hand (hand 1).",
                "[*]Kaito attacks Corbeau. d20 15 + 8 = 23 against 20: hit"
                " (chance to hit 45.00 %).",
                "**Round 2 — to play: Pika**",
                "17/27",
                "2d100",
                "seed commitment (epoch 1): 630dcd2966c4336691125448bbb25b4ff412a49c732db2c8",
                "this action id was already rolled: the same roll again",
                "OK: the journal verifies",
                "FAILED: entry 1: die 2 (d6) derives to",
            ],
        ),
        (
            "fr",
            [
                "80,05 %",
                "Plus Ultra, combat de forum",
                "Polédémos, escarmouche",
                "  Kaito attaque Corbeau.",
                "  Chu tente d'esquiver.",
                "[b]Combat 1[/b]",
                "× 0,75",
                "OK\u00a0: le journal est vérifié",
                "ÉCHEC\u00a0: entrée 1\u00a0: le dé 2 (d6)",
            ],
        ),
    ],
)
def test_demo_plays_a_fight_per_system(
    capsys: pytest.CaptureFixture[str], no_real_data_dir: Path, lang: str, lines: list[str]
) -> None:
    args = ["demo"] if lang == "en" else ["demo", "--lang", lang]
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 0, err
    for line in lines:
        assert line in out
    assert list(no_real_data_dir.iterdir()) == []
    only_the_parser_cache(no_real_data_dir)
    told = [line for line in out.splitlines() if not line.lstrip().startswith("$ ")]
    dumps = [line for line in told if re.search(r"\b[a-z_]+=\S", line)]
    assert dumps == [], "a fight is told in sentences, never as key=value"


def test_demo_is_stable(capsys: pytest.CaptureFixture[str], no_real_data_dir: Path) -> None:
    assert main(["demo"]) == 0
    first = capsys.readouterr().out
    assert main(["demo"]) == 0
    assert capsys.readouterr().out == first
