"""Passion sheets: the model, the two example sheets, and bad sheets refused with a path, the value
and the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from jdr.errors import InputError, UnknownNameError
from jdr.i18n import language
from jdr.systems.passion.sheet_files import (
    SheetError,
    example_path,
    load_example,
    load_sheet,
    sheet_of,
)
from jdr.systems.passion.sheets import EXAMPLES, Sheet

ROMUALD = example_path("romuald").read_text(encoding="utf-8")
BASE = """
name = "Kai"
# top
[potentials]
Corps = 2
"Mobilité" = 3
[talents]
Combat = 4
[passion]
current = 3
max = 3
[energy]
current = 5
max = 5
"""


def top(line: str) -> str:
    """BASE with a top-level key (before the tables)."""
    return BASE.replace("# top", line)


def refused(text: str) -> SheetError:
    with pytest.raises(SheetError) as caught:
        load_sheet(text)
    return caught.value


def test_the_examples_load() -> None:
    assert EXAMPLES == ("romuald", "cyber-ninja")
    romuald = load_example("romuald")
    assert (romuald.name, romuald.npc) == ("Romuald", False)
    assert romuald.score("Coup de pied circulaire") == 4
    assert romuald.score("blast") == romuald.score("crochetage") == 7
    assert (romuald.passion.current, romuald.energy.max) == (5, 6)
    assert romuald.available_markers() == list(range(11))
    assert [w.name for w in romuald.weapons] == ["Pied", "Multi-shurikens"]
    assert romuald.weapon("pied").potential == "Corps"
    assert romuald.protection("CASQUE ANTI-TELEPATHIE").type == "mental"
    assert romuald.protection_scores() == {"physique": 2, "mental": 1}
    assert romuald.role("combat") == 4 and romuald.role("mobility") == 2
    ninja = load_example("cyber-ninja")
    assert ninja.npc and ninja.role("dodge") == 6
    assert ninja.protection("bouclier ionique").type == "energetique"


def test_a_sheet_reads_from_a_path_text_or_data(tmp_path: Path) -> None:
    path = tmp_path / "kai.toml"
    path.write_text(BASE, encoding="utf-8")
    assert load_sheet(path).name == load_sheet(str(path)).name == load_sheet(BASE).name == "Kai"
    kai = load_sheet(BASE)
    assert kai.uses.mobility == "Mobilité" and kai.role("body") == 2
    assert kai.role("mind") == 0  # no Esprit on the sheet: counts 0
    assert sheet_of(kai.model_dump()) == kai
    with pytest.raises(InputError, match="a readable TOML file"):
        load_sheet(str(tmp_path / "missing.toml"))
    with pytest.raises(InputError, match="line 1, column 8: not a TOML value"):
        load_sheet("name = ")
    with pytest.raises(UnknownNameError):
        example_path("batman")


def test_negative_talents_and_potentials_are_refused_with_their_path() -> None:
    error = refused(ROMUALD.replace("Blast = 7", "Blast = -1"))
    assert error.field == "talents.Blast" and error.value == -1
    assert "must be at least 0" in error.message()
    assert refused(BASE.replace("Corps = 2", "Corps = -2")).field == "potentials.Corps"


def test_pools_and_item_energy_stay_within_their_maximum() -> None:
    error = refused(BASE.replace("current = 3", "current = 4"))
    assert (error.field, error.value) == ("passion.current", 4)
    assert "more than the maximum 3" in error.message()
    bad = ROMUALD.replace("energy = { current = 5, max = 5 }", "energy = { current = 6, max = 5 }")
    assert refused(bad).field == "weapons[2].energy.current"


def test_markers_are_0_to_10_once_each_and_one_stays_available() -> None:
    assert load_sheet(top("ticked_markers = [0, 5]")).available_markers()[:3] == [1, 2, 3]
    error = refused(top("ticked_markers = [11]"))
    assert (error.field, error.value) == ("ticked_markers[1]", 11)
    assert "PS-9" in error.message()
    assert refused(top("ticked_markers = [2, 2]")).field == "ticked_markers[2]"
    error = refused(top(f"ticked_markers = {list(range(11))}"))
    assert "PS-12" in error.message()


def test_types_names_and_references_are_checked() -> None:
    weapon = '\n[[weapons]]\nname = "Laser"\nscore = 2\ntype = "{type}"\n'
    assert load_sheet(BASE + weapon.format(type="Énergétique")).weapons[0].type == "energetique"
    error = refused(BASE + weapon.format(type="feu"))
    assert error.field == "weapons[1].type" and "unknown damage type" in error.message()
    twice = BASE + weapon.format(type="mental") + weapon.format(type="mental")
    assert refused(twice).field == "weapons[2].name"
    melee = BASE + '\n[[weapons]]\nname = "Sabre"\nscore = 1\npotential = "Force"\n'
    error = refused(melee)
    assert error.field == "weapons[1].potential" and "no potential Force" in error.message()
    error = refused(BASE.replace("Combat = 4", "Combat = 4\ncorps = 1"))
    assert "both a talent and a potential" in error.message()
    error = refused(BASE + '\n[uses]\ndodge = "Roulades"\n')
    assert error.field == "uses.dodge" and "Combat" in error.message()
    assert load_sheet(BASE + '\n[uses]\ndodge = "combat"\n').role("dodge") == 4
    assert refused(top("hp = 3")).field == "hp"


def test_xp_lies_within_the_band_that_does_not_already_change_the_level() -> None:
    assert load_sheet(BASE + "\n[xp]\nCombat = 4\n").xp == {"Combat": 4}
    assert load_sheet(BASE + "\n[xp]\nCorps = -3\n").xp == {"Corps": -3}  # potential: ±2×2
    error = refused(BASE + "\n[xp]\nCombat = 5\n")
    assert (error.field, error.value) == ("xp.Combat", 5)
    assert "PS-18" in error.message()
    assert refused(BASE + "\n[xp]\nCombat = -4\n").field == "xp.Combat"
    assert refused(BASE + "\n[xp]\nVol = 1\n").field == "xp.Vol"


def test_messages_in_french_keep_the_path() -> None:
    with language("fr"):
        error = refused(BASE.replace("Corps = 2", "Corps = -2"))
        assert error.message().startswith("potentials.Corps")


def test_the_model_is_the_sheet_type_of_the_system() -> None:
    assert set(Sheet.model_fields) >= {
        "potentials",
        "talents",
        "passion",
        "energy",
        "ticked_markers",
        "weapons",
        "protections",
        "powers",
    }
