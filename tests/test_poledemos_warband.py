"""Polédémos warbands (PD-1, PD-8, PD-9): the example file, the loaders and every refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from jdr.dice import GivenFaces
from jdr.errors import InputError, UnknownNameError
from jdr.systems.poledemos.actions import ActivateParams, roll_activation
from jdr.systems.poledemos.warband import (
    Warband,
    WarbandError,
    example_path,
    load_example,
    load_warband,
)

EXAMPLE = example_path().read_text(encoding="utf-8")
PERRY = """
[[figures]]
name = "Sergent Perry"
val = "3+"
leader = true
followers = ["Caporal", "Recrue"]

[[figures]]
name = "Caporal"
val = "4+"

[[figures]]
name = "Recrue"
val = 5
"""


def refusal(text: str) -> WarbandError:
    with pytest.raises(WarbandError) as caught:
        load_warband(text)
    return caught.value


def test_pd_9_the_example_holds_the_sources_sergent_and_his_men() -> None:
    band = load_example()
    assert isinstance(band, Warband)
    perry = band.figure("Sergent Perry")
    assert perry.val == 3 and perry.leader
    assert [(f.name, f.val) for f in band.followers_of("Sergent Perry")] == [
        ("Caporal", 4),
        ("Recrue 1", 5),
        ("Recrue 2", 5),
    ]
    assert len(band.figures) > 4 and len(band.leaders()) >= 2
    assert all(1 <= val <= 6 for val in band.vals())


def test_pd_9_the_example_group_activates_as_in_the_source() -> None:
    band = load_example()
    group = [f.val for f in band.followers_of("sergent perry")]
    params = ActivateParams(val=band.figure("Sergent Perry").val, dice=3, group=group)
    record = roll_activation(params, GivenFaces([6, 4, 3]))
    assert [m["action_points"] for m in record.totals["group"]] == [2, 1, 1]


def test_a_warband_loads_from_a_path_and_from_text(tmp_path: Path) -> None:
    path = tmp_path / "perry.toml"
    path.write_text(PERRY, encoding="utf-8")
    for source in (path, str(path), PERRY):
        assert load_warband(source).vals() == [3, 4, 5]


def test_followers_are_stored_as_their_figure_spells_them() -> None:
    band = load_warband(PERRY.replace('["Caporal", "Recrue"]', '["caporal", " RECRUE "]'))
    assert band.figures[0].followers == ["Caporal", "Recrue"]
    assert band.figure("CAPORAL").name == "Caporal"


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        (('val = "4+"', 'val = "7+"'), "figures[2].val", "from 1+ to 6+"),
        (('val = "4+"', "val = 0"), "figures[2].val", "from 1+ to 6+"),
        (('val = "4+"', 'val = "quatre"'), "figures[2].val", "written 3 or 3+"),
        (('"Caporal", "Recrue"]', '"Caporal", "Recrue", "Tireur"]'), "figures[1].followers[3]", ""),
        (('name = "Recrue"', 'name = "caporal"'), "figures[3].name", "figure 2"),
        (('"Caporal", "Recrue"]', '"Caporal", "Sergent Perry"]'), "figures[1].followers[2]", ""),
        (('"Caporal", "Recrue"]', '"Caporal", "caporal"]'), "figures[1].followers[2]", "twice"),
        (("leader = true", "leader = false"), "figures[1].followers", "leader = true"),
        (('name = "Recrue"', 'name = "  "'), "figures[3].name", "empty"),
        (('val = "4+"', 'val = "4+"\nhealth = 3'), "figures[2].health", "unknown key"),
    ],
)
def test_pd_1_pd_8_bad_warbands_are_refused(
    change: tuple[str, str], field: str, reason: str
) -> None:
    old, new = change
    error = refusal(PERRY.replace(old, new, 1))
    assert error.field == field
    assert reason in error.message()


def test_an_unknown_follower_lists_the_figures() -> None:
    error = refusal(PERRY.replace('"Recrue"]', '"Tireur"]'))
    assert "no figure has this name" in error.message()
    assert "Sergent Perry, Caporal, Recrue" in error.message()


TWO_LEADERS = (
    PERRY
    + """
[[figures]]
name = "Lieutenant"
val = 2
leader = true
followers = ["Recrue"]
"""
)


def test_pd_8_a_figure_follows_one_leader_unless_the_table_says_otherwise() -> None:
    error = refusal(TWO_LEADERS)
    assert error.field == "figures[4].followers[1]"
    assert "already follows Sergent Perry" in error.message()
    shared = load_warband("shared_followers = true\n" + TWO_LEADERS)
    assert [f.name for f in shared.followers_of("Lieutenant")] == ["Recrue"]


def test_a_leader_may_follow_another_leader() -> None:
    text = TWO_LEADERS.replace('followers = ["Recrue"]', 'followers = ["Sergent Perry"]')
    assert load_warband(text).followers_of("Lieutenant")[0].leader


def test_a_warband_has_figures() -> None:
    assert refusal('name = "Vide"\nfigures = []').field == "figures"
    assert refusal('name = "Vide"').field == "figures"


def test_a_file_that_is_not_toml_or_not_there_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        load_warband("[[figures]\nname =")
    assert caught.value.message() == (
        "warband, line 1, column 10: a [[table]] header is not closed by ]]"
    )
    with pytest.raises(InputError) as caught:
        load_warband(tmp_path / "missing.toml")
    assert caught.value.value == str(tmp_path / "missing.toml")


def test_an_unknown_figure_or_example_lists_the_known_ones() -> None:
    with pytest.raises(UnknownNameError) as caught:
        load_example().figure("Colonel")
    assert "Caporal" in caught.value.message()
    with pytest.raises(UnknownNameError):
        example_path("army")


def test_the_example_file_is_the_shipped_one() -> None:
    assert load_warband(EXAMPLE) == load_example()
