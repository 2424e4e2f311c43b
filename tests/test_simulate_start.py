"""Issue 29 part 5: `jdr simulate` says what it simulates — fighters start from their sheets at
full gauges unless `--as-is`, the report prints each fighter's starting gauges and warns of one
at 0, sides carry the GM's names (or their fighters'), rounds count from 1 as the rules do, and
each system labels its own columns."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from cli_run import answer as run_json
from cli_run import run
from jdr.fights.setup import build_setup
from jdr.simulate.core import play_fight, run_seed, simulation_of
from jdr.simulate.service import run as simulate_service
from jdr.systems import default_registry

SYSTEMS = Path(__file__).parent.parent / "src" / "jdr" / "systems"
FAST = ("--runs", "60", "--workers", "1")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


def example(system: str, file: str) -> dict[str, Any]:
    return tomllib.loads((SYSTEMS / system / "examples" / file).read_text("utf-8"))


def pokemon_campaign(capsys: pytest.CaptureFixture[str], db: str) -> None:
    """Campaign C: Pikachu, then Raichu (the same sheet), Pikachu left at Vitalité 3 and
    Énergie 0 by a fight (`jdr sheet set`, as `fight end` writes a fight's gauges back)."""
    assert run(capsys, "campaign", "new", "C", "--system", "pokemon", "--db", db)[0] == 0
    sheet = str(SYSTEMS / "pokemon" / "examples" / "pokemon.toml")
    for extra in ([], ["--name", "Raichu"]):
        code, _out, err = run(capsys, "sheet", "add", sheet, "--campaign", "C", *extra, "--db", db)
        assert code == 0, err
    code, _out, err = run(
        capsys, "sheet", "set", "Pikachu", "energy.current=0", "vitality.current=3",
        "condition=brûlure", "--campaign", "C", "--db", db,
    )  # fmt: skip
    assert code == 0, err


def pokemon(capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> tuple[int, str, str]:
    args = ["simulate", "pokemon", "--campaign", "C", "--with", "Pikachu", "--against", "Raichu"]
    return run(capsys, *args, *FAST, *extra, "--db", db)


def pokemon_json(capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> dict[str, Any]:
    args = ["simulate", "pokemon", "--campaign", "C", "--with", "Pikachu", "--against", "Raichu"]
    return run_json(capsys, *args, *FAST, *extra, "--db", db)


def gauges(answer: dict[str, Any], fighter: str) -> list[tuple[str, int, int]]:
    return [(g["name"], g["current"], g["max"]) for g in answer["fighters"][fighter]["start"]]


def test_pk_10_pk_16_full_gauges_by_default_and_as_is_keeps_a_depleted_stored_sheet(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """Right after a fight (Pikachu at 0 Énergie, burnt), the default answers the GM's "who
    wins a fresh fight?"; `--as-is` plays from what the fight left, and says so."""
    pokemon_campaign(capsys, db)
    fresh = pokemon_json(capsys, db)
    assert fresh["as_is"] is False
    assert gauges(fresh, "Pikachu") == [("Vitalité", 14, 14), ("Énergie", 10, 10)]
    assert fresh["at_zero"] == []
    kept = pokemon_json(capsys, db, "--as-is")
    assert kept["as_is"] is True
    assert gauges(kept, "Pikachu") == [("Vitalité", 3, 14), ("Énergie", 0, 10)]
    assert kept["at_zero"] == [{"fighter": "Pikachu", "name": "Énergie", "current": 0, "max": 10}]
    # Pikachu can pay for no move and burns: it never wins and is knocked out more often
    assert kept["wins"]["Pikachu"]["count"] == 0
    ko = "knocked_out"
    assert kept["fighters"]["Pikachu"][ko]["rate"] > fresh["fighters"]["Pikachu"][ko]["rate"]
    assert kept["fighters"]["Pikachu"]["dealt"] == 0 < fresh["fighters"]["Pikachu"]["dealt"]


def test_pk_16_a_fresh_pokemon_has_no_condition_and_full_gauges() -> None:
    """PK-16/PK-17: the conditions a fight left are cleared as a fresh fight starts."""
    sheet = example("pokemon", "pokemon.toml")
    sheet |= {"condition": "burn", "volatile": ["confusion"]}
    sheet["energy"] = {"current": 0, "max": 10}
    fresh = simulation_of(default_registry().get("pokemon")).fresh(sheet)
    assert fresh["condition"] is None and fresh["volatile"] == []
    assert fresh["energy"] == {"current": 10, "max": 10}
    assert sheet["energy"]["current"] == 0  # the stored sheet is not changed


def test_ps_5_ps_12_a_fresh_passion_fighter_has_full_pools_and_no_marker_ticked() -> None:
    """PS-5's pools (Passion, Énergie, an item's Énergie) full; PS-12's markers ticked off for
    the rest of a fight are available again."""
    sheet = example("passion", "cyber-ninja.toml")
    sheet["passion"] = {"current": 0, "max": sheet["passion"]["max"]}
    sheet["energy"] = {"current": 1, "max": sheet["energy"]["max"]}
    sheet["ticked_markers"] = [1]
    for weapon in sheet["weapons"]:
        if weapon.get("energy"):
            weapon["energy"] = {"current": 0, "max": weapon["energy"]["max"]}
    fresh = simulation_of(default_registry().get("passion")).fresh(sheet)
    assert fresh["passion"]["current"] == fresh["passion"]["max"]
    assert fresh["energy"]["current"] == fresh["energy"]["max"]
    assert fresh["ticked_markers"] == []
    for weapon in fresh["weapons"]:
        if weapon.get("energy"):
            assert weapon["energy"]["current"] == weapon["energy"]["max"]


def test_pk_10_the_report_prints_starting_gauges_and_warns_at_0_in_english_and_french(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    pokemon_campaign(capsys, db)
    code, out, err = pokemon(capsys, db)
    assert code == 0, err
    assert "start: the sheets with every gauge full (--as-is keeps their current gauges)" in out
    assert "starting gauges" in out and "Vitalité 14/14, Énergie 10/10" in out
    assert "warning" not in out
    code, out, err = pokemon(capsys, db, "--as-is")
    assert code == 0, err
    assert "start: the sheets as they are, with their current gauges (--as-is)" in out
    assert "Vitalité 3/14, Énergie 0/10" in out
    assert "warning: Pikachu starts at 0 Énergie (0/10)" in out
    code, out, err = pokemon(capsys, db, "--as-is", "--lang", "fr")
    assert code == 0, err
    assert "départ\u00a0: les fiches telles quelles, avec leurs jauges actuelles (--as-is)" in out
    assert "jauges de départ" in out and "Vitalité 3/14, Énergie 0/10" in out
    assert "attention\u00a0: Pikachu commence à 0 en Énergie (0/10)" in out
    code, out, err = pokemon(capsys, db, "--lang", "fr")
    assert "départ\u00a0: les fiches, toutes jauges pleines" in out and "attention" not in out


def test_pu_1_plus_ultra_sheets_hold_maxima_so_a_fight_starts_full(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """PU-1: a Plus Ultra sheet holds the gauges' maxima; the report shows them full, as is or
    not, and names its measures in Énergie."""
    folder = SYSTEMS / "plus_ultra" / "examples"
    args = ["simulate", "plus-ultra", "--with", str(folder / "hero.toml")]
    args += ["--against", str(folder / "villain.toml"), *FAST]
    for extra in ([], ["--as-is"]):
        answer = run_json(capsys, *args, *extra)
        assert gauges(answer, "Kaito Arashi") == [("Énergie", 8, 8), ("Volonté", 8, 8)]
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert "Énergie 8/8, Volonté 8/8" in out and "Énergie dealt" in out and "Énergie lost" in out


def test_pk_10_sides_carry_the_gms_names_or_the_fighters_names(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    pokemon_campaign(capsys, db)
    plain = pokemon_json(capsys, db)
    assert set(plain["wins"]) == {"Pikachu", "Raichu"}
    assert plain["fighters"]["Raichu"]["side"] == "Raichu"
    named = pokemon_json(capsys, db, "--side", "pikachu=héros", "--side", "RAICHU=vilain")
    assert set(named["wins"]) == {"héros", "vilain"}
    assert named["fighters"]["Pikachu"]["side"] == "héros"
    assert named["wins"]["héros"] == plain["wins"]["Pikachu"]  # the same fights, renamed
    code, out, err = pokemon(capsys, db, "--side", "Pikachu=héros", "--lang", "fr")
    assert code == 0, err
    assert "héros" in out and "Raichu" in out and "│ a " not in out
    varied = pokemon_json(
        capsys, db, "--side", "Raichu=vilain", "--vary", "Pikachu.stats.dexterity=+1"
    )
    assert {d["side"] for d in varied["compare"]} == {"Pikachu", "vilain"}


@pytest.mark.parametrize(
    ("sides", "said"),
    [
        (["héros"], "NAME=SIDE"),
        (["Nobody=héros"], "no such fighter"),
        (["Pikachu=héros", "Raichu=héros"], "both sides named alike"),
        (["Pikachu=héros", "pikachu=vilain"], "that side is named already"),
        (["Pikachu=" + "x" * 101], "at most 100 characters"),
    ],
)
def test_pk_10_a_wrong_side_name_is_refused_with_what_is_allowed(
    capsys: pytest.CaptureFixture[str], db: str, sides: list[str], said: str
) -> None:
    pokemon_campaign(capsys, db)
    words = [w for side in sides for w in ("--side", side)]
    code, _out, err = pokemon(capsys, db, *words)
    assert code == 2 and "Traceback" not in err
    assert said in err or (said == "NAME=SIDE" and "the name of its side" in err), err


def test_pu_4_a_side_of_several_fighters_is_named_by_them_all() -> None:
    system = default_registry().get("plus-ultra")

    def hero(name: str, side: str) -> dict[str, Any]:
        sheet = {"name": name, "rank": "C", "energy": 8, "willpower": 8}
        return {"name": name, "sheet": sheet, "side": side}

    fighters = [hero("Izuku", "a"), hero("Ochaco", "a"), hero("Katsuki", "b")]
    report = simulate_service(system, fighters, runs=40, workers=1)
    assert set(report.wins) == {"Izuku, Ochaco", "Katsuki"}
    named = simulate_service(system, fighters, runs=40, workers=1, sides={"a": "U.A."})
    assert set(named.wins) == {"U.A.", "Katsuki"}
    assert named.sides == {"Izuku": "U.A.", "Ochaco": "U.A.", "Katsuki": "Katsuki"}


def wizards(tmp_path: Path) -> tuple[Path, Path]:
    """Two sure wizards (every spell at level 5: a cast fails on a natural 12 only, IL-6): most
    duels end in round 1."""
    import re

    text = (SYSTEMS / "ilvermorny" / "examples" / "wizard.toml").read_text("utf-8")
    text = re.sub(r"(?m)^level = \d", "level = 5", text)
    files = []
    for name in ("Ann", "Bob"):
        path = tmp_path / f"{name.lower()}.toml"
        path.write_text(text.replace('"Seraphina Quill"', f'"{name}"'), encoding="utf-8")
        files.append(path)
    return files[0], files[1]


def test_il_6_il_11_a_duel_decided_in_round_1_reports_1_round(tmp_path: Path) -> None:
    """IL-6/IL-11: a duel whose first round lands a spell lasted 1 round — the round of its
    hit — though the decider has opened round 2 when the GM ends it."""
    system = default_registry().get("ilvermorny")
    simulation = simulation_of(system)
    ann, bob = wizards(tmp_path)
    fighters = [
        {"name": "Ann", "sheet": tomllib.loads(ann.read_text("utf-8")), "side": "a"},
        {"name": "Bob", "sheet": tomllib.loads(bob.read_text("utf-8")), "side": "b"},
    ]
    setup = build_setup(system, fighters, {})
    first_round = 0
    for index in range(60):
        played = play_fight(simulation, system.fight, setup, run_seed(0, index), simulation.tactic)
        ending = simulation.ending(played.events, played.state)
        (hit,) = played.state["hits"]
        assert ending.rounds == hit["round"]
        first_round += ending.rounds == 1
    assert first_round > 0


def test_il_6_il_11_simulate_reports_duels_of_1_round_in_english_and_french(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ann, bob = wizards(tmp_path)
    args = ["simulate", "ilvermorny", "--with", str(ann), "--against", str(bob)]
    answer = run_json(capsys, *args, "--runs", "500", "--workers", "1")
    distribution = dict((r, share) for r, share in answer["rounds"]["distribution"])
    assert min(distribution) == 1 and distribution[1] > 0.5
    assert set(answer["wins"]) == {"Ann", "Bob"}
    fighter = answer["fighters"]["Ann"]
    assert set(fighter) == {"side", "hit", "landed", "start"} and fighter["start"] == []
    code, out, err = run(capsys, *args, *FAST, "--lang", "fr")
    assert code == 0, err
    assert "touché" in out and "sorts qui ont touché" in out and "mis K.O." not in out
    assert "jauges de départ" not in out  # a wizard has no gauge
    assert "départ\u00a0: les fiches telles quelles (elles n'ont pas de jauges à remplir)" in out


def test_pd_5_pd_6_polemos_columns_are_pa_and_activations_not_damage_or_ko(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """PD-5: an activation's successes are its PA; a simulated game reports each player's PA
    gained and activations, and hands — never damage or knock-outs."""
    sheet = (SYSTEMS / "poledemos" / "examples" / "warband.toml").read_text("utf-8")
    alice, bob = tmp_path / "alice.toml", tmp_path / "bob.toml"
    alice.write_text(sheet.replace('"Section Perry"', '"Alice"'), encoding="utf-8")
    bob.write_text(sheet.replace('"Section Perry"', '"Bob"'), encoding="utf-8")
    args = ["simulate", "poledemos", "--with", str(alice), "--against", str(bob), *FAST]
    answer = run_json(capsys, *args)
    fighter = answer["fighters"]["Alice"]
    assert set(fighter) == {"side", "action_points", "activations", "start"}
    assert fighter["activations"] > 0 and fighter["action_points"] >= 0
    assert set(answer["wins"]) == {"Alice", "Bob"}
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert "PA gained" in out and "activations" in out and "hands" in out
    assert "damage" not in out and "knocked out" not in out
    code, out, err = run(capsys, *args, "--lang", "fr")
    assert code == 0, err
    assert "PA gagnés" in out and "activations" in out and "mains" in out
    assert "dégâts" not in out and "K.O." not in out


def test_pk_10_a_varied_maximum_keeps_a_fresh_gauge_full() -> None:
    """`--vary Pikachu.energy.max=+2` asks about a Pokémon with 2 more Énergie: the fresh fight
    starts it at 12/12, not 10/12; a gauge that was not full keeps what it had (`--as-is`)."""
    from jdr.simulate.service import fresh_fighters, vary

    system = default_registry().get("pokemon")
    sheet = example("pokemon", "pokemon.toml")
    sheet["energy"] = {"current": 4, "max": 10}
    fighters = [{"name": "Pikachu", "sheet": sheet, "side": "a"}]
    (fresh,) = vary("Pikachu.energy.max=+2", fresh_fighters(system, fighters))
    assert fresh["sheet"]["energy"] == {"current": 12, "max": 12}
    (kept,) = vary("Pikachu.energy.max=+2", fighters)
    assert kept["sheet"]["energy"] == {"current": 4, "max": 12}
