"""`jdr simulate`: stored sheets of a campaign, played many times through the default tactics."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer as run_json
from cli_run import run
from jdr.simulate.core import checkpoints
from jdr.systems import Registry

SYSTEMS = Path(__file__).parent.parent / "src" / "jdr" / "systems"
JDR = Path(sys.executable).parent / "jdr"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def campaign(capsys: pytest.CaptureFixture[str], db: str, system: str, *sheets: str) -> None:
    """Campaign `C` of `system` holding `sheets`: "file.toml" or "file.toml:Name"."""
    assert run(capsys, "campaign", "new", "C", "--system", system, "--db", db)[0] == 0
    folder = SYSTEMS / system.replace("-", "_") / "examples"
    for sheet in sheets:
        file, _colon, name = sheet.partition(":")
        extra = ["--name", name] if name else []
        code, _out, err = run(
            capsys, "sheet", "add", str(folder / file), "--campaign", "C", *extra, "--db", db
        )
        assert code == 0, err


def simulate(capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> dict[str, Any]:
    args = ["simulate", "plus-ultra", "--campaign", "C", "--with", "Kaito", "--against", "Corbeau"]
    return run_json(capsys, *args, "--runs", "300", "--workers", "1", *extra, "--db", db)


def test_pu_4_simulate_json_from_stored_sheets_and_same_seed_in_a_subprocess_with_2_workers(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    here = simulate(capsys, db, "--seed", "9")
    wins = here["wins"]
    assert isinstance(wins, dict)
    # the sides carry their fighters' names (issue 29), not "a" and "b"
    assert wins["Kaito"]["count"] + wins["Corbeau"]["count"] + here["undecided"]["count"] == 300
    assert set(here["fighters"]) == {"Kaito", "Corbeau"}
    args = ["simulate", "plus-ultra", "--campaign", "C", "--with", "Kaito", "--against", "Corbeau"]
    done = subprocess.run(
        [str(JDR), *args, "--runs", "300", "--seed", "9", "--workers", "2", "--json", "--db", db],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == here


def test_pu_2_simulate_vary_reports_the_difference_and_table_in_french(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    varied = simulate(capsys, db, "--vary", "kaito.willpower=+2", "--vary", "Kaito.energy=-2")
    (difference,) = [d for d in varied["compare"] if d["side"] == "Kaito"]
    assert difference["low"] <= difference["difference"] <= difference["high"]
    args = ["simulate", "plus-ultra", "--campaign", "C", "--with", "Kaito", "--against", "Corbeau"]
    code, out, err = run(
        capsys, *args, "--runs", "50", "--workers", "1", "--lang", "fr", "--db", db
    )
    assert code == 0, err
    assert "victoires" in out and "Kaito" in out


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (["--vary", "Nobody.energy=+1"], "--vary"),
        (["--vary", "Kaito.nothing=+1"], "--vary"),
        (["--vary", "Kaito"], "--vary"),
        (["--runs", "0"], "--runs"),
        (["--workers", "0"], "--workers"),
    ],
)
def test_simulate_bad_input_exits_2_with_the_field(
    capsys: pytest.CaptureFixture[str], db: str, extra: list[str], field: str
) -> None:
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    args = ["simulate", "plus-ultra", "--campaign", "C", "--with", "Kaito", "--against", "Corbeau"]
    code, _out, err = run(capsys, *args, *extra, "--db", db)
    assert code == 2
    assert field in err
    assert "Traceback" not in err


def test_simulate_another_system_than_the_campaigns_is_refused(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    args = ["simulate", "pokemon", "--campaign", "C", "--with", "Kaito", "--against", "Corbeau"]
    code, _out, err = run(capsys, *args, "--runs", "10", "--db", db)
    assert code == 2
    assert "plus-ultra" in err


def test_pu_4_simulate_chart_writes_a_png(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    out = tmp_path / "out.png"
    simulate(capsys, db, "--chart", str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_pu_4_simulate_over_a_local_dask_cluster_gives_the_same_seeded_report(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    distributed = pytest.importorskip("distributed")
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    here = simulate(capsys, db, "--seed", "4")
    with distributed.LocalCluster(
        host="127.0.0.1", n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        there = simulate(
            capsys, db, "--seed", "4", "--scheduler", cluster.scheduler_address, "--workers", "2"
        )
    assert there == here


def test_simulate_unreachable_scheduler_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    pytest.importorskip("distributed")
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    args = ["simulate", "plus-ultra", "--campaign", "C", "--with", "Kaito", "--against", "Corbeau"]
    code, _out, err = run(capsys, *args, "--scheduler", "tcp://127.0.0.1:9", "--db", db)
    assert code == 2
    assert "--scheduler" in err and "Traceback" not in err


def test_simulate_a_system_without_a_tactic_says_so(
    installed_example: Registry, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The example plug-in has fight rules but no simulation: refused before any sheet is read."""
    args = ["simulate", "example", "--with", str(tmp_path / "a.toml")]
    code, _out, err = run(capsys, *args, "--against", str(tmp_path / "b.toml"), "--runs", "10")
    assert code == 2
    assert "example" in err and "simulation" in err and "Traceback" not in err


def test_ps_9_passion_simulates_from_stored_sheets_and_sheet_files_alike(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """Passion's default tactic (issue 21): the campaign's Romuald against its cyber-ninja, and
    the same two sheet files, give the same report; the table reads in French."""
    campaign(capsys, db, "passion", "romuald.toml", "cyber-ninja.toml")
    common = ["--runs", "200", "--seed", "5", "--workers", "1"]
    stored = run_json(
        capsys, "simulate", "passion", "--campaign", "C", "--with", "Romuald",
        "--against", "cyber-ninja", *common, "--db", db,
    )  # fmt: skip
    folder = SYSTEMS / "passion" / "examples"
    files = run_json(
        capsys, "simulate", "passion", "--with", str(folder / "romuald.toml"),
        "--against", str(folder / "cyber-ninja.toml"), *common,
    )  # fmt: skip
    assert {k: v for k, v in files.items() if k != "campaign"} == {
        k: v for k, v in stored.items() if k != "campaign"
    }
    wins = stored["wins"]
    assert (
        wins["Romuald"]["count"] + wins["Cyber-ninja"]["count"] + stored["undecided"]["count"]
        == 200
    )
    assert wins["Romuald"]["rate"] > wins["Cyber-ninja"]["rate"]
    assert set(stored["fighters"]) == {"Romuald", "Cyber-ninja"}
    code, out, err = run(
        capsys, "simulate", "passion", "--campaign", "C", "--with", "Romuald",
        "--against", "Cyber-ninja", "--runs", "30", "--workers", "1", "--lang", "fr", "--db", db,
    )  # fmt: skip
    assert code == 0, err
    assert "victoires" in out and "Romuald" in out


# --- sheet files (issue 21 item 3: "from stored sheets … or sheet files") ----------------------


def test_pu_4_sheet_files_simulate_as_the_same_stored_sheets_do(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "plus-ultra", "hero.toml", "villain.toml")
    folder = SYSTEMS / "plus_ultra" / "examples"
    common = ["--runs", "300", "--seed", "4", "--workers", "1"]
    stored = run_json(
        capsys, "simulate", "plus-ultra", "--campaign", "C", "--with", "kaito arashi",
        "--against", "Maître Corbeau", *common, "--db", db,
    )  # fmt: skip
    files = run_json(
        capsys, "simulate", "plus-ultra", "--with", str(folder / "hero.toml"),
        "--against", str(folder / "villain.toml"), *common,
    )  # fmt: skip
    assert files["campaign"] is None and stored["campaign"] == "C"
    assert {k: v for k, v in files.items() if k != "campaign"} == {
        k: v for k, v in stored.items() if k != "campaign"
    }
    mixed = run_json(
        capsys, "simulate", "plus-ultra", "--campaign", "C", "--with", "Kaito Arashi",
        "--against", str(folder / "villain.toml"), *common, "--db", db,
    )  # fmt: skip
    assert mixed["wins"] == stored["wins"]


def test_pu_4_a_stored_name_needs_a_campaign_and_a_file_its_system(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = SYSTEMS / "plus_ultra" / "examples"
    code, _out, err = run(
        capsys,
        "simulate",
        "plus-ultra",
        "--with",
        "Kaito",
        "--against",
        str(folder / "villain.toml"),
    )
    assert code == 2 and "--campaign" in err and "Kaito is no sheet file" in err
    pokemon = SYSTEMS / "pokemon" / "examples"
    other = next(p for p in sorted(pokemon.iterdir()) if p.suffix == ".toml")
    code, _out, err = run(
        capsys,
        "simulate",
        "plus-ultra",
        "--with",
        str(other),
        "--against",
        str(folder / "hero.toml"),
    )
    assert code == 2 and "pokemon" in err.lower(), err
    missing = tmp_path / "nobody.toml"
    code, _out, err = run(
        capsys,
        "simulate",
        "plus-ultra",
        "--with",
        str(missing),
        "--against",
        str(folder / "hero.toml"),
    )
    assert code in (1, 2) and "nobody.toml" in err and "Traceback" not in err


def test_pu_2_compare_another_sheet_for_a_fighter(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`--compare "NAME=FILE.toml"`: the same fight with that fighter playing another sheet (here
    PU-2's points moved from Volonté to Énergie), the difference with its interval; the varied
    fight is the one those sheets give on their own."""
    folder = SYSTEMS / "plus_ultra" / "examples"
    hero, villain = folder / "hero.toml", folder / "villain.toml"
    other = tmp_path / "kaito-tank.toml"
    text = hero.read_text(encoding="utf-8")
    other.write_text(
        text.replace("energy = 8 ", "energy = 10 ").replace("willpower = 8", "willpower = 6"),
        encoding="utf-8",
    )
    common = ["--runs", "300", "--seed", "3", "--workers", "1"]
    compared = run_json(
        capsys, "simulate", "plus-ultra", "--with", str(hero), "--against", str(villain),
        "--compare", f"kaito arashi={other}", *common,
    )  # fmt: skip
    alone = run_json(
        capsys, "simulate", "plus-ultra", "--with", str(other), "--against", str(villain), *common
    )
    base = run_json(
        capsys, "simulate", "plus-ultra", "--with", str(hero), "--against", str(villain), *common
    )
    [a, _b] = compared["compare"]
    assert a["side"] == "Kaito Arashi"
    assert a["difference"] == pytest.approx(
        alone["wins"]["Kaito Arashi"]["rate"] - base["wins"]["Kaito Arashi"]["rate"]
    )
    assert a["low"] <= a["difference"] <= a["high"]
    code, _out, err = run(
        capsys, "simulate", "plus-ultra", "--with", str(hero), "--against", str(villain),
        "--compare", f"Nobody={other}", *common,
    )  # fmt: skip
    assert code == 2 and "no such fighter" in err


def test_pu_4_without_runs_simulate_plays_until_one_point_and_says_so(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "plus-ultra", "hero.toml:Kaito", "villain.toml:Corbeau")
    args = ["simulate", "plus-ultra", "--campaign", "C", "--with", "Kaito", "--against", "Corbeau"]
    report = run_json(capsys, *args, "--workers", "1", "--seed", "2", "--db", db)
    assert report["precision"] == 0.01 and report["runs"] in checkpoints()
    for rate in [*report["wins"].values(), report["undecided"]]:
        assert rate["high"] - rate["rate"] <= 0.01 + 1e-12
        assert rate["rate"] - rate["low"] <= 0.01 + 1e-12
    code, out, err = run(capsys, *args, "--workers", "1", "--seed", "2", "--lang", "fr", "--db", db)
    assert code == 0, err
    assert f"{report['runs']} combats (jusqu’à connaître chaque camp à ±1 point près)" in out


def test_pk_14_simulate_tactic_countering_by_name_and_a_wrong_name_lists_them(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    campaign(capsys, db, "pokemon", "pokemon.toml:Pika", "pokemon.toml:Chu")
    args = ["simulate", "pokemon", "--campaign", "C", "--with", "Pika", "--against", "Chu"]
    default = run_json(capsys, *args, "--runs", "60", "--workers", "1", "--db", db)
    countering = run_json(
        capsys, *args, "--runs", "60", "--workers", "1", "--tactic", "COUNTERING", "--db", db
    )
    assert default["tactic"] == "default" and countering["tactic"] == "countering"
    code, out, err = run(
        capsys, *args, "--runs", "60", "--workers", "1", "--tactic", "contre-attaque", "--lang",
        "fr", "--db", db,
    )  # fmt: skip
    assert code == 0, err
    assert "tactique contre-attaque" in out
    assert "pas de vainqueur : une égalité, un combat qui ne pouvait plus finir" in out
    code, _out, err = run(capsys, *args, "--tactic", "counter", "--db", db)
    assert code == 2 and "--tactic" in err and "countering" in err and "Traceback" not in err
